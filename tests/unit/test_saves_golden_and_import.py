"""Saves that never lose a game: golden files of every schema, export files, fuzzed loading."""
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generala import Game, SaveError, SeededRoller, variant
from generala import app
from generala.modes import bundle
from generala.rules.save import SCHEMA
from generala.ai.strategies import chase, step
from test_save import check_loads_back

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"

# Each golden document and what it must keep loading as, in every later version.
EXPECTED = {
    "schema-1-argentine-finished.json": {"totals": [127, 91], "over": True},
    "schema-1-bulgarian-in-progress.json": {"totals": [13, 22, 24], "over": False},
    "schema-1-double-score-sheet.json": {"totals": [51], "over": False},
}


def test_there_is_a_golden_file_for_every_schema_version():
    versions = {json.loads(p.read_text())["schema"] for p in GOLDEN.glob("*.json")}
    assert versions == set(range(1, SCHEMA + 1))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_documents_load_and_keep_their_results(name):
    doc = json.loads((GOLDEN / name).read_text())
    game = Game.from_json(doc)
    assert game.totals() == EXPECTED[name]["totals"]
    assert game.over is EXPECTED[name]["over"]
    assert game.to_json()["schema"] == SCHEMA


def sample_games():
    games = []
    for seed, name in enumerate(("argentine", "double", "puerto-rican")):
        g = Game(variant(name), ["Ana", "Beto"], SeededRoller(seed))
        for _ in range(12):
            step(g, chase)
        games.append(g)
    return games


def test_export_then_import_gives_the_identical_games():
    games = sample_games()
    text = json.dumps(bundle.export([{"id": f"g{i}", "save": g.to_json(), "when": "2026-11-30"}
                                     for i, g in enumerate(games)]))
    entries = bundle.read(text)
    assert [e["id"] for e in entries] == ["g0", "g1", "g2"]
    for entry, game in zip(entries, games):
        loaded = Game.from_json(entry["save"])
        assert loaded.to_json() == game.to_json()
        assert loaded.roll() == game.roll()  # the very same dice come next


def test_a_single_save_document_imports_too():
    doc = sample_games()[0].to_json()
    assert bundle.read(json.dumps(doc))[0]["save"] == doc


@pytest.mark.parametrize("text, problem", [
    ("{", "not JSON"),
    ("[]", "not a Generala export"),
    ('{"format": "generala-export", "version": 9, "games": []}', "newer"),
    ('{"format": "generala-export", "version": 1, "games": []}', "no games"),
    ('{"format": "generala-export", "version": 1, "games": [{"id": "x"}]}', "game 1"),
    ('{"format": "generala-export", "version": 1, "games": [{"save": {"schema": 1}}]}', "game 1 of the file"),
    ("x" * (bundle.MAX_BYTES + 1), "too large"),
    (b"\xff\xfe", "not text"),
])
def test_a_bad_file_is_rejected_naming_the_problem(text, problem):
    with pytest.raises(SaveError, match=problem):
        bundle.read(text)


def test_an_illegal_history_in_an_import_names_the_game():
    games = sample_games()
    docs = [g.to_json() for g in games]
    docs[1]["history"].append({"score": "sixes"})
    docs[1]["history"].append({"score": "sixes"})
    text = json.dumps(bundle.export([{"save": d} for d in docs]))
    with pytest.raises(SaveError, match="game 2 of the file"):
        bundle.read(text)


def test_import_through_the_worker_protocol():
    session = app.Session()
    good = json.dumps(bundle.export([{"save": sample_games()[0].to_json(), "id": "a"}]))
    reply = session.handle({"op": "import", "text": good})
    assert reply["ok"] and reply["games"][0]["id"] == "a"
    reply = session.handle({"op": "import", "text": "{oops"})
    assert reply["ok"] is False and "not JSON" in reply["error"]


def test_import_gives_each_game_the_view_that_loading_it_draws():
    games = sample_games()
    finished = Game(variant("puerto-rican"), ["Caro"], SeededRoller(4))
    while not finished.over:
        step(finished, chase)
    games.append(finished)
    text = json.dumps(bundle.export([{"save": g.to_json(), "id": f"g{i}", "when": "2026-11-30T10:00:00.000Z"}
                                     for i, g in enumerate(games)]))
    reply = app.Session().handle({"op": "import", "text": text})
    assert reply["ok"]
    assert [g["finished"] for g in reply["games"]] == [False, False, False, True]
    for entry, game in zip(reply["games"], games):
        assert sorted(entry) == ["finished", "id", "save", "view", "when"]
        # the save and the view as JSON texts: the page takes them through JavaScript
        assert isinstance(entry["save"], str) and isinstance(entry["view"], str)
        save, shown = json.loads(entry["save"]), json.loads(entry["view"])
        assert save == game.to_json()
        loaded = app.Session().handle({"op": "load", "save": save})
        assert shown == loaded["view"]
        assert shown["over"] is game.over
        assert [s["total"] for s in shown["sides"]] == game.totals()
    json.dumps(reply)  # the reply crosses to the page as JSON


def test_import_leaves_the_open_game_as_it_was():
    session, mirror = app.Session(), app.Session()
    for s in (session, mirror):
        s.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 5})
        s.handle({"op": "roll"})
        s.handle({"op": "toggle", "die": 1})
    before = session.handle({"op": "view"})["view"]
    good = json.dumps(bundle.export([{"save": g.to_json()} for g in sample_games()]))
    assert session.handle({"op": "import", "text": good})["ok"]
    bad = session.handle({"op": "import", "text": '{"format": "generala-export", "version": 2}'})
    assert bad["ok"] is False and "newer version" in bad["error"]
    assert bad["view"] == before  # a failed request still shows the open game, unchanged
    assert session.handle({"op": "view"})["view"] == before
    # the same dice come next as in a session that never imported anything
    assert session.handle({"op": "roll"})["save"] == mirror.handle({"op": "roll"})["save"]


def _mutations(doc, data):
    """One random edit of a document: drop, replace or duplicate something, or cut its text."""
    kind = data.draw(st.sampled_from(["drop", "replace", "duplicate", "truncate", "swap"]))
    text = json.dumps(doc)
    if kind == "truncate":
        return text[: data.draw(st.integers(0, len(text) - 1))]
    history = doc["history"]
    if kind == "swap" and len(history) > 1:
        i = data.draw(st.integers(0, len(history) - 2))
        history[i], history[i + 1] = history[i + 1], history[i]
    elif kind == "drop" and history:
        del history[data.draw(st.integers(0, len(history) - 1))]
    elif kind == "duplicate" and history:
        i = data.draw(st.integers(0, len(history) - 1))
        history.insert(i, json.loads(json.dumps(history[i])))
    else:
        key = data.draw(st.sampled_from(sorted(doc)))
        doc[key] = data.draw(st.none() | st.integers(-2, 9) | st.text(max_size=5)
                             | st.lists(st.integers(0, 7), max_size=6))
    return doc


BASE = [g.to_json() for g in sample_games()]


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(range(len(BASE))), st.data())
def test_thousands_of_mutated_documents_raise_only_the_loaders_error(which, data):
    doc = json.loads(json.dumps(BASE[which]))
    mutated = _mutations(doc, data)
    # Whatever loads is a legal game that saves as its normal form, and loads again identically.
    check_loads_back(mutated)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(range(len(BASE))))
def test_a_valid_document_always_loads(which):
    assert Game.from_json(json.dumps(BASE[which])).to_json() == BASE[which]
