"""Hostile virus bot. Attacks: the judge's start-up of a bot. It defines
play() instead of ia(). Contained: reported as such; it passes every turn."""


def play(game, side):
    return False
