"""The judge's harness: runs one bot for one game and answers the judge.

It runs as PID 1 of the bot's container (or as a plain process for the unsafe
local runner) and speaks one JSON line per message over its original stdin and
stdout, which it moves to private descriptors before any bot code runs:

  judge -> harness  {"id": n, "request": <json>}
  harness -> judge  {"ready": true} once, or {"ready": false, "fault": f, "detail": d}
                    then {"id": n, "cpu": s, "value": <json>} or {"id": n, "cpu": s, "fault": f, "detail": d}

Every answer says in "cpu" the seconds of CPU its move was charged (see
Meter): the container's, from the previous answer to this one.

The judge writes the request exactly as '{"id":n,"request":' + text + '}' so
that program bots receive the judge's text untouched. Everything a bot writes
(print, os.write(1), fd 2, subprocesses) is the bot's log: the harness passes
its first --log bytes on to its own stderr and drops the rest here, so that a
bot printing without end costs the judge nothing; a line that follows dropped
log says how much so far, as {"id": n, "dropped": d, ...}.

The harness ends when the judge hangs up (its stdin closes) or sends {"end": true},
even while the bot runs: a judge that dies leaves nothing running. A bot that
keeps the interpreter from ever reaching that check is ended when the judge
has not asked anything for --idle seconds.

In a container reused across a bot's games, PID 1 is the warden instead
(harness.py --warden ARGS, see warden()): it starts `harness.py --contained
ARGS` afresh for each game and resets the container after it.

usage: harness.py [--warden|--contained] [--move S] [--startup S] [--answer N] [--log N] [--idle S] [--home DIR] [--warm DIR] ia|program BOT
"""

import argparse
import errno
import faulthandler
import fcntl
import http.client
import importlib.util
import json
import os
import queue
import re
import resource
import select
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback

DETAIL_MAX = 1000  # characters of a fault's detail; the judge bounds lines too
REQUEST_PREFIX = b'{"id":'
REQUEST_KEY = b',"request":'
# Linux's MAX_ARG_STRLEN: one argument of 32 pages, its NUL included.
ARG_LIMIT = 32 * 4096
NODE_BANNER = re.compile(r"Node\.js v\d+\.\d+\.\d+\s*$")
NODE_FRAME = re.compile(r"\s+at ")
# What may wait in the log's pipe when the harness sends a line: a pipe holds
# 64 KiB unless the bot enlarged it, and a bot still printing must not keep
# the harness from answering.
CATCH_UP_MAX = 1 << 20
# How long a harness whose judge hung up lets the bot's request finish.
HANGUP_GRACE = 0.5
# The judge's line that ends a game in a reused container.
END_LINE = b'{"end":true}'
# Set by main(): this harness owns every process of its container but PID 1
# (it is PID 1, or the warden's child).
CONTAINED = False


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
        self.send_json({"id": rid, "cpu": self.charged(), "fault": fault, "detail": clip(detail)})

    def value(self, rid, text):
        dropped = self.catch_up()
        extra = b' "dropped": %d,' % dropped if dropped else b""
        self.send(b'{"id": %d, "cpu": %.6f,%s "value": %s}\n' % (rid, self.charged(), extra, text.encode()))

    def charged(self):
        return round(self.meter.settle(), 6) if self.meter else 0.0

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


def clip(text, limit=DETAIL_MAX):
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def minimal_env(home):
    path = os.environ.get("PATH") or "/usr/local/bin:/usr/bin:/bin"
    os.environ.clear()
    os.environ.update({"PATH": path, "HOME": home, "LANG": "C.UTF-8"})


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


# ---------------------------------------------------------------- time

# Where a container's CPU usage is read from inside it, by any user: cgroup
# v1's cpuacct.usage (nanoseconds), cgroup v2's cpu.stat (usage_usec).
CGROUP_CPU = (("/sys/fs/cgroup/cpuacct/cpuacct.usage", 1e-9, None),
              ("/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage", 1e-9, None),
              ("/sys/fs/cgroup/cpu.stat", 1e-6, b"usage_usec"))
