"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the process table. On every move (or its init request) it forks forever,
and every child forks too, up to the container's 64-process limit.
Contained: each move times out; the children only starve the bot's own
container, and they die with it."""
import os


def bomb():
    while True:
        try:
            os.fork()
        except OSError:
            pass


def ia(game, side):
    bomb()


if __name__ == "__main__":
    bomb()
