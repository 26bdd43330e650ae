"""The view model: everything the board shows, as plain data, for one game state.

The page draws this and nothing else; it never reads game state back from the
DOM. Numbers and ids only: words are chosen by the page in the player's
language (box ids and option names are the keys of its translations).

The view is also the one source of what can be done now, by the person at the
board: ``acting`` says who acts (the side, and the computer level playing it, or
None for a person), and ``can_roll``, ``holdable`` (``can_hold``), ``scorable``
(the cells' ``playable``), ``can_enter`` and ``can_undo`` are the actions a person
may take. While a computer side acts, none is offered (it plays through ``op
ai``), but for one: before a computer's first roll, Undo takes back the box the
person before it just filled (the page gives that moment before the computer
starts); a person's Undo never takes back a computer's move. With ten dice
(``boxes_per_turn`` 2) a score names two of the ``scorable`` boxes and a split of
the dice, which the engine proposes (``op split``) and prices (``op price``).
"""
from __future__ import annotations

from itertools import combinations

from .game import Game

MINUS = "\u2212"  # the minus sign a negative number is written with


def cell_text(rules, box: str, value: int | None) -> str:
    """How a filled box is written on a paper sheet: ``—`` for a scratch, ``O``/``+4``/``-2`` in
    the Bulgarian mandatory part, the points otherwise."""
    if value is None:
        return ""
    if box in rules.mandatory:
        return "O" if value == 0 else f"{value:+d}".replace("-", MINUS)
    return "—" if value == 0 else str(value)


def best_fives(game: Game) -> dict[str, int]:
    """Ten dice: what the best five of them would earn in each open box of the side to
    play (priced as a split prices each half), before the two boxes are chosen."""
    if game.dice is None or game.over or game.rules.boxes_per_turn != 2:
        return {}
    rules = game.rules
    sheet = game.sheets[game.current]
    hands = set(combinations(sorted(game.dice), 5))
    return {box: max(rules._price(box, hand, False, sheet) for hand in hands)
            for box, value in sheet.items() if value is None}


def paper_result(rules, sheet) -> dict | None:
    """The Bulgarian paper's figures for one sheet: the mandatory part, the −50 written
    only once it is certain (the part is complete, or its best finish is still negative),
    the combinations and their result. None for rules without a mandatory part."""
    if not rules.mandatory:
        return None
    sub = rules.subtotals(sheet)
    best = sub["mandatory"] + sum(_best_of(rules, box) for box in rules.mandatory if sheet.get(box) is None)
    penalty = -50 if best < 0 else 0
    return {"mandatory": sub["mandatory"], "penalty": penalty, "combinations": sub["combinations"],
            "total": sub["mandatory"] + penalty + sub["combinations"]}


def _best_of(rules, box: str) -> int:
    """The most ``box`` can earn with any five dice."""
    return max(max(points) for points in rules._prices[box].values())


