"""Actions as values (generala/rules/actions.py) and Game.legal_actions(): an action's repr builds
it again, its JSON is the history's entry, and the actions listed as legal are exactly
those the game takes (property-based, every variant, rolled and score-sheet games)."""
import copy
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generala import VARIANTS, Game, ScriptedRoller, SeededRoller, app, variant
from generala.rules import actions
from generala.rules.actions import (Enter, Hold, Order, Roll, RollOff, Score, ScoreTwo, TakeWin, Toggle, Undo,
                              action_from_json)
from generala.rules.errors import GeneralaError, InvalidInput
from generala.ai.strategies import chase, step

SAMPLES = [Roll(), Roll((1, 2, 3, 4, 5)), Hold((0, 3)), Toggle(2), Score("fours"), Score("generala", scratch=True),
           ScoreTwo(("ones", "fives")), ScoreTwo(("ones", "fives"), (0, 2, 4, 6, 8), (False, True)),
           Enter((4, 4, 1, 2, 6), 2), Undo(), RollOff(((0, (1, 2, 3, 4, 5)), (1, (6, 6, 6, 6, 6)))), Order((1, 0))]


@pytest.mark.parametrize("action", SAMPLES, ids=repr)
def test_the_repr_is_python_that_builds_the_action_again(action):
    assert eval(repr(action), vars(actions)) == action


@pytest.mark.parametrize("action", SAMPLES, ids=repr)
def test_json_and_back(action):
    doc = action.to_json()
    assert action_from_json(doc) == action
    assert actions.Action.from_json(doc) == action


def finished(name, sides=2, seed=4, sheet=False):
    if sheet:
        g = Game(variant(name), [f"P{i}" for i in range(sides)], None, order=list(range(sides)))
        dice = [6, 6, 2, 3, 4, 5, 1, 1, 1, 2][:g.rules.dice]
        while not g.over:
            g.enter(dice, 2)
            g.play(g.legal_actions()[-1] if isinstance(g.legal_actions()[-1], (Score, ScoreTwo))
                   else next(a for a in g.legal_actions() if isinstance(a, (Score, ScoreTwo))))
        return g
    g = Game(variant(name), [f"P{i}" for i in range(sides)], SeededRoller(seed))
    while not g.over:
        step(g, chase)
    return g


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("sheet", [False, True])
def test_every_history_entry_round_trips(name, sheet):
    g = finished(name, sheet=sheet)
    for entry in g.history:
        action = action_from_json(entry)
        assert action.to_json() == entry
    replayed = Game(g.rules, g.sides, None, rolloff=False)
    replayed.replay([action_from_json(e).to_json() for e in g.history])
    assert replayed.history == g.history and replayed.totals() == g.totals()


def test_apply_takes_the_history_s_turn_actions_only():
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller([1, 2, 3, 4, 5] * 3))
    g.apply({"roll": None})  # the roller gives the dice
    assert g.dice == (1, 2, 3, 4, 5)
    for not_recorded in ({"toggle": 0}, {"undo": True}, {"order": [0]}, {"rolloff": [[0, [1, 1, 1, 1, 1]]]}):
        with pytest.raises(InvalidInput) as err:
            g.apply(not_recorded)
        assert err.value.code == "action.unknown"
    assert g.play(Toggle(1)) == frozenset({1}) and g.history[-1] == {"hold": [1]}
    g.play(Undo())
    assert g.held == frozenset() and g.history[-1] == {"roll": [1, 2, 3, 4, 5]}
    with pytest.raises(InvalidInput):
        g.play("roll")


def candidates(game):
    """Every action that could be asked of this game now (a universe to test legality in)."""
    rules = game.rules
    out = [Roll(), Undo(), Enter(), TakeWin()]
    out += [Toggle(i) for i in range(rules.dice)]
    if rules.boxes_per_turn == 1:
        out += [Score(b, scratch) for b in rules.categories for scratch in (False, True)]
    else:
        out += [ScoreTwo(pair) for pair in permutations(rules.categories, 2)]
    return out


def takes(game, action):
    trial = copy.deepcopy(game, {id(game.rules): game.rules, id(game.roller): game.roller})
    if isinstance(action, Enter):
        action = Enter(tuple([3] * game.rules.dice), 2)  # any dice may be entered
    try:
        trial.play(action)
        return True
    except GeneralaError:
        return False


def same(a, b):
    """Two actions are the same choice (a pair of boxes in either order)."""
    if isinstance(a, ScoreTwo) and isinstance(b, ScoreTwo):
        return set(a.boxes) == set(b.boxes)
    return a == b


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(1, 3), st.booleans(), st.integers(0, 2**32), st.data())
def test_legal_actions_are_exactly_the_actions_the_game_takes(name, sides, sheet, seed, data):
    if sheet:
        game = Game(variant(name), [f"P{i}" for i in range(sides)], None, order=list(range(sides)))
    else:
        game = Game(variant(name), [f"P{i}" for i in range(sides)], SeededRoller(seed))
    for _ in range(25):
        legal = game.legal_actions()
        assert len(legal) == len(set(legal))
        for action in candidates(game):
            listed = any(same(action, other) for other in legal)
            assert listed == takes(game, action), (action, listed)
        if game.over:
            # a score-sheet game's last entry may still be undone (RULES.md, Undo)
            assert legal == ([Undo()] if sheet else [])
            break
        action = data.draw(st.sampled_from(legal))
        if isinstance(action, Enter):
            action = Enter(tuple(data.draw(st.lists(st.integers(1, 6), min_size=game.rules.dice,
                                                    max_size=game.rules.dice))), data.draw(st.integers(1, 3)))
        game.play(action)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.booleans(), st.integers(0, 2**32), st.data())
def test_the_request_of_each_legal_action_is_taken_by_the_app(name, sheet, seed, data):
    session = app.Session()
    req = {"op": "new", "variant": name, "sides": ["Ana", "Beto"]}
    req.update({"sheet": True} if sheet else {"seed": seed})
    assert session.handle(req)["ok"]
    for _ in range(25):
        game = session.game
        if game.over:
            break
        action = data.draw(st.sampled_from(game.legal_actions()))
        request = action.to_request()
        if isinstance(action, Enter):
            request["dice"] = [data.draw(st.integers(1, 6)) for _ in range(game.rules.dice)]
        reply = session.handle(request)
        assert reply["ok"], (request, reply)
