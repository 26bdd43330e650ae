"""Share links, replays, records and score-sheet entry (the engine's side)."""
import json

import pytest

from generala import Game, IllegalAction, InvalidInput, SaveError, SeededRoller, variant
from generala import app
from generala.modes import share
from generala.modes.records import records
from generala.modes.replay import Replay
from generala.ai.strategies import chase, step


def finished(name="argentine", sides=2, seed=3, **options):
    g = Game(variant(name, **options), [f"P{i}" for i in range(sides)], SeededRoller(seed))
    while not g.over:
        step(g, chase)
    return g


# --- share links ---------------------------------------------------------------

def test_link_round_trip_gives_the_identical_game():
    g = finished()
    doc = share.decode(share.encode(g.to_json()))
    loaded = Game.from_json(doc)
    assert loaded.history == g.history and loaded.totals() == g.totals()
    assert doc["roller"] == {"kind": "seeded", "seed": 3}  # finished: the seed checks its dice


def test_link_of_a_full_eight_side_game_is_small():
    g = finished(sides=8, served_generala_wins=False)
    token = share.encode(g.to_json())
    assert len(token) < 4000, len(token)


def test_every_single_character_corruption_is_rejected():
    token = share.encode(finished("puerto-rican", sides=3, big_general_wins=False).to_json())
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
    for i in range(len(token)):
        for ch in alphabet:
            if ch == token[i]:
                continue
            with pytest.raises(SaveError):
                share.decode(token[:i] + ch + token[i + 1:])
        with pytest.raises(SaveError):
            share.decode(token[:i] + token[i + 1:])  # a character dropped


def test_a_relinked_but_illegal_game_is_still_refused():
    doc = finished().to_json()
    doc["history"][-1] = {"score": "nonsense"}
    with pytest.raises(SaveError, match="not legal"):
        share.decode(share.encode(doc))


@pytest.mark.parametrize("token", ["", "hello", "g1.", "g1.!!!!", None, "g1." + "A" * 70000])
def test_garbage_links_are_rejected_with_a_message(token):
    with pytest.raises(SaveError):
        share.decode(token)


# --- replay ----------------------------------------------------------------------

def test_replay_shows_the_sheets_as_they_stood_at_every_step():
    g = finished("bulgarian", sides=2)
    r = Replay(g.to_json())
    assert r.steps == len(g.history) - sum("rolloff" in a for a in g.history)
    assert r.view_at(r.steps)["sides"][0]["total"] == g.totals()[0]
    assert r.view_at(0)["sides"][0]["total"] == 0
    previous = 0
    for step_number in r.turn_starts()[1:]:
        filled = sum(v is not None for sheet in r.game_at(step_number).sheets for v in sheet.values())
        assert filled == previous + 1
        previous = filled
    with pytest.raises(InvalidInput):
        r.view_at(r.steps + 1)


def test_replay_through_the_protocol_from_a_link():
    g = finished("double")
    session = app.Session()
    link = session.handle({"op": "replay", "link": share.encode(g.to_json())})
    assert link["ok"] and link["view"]["replay"]["step"] == 0
    last = session.handle({"op": "replay_at", "step": link["view"]["replay"]["steps"]})
    assert [s["total"] for s in last["view"]["sides"]] == g.totals()
    bad = session.handle({"op": "replay", "link": share.encode(g.to_json())[:-3] + "xyz"})
    assert bad["ok"] is False and "damaged" in bad["error"]


# --- records -----------------------------------------------------------------------

def test_records_count_games_wins_best_mean_scratches_and_generalas():
    games = [finished(seed=s, served_generala_wins=False) for s in range(4)]
    entries = [{"save": g.to_json(), "when": f"2026-11-{20 + i}"} for i, g in enumerate(games)]
    entries.append({"save": {"schema": 1, "broken": True}, "when": "x"})
    result = records(entries)
    assert result["skipped"] == 1
    p0 = next(p for p in result["players"] if p["name"] == "P0")
    totals = [g.totals()[0] for g in games]
    assert p0["games"] == 4 and p0["best"] == max(totals)
    assert p0["mean"] == round(sum(totals) / 4, 2)
    assert p0["wins"] == sum(g.ranking()[0] == 1 for g in games)
    assert [s["score"] for s in p0["scores"]] == totals
    scratched = sum(1 for g in games for b, v in g.sheets[0].items() if v == 0)
    assert sum(p0["scratches"].values()) == scratched


