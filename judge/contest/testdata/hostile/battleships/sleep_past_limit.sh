#!/bin/sh
# Hostile battleships bot (shell). Attacks: the clock. It sleeps far past the
# move limit on its init request. Contained: killed at the move limit.
sleep 600
