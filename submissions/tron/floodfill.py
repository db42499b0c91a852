#!/usr/bin/env python3
"""Tron bot: flood fill. Of the moves that do not kill it at once, it takes
the one that leaves it the most room (the cells it can reach before anyone
else), and shuns cells next to another head, where a head-on collision
could happen. Reads botsArena's JSON from argv[1], or stdin when the judge
sends it there (very large boards); prints one JSON answer."""
import json
import sys
from collections import deque

MOVES = {"x+": (1, 0), "x-": (-1, 0), "y+": (0, 1), "y-": (0, -1)}


def read_request():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read()
    return json.loads(text)


def room(start, taken, others, width, height):
    """Cells reachable from start before any other head gets there: a BFS
    from every head at once, counting the cells start reaches first."""
    owner = {start: 0}
    queue = deque([(start, 0)])
    for i, head in enumerate(others, 1):
        if head not in owner:
            owner[head] = i
            queue.append((head, i))
    mine = 0
    while queue:
        (x, y), who = queue.popleft()
        if who == 0:
            mine += 1
        for dx, dy in MOVES.values():
            nxt = (x + dx, y + dy)
            if 0 <= nxt[0] < width and 0 <= nxt[1] < height and nxt not in taken and nxt not in owner:
                owner[nxt] = who
                queue.append((nxt, who))
    return mine


def main():
    req = read_request()
    if req.get("action") == "init":
        print(json.dumps({"name": "floodfill"}))
        return
    width, height = req.get("width", 100), req.get("height", 100)
    me = req["player-index"]
    trails = req["board"]
    taken = {tuple(c) for trail in trails for c in trail}
    head = tuple(trails[me][0])
    others = [tuple(t[0]) for i, t in enumerate(trails) if i != me and t]
    near_heads = {(hx + dx, hy + dy) for hx, hy in others for dx, dy in MOVES.values()}
    best, best_score = "x+", None
    for name, (dx, dy) in MOVES.items():
        nxt = (head[0] + dx, head[1] + dy)
        if not (0 <= nxt[0] < width and 0 <= nxt[1] < height) or nxt in taken:
            continue
        # A cell next to another head may be entered by it too: a head-on
        # collision kills both, so it is worth much less room.
        score = room(nxt, taken | {nxt}, others, width, height) * (0.25 if nxt in near_heads else 1)
        if best_score is None or score > best_score:
            best, best_score = name, score
    print(json.dumps({"play": best}))


main()
