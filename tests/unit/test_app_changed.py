"""Every reply says whether its request changed the game the session holds (``changed``),
and a reply that did carries what rebuilds that game: its ``save``, a game by link's
``local``. The page's transport keeps no list of ops: a new worker, after the old one
died, is given the game of the last reply that said ``changed`` (static/js/engine.mjs).
Checked over a request of every op (tests/unit/every_op.py) against the session itself."""
import json

import pytest

from generala import app
from generala.rules.save import dump

from every_op import examples, changing

EXAMPLES = examples()


def held(session):
    """The game a session holds: which object, its save, a game by link's record."""
    game, link = session.game, session.link
    return (id(game), None if game is None else json.dumps(dump(game), sort_keys=True),
            None if link is None else json.dumps(link.local(), sort_keys=True))


def test_every_op_has_an_example():
    assert {ex.op for ex in EXAMPLES} == set(app.FIELDS)


def test_the_ops_that_change_a_game():
    assert changing(EXAMPLES) == {"new", "load", "again", "daily", "roll", "toggle", "hold", "score", "enter",
                                  "undo", "win", "ai", "bot", "link_new", "link_join", "link_open", "link_load",
                                  "link_send"}


@pytest.mark.parametrize("ex", EXAMPLES, ids=[f"{ex.op} {ex.name}".strip() for ex in EXAMPLES])
def test_changed_says_whether_the_game_held_changed(ex):
    session = app.Session()
    ex.setup(session)
    before = held(session)
    reply = session.handle(ex.request(session))
    assert reply["ok"], reply
    after = held(session)
    assert reply["changed"] is (after != before)
    json.dumps(reply)
    if not reply["changed"]:
        return
    # What rebuilds it comes with it: a new session opened from the reply holds the same game.
    restored = app.Session()
    if session.link is not None:
        assert reply["local"] == session.link.local()
        assert restored.handle({"op": "link_load", "local": reply["local"]})["ok"]
    else:
        assert "local" not in reply
        assert restored.handle({"op": "load", "save": reply["save"]})["ok"]
    if session.game is None:  # a host waiting for the friend to join: its record only
        assert "save" not in reply and restored.game is None
        return
    assert reply["save"] == dump(session.game) == dump(restored.game)
    assert restored.handle({"op": "view"})["view"] == session.handle({"op": "view"})["view"]
    # and plays on the same: the same dice next
    rolled, again = session.handle({"op": "roll"}), restored.handle({"op": "roll"})
    assert rolled.get("code") == again.get("code")
    assert rolled.get("save") == again.get("save") and rolled.get("local") == again.get("local")


@pytest.mark.parametrize("ex", EXAMPLES, ids=[f"{ex.op} {ex.name}".strip() for ex in EXAMPLES])
def test_a_refused_request_changes_nothing_and_says_so(ex):
    session = app.Session()
    ex.setup(session)
    before = held(session)
    reply = session.handle(dict(ex.request(session), unknown_field=1))
    assert reply["ok"] is False and reply["changed"] is False and "save" not in reply
    assert held(session) == before


@pytest.mark.parametrize("setup, req, code", [
    (lambda s: None, {"op": "roll"}, "game.none"),
    (lambda s: s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 1}), {"op": "undo"},
     "undo.nothing"),
    (lambda s: s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 1}), {"op": "win"},
     "win.not_offered"),
    (lambda s: s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 1}), {"op": "bot"},
     "seat.not_bot"),
    (lambda s: s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 1}),
     {"op": "load", "save": {"schema": 999}}, "save.newer"),
    (lambda s: s.handle({"op": "daily", "variant": "argentine", "date": "2026-12-01"}), {"op": "again"},
     "daily.again"),
    (lambda s: None, {"op": "link_send"}, "game.none"),
])
def test_a_request_refused_in_the_game_changes_nothing(setup, req, code):
    session = app.Session()
    setup(session)
    before = held(session)
    reply = session.handle(req)
    assert reply["ok"] is False and reply["code"] == code and reply["changed"] is False
    assert held(session) == before


@pytest.mark.parametrize("text", ["not json", "[1]", '{"op": "fly"}', '{"op": 5}'])
def test_a_request_refused_before_any_op_says_it_changed_nothing(text):
    reply = json.loads(app.handle(text))
    assert reply["ok"] is False and reply["changed"] is False
