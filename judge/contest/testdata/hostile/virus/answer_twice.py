"""Hostile virus bot. Attacks: the protocol, by answering twice. On every
move it writes two answers of its own to the current request ([4, 4], a cell
it may not take) on the harness's private channel to the judge, before the
harness sends ia's real answer (a pass). Contained: the judge takes the first
answer to each request and drops the others, so no answer ever lands on the
next request: every move of this bot is the illegal [4, 4]."""
import os


def ia(game, side):
    misc = game[side]["misc"]
    misc["request"] = misc.get("request", 0) + 1  # the judge numbers requests from 1
    line = b'{"id": %d, "value": [4, 4]}\n' % misc["request"]
    for fd in [int(fd) for fd in os.listdir("/proc/self/fd")]:
        if fd > 2:
            try:
                os.write(fd, line * 2)
            except OSError:
                pass
    return False
