"""static/ui/board/shapes.py in CPython: which stored views the board can draw, the side an
action belongs to, the home lists' fields. Plain Python (the page runs it in MicroPython)."""
import copy
import sys
from pathlib import Path

import pytest

from generala import app

from tools import ui_modules

UI_PATHS = [str(ui_modules.UI)]


@pytest.fixture(scope="module")
def shapes():
    sys.path[:0] = UI_PATHS
    try:
        from board import shapes
        yield shapes
    finally:
        for path in UI_PATHS:
            sys.path.remove(path)
        ui_modules.forget()


def session(variant="argentine", seed=1, players=("human", "human")):
    s = app.Session()
    sides = [{"name": n, "members": [], "player": p} for n, p in zip(("Ana", "Beto"), players)]
    reply = s.handle({"op": "new", "variant": variant, "sides": sides, "seed": seed})
    return s, reply["view"]


@pytest.mark.parametrize("variant", ["argentine", "bulgarian", "puerto-rican", "double"])
def test_every_view_of_a_game_is_drawable(shapes, variant):
    s, view = session(variant)
    assert shapes.view_problem(view) is None
    for _ in range(12):
        view = s.handle({"op": "roll"})["view"]
        assert shapes.view_problem(view) is None
        if view["over"]:
            break
        if view["boxes_per_turn"] == 2:
            boxes = [r["box"] for r in view["rows"] if r["cells"][view["current"]].get("playable")][:2]
            split = s.handle({"op": "split", "boxes": boxes})["split"]
            view = s.handle({"op": "score", "boxes": boxes, "split": split["positions"]})["view"]
        else:
            box = next(r["box"] for r in view["rows"] if r["cells"][view["current"]].get("playable"))
            view = s.handle({"op": "score", "box": box})["view"]
        assert shapes.view_problem(view) is None


def broken(view, change):
    v = copy.deepcopy(view)
    change(v)
    return v


