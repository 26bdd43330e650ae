"""The view model: everything the board shows, as plain data, for one game state.

The page draws this and nothing else; it never reads game state back from the
DOM. Numbers and ids only: words are chosen by the page in the player's
language (box ids and option names are the keys of its translations).

The view is also the one source of what can be done now, by the person at the
board: ``acting`` says who acts (the side, and the computer level playing it, or
None for a person), and ``can_roll``, ``holdable`` (``can_hold``), ``scorable``
(the cells' ``playable``, each with the ``request`` that fills it), ``can_enter``
and ``can_undo`` are the actions a person may take, read from the game's
``legal_actions()`` (the one place legality is decided). While a computer side
acts, none is offered (it plays through ``op ai``; a saved bot's side, ``computer``
"bot", through ``op bot``), but for one: before a
computer's first roll, Undo takes back the box the person before it just filled
(the page gives that moment before the computer starts); a person's Undo never
takes back a computer's move. With ten dice (``boxes_per_turn`` 2) a score names
two of the ``scorable`` boxes and a split of the dice (``split_sizes``), which the
engine proposes (``op split``) and prices (``op price``).

``events`` says what the last action made happen (a roll, five alike, a box
filled, the turn passing, the end...): see :func:`events`. Every field is listed
with its meaning in docs/ARCHITECTURE.md ("The view's fields").
"""
from __future__ import annotations

from itertools import combinations

