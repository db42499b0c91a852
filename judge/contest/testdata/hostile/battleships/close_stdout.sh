#!/bin/sh
# Hostile battleships bot (shell). Attacks: the harness's pipes. It closes
# its standard input, output and error, then runs on a little. Contained: a
# request without output is a malformed answer.
exec 0<&- 1>&- 2>&-
sleep 0.2
