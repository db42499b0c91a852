"""Bench bot: thinks for a fixed time, then plays the first legal cell.

It computes for THINK seconds of CPU, or sleeps for them when SLEEP is set,
as a bot waiting on nothing but the clock. The judge writes both; the rest of
the file is first_cell.py.
"""
import time

THINK = 0.05
SLEEP = False


def think(ia):
    def thinking(game, side):
        if SLEEP:
            time.sleep(THINK)
        else:
            end = time.process_time() + THINK
            while time.process_time() < end:
                pass
        return ia(game, side)

    return thinking
