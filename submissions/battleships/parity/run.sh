#!/bin/sh
# A folder bot: the judge runs run.sh with the request JSON as its argument.
exec python3 "$(dirname "$0")/bot.py" "$1"
