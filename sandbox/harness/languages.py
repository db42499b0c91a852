"""How a program bot runs: its command, from the judge's table of languages
(sandbox/languages.go), which the judge writes beside these modules as
languages.json."""

import json
import os
import sys

from .answers import Unfit

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "languages.json")) as _f:
    TABLE = json.load(_f)


def interpreter(name):
    # The harness's own interpreter is its own binary, wherever PATH leads.
    return sys.executable if name == TABLE["self"] else name


# The interpreters of the program bots the harness runs itself, by extension,
# in the order a folder's main.<ext> is looked for.
INTERPRETERS = {lang["ext"]: interpreter(lang["interpreter"]) for lang in TABLE["interpreted"]}
# The hook that starts an interpreter ahead of its request, by interpreter:
# (the extension of the files it starts so, the hook's name).
WARM = {interpreter(lang["interpreter"]): (lang["ext"], lang["warm"]) for lang in TABLE["interpreted"] if lang.get("warm")}


def entry_point(path):
    """The command that runs the bot, and its working directory."""
    if os.path.isdir(path):
        return folder_entry(path), path
    if not os.path.isfile(path):
        raise Unfit("the bot is neither a file nor a folder")
    folder = os.path.dirname(path)
    interp = INTERPRETERS.get(os.path.splitext(path)[1])
    if interp:
        return [interp, path], folder
    if not os.access(path, os.X_OK):
        raise Unfit(TABLE["unfit"]["file"])
    return [path], folder


def folder_entry(path):
    """A folder's command: its run.sh, its main.<ext>, or its executable main
    or main.*."""
    script = TABLE["script"]
    main = TABLE["main"]
    for name, interp in [(script, TABLE["shell"])] + [(main + ext, i) for ext, i in INTERPRETERS.items()]:
        cand = os.path.join(path, name)
        if os.path.isfile(cand):
            if name == script and os.access(cand, os.X_OK):
                return [cand]
            return [interp, cand]
    for name in sorted(os.listdir(path)):
        cand = os.path.join(path, name)
        if (name == main or name.startswith(main + ".")) and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return [cand]
    raise Unfit(TABLE["unfit"]["folder"])


def server_command(path):
    """The command serving a botsArena HTTP bot folder (SPEC §3), its {port}
    still to fill in, or None when path is no such folder. A folder that also
    has a program entry (run.sh, main.*) is a program bot."""
    if not os.path.isdir(path):
        return None
    try:
        entry_point(path)
        return None
    except Unfit:
        pass
    for server in TABLE["servers"]:
        file = os.path.join(path, server["file"])
        if os.path.isfile(file):
            return [a.replace("{file}", file).replace("{dir}", path) for a in server["argv"]]
    return None
