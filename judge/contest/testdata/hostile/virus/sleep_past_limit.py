"""Hostile virus bot. Attacks: the clock. On its first move it sleeps far
past the move limit, which costs it no CPU. Contained: the harness
interrupts it at the wall-clock backstop, twice the limit, and says so."""
import time


def ia(game, side):
    if len(game["history"]) < 2:
        time.sleep(600)
    return False
