"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the interpreter's stack. On its first move (or its init request) it lifts
Python's recursion limit and recurses through a builtin, a million calls
deep, until the C stack overflows. Contained: the process dies of SIGSEGV;
a virus bot is started afresh for its next move."""
import sys


def dive(depth):
    return list(map(dive, [depth + 1]))


def overflow():
    sys.setrecursionlimit(10**6)
    dive(0)


def ia(game, side):
    if len(game["history"]) < 2:
        overflow()
    return False


if __name__ == "__main__":
    overflow()
