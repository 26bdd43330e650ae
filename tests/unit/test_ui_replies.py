"""static/ui/engine/replies.py in CPython: a reply as the page takes it from the worker's two
parts, and the stored copy built from the two texts without parsing the save."""
import json
import sys
from pathlib import Path

import pytest

from generala import app

from tools import ui_modules

UI_PATHS = [str(ui_modules.UI)]


@pytest.fixture(scope="module")
def replies():
    sys.path[:0] = UI_PATHS
    try:
        from engine import replies
        yield replies
    finally:
        for path in UI_PATHS:
            sys.path.remove(path)
        ui_modules.forget()


@pytest.fixture
def session(monkeypatch):
    fresh = app.Session()
    monkeypatch.setattr(app, "SESSION", fresh)
    return fresh


def test_a_move_is_stored_with_its_view_and_its_save(replies, session):
    app.handle_parts(json.dumps({"op": "new", "variant": "bulgarian", "sides": ["Ana", "Beto"], "seed": 4}))
    parts = app.handle_parts('{"op": "roll"}')
    head, save = parts["reply"], parts["save"]
    reply = replies.reply_of(head, save)
    assert reply["save"] == save and reply["view"]["dice"] == list(session.game.dice)
    stored = json.loads(replies.stored(reply))
    assert stored["save"] == json.loads(save) and stored["view"] == reply["view"] and stored["ok"] is True
    assert replies.save_doc(reply) == json.loads(save)


def test_a_reply_without_a_save_keeps_no_text(replies, session):
    parts = app.handle_parts('{"op": "ping"}')
    head, save = parts["reply"], parts["save"]
    reply = replies.reply_of(head, save)
    assert "save" not in reply and "_text" not in reply and replies.save_doc(reply) is None
    with pytest.raises(KeyError):
        replies.stored(reply)


def test_no_answer_is_a_refusal_of_its_own_kind(replies):
    reply = replies.no_answer(RuntimeError("the worker died"))
    assert reply == {"ok": False, "kind": replies.NO_ANSWER, "error": "the worker died"}
    assert replies.NO_ANSWER not in replies.TOLD_ALWAYS


def test_answers_reach_their_own_requests_callbacks_in_any_order(replies):
    waiting = replies.Waiting()
    got = []
    for rid, name in ((7, "ai"), (8, "undo"), (9, "roll")):
        waiting.add(rid, lambda reply, name=name: got.append((name, reply)), quiet=name == "ai")
    assert len(waiting) == 3
    # the undo's answer first, then the computer's step, then the roll
    for rid in (8, 7, 9):
        callback, quiet = waiting.take(rid)
        callback(rid)
        assert quiet is (rid == 7)
    assert got == [("undo", 8), ("ai", 7), ("roll", 9)]
    assert len(waiting) == 0


def test_an_answer_of_no_request_or_answered_twice_reaches_nobody(replies):
    waiting = replies.Waiting()
    waiting.add(1, lambda reply: None)
    assert waiting.take(2) is None  # a request of another client (engine.mjs request/call)
    assert waiting.take(1) is not None
    assert waiting.take(1) is None
    assert len(waiting) == 0


def test_an_answer_is_the_reply_or_no_answer(replies, session):
    app.handle_parts(json.dumps({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 4}))
    parts = app.handle_parts('{"op": "roll"}')
    head, save = parts["reply"], parts["save"]
    reply = replies.answer_of(head, save, None)
    assert reply["ok"] is True and reply["save"] == save
    assert replies.answer_of(None, None, "the engine worker stopped again") == {
        "ok": False, "kind": replies.NO_ANSWER, "error": "the engine worker stopped again"}
