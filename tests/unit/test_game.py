"""Scenario tests of the game state machine, with scripted dice."""
import json

import pytest

from generala import Game, IllegalAction, InvalidInput, ScriptedRoller, Side, variant


def game(name="argentine", sides=("Ana",), dice=(), **options):
    return Game(variant(name, **options), list(sides), ScriptedRoller(dice))


def snapshot(g):
    return json.dumps(g.to_json(), sort_keys=True), g.dice, g.held, g.rolls, g.turn


# --- roll-off ------------------------------------------------------------------

def test_rolloff_orders_every_side_by_lowest_total_first():
    g = game("puerto-rican", ["A", "B", "C"], [6] * 5 + [1] * 5 + [3] * 5)
    assert g.order == (1, 2, 0)
    assert g.current == 1


def test_rolloff_ties_roll_again_among_the_tied_only():
    # A and B tie on 10; C is lowest; A and B roll again: B lower.
    dice = [2] * 5 + [2] * 5 + [1] * 5 + [6] * 5 + [1] * 5
    g = game("argentine", ["A", "B", "C"], dice)
    assert g.order == (2, 1, 0)
    assert [len(a["rolloff"]) for a in g.history] == [3, 2]


def test_bulgarian_rolloff_highest_die_starts_then_seating_order():
    g = game("bulgarian", ["A", "B", "C", "D"], [2, 5, 5, 1, 3, 6])
    assert g.history[0] == {"rolloff": [[0, [2]], [1, [5]], [2, [5]], [3, [1]]]}
    assert g.history[1] == {"rolloff": [[1, [3]], [2, [6]]]}
    assert g.order == (2, 3, 0, 1)


def test_double_rolloff_uses_the_ten_dice():
    g = game("double", ["A", "B"], [6] * 10 + [1] * 10)
    assert g.order == (1, 0)


def test_single_side_has_no_rolloff():
    assert game(dice=[1] * 5).history == []


# --- turns -----------------------------------------------------------------------

def test_held_dice_stay_and_the_others_are_rolled():
    g = game(dice=[1, 2, 3, 4, 5, 6, 6, 6])
    assert g.roll() == (1, 2, 3, 4, 5)
    g.hold([0, 1])
    assert g.roll() == (1, 2, 6, 6, 6)
    assert g.rolls_left == 1


def test_team_members_take_the_sides_turns_in_rotation():
    team = Side("Tigres", ("Beto", "Caro"))
    g = Game(variant("argentine"), [team], ScriptedRoller([1, 2, 3, 4, 6] * 3))
    players = []
    for box in ("ones", "twos", "threes"):
        players.append(g.player)
        g.roll()
        g.score(box)
    assert players == ["Beto", "Caro", "Beto"]


def test_turn_passes_in_roll_off_order():
    g = game("puerto-rican", ["A", "B"], [6] * 5 + [1] * 5 + [2, 3, 4, 6, 6] * 2)
    assert g.current == 1
    g.roll()
    g.score("sixes")
    assert g.current == 0 and g.round == 1
    g.roll()
    g.score("sixes")
    assert g.current == 1 and g.round == 2


def test_game_ends_after_every_box_is_filled():
    g = game("puerto-rican", dice=[2, 3, 4, 6, 6] * 10)
    for box in g.rules.categories:
        g.roll()
        g.score(box)
    assert g.over and g.current is None
    assert g.totals() == [2 + 3 + 4 + 12]


# --- illegal actions leave the game unchanged ------------------------------------------

@pytest.mark.parametrize("act, error", [
    (lambda g: g.hold([0]), IllegalAction),              # hold before the first roll
    (lambda g: g.score("ones"), IllegalAction),          # score before rolling
    (lambda g: g.score("nonsense"), InvalidInput),
])
def test_illegal_actions_before_rolling_change_nothing(act, error):
    g = game(dice=[1] * 5)
    before = snapshot(g)
    with pytest.raises(error):
        act(g)
    assert snapshot(g) == before


def test_fourth_roll_is_refused():
    g = game(dice=[1, 2, 3, 4, 6] * 4)
    for _ in range(3):
        g.roll()
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="three rolls"):
        g.roll()
    with pytest.raises(IllegalAction):
        g.hold([1])
    assert snapshot(g) == before


