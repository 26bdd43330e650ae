"""Integers stay exact on their way between the engine and the page: the seeds 0, 2**53 + 1
(the first a JavaScript number cannot hold) and 2**63 - 1 (the largest) through a game's
save, export, import, a reload, a share link and a replay, and a daily challenge (a 64-bit
seed) through export and import.

The page parses JSON in JavaScript in one place only, an import's reply (so that its games
reach MicroPython one at a time: static/js/engine.mjs importFile); everything else crosses
JavaScript as text. ``js_parse`` parses as JavaScript's JSON.parse does (every number a
double), to show that no number of that reply is a game's: each game's documents are
JSON texts within it."""
import json

import pytest

from generala import app
from generala.modes import bundle, daily, share
from generala.rules.save import dump
from generala.ai.strategies import chase, step

SEEDS = [0, 2 ** 53 + 1, 2 ** 63 - 1]
DAY = "2026-12-01"


def js_parse(text):
    """JSON.parse: every number a double (2**53 + 1 comes back as 2**53)."""
    return json.loads(text, parse_int=float)


def test_js_parse_rounds_as_javascript_does():
    assert int(js_parse("9007199254740993")) == 2 ** 53  # what the page did to a seed
    assert int(js_parse("2317335767902685475")) == 2317335767902685696


@pytest.fixture
def session(monkeypatch):
    fresh = app.Session()
    monkeypatch.setattr(app, "SESSION", fresh)
    return fresh


def parts(req):
    got = app.handle_parts(json.dumps(req))
    assert got["ok"], got["reply"]
    return got


def exported(saves):
    """An export file of these save texts, as the page writes it (transfer.py export_parts):
    each save put in as text."""
    games = ", ".join('{"id": "g%d", "when": "2026-11-30T10:00:00.000Z", "finished": false, "save": %s}' % (i, s)
                      for i, s in enumerate(saves))
    return '{"format": "generala-export", "version": 1, "exported": "", "games": [%s]}' % games


def imported(text):
    """op import's reply as the page takes it: parsed as JavaScript does, each game's save
    and view parsed from their texts (by MicroPython)."""
    got = parts({"op": "import", "text": text})
    assert got["save"] is None and got["changed"] is False  # the open game is left as it was
    reply = js_parse(got["reply"])
    return [(json.loads(g["save"]), json.loads(g["view"])) for g in reply["games"]]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seed_stays_exact_through_save_export_import_reload_share_and_replay(session, seed):
    parts({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": seed})
    parts({"op": "roll"})
    saved = parts({"op": "toggle", "die": 1})["save"]  # the text the page stores as it came
    assert json.loads(saved)["roller"]["seed"] == seed
    # export and import: the same save, and the view loading it draws
    [(save, view)] = imported(exported([saved]))
    assert save == json.loads(saved) and save["roller"]["seed"] == seed
    # a reload: the page sends the stored save (MicroPython's json keeps big integers)
    mirror = app.Session()
    assert mirror.handle({"op": "load", "save": save})["view"] == view
    loaded = parts({"op": "load", "save": save})
    assert json.loads(loaded["save"]) == save and loaded["changed"] is True
    # the same dice next, to the end (each box as the view offers it)
    while not session.game.over:
        view = mirror.handle({"op": "view"})["view"]
        req = {"op": "roll"} if view["rolls"] == 0 else next(
            row["cells"][view["current"]]["request"] for row in view["rows"]
            if row["cells"][view["current"]].get("playable"))
        got = parts(req)
        assert json.loads(got["save"]) == mirror.handle(req)["save"]
    done = dump(session.game)
    assert done["roller"]["seed"] == seed
    # a share link, and the replay it opens: the same game, its dice checked by the seed
    token = json.loads(parts({"op": "share"})["reply"])["link"]
    assert share.decode(token) == done
    opened = parts({"op": "replay", "link": token})
    assert json.loads(opened["save"]) == done
    assert json.loads(opened["replay"]) == {"op": "replay", "save": done}  # a new worker opens it again
    steps = json.loads(opened["reply"])["view"]["replay"]["steps"]
    last = json.loads(parts({"op": "replay_at", "step": steps})["reply"])["view"]
    assert [s["total"] for s in last["sides"]] == session.game.totals()
    # a finished game exported and imported replays too
    [(again, _)] = imported(exported([json.dumps(done)]))
    assert again == done and json.loads(parts({"op": "replay", "save": again})["save"]) == done


def finished_daily():
    game = daily.new_game("argentine", DAY, DAY, daily.PLAYER)
    while not game.over:
        step(game, chase)
    return dump(game)


def test_a_daily_challenge_stays_that_days_challenge_through_export_and_import(session):
    done = finished_daily()
    assert done["roller"]["seed"] == daily.seed("argentine", DAY) > 2 ** 53
    assert done["daily"] == {"date": DAY, "late": False}
    [(save, view)] = imported(exported([json.dumps(done)]))
    assert save == done and view["daily"] == {"date": DAY, "late": False, "again": False} and view["over"]
    # it opens again as that day's challenge, finished: it cannot be played again
    got = parts({"op": "load", "save": save})
    assert json.loads(got["reply"])["view"]["daily"] == {"date": DAY, "late": False, "again": False}
    refused = json.loads(app.handle_parts('{"op": "again"}')["reply"])
    assert refused["code"] == "daily.again"
    history = json.loads(parts({"op": "daily_history", "today": DAY,
                                "entries": [{"id": "d", "save": save, "when": DAY + "T10:00:00Z"}]})["reply"])
    assert history["challenges"]["games"]["argentine"]["status"] == "done"
    # and it replays
    opened = parts({"op": "replay", "save": save})
    assert json.loads(opened["save"]) == done
