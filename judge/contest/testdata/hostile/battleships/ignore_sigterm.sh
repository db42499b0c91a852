#!/bin/sh
# Hostile battleships bot (shell). Attacks: the way a request is stopped. It
# ignores SIGTERM, SIGINT and SIGHUP, then spins, and so does a child of its
# own. Contained: the harness stops a request with SIGKILL, which cannot be
# ignored, and kills every process of the container.
trap '' TERM INT HUP
sh -c "trap '' TERM INT HUP; while :; do :; done" &
while :; do :; done
