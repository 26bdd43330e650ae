"""Actions as values (generala/rules/actions.py) and Game.legal_actions(): an action's repr builds
it again, its JSON is the history's entry, and the actions listed as legal are exactly
those the game takes (property-based, every variant, rolled and score-sheet games). The
golden examples at the end are written from the rule book (RULES.md): turns played with
known dice, the history entries they record and the points the book gives them."""
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


# --- golden examples, written from the rule book (RULES.md), not from the code ---------------
# Each turn is played with scripted dice; the expected history entries are the formats the
# save document records (generala/rules/game.py lists them) and the points are RULES.md's.

def refusal(game, action):
    with pytest.raises(GeneralaError) as err:
        game.play(action)
    return err.value.code


ROLLOFF = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]  # the lowest sum starts: the first side (6 against 29)


def raised(game, action):
    with pytest.raises(GeneralaError) as err:
        game.play(action)
    return err.value


def test_golden_an_argentine_turn_hold_roll_and_a_number_box():
    """Roll all dice, hold any subset, roll the rest; 4-4-4-2-6 gives 12 in Fours."""
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller([4, 4, 1, 2, 6, 4]))
    plays = [Roll(), Hold((0, 1, 3, 4)), Roll(), Score("fours")]
    for action in plays:
        g.play(action)
    assert g.history == [{"roll": [4, 4, 1, 2, 6]}, {"hold": [0, 1, 3, 4]}, {"roll": [4, 4, 4, 2, 6]},
                         {"score": "fours"}]
    assert g.sheets[0]["fours"] == 12
    assert [action_from_json(e) for e in g.history] == [Roll((4, 4, 1, 2, 6)), Hold((0, 1, 3, 4)),
                                                        Roll((4, 4, 4, 2, 6)), Score("fours")]


@pytest.mark.parametrize("box, points", [("fours", 12), ("twos", 2), ("sixes", 6), ("generala", 0)])
def test_golden_the_same_dice_in_other_boxes(box, points):
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller([4, 4, 4, 2, 6]))
    g.play(Roll())
    g.play(g.fill_action(box))
    assert g.sheets[0][box] == points
    assert g.history[-1] == ({"score": box} if points else {"score": box, "scratch": True})


def test_golden_three_rolls_at_most_and_holding_every_die_is_no_roll():
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller([1, 2, 3, 5, 6] * 3))
    g.play(Roll())
    g.play(Hold((0, 1, 2, 3, 4)))  # holding all is the same as stopping: no roll is left to make
    assert refusal(g, Roll()) == "roll.all_held"
    g.play(Hold(()))
    g.play(Roll())
    g.play(Roll())
    assert refusal(g, Roll()) == "roll.none_left" and g.rolls == 3
    assert g.history.count({"hold": []}) == 1 and sum("roll" in e for e in g.history) == 3


def test_golden_a_box_may_be_scratched_by_choice_and_a_filled_box_never_changes():
    """Scratched: 0 written by the player's choice, even where the dice earn points."""
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller([6, 6, 6, 2, 3] * 2))
    g.play(Roll())
    g.play(Score("sixes", scratch=True))
    assert g.history[-1] == {"score": "sixes", "scratch": True} and g.sheets[0]["sixes"] == 0
    g.play(Roll())
    assert refusal(g, Score("sixes")) == "box.filled"


def test_golden_undo_takes_back_a_hold_or_the_box_just_filled_never_a_roll():
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller([4, 4, 1, 2, 6, 4]))
    g.play(Roll())
    assert refusal(g, Undo()) == "undo.roll"
    g.play(Hold((0, 1)))
    g.play(Undo())
    assert g.history == [{"roll": [4, 4, 1, 2, 6]}] and g.held == frozenset()
    g.play(Score("fours"))
    g.play(Undo())
    assert g.history == [{"roll": [4, 4, 1, 2, 6]}] and g.sheets[0]["fours"] is None


def test_golden_undo_never_takes_back_a_computers_box():
    """The hand-over makes a box final, "as it already is after a computer's turn"."""
    g = Game(variant("argentine"), [{"name": "Bot", "player": "ai:beginner"}, "Ana"],
             ScriptedRoller([3, 3, 3, 1, 2]), rolloff=False)
    g.play(Roll())
    g.play(Score("threes"))
    assert Undo() not in g.legal_actions()
    assert refusal(g, Undo()) == "undo.computer" and g.sheets[0]["threes"] == 9


