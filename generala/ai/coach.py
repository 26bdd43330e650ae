"""The coach: what each choice is worth now, what a choice cost, and a post-game report.

Values are expected final scores of the side to play (the solitaire optimum:
automatic wins not counted), from the solved value table. Where there is an opponent, a
hint's choices are also valued in chances to win (``chance``, ``chance_loss``: the
play-to-win player's values, :class:`generala.ai.players.WinningPlayer`) and ranked by
them, and ``cost`` has its twin ``chance_cost``.

- ``hint(game, top=5)``: the best choices now, each ``{"choice", "kind", "keep",
  "boxes", "action", "request", "expected", "loss"}``: ``action`` as the history records
  it, ``request`` the one request to the engine that makes it (as a view's cell carries
  the request that fills it): ``{"op": "roll"}``, ``{"op": "roll", "hold": [positions]}``
  (keep those dice, roll the rest), ``{"op": "score", ...}`` or ``{"op": "win"}``;
- ``cost(game, action)``: expected points lost by ``action`` against the best choice;
  ``best_choice(game)``: that best choice, described as a hint's (what a cost names);
- ``report(game)``: every decision of every side with its loss, the total skill
  loss, and luck (actual total − expected total at the start + skill loss: what
  the dice gave beyond expectation).
"""
from __future__ import annotations

from ..rules.actions import action_from_json
from ..rules.game import Game
from .players import ROLL, Advisor, Choice, WinningPlayer
from .tables import table_for

_advisors: dict = {}
_winners: dict = {}


def winner(rules) -> WinningPlayer:
    """The play-to-win player of ``rules``' table (one per table), whose values the coach
    gives in chances to win."""
    table = table_for(rules)
    got = _winners.get(id(table))
    if got is None or got.advisor.table is not table:
        got = _winners[id(table)] = WinningPlayer(rules, table)
    return got


def _in_chances(game: Game) -> bool:
    return len(game.sides) > 1 and game.rolls > 0 and not game.over


def advisor(rules) -> Advisor:
    """The advisor of ``rules``' table (one per table; :func:`table_for` finds it once)."""
    table = table_for(rules)
    got = _advisors.get(id(table))
    if got is None:
        got = _advisors[id(table)] = Advisor(table)
    return got


def request_for(action: dict) -> dict:
    """The one request that makes a choice's ``action``: a hold is "keep these, roll the
    rest", op roll with ``hold``."""
    if "hold" in action:
        return {"op": "roll", "hold": list(action["hold"])}
    return action_from_json(action).to_request()


def _describe(c: Choice, game, best: float) -> dict:
    action = c.action(game)
    return {
        "choice": c.label(),
        "kind": c.kind,
        "keep": list(c.keep),
        "boxes": list(c.boxes),
        "action": action,
        "request": request_for(action),
        "expected": round(c.value, 4),
        "loss": round(best - c.value, 4),
    }


def hint(game: Game, top: int = 5) -> list[dict]:
    """The ``top`` best choices for the side to play, best first. Where the dice offer the
    automatic win (a house rule makes it a choice), taking it comes first (``kind``
    ``"win"``): it wins the game, which no number of points does; its ``expected`` is the
    best other choice's, as the solitaire values do not count wins."""
    if game.over:
        return []
    if _in_chances(game) and not game.win_offered:
        valued = sorted(winner(game.rules).valued(game), key=lambda cu: -cu[1])
        best = max(c.value for c, _ in valued)
        top_u = valued[0][1]
        described = []
        for c, u in valued[:top]:
            row = _describe(c, game, best)
            row["chance"] = round(min(1.0, max(0.0, u)), 4)
            row["chance_loss"] = round(max(0.0, top_u - u), 4)
            described.append(row)
        return described
    choices = sorted(advisor(game.rules).choices(game), key=lambda c: -c.value)
    best = choices[0].value
    described = [_describe(c, game, best) for c in choices[:top]]
    if game.win_offered:
        described = [{"choice": "take the win", "kind": "win", "keep": [], "boxes": [],
                      "action": {"win": True}, "request": request_for({"win": True}),
                      "expected": round(best, 4), "loss": 0.0},
                     *described[:top - 1]]
    return described


