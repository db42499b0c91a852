#!/usr/bin/env python3
"""Tic-tac-toe bot: plays a random free cell. Its randomness is seeded with
the game-id and the board, so that it answers the same request the same
way (a replay of a game is exact). Reads botsArena's JSON from argv[1] (or
stdin), prints one JSON answer."""
import json
import random
import sys


def read_request():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read()
    return json.loads(text)


def main():
    req = read_request()
    if req.get("action") == "init":
        print(json.dumps({"name": "random_cell"}))
        return
    board = req["board"]
    free = sorted(key for key, mark in board.items() if mark == "")
    rng = random.Random("%s %s" % (req.get("game-id"), json.dumps(board, sort_keys=True)))
    print(json.dumps({"play": rng.choice(free)}))


main()
