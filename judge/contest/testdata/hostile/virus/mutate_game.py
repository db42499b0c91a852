"""Hostile virus bot. Attacks: the game state, through the game argument.
On its first move it fills the grid with its own pieces, rewrites the
history, the references, the scores, the opponent's name and misc, and plays
[4, 4] as if the board were its own; on its next move it reports whether any
of that survived. Contained: the bot only ever gets a copy, so its [4, 4] is
illegal and the next game dict is the judge's."""


def ia(game, side):
    me = game["references"][side]
    other = "player_2" if side == "player_1" else "player_1"
    if len(game["history"]) < 2:
        for row in game["grid"]:
            row[:] = [me] * len(row)
        game["history"][:] = [[side, [4, 4, []]]] * 50
        game["references"][other] = me
        game[side]["score"], game[other]["score"] = 100, 0
        game[other]["name"] = "pwned"
        game[other]["misc"]["pwned"] = True
        return [4, 4]
    if len(game["history"]) < 4:
        seen = (sum(row.count(me) for row in game["grid"]) > 50 or game[other]["name"] == "pwned"
                or "pwned" in game[other]["misc"] or len(game["history"]) > 10)
        print("ATTACK mutate_game: mutation_seen=%s" % seen)
    return False
