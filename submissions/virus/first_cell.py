"""First legal cell in reading order, like the example of the original contest.

ia(game, side) gets the game dict and our side ("player_1" or "player_2") and
returns [row, col] to place a piece, or False to pass.
"""


def ia(game, side):
    grid = game["grid"]
    empty = game["references"]["neutral"]
    mine = game["references"][side]
    size = len(grid)
    for row in range(size):  # top to bottom
        for col in range(size):  # left to right
            if grid[row][col] != empty:
                continue  # only an empty cell can take a piece
            # A move is legal when one of the 8 neighbours (diagonals too) is ours.
            for r in range(row - 1, row + 2):
                for c in range(col - 1, col + 2):
                    if 0 <= r < size and 0 <= c < size and grid[r][c] == mine:
                        return [row, col]
    return False  # no legal move: pass
