"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
its own harness, the container's PID 1. As a virus bot (it runs inside the
harness's process) it sends SIGKILL and SIGTERM to PID 1, which the kernel
ignores for a namespace's init, then exits the process with status 9. As a
program it sends SIGKILL to PID 1, to its parent and to every process it
can reach, then checks that the harness still runs and plays on.
Contained: a virus bot's exit is a crash and it is started afresh; a
program cannot touch its harness."""
import os
import signal
import time


def ia(game, side):
    if len(game["history"]) < 2:
        os.kill(1, signal.SIGKILL)
        os.kill(1, signal.SIGTERM)
        print("ATTACK kill_harness: harness survived SIGKILL and SIGTERM", flush=True)
        # The harness passes the log on from a thread: what a bot prints in
        # the instant before it ends the harness's process may be lost.
        time.sleep(0.5)
        os._exit(9)
    return False


if __name__ == "__main__":
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        for pid in (1, os.getppid(), -1):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        print("ATTACK kill_harness: harness_alive=%s" % os.path.exists("/proc/1"), file=sys.stderr)
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
