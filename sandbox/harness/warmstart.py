"""The warm start of a program bot (see Warm)."""

import fcntl
import os
import select
import subprocess
import time

from .answers import Unfit
from .languages import WARM, entry_point
from .program import ARG_LIMIT, Program


class Warm(Program):
    """A Python, Node.js or CoffeeScript program bot run by the harness
    itself (a .py, .js or .coffee file, main.py...), whose next process is
    started as soon as the previous request has ended (everything it left
    killed), so that the interpreter's start-up is not on the move's
    clock: the process stops
    just before running the bot's file (warm.py as sitecustomize, warm.js
    preloaded) and waits for the request's argument. It is a fresh process
    for each request, as fresh as one started with the request: its own
    hash secret, random seed, pid and memory, started after the previous
    request's processes were all gone, with the same argv, environment,
    descriptors and signals once the bot's code runs. Only what is fixed at
    exec still shows the wait: /proc/self/cmdline (no argument) and
    /proc/self/environ (the hook's variables), and its start time (Node's
    performance.now() and process.uptime() count from it)."""

    # The environment that makes an interpreter wait, by its hook's name in
    # the table of languages, given the folder of the hooks.
    HOOKS = {
        "python": lambda d: {"PYTHONPATH": d},
        "node": lambda d: {"NODE_OPTIONS": "--require " + os.path.join(d, "warm.js")},
    }
    # The descriptor the argument comes on is moved this high so that the
    # interpreter's own descriptors get the numbers they would get without.
    FD = 200

    def __init__(self, channel, path, opts):
        super().__init__(channel, path, opts)
        self.next = None  # (process, write end of its argument's pipe)

    @classmethod
    def fits(cls, path, opts):
        """Whether the bot at path is a file the harness runs itself with
        an interpreter it can start ahead."""
        if not opts.warm or not os.path.isdir(opts.warm):
            return False
        try:
            argv = entry_point(path)[0]
        except (Unfit, OSError):
            return False
        ext, hook = WARM.get(argv[0], (None, None))
        return len(argv) == 2 and hook in cls.HOOKS and argv[1].endswith(ext)

    def start(self):
        failed = super().start()
        if not failed:
            self.prestart()
        return failed

    def prestart(self):
        p, w = os.pipe()
        r = fcntl.fcntl(p, fcntl.F_DUPFD_CLOEXEC, self.FD)
        os.close(p)
        env = dict(os.environ, BOTJUDGE_WARM=str(r), **self.HOOKS[WARM[self.argv[0]][1]](self.opts.warm))
        try:
            proc = subprocess.Popen(
                self.argv, cwd=self.cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, pass_fds=(r,))
        except OSError:
            os.close(w)
            return
        finally:
            os.close(r)
        self.next = (proc, w)

    def answer(self, rid, text):
        # Once the answer is sent: starting a process is not the judge's
        # wait.
        try:
            super().answer(rid, text)
        finally:
            self.prestart()

    def spawn(self, text, data):
        return self.take(data) or super().spawn(text, data)

    def take(self, data):
        """The waiting process, given the request's argument (none when the
        kernel would refuse it as one, as in spawn); None when there is none
        or it died, then a fresh one starts instead."""
        if self.next is None:
            return None
        proc, w = self.next
        self.next = None
        message = b"1" + data if len(data) < ARG_LIMIT else b"0"
        deadline = time.monotonic() + self.opts.move
        try:
            os.set_blocking(w, False)
            # A process whose start-up never ends never reads: the pump
            # times it out, as it would a fresh one's.
            while message and select.select([], [w], [], max(0, deadline - time.monotonic()))[1]:
                message = message[os.write(w, message):]
        except OSError:
            self.discard(proc)
            return None
        finally:
            os.close(w)
        # Started before the move: only its wait from now on is the move's.
        self.channel.meter.adopt(proc.pid)
        return proc

    def discard(self, proc):
        self.kill_all(proc)
        proc.wait()
        for f in (proc.stdin, proc.stdout, proc.stderr):
            f.close()
        self.reap()

    def abandon(self):
        super().abandon()
        if self.next is not None:
            proc, w = self.next
            self.next = None
            os.close(w)
            self.kill_all(proc)

