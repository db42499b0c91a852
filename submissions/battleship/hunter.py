#!/usr/bin/env python3
"""Battleship bot (botsArena's rules): hunts by probability. For every cell
it has not shot, it counts the ways the boats still afloat could lie across
it, given its misses and the boats it has sunk; while a boat is hit but not
sunk, only the ways through those hits count, many times over. It shoots
the likeliest cell, hunting on a lattice (a checkerboard while the shortest
boat afloat is 2 long) until it hits. Its boats are placed at random. Its
randomness is seeded with the game-id, its index and its strikes, so that
it answers the same request the same way. Reads botsArena's JSON from
argv[1] (or stdin), prints one JSON answer."""
import json
import random
import sys
from collections import Counter


def read_request():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read()
    return json.loads(text)


def fleet(board):
    """The lengths of the boats, longest first."""
    lengths = []
    for length in range(6, 0, -1):
        lengths += [length] * int(board.get("ship%d" % length, 0))
    return lengths


def spans(w, h, length):
    """Every straight run of length cells on the grid."""
    for vertical in ((False, True) if length > 1 else (False,)):
        for x in range(w - (0 if vertical else length - 1)):
            for y in range(h - (length - 1 if vertical else 0)):
                yield [(x, y + i) if vertical else (x + i, y) for i in range(length)]


def place(rng, w, h, lengths):
    """Boats at random, without overlap; [] when they do not fit."""
    for _ in range(50):
        taken, boats = set(), []
        for length in lengths:
            cells = None
            for _ in range(200):
                vertical = rng.random() < 0.5
                xs, ys = w - (0 if vertical else length - 1), h - (length - 1 if vertical else 0)
                if xs <= 0 or ys <= 0:
                    continue
                x, y = rng.randrange(xs), rng.randrange(ys)
                run = [(x, y + i) if vertical else (x + i, y) for i in range(length)]
                if not taken.intersection(run):
                    cells = run
                    break
            if cells is None:
                break
            taken.update(cells)
            boats.append("%d,%d-%d,%d" % (cells[0] + cells[-1]))
        else:
            return boats
    return []


def sunk_boats(w, h, strikes, lengths):
    """The hits, the hits that belong to sunk boats, and the lengths still
    afloat. A boat sunk by a shot is a run through it of the hits made so
    far, of a length still afloat. Boats may touch, so a sunk boat is a
    guess, and a wrong one can hide a boat for good: the guesses are
    searched, the longest boats first, for one that leaves every other hit
    room for a boat still afloat."""
    afloat = Counter(lengths)
    hits, resolved, first = set(), set(), []
    misses = {s for s, result in strikes if not result}
    budget = [2000]

    def fits(c):
        blocked = misses | resolved
        for length in (n for n in afloat if afloat[n] > 0):
            for dx, dy in ((1, 0), (0, 1)):
                for k in range(length):
                    run = [(c[0] + (i - k) * dx, c[1] + (i - k) * dy) for i in range(length)]
                    if all(0 <= x < w and 0 <= y < h and (x, y) not in blocked for x, y in run):
                        return True
        return False

    def search(i):
        budget[0] -= 1
        if budget[0] < 0:
            return False
        while i < len(strikes) and strikes[i][1] != "hit and sunk":
            if strikes[i][1]:
                hits.add(strikes[i][0])
            i += 1
        if i == len(strikes):
            if not first:
                first.append((set(hits), set(resolved), Counter(afloat)))
            return all(fits(c) for c in hits - resolved)
        s = strikes[i][0]
        hits.add(s)
        options = []
        for length in sorted((n for n in afloat if afloat[n] > 0), reverse=True):
            for dx, dy in ((1, 0), (0, 1)):
                for k in [0, length - 1] + list(range(1, length - 1)):
                    run = [(s[0] + (j - k) * dx, s[1] + (j - k) * dy) for j in range(length)]
                    if all(c in hits and c not in resolved for c in run):
                        options.append((length, run))
        if not options:
            options = [(min((n for n in afloat if afloat[n] > 0), default=0), [s])]
        saved = set(hits)
        for length, run in options:
            afloat[length] -= 1
            added = [c for c in run if c not in resolved]
            resolved.update(added)
            if search(i + 1):
                return True
            afloat[length] += 1
            resolved.difference_update(added)
            hits.intersection_update(saved)
        return False

    if search(0):
        return hits, resolved, afloat
    return first[0]


def density(w, h, afloat, blocked, open_hits, shot, target):
    """How many ways the boats afloat lie across each cell not shot, clear
    of the blocked cells; only through the open hits when target is set, and
    those ways count many times over."""
    weight = Counter()
    for length, n in afloat.items():
        if n <= 0:
            continue
        for run in spans(w, h, length):
            if blocked.intersection(run):
                continue
            through = len(open_hits.intersection(run))
            if target and not through:
                continue
            for c in run:
                if c not in shot:
                    weight[c] += n * (1 + 50 * through)
    return weight


def aim(rng, w, h, lengths, strikes):
    shot, first = set(), []
    for strike in strikes:
        x, y = (int(v) for v in strike["target"].split(","))
        if (x, y) not in shot:  # a repeated shot says nothing new
            shot.add((x, y))
            first.append(((x, y), strike["result"]))
    hits, resolved, afloat = sunk_boats(w, h, first, lengths)
    misses = shot - hits
    open_hits = hits - resolved
    weight = Counter()
    if open_hits:
        weight = density(w, h, afloat, misses | resolved, open_hits, shot, True)
        if not weight:
            # No boat afloat fits the open hits: a sunk boat was guessed
            # wrongly, and the cells given to it may be another's.
            weight = density(w, h, Counter(lengths), misses, open_hits, shot, True)
    if not weight:
        weight = density(w, h, afloat, misses | resolved, open_hits, shot, False)
        # Every boat afloat covers a cell of the lattice of its shortest
        # length: hunting there alone finds them sooner.
        step = min((n for n in afloat if afloat[n] > 0), default=1)
        weight = Counter({c: v for c, v in weight.items() if (c[0] + c[1]) % step == 0}) or weight
    if not weight:
        free = [(x, y) for x in range(w) for y in range(h) if (x, y) not in shot]
        return rng.choice(free) if free else (0, 0)
    best = max(weight.values())
    return rng.choice(sorted(c for c, v in weight.items() if v == best))


def main():
    req = read_request()
    board = req["board"]
    w, h = int(board["width"]), int(board["height"])
    lengths = fleet(board)
    strikes = board.get("your_strikes", [])
    rng = random.Random("%s %s %d" % (req.get("game-id"), req.get("player-index"), len(strikes)))
    if req.get("action") == "init":
        print(json.dumps({"name": "hunter", "boats": place(rng, w, h, lengths)}))
        return
    print(json.dumps({"play": "%d,%d" % aim(rng, w, h, lengths, strikes)}))


main()
