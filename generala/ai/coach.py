"""The coach: what each choice is worth now, what a choice cost, and a post-game report.

Values are expected final scores of the side to play (the solitaire optimum:
automatic wins not counted), from the solved value table.

- ``hint(game, top=5)``: the best choices now, each ``{"choice", "action",
  "expected", "loss"}``;
- ``cost(game, action)``: expected points lost by ``action`` against the best choice;
- ``report(game)``: every decision of every side with its loss, the total skill
  loss, and luck (actual total − expected total at the start + skill loss: what
  the dice gave beyond expectation).
"""
from __future__ import annotations

from ..rules.game import Game
from .players import ROLL, Advisor, Choice
from .tables import table_for

_advisors: dict = {}


def advisor(rules) -> Advisor:
    table = table_for(rules)
    got = _advisors.get(id(table))
    if got is None:
        got = _advisors[id(table)] = Advisor(table)
    return got


def _describe(c: Choice, game, best: float) -> dict:
    return {
        "choice": c.label(),
        "kind": c.kind,
        "keep": list(c.keep),
        "boxes": list(c.boxes),
        "action": c.action(game),
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
    choices = sorted(advisor(game.rules).choices(game), key=lambda c: -c.value)
    best = choices[0].value
    described = [_describe(c, game, best) for c in choices[:top]]
    if game.win_offered:
        described = [{"choice": "take the win", "kind": "win", "keep": [], "boxes": [],
                      "action": {"win": True}, "expected": round(best, 4), "loss": 0.0},
                     *described[:top - 1]]
    return described


def _value_of(game: Game, action: dict, choices: list[Choice]) -> float:
    """The expected final score after ``action`` (a hold, roll or score) at this point."""
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
        model = advisor(rules).model
        table = advisor(rules).table
        state, base = model.state_of(game.sheets[game.current])
        split = action.get("split")
        if split is None:
            return next(c.value for c in choices if c.kind == "score" and set(c.boxes) == set(box))
        scratch = action.get("scratch") or (False, False)  # a box chosen to write 0 in
        pts = sum(rules.price_split(game.dice, split, box[0], box[1], game.sheets[game.current], scratch))
        nxt = (state[0] | model.bit[box[0]] | model.bit[box[1]], 0)
        return base + pts + table.state_value(nxt)
    if action.get("scratch"):
        model = advisor(game.rules).model
        table = advisor(game.rules).table
        state, base = model.state_of(game.sheets[game.current])
        # A scratch is a zero in the box: the value of the box with a hand that earns nothing.
        return base + table.state_value(model.after_zero(state, box))
    return next(c.value for c in choices if c.kind == "score" and c.boxes == (box,))


def cost(game: Game, action: dict) -> float:
    """Expected points lost by ``action`` now, against the best choice (0 for the best)."""
    if game.over:
        return 0.0
    choices = advisor(game.rules).choices(game)
    best = max(c.value for c in choices)
    return max(0.0, best - _value_of(game, action, choices))


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
                value = _value_of(g, ROLL, choices)
            else:
                value = _value_of(g, action, choices)
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