def test_filled_box_cannot_be_scored_again():
    g = game(dice=[1, 2, 3, 4, 6] * 2)
    g.roll()
    g.score("ones")
    g.roll()
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="already filled"):
        g.score("ones")
    assert snapshot(g) == before


def test_hold_positions_are_checked():
    g = game(dice=[1, 2, 3, 4, 6])
    g.roll()
    for bad in ([5], [-1], ["0"], [True]):
        with pytest.raises(InvalidInput):
            g.hold(bad)
    assert g.held == frozenset()


def test_rolling_with_every_die_held_is_refused():
    g = game(dice=[1, 2, 3, 4, 6])
    g.roll()
    g.hold(range(5))
    with pytest.raises(IllegalAction, match="held"):
        g.roll()


def test_acting_after_the_end_is_refused():
    g = game("puerto-rican", ["A", "B"], [6] * 5 + [1] * 5 + [4] * 5)
    g.roll()  # Big General
    before = snapshot(g)
    for act in (g.roll, lambda: g.score("fours"), lambda: g.hold([0])):
        with pytest.raises(IllegalAction, match="over"):
            act()
    assert snapshot(g) == before


def test_bulgarian_mandatory_box_cannot_be_scratched_but_takes_negative_points():
    g = game("bulgarian", dice=[2, 2, 3, 4, 5] * 2)
    g.roll()
    with pytest.raises(IllegalAction, match="mandatory"):
        g.score("ones", scratch=True)
    assert g.score("ones") == -3
    g.roll()
    assert g.score("pair", scratch=True) == 0


def test_scratch_writes_zero_even_when_the_dice_earn_points():
    g = game(dice=[6, 6, 6, 6, 6], served_generala_wins=False)
    g.roll()
    assert g.preview()["sixes"] == 30
    assert g.score("sixes", scratch=True) == 0
    assert g.history[-1] == {"score": "sixes", "scratch": True}


# --- automatic wins ------------------------------------------------------------------------

def test_served_generala_wins_at_once():
    g = game("argentine", ["A", "B"], [1] * 5 + [6] * 5 + [3] * 5)
    g.roll()
    assert g.over and g.auto_win == {"side": 0, "kind": "served-generala"}
    assert g.ranking() == [1, 2]


def test_served_generala_wins_even_with_points_in_the_generala_box():
    g = game(dice=[2] * 5 + [2, 2, 2, 2, 3] + [2] * 5)
    g.roll()
    assert g.over  # served on the first turn
    g = game(dice=[2, 2, 2, 2, 3, 2] + [4] * 5)
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()  # five alike on the second roll: no win
    assert not g.over
    assert g.score("generala") == 50
    g.roll()
    assert g.auto_win == {"side": 0, "kind": "served-generala"}


def test_scratched_generala_forfeits_the_served_win():
    g = game(dice=[1, 2, 3, 4, 6] + [5] * 5)
    g.roll()
    g.score("generala", scratch=True)
    g.roll()
    assert not g.over
    assert g.preview()["double-generala"] == 0


def test_served_generala_without_the_option_scores_points_without_bonus():
    g = game(dice=[5] * 5, served_generala_wins=False)
    g.roll()
    assert not g.over
    assert g.score("generala") == 50


def test_big_general_wins_whatever_the_sheet_holds_and_not_when_off():
    g = game("puerto-rican", dice=[3] * 5)
    g.roll()
    assert g.auto_win == {"side": 0, "kind": "big-general"}
    g = game("puerto-rican", dice=[3] * 5, big_general_wins=False)
    g.roll()
    assert not g.over and g.score("small-general") == 60


def test_double_has_no_automatic_win():
    g = game("double", dice=[4] * 10)
    g.roll()
    assert not g.over


# --- ten dice ---------------------------------------------------------------------------

def test_double_fills_two_boxes_with_the_best_split_by_default():
    g = game("double", dice=[1, 2, 3, 4, 5, 2, 3, 4, 5, 6])
    g.roll()
    assert g.score("small-general", "big-general") == 51
    assert g.sheet(0)["small-general"] == 21 and g.sheet(0)["big-general"] == 30
    assert g.history[-1] == {"score": ["small-general", "big-general"], "split": [0, 1, 2, 3, 4]}


def test_double_split_chosen_by_the_player():
    g = game("double", dice=[6, 6, 6, 6, 6, 1, 1, 1, 2, 2])
    g.roll()
    assert g.score("ones", "sixes", split=[0, 1, 5, 6, 7]) == 3 + 18
    assert g.turn == 1


