"""Rules that the variant spec holds as data (automatic wins, a box that needs another,
the stake, the mandatory penalty) and that game, solver and coach read from it alone:
a spec changed at test time changes what they do. The changed specs are added under
names of their own, so that nothing cached for the shipped variants sees them."""
import dataclasses

import pytest

from generala import Game, ScriptedRoller, variant
from generala.rules import variants
from generala.ai.model import Model
from generala.ai.solver import solitaire_rules
from generala.rules.variants import AutoWin, Option, Stake


def test_the_shipped_specs_say_which_automatic_win_each_variant_has():
    specs = variants.SPECS
    assert specs["argentine"].auto_win == AutoWin("served-generala", "served_generala_wins",
                                                  forfeit="generala", choice="served_win_choice",
                                                  written="served_generala_written",
                                                  bonus_from="straight")
    assert specs["puerto-rican"].auto_win == AutoWin("big-general", "big_general_wins")
    assert specs["bulgarian"].auto_win is None and specs["double"].auto_win is None
    assert variant("argentine").auto_win.kind == "served-generala"
    assert variant("argentine", served_generala_wins=False).auto_win is None
    assert variant("argentine").needs == {"double-generala": "generala"}
    assert variant("argentine", double_generala=False).needs == {}
    assert variant("puerto-rican", stake_per_point=2).stake == 2 and variant("argentine").stake == 0
    assert variants.SPECS["bulgarian"].penalty == 50


@pytest.fixture
def bulgarian_general_wins(monkeypatch):
    """``bulgarian-wins``: Bulgarian with an automatic win defined in its spec (a served
    General, forfeited by a 0 in the General box) and a stake."""
    spec = variants.SPECS["bulgarian"]
    options = (Option("general_wins", (True, False), "A served General wins."),
               Option("stake", (0,), "Money per point.", number=True))
    monkeypatch.setitem(variants.SPECS, "bulgarian-wins", dataclasses.replace(
        spec, name="bulgarian-wins", options=options,
        auto_win=AutoWin("served-general", "general_wins", forfeit="general"),
        stake=Stake("stake", auto_win_minimum=10)))


def test_a_game_ends_on_the_automatic_win_its_spec_defines(bulgarian_general_wins):
    game = Game(variant("bulgarian-wins", stake=1), ["A", "B"], ScriptedRoller([4, 4, 4, 4, 4]),
                order=[0, 1])
    game.roll()
    assert game.over and game.auto_win == {"side": 0, "kind": "served-general"}
    assert game.settlement() == [{"from": 1, "to": 0, "amount": 10}]
    off = Game(variant("bulgarian-wins", general_wins=False), ["A"], ScriptedRoller([4, 4, 4, 4, 4]))
    off.roll()
    assert not off.over


def test_a_zero_in_the_forfeit_box_forfeits_the_win(bulgarian_general_wins):
    game = Game(variant("bulgarian-wins"), ["A"], ScriptedRoller([1, 2, 3, 5, 6, 4, 4, 4, 4, 4]))
    game.roll()
    game.score("general", scratch=True)
    game.roll()
    assert game.auto_win is None and not game.over


def test_the_solver_plays_without_the_automatic_win_and_the_stake(bulgarian_general_wins):
    solo = solitaire_rules(variant("bulgarian-wins", stake=3))
    assert solo.options == {"general_wins": False, "stake": 0}
    assert solo.auto_win is None


def test_a_box_that_needs_another_is_followed_by_the_model(monkeypatch):
    """The model's extra state follows whichever box the spec says is needed."""
    spec = variants.SPECS["puerto-rican"]
    boxes = tuple(dataclasses.replace(b, needs="four-kind") if b.id == "small-general" else b
                  for b in spec.boxes)
    monkeypatch.setitem(variants.SPECS, "puerto-rican-gated",
                        dataclasses.replace(spec, name="puerto-rican-gated", boxes=boxes))
    rules = variant("puerto-rican-gated", stake_per_point=0.5)
    assert rules.needs == {"small-general": "four-kind"}
    assert rules.score("small-general", [2, 2, 2, 2, 2], roll=2) == 0
    assert rules.score("small-general", [2, 2, 2, 2, 2], roll=2, sheet={"four-kind": 40}) == 60
    model = Model(solitaire_rules(rules))
    assert (model.gate, model.gated) == ("four-kind", "small-general")
    state = (model.bit["four-kind"], 1)
    assert model.option((0, 0), "four-kind", (2, 2, 2, 2, 3), False) == (40, state)
    assert model.option((0, 0), "small-general", (2, 2, 2, 2, 2), False)[0] == 0
    assert model.option(state, "small-general", (2, 2, 2, 2, 2), False)[0] == 60
    assert model.after_zero(state, "four-kind") == (model.bit["four-kind"], 0)
