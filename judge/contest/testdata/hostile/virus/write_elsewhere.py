"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the read-only filesystem. It tries to create or append to files everywhere
but /tmp: the root, its own bot folder and file, the judge's harness, /etc,
/usr, /var, /root, /dev/shm, the cgroup and kernel settings; to make a
folder, a link, and to change its own file's mode. Nothing it could do is
destructive: appending writes nothing. Contained: every attempt fails."""
import os

FILES = ["/escape", "/bot/new.py", "/bot/bot.py", "/opt/judge/harness.py", "/opt/judge/new",
         "/etc/passwd", "/etc/new", "/usr/bin/new", "/var/new", "/root/new", "/dev/shm/new",
         "/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/pids/pids.max",
         "/proc/sys/kernel/hostname"]


def attack():
    written = []
    for path in FILES:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
            written.append(path)
        except OSError:
            pass
    for name, fn in (("mkdir /new", lambda: os.mkdir("/new")),
                     ("symlink /bot/link", lambda: os.symlink("/tmp", "/bot/link")),
                     ("chmod /bot/bot.py", lambda: os.chmod("/bot/bot.py", 0o777))):
        try:
            fn()
            written.append(name)
        except OSError:
            pass
    return "written=%s" % written


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK write_elsewhere: " + attack())
    return False

if __name__ == "__main__":  # as a battleships program: one process per request
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        print("ATTACK write_elsewhere: " + attack(), file=sys.stderr)
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
