"""ia(game, side) bots: the bot's module is imported into the harness's own
process once per game, and its ia called for each request, under a timer."""

import importlib.util
import json
import os
import signal
import sys
import traceback

from . import virus
from .answers import AnswerError, Unfit, clip, safe_repr
from .channel import flush_std

class MoveTimeout(BaseException):
    """Raised inside the bot when its time is up. A BaseException so that a
    plain `except Exception` in the bot does not swallow it."""


class Alarm:
    """Raises MoveTimeout in the running code after a delay, and again every
    50 ms, so a bot that swallows it once is still stopped. The judge kills the
    container if even that does not work. The delay is the meter's: the
    alarm looks at the charge and waits again until a limit has passed."""

    armed = False
    meter = None

    @classmethod
    def handler(cls, signum, frame):
        if not cls.armed:
            return
        if cls.meter.ended is None:
            wait = cls.meter.check()
            if wait:
                signal.setitimer(signal.ITIMER_REAL, wait, 0.05)
                return
        raise MoveTimeout()

    @classmethod
    def run(cls, meter, fn, *args):
        if not meter.check():
            # Charged past the limit before it began (CPU used since the
            # previous move): the bot is not even asked.
            raise MoveTimeout()
        signal.signal(signal.SIGALRM, cls.handler)
        try:
            cls.armed, cls.meter = True, meter
            signal.setitimer(signal.ITIMER_REAL, meter.check() or 0.001, 0.05)
            return fn(*args)
        finally:
            # Disarm first: a signal already pending when the timer stops
            # must not raise outside of the caller's try.
            cls.armed, cls.meter = False, None
            signal.setitimer(signal.ITIMER_REAL, 0)


def invoke(ia, game, side):
    return ia(game, side)



# The folder of the harness's modules, whose frames the bot's author does
# not need to see.
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))


def harness_frame(code):
    name = code.co_filename
    return os.path.dirname(name) == HARNESS_DIR or name.startswith("<frozen importlib")


def bot_frames(tb):
    """Drops the harness's and importlib's frames from the front of a
    traceback, so the bot's author sees their own code first."""
    while tb is not None and harness_frame(tb.tb_frame.f_code):
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


class IABot:
    """A bot of the ia protocol: its module imported once, its ia called for
    each request with what virus.arguments makes of it."""

    def __init__(self, channel, path, opts):
        self.channel = channel
        self.path = path
        self.opts = opts
        self.misc = {}
        self.ia = None

    def start(self):
        try:
            self.ia = Alarm.run(self.channel.meter, load_bot, self.path)
        except MoveTimeout:
            return "timeout", self.channel.meter.detail("importing the bot took more than %gs of CPU time" % self.opts.startup, "not imported")
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
            self.misc = virus.misc_after(game, side, self.misc)
        try:
            text = json.dumps(result, allow_nan=False)
        except Exception as exc:
            raise AnswerError("malformed", "ia returned %s, which is not JSON (%s)" % (safe_repr(result), clip(exc, 200)))
        if len(text) > self.opts.answer:
            raise AnswerError("output", "the answer has %d bytes, over the limit of %d" % (len(text), self.opts.answer))
        return text

    def answer(self, rid, request):
        game, side = virus.arguments(request, self.misc, self.ia)
        try:
            text = Alarm.run(self.channel.meter, self.call, game, side)
        except MoveTimeout:
            self.channel.fault(rid, "timeout", self.channel.meter.detail())
        except AnswerError as exc:
            self.channel.fault(rid, exc.fault, exc.detail)
        except BaseException as exc:
            log_exception(self.channel, exc)
            self.channel.fault(rid, "error", self.failure(exc))
        else:
            self.channel.value(rid, text)
        flush_std()

    def failure(self, exc):
        """The detail of an exception from ia: a call that its signature
        refused is said in those words."""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if isinstance(exc, TypeError) and tb is not None and tb.tb_frame.f_code is invoke.__code__:
            return "ia cannot be called as ia(game, side): %s" % exc
        return describe(exc, self.path)
