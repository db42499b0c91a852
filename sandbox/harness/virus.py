"""What the ia protocol knows of its one game, virus (SPEC §1). The judge's
request is {"game": game, "side": side}, game as JSON carries it; the bot's
ia(game, side) gets that game with what JSON cannot carry and the judge
does not keep: on its own side its misc, its private store kept in the
harness from one call to the next within a game, and its own ia; on the
other side no ia."""

SIDES = ("player_1", "player_2")


def arguments(request, misc, ia):
    """The arguments of ia for the request, given the bot's misc and ia."""
    game, side = request["game"], request["side"]
    game[side]["misc"] = misc
    game[side]["ia"] = ia
    for other in SIDES:
        if other != side and isinstance(game.get(other), dict):
            game[other]["ia"] = None
    return game, side


def misc_after(game, side, misc):
    """The bot's misc once its call has ended, even by an exception: what its
    side holds then (the bot may have replaced it), else misc."""
    try:
        return game[side]["misc"]
    except Exception:
        return misc
