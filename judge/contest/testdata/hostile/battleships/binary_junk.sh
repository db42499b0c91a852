#!/bin/sh
# Hostile battleships bot (shell). Attacks: the protocol with bytes that are
# not text, on stdout and on stderr (its log). Contained: the answer is
# malformed and the log stays text.
printf '\000\377\376\375junk\001\002\n'
printf '\377\376 binary log\n' >&2