@pytest.mark.parametrize("split", [[0, 1, 2, 3], [0, 1, 2, 3, 4, 5], [0, 0, 1, 2, 3], [0, 1, 2, 3, 10]])
def test_a_split_that_is_not_five_and_five_is_refused(split):
    g = game("double", dice=[6] * 10)
    g.roll()
    before = snapshot(g)
    with pytest.raises(IllegalAction):
        g.score("ones", "sixes", split=split)
    assert snapshot(g) == before


def test_double_needs_two_different_boxes():
    g = game("double", dice=[6] * 10)
    g.roll()
    with pytest.raises(InvalidInput):
        g.score("sixes", "sixes")
    with pytest.raises(InvalidInput):
        g.score("sixes")


# --- undo ------------------------------------------------------------------------------

def test_undo_takes_back_holds_and_the_box_just_filled_but_never_a_roll():
    g = game(sides=[{"name": "A", "player": "ai:beginner"}, "B"], dice=[6] * 5 + [1] * 5 + [1, 2, 3, 4, 6] * 4)
    g.roll()
    states = [snapshot(g)]
    g.hold([3, 4])
    states.append(snapshot(g))
    g.hold([1])
    states.append(snapshot(g))
    g.score("fours")
    for expected in reversed(states):
        g.undo()
        assert snapshot(g) == expected
    assert not g.can_undo
    with pytest.raises(IllegalAction, match="roll cannot be undone"):
        g.undo()


def test_a_roll_is_final_so_its_dice_are_never_drawn_again():
    from generala import SeededRoller
    g = Game(variant("argentine"), ["A"], SeededRoller(11))
    g.roll()
    g.hold([0])
    g.roll()
    g.hold([0, 1])
    g.undo()  # the hold goes; the second roll stays
    assert g.rolls == 2 and g.drawn == 9
    with pytest.raises(IllegalAction):
        g.undo()


def test_the_box_just_filled_is_undone_only_until_the_next_roll():
    g = game(sides=[{"name": "A", "player": "ai:beginner"}, "B"],
             dice=[6] * 5 + [1] * 5 + [1, 2, 3, 4, 6] + [2, 3, 4, 5, 5])
    g.roll()
    g.score("sixes")
    assert g.can_undo
    g.roll()  # the next side rolls: the previous box is final now
    assert not g.can_undo
    with pytest.raises(IllegalAction):
        g.undo()


def test_no_undo_once_the_game_is_over():
    g = game(dice=[1, 2, 3, 4, 6] * 11)
    for box in g.rules.categories:
        g.roll()
        g.score(box)
    assert g.over and not g.can_undo
    with pytest.raises(IllegalAction, match="over"):
        g.undo()


def test_nothing_to_undo_at_the_start():
    with pytest.raises(IllegalAction):
        game(dice=[1] * 5).undo()


# --- results -----------------------------------------------------------------------------

def test_ranking_shares_places():
    from generala import ranking
    assert ranking([10, 30, 30, 5]) == [3, 1, 1, 4]
    assert ranking([7]) == [1]


def test_puerto_rican_settlement_pays_the_difference_times_the_stake():
    g = game("puerto-rican", ["A", "B"], [6] * 5 + [1] * 5 + [2, 3, 4, 6, 6] * 20,
             stake_per_point=0.5, big_general_wins=False)
    while not g.over:
        g.roll()
        box = next(b for b in g.rules.categories if g.sheet()[b] is None)
        g.score(box if g.current == 0 else box)
    assert g.settlement() == []  # equal totals: nobody pays
    g = game("puerto-rican", ["A", "B"], [6] * 5 + [1] * 5 + [6] * 5, stake_per_point=2)
    g.roll()  # B's Big General
    assert g.settlement() == [{"from": 0, "to": 1, "amount": 200}]


def test_settlement_after_a_normal_end():
    g = game("puerto-rican", ["A", "B"], [1] * 5 + [6] * 5 + [2, 3, 4, 6, 6] * 20,
             stake_per_point=1)
    while not g.over:
        g.roll()
        sheet = g.sheet()
        box = next(b for b in g.rules.categories if sheet[b] is None)
        # A (plays first) fills boxes in order; B scratches everything.
        g.score(box, scratch=g.current == 1)
    totals = g.totals()
    assert totals[1] == 0 and totals[0] > 0
    assert g.settlement() == [{"from": 1, "to": 0, "amount": totals[0]}]


