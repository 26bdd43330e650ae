"""Simple computer strategies for simulations and tests.

A strategy is a function ``choose(game) -> action``: the next action for the
side to play, as a dict in the history's format, with ``{"roll": None}`` meaning
"roll, let the roller give the dice". ``step(game, strategy)`` applies it.
"""
from __future__ import annotations

from ..rules.dice import counts
from ..rules.game import Game, positions_of

ROLL = {"roll": None}


def _best_box(game: Game) -> dict:
    """The open box worth most now; with nothing worth anything, scratch the cheapest box."""
    rules = game.rules
    if rules.boxes_per_turn == 2:
        a, b, split = rules.best_play(game.dice, game.sheets[game.current])
        return {"score": [a, b], "split": positions_of(game.dice, split.group_a)}
    preview = game.preview()
    best, box = None, None
    for b, points in preview.items():  # sheet order: the first of equal boxes wins
        if best is None or points > best:
            best, box = points, b
    return {"score": box}


def first_roll(game: Game) -> dict:
    """Roll once and take the best box: the laziest player."""
    return ROLL if game.rolls == 0 else _best_box(game)


def chase(game: Game) -> dict:
    """Keep the most common face and roll until five alike or three rolls, then take the best box.

    This is the play behind RULES.md's probability of five alike within a turn.
    """
    if game.rolls == 0:
        return ROLL
    dice = game.dice
    c = counts(dice)
    count = max(c)
    if game.rolls == 3 or count == len(dice):
        return _best_box(game)
    face = 6 - c[::-1].index(count)  # the highest of the most common faces
    keep = [i for i, d in enumerate(dice) if d == face]
    if len(game.held) != count or not all(i in game.held for i in keep):
        return {"hold": keep}
    return ROLL


STRATEGIES = {"first-roll": first_roll, "chase": chase}


def step(game: Game, strategy) -> dict:
    """Let ``strategy`` choose for the side to play and apply its action; returns it."""
    action = strategy(game)
    game.apply(action)
    return action
