"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the process table. On its first move (or its init request) it forks forever,
and every child forks too, up to the container's 64-process limit.
Contained: the move times out; the children only starve the bot's own
container, and they die with it."""
import os


def bomb():
    while True:
        try:
            os.fork()
        except OSError:
            pass


def ia(game, side):
    if len(game["history"]) < 2:
        bomb()
    return False


if __name__ == "__main__":
    bomb()
