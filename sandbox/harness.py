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
(harness.py --warden ARGS, see harness/warden.py): it starts `harness.py
--contained ARGS` afresh for each game and resets the container after it.

This file only starts the harness: its parts are the modules of the package
harness/ beside it, one per role (see harness/__init__.py).

usage: harness.py [--warden|--contained] [--move S] [--startup S] [--answer N] [--log N] [--idle S] [--home DIR] [--warm DIR] ia|program BOT
"""

import os
import sys

# The folder beside this file is the package harness (a package wins over a
# module of the same name). -I kept this folder off sys.path: it goes off
# again once the harness is imported, so that an ia bot imports what it
# would without the harness.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
import harness.main  # noqa: E402

sys.path.remove(_HERE)

if __name__ == "__main__":
    harness.main.main()
