# The free-for-all benchmark's bot: answers at once, going straight on
# until something is in the way, then to the free side with the longest run
# ahead. Once its trail is LIFE cells long (0: never) it turns back into
# itself, so that a test can bound a game's length.
import json
import sys

LIFE = 0
MOVES = {"x+": (1, 0), "y+": (0, 1), "x-": (-1, 0), "y-": (0, -1)}

req = json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())
if req["action"] == "init":
    print('{"name": "ahead"}')
    sys.exit(0)
w, h = req.get("width", 100), req.get("height", 100)
trail = req["board"][req["player-index"]]
taken = {(x, y) for t in req["board"] for x, y in t}
(hx, hy) = trail[0]


def run(d):
    dx, dy = MOVES[d]
    n, x, y = 0, hx + dx, hy + dy
    while 0 <= x < w and 0 <= y < h and (x, y) not in taken:
        n, x, y = n + 1, x + dx, y + dy
    return n


heading = "x+"
if len(trail) > 1:
    heading = next(d for d, (dx, dy) in MOVES.items() if (hx - trail[1][0], hy - trail[1][1]) == (dx, dy))
if LIFE and len(trail) >= LIFE:
    play = next(d for d, (dx, dy) in MOVES.items() if (dx, dy) == (-MOVES[heading][0], -MOVES[heading][1]))
elif run(heading):
    play = heading
else:
    play = max(MOVES, key=run)
print(json.dumps({"play": play}))
