#!/usr/bin/env python3
"""Tic-tac-toe bot: perfect play by minimax. It never loses, wins as soon as
it can and, when every move is as good, takes the centre, then a corner,
then an edge, so that it answers the same request the same way. Reads
botsArena's JSON from argv[1] (or stdin), prints one JSON answer."""
import json
import sys
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
# Centre, corners, edges: the order ties are broken in.
ORDER = [4, 0, 2, 6, 8, 1, 3, 5, 7]


def read_request():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read()
    return json.loads(text)


def winner(cells):
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return ""


@lru_cache(maxsize=None)
def value(cells, me, other):
    """The value of the position for me, to move: 1 win, 0 draw, -1 loss,
    scaled so that a quicker win (or a later loss) is worth more."""
    free = [i for i in ORDER if not cells[i]]
    if not free:
        return 0
    best = -100
    for i in free:
        after = cells[:i] + (me,) + cells[i + 1:]
        if winner(after) == me:
            return 10 + len(free)
        best = max(best, -value(after, other, me))
    return best


def main():
    req = read_request()
    if req.get("action") == "init":
        print(json.dumps({"name": "minimax"}))
        return
    board, me = req["board"], req["you"]
    other = "O" if me == "X" else "X"
    cells = tuple(board["%d-%d" % (i // 3, i % 3)] for i in range(9))
    best, play = None, None
    for i in ORDER:
        if cells[i]:
            continue
        after = cells[:i] + (me,) + cells[i + 1:]
        v = 100 if winner(after) == me else -value(after, other, me)
        if best is None or v > best:
            best, play = v, i
    print(json.dumps({"play": "%d-%d" % (play // 3, play % 3)}))


main()
