"""Bench bot: a thread started at import computes without end, through its
opponent's turns too, as a bot pondering on another's time would; the rest
of the file is first_cell.py. SPEC §5 charges that CPU to its own moves,
and its container's CPU limit keeps it from slowing anyone else.
"""
import threading


def ponder():
    n = 0
    while True:
        n += 1


threading.Thread(target=ponder, daemon=True).start()


def think(ia):
    return ia
