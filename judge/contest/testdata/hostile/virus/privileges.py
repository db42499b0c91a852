"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
privileges. It reads its capabilities and tries to gain some: new user, mount
and network namespaces (which would make it root inside them), chroot, an
ambient capability, a device node. Contained: no capability, no new
privileges, every attempt refused."""
import ctypes
import os
import stat

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET = 0x00020000, 0x10000000, 0x40000000
PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN = 47, 2, 21


def attack():
    libc = ctypes.CDLL(None, use_errno=True)
    with open("/proc/self/status") as f:
        status = dict(l.split(":\t", 1) for l in f.read().splitlines() if ":\t" in l)
    succeeded = []
    for name, call in (("unshare user", lambda: libc.unshare(CLONE_NEWUSER)),
                       ("unshare mount", lambda: libc.unshare(CLONE_NEWNS)),
                       ("unshare net", lambda: libc.unshare(CLONE_NEWNET)),
                       ("chroot", lambda: libc.chroot(b"/tmp")),
                       ("ambient cap", lambda: libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN, 0, 0))):
        if call() == 0:
            succeeded.append(name)
    try:
        os.mknod("/tmp/disk", stat.S_IFBLK | 0o600, os.makedev(8, 0))
        succeeded.append("mknod")
    except OSError:
        pass
    return "succeeded=%s cap_eff=%s no_new_privs=%s" % (
        succeeded, status["CapEff"].strip(), status["NoNewPrivs"].strip())


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK privileges: " + attack())
    return False

if __name__ == "__main__":  # as a battleships program: one process per request
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        print("ATTACK privileges: " + attack(), file=sys.stderr)
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