def test_no_settlement_without_a_stake_or_before_the_end():
    g = game("puerto-rican", ["A", "B"], [6] * 5 + [1] * 5 + [2, 3, 4, 6, 6])
    assert g.settlement() == []


def test_side_names_are_trimmed_text_of_limited_length():
    assert Side("  Ana   María ").name == "Ana María"
    with pytest.raises(InvalidInput):
        Side("   ")
    with pytest.raises(InvalidInput):
        Side("x" * 25)
    with pytest.raises(InvalidInput):
        game(sides=[])
    with pytest.raises(InvalidInput):
        game(sides=[f"P{i}" for i in range(9)])


def test_repr_of_rules_pastes_back():
    import generala
    rules = variant("argentine", served_bonus=10, straight_wrap=False)
    assert eval(repr(rules), {"generala": generala}) == rules


def test_tied_winners_share_what_each_other_side_pays_once():
    # Four sides; roll-off dice put them in seat order. A and C fill boxes alike and tie
    # for first; B scratches everything; D scratches all but Ones.
    rolloff = [1] * 5 + [2] * 5 + [3] * 5 + [4] * 5
    g = game("puerto-rican", ["A", "B", "C", "D"], rolloff + [1, 1, 3, 4, 6] * 40,
             stake_per_point=1, big_general_wins=False)
    assert g.order == (0, 1, 2, 3)
    while not g.over:
        g.roll()
        box = next(b for b in g.rules.categories if g.sheet()[b] is None)
        g.score(box, scratch=g.current == 1 or (g.current == 3 and box != "ones"))
    totals = g.totals()
    assert totals[0] == totals[2] > totals[3] == 2 > totals[1] == 0
    paid = {(p["from"], p["to"]): p["amount"] for p in g.settlement()}
    assert paid == {(1, 0): totals[0] / 2, (1, 2): totals[0] / 2,
                    (3, 0): (totals[0] - 2) / 2, (3, 2): (totals[0] - 2) / 2}
    # Each loser pays its difference once in all, not once to each winner.
    assert paid[(1, 0)] + paid[(1, 2)] == totals[0] - totals[1]


def test_a_big_general_collects_at_least_100_points_from_a_side_that_was_ahead():
    rolloff = [1] * 5 + [6] * 5  # A plays first
    g = game("puerto-rican", ["A", "B"], rolloff + [2, 3, 4, 5, 6] + [4, 4, 4, 4, 1] + [3, 3, 3, 2, 1] + [6] * 5,
             stake_per_point=0.5)
    g.roll()
    g.score("straight")  # A: 25
    g.roll()
    g.score("fours")  # B: 16
    g.roll()
    g.score("threes")  # A: 34 in all
    g.roll()  # B's Big General, 18 points behind A
    assert g.over and g.auto_win == {"side": 1, "kind": "big-general"}
    assert g.settlement() == [{"from": 0, "to": 1, "amount": 50}]  # 0.5 x max(-18, 100)


def test_bulgarian_decisions():
    b = variant("bulgarian")
    assert b.score("two-pairs", [6, 6, 6, 5, 5]) == 22  # a full house is two pairs
    assert b.score("two-pairs", [4, 4, 4, 4, 2]) == 0 and b.score("two-pairs", [3] * 5) == 0
    assert b.score("general", [3] * 5) == 65  # the premium belongs to the General box
    assert [b.score(box, [3] * 5) for box in ("pair", "three-kind", "four-kind", "chance", "full-house")] == [
        6, 9, 12, 15, 0]
    assert b.score("ones", [2, 2, 3, 4, 5]) == -3 and b.score("sixes", [6] * 5) == 12
    sheet = dict.fromkeys(b.categories)
    sheet.update(ones=-3, twos=2, chance=20)
    assert b.subtotals(sheet) == {"mandatory": -1, "penalty": -50, "combinations": 20, "total": -31}
    sheet.update(threes=3)
    assert b.subtotals(sheet)["penalty"] == 0  # 0 and up: no penalty
    g = game("bulgarian", ["A"], [1, 1, 2, 3, 4])
    g.roll()
    for box in b.mandatory:
        with pytest.raises(IllegalAction, match="mandatory"):
            g.score(box, scratch=True)
    assert g.score("ones") == -1
