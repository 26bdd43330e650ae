"""A valid request of every op of generala/app.py (``app.FIELDS``), each in a session
where it applies: what tests/unit/test_app_changed.py checks the reply's ``changed``
over, and where tests/e2e/test_engine_restore.py takes the ops that change a game from
(the ones whose example answers ``"changed": true``), so that a new op is covered as
soon as it is added here, and ``test_every_op_has_an_example`` fails until it is.

    examples()  -> [Example(op, name, setup, request)]: ``setup(session)`` brings a fresh
                   session where ``request(session)`` (a dict) applies
    changing()  -> the ops of which some example changes the game (run in CPython)
"""
from __future__ import annotations

import json
from typing import Callable, NamedTuple

from generala import app
from generala.modes import bundle, daily
from generala.ai.strategies import chase, step
from generala.rules.game import Game
from generala.rules.roller import SeededRoller
from generala.rules.variants import variant

SEED = 2 ** 53 + 1  # a seed JavaScript's numbers cannot hold exactly
DAY = "2026-12-01"
WIN_SEED = 307  # argentine, Ana alone, served_win_choice: the first roll is 2-2-2-2-2
BOT = {"name": "Lazy", "hash": "0123456789abcdef"}
LINK_SIDES = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]


class Example(NamedTuple):
    op: str
    name: str
    setup: Callable
    request: Callable


def do(session, req):
    reply = session.handle(req)
    assert reply["ok"], (req, reply)
    return reply


def new(session, sides=("Ana",), variant_id="argentine", seed=SEED, **more):
    return do(session, {"op": "new", "variant": variant_id, "sides": list(sides), "seed": seed, **more})


def finished_save(seed=SEED, variant_id="argentine"):
    game = Game(variant(variant_id), ["Ana", "Beto"], SeededRoller(seed))
    while not game.over:
        step(game, chase)
    return game.to_json()


def finished_daily():
    game = daily.new_game("argentine", DAY, DAY, daily.PLAYER)
    while not game.over:
        step(game, chase)
    return game.to_json()


def rolled(session, **kw):
    new(session, **kw)
    do(session, {"op": "roll"})


def cell_request(session):
    """The request of the first box the view offers (its ``request``, as the page sends it)."""
    view = session.handle({"op": "view"})["view"]
    side = view["current"]
    for row in view["rows"]:
        cell = row["cells"][side]
        if cell.get("request") and not cell.get("refused"):
            return cell["request"]
    raise AssertionError("no box offered")


def ten_dice(session):
    rolled(session, variant_id="double")


def two_open(session):
    view = session.handle({"op": "view"})["view"]
    side = view["current"]
    return [row["box"] for row in view["rows"] if row["cells"][side].get("playable")][:2]


def link_pair():
    """Ana's link game with Beto joined, each device's record, and the token of the join."""
    ana, beto = app.Session(), app.Session()
    made = do(ana, {"op": "link_new", "variant": "argentine", "sides": LINK_SIDES, "entropy": "5a" * 48})
    token = made["invitations"][0]["token"]
    joined = do(beto, {"op": "link_join", "token": token, "name": "Beto", "entropy": "c3" * 32})
    return made, token, joined


def link_playing(session):
    """The session holds a game by link whose device plays now."""
    made, _token, joined = link_pair()
    ana = app.Session()
    opened = do(ana, {"op": "link_open", "token": joined["link"], "local": made["local"]})
    local = opened["local"]
    if not opened["status"]["mine"]:
        sent = do(ana, {"op": "link_send"})
        local = do(app.Session(), {"op": "link_open", "token": sent["link"], "local": joined["local"]})["local"]
    do(session, {"op": "link_load", "local": local})


def link_played(session):
    """The session holds a game by link whose device has played its turn: a link to send."""
    link_playing(session)
    do(session, {"op": "roll"})
    do(session, cell_request(session))


def nothing(session):
    pass


def bot_side():
    return {"name": "Lazy bot", "player": "bot", "bot": dict(BOT)}


def lab_run():
    """The moves of a short run of a bot in the lab, and the engine's count of them (text)."""
    from generala.modes import bots
    run = bots.Run(bots.example_source("lazy"), "argentine", 2, seed=0, record=True)
    run.step(3600.0)
    moves = run.take_moves()
    return moves, json.dumps(bots.tally(bots.new_tally("argentine", 0), moves))


