"""Hostile virus bot. Attacks: the log. On its first move it writes to its
standard error without end. Contained: the move times out and the log keeps
only its first 64 KiB."""
import sys


def ia(game, side):
    if len(game["history"]) < 2:
        while True:
            sys.stderr.write("stderr flood " * 80 + "\n")
    return False
