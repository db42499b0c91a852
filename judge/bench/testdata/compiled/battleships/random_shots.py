#!/usr/bin/env python3
"""Battleships bot: a random fleet and random shots.

The judge passes the request JSON as the first argument (and on stdin, unused
here) and reads one JSON value from stdout. The bot is stateless: it runs once
per request. Its randomness is seeded with the request itself, so the same
request always gets the same answer (the init request never changes, so neither
does the fleet).
"""
import json
import random
import sys

SIZES = (2, 3, 4, 5)


def random_fleet(rng):
    """Place the ships one by one, drawing a ship again until it fits."""
    taken = set()
    fleet = {}
    for size in SIZES:
        while True:
            vertical = rng.random() < 0.5
            # The point is the top or left end: keep the far end on the grid.
            c = rng.randrange(8 if vertical else 9 - size)
            r = rng.randrange(9 - size if vertical else 8)
            cells = {(c, r + i) if vertical else (c + i, r) for i in range(size)}
            if not cells & taken:  # touching is allowed, overlapping is not
                break
        taken |= cells
        fleet[str(size)] = {"point": f"{c}{r}", "orientation": "vertical" if vertical else "horizontal"}
    return fleet


def random_shot(request, rng):
    """Any cell not shot yet: shooting a cell twice loses the game."""
    shot = set(request["hit"]) | set(request["missed"])
    free = [f"{c}{r}" for c in range(8) for r in range(8) if f"{c}{r}" not in shot]
    return {"move": rng.choice(free)}


def main():
    request = json.loads(sys.argv[1])
    rng = random.Random(sys.argv[1])
    if request["cmd"] == "init":
        print(json.dumps(random_fleet(rng)))
    else:
        print(json.dumps(random_shot(request, rng)))


main()
