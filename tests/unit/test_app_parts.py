"""The worker's entry point, handle_parts: a reply in the parts the worker posts (the
reply without its save, the save's text, a refusal's kind), built from the reply itself."""
import json

import pytest

from generala import app
from generala.ai import tables
from generala.save import dump


@pytest.fixture
def session(monkeypatch):
    fresh = app.Session()
    monkeypatch.setattr(app, "SESSION", fresh)
    return fresh


def parts(**req):
    head, save, kind = app.handle_parts(json.dumps(req))
    return json.loads(head), save, kind


def test_a_move_comes_as_its_reply_and_its_save_apart(session):
    for req in ({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 5},
                {"op": "roll"}, {"op": "toggle", "die": 1}, {"op": "undo"}):
        reply, save, kind = parts(**req)
        assert reply["ok"] is True and kind is None and "save" not in reply
        assert isinstance(save, str) and json.loads(save) == dump(session.game)
        assert reply["view"]["current"] == session.game.current


def test_a_reply_without_a_save_has_none(session):
    reply, save, kind = parts(op="ping")
    assert reply["ok"] is True and save is None and kind is None
    parts(op="new", variant="argentine", sides=["Ana"], seed=1)
    reply, save, _ = parts(op="view")
    assert save is None and reply["view"]["sides"][0]["name"] == "Ana"


def test_the_parts_put_together_are_the_whole_reply(session):
    parts(op="new", variant="argentine", sides=["Ana"], seed=3)
    reply, save, _ = parts(op="roll")
    other = app.Session()
    other.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 3})
    whole = json.loads(json.dumps(other.handle({"op": "roll"})))
    assert dict(reply, save=json.loads(save)) == whole


@pytest.mark.parametrize("req, kind", [
    ("not json", "InvalidInput"),
    ('{"op": "fly"}', "InvalidInput"),
    ('{"op": "roll"}', "IllegalAction"),  # no game is open
    ('{"op": "load", "save": {"schema": 999}}', "SaveError"),
])
def test_a_refusal_names_its_kind(session, req, kind):
    head, save, got = app.handle_parts(req)
    reply = json.loads(head)
    assert got == kind == reply["kind"] and reply["ok"] is False and save is None


def test_a_missing_value_table_is_a_field_not_a_substring(session):
    parts(op="new", variant="puerto-rican", options={"aces_wild": False}, sides=["Ana"], seed=1)
    tables._tables.pop(tables.solitaire_rules(session.game.rules), None)
    reply, save, kind = parts(op="hint")
    assert kind == "NeedTable" and reply["table"].startswith("puerto-rican.") and reply["path"]
    assert save is None
    # A name that merely contains the word is no table request.
    reply, _, kind = parts(op="new", variant="argentine", sides=["NeedTable"], seed=1)
    assert kind is None and reply["ok"] is True
