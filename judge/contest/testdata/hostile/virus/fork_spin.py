"""Hostile virus bot. Attacks: the clock. On its first move it forks a child
that computes without end, between its moves too, and writes the CPU it
used to /tmp; each move logs it. Contained: the CPU of every process of
its container is charged to its moves (SPEC §5), so its moves were charged
at least what the child used."""
import os
import time

SPUN = "/tmp/spun"
seen = 0.0


def spin():
    while True:
        with open(SPUN + ".new", "w") as f:
            f.write("%.3f" % time.process_time())
        os.replace(SPUN + ".new", SPUN)


def spent():
    try:
        with open(SPUN) as f:
            return float(f.read())
    except (OSError, ValueError):
        return 0.0


def ia(game, side):
    global seen
    if not os.path.exists(SPUN) and os.fork() == 0:
        try:
            spin()
        finally:
            os._exit(0)
    # On a busy machine a short game leaves the child little CPU: each move
    # waits (sleeping, using none) until it has spun 10 ms more, so that the
    # game has enough of its CPU to charge.
    until = time.monotonic() + 0.5
    while spent() < seen + 0.01 and time.monotonic() < until:
        time.sleep(0.005)
    seen = spent()
    print("SPENT %.3f" % seen)
    return False
