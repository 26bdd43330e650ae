"""The engine's one entry point for the browser worker: JSON request in, JSON reply out.

The worker keeps the game being played; every reply carries the view to draw
and, after a change, the save document for the page to store. Requests::

    {"op": "ping"}
    {"op": "catalog"}                                      variants, options, boxes
    {"op": "new", "variant": "argentine", "options": {...},
     "sides": [{"name": "Ana", "members": [], "player": "human"}, ...], "seed": 42}
    {"op": "load", "save": {...}}                          resume a saved game
    {"op": "roll"} | {"op": "toggle", "die": 2} | {"op": "hold", "dice": [0, 1]}
    {"op": "roll", "hold": [0, 1]}                         keep exactly those dice, roll the rest
                                                           (a hint's choice "keep 44, roll")
    {"op": "score", "box": "fours"} | {"op": "score", "box": "ones", "scratch": true}
    {"op": "split", "boxes": ["ones", "five-kind"]}        best split for two boxes
    {"op": "price", "boxes": [a, b], "split": [i, ...]}    points of a chosen split
    {"op": "pairs", "box": "sixes"}                        the first of two boxes chosen: each
                                                           other open box's points paired with it
    {"op": "score", "boxes": [a, b], "split": [i, ...]}    ten dice: fill two boxes
    {"op": "score", "boxes": [a, b], "split": [...], "scratch": [false, true]}
                                                           ...writing 0 in b by choice (either or both;
                                                           without a split, the best for the other box)
    {"op": "win"}                                          take the automatic win the dice offer
                                                           (where a house rule makes it a choice)
    {"op": "undo"}                                         take back a hold or the box just filled
                                                           (never a roll, never a computer's move;
                                                           nothing once the game is over, but a
                                                           score-sheet game's last entry)
    {"op": "view"} | {"op": "again"}                       play again, same sides
    {"op": "new", ..., "sheet": true}                      score-sheet mode: real dice, order as given
    {"op": "enter", "dice": [4, 4, 1, 2, 6], "at": 1}      dice thrown at the table, on roll 1-3
    {"op": "share"} | {"op": "share", "save": {...}}      a link token of the open (or given) game:
                                                           finished, or a score sheet (the link
                                                           carries the seed, which checks the dice)
    {"op": "replay", "save": {...} | "link": "g1..."}      open a game for replay; view at step 0
    {"op": "replay_at", "step": 12}                        the replayed board after 12 actions
    {"op": "records", "entries": [{"save": {...}, "when": "..."}]}
                                                           (a game by link: {"link": <local>, "when"})
    {"op": "import", "text": "..."}                        check an export file: its games
                                                           (id, when, finished; save, view as
                                                           JSON texts), or why not
    {"op": "ai"}                                           one step of the computer side to play
                                                           (a bot's side: the heuristic level
                                                           stands in for the bot)
    {"op": "bot"}                                          a bot's side: its roll, or {"ask": state}
    {"op": "bot", "move": {"keep": [0, 1]} | score action} the bot's answer, checked and played
    {"op": "lab_games", "game": "argentine", "seed": 0, "moves": ["4.a.1f", ...], "tally": null}
                                                           the Bot lab's count: the run's next
                                                           games played again from their seeds
                                                           with the moves the bot's sandbox
                                                           answered; {"tally": text} (give it
                                                           back with the next games) or the
                                                           bot's {"error"} (generala/modes/bots.py)
    {"op": "lab_results", "tally": text, "games": 1000, "seconds": 12.5}
                                                           the run's figures from that count:
                                                           {"results": text}
    {"op": "hint"}                                         the best choices now, with expected final scores
                                                           (each marked "is_best" when it loses
                                                           less than BEST_LOSS)
    {"op": "coach", "on": true}                            then every human decision's reply has its "cost"
                                                           and "cost_best" (the cost is under BEST_LOSS),
                                                           and when it is not, "cost_better": the best
                                                           choice (a hint's); with an opponent also
                                                           "chance_cost" and "chance_best" (the chance
                                                           to win given up, under CHANCE_BEST), and
                                                           "cost_better" the best choice for the win;
                                                           the view's "best" box is
                                                           the coach's (when its table is loaded); the
                                                           reply has the held game's view, its star now
    {"op": "chances", "on": true}                          every side's chance to win now ("chances":
                                                           {"sides": [0.62, 0.38], "exact": false});
                                                           "on": true/false: every move that fills
                                                           a box or undoes one carries them too
                                                           (when the table is loaded)
    {"op": "story"}                                        the game's story in win chances (generala.ai.story):
                                                           every side's chance after each box filled,
                                                           the turning point, each person's costliest box
    {"op": "report"}                                       after a game: each decision's loss, skill, luck
                                                           (a decision marked "is_best" as a hint's choice)
    {"op": "solve", "budget_ms": 200}                      compute a missing value table in steps
    {"op": "daily", "variant": "argentine", "date": "2026-12-01", "today": "2026-12-01", "name": "Tú"}
                                                           start that day's challenge (late when
                                                           today is another day; refused when it
                                                           is a day after today; "again": true
                                                           when its first game was deleted)
    {"op": "daily_result"}                                 the finished challenge's end: score,
                                                           perfect play, turn losses, share data
    {"op": "daily_history", "today": "...", "date": "...", "entries": [{"id", "save", "when"}, ...]}
                                                           each game's status on that date (today
                                                           when not given; not after today), the streak

A game played by link (generala/modes/linkgame.py, docs/link-play.md); ``local`` is what the
device stores of it (the document, its side, its secret, what it sent), ``entropy``
random bytes as hex from the browser's cryptographic source::

    {"op": "link_new", "variant", "options", "sides": [{"name", "player"}], "entropy"}
                                                           the host's game: local, invitations
    {"op": "link_read", "token": "p1..."}                  what a link is: id, for, sides, rules
    {"op": "link_join", "token", "name", "entropy"}        a friend joins: local, link (its join)
    {"op": "link_open", "token", "local": {...} | null}    a link into the stored game: outcome
                                                           (updated, unchanged, older, new), local;
                                                           updated: catch_up {from, steps}, the
                                                           replay of the moves not seen (replay_at)
    {"op": "link_load", "local": {...}}                    open a stored link game (the host's,
                                                           before every side joined: invitations)
    {"op": "link_send"}                                    the link to send now: link, local
    {"op": "link_replay", "local": {...}}                  a stored game by link stepped through
                                                           (replay_at), as op replay
    roll, toggle, hold, score, undo on the open link game  as above, each reply with its local

Every field is checked before anything happens: a field of the wrong type, a
missing one, or one the op does not take is refused with ``InvalidInput`` (a
damaged save, export or link with ``SaveError``), saying why. Texts and saves
nested deeper than any real document are refused before they are parsed.

The computer levels ``optimal`` and ``expert`` and the coach need the value
table of the rules. When it is not loaded the reply is ``{"ok": false, "kind":
"NeedTable", "table": name, "path": where}``: the worker fetches the shipped
file into ``path`` and asks again, or, for house options with no shipped
table, sends ``solve`` until it answers ``"done": true`` (with progress).

Replies: ``{"ok": true, "changed": false, "view": {...}, ...}`` or
``{"ok": false, "changed": false, "error": "what is wrong", "kind": "IllegalAction", "view": ...}``.
Every reply says whether its request ``changed`` the game the session holds (a game
opened, a move, a game by link's record: ``Session._open``, ``_act``); a reply with
``"changed": true`` carries that game's ``save`` (and a game by link's ``local``), from
which a new worker rebuilds it (static/js/engine.mjs).
``handle`` answers with the reply's JSON text (the command line, tests); the worker
calls ``handle_parts``, which gives the save's text apart from the rest of the reply,
and the facts the page reads as fields (``ok``, ``changed``, ...).
"""
from __future__ import annotations

