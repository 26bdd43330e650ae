"""The table's moments (static/ui/board/cues.py) in CPython: what the page shows and plays
for the events of the real engine's views (a tick for a box filled, one celebration for
five alike, an automatic win or the end, the hot-seat hand-over card), never inferred by
comparing views."""
import sys

import pytest

from generala import app
from tools import ui_modules


@pytest.fixture(scope="module")
def cues():
    paths = [str(ui_modules.UI)]
    sys.path[:0] = paths
    try:
        from board import cues
        from words import words
        words.set_lang("en")
        yield cues
    finally:
        for path in paths:
            sys.path.remove(path)
        ui_modules.forget()


def game(variant="argentine", seed=3, players=("human", "human"), **extra):
    s = app.Session()
    sides = [{"name": n, "members": [], "player": p} for n, p in zip(("Ana", "Beto"), players)]
    reply = s.handle({"op": "new", "variant": variant, "sides": sides, "seed": seed, **extra})
    return s, reply["view"]


def kinds(found):
    return [kind for kind, _ in found]


def test_a_view_after_no_action_shows_nothing(cues):
    s, view = game()
    assert cues.moments(view) == [] and cues.rolled(view["events"]) is None
    view = s.handle({"op": "view"})["view"]
    assert cues.moments(view) == []


def test_the_dice_a_roll_threw_land(cues):
    s, _ = game()
    view = s.handle({"op": "roll"})["view"]
    assert cues.rolled(view["events"]) == [0, 1, 2, 3, 4]
    view = s.handle({"op": "hold", "dice": [0, 3]})["view"]
    assert cues.rolled(view["events"]) is None  # a hold throws nothing
    view = s.handle({"op": "roll"})["view"]
    assert cues.rolled(view["events"]) == [1, 2, 4]
    # the events of two replies drawn as one (controller.py: a reply not drawn)
    assert cues.rolled([{"kind": "roll", "rolled": [0, 1]}, {"kind": "roll", "rolled": [1, 4]}]) == [0, 1, 4]


@pytest.mark.parametrize("variant,seed,title", [("bulgarian", 106, "General!"), ("double", 12, "Five alike!")])
def test_five_alike_is_celebrated_with_the_games_own_hand(cues, variant, seed, title):
    s, _ = game(variant, seed)
    view = s.handle({"op": "roll"})["view"]
    event = next(e for e in view["events"] if e["kind"] == "five_alike")
    assert event["served"] and not view["over"]
    [(kind, card)] = cues.moments(view)
    assert kind == "celebrate" and card["kind"] == "five"
    assert card["title"] == title and card["line"] == "First roll!" and card["text"] == title + " First roll!"


def test_generala_is_named_in_the_players_language(cues):
    from words import words
    view = {"sides": [{"name": "Ana", "computer": None}],
            "events": [{"kind": "roll", "side": 0, "rolled": [3], "dice": [2] * 5, "roll": 2},
                       {"kind": "five_alike", "side": 0, "hand": "generala", "served": False, "face": 2}]}
    [(_, card)] = cues.moments(view)
    assert (card["title"], card["line"], card["text"]) == ("Generala!", "", "Generala!")
    try:
        words.set_lang("es")
        [(_, card)] = cues.moments(view)
        assert card["title"] == "¡Generala!"
    finally:
        words.set_lang("en")


@pytest.mark.parametrize("variant", ["argentine", "puerto-rican"])
def test_an_automatic_win_is_the_one_celebration(cues, variant):
    """A served Generala (a Big General) is five alike, an automatic win and the end of the
    game: one celebration, the automatic win's, the game's own hand named big."""
    s, _ = game(variant, 2422)
    view = s.handle({"op": "roll"})["view"]
    assert {"five_alike", "auto_win", "game_over"} <= {e["kind"] for e in view["events"]}
    [(kind, card)] = cues.moments(view)
    assert kind == "celebrate" and card["kind"] == "auto"
    hand = {"argentine": "Generala!", "puerto-rican": "Big General!"}[variant]
    assert (card["title"], card["line"]) == (hand, "Ana wins at once!")
    assert card["text"] == hand + " Ana wins at once!"


