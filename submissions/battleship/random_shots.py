#!/usr/bin/env python3
"""Battleship bot (botsArena's rules): places its boats at random and
shoots at random cells it has not shot yet. Its randomness is seeded with
the game-id, its index and its strikes, so that it answers the same request
the same way. Reads botsArena's JSON from argv[1] (or stdin), prints one
JSON answer."""
import json
import random
import sys


def read_request():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read()
    return json.loads(text)


def place(rng, w, h, lengths):
    """Boats at random, without overlap: each boat tries random spots."""
    for _ in range(50):
        taken, boats = set(), []
        for length in lengths:
            spots = [[(x + i, y) for i in range(length)] for x in range(w - length + 1) for y in range(h)]
            if length > 1:
                spots += [[(x, y + i) for i in range(length)] for x in range(w) for y in range(h - length + 1)]
            spots = [s for s in spots if not taken.intersection(s)]
            if not spots:
                break
            cells = rng.choice(spots)
            taken.update(cells)
            boats.append("%d,%d-%d,%d" % (cells[0] + cells[-1]))
        else:
            return boats
    return []


def main():
    req = read_request()
    board = req["board"]
    w, h = int(board["width"]), int(board["height"])
    strikes = board.get("your_strikes", [])
    rng = random.Random("%s %s %d" % (req.get("game-id"), req.get("player-index"), len(strikes)))
    if req.get("action") == "init":
        lengths = [n for n in range(6, 0, -1) for _ in range(int(board.get("ship%d" % n, 0)))]
        print(json.dumps({"name": "random_shots", "boats": place(rng, w, h, lengths)}))
        return
    shot = {s["target"] for s in strikes}
    free = ["%d,%d" % (x, y) for x in range(w) for y in range(h) if "%d,%d" % (x, y) not in shot]
    print(json.dumps({"play": rng.choice(free) if free else "0,0"}))


main()
