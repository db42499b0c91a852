"""Hostile virus bot. Attacks: its user. It tries to become root with every
set*id call, then through su (a setuid program in most images). Contained:
it stays user and group 65534 (nobody), and su cannot help."""
import os
import subprocess


def attack():
    succeeded = []
    for name, call in (("setuid", lambda: os.setuid(0)), ("seteuid", lambda: os.seteuid(0)),
                       ("setresuid", lambda: os.setresuid(0, 0, 0)), ("setgid", lambda: os.setgid(0)),
                       ("setgroups", lambda: os.setgroups([0]))):
        try:
            call()
            succeeded.append(name)
        except OSError:
            pass
    try:
        su = subprocess.run(["su", "-c", "id -u", "root"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=0.5)
        if su.stdout.strip() == "0":
            succeeded.append("su")
    except (OSError, subprocess.TimeoutExpired):
        pass
    ids = (os.getuid(), os.geteuid(), os.getgid(), os.getegid())
    return "succeeded=%s ids=%s" % (succeeded, "/".join(map(str, ids)))


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK setuid: " + attack())
    return False
