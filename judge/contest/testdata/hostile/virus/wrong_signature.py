"""Hostile virus bot. Attacks: the call of ia. Its ia takes one argument
instead of (game, side). Contained: every call is an error that says so."""


def ia(game):
    return False
