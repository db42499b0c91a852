"""Bench bot: does the same fixed amount of work for every move, whatever
the machine's load, then plays the first legal cell: its answer times show
what other games take from a bot's time. The bench appends first_cell.py.
WORK takes about 100 ms of CPU: a move of a few milliseconds is timed
within the machine's own jitter (an interrupt, the hypervisor taking the
core), which a thinking bot's move of seconds never notices.
"""

WORK = 4_000_000


def think(ia):
    def working(game, side):
        n = 0
        for i in range(WORK):
            n += i
        return ia(game, side)

    return working
