#!/usr/bin/env python3
"""Connect four bot: drops its piece in a random column that is not full,
answering with the column as a string ("3") as the site's example does. Its
randomness is seeded with the game-id and the board, so that it answers the
same request the same way. Reads botsArena's JSON from argv[1] (or stdin),
prints one JSON answer."""
import json
import random
import sys


def read_request():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read()
    return json.loads(text)


def main():
    req = read_request()
    if req.get("action") == "init":
        print(json.dumps({"name": "random_column"}))
        return
    board = req["board"]
    # The top row is the last one: a column is open while its top is empty.
    open_columns = [col for col, mark in enumerate(board[-1]) if mark == ""]
    rng = random.Random("%s %s" % (req.get("game-id"), json.dumps(board)))
    print(json.dumps({"play": str(rng.choice(open_columns))}))


main()
