"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the judge's memory with a 10 MB answer, as ia's return value (virus) or on
stdout (program). Contained: answers are limited to 64 KiB."""
import json

HUGE = ["x" * 1000] * 10000


def ia(game, side):
    if len(game["history"]) < 2:
        return HUGE
    return False


if __name__ == "__main__":
    print(json.dumps(HUGE))
