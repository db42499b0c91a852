"""Hostile virus bot. Attacks: the CPU and the clock. On its first move it
spins forever. Contained: the harness interrupts it at the move limit."""


def ia(game, side):
    if len(game["history"]) < 2:
        while True:
            pass
    return False
