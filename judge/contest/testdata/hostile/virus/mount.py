"""Hostile virus bot. Attacks: the mount table. It tries to mount a tmpfs
and /proc, bind-mount the root, remount the root read-write, unmount its own
read-only bot file, and runs the mount command. Contained: every attempt is
refused."""
import ctypes
import subprocess

MS_REMOUNT, MS_BIND, MNT_DETACH = 32, 4096, 2


def attack():
    libc = ctypes.CDLL(None, use_errno=True)
    succeeded = []
    for name, call in (("tmpfs", lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
                       ("proc", lambda: libc.mount(b"proc", b"/tmp", b"proc", 0, None)),
                       ("bind /", lambda: libc.mount(b"/", b"/tmp", None, MS_BIND, None)),
                       ("remount / rw", lambda: libc.mount(None, b"/", None, MS_REMOUNT, None)),
                       ("umount /bot", lambda: libc.umount2(b"/bot/bot.py", MNT_DETACH))):
        if call() == 0:
            succeeded.append(name)
    try:
        command = subprocess.run(["mount", "-t", "tmpfs", "none", "/tmp"], capture_output=True, text=True, timeout=1)
        said = (command.stderr.splitlines() or [""])[0]
        if command.returncode == 0:
            succeeded.append("mount command")
    except (OSError, subprocess.TimeoutExpired) as exc:
        said = type(exc).__name__
    return "succeeded=%s command=%r" % (succeeded, said)


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK mount: " + attack())
    return False
