"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
other bots' files, the judge's and the host's. It reads the judge's source
and data (/work), root's home, /etc/shadow, Docker's state; walks the whole
filesystem for other bots and the judge's files; and looks up where the judge
staged it on the host (in /proc/self/mountinfo) to list its neighbours.
Contained: it sees only its own file, nothing of the host."""
import os

PATHS = ["/work", "/work/main/go.mod", "/work/shared/SPEC.md", "/root", "/etc/shadow",
         "/var/lib/docker", "/proc/1/root/work", "/host"]
NAMES = {"bot.py", "bot.js", "bot", "greedy.py", "hunter.js", "judge.db", "go.mod", "SPEC.md"}
SKIP = {"/proc", "/sys", "/dev", "/usr"}


def opened(path):
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            with open(path, "rb") as f:
                f.read(1)
        return True
    except OSError:
        return False


def staged_dir():
    """The host folder holding the bot (the judge's staging folder, or the
    engine's volumes), as the mount table names it, and whether it can be
    listed from here."""
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            if fields[4] == "/bot" or fields[4].startswith("/bot/"):
                folder = os.path.dirname(os.path.dirname(fields[3]))
                if folder.count("/") < 2:
                    return "unknown(%s)" % fields[3]
                return "listed(%s)" % folder if opened(folder) else "unreachable"
    return "unknown"


def attack():
    found = []
    for top, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if os.path.join(top, d) not in SKIP]
        found += [os.path.join(top, f) for f in files if f in NAMES and top != "/bot"]
    return "opened=%s found=%s bot_dir=%s staged_dir=%s" % (
        [p for p in PATHS if opened(p)], found, sorted(os.listdir("/bot")), staged_dir())


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK read_files: " + attack())
    return False

if __name__ == "__main__":  # as a battleships program: one process per request
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        print("ATTACK read_files: " + attack(), file=sys.stderr)
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
