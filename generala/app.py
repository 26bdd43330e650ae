"""The engine's one entry point for the browser worker: JSON request in, JSON reply out.

The worker keeps the game being played; every reply carries the view to draw
and, after a change, the save document for the page to store. Requests::

    {"op": "ping"}
    {"op": "catalog"}                                      variants, options, boxes
    {"op": "new", "variant": "argentine", "options": {...},
     "sides": [{"name": "Ana", "members": [], "player": "human"}, ...], "seed": 42}
    {"op": "load", "save": {...}}                          resume a saved game
    {"op": "roll"} | {"op": "toggle", "die": 2} | {"op": "hold", "dice": [0, 1]}
    {"op": "score", "box": "fours"} | {"op": "score", "box": "ones", "scratch": true}
    {"op": "split", "boxes": ["ones", "five-kind"]}        best split for two boxes
    {"op": "price", "boxes": [a, b], "split": [i, ...]}    points of a chosen split
    {"op": "score", "boxes": [a, b], "split": [i, ...]}    ten dice: fill two boxes
    {"op": "undo"} | {"op": "view"} | {"op": "again"}      play again, same sides

Replies: ``{"ok": true, "view": {...}, "save": {...}?, ...}`` or
``{"ok": false, "error": "what is wrong", "kind": "IllegalAction", "view": ...}``.
"""
from __future__ import annotations

import json

from . import __version__
from .catalog import catalog
from .errors import GeneralaError
from .game import Game
from .roller import SeededRoller
from .save import dump, load
from .variants import variant
from .view import describe, undo_allowed, view


class Session:
    """The game the page is showing, and the requests that change it."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def handle(self, req: dict) -> dict:
        op = req.get("op")
        method = getattr(self, "op_" + str(op).replace("-", "_"), None)
        if method is None:
            return {"ok": False, "error": f"unknown op {op!r}", "kind": "InvalidInput"}
        try:
            reply = method(req)
        except GeneralaError as err:
            reply = {"ok": False, "error": str(err), "kind": type(err).__name__}
            if self.game is not None:
                reply["view"] = view(self.game)
            return reply
        reply.setdefault("ok", True)
        return reply

    # --- helpers ---------------------------------------------------------

    def _need_game(self) -> Game:
        if self.game is None:
            from .errors import IllegalAction
            raise IllegalAction("no game is open: start or load one")
        return self.game

    def _changed(self, action: dict) -> dict:
        game = self.game
        return {"view": view(game, last=describe(game, action)), "save": dump(game)}

    # --- ops ---------------------------------------------------------------

    def op_ping(self, req):
        return {"version": __version__}

    def op_catalog(self, req):
        return {"catalog": catalog()}

    def op_new(self, req):
        rules = variant(str(req.get("variant", "argentine")), **dict(req.get("options") or {}))
        seed = req.get("seed")
        roller = SeededRoller(seed) if seed is not None else SeededRoller.random()
        self.game = Game(rules, req.get("sides") or ["Player"], roller)
        return {"view": view(self.game), "save": dump(self.game)}

    def op_again(self, req):
        old = self._need_game()
        self.game = Game(old.rules, old.sides, SeededRoller.random())
        return {"view": view(self.game), "save": dump(self.game)}

    def op_load(self, req):
        self.game = load(req.get("save"))
        if self.game.roller is None:
            self.game.roller = SeededRoller.random()
        return {"view": view(self.game)}

    def op_view(self, req):
        return {"view": view(self._need_game())}

    def op_roll(self, req):
        game = self._need_game()
        game.roll()
        return self._changed(game.history[-1])

    def op_toggle(self, req):
        game = self._need_game()
        game.toggle(req.get("die"))
        return self._changed(game.history[-1])

    def op_hold(self, req):
        game = self._need_game()
        game.hold(req.get("dice") or [])
        return self._changed(game.history[-1])

    def op_score(self, req):
        game = self._need_game()
        if "boxes" in req:
            boxes = req["boxes"]
            if not isinstance(boxes, list) or len(boxes) != 2:
                from .errors import InvalidInput
                raise InvalidInput(f"boxes names two boxes, got {boxes!r}")
            game.score(boxes[0], boxes[1], split=req.get("split"))
        else:
            game.score(req.get("box"), scratch=bool(req.get("scratch")))
        return self._changed(game.history[-1])

    def op_split(self, req):
        game = self._need_game()
        a, b = _two(req.get("boxes"))
        positions, split = game.split_for(a, b)
        return {"split": {"boxes": [a, b], "positions": positions,
                          "points": [split.points_a, split.points_b]}}

    def op_price(self, req):
        game = self._need_game()
        a, b = _two(req.get("boxes"))
        positions = req.get("split")
        if game.dice is None:
            from .errors import IllegalAction
            raise IllegalAction("roll before choosing boxes")
        if not isinstance(positions, list) or len(set(positions)) != 5 or not all(
            type(i) is int and 0 <= i < len(game.dice) for i in positions
        ):
            from .errors import InvalidInput
            raise InvalidInput(f"a split lists five dice positions, got {positions!r}")
        sheet = game.sheets[game.current]
        group_a = tuple(sorted(game.dice[i] for i in positions))
        group_b = tuple(sorted(game.dice[i] for i in range(len(game.dice)) if i not in positions))
        price = game.rules._price
        return {"split": {"boxes": [a, b], "positions": sorted(positions),
                          "points": [price(a, group_a, False, sheet), price(b, group_b, False, sheet)]}}

    def op_undo(self, req):
        game = self._need_game()
        if not undo_allowed(game):
            from .errors import IllegalAction
            raise IllegalAction("nothing to undo: the turn has begun")
        game.undo()
        return self._changed({"undo": True})


def _two(boxes) -> tuple[str, str]:
    if not isinstance(boxes, list) or len(boxes) != 2 or not all(isinstance(b, str) for b in boxes):
        from .errors import InvalidInput
        raise InvalidInput(f"name two boxes, got {boxes!r}")
    return boxes[0], boxes[1]


SESSION = Session()


def handle(request: str) -> str:
    """Answer one request from the page (a JSON text) with a JSON text."""
    try:
        req = json.loads(request)
    except ValueError as err:
        return json.dumps({"ok": False, "error": f"request is not JSON: {err}", "kind": "InvalidInput"})
    if not isinstance(req, dict):
        return json.dumps({"ok": False, "error": "a request is a JSON object", "kind": "InvalidInput"})
    return json.dumps(SESSION.handle(req), ensure_ascii=False)
