"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
memory. On its first move (or its init request) it allocates and touches
16 MiB blocks until something stops it. Contained: the container's 256 MiB
limit kills it, and the move is reported as out of memory."""


def hog():
    blocks = []
    while True:
        blocks.append(b"\x01" * (16 << 20))


def ia(game, side):
    if len(game["history"]) < 2:
        hog()
    return False


if __name__ == "__main__":
    hog()
