"""Greedy: the legal cell that converts the most opponent pieces right now.

Ties go to the first such cell in reading order. It never looks at what the
opponent can answer: see lookahead.py for that.
"""


def ia(game, side):
    grid = game["grid"]
    refs = game["references"]
    mine, empty = refs[side], refs["neutral"]
    other = refs["player_2" if side == "player_1" else "player_1"]
    size = len(grid)
    best, best_flips = False, -1  # False = pass, if no cell is legal
    for row in range(size):
        for col in range(size):
            if grid[row][col] != empty:
                continue
            around = [
                grid[r][c]
                for r in range(max(row - 1, 0), min(row + 2, size))
                for c in range(max(col - 1, 0), min(col + 2, size))
            ]  # the cell itself is in it too, but it is empty
            if mine in around and around.count(other) > best_flips:
                best, best_flips = [row, col], around.count(other)
    return best
