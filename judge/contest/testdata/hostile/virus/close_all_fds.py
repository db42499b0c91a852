"""Hostile virus bot. Attacks: the harness itself. On its first move it
closes every file descriptor of its process, the harness's private channel
to the judge included. Contained: the harness cannot answer and dies, the
move is a crash, and the bot is started afresh for its next move."""
import os


def ia(game, side):
    if len(game["history"]) < 2:
        os.closerange(0, 65536)
    return False
