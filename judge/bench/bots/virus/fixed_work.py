"""Bench bot: does the same fixed amount of work for every move, whatever
the machine's load, then plays the first legal cell: its answer times show
what other games take from a bot's time. The judge sets WORK; the rest of
the file is first_cell.py.
"""

WORK = 400_000


def think(ia):
    def working(game, side):
        n = 0
        for i in range(WORK):
            n += i
        return ia(game, side)

    return working