BAD = {
    "empty": lambda v: v.clear(),
    "sides 5": lambda v: v.update(sides=5),
    "no auto_win": lambda v: v.pop("auto_win"),
    "no rolloff": lambda v: v.pop("rolloff"),
    "current out of range": lambda v: v.update(current=7),
    "no side to play, not over": lambda v: v.update(current=None),
    "a side without a name": lambda v: v["sides"][0].pop("name"),
    "a row short of cells": lambda v: v["rows"][0]["cells"].pop(),
    "held of another length": lambda v: v.update(held=[False]),
    "over as text": lambda v: v.update(over="no"),
    "a winner who is not a side": lambda v: v.update(auto_win={"side": 9, "kind": "big-general"}),
    # the fields the page reads instead of deciding (an older build's views lack them)
    "no split_sizes": lambda v: v.pop("split_sizes"),
    "split_sizes with one box a turn": lambda v: v.update(split_sizes=[5]),
    "no events": lambda v: v.pop("events"),
    "a side without computer": lambda v: v["sides"][1].pop("computer"),
    "a playable cell without its request": lambda v: next(
        c for r in v["rows"] for c in r["cells"] if c.get("playable")).pop("request"),
    "a playable cell without scratch": lambda v: next(
        c for r in v["rows"] for c in r["cells"] if c.get("playable")).pop("scratch"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_views_the_board_cannot_draw(shapes, name):
    s, _ = session()
    view = s.handle({"op": "roll"})["view"]  # playable cells
    assert shapes.view_problem(broken(view, BAD[name])) is not None
    assert shapes.view_problem(view) is None  # the good one, unchanged


@pytest.mark.parametrize("variant", ["argentine", "puerto-rican"])
def test_a_served_win_names_the_winner_though_no_side_is_to_play(shapes, variant):
    s, view = session(variant, seed=2422, players=("ai:heuristic", "ai:beginner"))
    view = s.handle({"op": "ai"})["view"]
    assert view["over"] and view["current"] is None and view["last"]["side"] is None
    assert shapes.view_problem(view) is None
    assert shapes.acting_side(view) == view["auto_win"]["side"] == 0


def test_acting_side_otherwise(shapes):
    s, view = session()
    assert shapes.acting_side(view) == view["current"]
    view = s.handle({"op": "roll"})["view"]
    assert shapes.acting_side(view) == view["last"]["side"] == view["current"]


def test_list_fields(shapes):
    s, view = session()
    good = {"created": 1, "updated": 2.5, "variant": "argentine", "title": "Generala", "names": ["Ana", "Beto"],
            "over": False, "round": 1, "turns": 11, "result": None, "sheet": False}
    assert shapes.list_fields(good, view) == (good, [])
    bad = dict(good, updated="yesterday", names=5, result=[[1]], over=None, turns=True)
    fields, wrong = shapes.list_fields(bad, view)
    assert sorted(wrong) == ["names", "over", "result", "turns", "updated"]
    assert fields == dict(good, updated=None, result=None)
    fields, _ = shapes.list_fields(bad)  # no view to take them from
    assert fields["names"] == [] and fields["over"] is False and fields["turns"] is None
    assert shapes.list_fields({"result": [["Ana", 1, 30], ["Beto", None, 2]]})[0]["result"][0] == ["Ana", 1, 30]


def test_the_sheet_mark_is_the_views(shapes):
    """A score-sheet game's list field "sheet": as stored beside the save, else the view's
    (the drawable one, or the one stored even when it cannot be drawn: an older build's)."""
    sheet = app.Session().handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "sheet": True})["view"]
    rolled = app.Session().handle({"op": "new", "sides": ["Ana"], "seed": 1})["view"]
    assert shapes.list_fields({}, sheet)[0]["sheet"] is True
    assert shapes.list_fields({}, rolled)[0]["sheet"] is False
    assert shapes.list_fields({"sheet": True}, rolled)[0]["sheet"] is True  # the stored field first
    old = dict(sheet, acting=None)
    del old["scorable"]  # a view an older build stored: not drawable, but it says what it is
    assert shapes.view_problem(old) is not None
    fields, wrong = shapes.list_fields({}, None, old)
    assert fields["sheet"] is True and "sheet" in wrong
    assert shapes.list_fields({}, None, {"sheet": "yes"})[0]["sheet"] is False  # nothing usable: no mark
    assert shapes.list_fields({}, None, None)[0]["sheet"] is False


def test_size_text(shapes):
    assert shapes.size_text(3_145_728) == "3.1 MB" and shapes.size_text(1_000_001) == "1.0 MB"


def test_a_finished_game_without_a_result_takes_the_views(shapes):
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 2422})
    view = s.handle({"op": "roll"})["view"]
    assert view["over"]
    fields, wrong = shapes.list_fields({"over": True}, view)
    assert wrong and fields["result"] == [[x["name"], x["place"], x["total"]] for x in view["sides"]]


def test_a_view_stored_by_the_build_before_the_game_table_is_not_drawn(shapes):
    """Views stored by 4b45483 (tests/e2e/fixtures) lack who acts, what a person may do and
    the paper sheet's result: the page draws the engine's view of their saves instead; their
    score-sheet mark is their stored view's."""
    import json
    from pathlib import Path
    from generala import app
    doc = json.loads((Path(__file__).resolve().parents[1] / "e2e" / "fixtures" / "golden-saves-4b45483.json").read_text())
    entries = [json.loads(v) for k, v in doc["storage"].items() if k.startswith("generala.save.")]
    assert len(entries) >= 10
    for entry in entries:
        assert shapes.view_problem(entry["reply"]["view"]) is not None
        fresh = app.Session().handle({"op": "load", "save": entry["reply"]["save"]})["view"]
        assert shapes.view_problem(fresh) is None
        # their list fields say nothing of score sheets: the stored view does, as the engine
        assert "sheet" not in entry
        assert shapes.list_fields(entry, None, entry["reply"]["view"])[0]["sheet"] is fresh["sheet"]
    assert sum(1 for e in entries if e["reply"]["view"]["sheet"]) == 1
