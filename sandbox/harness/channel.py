"""The protocol channel with the judge, on descriptors the bot never sees,
and the bot's log (see harness.py for the protocol)."""

import faulthandler
import json
import os
import queue
import select
import signal
import sys
import threading
import time

from .answers import clip

REQUEST_PREFIX = b'{"id":'
REQUEST_KEY = b',"request":'
# What may wait in the log's pipe when the harness sends a line: a pipe holds
# 64 KiB unless the bot enlarged it, and a bot still printing must not keep
# the harness from answering.
CATCH_UP_MAX = 1 << 20
# How long a harness whose judge hung up lets the bot's request finish.
HANGUP_GRACE = 0.5
# The judge's line that ends a game in a reused container.
END_LINE = b'{"end":true}'


class LogSink:
    """The bot's log: the first `limit` bytes go on to the judge, the rest is
    counted and dropped inside the sandbox."""

    def __init__(self, fd, limit):
        self.fd = fd
        self.left = limit
        self.dropped = 0
        # Reentrant: catching up reads and writes under it.
        self.lock = threading.RLock()

    def write(self, data):
        with self.lock:
            keep = data[:max(self.left, 0)]
            self.left -= len(keep)
            self.dropped += len(data) - len(keep)
            try:
                while keep:
                    keep = keep[os.write(self.fd, keep):]
            except OSError:
                pass


class Channel:
    """The protocol channel with the judge, on descriptors the bot never sees."""

    def __init__(self, log_limit):
        self.reader = os.fdopen(os.dup(0), "rb")
        self.out = os.dup(1)
        # The harness's own messages (tracebacks) go to the log through a
        # private copy of fd 2, so a bot that closes fd 2 cannot silence them.
        self.sink = LogSink(os.dup(2), log_limit)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        self.capture = capture_std()
        # Set by serve(): every answer says what its move was charged.
        self.meter = None
        threading.Thread(target=self.drain_log, daemon=True).start()
        # Python's own streams were set up for the descriptors the harness
        # was given, which may have been seekable files: start them afresh.
        sys.stdout, sys.stderr = (
            open(fd, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)
            for fd in (1, 2))

    def send(self, data):
        while data:
            data = data[os.write(self.out, data):]

    def send_json(self, obj):
        dropped = self.catch_up()
        if dropped:
            obj = dict(obj, dropped=dropped)
        self.send(json.dumps(obj).encode() + b"\n")

    def fault(self, rid, fault, detail):
        msg = {"id": rid, "wait": self.waited(), "cpu": self.charged(), "fault": fault, "detail": clip(detail)}
        if fault == "timeout" and self.meter and self.meter.unsure():
            # The judge's failure, not the bot's: the game is played again.
            msg["load"] = True
        self.send_json(msg)

    def value(self, rid, text):
        dropped = self.catch_up()
        extra = b' "dropped": %d,' % dropped if dropped else b""
        wait, wall = self.waited(), self.busy()
        self.send(b'{"id": %d, "cpu": %.6f, "wait": %.6f, "wall": %.6f,%s "value": %s}\n' % (
            rid, self.charged(), wait, wall, extra, text.encode()))

    def charged(self):
        return round(self.meter.settle(), 6) if self.meter else 0.0

    def waited(self):
        return round(self.meter.waited(), 6) if self.meter else 0.0

    def busy(self):
        """The move's wall time as the harness measured it, less the wait
        for a CPU: the judge's own clock also counts its own waits."""
        return round(self.meter.busy(), 6) if self.meter else 0.0

    def report_wait(self, seconds):
        """Tells the judge, while a move runs, how long the bot waited for a
        CPU so far: the judge's own backstop moves as the harness's does.
        Called from the alarm's handler too, so it writes no more than one
        short line, without the log's lock."""
        self.send(b'{"wait": %.6f}\n' % seconds)

    def log(self, data):
        self.sink.write(data)

    def drain_log(self):
        """Passes on or drops what the bot prints, as it prints it, until
        every writer of the log's pipe is gone."""
        # SIGALRM must interrupt the bot in the main thread, not this one.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        while True:
            select.select([self.capture], [], [])
            if self.read_log() is None:
                return

    def read_log(self, most=None):
        """Moves what waits in the log's pipe (up to most bytes) to the sink;
        returns how much it moved, or None once the pipe is closed."""
        moved = 0
        with self.sink.lock:
            while most is None or moved < most:
                try:
                    chunk = os.read(self.capture, 65536)
                except BlockingIOError:
                    break
                if not chunk:
                    return None
                self.sink.write(chunk)
                moved += len(chunk)
        return moved

    def catch_up(self):
        """Takes in what the bot printed before the line the harness is
        about to send; returns how many bytes of log were dropped so far."""
        flush_std()
        self.read_log(CATCH_UP_MAX)
        return self.sink.dropped

    def note(self, text):
        # After what the bot printed before it, still in the pipe.
        self.catch_up()
        self.log(text.encode("utf-8", "backslashreplace"))


def capture_std():
    """Points fds 1 and 2, which the bot and its subprocesses write to, at a
    pipe whose read end the harness keeps; returns that end."""
    r, w = os.pipe()
    os.dup2(w, 1)
    os.dup2(w, 2)
    os.close(w)
    os.set_blocking(r, False)
    return r


def flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass



class Listener:
    """Reads the judge's lines in a thread of their own, so that a judge that
    hangs up is noticed even while the bot runs: then, after a short grace for
    a request that is ending, abandon() kills the bot's processes and the
    harness exits, whatever the bot is doing."""

    def __init__(self, channel, idle):
        self.channel = channel
        self.idle = idle
        self.lines = queue.Queue()
        self.abandon = lambda: None
        # A C-level timer needs no interpreter: it ends the harness even if
        # the bot holds the interpreter so that the thread never runs.
        self.backstop = open(os.devnull, "w")
        self.rearm()
        threading.Thread(target=self.listen, daemon=True).start()

    def rearm(self):
        try:
            faulthandler.dump_traceback_later(self.idle, exit=True, file=self.backstop)
        except RuntimeError:
            # Each arming starts a thread: a bot that used up its processes
            # (a fork bomb) leaves only the listener until one can start.
            pass

    def listen(self):
        for line in self.channel.reader:
            if line.rstrip(b"\r\n") == END_LINE:
                break
            self.lines.put(line)
        self.lines.put(None)
        time.sleep(HANGUP_GRACE)
        self.abandon()
        os._exit(0)


def requests(listener):
    """Yields (id, parsed request, raw request text) until the judge hangs up."""
    for line in iter(listener.lines.get, None):
        listener.rearm()
        line = line.rstrip(b"\r\n")
        msg = json.loads(line)
        head = line.find(REQUEST_KEY)
        if not line.startswith(REQUEST_PREFIX) or head < 0 or not line.endswith(b"}"):
            raise ValueError("request line not in the judge's format: %r" % line[:80])
        yield msg["id"], msg["request"], line[head + len(REQUEST_KEY):-1].decode()

