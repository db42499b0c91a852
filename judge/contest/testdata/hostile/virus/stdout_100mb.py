"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the judge's memory and the log. On its first move (or its init request) it
writes 100 MB on its standard output. Contained: a program's answer is cut at
64 KiB and rejected; a virus bot's stdout is its log, kept to 64 KiB, and
the flood may take it past the move limit (then it is interrupted)."""
import sys


def flood():
    line = "y" * 1023 + "\n"
    for _ in range(100 * 1024):
        sys.stdout.write(line)
    sys.stdout.flush()


def ia(game, side):
    if len(game["history"]) < 2:
        flood()
    return False


if __name__ == "__main__":
    flood()
