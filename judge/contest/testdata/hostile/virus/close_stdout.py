"""Hostile virus bot. Attacks: the harness's output. On its first move it
closes its standard input, output and error, then keeps playing (it passes).
Contained: the harness talks to the judge on descriptors of its own, so
nothing changes."""
import os


def ia(game, side):
    if len(game["history"]) < 2:
        for fd in (0, 1, 2):
            os.close(fd)
    return False