import json

from . import __version__
from .catalog import catalog
from .modes import bundle, daily, linkgame, share
from .rules import nesting
from .rules.errors import GeneralaError, IllegalAction, InvalidInput
from .modes.records import records
from .rules.refusals import shown
from .modes.replay import Replay
from .rules.game import Game
from .rules.roller import MAX_SEED, SeededRoller
from .rules.save import dump
from .rules.sides import computer_level
from .rules.variants import variant
from .seen.view import describe, events, moment, pair_choice, pair_previews, view
from .rules.actions import Score, ScoreTwo, action_from_json


#: The computer level that plays a saved bot's move when the bot cannot (``op ai`` on a
#: bot's side): its error, an illegal move, a move past the time limit, a bot no longer
#: in the browser.
STAND_IN = "heuristic"
#: A choice that loses less than this many points against the best one is the best (the
#: hint's choices, the report's decisions, a move's cost): the page shows the flags.
BEST_LOSS = 0.005
#: Where there is an opponent, a move that gives up less chance to win than this (half a
#: percentage point: 0 % on the page) is the best one (``chance_best``).
CHANCE_BEST = 0.005

def refusal(err: Exception) -> dict:
    """The reply to a refused request: ``kind``, ``code``, ``params`` and the English
    ``error`` (a bug, not a GeneralaError, is an ``InternalError``); ``changed``: false, a
    refused request changes no game."""
    if isinstance(err, GeneralaError):
        reply = {"ok": False, "kind": type(err).__name__, "code": err.code, "params": err.params,
                 "error": str(err), "changed": False}
        if isinstance(err, NeedTable):
            reply.update(table=err.table, path=err.path)
        return reply
    params = {"error": type(err).__name__}
    return {"ok": False, "kind": "InternalError", "code": "internal.error", "params": params,
            "error": f"{type(err).__name__}: {err}", "changed": False}


