"""Hostile virus bot. Attacks: the way a move is interrupted. On its first
move it ignores every signal it is allowed to (SIGTERM, SIGINT, SIGHUP and
the harness's own SIGALRM), swallows every exception, and spins. Contained:
the judge gives up at the limit, removes the container and starts the bot
afresh for its next move."""
import signal


def ia(game, side):
    if len(game["history"]) < 2:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
            signal.signal(sig, signal.SIG_IGN)
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
    return False
