"""Program bots (SPEC §2, §3): a process per request, started with the
request as its argument and on its stdin, whose stdout is the answer."""

import errno
import os
import re
import selectors
import signal
import subprocess
import time

from . import container
from .answers import Unfit, clip, parse_output
from .languages import entry_point

# Linux's MAX_ARG_STRLEN: one argument of 32 pages, its NUL included.
ARG_LIMIT = 32 * 4096
NODE_BANNER = re.compile(r"Node\.js v\d+\.\d+\.\d+\s*$")
NODE_FRAME = re.compile(r"\s+at ")


def signal_name(num):
    try:
        return signal.Signals(num).name
    except ValueError:
        return "signal %d" % num


def missing(prog):
    """Says which program is not there: the interpreter, or the one a
    script's #! line names."""
    try:
        with open(prog, "rb") as f:
            line = f.readline(200).decode(errors="replace").strip()
    except OSError:
        return "%s is not installed here" % os.path.basename(prog)
    if line.startswith("#!"):
        return "its #! line names %s, which is not installed here" % line[2:].strip()
    return "%s cannot be run" % os.path.basename(prog)


class Program:
    def __init__(self, channel, path, opts):
        self.channel = channel
        self.path = path
        self.opts = opts
        self.argv = None
        self.cwd = None
        self.proc = None  # the bot's process while a request runs

    def start(self):
        try:
            self.argv, self.cwd = entry_point(self.path)
        except (Unfit, OSError) as exc:
            return "error", str(exc)
        return None

    def abandon(self):
        proc = self.proc
        if proc is not None:
            self.kill_all(proc)

    def kill_all(self, proc):
        """Kills everything the request started. In a container that is
        every other process (but the warden, PID 1, whom kill(-1) spares);
        elsewhere, the bot's process group."""
        try:
            if container.contained:
                os.kill(-1, signal.SIGKILL)
            else:
                os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass

    def reap(self):
        """As PID 1, waits for every orphan the kill left as a zombie (under
        a warden, the orphans are the warden's to reap)."""
        if os.getpid() != 1:
            return
        give_up = time.monotonic() + 1
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                if time.monotonic() > give_up:
                    return
                time.sleep(0.001)

    def answer(self, rid, text):
        fault, detail = self.run(text)
        if fault:
            self.channel.fault(rid, fault, detail)
        else:
            self.channel.value(rid, detail)

    def run(self, text):
        """Runs the bot once; returns (fault, detail) or (None, JSON text)."""
        before = container.oom_kills()
        data = text.encode()
        try:
            proc = self.spawn(text, data)
        except FileNotFoundError:
            # The interpreter, not the bot, is what is missing (php on a
            # host without it, under the plain runner).
            return "error", "cannot start the bot: " + missing(self.argv[0])
        except OSError as exc:
            return "error", "cannot start the bot: %s" % (exc.strerror or exc)
        self.proc = proc
        meter = self.channel.meter
        meter.watch = proc.pid
        out = bytearray()
        tail = bytearray()
        try:
            fault = self.pump(proc, data, meter, out, tail)
            self.kill_all(proc)
            proc.wait()
        finally:
            meter.watch = None
            for f in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    f.close()
                except OSError:
                    pass
            self.reap()
            self.proc = None
        if fault:
            return fault
        rc = proc.returncode
        if rc < 0:
            if rc == -signal.SIGKILL:
                after = container.oom_kills()
                if before is not None and after is not None and after > before:
                    return "oom", "killed: out of memory"
                return "crash", "killed by SIGKILL (out of memory?)"
            return "crash", "killed by %s" % signal_name(-rc)
        if rc > 0:
            answered, text = parse_output(bytes(out))
            if answered is None:
                # SPEC §2: a non-zero exit is a crash, even after a valid
                # answer; the author must learn that the answer was fine.
                return "crash", ("the answer %s was valid, but the program then exited with status %d:"
                                 " a bot must exit with status 0" % (clip(text, 80), rc))
            last = [l for l in bytes(tail).decode("utf-8", "replace").splitlines() if l.strip()]
            # Node.js follows an uncaught error with its stack and its own
            # version: the error is the line before them.
            while last and (NODE_BANNER.match(last[-1]) or NODE_FRAME.match(last[-1])):
                last.pop()
            detail = "exit status %d" % rc
            if last:
                detail += ": " + clip(last[-1].strip(), 300)
            return "error", detail
        return parse_output(bytes(out))

    def spawn(self, text, data):
        """Starts the bot with the request as argv[1] and on stdin. SPEC §3:
        a request the kernel refuses as one argument (Tron's board late in a
        big game) goes on stdin only, so the bot is not blamed for the
        kernel's limit; the failed attempt costs microseconds."""
        args = [self.argv + [text]] if len(data) < ARG_LIMIT else []
        args.append(self.argv)
        for i, argv in enumerate(args):
            try:
                return subprocess.Popen(
                    argv, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, start_new_session=True)
            except OSError as exc:
                if exc.errno != errno.E2BIG or i == len(args) - 1:
                    raise

    def pump(self, proc, data, meter, out, tail):
        """Feeds stdin, collects stdout, forwards stderr until the bot exits.
        Returns a (fault, detail) pair when the bot must be killed."""
        fds = {}
        for f in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(f.fileno(), False)
        sel = selectors.DefaultSelector()
        if data:
            sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE, "in")
        else:
            proc.stdin.close()
        sel.register(proc.stdout.fileno(), selectors.EVENT_READ, "out")
        sel.register(proc.stderr.fileno(), selectors.EVENT_READ, "err")
        try:
            pidfd = os.pidfd_open(proc.pid)
            sel.register(pidfd, selectors.EVENT_READ, "exit")
        except (AttributeError, OSError):
            pidfd = None
        try:
            while proc.poll() is None:
                left = meter.check()
                if not left:
                    return "timeout", meter.detail()
                for key, _ in sel.select(left if pidfd is not None else min(left, 0.005)):
                    if key.data == "in":
                        try:
                            data = data[os.write(key.fd, data):]
                        except BlockingIOError:
                            continue
                        except OSError:
                            data = b""
                        if not data:
                            sel.unregister(key.fd)
                            proc.stdin.close()
                    elif key.data == "exit":
                        sel.unregister(key.fd)
                    elif not self.drain(key, sel, out, tail):
                        return "output", "more than %d bytes on stdout" % self.opts.answer
            # The bot has exited: take what it left in the pipes, without
            # waiting for background processes that may hold them open.
            for key in list(sel.get_map().values()):
                if key.data in ("out", "err"):
                    while self.drain(key, sel, out, tail) == "more":
                        pass
                    if len(out) > self.opts.answer:
                        return "output", "more than %d bytes on stdout" % self.opts.answer
            return None
        finally:
            sel.close()
            if pidfd is not None:
                os.close(pidfd)

    def drain(self, key, sel, out, tail):
        """Reads one chunk of the bot's stdout or stderr. Returns False when
        stdout went over the limit, "more" when there may be more to read."""
        try:
            chunk = os.read(key.fd, 65536)
        except BlockingIOError:
            return True
        if not chunk:
            sel.unregister(key.fd)
            return True
        if key.data == "out":
            out += chunk
            if len(out) > self.opts.answer:
                return False
        else:
            self.channel.log(chunk)
            tail += chunk
            del tail[:-4096]
        return "more"

