"""Double General: after the split, either box (or both) may be a scratch, by the player's choice."""
import pytest

from generala import Game, IllegalAction, InvalidInput, ScriptedRoller, app, variant

load = Game.from_json  # a save document to a game, or SaveError

DICE = [5, 5, 5, 5, 5, 1, 2, 3, 4, 5]  # five fives, and a small general


def rolled(dice=DICE):
    g = Game(variant("double"), ["Ana"], ScriptedRoller(dice))
    g.roll()
    return g


def test_a_scratch_writes_zero_in_the_chosen_box_and_the_other_box_is_priced():
    g = rolled()
    assert g.score("five-kind", "small-general", split=[0, 1, 2, 3, 4], scratch=[False, True]) == 50
    assert g.sheets[0]["five-kind"] == 50 and g.sheets[0]["small-general"] == 0
    assert g.history[-1] == {"score": ["five-kind", "small-general"], "split": [0, 1, 2, 3, 4],
                             "scratch": [False, True]}


def test_without_a_split_the_best_group_goes_to_the_box_that_is_not_scratched():
    g = rolled()
    assert g.score("small-general", "fives", scratch=[False, True]) == 21
    assert g.sheets[0] == {**g.sheets[0], "small-general": 21, "fives": 0}
    g = rolled()
    assert g.score("fives", "sixes", scratch=[True, True]) == 0


def test_the_scratch_replays_from_a_save_and_shows_as_a_scratch():
    session = app.Session()
    session.handle({"op": "new", "variant": "double", "sides": ["Ana"], "seed": 12})
    dice = session.handle({"op": "roll"})["view"]["dice"]
    reply = session.handle({"op": "score", "boxes": ["ones", "sixes"], "split": [0, 1, 2, 3, 4],
                            "scratch": [False, True]})
    assert reply["ok"], reply
    assert reply["view"]["last"]["scratch"] == [False, True]
    row = {r["box"]: r["cells"][0] for r in reply["view"]["rows"]}
    assert row["sixes"] == {"value": 0, "text": "—"}
    assert row["ones"]["value"] == sum(1 for d in dice[:5] if d == 1)
    loaded = load(reply["save"])
    assert loaded.sheets == [{**loaded.sheets[0], "ones": row["ones"]["value"], "sixes": 0}]
    assert loaded.history[-1]["scratch"] == [False, True]


def test_a_bad_scratch_is_refused_never_ignored():
    session = app.Session()
    session.handle({"op": "new", "variant": "double", "sides": ["Ana"], "seed": 12})
    session.handle({"op": "roll"})
    for bad in (True, [True], [1, 0], "sixes", [False, True, False]):
        reply = session.handle({"op": "score", "boxes": ["ones", "sixes"], "scratch": bad})
        assert reply["ok"] is False and reply["kind"] == "InvalidInput", (bad, reply)
    assert session.handle({"op": "view"})["view"]["sheet"] is False
    g = rolled()
    with pytest.raises(InvalidInput):
        g.score("fives", "sixes", scratch=True)


def test_a_recorded_scratch_pair_must_be_canonical():
    g = rolled()
    g.score("fives", "sixes", split=[0, 1, 2, 3, 4], scratch=[True, False])
    doc = g.to_json()
    doc["history"][-1]["scratch"] = [False, False]  # the same as no scratch: not how it is written
    with pytest.raises(Exception, match="not a score action"):
        load(doc)


def test_an_undone_scratch_leaves_both_boxes_open():
    g = rolled()
    g.score("fives", "sixes", scratch=[True, False])
    g.undo()
    assert g.sheets[0]["fives"] is None and g.sheets[0]["sixes"] is None


def test_single_box_games_refuse_a_scratch_pair_and_extra_side_keys():
    session = app.Session()
    session.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 1})
    session.handle({"op": "roll"})
    reply = session.handle({"op": "score", "box": "ones", "scratch": [True, False]})
    assert reply["kind"] == "InvalidInput"
    reply = session.handle({"op": "new", "sides": [{"name": "Ana", "team": True}]})
    assert reply["kind"] == "InvalidInput" and "team" in reply["error"]
    bulgarian = Game(variant("bulgarian"), ["A"], ScriptedRoller([1] * 5))
    bulgarian.roll()
    with pytest.raises(IllegalAction, match="mandatory"):
        bulgarian.score("ones", scratch=True)