class Session:
    """The game the page is showing, and the requests that change it."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.link: linkgame.LinkGame | None = None  # the game by link open, if it is one
        self.replay: Replay | None = None
        # the request that opens the replay being viewed again (in a new worker)
        self.replay_request: dict | None = None
        self.coach = False
        self.chances = False  # every move's reply carries the chances (op chances, "on")
        self._chance_cost = None  # the coach's cost of the move being made, in chances to win
        self._better = None  # the coach's better choice than the move being made
        self._players: dict = {}
        self._solving = None
        self._changes = 0  # counts every change of the game held (_open, _act, link_send)

    def handle(self, req: dict) -> dict:
        if not isinstance(req, dict):
            return refusal(InvalidInput("request.not_object"))
        if nesting.too_deep(req):
            return refusal(InvalidInput("request.too_deep", {"depth": nesting.MAX_DEPTH}))
        op = req.get("op")
        method = getattr(self, "op_" + op.replace("-", "_"), None) if isinstance(op, str) else None
        if method is None or op not in FIELDS:
            return refusal(InvalidInput("request.unknown_op", {"got": shown(op)}))
        before = self._changes
        try:
            check_request(op, req)
            reply = method(req)
        except GeneralaError as err:
            reply = refusal(err)
            if self.game is not None:
                reply["view"] = self._view(self.game)
        except Exception as err:  # a bug: report it to the page instead of killing the worker
            reply = refusal(err)
        else:
            reply.setdefault("ok", True)
        return self._changed(reply, self._changes != before)

    def _changed(self, reply: dict, changed: bool) -> dict:
        """Say in ``reply`` whether its request changed the game held (a game opened, a move,
        a game by link's record): ``changed``. A change carries what rebuilds that game
        (a new worker after the old one died: static/js/engine.mjs): its ``save``, and a
        game by link's ``local`` record."""
        reply["changed"] = changed
        if changed:
            if self.game is not None and "save" not in reply:
                reply["save"] = dump(self.game)
            if self.link is not None and "local" not in reply:
                reply["local"] = self.link.local()
        return reply

    # --- helpers ---------------------------------------------------------

    def _open(self, game: Game | None, link: linkgame.LinkGame | None = None) -> None:
        """The game held from now on (a game by link: its record ``link`` too)."""
        self.game, self.link = game, link
        self._changes += 1

    def _open_replay(self, replay: Replay, again: dict) -> None:
        """The replay viewed from now on; ``again``: the request that opens it again."""
        self.replay, self.replay_request = replay, again

    def _need_game(self) -> Game:
        if self.game is None:
            raise IllegalAction("game.none")
        return self.game

    def _act(self, game: Game, act, cost: float | None = None) -> dict:
        """Do ``act()`` (a change of ``game``) and answer the view after it with what it made
        happen, and the save. When ``act`` returns a dict, that is the action announced
        (``last``) and whose events are told; else the history's last entry is."""
        before = moment(game)
        turn = game.turn
        done = act()
        self._changes += 1
        action = done if isinstance(done, dict) else game.history[-1]
        reply = {"view": self._view(game, last=describe(game, action), events=events(game, action, before)),
                 "save": dump(game)}
        if self.link is not None and self.link.game is game:
            self.link.history = linkgame.canonical(game.history)
            reply["local"] = self.link.local()
            reply["status"] = link_status(self.link)
        if cost is not None:
            reply["cost"] = round(cost, 4)
            reply["cost_best"] = cost < BEST_LOSS
        chance_cost, self._chance_cost = self._chance_cost, None
        better, self._better = self._better, None
        if cost is not None and better is not None:
            reply["cost_better"] = better
        if cost is not None and chance_cost is not None:
            reply["chance_cost"] = round(chance_cost, 4)
            reply["chance_best"] = chance_cost < CHANCE_BEST
        if self.chances and (game.turn != turn or game.over):
            # after a box filled or undone (and at the end): a roll or a hold leaves them
            try:
                reply["chances"] = self._chances(game)
            except NeedTable:
                pass  # the move never waits for the chances
        return reply

    def _chances(self, game: Game) -> dict:
        """Every side's chance to win now (``ai.chances``), rounded to 1/10,000, and whether
        each side's law is exact; NeedTable when the rules' table, or its laws of the points
        to come (a shipped ``.gvl``: ``ai.laws``), is not loaded."""
        from .ai import chances
        if game.over or len(game.sides) == 1:
            return {"sides": [round(c, 4) for c in chances.chances(game)], "exact": True}
        table = self._table(game.rules, laws=True)
        return {"sides": [round(c, 4) for c in chances.chances(game, table)],
                "exact": chances.for_table(table).exact(game)}

    def _view(self, game: Game, **kw) -> dict:
        """The view of ``game``; its best box is the coach's when the coach is on and its
        value table loaded (a view never waits for the table: the points' best then)."""
        advisor = None
        if self.coach and game.helps and not game.sheet_mode and game.dice is not None:
            from .ai import coach
            try:
                self._table(game.rules)
                advisor = coach.advisor(game.rules)
            except NeedTable:
                pass
        return view(game, advisor=advisor, **kw)

    def _cost(self, game: Game, action: dict) -> float | None:
        """What a human decision costs against the best one, when the coach is on."""
        if not self.coach or game.rolls == 0 or game.sheet_mode or game.daily:
            return None
        from .ai import coach
        try:
            self._table(game.rules, laws=len(game.sides) > 1)  # with an opponent: in chances
        except NeedTable:
            return None  # the move never waits for the coach
        self._chance_cost = coach.chance_cost(game, action)
        spent = coach.cost(game, action)
        if self._chance_cost is not None:  # an opponent: the better choice is the one for the win
            self._better = coach.best_choice(game, for_win=True) if self._chance_cost >= CHANCE_BEST else None
        else:
            self._better = coach.best_choice(game) if spent >= BEST_LOSS else None
        return spent

    def _table(self, rules, *, laws: bool = False):
        """The rules' value table (``tables.table_for``, never solving here); NeedTable when
        it is neither loaded nor shipped: the page fetches it, or solves it (op solve).
        ``laws``: the win chances' too, NeedTable for the table's laws file when it ships
        and is not loaded (``ai.chances.Chances.need_laws``; none ships: they do without)."""
        from .ai import tables
        try:
            table = tables.table_for(rules, allow_solve=False)
            if laws:
                from .ai import chances
                chances.for_table(table).need_laws()
            return table
        except tables.TableMissing as missing:
            raise NeedTable(missing.name, str(missing.path)) from None

    # --- ops ---------------------------------------------------------------

    def op_ping(self, req):
        return {"version": __version__}

    def op_catalog(self, req):
        return {"catalog": catalog()}

    def op_new(self, req):
        rules = variant(req.get("variant", "argentine"), **(req.get("options") or {}))
        sides = req.get("sides") or ["Player"]
        if req.get("sheet"):
            # Score-sheet mode: the table throws real dice and settles its own order.
            if req.get("seed") is not None:
                raise InvalidInput("new.sheet_seed")
            order = req.get("order")
            self._open(Game(rules, sides, None, order=list(range(len(sides))) if order is None else order))
        else:
            if req.get("order") is not None:
                raise InvalidInput("new.order_rolled")
            seed = req.get("seed")
            roller = SeededRoller(seed) if seed is not None else SeededRoller.random()
            self._open(Game(rules, sides, roller))
        return {"view": self._view(self.game), "save": dump(self.game)}

    def op_again(self, req):
        old = self._need_game()
        if self.link is not None:
            raise IllegalAction("link.again")
        if old.daily:
            raise IllegalAction("daily.again")
        if old.roller is None:
            self._open(Game(old.rules, old.sides, None, order=old.order))
        else:
            self._open(Game(old.rules, old.sides, SeededRoller.random()))
        return {"view": self._view(self.game), "save": dump(self.game)}

    def op_load(self, req):
        game = Game.from_json(req.get("save"))
        if game.roller is None and not game.sheet_mode:
            game.roller = SeededRoller.random()
        self._open(game)
        return {"view": self._view(self.game)}  # and its save (changed): the roller given it too

    def op_view(self, req):
        return {"view": self._view(self._need_game())}

    def op_roll(self, req):
        game = self._need_game()
        keep = req.get("hold")
        if keep is not None:
            return self._keep_and_roll(game, keep)
        game.check_roll()  # a roll that is not allowed is refused before the coach prices it
        cost = self._cost(game, {"roll": None}) if game.rolls else None
        return self._act(game, game.roll, cost)

    def _keep_and_roll(self, game: Game, keep: list) -> dict:
        """Hold exactly the dice at ``keep``, then roll the others: both, or nothing (every
        check is made before the hold). The coach prices the two as one decision."""
        game.check_hold()
        if len(set(keep)) >= game.rules.dice:
            raise IllegalAction("roll.all_held")
        if frozenset(keep) != game.held:
            game.check_positions(keep)
        cost = self._cost(game, {"hold": sorted(set(keep))})
        if frozenset(keep) != game.held:
            game.hold(keep)
        return self._act(game, game.roll, cost)

    def op_toggle(self, req):
        game = self._need_game()
        return self._act(game, lambda: game.toggle(req.get("die")))

    def op_hold(self, req):
        game = self._need_game()
        return self._act(game, lambda: game.hold(req["dice"]))

    def op_score(self, req):
        game = self._need_game()
        if ("boxes" in req) == ("box" in req):
            raise InvalidInput("request.one_of", {"op": "score", "first": "box", "second": "boxes"})
        if "boxes" in req:
            a, b = _two(req["boxes"])
            if game.rules.boxes_per_turn != 2:
                raise InvalidInput("score.one_box", {"variant": game.rules.name})
            scratch = req.get("scratch", [False, False])
            if type(scratch) is bool:
                raise InvalidInput("score.scratch_pair", {"got": shown(scratch)})
            plan = game.plan_score(a, b, split=req.get("split"), scratch=scratch)
        else:
            if "split" in req:
                raise InvalidInput("score.split_one_box")
            if game.rules.boxes_per_turn == 2:
                raise InvalidInput("score.two_boxes")
            plan = game.plan_score(req["box"], scratch=req.get("scratch", False))
        # Checked: now the coach may price it, and the game takes it.
        action = plan[0]
        cost = self._cost(game, action)
        return self._act(game, lambda: game.apply(action), cost)

    def op_split(self, req):
        game = self._need_game()
        a, b = _two(req.get("boxes"))
        positions, split = game.split_for(a, b)
        return {"split": {"boxes": [a, b], "positions": positions,
                          "points": [split.points_a, split.points_b],
                          **pair_choice(game, a, b, positions)}}

    def op_price(self, req):
        game = self._need_game()
        a, b = _two(req.get("boxes"))
        positions, points = game.price_split(a, b, req.get("split"))
        return {"split": {"boxes": [a, b], "positions": positions, "points": list(points),
                          **pair_choice(game, a, b, positions)}}

    def op_pairs(self, req):
        return {"pairs": pair_previews(self._need_game(), req["box"])}

    def op_enter(self, req):
        game = self._need_game()
        return self._act(game, lambda: game.enter(req["dice"], req.get("at", 1)))

    def op_share(self, req):
        game = Game.from_json(req["save"]) if "save" in req else self._need_game()  # any stored game too
        if not _shareable(game):
            raise IllegalAction("share.unfinished")
        return {"link": share.encode(dump(game))}

    def op_replay(self, req):
        if ("link" in req) == ("save" in req):
            raise InvalidInput("request.one_of", {"op": "replay", "first": "link", "second": "save"})
        doc = share.decode(req["link"]) if "link" in req else req["save"]
        replay = Replay(doc)
        self._open_replay(replay, {"op": "replay", "save": replay.doc})
        return {"view": self.replay.view_at(0), "save": self.replay.doc,
                "link": share.encode(self.replay.doc) if _shareable(self.replay.final) else None}

    def op_replay_at(self, req):
        if self.replay is None:
            raise IllegalAction("replay.none")
        return {"view": self.replay.view_at(req["step"])}

    def op_records(self, req):
        return {"records": records(req["entries"])}

    def op_ai(self, req):
        game = self._need_game()
        if game.over:
            raise IllegalAction("game.over")
        side = game.current
        player = game.sides[side].player
        name = STAND_IN if player == "bot" else computer_level(player)
        if name is None:
            raise IllegalAction("ai.person", {"side": side, "name": game.sides[side].name})
        from .ai import players
        if name not in players.LEVELS:
            raise InvalidInput("ai.level", {"got": shown(name), "levels": list(players.LEVELS)})
        key = (name, game.rules)
        player = self._players.get(key)
        if player is None:
            if players.needs_table(name):
                self._table(game.rules, laws=players.plays_to_win(name) and len(game.sides) > 1)
            player = self._players[key] = players.make_player(name, game.rules)
        action = player.choose(game)
        reply = self._act(game, lambda: game.apply(action))
        reply["action"] = action
        return reply

    def op_bot(self, req):
        """One step of a saved bot's side. The bot's code never runs here: with no ``move``,
        the engine rolls when a roll is due (the turn's first roll, or the roll after the
        dice the bot kept), else answers ``{"ask": state}``, the plain state the page gives
        the bot's own worker (generala/modes/bots.py ``choose``). With ``move`` (its answer:
        ``{"keep": [positions]}`` or a score action), the move is checked like any and
        played; a refused one changes nothing (the page lets ``op ai`` stand in)."""
        game = self._need_game()
        if game.over:
            raise IllegalAction("game.over")
        side = game.current
        if game.sides[side].player != "bot" or game.sheet_mode:
            raise IllegalAction("seat.not_bot", {"side": side, "name": game.sides[side].name})
        if game.rolls == 0 or "hold" in game.history[-1]:
            return self._act(game, game.roll)
        move = req.get("move")
        if move is None:
            from .modes.bots import state_of
            return {"ask": state_of(game)}
        if set(move) == {"keep"}:
            keep = move["keep"]
            if not isinstance(keep, list) or not all(type(i) is int for i in keep) \
                    or len(set(keep)) >= game.rules.dice:  # keeping every die is no move
                raise IllegalAction("seat.move", {"got": shown(move)})
            return self._act(game, lambda: game.hold(keep))
        played = action_from_json(move)
        if not isinstance(played, (Score, ScoreTwo)):
            raise IllegalAction("seat.move", {"got": shown(move)})
        return self._act(game, lambda: game.play(played))

    def op_lab_games(self, req):
        """The Bot lab's count (generala/modes/bots.py ``tally``): the next games of a bot's run,
        each played again here from its seed with the moves the bot's sandbox answered
        (the sandbox's own figures are never asked for). ``tally`` is the text this op
        answered for the run's games before (none for its first ones); the answer is the
        new one, or ``error`` (a bot's error, as the sandbox reports one) when a game's
        moves are not legal there. Text, so that no number of it is parsed by the page."""
        from .modes import bots
        game, seed = req["game"], req["seed"]
        if game not in bots.SPECS:
            raise InvalidInput("variant.unknown", {"got": shown(game), "variants": list(bots.SPECS)})
        state = self._tally(req) if req.get("tally") is not None else bots.new_tally(game, seed)
        if (state["game"], state["seed"]) != (game, seed):
            raise _refused("lab_games", "tally", "tally", req["tally"])
        try:
            state = bots.tally(state, req["moves"])
        except bots.BotError as err:
            return {"error": err.to_json()}
        return {"tally": json.dumps(state, separators=(",", ":"))}

    def op_lab_results(self, req):
        """The figures of a bot's run (generala/modes/bots.py ``summary``) from this engine's count of
        its ``games`` games (``op lab_games``'s last tally); ``seconds``: how long the page
        saw it run. Answers ``{"results": text}``."""
        from .modes import bots
        state = self._tally(req)
        if state["games"] != req["games"]:
            raise _refused("lab_results", "tally", "tally", req["tally"])
        return {"results": json.dumps(bots.tally_results(state, req.get("seconds", 0.0)))}

    @staticmethod
    def _tally(req) -> dict:
        from .modes import bots
        op = req["op"]
        try:
            return bots.check_tally(nesting.loads(req["tally"], InvalidInput, "request"))
        except (InvalidInput, ValueError):
            raise _refused(op, "tally", "tally", req["tally"]) from None

    def op_hint(self, req):
        game = self._need_game()
        daily.refuse_help(game)
        self._table(game.rules, laws=len(game.sides) > 1)  # with an opponent: in chances
        from .ai import coach
        hint = coach.hint(game, top=req.get("top", 5))
        for c in hint:
            c["is_best"] = c["loss"] < BEST_LOSS
            if "chance_loss" in c:
                c["chance_best"] = c["chance_loss"] < CHANCE_BEST
        return {"hint": hint}

    def op_chances(self, req):
        game = self._need_game()
        daily.refuse_help(game)
        if "on" in req:
            self.chances = req["on"]
        return {"chances": self._chances(game), "on": self.chances}

    def op_coach(self, req):
        """The coach on or off; with a game held, its view as the coach now sees it (the
        best box is the coach's while it is on, the most points' when it is off)."""
        self.coach = req.get("on", False)
        reply = {"coach": self.coach}
        if self.game is not None:
            reply["view"] = self._view(self.game)
        return reply

    def op_story(self, req):
        game = self._need_game()
        daily.refuse_help(game)
        if len(game.sides) == 1:
            return {"story": None}
        table = self._table(game.rules, laws=True)
        from .ai import story
        return {"story": story.story(game, table)}

    def op_report(self, req):
        game = self._need_game()
        daily.refuse_help(game)
        self._table(game.rules)
        from .ai import coach
        report = coach.report(game)
        for side in report["sides"]:
            for d in side["decisions"]:
                d["is_best"] = d["loss"] < BEST_LOSS
        return {"report": report}

    def op_solve(self, req):
        """Solve the open game's rules a slice at a time, so the page can show progress."""
        import time
        game = self._need_game()
        from .ai import solver, tables
        solo = solver.solitaire_rules(game.rules)
        if tables.cached(solo) is not None:
            return {"done": True, "progress": [1, 1]}
        if self._solving is None or self._solving[0] != solo:
            self._solving = (solo, solver.solving(solo))
        budget = req.get("budget_ms", 200) / 1000
        started = time.perf_counter()
        while True:
            try:
                done, total = next(self._solving[1])
            except StopIteration as finished:
                self._solving = None
                table = tables.register(finished.value)
                return {"done": True, "progress": [len(table.V), len(table.V)]}
            if time.perf_counter() - started > budget:
                return {"done": False, "progress": [done, total]}

    def op_import(self, req):
        """The games of an export file, each with the view the page draws for it (so the
        page can store them without loading each one); the open game is left as it is.
        Each game's documents are JSON texts (``save`` or a game by link's ``link`` and
        ``status``, and ``view``): the page parses the reply in JavaScript to take the
        games one at a time, and a number parsed there is rounded above 2**53 (a seed)."""
        games = []
        for entry, game in bundle.read_games(req["text"]):
            entry["view"] = None if game is None else view(game)
            if "link" in entry:  # a game by link: where it stands for its device
                entry["status"] = link_status(linkgame.LinkGame.from_local(entry["link"]))
            for field in ("save", "link", "status", "view"):
                if entry.get(field) is not None:
                    entry[field] = json.dumps(entry[field], ensure_ascii=False)
            games.append(entry)
        return {"games": games}

    def op_win(self, req):
        game = self._need_game()
        game.check_take_win()
        cost = self._cost(game, {"win": True})
        return self._act(game, lambda: game.take_win() and None, cost)

    def op_daily(self, req):
        self._open(daily.new_game(req["variant"], req["date"], req.get("today"), req.get("name", daily.PLAYER),
                                  again=req.get("again", False)))
        return {"view": self._view(self.game), "save": dump(self.game)}

    def op_daily_result(self, req):
        game = self._need_game()
        if not game.daily:
            raise IllegalAction("daily.not_daily")
        if not game.over:
            raise IllegalAction("daily.unfinished")
        self._table(game.rules)
        result = daily.result(game)
        return {"result": result, "share": daily.share(result)}

    def op_daily_history(self, req):
        return {"challenges": daily.history(req["entries"], req["today"], req.get("date"))}

    def op_undo(self, req):
        game = self._need_game()
        if self.link is not None and self.link.game is game:
            self.link.check_undo()
        # refuses a roll, the roll-off, and anything once the game is over
        return self._act(game, lambda: {"undo": game.undo()})


    # --- games by link ----------------------------------------------------------------

    def _open_link(self, record: linkgame.LinkGame) -> dict:
        self._open(record.game, record)
        reply = {"local": record.local(), "status": link_status(record)}
        if record.game is not None:
            reply["view"] = view(record.game)
        elif record.device == 0 and not record.joined:
            # the host waiting for joins: its invitations, made again from the record (an
            # imported game, or one opened on another day, shows them as link_new did)
            reply["invitations"] = [{"side": side, "token": record.invitation(side)}
                                    for side in record.devices[1:]]
        return reply

    def op_link_new(self, req):
        entropy = _entropy(req["entropy"], linkgame.ID_SIZE + 32)
        rules = variant(req.get("variant", "argentine"), **(req.get("options") or {}))
        record = linkgame.create(rules, req["sides"], entropy[linkgame.ID_SIZE:], entropy[:linkgame.ID_SIZE])
        return self._open_link(record)

    def op_link_read(self, req):
        doc, seat = linkgame.read(req["token"])
        record = linkgame.LinkGame(doc)
        return {"id": doc["id"], "for": seat, "variant": record.rules.name, "options": record.rules.options,
                "sides": [{"name": n, "player": p} for n, p in zip(record.names, record.players)],
                "status": link_status(record)}

    def op_link_join(self, req):
        record = linkgame.join(req["token"], req["name"], _entropy(req["entropy"], 32)[:32])
        reply = self._open_link(record)
        reply["link"] = record.link()
        reply["local"] = record.local()
        return reply

    def op_link_open(self, req):
        local = req.get("local")
        if local is None:
            doc, _ = linkgame.read(req["token"])
            reply = self._open_link(linkgame.LinkGame(doc))
            reply["outcome"] = linkgame.NEW
            return reply
        record = linkgame.LinkGame.from_local(local)
        seen = _actions(record.game)
        outcome = record.merge(req["token"])
        reply = self._open_link(record)
        reply["outcome"] = outcome
        if outcome == linkgame.UPDATED and record.game is not None and _actions(record.game) > seen:
            # the moves this device had not seen, to be stepped through (op replay_at)
            self._open_replay(Replay.of_game(record.game), {"op": "link_replay", "local": reply["local"]})
            reply["catch_up"] = {"from": seen, "steps": self.replay.steps}
        return reply

    def op_link_load(self, req):
        return self._open_link(linkgame.LinkGame.from_local(req["local"]))

    def op_link_replay(self, req):
        """A stored game by link stepped through (replay_at), as op replay does for a save
        (a link game's dice were checked against its chains: Replay.of_game)."""
        record = linkgame.LinkGame.from_local(req["local"])
        if record.game is None:
            raise IllegalAction("game.none")
        self._open_replay(Replay.of_game(record.game), {"op": "link_replay", "local": req["local"]})
        return {"view": self.replay.view_at(0), "link": None}

    def op_link_send(self, req):
        if self.link is None:
            raise IllegalAction("game.none")
        token = self.link.link()
        self._changes += 1  # the record now says what was sent (a move sent is final)
        return {"link": token, "local": self.link.local(), "status": link_status(self.link)}


def _actions(game) -> int:
    """How many actions of a game a replay steps through (its roll-off left out)."""
    if game is None:
        return 0
    return sum(1 for a in game.history if "rolloff" not in a and "order" not in a)


def link_status(record: linkgame.LinkGame) -> dict:
    """Where a game by link stands for this device: ``device`` (its side, None for a reader),
    ``joined`` (every friend has joined), ``reveals`` (the friends whose roll-off element the
    host waits for once every device has committed: three or more devices), ``playing`` (the side whose device plays now, None
    before the start and once over), ``mine`` (this device plays now), ``over``,
    ``verification`` (``state``: ``verified`` or ``pending``, and the sides ``pending``),
    ``owes`` (the game is over and the other devices wait for this device's closing link)."""
    game = record.game
    return {"id": linkgame.b64(record.id), "device": record.device, "joined": record.joined,
            "reveals": record.waiting_reveals(),
            "playing": record.playing(), "mine": record.my_turn(),
            "over": bool(game is not None and game.over), "verification": record.verification(),
            "owes": record.owes()}


def _entropy(text: str, size: int) -> bytes:
    """Random bytes the page drew (hex): at least ``size`` of them."""
    try:
        data = bytes.fromhex(text)
    except ValueError:
        data = b""
    if len(data) < size:
        raise InvalidInput("link.entropy", {"min": size})
    return data


class NeedTable(GeneralaError):
    """The value table of these rules is not loaded yet."""

    def __init__(self, name: str, path: str) -> None:
        super().__init__("table.needed", {"table": name})
        self.table, self.path = name, path


def _two(boxes) -> tuple[str, str]:
    if not isinstance(boxes, list) or len(boxes) != 2 or not all(isinstance(b, str) for b in boxes):
        raise InvalidInput("boxes.type", {"got": shown(boxes)})
    return boxes[0], boxes[1]


SESSION = Session()


def answer(request: str) -> dict:
    """The reply (a dict) to one request from the page (a JSON text)."""
    try:
        req = nesting.loads(request, InvalidInput, "request") if isinstance(request, str) else None
    except InvalidInput as err:
        return refusal(err)
    if not isinstance(req, dict):
        return refusal(InvalidInput("request.not_object"))
    return SESSION.handle(req)


def handle(request: str) -> str:
    """Answer one request from the page (a JSON text) with a JSON text (the whole reply)."""
    return json.dumps(answer(request), ensure_ascii=False)


def handle_parts(request: str) -> dict:
    """Answer one request in the parts the worker posts (static/js/engine-worker.mjs), each
    a field the page reads as it is, never searching or parsing the reply's text:

    ``reply``    the JSON text of the reply without its save
    ``save``     the JSON text of the save document when the reply carries one, else None
                 (kept as text: the page stores it as it came, and an integer stays exact,
                 which JavaScript's JSON.parse would round above 2**53)
    ``ok``       whether the request was done; ``kind`` a refusal's kind, else None
    ``changed``  the reply's ``changed``: the request changed the game held (``save`` and,
                 for a game by link, ``local`` rebuild it in a new worker)
    ``local``    the JSON text of the reply's ``local`` (a game by link's record), else None
    ``coach``    the coach switch, after this request
    ``replay``   the JSON text of the request that opens again the replay this request
                 opened, else None
    ``table``, ``path``  NeedTable's: the value table to fetch, and where it goes"""
    opened = SESSION.replay
    reply = answer(request)
    save = reply.pop("save", None)
    local = reply.get("local")
    again = SESSION.replay_request if SESSION.replay is not opened else None
    return {"reply": json.dumps(reply, ensure_ascii=False),
            "save": None if save is None else json.dumps(save, ensure_ascii=False),
            "ok": reply.get("ok") is True,
            "kind": None if reply.get("ok") else reply.get("kind"),
            "changed": reply.get("changed") is True,
            "local": None if local is None else json.dumps(local, ensure_ascii=False),
            "coach": SESSION.coach is True,
            "replay": None if again is None else json.dumps(again, ensure_ascii=False),
            "table": reply.get("table"), "path": reply.get("path")}


# --- request checks ----------------------------------------------------------------
#
# Each check takes (op, field, value) and returns None, or the InvalidInput to raise:
# ``request.field_type`` (params ``op``, ``field``, ``expected``: a type id of
# generala/rules/refusals.py TYPES, ``got``), or ``request.field_min``/``field_range`` (with
# ``min``/``max``) for numbers out of range.

def _refused(op, name, expected, value, **bounds):
    if not bounds:
        return InvalidInput("request.field_type", {"op": op, "field": name, "expected": expected,
                                                    "got": shown(value)})
    if "max" not in bounds:
        return InvalidInput("request.field_min", {"op": op, "field": name, "expected": expected,
                                                   "min": bounds["min"], "got": shown(value)})
    return InvalidInput("request.field_range", {"op": op, "field": name, "expected": expected,
                                                 "min": bounds["min"], "max": bounds["max"], "got": shown(value)})


def _int(lo, hi=None):
    bounds = {"min": lo} if hi is None else {"min": lo, "max": hi}

    def check(op, name, value):
        if type(value) is not int or value < lo or (hi is not None and value > hi):
            return _refused(op, name, "int", value, **bounds)
    return check


def _number(lo, hi):
    def check(op, name, value):
        if type(value) not in (int, float) or not lo <= value <= hi:  # also refuses NaN
            return _refused(op, name, "number", value, min=lo, max=hi)
    return check


def _type(kind, expected, nullable=False):
    def check(op, name, value):
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            if not (nullable and value is None):
                return _refused(op, name, expected, value)
    return check


def _ints(op, name, value):
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        return _refused(op, name, "ints", value)


def _options(op, name, value):
    if value is not None and (not isinstance(value, dict) or not all(isinstance(k, str) for k in value)):
        return _refused(op, name, "options", value)


def _save(op, name, value):
    if not isinstance(value, (dict, str)):
        return _refused(op, name, "save", value)


def _box_or_boxes(op, name, value):
    if name == "box":
        return _type(str, "box")(op, name, value)
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(b, str) for b in value):
        return _refused(op, name, "two_boxes", value)