def play_turn(s, view):
    """Roll once and fill the first playable box: the reply after the box."""
    view = s.handle({"op": "roll"})["view"]
    cur = view["current"]
    cell = next(r["cells"][cur] for r in view["rows"] if r["cells"][cur].get("playable"))
    return s.handle(cell["request"])["view"]


def test_a_box_filled_ticks_and_the_next_person_is_handed_the_device(cues):
    s, view = game()
    first = view["sides"][view["current"]]["name"]
    view = play_turn(s, view)
    found = cues.moments(view)
    assert kinds(found) == ["tick", "hand_over"]
    nxt = view["sides"][view["current"]]["name"]
    assert nxt != first and found[1][1] == {"name": nxt, "text": nxt + "'s turn — pass the device"}
    reply = s.handle({"op": "undo"})  # the box is final: the next person's turn has begun
    assert reply["code"] == "undo.turn_passed" and cues.moments(reply["view"]) == []


def test_no_hand_over_card_to_or_from_a_computer(cues):
    s, view = game(players=("human", "ai:beginner"))
    assert view["sides"][1]["computer"] == "beginner" and view["sides"][0]["computer"] is None
    seen = set()
    for _ in range(4):  # two turns each: the computer's box, then the person's
        if view["current"] == 1:
            while view["current"] == 1:
                view = s.handle({"op": "ai"})["view"]
        else:
            view = play_turn(s, view)
        seen.add(tuple(kinds(cues.moments(view))))
    assert seen == {("tick",)}


def test_one_side_alone_has_no_hand_over(cues):
    s = app.Session()
    view = s.handle({"op": "new", "sides": ["Ana"], "seed": 3})["view"]
    assert kinds(cues.moments(play_turn(s, view))) == ["tick"]


def test_the_end_of_the_game_ticks_and_celebrates(cues):
    s, view = game(seed=5)
    while not view["over"]:
        view = play_turn(s, view)
    found = cues.moments(view)
    assert kinds(found) == ["tick", "celebrate"]
    card = found[1][1]
    winners = [view["sides"][i]["name"] for i in range(2) if view["sides"][i]["place"] == 1]
    assert card["kind"] == "over" and card["title"] == "Game over"
    assert all(name in card["text"] for name in winners) and card["line"] == card["text"]


def test_a_score_sheet_game_celebrates_its_automatic_win_not_dice_entered(cues):
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "sheet": True})
    view = s.handle({"op": "enter", "dice": [3, 3, 3, 3, 3], "at": 2})["view"]
    assert any(e["kind"] == "five_alike" for e in view["events"])
    assert cues.moments(view) == [] and cues.rolled(view["events"]) is None
    s.handle({"op": "undo"})
    view = s.handle({"op": "enter", "dice": [3, 3, 3, 3, 3], "at": 1})["view"]
    [(kind, card)] = cues.moments(view)
    assert kind == "celebrate" and card["kind"] == "auto"


def test_the_dice_whose_hold_changed_slide_from_the_events(cues):
    """A hold's event names the dice that change rows; a roll or a box names none."""
    s, _ = game()
    rolled = s.handle({"op": "roll"})["view"]
    assert cues.held_moved(rolled["events"]) == [] and not cues.ended(rolled["events"])
    held = s.handle({"op": "hold", "dice": [0, 2]})["view"]
    assert cues.held_moved(held["events"]) == [0, 2]
    toggled = s.handle({"op": "toggle", "die": 2})["view"]
    assert cues.held_moved(toggled["events"]) == [2]
    # the events of replies not drawn come together: each die once
    assert cues.held_moved(held["events"] + toggled["events"]) == [0, 2]


def test_the_end_of_the_game_is_found_in_the_events(cues):
    s, _ = game(players=("human",))
    while True:
        s.handle({"op": "roll"})
        view = s.handle({"op": "view"})["view"]
        cell = next(r["cells"][view["current"]] for r in view["rows"] if r["box"] == view["scorable"][-1])
        view = s.handle(cell["request"])["view"]
        if view["over"]:
            break
        assert not cues.ended(view["events"])
    assert cues.ended(view["events"])
    assert not cues.ended(s.handle({"op": "view"})["view"]["events"])  # drawn again: nothing new
