"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the end of its move and of its game. It starts a child and a double-forked
daemon in a session of its own, both named hostile-outlive-<kind>, then
checks on its next move which of them still run. A virus bot's container
lives for the whole game, so they still run on its next move; a program's
request kills them.
Contained: nothing named so is left on the host once the game is over."""
import os
import subprocess

MARK = "hostile-outlive-" + ("program" if __name__ == "__main__" else "virus")
PIDS = "/tmp/outlive.pids"
SLEEPER = ["sh", "-c", "sleep 1000; :", MARK]  # the mark names it on the host


def spawn():
    pids = [subprocess.Popen(SLEEPER, start_new_session=True, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).pid]
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(w, b"%d" % os.getpid())
            os.execvp("sh", SLEEPER)  # keeps stdout open
        os._exit(0)
    os.close(w)
    os.waitpid(child, 0)
    pids.append(int(os.read(r, 32)))
    os.close(r)
    with open(PIDS, "w") as f:
        f.write(" ".join(map(str, pids)))


def alive():
    """How many of the processes spawn started still run."""
    with open(PIDS) as f:
        pids = f.read().split()
    count = 0
    for pid in pids:
        try:
            with open("/proc/%s/stat" % pid) as f:
                count += f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            pass
    return count


def ia(game, side):
    turn = len(game["history"])
    if turn < 2:
        spawn()
    elif turn < 4:
        print("ATTACK outlive: alive_next_move=%d" % alive())
    return False


if __name__ == "__main__":  # as a battleships program: one process per request
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        spawn()
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        if not request["hit"] and not request["missed"]:
            print("ATTACK outlive: alive_next_request=%d" % alive(), file=sys.stderr)
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
