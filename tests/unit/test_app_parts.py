"""The worker's entry point, handle_parts: a reply in the parts the worker posts (the
reply without its save, the save's text, and the facts the page reads as fields: ok,
kind, changed, the record of a game by link, the coach switch, the request that opens a
replay again), built from the reply and the session themselves."""
import json

import pytest

from generala import app
from generala.ai import tables
from generala.rules.save import dump


@pytest.fixture
def session(monkeypatch):
    fresh = app.Session()
    monkeypatch.setattr(app, "SESSION", fresh)
    return fresh


def parts(**req):
    got = app.handle_parts(json.dumps(req))
    return json.loads(got["reply"]), got


def test_every_answer_has_the_same_fields_of_plain_values(session):
    for text in ('{"op": "ping"}', '{"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 3}',
                 '{"op": "roll"}', "not json", '{"op": "undo"}'):
        got = app.handle_parts(text)
        assert sorted(got) == ["changed", "coach", "kind", "local", "ok", "path", "replay", "reply", "save", "table"]
        assert all(v is None or type(v) in (str, bool) for v in got.values()), got  # what toJs gives as they are
        assert type(got["ok"]) is bool and type(got["changed"]) is bool and type(got["coach"]) is bool


def test_a_move_comes_as_its_reply_and_its_save_apart(session):
    for req in ({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 5},
                {"op": "roll"}, {"op": "toggle", "die": 1}, {"op": "undo"}):
        reply, got = parts(**req)
        assert reply["ok"] is True and got["ok"] is True and got["kind"] is None and "save" not in reply
        assert reply["changed"] is True and got["changed"] is True
        assert isinstance(got["save"], str) and json.loads(got["save"]) == dump(session.game)
        assert reply["view"]["current"] == session.game.current
        assert got["local"] is None  # not a game by link


def test_a_reply_without_a_save_has_none(session):
    reply, got = parts(op="ping")
    assert reply["ok"] is True and got["save"] is None and got["kind"] is None and got["changed"] is False
    parts(op="new", variant="argentine", sides=["Ana"], seed=1)
    reply, got = parts(op="view")
    assert got["save"] is None and got["changed"] is False and reply["view"]["sides"][0]["name"] == "Ana"


def test_the_parts_put_together_are_the_whole_reply(session):
    parts(op="new", variant="argentine", sides=["Ana"], seed=3)
    reply, got = parts(op="roll")
    other = app.Session()
    other.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 3})
    whole = json.loads(json.dumps(other.handle({"op": "roll"})))
    assert dict(reply, save=json.loads(got["save"])) == whole


@pytest.mark.parametrize("req, kind", [
    ("not json", "InvalidInput"),
    ('{"op": "fly"}', "InvalidInput"),
    ('{"op": "roll"}', "IllegalAction"),  # no game is open
    ('{"op": "load", "save": {"schema": 999}}', "SaveError"),
])
def test_a_refusal_names_its_kind(session, req, kind):
    got = app.handle_parts(req)
    reply = json.loads(got["reply"])
    assert got["kind"] == kind == reply["kind"] and reply["ok"] is False and got["ok"] is False
    assert got["save"] is None and got["changed"] is False and reply["changed"] is False


def test_a_missing_value_table_is_a_field_not_a_substring(session):
    parts(op="new", variant="puerto-rican", options={"aces_wild": False}, sides=["Ana"], seed=1)
    tables.forget(session.game.rules)
    reply, got = parts(op="hint")
    assert got["kind"] == "NeedTable" and got["ok"] is False
    assert got["table"] == reply["table"] and got["table"].startswith("puerto-rican.") and got["path"] == reply["path"]
    assert got["save"] is None and got["changed"] is False
    # A name that merely contains the word is no table request.
    reply, got = parts(op="new", variant="argentine", sides=["NeedTable"], seed=1)
    assert got["kind"] is None and got["ok"] is True and got["table"] is None


def test_the_coach_switch_is_told_with_every_answer(session):
    assert app.handle_parts('{"op": "ping"}')["coach"] is False
    assert app.handle_parts('{"op": "coach", "on": true}')["coach"] is True
    assert app.handle_parts('{"op": "ping"}')["coach"] is True
    assert app.handle_parts('{"op": "coach"}')["coach"] is False


def test_a_replay_opened_comes_with_the_request_that_opens_it_again(session):
    done = app.Session()
    done.handle({"op": "new", "variant": "argentine", "sides": ["A"], "seed": 2 ** 53 + 1})
    done.handle({"op": "roll"})
    done.handle({"op": "score", "box": "ones", "scratch": True})
    doc = done.game.to_json()
    _, got = parts(op="replay", save=doc)
    again = json.loads(got["replay"])
    assert again == {"op": "replay", "save": doc} and got["changed"] is False
    assert again["save"]["roller"]["seed"] == 2 ** 53 + 1  # exact, as text
    # stepping through it opens nothing new; the request opens the same replay
    assert parts(op="replay_at", step=1)[1]["replay"] is None
    other = app.Session()
    assert other.handle(again)["view"] == session.handle({"op": "replay_at", "step": 0})["view"]


def test_a_game_by_link_comes_with_its_record_as_text(session):
    sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
    reply, got = parts(op="link_new", variant="argentine", sides=sides, entropy="ab" * 48)
    assert got["changed"] is True and json.loads(got["local"]) == reply["local"]
    assert got["save"] is None  # the host waits for the friend: no game yet, only its record
    reply, got = parts(op="link_send")
    assert got["changed"] is True and json.loads(got["local"]) == reply["local"] == session.link.local()
