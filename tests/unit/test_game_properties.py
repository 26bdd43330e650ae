"""Properties of whole games: random legal play for every variant and 1-8 sides.

Like OpenSpiel's conformance test, one generic player makes random legal choices
(drawn by Hypothesis, so failures shrink and print as code) until the end.
"""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generala import VARIANTS, Game, SeededRoller, variant
from generala.rules.errors import IllegalAction
from generala.rules.save import dumps
from generala.seen.view import view

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_action(game, data):
    """Apply one random legal action and return it (as recorded in the history)."""
    rules = game.rules
    choices = ["roll"] if game.rolls < 3 and len(game.held) < rules.dice else []
    if game.rolls:
        choices.append("score")
        if game.rolls < 3:
            choices.append("hold")
    kind = data.draw(st.sampled_from(choices))
    if kind == "roll":
        game.roll()
    elif kind == "hold":
        game.hold(data.draw(st.sets(st.integers(0, rules.dice - 1))))
    else:
        open_boxes = [b for b, v in game.sheet().items() if v is None]
        if rules.boxes_per_turn == 2:
            a, b = data.draw(st.permutations(open_boxes))[:2]
            split = data.draw(st.one_of(st.none(), st.permutations(range(10)).map(lambda p: p[:5])))
            scratch = data.draw(st.sampled_from([False, [False, True], [True, False], [True, True]]))
            game.score(a, b, split=split, scratch=scratch)
        else:
            box = data.draw(st.sampled_from(open_boxes))
            scratch = box not in rules.mandatory and data.draw(st.booleans())
            game.score(box, scratch=scratch)
    return game.history[-1]


games = st.builds(
    lambda name, sides, seed: Game(variant(name), [f"P{i}" for i in range(sides)], SeededRoller(seed)),
    st.sampled_from(VARIANTS), st.integers(1, 8), st.integers(0, 2**32),
)


@FAST
@given(games, st.data())
def test_random_games_end_after_the_right_turns_with_every_box_filled_once(game, data):
    filled = [0] * len(game.sides)
    turns = 0
    while not game.over:
        action = random_action(game, data)
        if "score" in action:
            turns += 1
            side = game.order[(game.turn - 1) % len(game.sides)]
            filled[side] += game.rules.boxes_per_turn
    sides = len(game.sides)
    if game.auto_win is None:
        assert turns == sides * game.rules.turns
        assert all(v is not None for sheet in game.sheets for v in sheet.values())
        assert filled == [len(game.rules.categories)] * sides
    else:
        assert game.rolls == 1 and len(set(game.dice)) == 1
        assert turns < sides * game.rules.turns


@FAST
@given(games, st.data())
def test_saving_and_loading_gives_the_same_game(game, data):
    for _ in range(data.draw(st.integers(0, 60))):
        if game.over:
            break
        random_action(game, data)
    doc = game.to_json()
    loaded = Game.from_json(json.loads(json.dumps(doc)))
    assert loaded.to_json() == doc
    assert (loaded.dice, loaded.held, loaded.rolls, loaded.current, loaded.sheets) == (
        game.dice, game.held, game.rolls, game.current, game.sheets)
    if not game.over:  # the reloaded game rolls the very same dice
        if loaded.rolls < 3 and len(loaded.held) < loaded.rules.dice:
            assert loaded.roll() == game.roll()


@FAST
@given(games, st.data())
def test_an_undone_hold_or_box_restores_the_game_exactly_and_a_roll_is_never_undone(game, data):
    for _ in range(data.draw(st.integers(0, 40))):
        if game.over:
            break
        random_action(game, data)
    if game.over:
        assert not game.can_undo
        return
    before = dumps(game)
    action = random_action(game, data)
    # every side a person on one device: a box that passes the turn to another side is final
    passed = "score" in action and len(game.sides) > 1
    if "roll" in action or game.over or passed:
        assert not game.can_undo
        with pytest.raises(IllegalAction):
            game.undo()
    else:
        assert game.can_undo
        game.undo()
        assert dumps(game) == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.data())
def test_no_sequence_of_offered_actions_shows_a_die_before_it_is_rolled(game, data):
    """Random play with undos interleaved wherever the view offers one: the roller only
    moves forward, so every die a player sees is drawn once, at a position never shown
    before, and undo is never offered once the game is over."""
    shown = {}  # roller position -> the die shown there
    position = game.drawn
    while not game.over:
        if view(game)["can_undo"] and data.draw(st.booleans()):
            assert game.can_undo
            game.undo()
            assert game.drawn == position  # an undo never rewinds the roller
            continue
        before, held = game.drawn, game.held
        action = random_action(game, data)
        if "roll" in action:
            assert before == position  # fresh positions only
            free = [i for i in range(game.rules.dice) if i not in held]
            for offset, i in enumerate(free):
                assert before + offset not in shown
                shown[before + offset] = action["roll"][i]
            position = game.drawn
        else:
            assert game.drawn == position
    assert not game.can_undo and not view(game)["can_undo"]
    with pytest.raises(IllegalAction):
        game.undo()
