"""Bench bot: the first legal cell in reading order, at once."""


def ia(game, side):
    grid = game["grid"]
    empty = game["references"]["neutral"]
    mine = game["references"][side]
    n = len(grid)
    for row in range(n):
        for col in range(n):
            if grid[row][col] == empty and any(
                0 <= r < n and 0 <= c < n and grid[r][c] == mine
                for r in range(row - 1, row + 2)
                for c in range(col - 1, col + 2)
            ):
                return [row, col]
    return False
