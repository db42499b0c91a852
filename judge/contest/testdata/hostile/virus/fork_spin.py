"""Hostile virus bot. Attacks: the clock. On its first move it forks a child
that computes without end, between its moves too, and writes the CPU it
used to /tmp; each move logs it. Contained: the CPU of every process of
its container is charged to its moves (SPEC §5), so its moves were charged
at least what the child used."""
import os
import time

SPUN = "/tmp/spun"


def spin():
    while True:
        with open(SPUN + ".new", "w") as f:
            f.write("%.3f" % time.process_time())
        os.replace(SPUN + ".new", SPUN)


def ia(game, side):
    if not os.path.exists(SPUN) and os.fork() == 0:
        try:
            spin()
        finally:
            os._exit(0)
    try:
        with open(SPUN) as f:
            print("SPENT " + f.read())
    except OSError:
        print("SPENT 0")
    return False
