"""A random legal cell.

Shows game[side]["misc"]: a dict that is ours alone and keeps its content from
one call to the next during a game. We keep our random generator in it.
"""
import random


def legal_cells(grid, mine, empty):
    """Every empty cell with one of our pieces among its 8 neighbours."""
    size = len(grid)
    cells = []
    for row in range(size):
        for col in range(size):
            if grid[row][col] == empty and any(
                grid[r][c] == mine
                for r in range(max(row - 1, 0), min(row + 2, size))
                for c in range(max(col - 1, 0), min(col + 2, size))
            ):
                cells.append([row, col])
    return cells


def ia(game, side):
    misc = game[side]["misc"]
    if "rng" not in misc:
        # First call of this game: a generator seeded with our side, so that
        # a game can be played again with the same moves.
        misc["rng"] = random.Random(side)
    refs = game["references"]
    cells = legal_cells(game["grid"], refs[side], refs["neutral"])
    if not cells:
        return False  # nowhere to play: pass
    return misc["rng"].choice(cells)
