"""Hostile virus bot. Attacks: the judge's start-up of a bot. It is not
valid Python (a missing colon on line 6). Contained: the bot is reported
with the syntax error and its line; it passes every turn."""


def ia(game, side)
    return False
