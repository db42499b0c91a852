"""Two-ply lookahead: try each of our moves, assume the opponent then plays its
best reply, and keep the move that leaves us the largest lead.

Lead = our pieces minus the opponent's. A move that converts k pieces gains
the mover 1 + 2k lead (one new piece, and k pieces change sides), so for the
opponent's replies counting conversions is enough.
"""


def moves(grid, mine, other, empty):
    """[(row, col, cells it converts)] for every legal cell of `mine`."""
    size = len(grid)
    result = []
    for row in range(size):
        for col in range(size):
            if grid[row][col] != empty:
                continue
            around = [
                (r, c)
                for r in range(max(row - 1, 0), min(row + 2, size))
                for c in range(max(col - 1, 0), min(col + 2, size))
            ]  # the 8 neighbours (and the cell itself, which is empty)
            if any(grid[r][c] == mine for r, c in around):
                converts = [(r, c) for r, c in around if grid[r][c] == other]
                result.append((row, col, converts))
    return result


def ia(game, side):
    refs = game["references"]
    mine, empty = refs[side], refs["neutral"]
    other = refs["player_2" if side == "player_1" else "player_1"]
    grid = [row[:] for row in game["grid"]]  # our own copy to try moves on

    best, best_lead = False, None  # False = pass, if we have no legal move
    for row, col, converts in moves(grid, mine, other, empty):
        # Play the move on the copy...
        grid[row][col] = mine
        for r, c in converts:
            grid[r][c] = mine
        # ...find the opponent's best reply (it may have none)...
        replies = moves(grid, other, mine, empty)
        reply_gain = max((1 + 2 * len(conv) for _, _, conv in replies), default=0)
        # ...and take the move back.
        grid[row][col] = empty
        for r, c in converts:
            grid[r][c] = other

        lead = 1 + 2 * len(converts) - reply_gain  # our lead gained over both moves
        if best_lead is None or lead > best_lead:
            best, best_lead = [row, col], lead
    return best