def _value_of(game: Game, action: dict, choices: list[Choice], adv: Advisor) -> float:
    """The expected final score after ``action`` (a hold, roll or score) at this point;
    ``choices``: ``adv``'s choices there."""
    rolls = game.rolls
    if rolls == 0 or "win" in action:
        return max(c.value for c in choices)  # the win: never a loss (see hint)
    if "hold" in action or ("roll" in action and len(action) == 1):
        if rolls == 3:
            raise ValueError("no rolls left: choose a box")
        held = action["hold"] if "hold" in action else sorted(game.held)
        keep = tuple(sorted(game.dice[i] for i in held))
        if len(keep) == game.rules.dice:
            # Holding everything is stopping: the best box for these dice.
            return max(c.value for c in choices if c.kind == "score")
        return next(c.value for c in choices if c.kind == "hold" and c.keep == keep)
    box = action.get("score")
    if isinstance(box, list):
        rules = game.rules
        model, table = adv.model, adv.table
        state, base = model.state_of(game.sheets[game.current])
        split = action.get("split")
        if split is None:
            return next(c.value for c in choices if c.kind == "score" and set(c.boxes) == set(box))
        scratch = action.get("scratch") or (False, False)  # a box chosen to write 0 in
        pts = sum(rules.price_split(game.dice, split, box[0], box[1], game.sheets[game.current], scratch))
        nxt = (state[0] | model.bit[box[0]] | model.bit[box[1]], 0)
        return base + pts + table.state_value(nxt)
    if action.get("scratch"):
        model, table = adv.model, adv.table
        state, base = model.state_of(game.sheets[game.current])
        # A scratch is a zero in the box: the value of the box with a hand that earns nothing.
        return base + table.state_value(model.after_zero(state, box))
    return next(c.value for c in choices if c.kind == "score" and c.boxes == (box,))


def cost(game: Game, action: dict) -> float:
    """Expected points lost by ``action`` now, against the best choice (0 for the best)."""
    if game.over:
        return 0.0
    adv = advisor(game.rules)
    choices = adv.choices(game)
    best = max(c.value for c in choices)
    return max(0.0, best - _value_of(game, action, choices, adv))


def best_choice(game: Game, for_win: bool = False) -> dict | None:
    """The best choice now by expected final score (what :func:`cost` measures against),
    described as a hint's choice; None once the game is over. ``for_win``: the best for the
    chance to win where there is an opponent (what :func:`chance_cost` measures against),
    the hint's first choice with its ``chance``."""
    if game.over:
        return None
    if for_win and _in_chances(game) and not game.win_offered:
        return hint(game, top=1)[0]
    adv = advisor(game.rules)
    choices = adv.choices(game)
    best = max(choices, key=lambda c: c.value)  # ties: the first listed (boxes before holds)
    return _describe(best, game, best.value)


def chance_cost(game: Game, action: dict) -> float | None:
    """The chance to win lost by ``action`` now against the best choice for the win (None
    alone, before the first roll, or for an action the play-to-win values do not list)."""
    if not _in_chances(game) or game.win_offered or "win" in action:
        return None
    valued = winner(game.rules).valued(game)
    best = max(u for _, u in valued)
    if "score" in action:
        box = action["score"]
        boxes = tuple(box) if isinstance(box, list) else (box,)
        got = [u for c, u in valued if c.kind == "score" and set(c.boxes) == set(boxes)]
    else:
        held = action["hold"] if "hold" in action else sorted(game.held)
        keep = tuple(sorted(game.dice[i] for i in held))
        if len(keep) == game.rules.dice:
            got = [max(u for c, u in valued if c.kind == "score")]
        else:
            got = [u for c, u in valued if c.kind == "hold" and c.keep == keep]
    return max(0.0, best - got[0]) if got else None


def report(game: Game) -> dict:
    """Each side's decisions with their losses, the total skill loss, and luck.

    ``{"sides": [{"side", "name", "start", "final", "skill_loss", "luck",
    "decisions": [{"turn", "roll", "dice", "action", "best", "loss"}]}]}``.
    Only real decisions are listed: a roll after the first (the dice kept) and
    filling a box; decisions that lose less than 0.005 points are marked best.
    ``best`` is the best choice at that point, as a hint gives it (``choice``, ``kind``,
    ``keep``, ``boxes``, ``action``, ``expected``, ``loss``: 0).
    """
    rules = game.rules
    adv = advisor(rules)
    start = adv.table.value
    replay = Game(rules, game.sides, None, rolloff=False)
    rolloff = [a for a in game.history if "rolloff" in a]
    replay.replay(rolloff)
    sides = [{"side": i, "name": s.name, "start": round(start, 4), "decisions": [],
              "skill_loss": 0.0} for i, s in enumerate(game.sides)]
    for action in game.history[len(rolloff):]:
        g = replay
        decision = g.rolls > 0 and ("score" in action or "roll" in action)
        if decision:
            choices = adv.choices(g)
            best = max(choices, key=lambda c: c.value)
            if "roll" in action:
                value = _value_of(g, ROLL, choices, adv)
            else:
                value = _value_of(g, action, choices, adv)
            loss = max(0.0, best.value - value)
            entry = sides[g.current]
            entry["decisions"].append({
                "turn": g.round, "roll": g.rolls, "dice": list(g.dice),
                "action": action if "score" in action else {"keep": [g.dice[i] for i in sorted(g.held)]},
                "best": _describe(best, g, best.value), "loss": round(loss, 4),
            })
            entry["skill_loss"] += loss
        g.apply(action)
    totals = replay.totals()
    for entry, total in zip(sides, totals):
        entry["final"] = total
        entry["skill_loss"] = round(entry["skill_loss"], 4)
        entry["luck"] = round(total - start + entry["skill_loss"], 4)
    return {"variant": rules.name, "auto_win": replay.auto_win, "sides": sides}