def test_five_alike_rolls_are_counted_per_side():
    g = Game(variant("argentine", served_generala_wins=False), ["A"], None, order=[0])
    g.enter([4] * 5, roll=2)
    g.score("generala")
    g.enter([4] * 5, roll=1)
    g.score("fours")
    for box in g.rules.categories:
        if g.sheet()[box] is None:
            g.enter([1, 2, 3, 4, 6])
            g.score(box)
    assert records([{"save": g.to_json(), "when": None}])["players"][0]["five_alike"] == 2


# --- score-sheet entry ------------------------------------------------------------------

def test_entered_dice_on_the_first_roll_earn_the_served_price():
    g = Game(variant("puerto-rican"), ["A", "B"], None, order=[1, 0])
    assert g.current == 1
    g.enter([2, 3, 4, 5, 6], roll=1)
    assert g.score("straight") == 25
    g.enter([2, 3, 4, 5, 6], roll=3)
    assert g.score("straight") == 20


def test_entering_a_served_generala_ends_the_game():
    g = Game(variant("argentine"), ["A", "B"], None, order=[0, 1])
    g.enter([6] * 5, roll=1)
    assert g.auto_win == {"side": 0, "kind": "served-generala"}


def test_entry_is_once_a_turn_and_checked():
    g = Game(variant("argentine"), ["A"], None, order=[0])
    with pytest.raises(InvalidInput):
        g.enter([1, 2, 3], roll=1)
    with pytest.raises(InvalidInput):
        g.enter([1, 2, 3, 4, 5], roll=4)
    g.enter([1, 2, 3, 4, 5], roll=2)
    with pytest.raises(IllegalAction):
        g.enter([1, 2, 3, 4, 5], roll=2)
    g.undo()  # correction of the last entry
    g.enter([6, 6, 6, 2, 2], roll=3)
    assert g.score("full-house") == 30


def test_an_order_that_is_not_a_permutation_is_refused():
    with pytest.raises(InvalidInput):
        Game(variant("argentine"), ["A", "B"], None, order=[0, 0])


def test_score_sheet_game_through_the_protocol_saves_and_reloads():
    session = app.Session()
    reply = session.handle({"op": "new", "variant": "bulgarian", "sides": ["A", "B"], "sheet": True})
    assert reply["view"]["order"] == [0, 1] and reply["view"]["rolloff"] == []
    reply = session.handle({"op": "enter", "dice": [4, 4, 4, 4, 1], "at": 2})
    assert reply["view"]["rows"][3]["cells"][0]["preview"] == 4
    reply = session.handle({"op": "score", "box": "fours"})
    other = app.Session()
    view = other.handle({"op": "load", "save": json.loads(json.dumps(reply["save"]))})["view"]
    assert view["rows"][3]["cells"][0]["text"] == "+4" and view["current"] == 1
    assert other.game.roller is None  # a paper-sheet game never rolls by itself


def test_score_sheet_view_offers_entry_not_rolls():
    session = app.Session()
    view = session.handle({"op": "new", "variant": "argentine", "sides": ["A"], "sheet": True})["view"]
    assert view["sheet"] and view["can_enter"] and not view["can_roll"] and not view["can_hold"]
    view = session.handle({"op": "enter", "dice": [1, 2, 3, 4, 6], "at": 1})["view"]
    assert not view["can_enter"] and not view["can_hold"] and not view["can_roll"]
    rolled = app.Session().handle({"op": "new", "variant": "argentine", "sides": ["A"], "seed": 1})["view"]
    assert not rolled["sheet"] and not rolled["can_enter"] and rolled["can_roll"]


def test_share_any_stored_game_and_replay_carries_its_link():
    doc = finished().to_json()
    session = app.Session()
    link = session.handle({"op": "share", "save": doc})["link"]
    assert share.decode(link)["history"] == doc["history"]
    assert session.game is None  # nothing was opened on the board
    reply = session.handle({"op": "replay", "save": doc})
    assert reply["link"] == link
    bad = session.handle({"op": "share", "save": {"schema": 1}})
    assert bad["ok"] is False
