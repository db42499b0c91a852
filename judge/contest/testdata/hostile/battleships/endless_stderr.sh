#!/bin/sh
# Hostile battleships bot (shell). Attacks: the log. It writes to its
# standard error without end. Contained: the request times out and the log
# keeps only its first 64 KiB.
yes "stderr flood" >&2