from ..rules.actions import Enter, Roll, Score, ScoreTwo, TakeWin, Toggle, Undo
from .decider import decider
from ..rules.dice import HAND_OF, counts
from ..rules.errors import IllegalAction, InvalidInput
from ..rules.game import Game
from ..rules.sides import computer_level as level_named

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
    return {box: max(rules.price_group(box, hand, sheet) for hand in hands)
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
    return max(max(points) for points in rules.prices[box].values())


def best_box(game: Game, fillable, preview: dict, advisor=None) -> dict | None:
    """The one box the board marks as the best to fill now (five dice, a person to score),
    and why, in a word: ``{"box", "why"}``. With ``advisor`` (the coach's, whose values its
    costs are measured by) the box of the highest expected final score (``why`` "game");
    without it the box that earns the most points now ("points"). When no box earns
    anything, the box that is best to give up ("give_up"): the coach's, or, without it, of
    the boxes that lose least now the one that could ever earn least. Ties: sheet order."""
    rules = game.rules
    if rules.boxes_per_turn != 1 or not fillable or game.dice is None:
        return None
    boxes = [b for b in rules.categories if b in fillable and preview.get(b) is not None]
    if not boxes:
        return None
    top = max(preview[b] for b in boxes)
    nothing = top <= 0
    if advisor is not None:
        valued = [c for c in advisor.choices(game, holds=False) if c.kind == "score" and c.boxes[0] in fillable]
        if valued:
            best = max(valued, key=lambda c: c.value)  # max keeps the first of equals: sheet order
            return {"box": best.boxes[0], "why": "give_up" if nothing else "game"}
    if nothing:
        least = [b for b in boxes if preview[b] == top]
        return {"box": min(least, key=lambda b: _best_of(rules, b)), "why": "give_up"}
    return {"box": next(b for b in boxes if preview[b] == top), "why": "points"}


def view(game: Game, *, last: dict | None = None, events: list | None = None, advisor=None) -> dict:
    """What the board shows now. ``last`` describes the action just taken (for announcements),
    ``events`` what it made happen (:func:`events`; none for a view that follows no action);
    ``advisor`` the coach's, when it is on (:func:`best_box`)."""
    rules = game.rules
    current = game.current
    manual = game.sheet_mode
    acting = acting_side(game)
    person = acting is not None and acting["computer"] is None
    legal = game.legal_actions()
    offered = legal if person else []
    fillable = {box for a in offered if isinstance(a, (Score, ScoreTwo))
                for box in (a.boxes if isinstance(a, ScoreTwo) else (a.box,))}
    preview = (game.preview() or best_fives(game)) if fillable else {}
    hand = HAND_OF[game.dice] if person and game.dice is not None and rules.dice == 5 else None
    served = game.rolls == 1
    totals = game.totals()
    places = game.ranking() if game.over else [None] * len(game.sides)
    rows = []
    for box in rules.categories:
        cells = []
        for i, sheet in enumerate(game.sheets):
            value = sheet[box]
            cell = {"value": value, "text": cell_text(rules, box, value)}
            if i == current and box in fillable:
                cell["preview"] = preview[box]
                cell["playable"] = True
                if rules.boxes_per_turn == 1:
                    cell["scored"] = cell_text(rules, box, preview[box])  # drawn at the click, before the reply
                    fill = game.fill_action(box)
                    cell["scratch"] = fill.scratch
                    cell["request"] = fill.to_request()
                    # the box it needs first, when the dice would score here but earn 0
                    # because that box holds no points yet (the page asks first)
                    throws = rules.throws_away(box, hand, served, sheet)
                    if throws is not None:
                        cell["throws_away"] = throws
                else:
                    # ten dice: the best five for this box alone; chosen in pairs, priced by a
                    # split (op split / op price give the pair's scratch flags and request)
                    cell["scratch"] = rules.scratches(box, preview[box])
                    cell["request"] = None
            elif i == current and hand is not None and value is None:
                refused = rules.fill_refusal(box, hand, served, sheet)
                if refused is not None:  # a house rule refuses the dice here: why, for the page
                    cell["refused"] = {"code": refused[0], "params": refused[1]}
            cells.append(cell)
        rows.append({"box": box, "mandatory": box in rules.mandatory, "cells": cells})
    holdable = [a.die for a in offered if isinstance(a, Toggle)]
    return {
        "variant": rules.name,
        "title": rules.spec.title,
        "options": rules.options,
        "dice_count": rules.dice,
        "boxes_per_turn": rules.boxes_per_turn,
        "split_sizes": split_sizes(rules),
        "sides": [
            {
                "name": side.name,
                "members": list(side.members),
                "player": side.player,
                "computer": computer_level(game, i),
                "bot": bot_of(game, i),
                "total": totals[i],
                "subtotals": rules.subtotals(game.sheets[i]),
                "place": places[i],
                "paper": paper_result(rules, game.sheets[i]),
            }
            for i, side in enumerate(game.sides)
        ],
        "order": list(game.order),
        "rolloff": [a["rolloff"] for a in game.history if "rolloff" in a],
        "starts": who_starts(game),
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
        "can_roll": any(isinstance(a, Roll) for a in offered),
        "can_hold": bool(holdable),
        "holdable": holdable,
        "scorable": [box for box in rules.categories if box in fillable],
        "best": best_box(game, fillable, preview, advisor if game.helps and not manual else None),
        "can_enter": any(isinstance(a, Enter) for a in offered),
        "can_take_win": any(isinstance(a, TakeWin) for a in offered),
        "can_undo": any(isinstance(a, Undo) for a in legal),
        "rows": rows,
        "over": game.over,
        "auto_win": game.auto_win,
        "settlement": game.settlement(),
        "decider": decider(game),
        "last": last,
        "events": list(events or ()),
        "daily": ({"date": game.daily["date"], "late": game.daily["late"], "again": bool(game.daily.get("again"))}
                  if game.daily else None),
        # what the page may offer around the board, said here so that it decides none of it:
        "help": game.helps,
        "can_report": game.over and not manual and game.helps,
        "moves": sum(1 for a in game.history if "rolloff" not in a and "order" not in a),
        "served": served and game.dice is not None,
        "entry_rolls": list(range(1, game.rolls + game.rolls_left + 1)) if manual else [],
    }


def who_starts(game: Game) -> dict | None:
    """Who starts and why, from the roll-off: ``side`` (the first in the order), ``rule``
    (the variant's: ``lowest-sum``, the lowest total of all the dice, or ``highest-die``,
    the highest of one die), ``value`` (that side's total or die in its last round) and
    ``tied`` (it rolled again after a tie). None without a roll-off (one side, or an order
    the table settled itself)."""
    rounds = [a["rolloff"] for a in game.history if "rolloff" in a]
    if not rounds:
        return None
    first = game.order[0]
    rolled = [sum(dice) for rnd in rounds for side, dice in rnd if side == first]
    if not rolled:
        return None
    return {"side": first, "rule": game.rules.spec.rolloff, "value": rolled[-1], "tied": len(rolled) > 1}


def split_sizes(rules) -> list[int] | None:
    """How many dice go to each box when a turn fills two boxes with a split of the dice
    (``[5, 5]``), or None when a turn fills one box."""
    per = rules.boxes_per_turn
    return [rules.dice // per] * per if per > 1 else None


def pair_choice(game: Game, box_a: str, box_b: str, positions) -> dict:
    """Ten dice, two boxes and a split: ``{"scratch": [bool, bool], "request": {...}}``,
    what choosing them means (a box that earns nothing is written 0 by choice) and the
    request that fills them (``op split`` and ``op price`` carry it)."""
    action = game.fill_action(box_a, box_b, list(positions))
    return {"scratch": list(action.scratch), "request": action.to_request()}


def pair_previews(game: Game, box: str) -> dict:
    """Ten dice, the first of two boxes chosen: what each other open box of the side to play
    would earn paired with ``box``, in the best split of the dice between the two (the split
    ``op split`` proposes for that pair, priced as it prices it). ``{"box": box, "with":
    {other: {"points": [in box, in other], "scratch": [flag, flag]}}, "best": other}``:
    ``scratch`` says which box the pair would write 0 in by choice, ``best`` the other box
    whose pair earns most (the first in sheet order on a tie; None when no pair earns
    anything). The page shows each open box's points with the first one chosen."""
    game.check_playing()
    if game.dice is None:
        raise IllegalAction("score.before_roll")
    rules = game.rules
    if rules.boxes_per_turn != 2:
        raise InvalidInput("split.ten_dice", {"variant": rules.name})
    rules.check_box(box)
    sheet = game.sheets[game.current]
    paired = {}
    best, top = None, 0
    for other in rules.categories:
        if other == box or sheet[other] is not None:
            continue
        split = rules.best_split(game.dice, box, other)
        points = [split.points_a, split.points_b]
        paired[other] = {"points": points,
                         "scratch": [rules.scratches(box, points[0]), rules.scratches(other, points[1])]}
        if split.total > top:
            best, top = other, split.total
    return {"box": box, "with": paired, "best": best}


def computer_level(game: Game, side: int) -> str | None:
    """The computer level playing side ``side`` ("optimal", ...), ``"bot"`` for a side a
    saved bot plays (the page asks the bot's worker for its moves, ``op bot``), None for a
    person. In a score-sheet game every side is played at the table: the computers and
    bots do not play."""
    player = game.sides[side].player
    if game.sheet_mode:
        return None
    return "bot" if player == "bot" else level_named(player)


def bot_of(game: Game, side: int) -> dict | None:
    """The saved bot playing side ``side``, ``{"name", "hash"}``, or None (a person, a
    computer level, a score-sheet game)."""
    bot = game.sides[side].bot
    return dict(bot) if bot is not None and not game.sheet_mode else None


def acting_side(game: Game) -> dict | None:
    """Who acts now: ``{"side": i, "computer": level, "bot" or None, "bot": {"name", "hash"}
    or None}``; None once the game is over."""
    if game.over:
        return None
    return {"side": game.current, "computer": computer_level(game, game.current),
            "bot": bot_of(game, game.current)}


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
    if "win" in action and game.auto_win:
        return {"type": "auto-win", "kind": game.auto_win["kind"], "dice": list(game.dice),
                "side": game.auto_win["side"], "player": None}
    return {"type": "other"}


# --- events: what an action made happen ------------------------------------------------------

def moment(game: Game) -> dict:
    """What :func:`events` compares: the game just before an action."""
    return {"current": game.current, "over": game.over, "auto_win": game.auto_win,
            "held": sorted(game.held), "player": game.player}


def events(game: Game, action: dict, before: dict) -> list[dict]:
    """What ``action`` (a history entry, or ``{"undo": <the entry taken back>}``) made happen,
    the game having been ``before`` (:func:`moment`) it. In this order, each ``{"kind", ...}``:

    - ``roll`` (``side``, ``dice``, ``rolled``: the positions thrown, ``roll``: 1-3) or
      ``enter`` (``side``, ``dice``, ``at``, ``served``: entered as the turn's first roll); then ``five_alike`` when five dice (or more,
      of ten) show one face (``side``, ``hand``: the box of that game's five alike,
      ``served``: on the turn's first roll, ``face``); ``auto_win`` when that wins the
      game at once (``side``, ``win``: the kind of win, as in the view's ``auto_win``),
      or when the win the dice offered is taken (``{"win": true}``);
    - ``hold`` (``side``, ``held``: the dice held now, ``changed``: the dice whose hold
      changed);
    - ``box_filled`` (``side``, ``boxes``, ``points``, ``scratch``: one flag a box);
    - ``undo`` (``side``: the side to play now, ``undone``: the entry taken back);
    - ``game_over`` (``winners``: the sides placed first) when the game ended;
    - ``hand_over`` (``side``: the side to play now, ``player``: who of it plays,
      ``from``: the side that played) when the turn passed to another side.
    """
    out: list[dict] = []
    side = before["current"]
    if "roll" in action or "enter" in action:
        dice = list(game.dice)
        if "roll" in action:
            out.append({"kind": "roll", "side": side, "dice": dice,
                        "rolled": [i for i in range(len(dice)) if i not in before["held"]],
                        "roll": game.rolls})
        else:
            out.append({"kind": "enter", "side": side, "dice": dice, "at": game.rolls,
                        "served": game.rolls == 1})
        count = counts(dice)
        top = max(count)
        if top >= 5:
            out.append({"kind": "five_alike", "side": side, "hand": game.rules.best_hand,
                        "served": game.rolls == 1, "face": count.index(top)})
        if game.auto_win is not None and before["auto_win"] is None:
            out.append({"kind": "auto_win", "side": game.auto_win["side"], "win": game.auto_win["kind"]})
    elif "hold" in action:
        held = sorted(game.held)
        out.append({"kind": "hold", "side": side, "held": held,
                    "changed": sorted(set(held) ^ set(before["held"]))})
    elif "score" in action:
        boxes = action["score"] if isinstance(action["score"], list) else [action["score"]]
        scratch = action.get("scratch", False)
        out.append({"kind": "box_filled", "side": side, "boxes": boxes,
                    "points": [game.sheets[side][b] for b in boxes],
                    "scratch": list(scratch) if isinstance(scratch, list) else [bool(scratch)] * len(boxes)})
    elif "undo" in action:
        out.append({"kind": "undo", "side": game.current, "undone": action["undo"]})
    elif "win" in action and game.auto_win is not None:
        out.append({"kind": "auto_win", "side": game.auto_win["side"], "win": game.auto_win["kind"]})
    if game.over and not before["over"]:
        places = game.ranking()
        out.append({"kind": "game_over", "winners": [i for i, p in enumerate(places) if p == 1]})
    if not game.over and game.current != before["current"]:
        out.append({"kind": "hand_over", "side": game.current, "player": game.player,
                    "from": before["current"]})
    return out
