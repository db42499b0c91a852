"""The warden: PID 1 of a container reused across a bot's games (SPEC §5)."""

import json
import os
import signal
import sys
import time
import traceback

from .container import oom_kills, run_delays

GAME_PREFIX = b'{"game": "'
# How long the warden waits for the processes it killed to be gone.
RESET_WAIT = 5.0


def warden(args):
    """PID 1 of a container that serves one bot's games one after another
    (SPEC §5): for each game it starts a fresh harness, a new interpreter, on
    the container's stdin and stdout; once that harness has ended it kills
    every other process, empties /tmp and the IPC namespace, and reports
    {"warden": nonce, "status": s, "oom": b, "clean": b}, with the nonce of
    the judge's {"game": nonce} line, which no bot ever sees, so a bot cannot
    forge the report. The bot runs as the warden's own user; it cannot reach
    the warden all the same: signals from inside the container never reach a
    PID 1 that has no handler for them (SIGKILL included), and a process that
    is not dumpable cannot be traced, nor its memory, descriptors or
    environment opened. The warden ends, and the container with it, when
    the judge hangs up."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE: 0
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    env = dict(os.environ)
    harness = os.path.abspath(sys.argv[0])  # harness.py, as the warden was started
    first = True
    while True:
        nonce = next_game()
        if nonce is None:
            reset(libc)
            os._exit(0)
        if first:
            # The container's first game waited for the warden's start too:
            # on a loaded machine, the judge is told how long it waited for
            # a CPU, so that its start-up check does not count it.
            first = False
            os.write(1, b'{"wait": %.6f}\n' % sum(run_delays([os.getpid()]).values()))
        before = oom_kills()
        pid = os.fork()
        if pid == 0:
            try:
                # As a container's first process would have them.
                for sig in (signal.SIGPIPE, signal.SIGXFSZ):
                    signal.signal(sig, signal.SIG_DFL)
                os.execve(sys.executable, [sys.executable, "-I", harness, "--contained"] + args, env)
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(127)
        status = wait_for(pid)
        after = oom_kills()
        clean = reset(libc)
        report = {"warden": nonce, "status": status, "clean": clean,
                  "oom": before is not None and after is not None and after > before}
        # The end of the game's log, before the report: the judge waits for
        # both, as the engine may relay stdout ahead of stderr.
        os.write(2, ("\x1e[warden] log ends %s\n" % nonce).encode())
        # A bot may have left half a line on the channel: end it first.
        os.write(1, b"\n" + json.dumps(report).encode() + b"\n")


def next_game():
    """Reads the judge's lines up to a game line and returns its nonce;
    what comes before it (a request or an end line its harness did not live
    to read) is dropped. None when the judge hung up. The judge writes
    nothing after a game line until the game's harness is ready, so reading
    ahead takes nothing from it."""
    data = b""
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            return None
        data = (data + chunk)[-65536:]
        at = data.rfind(GAME_PREFIX)
        end = data.find(b"\n", at)
        if at >= 0 and end >= 0:
            try:
                return json.loads(data[at:end])["game"]
            except (ValueError, KeyError, TypeError):
                data = data[end:]


def wait_for(pid):
    """Waits for the harness, reaping the orphans on the way; returns its
    status as a container's exit code (128 + n for signal n)."""
    while True:
        try:
            got, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return 127
        if got == pid:
            code = os.waitstatus_to_exitcode(status)
            return 128 - code if code < 0 else code


def others():
    return [p for p in os.listdir("/proc") if p.isdigit() and p != "1"]


def reset(libc):
    """Kills every process but the warden and empties every place a bot
    can write; True when nothing is left."""
    give_up = time.monotonic() + RESET_WAIT
    while others():
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        if time.monotonic() > give_up:
            return False
        time.sleep(0.001)
    clean = empty("/tmp")
    if os.path.isdir("/dev/mqueue"):
        clean = empty("/dev/mqueue") and clean
    return remove_ipc(libc) and clean


def empty(top):
    """Removes everything under top, even what its owner made unreadable."""
    try:
        for name in os.listdir(top):
            path = os.path.join(top, name)
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, 0o700)
                empty(path)
                os.rmdir(path)
            else:
                os.unlink(path)
        return not os.listdir(top)
    except (OSError, RecursionError):
        return False


def remove_ipc(libc):
    """Removes the System V shared memory, semaphores and message queues
    that outlive their processes in the container's IPC namespace."""
    clean = True
    for kind, remove in (("shm", lambda i: libc.shmctl(i, 0, None)),
                         ("sem", lambda i: libc.semctl(i, 0, 0)),
                         ("msg", lambda i: libc.msgctl(i, 0, None))):
        try:
            with open("/proc/sysvipc/" + kind) as f:
                ids = [int(line.split()[1]) for line in list(f)[1:] if line.strip()]
        except OSError:
            continue
        for i in ids:
            clean = remove(i) == 0 and clean
    return clean