# The shortest wait between two looks at the charge near the limit.
METER_STEP = 0.005


def cgroup_cpu():
    """A function returning the container's CPU seconds so far, or None when
    no cgroup file can be read."""
    for path, unit, key in CGROUP_CPU:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue

        def read(fd=fd, unit=unit, key=key):
            data = os.pread(fd, 4096, 0)
            if key is not None:
                data = data[data.index(key) + len(key):].split(b"\n", 1)[0]
            return int(data) * unit
        try:
            read()
        except (OSError, ValueError):
            os.close(fd)
            continue
        return read
    return None


def process_cpu(pid):
    """The CPU seconds of a live process and of its reaped children, from
    /proc (0 once it is gone)."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class Meter:
    """What a move is charged (SPEC §5): the CPU of every process and thread
    of the bot's container since the harness's previous answer, so that CPU
    used between two moves (a thread or a child left running) counts in the
    next one. A move ends when its charge passes the limit, or its wall time
    twice the limit (a bot that sleeps or waits). Outside a container (the
    local runner) the charge is the harness's own CPU, its threads' (an ia
    bot's), its reaped children's, and that of the live process it waits
    for (`watch`): the processes' own accounting."""

    def __init__(self, limit):
        self.limit = limit
        self.cgroup = cgroup_cpu() if CONTAINED else None
        self.watch = None  # the pid of a live process to count, outside a container
        self.mark = self.usage()
        self.began = time.monotonic()
        self.ended = None  # "cpu" or "wall" once a limit has passed

    def usage(self):
        if self.cgroup is not None:
            return self.cgroup()
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        used = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
        return used + (process_cpu(self.watch) if self.watch else 0.0)

    def begin(self):
        """A request arrived: its wall clock starts; its charge started at
        the previous answer."""
        self.began = time.monotonic()
        self.ended = None

    def charge(self):
        return max(0.0, self.usage() - self.mark)

    def settle(self):
        """The charge of the answer about to be sent; the next one starts."""
        now = self.usage()
        charge = max(0.0, now - self.mark)
        self.mark = now
        return charge

    def check(self):
        """0 when the move is over a limit (then `ended` says which), else
        how long to wait before looking again: the charge grows at most as
        fast as the CPUs the bot has, two on the judge's machines."""
        cpu_left = self.limit - self.charge()
        wall_left = 2 * self.limit - (time.monotonic() - self.began)
        if cpu_left <= 0:
            self.ended = "cpu"
        elif wall_left <= 0:
            self.ended = "wall"
        else:
            return min(max(cpu_left / 2, METER_STEP), wall_left)
        return 0

    def detail(self):
        """Why the move timed out, in the author's words."""
        if self.ended == "wall":
            return ("no answer within %gs of wall time (twice the limit), having used %.2fs of CPU:"
                    " a bot that waits or sleeps is stopped there" % (2 * self.limit, self.charge()))
        return "used more than %gs of CPU time (the move's limit); the bot's processes and threads all count, between its moves too" % self.limit


# ---------------------------------------------------------------- ia(game, side)

class Unfit(Exception):
    """The bot cannot be run at all; the message is for its author."""


class MoveTimeout(BaseException):
    """Raised inside the bot when its time is up. A BaseException so that a
    plain `except Exception` in the bot does not swallow it."""


class Alarm:
    """Raises MoveTimeout in the running code after a delay, and again every
    50 ms, so a bot that swallows it once is still stopped. The judge kills the
    container if even that does not work. With a Meter, the delay is the
    meter's: the alarm looks at the charge and waits again until a limit
    has passed."""

    armed = False
    meter = None

    @classmethod
    def handler(cls, signum, frame):
        if not cls.armed:
            return
        if cls.meter is not None and cls.meter.ended is None:
            wait = cls.meter.check()
            if wait:
                signal.setitimer(signal.ITIMER_REAL, wait, 0.05)
                return
        raise MoveTimeout()

    @classmethod
    def run(cls, seconds, fn, *args, meter=None):
        if meter is not None and not meter.check():
            # Charged past the limit before it began (CPU used since the
            # previous move): the bot is not even asked.
            raise MoveTimeout()
        signal.signal(signal.SIGALRM, cls.handler)
        try:
            cls.armed, cls.meter = True, meter
            signal.setitimer(signal.ITIMER_REAL, meter.check() or 0.001 if meter else seconds, 0.05)
            return fn(*args)
        finally:
            # Disarm first: a signal already pending when the timer stops
            # must not raise outside of the caller's try.
            cls.armed, cls.meter = False, None
            signal.setitimer(signal.ITIMER_REAL, 0)


def invoke(ia, game, side):
    return ia(game, side)


HARNESS_FILE = invoke.__code__.co_filename


def bot_frames(tb):
    """Drops the harness's and importlib's frames from the front of a
    traceback, so the bot's author sees their own code first."""
    while tb is not None and (tb.tb_frame.f_code.co_filename == HARNESS_FILE
                              or tb.tb_frame.f_code.co_filename.startswith("<frozen importlib")):
        tb = tb.tb_next
    return tb


def describe(exc, path):
    """One line for the fault's detail: the exception and the bot's line."""
    if isinstance(exc, SystemExit):
        return "the bot called sys.exit(%r)" % (exc.code,)
    try:
        text = traceback.format_exception_only(type(exc), exc)[-1].strip()
    except Exception:
        text = type(exc).__name__
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == path:
            line = lineno
    if isinstance(exc, SyntaxError) and exc.filename == path:
        line = exc.lineno
    if line is not None:
        text += " (%s, line %d)" % (os.path.basename(path), line)
    return text


def log_exception(channel, exc):
    try:
        text = "".join(traceback.format_exception(type(exc), exc, bot_frames(exc.__traceback__)))
    except Exception:
        text = "%s\n" % type(exc).__name__
    channel.note(text)


def safe_repr(value, limit=200):
    try:
        return clip(repr(value), limit)
    except Exception:
        return "<unprintable %s>" % type(value).__name__


def load_bot(path):
    """Imports the bot and returns its ia function; raises Unfit, or
    whatever the bot's module raised."""
    if not path.endswith(".py") or not os.path.isfile(path):
        raise Unfit("a bot of this game is one Python file (name.py) defining ia(game, side)")
    if os.path.getsize(path) == 0:
        raise Unfit("the file is empty: it must define ia(game, side)")
    stem = os.path.basename(path)[:-3]
    taken = stem in sys.modules or stem in getattr(sys, "stdlib_module_names", ())
    name = stem if stem.isidentifier() and not taken else "bot"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    ia = getattr(module, "ia", None)
    if ia is None:
        raise Unfit("the bot defines no function ia(game, side)")
    if not callable(ia):
        raise Unfit("ia is not a function (it is a %s)" % type(ia).__name__)
    return ia


class Virus:
    def __init__(self, channel, path, opts):
        self.channel = channel
        self.path = path
        self.opts = opts
        self.misc = {}
        self.ia = None

    def start(self):
        try:
            self.ia = Alarm.run(self.opts.startup, load_bot, self.path)
        except MoveTimeout:
            return "timeout", "importing the bot took more than %gs" % self.opts.startup
        except Unfit as exc:
            return "error", str(exc)
        except BaseException as exc:
            log_exception(self.channel, exc)
            return "error", describe(exc, self.path)
        return None

    def abandon(self):
        """Nothing to do: the bot runs in the harness's process, which is
        about to exit."""

    def call(self, game, side):
        """Runs ia (the caller sets the time limit); returns the JSON text of
        its answer. Exceptions from ia propagate; a bad return value raises
        AnswerError."""
        try:
            result = invoke(self.ia, game, side)
        finally:
            try:
                self.misc = game[side]["misc"]
            except Exception:
                pass
        try:
            text = json.dumps(result, allow_nan=False)
        except Exception as exc:
            raise AnswerError("malformed", "ia returned %s, which is not JSON (%s)" % (safe_repr(result), clip(exc, 200)))
        if len(text) > self.opts.answer:
            raise AnswerError("output", "the answer has %d bytes, over the limit of %d" % (len(text), self.opts.answer))
        return text

    def answer(self, rid, request):
        game, side = request["game"], request["side"]
        game[side]["misc"] = self.misc
        game[side]["ia"] = self.ia
        for other in ("player_1", "player_2"):
            if other != side and isinstance(game.get(other), dict):
                game[other]["ia"] = None
        try:
            text = Alarm.run(self.opts.move, self.call, game, side, meter=self.channel.meter)
        except MoveTimeout:
            self.channel.fault(rid, "timeout", self.channel.meter.detail())
        except AnswerError as exc:
            self.channel.fault(rid, exc.fault, exc.detail)
        except BaseException as exc:
            log_exception(self.channel, exc)
            detail = describe(exc, self.path)
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if isinstance(exc, TypeError) and tb is not None and tb.tb_frame.f_code is invoke.__code__:
                detail = "ia cannot be called as ia(game, side): %s" % exc
            self.channel.fault(rid, "error", detail)
        else:
            self.channel.value(rid, text)
        flush_std()


class AnswerError(Exception):
    def __init__(self, fault, detail):
        super().__init__(detail)
        self.fault = fault
        self.detail = detail


# ---------------------------------------------------------------- program

# Program bots run by an interpreter of the image, by extension; a folder's
# main.<ext> too. discover.go's programExts lists the same.
INTERPRETERS = {".py": sys.executable, ".js": "node", ".coffee": "coffee", ".php": "php"}


def entry_point(path):
    """The command that runs the bot, and its working directory."""
    if os.path.isdir(path):
        for name, interp in [("run.sh", "sh")] + [("main" + ext, i) for ext, i in INTERPRETERS.items()]:
            cand = os.path.join(path, name)
            if os.path.isfile(cand):
                if name == "run.sh" and os.access(cand, os.X_OK):
                    return [cand], path
                return [interp, cand], path
        for name in sorted(os.listdir(path)):
            cand = os.path.join(path, name)
            if (name == "main" or name.startswith("main.")) and os.path.isfile(cand) and os.access(cand, os.X_OK):
                return [cand], path
        raise Unfit("the folder has no run.sh, main.py, main.js, main.coffee, main.php or executable main.*")
    if not os.path.isfile(path):
        raise Unfit("the bot is neither a file nor a folder")
    folder = os.path.dirname(path)
    interp = INTERPRETERS.get(os.path.splitext(path)[1])
    if interp:
        return [interp, path], folder
    if not os.access(path, os.X_OK):
        raise Unfit("the file is not executable and is not a .py, .js, .coffee or .php file")
    return [path], folder


def oom_kills():
    """The container's count of OOM kills, or None when it cannot be read."""
    if not CONTAINED:
        return None
    for name in ("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events"):
        try:
            with open(name) as f:
                for line in f:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        except (OSError, ValueError):
            pass
    return None


def signal_name(num):
    try:
        return signal.Signals(num).name
    except ValueError:
        return "signal %d" % num


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
            if CONTAINED:
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
        before = oom_kills()
        data = text.encode()
        try:
            proc = self.spawn(text, data)
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
                after = oom_kills()
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


# ---------------------------------------------------------------- warm start

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

    # The interpreters it starts ahead, and the environment that makes them
    # wait, given the folder of the hooks.
    HOOKS = {
        sys.executable: (".py", lambda d: {"PYTHONPATH": d}),
        "node": (".js", lambda d: {"NODE_OPTIONS": "--require " + os.path.join(d, "warm.js")}),
        # coffee is a Node.js script: Node.js waits, then coffee compiles.
        "coffee": (".coffee", lambda d: {"NODE_OPTIONS": "--require " + os.path.join(d, "warm.js")}),
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
        hook = cls.HOOKS.get(argv[0])
        return len(argv) == 2 and hook is not None and argv[1].endswith(hook[0])

    def start(self):
        failed = super().start()
        if not failed:
            self.prestart()
        return failed

    def prestart(self):
        p, w = os.pipe()
        r = fcntl.fcntl(p, fcntl.F_DUPFD_CLOEXEC, self.FD)
        os.close(p)
        env = dict(os.environ, BOTJUDGE_WARM=str(r), **self.HOOKS[self.argv[0]][1](self.opts.warm))
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


# ---------------------------------------------------------------- server

def server_command(path):
    """The command serving a botsArena HTTP bot folder (SPEC §3), or None
    when path is no such folder. A folder that also has a program entry
    (run.sh, main.*) is a program bot."""
    if not os.path.isdir(path):
        return None
    try:
        entry_point(path)
        return None
    except Unfit:
        pass
    if os.path.isfile(os.path.join(path, "serve.sh")):
        return ["sh", os.path.join(path, "serve.sh")]
    if os.path.isfile(os.path.join(path, "index.php")):
        # PHP's built-in server runs index.php for every path, as the web
        # server behind a botsArena bot did.
        return ["php", "-S", "127.0.0.1:{port}", "-t", path]
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A bot that serves HTTP on loopback, started once per game; each
    message is POSTed to it as botsArena does. What it prints goes to the
    log (it inherits fd 2)."""

    def __init__(self, channel, path, opts):
        self.channel = channel
        self.path = path
        self.opts = opts
        self.port = free_port()
        self.proc = None

    def start(self):
        argv = [a.replace("{port}", str(self.port)) for a in server_command(self.path)]
        env = dict(os.environ, PORT=str(self.port))
        try:
            self.proc = subprocess.Popen(argv, cwd=self.path, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            return "error", "cannot start the server: %s" % (exc.strerror or exc)
        # Outside a container, the server's own CPU is what its moves cost.
        self.channel.meter.watch = self.proc.pid
        deadline = time.monotonic() + self.opts.startup
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return "crash", "the server exited with status %d before listening on port %d ($PORT)" % (
                    self.proc.returncode, self.port)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return None
            except OSError:
                time.sleep(0.02)
        return "timeout", "the server did not listen on port %d ($PORT) within %gs" % (self.port, self.opts.startup)

    def abandon(self):
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass

    def answer(self, rid, text):
        fault, detail = self.timed(text.encode())
        if fault:
            self.channel.fault(rid, fault, detail)
        else:
            self.channel.value(rid, detail)

    def timed(self, body):
        """Posts body in a thread while the meter watches the charge: the
        server's CPU is what the move is charged, not the wait for it."""
        meter = self.channel.meter
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2 * self.opts.move + 1)
        done = []
        worker = threading.Thread(target=lambda: done.append(self.post(conn, body)), daemon=True)
        worker.start()
        while True:
            wait = meter.check()
            if not wait:
                # The bot is restarted after a timeout: the worker ends
                # with the connection.
                try:
                    conn.sock.shutdown(socket.SHUT_RDWR)
                except (AttributeError, OSError):
                    pass
                return "timeout", meter.detail()
            worker.join(wait)
            if done:
                return done[0]

    def post(self, conn, body):
        """POSTs one message; (fault, detail) or (None, JSON text)."""
        try:
            conn.request("POST", "/", body=body, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            data = resp.read(self.opts.answer + 1)
        except socket.timeout:
            return "timeout", "no answer within %gs of wall time" % (2 * self.opts.move + 1)
        except (OSError, http.client.HTTPException) as exc:
            if self.proc.poll() is not None:
                return "crash", "the server exited with status %d" % self.proc.returncode
            return "crash", "the server did not answer: %s" % clip(exc, 200)
        finally:
            conn.close()
        if not 200 <= resp.status <= 299:
            detail = "the server answered %d %s" % (resp.status, resp.reason)
            if data:
                detail += ": " + safe_repr(data[:80])
            return "error", detail
        if len(data) > self.opts.answer:
            return "output", "more than %d bytes in the answer's body" % self.opts.answer
        return parse_output(data)


def reject_constant(name):
    raise ValueError("%s is not valid JSON" % name)


def parse_output(raw):
    """(None, text) when raw is exactly one JSON value, else a fault."""
    excerpt = safe_repr(raw[:80])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "malformed", "the output is not UTF-8: %s" % excerpt
    text = text.strip()
    if not text:
        return "malformed", "no output"
    try:
        json.loads(text, parse_constant=reject_constant)
    except RecursionError:
        return "malformed", "the output is nested too deeply"
    except ValueError as exc:
        if getattr(exc, "msg", "") == "Extra data":
            return "malformed", "more than one JSON value: %s" % excerpt
        return "malformed", "not JSON (%s): %s" % (getattr(exc, "msg", exc), excerpt)
    # A newline in valid JSON is insignificant whitespace: replacing it keeps
    # the text one line without touching any value.
    return None, text.replace("\r", " ").replace("\n", " ")


# ---------------------------------------------------------------- warden

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
    harness = os.path.abspath(__file__)
    while True:
        nonce = next_game()
        if nonce is None:
            reset(libc)
            os._exit(0)
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


# ---------------------------------------------------------------- main

def main():
    global CONTAINED
    if sys.argv[1:2] == ["--warden"]:
        warden(sys.argv[2:])
    parser = argparse.ArgumentParser()
    parser.add_argument("--contained", action="store_true")
    parser.add_argument("--move", type=float, default=10.0)
    parser.add_argument("--startup", type=float, default=10.0)
    parser.add_argument("--answer", type=int, default=65536)
    parser.add_argument("--log", type=int, default=65536)
    parser.add_argument("--idle", type=float, default=600.0)
    parser.add_argument("--home", default="/tmp")
    parser.add_argument("--warm", default="", help="the folder of warm.py as sitecustomize.py and of warm.js (see Warm)")
    parser.add_argument("protocol", choices=("ia", "program"))
    parser.add_argument("bot")
    opts = parser.parse_args()
    CONTAINED = opts.contained or os.getpid() == 1
    if opts.contained:
        # Under a warden: the harness and the bot, not the warden, are
        # the first killed when the container runs out of memory.
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")

    channel = Channel(opts.log)
    listener = Listener(channel, opts.idle)
    try:
        serve(channel, listener, opts)
    except BaseException:
        # Python would print this to fd 2, the log's pipe, that nobody
        # drains once the harness is gone.
        channel.note(traceback.format_exc())
        listener.abandon()
        os._exit(1)


def serve(channel, listener, opts):
    minimal_env(opts.home)
    bot = os.path.abspath(opts.bot)
    if opts.protocol == "ia":
        kind = Virus
    else:
        kind = Server if server_command(bot) else Program
        if kind is Program and Warm.fits(bot, opts):
            kind = Warm
    runner = kind(channel, bot, opts)
    listener.abandon = runner.abandon
    channel.meter = Meter(opts.move)
    failed = runner.start()
    if failed:
        channel.send_json({"ready": False, "fault": failed[0], "detail": clip(failed[1])})
        leave(channel, runner)
    # Starting has a limit of its own: the first move's charge starts now.
    channel.meter.settle()
    channel.send_json({"ready": True})
    for rid, request, raw in requests(listener):
        channel.meter.begin()
        try:
            if opts.protocol == "ia":
                runner.answer(rid, request)
            else:
                runner.answer(rid, raw)
        except Exception as exc:
            log_exception(channel, exc)
            channel.fault(rid, "crash", "harness failure: %s" % clip(exc, 300))
    leave(channel, runner)


def leave(channel, runner):
    """Exits once the log is passed on: threads the bot started must not
    keep the harness alive. os._exit runs no atexit handler: the runner
    stops what it started itself."""
    runner.abandon()
    channel.catch_up()
    os._exit(0)


if __name__ == "__main__":
    main()
