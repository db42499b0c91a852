"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the judge's environment variables. It prints its own environment and looks
for BOTJUDGE_SECRET, which the test sets in the judge, in the environment of
every process it can see. Contained: it has PATH, HOME and LANG only."""
import os


def attack():
    secret_in = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if b"BOTJUDGE_SECRET" in f.read():
                    secret_in.append(pid)
        except OSError:
            pass
    return "keys=%s secret_in=%s environ=%s" % (sorted(os.environ), secret_in, dict(os.environ))


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK read_env: " + attack())
    return False

if __name__ == "__main__":  # as a battleships program: one process per request
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        print("ATTACK read_env: " + attack(), file=sys.stderr)
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
