#!/bin/sh
# Hostile battleships bot (shell). Attacks: staging, mounting and running a
# huge bot: the test appends 50 MB of comment lines to this file before
# staging it (the 50 MB file is never committed). Contained: it plays like
# any other bot; the shell never reads past its exit.
case "$1" in
*'"init"'*)
    echo '{"2":{"point":"00","orientation":"horizontal"},"3":{"point":"01","orientation":"horizontal"},"4":{"point":"02","orientation":"horizontal"},"5":{"point":"03","orientation":"horizontal"}}'
    ;;
*)
    # hunter.js's fleet first: every hit shoots again, so games stay short.
    python3 -c '
import json, sys
request = json.loads(sys.argv[1])
order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
shot = set(request["hit"]) | set(request["missed"])
print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
' "$1"
    ;;
esac
exit 0
