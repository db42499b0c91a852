"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the disk. It writes to its writable /tmp until the write fails (on its first
move, or on the init request). Contained: /tmp is a small tmpfs, the write
stops with ENOSPC, the judge's disk is untouched, and the bot goes on."""
import errno
import os


def attack():
    written, error = 0, "none"
    fd = os.open("/tmp/fill", os.O_WRONLY | os.O_CREAT)
    try:
        while written < 1 << 30:
            written += os.write(fd, b"\0" * (1 << 20))
    except OSError as exc:
        error = errno.errorcode.get(exc.errno, str(exc.errno))
    os.close(fd)
    return "wrote=%dMiB error=%s" % (written >> 20, error)


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK fill_tmp: " + attack())
    return False

if __name__ == "__main__":  # as a battleships program: one process per request
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        print("ATTACK fill_tmp: " + attack(), file=sys.stderr)
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
