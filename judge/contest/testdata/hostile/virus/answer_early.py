"""Hostile virus bot. Attacks: the protocol, by answering before being
asked. While it is imported it writes answers to requests 1 to 50 ([4, 4], a
cell it may not take) on every descriptor it has, the harness's private
channel to the judge included; then it passes on every move. Contained: the
judge ignores answers that come before the bot is ready, and each request
gets the answer the bot gave to it."""
import os

SPOOF = b"".join(b'{"id": %d, "value": [4, 4]}\n' % n for n in range(1, 51))


def spoof():
    channel = 0
    for fd in [int(fd) for fd in os.listdir("/proc/self/fd")]:
        try:
            os.write(fd, SPOOF)
            channel += fd > 2
        except OSError:
            pass
    print("ATTACK answer_early: spoofed=%d" % (channel > 0))


spoof()


def ia(game, side):
    return False