def test_golden_hot_seat_undo_stays_in_its_own_turn():
    """On one device, a person's box is final once another person's turn has begun: Undo
    then offers nothing and is refused, saying whose turn it is; a hold of the side to play
    is still undone."""
    g = Game(variant("argentine"), ["Ana", "Beto"], ScriptedRoller(ROLLOFF + [3, 3, 3, 1, 2, 4, 4, 1, 2, 6]))
    g.play(Roll())
    g.play(Score("threes"))
    assert g.current == 1 and Undo() not in g.legal_actions()
    err = raised(g, Undo())
    assert (err.code, err.params) == ("undo.turn_passed", {"side": 0, "name": "Ana", "next_name": "Beto"})
    assert g.sheets[0]["threes"] == 9
    g.play(Roll())
    g.play(Hold((0, 1)))
    assert Undo() in g.legal_actions()
    g.play(Undo())
    assert g.held == frozenset() and g.sheets[0]["threes"] == 9


def test_golden_undo_before_the_computers_turn_solo_and_by_link_keep_their_rule():
    """Solo, the side plays on: its box is undone. Against the computer, the person's box is
    undone before the computer's turn. A game by link (one_device False) leaves its undo to
    the devices (modes/linkgame.py: only a move not yet sent)."""
    solo = Game(variant("argentine"), ["Ana"], ScriptedRoller([3, 3, 3, 1, 2]))
    solo.play(Roll())
    solo.play(Score("threes"))
    solo.play(Undo())
    assert solo.sheets[0]["threes"] is None
    bot = Game(variant("argentine"), ["Ana", {"name": "Bot", "player": "ai:beginner"}],
               ScriptedRoller(ROLLOFF + [3, 3, 3, 1, 2]))
    bot.play(Roll())
    bot.play(Score("threes"))
    assert Undo() in bot.legal_actions()
    bot.play(Undo())
    assert bot.sheets[0]["threes"] is None and bot.current == 0
    linked = Game(variant("argentine"), ["Ana", "Beto"], ScriptedRoller(ROLLOFF + [3, 3, 3, 1, 2]))
    linked.one_device = False
    linked.play(Roll())
    linked.play(Score("threes"))
    assert Undo() in linked.legal_actions()


@pytest.mark.parametrize("dice, roll, points", [((3, 4, 5, 6, 1), 1, 25), ((1, 2, 3, 4, 5), 2, 20)])
def test_golden_argentine_straight_served_and_later(dice, roll, points):
    """Straight: 20, served 20 + the bonus (5 by default); 3-4-5-6-1 is one."""
    g = Game(variant("argentine"), ["Ana"], ScriptedRoller([2, 2, 2, 2, 3, *dice][5 * (roll == 1):]))
    g.play(Roll())
    if roll == 2:
        g.play(Roll())
    g.play(Score("straight"))
    assert g.sheets[0]["straight"] == points


def test_golden_double_fills_two_boxes_with_a_split_of_ten_dice():
    """Small General (1-2-3-4-5) 21, Big General (2-3-4-5-6) 30; either box may be a scratch."""
    dice = [1, 2, 3, 4, 5, 2, 3, 4, 5, 6]
    g = Game(variant("double"), ["Ana"], ScriptedRoller(dice * 2))
    g.play(Roll())
    g.play(ScoreTwo(("small-general", "big-general"), (0, 1, 2, 3, 4)))
    assert g.history[-1] == {"score": ["small-general", "big-general"], "split": [0, 1, 2, 3, 4]}
    assert (g.sheets[0]["small-general"], g.sheets[0]["big-general"]) == (21, 30)
    g.play(Roll())
    g.play(ScoreTwo(("ones", "sixes"), (0, 1, 2, 3, 4), (False, True)))
    assert g.history[-1] == {"score": ["ones", "sixes"], "split": [0, 1, 2, 3, 4], "scratch": [False, True]}
    assert (g.sheets[0]["ones"], g.sheets[0]["sixes"]) == (1, 0)


def test_golden_bulgarian_mandatory_boxes_take_their_points_and_are_never_scratched():
    """(n - 3) x face: no one among 2-3-4-5-6 is -3 in Ones; a mandatory box is never scratched."""
    g = Game(variant("bulgarian"), ["Ana"], ScriptedRoller([2, 3, 4, 5, 6]))
    g.play(Roll())
    assert Score("ones", scratch=True) not in g.legal_actions()
    assert refusal(g, Score("ones", scratch=True)) == "box.mandatory"
    g.play(Score("ones"))
    assert g.history[-1] == {"score": "ones"} and g.sheets[0]["ones"] == -3


def test_golden_a_score_sheet_turn_enters_the_dice_thrown_at_the_table():
    g = Game(variant("argentine"), ["Ana", "Beto"], None, order=[0, 1])
    g.play(Enter((4, 4, 4, 2, 6), 2))
    g.play(Score("fours"))
    assert g.history == [{"order": [0, 1]}, {"enter": [4, 4, 4, 2, 6], "at": 2}, {"score": "fours"}]
    assert g.sheets[0]["fours"] == 12 and g.current == 1
