#!/usr/bin/env python3
"""Tron bot: a random walk that never runs into a wall or a trail when it
can help it. Its randomness is seeded by the game and the turn, so a replay
of its games is exact. Reads botsArena's JSON from argv[1] or stdin."""
import json
import random
import sys

MOVES = {"x+": (1, 0), "x-": (-1, 0), "y+": (0, 1), "y-": (0, -1)}

req = json.loads(sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read())
if req.get("action") == "init":
    print(json.dumps({"name": "wanderer"}))
    sys.exit(0)
width, height = req.get("width", 100), req.get("height", 100)
trails = req["board"]
me = req["player-index"]
taken = {tuple(c) for trail in trails for c in trail}
x, y = trails[me][0]
safe = [name for name, (dx, dy) in MOVES.items()
        if 0 <= x + dx < width and 0 <= y + dy < height and (x + dx, y + dy) not in taken]
rng = random.Random("%s/%d/%d" % (req.get("game-id"), me, len(trails[me])))
print(json.dumps({"play": rng.choice(safe) if safe else "x+"}))
