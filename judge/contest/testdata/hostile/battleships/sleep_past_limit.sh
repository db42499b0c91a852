#!/bin/sh
# Hostile battleships bot (shell). Attacks: the clock. It sleeps far past the
# move limit on its init request, which costs it no CPU. Contained: killed at
# the wall-clock backstop, twice the limit.
sleep 600
