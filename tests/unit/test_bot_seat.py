"""A saved bot's seat in a game: the engine's side of it (sides, view, op bot, saves).

The bot's code never runs in the engine's session: ``op bot`` rolls for it or asks for
its move with a plain state, which ``bots.choose`` (the bot's own worker in the page)
answers; the answer goes back to ``op bot`` and is checked like any move.
"""
import json
import sys
import types
from pathlib import Path

import pytest

from generala import Game, app
from generala.modes import bots, share
from generala.rules.errors import InvalidInput
from generala.rules.sides import Side
from tools import ui_modules

LAZY = "def play(turn):\n    return turn.best()\n"
CHASE = bots.example_source("chase")
BOT = {"name": "Chaser", "hash": "0123456789abcdef"}


def bot_side(name="Chaser bot", bot=BOT):
    return {"name": name, "player": "bot", "bot": dict(bot)}


def new(session, sides, variant="argentine", seed=5):
    reply = session.handle({"op": "new", "variant": variant, "sides": sides, "seed": seed})
    assert reply["ok"], reply
    return reply


def bot_step(session, source):
    """One step of the bot's side as the page takes it: op bot; an ask goes to the bot
    (bots.choose, the worker's) and its move back to op bot."""
    reply = session.handle({"op": "bot"})
    assert reply["ok"], reply
    if "ask" in reply:
        json.dumps(reply["ask"])  # plain values only: it crosses to another worker
        answer = bots.choose(source, reply["ask"], "game:1")
        assert "move" in answer, answer
        reply = session.handle({"op": "bot", "move": answer["move"]})
        assert reply["ok"], reply
    return reply


def test_a_bot_side_names_its_bot_and_refuses_a_half_one():
    side = Side.from_json(bot_side())
    assert side.player == "bot" and side.bot == BOT
    assert side.to_json() == {"name": "Chaser bot", "members": ["Chaser bot"], "player": "bot", "bot": BOT}
    assert "bot" not in Side("Ana").to_json()  # the sides of old saves are written as they were
    for bad in ({"name": "x", "player": "bot"},
                {"name": "x", "player": "human", "bot": BOT},
                {"name": "x", "player": "bot", "bot": {"name": "b"}},
                {"name": "x", "player": "bot", "bot": {"name": "b", "hash": "XYZ"}},
                {"name": "x", "player": "bot", "bot": {"name": "", "hash": "ab"}},
                {"name": "x", "player": "bot", "bot": {"name": "b" * 41, "hash": "ab"}}):
        with pytest.raises(InvalidInput):
            Side.from_json(bad)


def test_the_view_says_a_bot_plays_and_offers_the_person_nothing_in_its_turn():
    session = app.Session()
    view = new(session, [bot_side(), "Ana"])["view"]
    bot = [i for i, s in enumerate(view["sides"]) if s["bot"]][0]
    assert view["sides"][bot]["computer"] == "bot" and view["sides"][bot]["bot"] == BOT
    assert view["sides"][1 - bot]["computer"] is None and view["sides"][1 - bot]["bot"] is None
    while session.game.current != bot:
        session.handle({"op": "roll"})
        view = session.handle({"op": "score", "box": session.game.rules.categories[0]})["view"]
    assert view["acting"] == {"side": bot, "computer": "bot", "bot": BOT}
    assert not view["can_roll"] and not view["scorable"]
    reply = session.handle({"op": "ai"})  # the stand-in level plays a bot's step when asked
    assert reply["ok"] and reply["action"] == {"roll": None}


def test_op_bot_refuses_a_person_and_an_illegal_move():
    session = app.Session()
    new(session, ["Ana"])
    assert session.handle({"op": "bot"})["code"] == "seat.not_bot"
    new(session, [bot_side()])
    assert "roll" in bot_step(session, LAZY)["save"]["history"][-1]
    before = session.game.to_json()
    for move in ({"keep": [0, 1, 2, 3, 4]}, {"keep": ["a"]}, {"roll": None}, {"undo": 1},
                 {"score": "nope"}, {"keep": [0], "score": "ones"}):
        reply = session.handle({"op": "bot", "move": move})
        assert reply["ok"] is False, move
    assert session.game.to_json() == before


