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
    {"op": "new", ..., "sheet": true}                      score-sheet mode: real dice, order as given
    {"op": "enter", "dice": [4, 4, 1, 2, 6], "at": 1}      dice thrown at the table, on roll 1-3
    {"op": "share"} | {"op": "share", "save": {...}}      a link token of the open (or given) game
    {"op": "replay", "save": {...} | "link": "g1..."}      open a game for replay; view at step 0
    {"op": "replay_at", "step": 12}                        the replayed board after 12 actions
    {"op": "records", "entries": [{"save": {...}, "when": "..."}]}
    {"op": "import", "text": "..."}                        check an export file: its games
                                                           (id, when, finished, save, view), or why not
    {"op": "ai"}                                           one step of the computer side to play
    {"op": "hint"}                                         the best choices now, with expected final scores
    {"op": "coach", "on": true}                            then every human decision's reply has its "cost"
    {"op": "report"}                                       after a game: each decision's loss, skill, luck
    {"op": "solve", "budget_ms": 200}                      compute a missing value table in steps

The computer levels ``optimal`` and ``expert`` and the coach need the value
table of the rules. When it is not loaded the reply is ``{"ok": false, "kind":
"NeedTable", "table": name, "path": where}``: the worker fetches the shipped
file into ``path`` and asks again, or, for house options with no shipped
table, sends ``solve`` until it answers ``"done": true`` (with progress).

