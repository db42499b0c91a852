"""Hostile bot, for virus (imported) and battleships (run as a program).
Attacks: the judge's start-up of a bot. It raises as soon as it runs.
Contained: the bot is reported with its own error; its opponent plays on."""

raise RuntimeError("hostile crash on import")


def ia(game, side):
    return False