@pytest.mark.parametrize("variant", ["argentine", "double"])
def test_a_bot_plays_a_seat_to_the_end_and_the_save_and_link_round_trip(variant):
    session = app.Session()
    new(session, [bot_side(), {"name": "Ana", "player": "ai:heuristic"}], variant=variant)
    source = CHASE if variant == "argentine" else LAZY
    reply = None
    for _ in range(3000):
        if session.game.sides[session.game.current].player == "bot":
            reply = bot_step(session, source)
        else:
            reply = session.handle({"op": "ai"})
            assert reply["ok"], reply
        if reply["view"]["over"]:
            break
    assert session.game.over
    save = reply["save"]
    assert save["sides"][0] == {"name": "Chaser bot", "members": ["Chaser bot"], "player": "bot", "bot": BOT}
    loaded = Game.from_json(json.loads(json.dumps(save)))
    assert loaded.to_json() == save and loaded.sides[0].bot == BOT
    assert share.decode(share.encode(save)) == save
    again = app.Session()
    view = again.handle({"op": "load", "save": save})["view"]
    assert view["sides"][0]["bot"] == BOT
    replay = again.handle({"op": "replay", "save": save})
    assert replay["ok"] and replay["view"]["sides"][0]["bot"] == BOT


def test_an_old_save_without_bots_loads_as_before():
    session = app.Session()
    save = new(session, ["Ana", {"name": "Bot", "player": "ai:beginner"}])["save"]
    assert all("bot" not in s for s in save["sides"])
    assert Game.from_json(save).to_json() == save


def test_a_class_bot_keeps_its_notes_from_move_to_move_of_a_seat():
    source = ("class Bot:\n    def __init__(self):\n        self.moves = 0\n"
              "    def play(self, turn):\n        self.moves += 1\n"
              "        return turn.best() if self.moves > 1 else []\n")
    session = app.Session()
    new(session, [bot_side()])
    bot_step(session, source)  # the first roll
    ask = session.handle({"op": "bot"})["ask"]
    assert ask["turn"] == 1 and ask["rolls"] == 1
    assert bots.choose(source, ask, "g:0")["move"] == {"keep": []}
    assert "score" in bots.choose(source, ask, "g:0")["move"]
    assert bots.choose(source, ask, "g:1")["move"] == {"keep": []}


def test_a_bot_that_fails_in_a_seat_answers_an_error_not_a_move():
    session = app.Session()
    new(session, [bot_side()])
    bot_step(session, LAZY)
    ask = session.handle({"op": "bot"})["ask"]
    assert bots.choose("def play(t):\n    return 1/0\n", ask)["error"]["kind"] == "exception"
    assert bots.choose("def play(t):\n    return 'nope'\n", ask)["error"]["kind"] == "illegal"
    assert bots.choose("def play(t):\n    import time\n    time.sleep(1.05)\n    return t.best()\n",
                       ask)["error"]["kind"] == "timeout"


def test_the_bot_sees_its_sheet_in_sheet_order_whatever_order_the_state_came_in():
    session = app.Session()
    new(session, [bot_side()])
    bot_step(session, LAZY)
    ask = session.handle({"op": "bot"})["ask"]
    shuffled = dict(ask, sheets=[dict(reversed(list(s.items()))) for s in ask["sheets"]])
    source = "def play(turn):\n    return turn.open_boxes[0]\n"
    assert bots.choose(source, shuffled)["move"] == bots.choose(source, ask)["move"]
    assert bots.choose(source, shuffled)["move"]["score"] == "ones"


@pytest.fixture
def botseat():
    """static/ui/players/botseat.py with a stand-in for `js` (storage.mjs: get/set)."""
    store = {}
    storage = types.SimpleNamespace(get=lambda k: store.get(k), set=lambda k, v: store.__setitem__(k, v))
    stub = types.SimpleNamespace(generala=types.SimpleNamespace(storage=storage))
    saved = sys.modules.get("js")
    sys.modules["js"] = stub
    path = str(ui_modules.UI)
    sys.path.insert(0, path)
    try:
        ui_modules.forget()
        from players import botseat
        yield botseat
    finally:
        sys.path.remove(path)
        ui_modules.forget()
        if saved is None:
            sys.modules.pop("js", None)
        else:
            sys.modules["js"] = saved


def test_the_page_finds_a_seats_bot_by_its_code_then_its_name(botseat):
    assert botseat.source_hash("abc") == "e71fa2190541574b"  # FNV-1a 64
    heard = []
    botseat.listen(lambda: heard.append(1))
    botseat.save_bots([{"name": "Chaser", "code": CHASE}, {"name": "Lazy", "code": LAZY}])
    assert heard == [1]
    seat = botseat.seat_of("Chaser")
    assert seat == {"name": "Chaser", "hash": botseat.source_hash(CHASE)}
    Side("Chaser", (), "bot", seat)  # a seat the engine takes
    assert botseat.find(seat) == (CHASE, False)
    botseat.save_bots([{"name": "Renamed", "code": CHASE}, {"name": "Lazy", "code": LAZY}])
    assert botseat.find(seat) == (CHASE, False)  # found by its code
    botseat.save_bots([{"name": "Chaser", "code": LAZY}])
    assert botseat.find(seat) == (LAZY, True)  # its name, its code changed
    botseat.save_bots([])
    assert botseat.find(seat) == (None, False) and botseat.seat_of("Chaser") is None
