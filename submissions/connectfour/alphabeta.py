#!/usr/bin/env python3
"""Connect four bot: negamax with alpha-beta pruning on bitboards. It
searches deeper and deeper until it has spent its budget of positions (a
count, not a time, so that the same request always gets the same answer),
and keeps the best move of the deepest search it finished. A leaf is worth
the difference between the cells where each side would complete a line,
plus the pieces in the centre column. Reads botsArena's JSON from argv[1]
(or stdin), prints one JSON answer."""
import json
import sys

ROWS, COLS = 6, 7
H = ROWS + 1  # bits per column: a free bit on top of each keeps lines apart
BOTTOM = sum(1 << (c * H) for c in range(COLS))
FULL = BOTTOM * ((1 << ROWS) - 1)
CENTRE = ((1 << ROWS) - 1) << (3 * H)
ORDER = [3, 2, 4, 1, 5, 0, 6]
WIN = 1000
BUDGET = 50000  # positions per answer: a fraction of a second in CPython


def read_request():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read()
    return json.loads(text)


def bits(n):
    return bin(n).count("1")


def top(col):
    return 1 << (col * H + ROWS - 1)


def drop(mask, col):
    """The cell a piece dropped in col lands on."""
    return (mask + (1 << (col * H))) & (((1 << H) - 1) << (col * H)) & ~mask


def threats(p, mask):
    """The free cells where the pieces p would complete a line of four."""
    r = (p << 1) & (p << 2) & (p << 3)  # up
    for s in (H, H - 1, H + 1):  # across and both diagonals
        t = (p << s) & (p << 2 * s)
        r |= t & (p << 3 * s)
        r |= t & (p >> s)
        t = (p >> s) & (p >> 2 * s)
        r |= t & (p << s)
        r |= t & (p >> 3 * s)
    return r & (FULL ^ mask)


class OutOfBudget(Exception):
    pass


class Search:
    def __init__(self):
        self.nodes = 0

    def negamax(self, me, mask, depth, alpha, beta, ply):
        """The value for the side to move, whose pieces are me."""
        self.nodes += 1
        if self.nodes > BUDGET:
            raise OutOfBudget
        playable = (mask + BOTTOM) & FULL
        if threats(me, mask) & playable:
            return WIN - ply
        opp = me ^ mask
        if mask == FULL:
            return 0
        if depth == 0:
            them = threats(opp, mask)
            return 4 * (bits(threats(me, mask)) - bits(them)) + bits(me & CENTRE) - bits(opp & CENTRE)
        forced = threats(opp, mask) & playable
        best = -WIN
        for col in ORDER:
            if mask & top(col):
                continue
            move = drop(mask, col)
            if forced and not move & forced:
                continue  # the opponent wins unless this is blocked
            v = -self.negamax(opp, mask | move, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best = v
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        return best


def choose(me, mask):
    legal = [c for c in ORDER if not mask & top(c)]
    # The search judges the positions after a move, where a line just made
    # is not seen: a winning move is taken first.
    wins = threats(me, mask)
    for col in legal:
        if drop(mask, col) & wins:
            return col
    best_move = legal[0]
    search = Search()
    for depth in range(1, ROWS * COLS):
        order = [best_move] + [c for c in legal if c != best_move]
        try:
            best, alpha = None, -WIN - 1
            for col in order:
                v = -search.negamax(me ^ mask, mask | drop(mask, col), depth - 1, -WIN - 1, -alpha, 1)
                if best is None or v > alpha:
                    best, alpha = col, v
        except OutOfBudget:
            break
        best_move = best
        if alpha >= WIN - ROWS * COLS:
            break  # a forced win was found: no need to look further
    return best_move


def main():
    req = read_request()
    if req.get("action") == "init":
        print(json.dumps({"name": "alphabeta"}))
        return
    me, mask = 0, 0
    for row, cells in enumerate(req["board"]):
        for col, mark in enumerate(cells):
            if mark:
                bit = 1 << (col * H + row)
                mask |= bit
                if mark == req["you"]:
                    me |= bit
    print(json.dumps({"play": choose(me, mask)}))


main()
