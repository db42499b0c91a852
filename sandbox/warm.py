"""The judge's warm start of a Python program bot (see harness.py, Warm).

The harness starts `python3 bot.py` for the next request as soon as the
previous one has ended, with this folder on PYTHONPATH: Python imports this
module as `sitecustomize` at the end of its start-up, site imported, just
before it runs the bot's file. Here the process waits on the descriptor named
by BOTJUDGE_WARM for the request's argument; then it erases every trace of
the wait (this module, the two variables, this folder on sys.path, the
descriptor), gives the bot its argv, imports the sitecustomize a fresh start
would have imported, and returns: Python runs the bot as its __main__, as it
would have in a process started with the request. Nothing runs here before
the request but what a fresh start runs, and the process is new for each
request: its hash secret, random seed, pid and memory are its own.

Message on the descriptor: b"1" + argument, or b"0" when the request goes on
stdin only (too big for an argument); end of file without one means the
request will not come: the process exits.
"""

import os
import sys


def _wait():
    here = os.path.dirname(os.path.abspath(__file__))
    fd = int(os.environ.pop("BOTJUDGE_WARM"))
    del os.environ["PYTHONPATH"]
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    message = b"".join(chunks)
    if not message:
        os._exit(0)
    if message[:1] == b"1":
        arg = os.fsdecode(message[1:])
        sys.argv.append(arg)
        sys.orig_argv.append(arg)
    while here in sys.path:
        sys.path.remove(here)
    sys.path_importer_cache.pop(here, None)
    del sys.modules[__name__]


_wait()
del _wait
# What site was importing when it found this module: the image's own in its
# place in sys.modules, or an ImportError naming sitecustomize, which site
# ignores as it does when there is none, errors reported by site as usual.
import sitecustomize  # noqa: E402,F401
