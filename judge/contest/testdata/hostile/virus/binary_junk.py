"""Hostile virus bot. Attacks: the protocol and the log with binary junk. On
its first move it writes bytes that are not text to its stdout and to the
harness's private channel, then returns bytes. Contained: the junk lines are
dropped, the log stays text, and the answer is malformed."""
import os

JUNK = bytes(range(256)) * 4


def ia(game, side):
    if len(game["history"]) < 2:
        for fd in [int(fd) for fd in os.listdir("/proc/self/fd")]:
            try:
                os.write(fd, JUNK + b"\n")
            except OSError:
                pass
        return JUNK
    return False
