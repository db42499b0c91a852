"""Hostile virus bot. Attacks: the clock. On its first moves it spreads its
work over eight threads, as if the limit were per thread, and logs the CPU
they used together. Contained: a move is charged the CPU of all of its
container's threads (SPEC §5): each of those moves was charged their sum."""
import threading
import time


def ia(game, side):
    if len(game["history"]) >= 6:
        return False
    used = []

    def work():
        end = time.thread_time() + 0.1
        while time.thread_time() < end:
            pass
        used.append(time.thread_time())

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("MOVE %.3f" % sum(used))
    return False
