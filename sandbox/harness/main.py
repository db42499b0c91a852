"""The harness's command line, and serve(): one game's requests answered
by one bot (see harness.py for the protocol)."""

import argparse
import os
import sys
import time
import traceback

# When the harness started (nearly: once this module is imported).
STARTED = time.monotonic()

from . import container
from .answers import clip
from .channel import Channel, Listener, requests
from .ia import IABot, log_exception
from .languages import server_command
from .meter import Meter
from .program import Program
from .server import Server
from .warden import warden
from .warmstart import Warm


def minimal_env(home):
    path = os.environ.get("PATH") or "/usr/local/bin:/usr/bin:/bin"
    os.environ.clear()
    os.environ.update({"PATH": path, "HOME": home, "LANG": "C.UTF-8"})


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--contained", action="store_true")
    parser.add_argument("--move", type=float, default=10.0)
    parser.add_argument("--startup", type=float, default=10.0)
    parser.add_argument("--answer", type=int, default=65536)
    parser.add_argument("--log", type=int, default=65536)
    parser.add_argument("--idle", type=float, default=800.0)
    parser.add_argument("--home", default="/tmp")
    parser.add_argument("--warm", default="", help="the folder of warm.py as sitecustomize.py and of warm.js (see Warm)")
    parser.add_argument("protocol", choices=("ia", "program"))
    parser.add_argument("bot")
    return parser.parse_args()


def main():
    if sys.argv[1:2] == ["--warden"]:
        warden(sys.argv[2:])
    opts = parse_args()
    container.contained = opts.contained or os.getpid() == 1
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
    runner = runner_kind(opts.protocol, bot, opts)(channel, bot, opts)
    listener.abandon = runner.abandon
    # Starting is charged like a move, under the start-up limit.
    start = channel.meter = Meter(opts.startup, channel.report_wait)
    # From the harness's own start: on a loaded machine its interpreter
    # may have waited long for a CPU already, which the judge is told now.
    start.begin(since=STARTED)
    channel.report_wait(start.waits.look(start.pids()))
    failed = runner.start()
    if failed:
        channel.send_json({"ready": False, "wait": start.waited(), "fault": failed[0], "detail": clip(failed[1])})
        leave(channel, runner)
    # The first move's charge starts now.
    channel.meter = Meter(opts.move, channel.report_wait)
    channel.meter.watch = start.watch
    channel.send_json({"ready": True, "wait": round(start.waited(), 6)})
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


def runner_kind(protocol, bot, opts):
    """The class that runs the bot: by its protocol, then by its files."""
    if protocol == "ia":
        return IABot
    if server_command(bot):
        return Server
    return Warm if Warm.fits(bot, opts) else Program


def leave(channel, runner):
    """Exits once the log is passed on: threads the bot started must not
    keep the harness alive. os._exit runs no atexit handler: the runner
    stops what it started itself."""
    runner.abandon()
    channel.catch_up()
    os._exit(0)
