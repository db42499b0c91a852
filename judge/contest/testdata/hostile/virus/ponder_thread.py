"""Hostile virus bot. Attacks: the clock. It starts a thread at import that
computes without end, through its opponent's turns too, as a bot that
ponders on its opponent's time would. On each move it logs the CPU its
thread used since its first move. Contained: the CPU its container uses
between moves is charged to its next move (SPEC §5), so its moves were
charged at least what the thread used."""
import threading
import time

pondered = 0.0


def ponder():
    global pondered
    while True:
        pondered = time.thread_time()


threading.Thread(target=ponder, daemon=True).start()
first = None


def ia(game, side):
    global first
    if first is None:
        first = pondered
    print("SPENT %.3f" % (pondered - first))
    return False