def view(game: Game, *, last: dict | None = None) -> dict:
    """What the board shows now. ``last`` describes the action just taken (for announcements)."""
    rules = game.rules
    current = game.current
    manual = is_sheet(game)
    preview = game.preview() or best_fives(game)
    acting = acting_side(game)
    person = acting is not None and acting["computer"] is None
    playing = person and game.dice is not None
    totals = game.totals()
    places = game.ranking() if game.over else [None] * len(game.sides)
    rows = []
    for box in rules.categories:
        cells = []
        for i, sheet in enumerate(game.sheets):
            value = sheet[box]
            cell = {"value": value, "text": cell_text(rules, box, value)}
            if i == current and value is None and playing and rules.boxes_per_turn == 1:
                cell["preview"] = preview[box]
                cell["scored"] = cell_text(rules, box, preview[box])  # drawn at the click, before the reply
                cell["playable"] = True
            elif i == current and value is None and playing:
                cell["preview"] = preview[box]  # ten dice: the best five for this box alone
                cell["playable"] = True  # chosen in pairs, priced by a split
            cells.append(cell)
        rows.append({"box": box, "mandatory": box in rules.mandatory, "cells": cells})
    can_hold = person and not manual and 0 < game.rolls < 3
    return {
        "variant": rules.name,
        "title": rules.spec.title,
        "options": rules.options,
        "dice_count": rules.dice,
        "boxes_per_turn": rules.boxes_per_turn,
        "sides": [
            {
                "name": side.name,
                "members": list(side.members),
                "player": side.player,
                "total": totals[i],
                "subtotals": rules.subtotals(game.sheets[i]),
                "place": places[i],
                "paper": paper_result(rules, game.sheets[i]),
            }
            for i, side in enumerate(game.sides)
        ],
        "order": list(game.order),
        "rolloff": [a["rolloff"] for a in game.history if "rolloff" in a],
        "current": current,
        "player": game.player,
        "round": game.round,
        "turns": rules.turns,
        "dice": list(game.dice) if game.dice else None,
        "held": [i in game.held for i in range(rules.dice)],
        "rolls": game.rolls,
        "rolls_left": game.rolls_left,
        "sheet": manual,
        "acting": acting,
        "can_roll": person and not manual and game.rolls < 3 and len(game.held) < rules.dice,
        "can_hold": can_hold,
        "holdable": list(range(rules.dice)) if can_hold else [],
        "scorable": [row["box"] for row in rows if row["cells"][current].get("playable")] if playing else [],
        "can_enter": person and manual and game.rolls == 0,
        "can_undo": undo_allowed(game) and (person or game.rolls == 0),
        "rows": rows,
        "over": game.over,
        "auto_win": game.auto_win,
        "settlement": game.settlement(),
        "last": last,
    }


def is_sheet(game: Game) -> bool:
    """A score-sheet game: its order was given, not rolled (the table throws real dice)."""
    return bool(game.history) and "order" in game.history[0]


def computer_level(game: Game, side: int) -> str | None:
    """The computer level playing side ``side`` ("optimal", ...), None for a person. In a
    score-sheet game every side is played at the table: the computers do not play."""
    player = game.sides[side].player or "human"
    return player[3:] if player.startswith("ai:") and not is_sheet(game) else None


def acting_side(game: Game) -> dict | None:
    """Who acts now: ``{"side": i, "computer": level or None}``; None once the game is over."""
    if game.over:
        return None
    return {"side": game.current, "computer": computer_level(game, game.current)}


def undo_allowed(game: Game) -> bool:
    """Whether Undo is offered: a hold or the box just filled (until the next roll), never a
    roll, nothing once the game is over (see ``Game.can_undo``); and never the box a
    computer just filled (its turn is over, the next side's dice not rolled yet)."""
    if not game.can_undo:
        return False
    if game.rolls == 0 and not game.over:
        order = game.order
        previous = order[(order.index(game.current) - 1) % len(order)]
        return computer_level(game, previous) is None
    return True


def describe(game: Game, action: dict) -> dict:
    """The event a screen reader announces after ``action``: plain data, worded by the page."""
    side = game.current
    if "roll" in action:
        event = {"type": "roll", "dice": list(game.dice), "rolls_left": game.rolls_left}
        if game.auto_win:
            event = {"type": "auto-win", "kind": game.auto_win["kind"], "dice": list(game.dice)}
        return {**event, "side": side, "player": game.player}
    if "hold" in action:
        return {"type": "hold", "held": action["hold"], "side": side}
    if "score" in action:
        boxes = action["score"] if isinstance(action["score"], list) else [action["score"]]
        # The turn has passed: report the side that scored (the previous one in order).
        n = len(game.sides)
        scorer = game.order[(game.turn - 1) % n]
        points = [game.sheets[scorer][b] for b in boxes]
        scratch = action.get("scratch", False)
        flags = list(scratch) if isinstance(scratch, list) else [bool(scratch)] * len(boxes)
        # "scratch": which boxes were written 0 by the player's choice (drawn "—", like any 0).
        event = {"type": "score", "side": scorer, "boxes": boxes, "points": points, "scratch": flags}
        if game.over:
            event["over"] = True
        else:
            event["next"] = game.current
            event["next_player"] = game.player
        return event
    if "undo" in action:
        return {"type": "undo", "side": side}
    return {"type": "other"}
