"""The board's controller under the house rules beyond the seeds (docs/house-rules.md), in
CPython with the real engine's views: the served win offered is taken with `op win` only
when the view offers it; a box a house rule refuses says why (the view's code and params,
worded) and sends nothing; a five alike that would throw Double Generala away is asked
about first; a score-sheet game's last entry is undone after the end."""
from test_ui_controller import controller_module, start  # noqa: F401

SEED = 50512  # one side: the first roll is 4-4-4-4-4; turn 2 (keep 1-4, roll twice) 6-6-6-6-6
HOUSE = {"served_win_choice": True, "double_after_generala": True}


def five_alike_in_turn_two(game, engine):
    for req in ({"op": "roll"}, {"op": "score", "box": "fours"}, {"op": "roll"},
                {"op": "hold", "dice": [1, 2, 3, 4]}, {"op": "roll"}, {"op": "roll"}):
        game.act(req)
        engine.deliver()
    assert game.view["dice"] == [6, 6, 6, 6, 6]


def test_the_served_win_is_taken_only_when_offered(controller_module):
    game, parts, _, _ = start(controller_module, seed=SEED, options=HOUSE)
    engine = parts["engine"]
    game.take_win()  # before the roll: nothing offered, nothing sent
    assert engine.sent[-1]["op"] == "new"
    game.roll()
    engine.deliver()
    assert game.view["can_take_win"] and not game.view["over"]
    game.take_win()
    assert engine.sent[-1] == {"op": "win"}
    engine.deliver()
    assert game.view["over"] and game.view["auto_win"]["kind"] == "served-generala"


def test_a_refused_box_says_why_and_sends_nothing(controller_module):
    game, parts, _, _ = start(controller_module, seed=SEED, options=HOUSE)
    engine, screen = parts["engine"], parts["screen"]
    told = []
    screen.message = lambda text, kind="info": told.append((text, kind))
    five_alike_in_turn_two(game, engine)
    sent = len(engine.sent)
    game.pick_box("double-generala")
    assert len(engine.sent) == sent and not screen.asked
    assert told == [("Five alike cannot go into Double Generala while Generala is open.", "error")]


def test_without_the_rule_throwing_double_generala_away_is_asked_first(controller_module):
    game, parts, _, _ = start(controller_module, seed=SEED, options={"served_win_choice": True})
    engine, screen = parts["engine"], parts["screen"]
    five_alike_in_turn_two(game, engine)
    sent = len(engine.sent)
    game.pick_box("double-generala")
    assert len(engine.sent) == sent
    text, confirm = screen.asked[-1]
    assert text.startswith("Write 0 (—) in Double Generala? It earns points only once Generala holds points")
    confirm()
    assert engine.sent[-1] == {"op": "score", "box": "double-generala", "scratch": True}


def test_a_score_sheet_entry_that_ended_the_game_is_undone(controller_module):
    game, parts, features, _ = start(controller_module, sheet=True, seed=None)
    engine = parts["engine"]
    features.sheet = True
    game.act({"op": "enter", "dice": [4, 4, 4, 4, 4], "at": 1})
    engine.deliver()
    assert game.view["over"] and game.view["can_undo"]
    game.undo()
    assert engine.sent[-1] == {"op": "undo"}
    engine.deliver()
    assert not game.view["over"] and game.view["can_enter"]


def test_a_score_sheet_game_takes_the_served_win_too(controller_module):
    game, parts, features, _ = start(controller_module, sheet=True, seed=None, options=HOUSE)
    engine = parts["engine"]
    features.sheet = True  # rolls and holds are the table's: the win is still the player's
    game.act({"op": "enter", "dice": [4, 4, 4, 4, 4], "at": 1})
    engine.deliver()
    assert game.view["can_take_win"]
    game.take_win()
    assert engine.sent[-1] == {"op": "win"}
