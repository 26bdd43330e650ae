"""The moment that decided a finished game, read from its history.

A finished game is told by one moment (the view's ``decider``), each
``{"kind", "side", "round", "boxes", "points", "served"}``:

- ``auto_win``: the game was won at once (a served Generala, a Big General) by ``side``
  in its turn ``round``; ``boxes`` the game's five-alike box, ``points`` None, and
  ``win`` the kind of win (as in the view's ``auto_win``);
- ``lead``: the winner's box that put it ahead for good: after it, no other side ever
  stood level with or above it again, and it came after the first round (a lead taken
  in the first round and kept is told by the winner's best box instead);
- ``level``: first place shared: the box of one of the winners that drew level for
  good (the top was shared by exactly the winners from then on);
- ``best``: the best box of the winner (of the winners, sharing first place), when the
  lead was kept from the first round, or was not taken by a winner's own box earning
  points (a rival, or a winner, writing a negative number in Bulgarian); in a one-side
  game, its best box.

``boxes`` are the boxes filled (two with ten dice), ``points`` what they earned
together, ``round`` the turn number of the side that filled them, ``served`` whether
those dice came on the turn's first roll (five dice only). None while the game is not
over, and for a finished game with no automatic win whose best box would be told but
earned nothing.
"""
from __future__ import annotations

from ..rules.game import Game


def turns(game: Game) -> list[dict]:
    """Each box filled (a turn's score), in order: ``side``, ``round``, ``boxes``, ``points``
    (the boxes' points together), ``served``, and ``totals``: every side's total after it."""
    fresh = Game(game.rules, game.sides, None, rolloff=False)
    setup = [a for a in game.history if "rolloff" in a or "order" in a]
    fresh.replay(setup)
    five = game.rules.boxes_per_turn == 1
    out = []
    for action in game.history[len(setup):]:
        if "score" not in action:
            fresh.apply(action)
            continue
        side, round_, served = fresh.current, fresh.round, five and fresh.rolls == 1
        fresh.apply(action)
        boxes = action["score"] if isinstance(action["score"], list) else [action["score"]]
        out.append({"side": side, "round": round_, "boxes": list(boxes),
                    "points": sum(fresh.sheets[side][b] for b in boxes), "served": served,
                    "totals": fresh.totals()})
    return out


def _leaders(totals: list[int]) -> set[int]:
    top = max(totals)
    return {i for i, t in enumerate(totals) if t == top}


def _moment(kind: str, turn: dict) -> dict:
    return {"kind": kind, "side": turn["side"], "round": turn["round"], "boxes": turn["boxes"],
            "points": turn["points"], "served": turn["served"]}


def decider(game: Game) -> dict | None:
    """The moment that decided ``game`` (see the module's doc), or None."""
    if not game.over:
        return None
    if game.auto_win is not None:
        return {"kind": "auto_win", "side": game.auto_win["side"], "round": game.round,
                "boxes": [game.rules.best_hand], "points": None, "served": True,
                "win": game.auto_win["kind"]}
    played = turns(game)
    if not played:
        return None
    places = game.ranking()
    winners = {i for i, p in enumerate(places) if p == 1}

    def best() -> dict | None:
        # the highest points a winner earned in one turn, the earliest of equals (none
        # when no turn of theirs earned any)
        mine = [t for t in played if t["side"] in winners]
        top = max(mine, key=lambda t: t["points"])
        return _moment("best", top) if top["points"] > 0 else None

    if len(game.sides) == 1:
        return best()
    # the first turn from which the top was held by exactly the winners to the end
    k = len(played)
    while k > 0 and _leaders(played[k - 1]["totals"]) == winners:
        k -= 1
    turn = played[k]
    if turn["side"] not in winners or turn["round"] == 1 or turn["points"] <= 0:
        return best()
    return _moment("lead" if len(winners) == 1 else "level", turn)
