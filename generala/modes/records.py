"""A player's record across finished games: wins, best and mean score, scratches, Generalas."""
from __future__ import annotations

import math
from collections import defaultdict

from . import linkgame
from ..rules.errors import GeneralaError
from ..rules.game import Game


def records(entries) -> dict:
    """Records per ``(side name, variant)`` from ``[{"save": doc, "when": text}, ...]``;
    a game by link is ``{"link": <its device's local record>, "when": text}``, checked whole
    as op link_load checks it (its chains, commitments and dice).

    Returns ``{"players": [...], "skipped": n}``; documents that cannot be loaded
    are counted in ``skipped`` and otherwise ignored, so one bad save never hides
    a record.
    """
    table: dict[tuple[str, str], dict] = defaultdict(lambda: {
        "games": 0, "wins": 0, "scores": [], "scratches": defaultdict(int), "five_alike": 0,
    })
    skipped = 0
    for entry in entries:
        try:
            game = _game_of(entry)
        except (GeneralaError, KeyError, TypeError):
            skipped += 1
            continue
        if game is None or not game.over:
            continue
        places = game.ranking()
        totals = game.totals()
        five = _five_alike_by_side(game)
        for i, side in enumerate(game.sides):
            rec = table[(side.name, game.rules.name)]
            rec["games"] += 1
            rec["wins"] += places[i] == 1
            rec["scores"].append({"when": entry.get("when"), "score": totals[i]})
            rec["five_alike"] += five[i]
            for box, value in game.sheets[i].items():
                if value == 0 and box not in game.rules.mandatory:
                    rec["scratches"][box] += 1
    players = []
    for (name, variant_name), rec in sorted(table.items()):
        scores = [s["score"] for s in rec["scores"]]
        players.append({
            "name": name, "variant": variant_name, "games": rec["games"], "wins": rec["wins"],
            "best": max(scores), "mean": round(math.fsum(scores) / len(scores), 2),
            "scratches": dict(rec["scratches"]), "five_alike": rec["five_alike"],
            "scores": rec["scores"],
        })
    return {"players": players, "skipped": skipped}


def _game_of(entry):
    """The game of a records entry: a save's, or a game by link's (None before it began)."""
    if isinstance(entry, dict) and "link" in entry and "save" not in entry:
        return linkgame.LinkGame.from_local(entry["link"]).game
    return Game.from_json(entry["save"])


def _five_alike_by_side(game) -> list[int]:
    """How many turns each side ended with five alike (a Generala rolled), five-dice games."""
    counts = [0] * len(game.sides)
    if game.rules.dice != 5:
        return counts
    n, turn, dice = len(game.sides), 0, None
    for action in game.history:
        if "roll" in action or "enter" in action:
            dice = action.get("roll") or action.get("enter")
        if "score" in action or action is game.history[-1]:
            if dice and len(set(dice)) == 1:
                counts[game.order[turn % n]] += 1
            if "score" in action:
                turn += 1
            dice = None
    return counts