def _scratch(op, name, value):
    if type(value) is bool or (isinstance(value, list) and len(value) == 2
                               and all(type(v) is bool for v in value)):
        return None
    return _refused(op, name, "scratch", value)


def _moves(op, name, value):
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return _refused(op, name, "moves", value)


_SIDES = _type(list, "sides", nullable=True)

#: For every op, the fields it takes: name -> (check, required).
FIELDS = {
    "ping": {}, "catalog": {}, "view": {}, "again": {}, "undo": {}, "ai": {}, "win": {},
    "bot": {"move": (_type(dict, "object"), False)},
    "report": {},
    "story": {},
    "lab_games": {"game": (_type(str, "variant"), True), "seed": (_int(0, MAX_SEED), True),
                  "moves": (_moves, True), "tally": (_type(str, "tally", nullable=True), False)},
    "lab_results": {"tally": (_type(str, "tally"), True), "games": (_int(1, 10_000), True),
                    "seconds": (_number(0, 10_000_000), False)},
    "new": {"variant": (_type(str, "variant"), False),
            "options": (_options, False),
            "sides": (_SIDES, False),
            "seed": (_int(0, MAX_SEED), False),
            "sheet": (_type(bool, "bool"), False),
            "order": (_ints, False)},
    "load": {"save": (_save, True)},
    "toggle": {"die": (_int(0), True)},
    "hold": {"dice": (_ints, True)},
    "roll": {"hold": (_ints, False)},
    "score": {"box": (_box_or_boxes, False), "boxes": (_box_or_boxes, False),
              "scratch": (_scratch, False), "split": (_ints, False)},
    "split": {"boxes": (_box_or_boxes, True)},
    "price": {"boxes": (_box_or_boxes, True), "split": (_ints, True)},
    "pairs": {"box": (_box_or_boxes, True)},
    "enter": {"dice": (_ints, True), "at": (_int(1, 3), False)},
    "share": {"save": (_save, False)},
    "replay": {"save": (_save, False), "link": (_type(str, "link"), False)},
    "replay_at": {"step": (_int(0), True)},
    "records": {"entries": (_type(list, "entries"), True)},
    "import": {"text": (_type(str, "export"), True)},
    "hint": {"top": (_int(1), False)},
    "coach": {"on": (_type(bool, "bool"), False)},
    "chances": {"on": (_type(bool, "bool"), False)},
    "solve": {"budget_ms": (_number(0, 60_000), False)},
    "link_new": {"variant": (_type(str, "variant"), False), "options": (_options, False),
                 "sides": (_type(list, "sides"), True), "entropy": (_type(str, "text"), True)},
    "link_read": {"token": (_type(str, "link"), True)},
    "link_join": {"token": (_type(str, "link"), True), "name": (_type(str, "text"), True),
                  "entropy": (_type(str, "text"), True)},
    "link_open": {"token": (_type(str, "link"), True), "local": (_type(dict, "object", nullable=True), False)},
    "link_load": {"local": (_type(dict, "object"), True)},
    "link_send": {},
    "link_replay": {"local": (_type(dict, "object"), True)},
    "daily": {"variant": (_type(str, "variant"), True), "date": (_type(str, "text"), True),
              "today": (_type(str, "text"), False), "name": (_type(str, "text"), False),
              "again": (_type(bool, "bool"), False)},
    "daily_result": {},
    "daily_history": {"today": (_type(str, "text"), True), "date": (_type(str, "text"), False),
                      "entries": (_type(list, "entries"), True)},
}


def check_request(op: str, req: dict) -> None:
    """Refuse, with a reason, a request whose fields the op does not take or of the wrong type."""
    fields = FIELDS[op]
    left_out = {"seed", "order", "split"}  # null there is the same as leaving it out
    for name, value in req.items():
        if name == "op":
            continue
        if name not in fields:
            if not fields:
                raise InvalidInput("request.no_fields", {"op": op, "field": name[:60]})
            raise InvalidInput("request.field_unknown", {"op": op, "field": name[:60], "takes": list(fields)})
        if value is None and name in left_out:
            continue
        refused = fields[name][0](op, name, value)
        if refused:
            raise refused
    for name, (_check, required) in fields.items():
        if required and (name not in req or req[name] is None and name in left_out):
            raise InvalidInput("request.field_missing", {"op": op, "field": name})


def _shareable(game: Game) -> bool:
    """A link carries the seed, which tells the dice to come: only a finished rolled game
    (or a score-sheet game, which has no seed) is shared."""
    return game.over or game.roller is None and not any("roll" in a or "rolloff" in a for a in game.history)
