"""A rolled game's dice are the roller's: a save, an export or a link with one die changed is refused."""
import json
from pathlib import Path

import pytest

from generala import Game, SaveError, ScriptedRoller, SeededRoller, app, variant
from generala.modes import bundle, share
from generala.ai.strategies import chase, step

load = Game.from_json  # a save document to a game, or SaveError

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
VARIANTS = ["argentine", "puerto-rican", "double", "bulgarian"]


def finished(name, seed=21):
    g = Game(variant(name), ["Ana", "Beto", "Ciro"], SeededRoller(seed))
    while not g.over:
        step(g, chase)
    return g.to_json()


def other_face(value):
    return value % 6 + 1


def forge_roll(doc, which=2):
    """Change one die of the ``which``-th turn's first roll (no die held); returns the message
    fragment it must be named by."""
    history = doc["history"]
    rolls = [i for i, a in enumerate(history) if "roll" in a and ("roll" not in history[i - 1]
                                                                  and "hold" not in history[i - 1])]
    index = rolls[which]
    doc["history"][index]["roll"][0] = other_face(doc["history"][index]["roll"][0])
    return f"the roll at action {index + 1} (side "


def forge_rolloff(doc):
    first = doc["history"][0]["rolloff"][0]
    first[1][-1] = other_face(first[1][-1])
    return "the roll-off at action 1 (side "


def open_via(how, doc):
    """Open ``doc`` the way a player would: load, import or a share link (``op replay``)."""
    session = app.Session()
    if how == "load":
        return session.handle({"op": "load", "save": doc})
    if how == "import":
        return session.handle({"op": "import", "text": json.dumps(bundle.export([{"save": doc}]))})
    return session.handle({"op": "replay", "link": share.encode(doc)})  # re-checksummed link


@pytest.mark.parametrize("how", ["load", "import", "link"])
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("forge", [forge_roll, forge_rolloff])
def test_a_forged_die_is_refused_naming_the_roll(name, how, forge):
    doc = finished(name)
    assert open_via(how, doc)["ok"]  # untouched, it opens
    where = forge(doc)
    reply = open_via(how, doc)
    assert reply["ok"] is False and reply["kind"] == "SaveError", reply
    assert where in reply["error"] and "but the seed gives" in reply["error"]


def test_the_message_names_side_turn_and_roll_and_both_dice():
    g = Game(variant("argentine"), ["Ana", "Beto"], SeededRoller(8))
    step(g, chase)
    step(g, chase)
    g.roll()
    g.hold([0, 1])
    g.roll()
    doc = g.to_json()
    last = len(doc["history"])
    seen = doc["history"][-1]["roll"]
    forged = list(seen)
    forged[4] = other_face(forged[4])  # an unheld die
    doc["history"][-1]["roll"] = forged
    with pytest.raises(SaveError) as err:
        load(doc)
    name = g.sides[g.current].name
    assert (f"the roll at action {last} (side {name}, turn {g.round}, roll {g.rolls}) "
            f"recorded {forged} but the seed gives {seen}") in str(err.value)


def test_a_changed_held_die_is_refused():
    g = Game(variant("bulgarian"), ["Ana"], SeededRoller(3))
    g.roll()
    g.hold([0])
    g.roll()
    doc = g.to_json()
    for action in doc["history"]:
        if "roll" in action:
            action["roll"][0] = other_face(action["roll"][0])  # the held die, in both rolls
    with pytest.raises(SaveError, match="the roll at action 1 .*but the seed gives"):
        load(doc)


def test_a_roll_off_re_roll_round_is_checked():
    for seed in range(200):
        g = Game(variant("bulgarian"), ["A", "B", "C"], SeededRoller(seed))
        if len([a for a in g.history if "rolloff" in a]) > 1:
            break
    doc = g.to_json()
    second = doc["history"][1]["rolloff"][0]
    second[1][0] = other_face(second[1][0])
    with pytest.raises(SaveError, match="the roll-off at action 2 .*but the seed gives"):
        load(doc)