Replies: ``{"ok": true, "view": {...}, "save": {...}?, ...}`` or
``{"ok": false, "error": "what is wrong", "kind": "IllegalAction", "view": ...}``.
"""
from __future__ import annotations

import json

from . import __version__
from .catalog import catalog
from . import bundle, share
from .errors import GeneralaError, IllegalAction, InvalidInput
from .records import records
from .replay import Replay
from .game import Game
from .roller import SeededRoller
from .save import dump, load
from .variants import variant
from .view import describe, is_sheet, undo_allowed, view


class Session:
    """The game the page is showing, and the requests that change it."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.replay: Replay | None = None
        self.coach = False
        self._players: dict = {}
        self._solving = None

    def handle(self, req: dict) -> dict:
        op = req.get("op")
        method = getattr(self, "op_" + str(op).replace("-", "_"), None)
        if method is None:
            return {"ok": False, "error": f"unknown op {op!r}", "kind": "InvalidInput"}
        try:
            reply = method(req)
        except GeneralaError as err:
            reply = {"ok": False, "error": str(err), "kind": type(err).__name__}
            if isinstance(err, NeedTable):
                reply.update(table=err.table, path=err.path)
            if self.game is not None:
                reply["view"] = view(self.game)
            return reply
        except Exception as err:  # a bug: report it to the page instead of killing the worker
            return {"ok": False, "error": f"{type(err).__name__}: {err}", "kind": "InternalError"}
        reply.setdefault("ok", True)
        return reply

    # --- helpers ---------------------------------------------------------

    def _need_game(self) -> Game:
        if self.game is None:
            raise IllegalAction("no game is open: start or load one")
        return self.game

    def _changed(self, action: dict, cost: float | None = None) -> dict:
        game = self.game
        reply = {"view": view(game, last=describe(game, action)), "save": dump(game)}
        if cost is not None:
            reply["cost"] = round(cost, 4)
        return reply

    def _cost(self, game: Game, action: dict) -> float | None:
        """What a human decision costs against the best one, when the coach is on."""
        if not self.coach or game.rolls == 0 or is_sheet(game):
            return None
        from .ai import coach
        try:
            self._table(game.rules)
        except NeedTable:
            return None  # the move never waits for the coach
        return coach.cost(game, action)

    def _table(self, rules):
        """The rules' value table, loaded from a shipped file; NeedTable when absent."""
        from .ai import solver, tables
        solo = solver.solitaire_rules(rules)
        table = tables.cached(solo)
        if table is not None:
            return table
        name = solver.table_name(solo)
        path = tables.TABLES_DIR / name
        if path.is_file():
            return tables.register(solver.Table.load(path, solo))
        raise NeedTable(name, str(path))

    # --- ops ---------------------------------------------------------------

    def op_ping(self, req):
        return {"version": __version__}

    def op_catalog(self, req):
        return {"catalog": catalog()}

    def op_new(self, req):
        rules = variant(str(req.get("variant", "argentine")), **dict(req.get("options") or {}))
        sides = req.get("sides") or ["Player"]
        if req.get("sheet"):
            # Score-sheet mode: the table throws real dice and settles its own order.
            order = req.get("order") or list(range(len(sides))) if isinstance(sides, list) else None
            self.game = Game(rules, sides, None, order=order)
        else:
            seed = req.get("seed")
            roller = SeededRoller(seed) if seed is not None else SeededRoller.random()
            self.game = Game(rules, sides, roller)
        return {"view": view(self.game), "save": dump(self.game)}

    def op_again(self, req):
        old = self._need_game()
        if old.roller is None:
            self.game = Game(old.rules, old.sides, None, order=old.order)
        else:
            self.game = Game(old.rules, old.sides, SeededRoller.random())
        return {"view": view(self.game), "save": dump(self.game)}

    def op_load(self, req):
        self.game = load(req.get("save"))
        if self.game.roller is None and not is_sheet(self.game):
            self.game.roller = SeededRoller.random()
        return {"view": view(self.game)}

    def op_view(self, req):
        return {"view": view(self._need_game())}

    def op_roll(self, req):
        game = self._need_game()
        cost = self._cost(game, {"roll": None}) if game.rolls else None
        game.roll()
        return self._changed(game.history[-1], cost)

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
                raise InvalidInput(f"boxes names two boxes, got {boxes!r}")
            action = {"score": boxes, "split": req.get("split")}
        else:
            action = {"score": req.get("box")}
        cost = self._cost(game, action) if game.dice is not None else None
        if "boxes" in req:
            game.score(boxes[0], boxes[1], split=req.get("split"))
        else:
            game.score(req.get("box"), scratch=bool(req.get("scratch")))
        return self._changed(game.history[-1], cost)

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
            raise IllegalAction("roll before choosing boxes")
        if not isinstance(positions, list) or len(set(positions)) != 5 or not all(
            type(i) is int and 0 <= i < len(game.dice) for i in positions
        ):
            raise InvalidInput(f"a split lists five dice positions, got {positions!r}")
        sheet = game.sheets[game.current]
        group_a = tuple(sorted(game.dice[i] for i in positions))
        group_b = tuple(sorted(game.dice[i] for i in range(len(game.dice)) if i not in positions))
        price = game.rules._price
        return {"split": {"boxes": [a, b], "positions": sorted(positions),
                          "points": [price(a, group_a, False, sheet), price(b, group_b, False, sheet)]}}

    def op_enter(self, req):
        game = self._need_game()
        game.enter(req.get("dice"), req.get("at", 1))
        return self._changed(game.history[-1])

    def op_share(self, req):
        if "save" in req:  # any stored game, without opening it on the board
            return {"link": share.encode(dump(load(req["save"])))}
        return {"link": share.encode(dump(self._need_game()))}

    def op_replay(self, req):
        doc = share.decode(req["link"]) if "link" in req else req.get("save")
        self.replay = Replay(doc)
        return {"view": self.replay.view_at(0), "save": self.replay.doc,
                "link": share.encode(self.replay.doc)}

    def op_replay_at(self, req):
        if self.replay is None:
            raise IllegalAction("no game is open for replay")
        return {"view": self.replay.view_at(req.get("step"))}

    def op_records(self, req):
        entries = req.get("entries")
        if not isinstance(entries, list):
            raise InvalidInput("records need a list of saved games")
        return {"records": records(entries)}

    def op_ai(self, req):
        game = self._need_game()
        if game.over:
            raise IllegalAction("the game is over")
        level = game.sides[game.current].player
        if not level.startswith("ai:"):
            raise IllegalAction(f"{game.sides[game.current].name} is played by a person")
        from .ai import players
        name = level[3:]
        if name not in players.LEVELS:
            raise InvalidInput(f"unknown computer level {name!r}; levels: {', '.join(players.LEVELS)}")
        key = (name, game.rules)
        player = self._players.get(key)
        if player is None:
            if name in ("optimal", "expert"):
                self._table(game.rules)
            player = self._players[key] = players.make_player(name, game.rules)
        action = player.choose(game)
        _apply(game, action)
        reply = self._changed(game.history[-1])
        reply["action"] = action
        return reply

    def op_hint(self, req):
        game = self._need_game()
        self._table(game.rules)
        from .ai import coach
        return {"hint": coach.hint(game, top=int(req.get("top", 5)))}

    def op_coach(self, req):
        self.coach = bool(req.get("on"))
        return {"coach": self.coach}

    def op_report(self, req):
        game = self._need_game()
        self._table(game.rules)
        from .ai import coach
        return {"report": coach.report(game)}

    def op_solve(self, req):
        """Solve the open game's rules a slice at a time, so the page can show progress."""
        import time
        game = self._need_game()
        from .ai import solver, tables
        solo = solver.solitaire_rules(game.rules)
        if tables.cached(solo) is not None:
            return {"done": True, "progress": [1, 1]}
        if self._solving is None or self._solving[0] != solo:
            self._solving = (solo, _solve_steps(solo))
        budget = float(req.get("budget_ms", 200)) / 1000
        started = time.perf_counter()
        for done, total in self._solving[1]:
            if done == total:
                self._solving = None
                return {"done": True, "progress": [done, total]}
            if time.perf_counter() - started > budget:
                return {"done": False, "progress": [done, total]}
        self._solving = None
        return {"done": True, "progress": [1, 1]}

    def op_import(self, req):
        """The games of an export file, each with the view the page draws for it (so the
        page can store them without loading each one); the open game is left as it is."""
        games = []
        for entry, game in bundle.read_games(req.get("text")):
            entry["view"] = view(game)
            games.append(entry)
        return {"games": games}

    def op_undo(self, req):
        game = self._need_game()
        if not undo_allowed(game):
            raise IllegalAction("nothing to undo: the turn has begun")
        game.undo()
        return self._changed({"undo": True})


class NeedTable(GeneralaError):
    """The value table of these rules is not loaded yet."""

    def __init__(self, name: str, path: str) -> None:
        super().__init__(f"the value table {name} is not loaded")
        self.table, self.path = name, path


def _apply(game: Game, action: dict) -> None:
    if "roll" in action and action["roll"] is None:
        game.roll()
    else:
        game.apply(action)


def _solve_steps(rules):
    """Backward induction over the solver's states, yielding ``(done, total)`` as it goes."""
    import time
    from .ai import solver, tables
    started = time.perf_counter()
    model = solver.model_for(rules)
    index = model.index
    values = [0.0] * len(model.states)
    total, done = len(model.states), 0
    yield done, total + 1
    for mask in model.masks_desc:
        for x in model.xs_of[mask]:
            state = (mask, x)
            if mask != model.full:
                values[index[state]] = model.turn(state, values, index)
            done += 1
        yield done, total + 1
    tables.register(solver.Table(model, values, time.perf_counter() - started))
    yield total + 1, total + 1


def _two(boxes) -> tuple[str, str]:
    if not isinstance(boxes, list) or len(boxes) != 2 or not all(isinstance(b, str) for b in boxes):
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
