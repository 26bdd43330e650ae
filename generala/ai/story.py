"""A game's story in win chances: every side's chance to win after each box filled, the
turning point, and each person's costliest box.

``story(game, table)`` reads a game's history (finished or not) and gives::

    {"points": [{"side", "round", "boxes", "chances": [...]}, ...],
     "start": [...],
     "turning": {"index", "side", "round", "boxes", "before", "after", "cause", "choice_cost"},
     "costliest": [{"side", "round", "boxes", "best", "cost", "index"}, ...]}

- ``start``: every side's chance before the first roll; ``points``: one per turn played
  (a box filled, two with ten dice), the chances right after it (the next turn not begun),
  the last one the result (1 for the winner, a first place shared, 0 for the others);
- ``turning``: the turn that moved its own side's chance the most (``before`` and
  ``after`` that side's chance); ``cause`` ``"choice"`` when the box chosen cost that side
  more chance than the dice gave or took (``choice_cost``, against the box best for the
  win with the same dice), else ``"roll"``; None with fewer than two sides or no turn;
- ``costliest``: for every side a person plays, its box that cost the most chance to win
  against the best box for the win with the same dice (``best``: that box), when one cost
  at least half a percentage point; ordered by side.

The chances are :func:`generala.ai.chances.chances` (every side playing the table's
policy); a box's chance is the one the play-to-win player gives it
(:meth:`generala.ai.players.WinningPlayer.box_values`: the holds are not weighed).
A :class:`Teller` keeps the chances it computed by history entry, so a game told again
after one more turn costs one more computation.
"""
from __future__ import annotations

from ..rules.game import Game
from . import chances as win

#: A box that costs less chance than this is not told as the costliest.
MIN_COST = 0.005


def _round4(xs) -> list[float]:
    return [round(min(1.0, max(0.0, x)), 4) for x in xs]


class Teller:
    """Tells games of one value table; keeps the chances after each entry it has seen (by the
    history entry itself: an entry undone and played again differently is a new one)."""

    def __init__(self, table) -> None:
        self.table = table
        self.ch = win.for_table(table)
        self._seen: dict = {}  # id(entry) -> (entry, chances after it, box values)

    def chances_now(self, game: Game) -> list[float]:
        return win.chances(game, self.table)

    def box_values(self, game: Game) -> dict:
        """The chance to win each box (or pair of boxes) open to the side to play leaves,
        with its dice now: ``{boxes tuple: chance}``."""
        from .coach import winner
        return {tuple(sorted(c.boxes)): u for c, u in winner(game.rules).box_values(game)}

    def tell(self, game: Game) -> dict:
        n = len(game.sides)
        fresh = Game(game.rules, game.sides, None, rolloff=False)
        setup = [a for a in game.history if "rolloff" in a or "order" in a]
        fresh.replay(setup)
        start = self.chances_now(fresh) if n > 1 else [1.0]
        people = {i for i, s in enumerate(game.sides) if s.person}
        points, turns = [], []
        for action in game.history[len(setup):]:
            if "score" not in action:
                fresh.apply(action)
                continue
            side, round_ = fresh.current, fresh.round
            boxes = action["score"] if isinstance(action["score"], list) else [action["score"]]
            known = self._seen.get(id(action))
            if known is not None and known[0] is action:
                _, after, values = known
                fresh.apply(action)
            else:
                values = None
                if n > 1 and side in people and fresh.rolls > 0 and not fresh.sheet_mode:
                    values = self.box_values(fresh)
                fresh.apply(action)
                after = self.chances_now(fresh) if n > 1 else [1.0]
                self._seen[id(action)] = (action, after, values)
            points.append({"side": side, "round": round_, "boxes": list(boxes), "chances": _round4(after)})
            turns.append((side, round_, list(boxes), values))
        if game.over and game.auto_win is not None and n > 1:
            won = game.auto_win
            points.append({"side": won["side"], "round": game.round, "boxes": [], "auto_win": won["kind"],
                           "chances": _round4(win.finished(game))})
            turns.append((won["side"], game.round, [], None))
        return {"start": _round4(start), "points": points,
                "turning": self._turning(start, points, turns) if n > 1 else None,
                "costliest": self._costliest(points, turns, start) if n > 1 else []}

    @staticmethod
    def _chosen(values: dict, boxes: list) -> float | None:
        return values.get(tuple(sorted(boxes)))

    def _turning(self, start, points, turns) -> dict | None:
        best, best_swing = None, -1.0
        before_all = start
        for k, (point, (side, round_, boxes, values)) in enumerate(zip(points, turns)):
            before = before_all[side]
            after = point["chances"][side]
            swing = abs(after - before)
            if swing > best_swing + 1e-9:
                cost = 0.0
                if values:
                    got = self._chosen(values, boxes)
                    if got is not None:
                        cost = max(0.0, max(values.values()) - got)
                cause = "choice" if cost > 0 and cost >= abs((after + cost) - before) else "roll"
                best, best_swing = {"index": k, "side": side, "round": round_, "boxes": boxes,
                                    "before": round(before, 4), "after": round(after, 4),
                                    "cause": cause, "choice_cost": round(cost, 4)}, swing
            before_all = point["chances"]
        return best

    def _costliest(self, points, turns, start) -> list[dict]:
        worst: dict = {}
        for k, (side, round_, boxes, values) in enumerate(turns):
            if not values:
                continue
            got = self._chosen(values, boxes)
            if got is None:
                continue
            top_boxes, top = max(values.items(), key=lambda kv: kv[1])
            cost = top - got
            if cost >= MIN_COST and cost > worst.get(side, {}).get("cost", 0.0):
                worst[side] = {"side": side, "round": round_, "boxes": boxes, "best": list(top_boxes),
                               "cost": round(cost, 4), "index": k}
        return [worst[s] for s in sorted(worst)]


_tellers: dict = {}


def teller(table) -> Teller:
    got = _tellers.get(id(table))
    if got is None or got.table is not table:
        got = _tellers[id(table)] = Teller(table)
    return got


def story(game: Game, table) -> dict:
    """``game``'s story in win chances (see the module's doc)."""
    return teller(table).tell(game)