def test_a_rolled_game_without_its_roller_is_refused():
    doc = finished("argentine")
    doc["roller"] = None
    with pytest.raises(SaveError, match="cannot be checked"):
        load(doc)
    del doc["roller"]
    with pytest.raises(SaveError, match="cannot be checked"):
        load(doc)


def test_another_seed_is_refused():
    doc = finished("double")
    doc["roller"]["seed"] += 1
    with pytest.raises(SaveError, match="but the seed gives"):
        load(doc)


def test_a_scripted_roller_is_checked_too():
    dice = [3, 1, 4, 1, 5] + [2, 6, 5, 3, 5] * 3
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller(dice))
    g.roll()
    g.score("fives")
    doc = g.to_json()
    assert load(doc).history == g.history
    doc["history"][0]["roll"][1] = 2
    with pytest.raises(SaveError, match="but the seed gives"):
        load(doc)
    doc["roller"]["values"] = [3, 1]  # too few dice for what the history rolled
    with pytest.raises(SaveError, match="cannot be checked"):
        load(doc)


def test_rolls_cannot_be_smuggled_into_a_score_sheet_game_nor_entries_into_a_rolled_one():
    sheet = Game(variant("argentine"), ["A"], None, order=[0]).to_json()
    sheet["history"].append({"roll": [1, 2, 3, 4, 5]})
    with pytest.raises(SaveError, match="cannot be checked"):
        load(sheet)
    rolled = Game(variant("argentine"), ["A", "B"], SeededRoller(1)).to_json()
    rolled["history"].append({"enter": [6, 6, 6, 6, 6], "at": 1})
    with pytest.raises(SaveError, match="score-sheet"):
        load(rolled)


def test_golden_fixtures_and_every_document_the_engine_writes_still_load():
    for path in sorted(GOLDEN.glob("*.json")):
        assert load(path.read_text(encoding="utf-8")).history
    session = app.Session()
    for name in VARIANTS:
        for new in ({"seed": 5}, {"sheet": True}):
            reply = session.handle({"op": "new", "variant": name, "sides": ["A", "B"], **new})
            saves = [reply["save"]]
            for _ in range(6):
                if new.get("sheet"):
                    dice = [2, 3, 4, 5, 6] * (2 if name == "double" else 1)
                    reply = session.handle({"op": "enter", "dice": dice, "at": 2})
                else:
                    reply = session.handle({"op": "roll"})
                saves.append(reply["save"])
                boxes = [r["box"] for r in reply["view"]["rows"] if r["cells"][reply["view"]["current"]].get("playable")]
                if name == "double":
                    reply = session.handle({"op": "score", "boxes": boxes[:2], "scratch": [False, True]})
                else:
                    reply = session.handle({"op": "score", "box": boxes[-1]})
                assert reply["ok"], reply
                saves.append(reply["save"])
            for doc in saves:
                assert load(json.loads(json.dumps(doc))).history == doc["history"]
            assert bundle.read(json.dumps(bundle.export([{"save": s} for s in saves])))
    done = finished("bulgarian")
    link = app.Session().handle({"op": "share", "save": done})["link"]
    reply = app.Session().handle({"op": "replay", "link": link})
    assert reply["ok"] and reply["link"] == link


def test_an_unfinished_rolled_game_is_not_linked_its_seed_would_tell_the_dice_to_come():
    session = app.Session()
    session.handle({"op": "new", "variant": "argentine", "sides": ["A"], "seed": 4})
    session.handle({"op": "roll"})
    reply = session.handle({"op": "share"})
    assert reply["ok"] is False and reply["kind"] == "IllegalAction" and "seed" in reply["error"]
    sheet = app.Session()
    sheet.handle({"op": "new", "variant": "argentine", "sides": ["A"], "sheet": True})
    sheet.handle({"op": "enter", "dice": [1, 2, 3, 4, 5], "at": 1})
    assert sheet.handle({"op": "share"})["ok"]
