"""Hostile virus bot. Attacks: staging, mounting and importing a huge bot:
the test appends 50 MB of comment lines to this file before staging it (the
50 MB file is never committed). Contained: it is imported once, within the
start-up limit, and plays (it passes)."""


def ia(game, side):
    return False