def examples() -> list[Example]:
    made, token, joined = link_pair()
    moves, tally = lab_run()
    done, done_daily = finished_save(), finished_daily()
    export = json.dumps(bundle.export([{"save": done, "id": "g1", "when": "2026-11-30T10:00:00.000Z"}]))
    return [
        Example("ping", "", nothing, lambda s: {"op": "ping"}),
        Example("catalog", "", nothing, lambda s: {"op": "catalog"}),
        Example("new", "", nothing, lambda s: {"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": SEED}),
        Example("new", "score sheet", nothing, lambda s: {"op": "new", "variant": "argentine", "sides": ["Ana"],
                                                           "sheet": True}),
        Example("load", "", nothing, lambda s: {"op": "load", "save": done}),
        Example("load", "over the open game", rolled, lambda s: {"op": "load", "save": done}),
        Example("view", "", new, lambda s: {"op": "view"}),
        Example("roll", "", new, lambda s: {"op": "roll"}),
        Example("toggle", "", rolled, lambda s: {"op": "toggle", "die": 1}),
        Example("hold", "", rolled, lambda s: {"op": "hold", "dice": [0, 2]}),
        Example("score", "", rolled, cell_request),
        Example("split", "", ten_dice, lambda s: {"op": "split", "boxes": two_open(s)}),
        Example("price", "", ten_dice, lambda s: {"op": "price", "boxes": two_open(s), "split": [0, 1, 2, 3, 4]}),
        Example("pairs", "", ten_dice, lambda s: {"op": "pairs", "box": two_open(s)[0]}),
        Example("enter", "", lambda s: do(s, {"op": "new", "variant": "argentine", "sides": ["Ana"], "sheet": True}),
                lambda s: {"op": "enter", "dice": [4, 4, 1, 2, 6], "at": 1}),
        Example("undo", "", lambda s: (rolled(s), do(s, {"op": "toggle", "die": 0})), lambda s: {"op": "undo"}),
        Example("again", "", rolled, lambda s: {"op": "again"}),
        Example("win", "", lambda s: rolled(s, seed=WIN_SEED, options={"served_win_choice": True}),
                lambda s: {"op": "win"}),
        Example("share", "", nothing, lambda s: {"op": "share", "save": done}),
        Example("share", "the open game", lambda s: do(s, {"op": "load", "save": done}), lambda s: {"op": "share"}),
        Example("replay", "", nothing, lambda s: {"op": "replay", "save": done}),
        Example("replay_at", "", lambda s: do(s, {"op": "replay", "save": done}),
                lambda s: {"op": "replay_at", "step": 3}),
        Example("records", "", nothing, lambda s: {"op": "records",
                                                   "entries": [{"save": done, "when": "2026-11-30T10:00:00Z"}]}),
        Example("import", "", rolled, lambda s: {"op": "import", "text": export}),
        Example("ai", "", lambda s: new(s, sides=[{"name": "C", "player": "ai:beginner"}]), lambda s: {"op": "ai"}),
        Example("bot", "its roll", lambda s: new(s, sides=[bot_side()]), lambda s: {"op": "bot"}),
        Example("bot", "asked its move", lambda s: (new(s, sides=[bot_side()]), do(s, {"op": "bot"})),
                lambda s: {"op": "bot"}),
        Example("bot", "its move", lambda s: (new(s, sides=[bot_side()]), do(s, {"op": "bot"})),
                lambda s: {"op": "bot", "move": {"keep": [0]}}),
        Example("lab_games", "beside a game", rolled, lambda s: {"op": "lab_games", "game": "argentine", "seed": 0,
                                                                  "moves": moves}),
        Example("lab_results", "beside a game", rolled, lambda s: {"op": "lab_results", "tally": tally, "games": 2}),
        Example("hint", "", rolled, lambda s: {"op": "hint", "top": 2}),
        Example("coach", "", new, lambda s: {"op": "coach", "on": True}),
        Example("chances", "", new, lambda s: {"op": "chances", "on": True}),
        Example("report", "", lambda s: do(s, {"op": "load", "save": done}), lambda s: {"op": "report"}),
        Example("story", "", lambda s: do(s, {"op": "load", "save": done}), lambda s: {"op": "story"}),
        Example("solve", "", new, lambda s: {"op": "solve", "budget_ms": 50}),
        Example("daily", "", rolled, lambda s: {"op": "daily", "variant": "argentine", "date": DAY, "today": DAY}),
        Example("daily_result", "", lambda s: do(s, {"op": "load", "save": done_daily}),
                lambda s: {"op": "daily_result"}),
        Example("daily_history", "", nothing, lambda s: {"op": "daily_history", "today": DAY, "entries": [
            {"id": "d1", "save": done_daily, "when": "2026-12-01T10:00:00Z"}]}),
        Example("link_new", "", rolled, lambda s: {"op": "link_new", "variant": "argentine", "sides": LINK_SIDES,
                                                   "entropy": "ab" * 48}),
        Example("link_read", "", nothing, lambda s: {"op": "link_read", "token": token}),
        Example("link_join", "", rolled, lambda s: {"op": "link_join", "token": token, "name": "Beto",
                                                    "entropy": "c4" * 32}),
        Example("link_open", "", nothing, lambda s: {"op": "link_open", "token": joined["link"],
                                                     "local": made["local"]}),
        Example("link_load", "", rolled, lambda s: {"op": "link_load", "local": joined["local"]}),
        Example("link_send", "", link_played, lambda s: {"op": "link_send"}),
        Example("link_replay", "", link_playing, lambda s: {"op": "link_replay", "local": s.link.local()}),
        Example("roll", "a game by link", link_playing, lambda s: {"op": "roll"}),
    ]


def changing(examples_list=None) -> set[str]:
    """The ops of which some example answers ``"changed": true`` (the engine says so)."""
    ops = set()
    for ex in examples_list or examples():
        session = app.Session()
        ex.setup(session)
        reply = session.handle(ex.request(session))
        assert reply["ok"], (ex, reply)
        if reply["changed"]:
            ops.add(ex.op)
    return ops
