"""The house rules beyond the seeds (docs/house-rules.md): each option in a rolled game, in a
score-sheet game, in the solver's values where it changes them, and in the coach's advice;
and the score-sheet correction after the end (RULES.md, Undo).
"""
import pytest

from generala import Game, IllegalAction, ScriptedRoller, app, variant
from generala.ai import coach, players
from generala.ai.model import Model
from generala.ai.solver import model_for, solitaire_rules, solve, table_name
from generala.ai.tables import register, table_for
from generala.seen.view import view

FIVE = [4, 4, 4, 4, 4]
FOURS_AND_ONE = [4, 4, 4, 4, 1]
NOTHING = [1, 2, 3, 5, 5]


def rolled(dice=(), name="argentine", sides=("Ana",), **options):
    """A rolled game whose dice are scripted (one side: no roll-off)."""
    return Game(variant(name, **options), list(sides), ScriptedRoller(list(dice)))


def sheet_game(name="argentine", sides=("Ana",), **options):
    """A score-sheet game: the table throws real dice, entered by hand."""
    return Game(variant(name, **options), list(sides), None, order=list(range(len(sides))))


def cell(v, box, side=None):
    row = next(r for r in v["rows"] if r["box"] == box)
    return row["cells"][v["current"] if side is None else side]


def defaults_unchanged(name):
    rules = variant(name)
    return all(v == opt.default for (_, v), opt in zip(rules.option_values, rules.spec.options))


# --- defaults: today's rules ------------------------------------------------------------

def test_the_new_options_default_to_the_rules_as_they_were():
    rules = variant("argentine")
    assert rules.options["combination_points"] == "20-30-40"
    assert rules.options["five_alike_four_kind"] is True
    for name in ("served_generala_bonus", "served_win_choice", "served_generala_written",
                 "generala_scratch_last", "double_after_generala"):
        assert rules.options[name] is False
    assert variant("puerto-rican").options["five_alike_full_house"] is False
    assert table_name(variant("argentine")) == "argentine.gvt"
    assert table_name(variant("puerto-rican")) == "puerto-rican.gvt"


# --- 1. a served five alike wins only when the player takes it ----------------------------

def test_option_1_rolled_the_win_is_offered_and_can_be_declined():
    g = rolled(FIVE, served_win_choice=True)
    g.roll()
    assert not g.over and g.auto_win is None and g.win_offered
    v = view(g)
    assert v["can_take_win"] and cell(v, "fours")["playable"]
    g.score("fours")  # declined: written elsewhere, the game goes on
    assert g.sheet(0)["fours"] == 20 and not g.over and g.auto_win is None


def test_option_1_rolled_taking_the_win_ends_the_game_and_undo_cannot_take_it_back():
    g = rolled(FIVE, sides=("Ana",), served_win_choice=True)
    g.roll()
    g.take_win()
    assert g.over and g.auto_win == {"side": 0, "kind": "served-generala"}
    assert g.history[-1] == {"win": True}
    assert not g.can_undo  # a rolled game: nothing once it is over
    loaded = Game.from_json(g.to_json())
    assert loaded.over and loaded.auto_win == g.auto_win


def test_option_1_the_offer_needs_the_first_roll_and_goes_with_it():
    g = rolled([4, 4, 4, 4, 1, 4], served_win_choice=True)
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    assert g.dice == (4, 4, 4, 4, 4) and not g.win_offered and not view(g)["can_take_win"]
    with pytest.raises(IllegalAction) as err:
        g.take_win()
    assert err.value.code == "win.not_offered"


def test_option_1_off_the_served_generala_still_ends_the_game_at_once():
    g = rolled(FIVE)
    g.roll()
    assert g.over and not view(g)["can_take_win"]


def test_option_1_score_sheet_entered_five_alike_offers_the_win():
    g = sheet_game(sides=("Ana", "Ben"), served_win_choice=True)
    g.enter(FIVE, 1)
    assert not g.over and g.win_offered
    g.score("four-kind")
    assert g.sheet(0)["four-kind"] == 45 and g.current == 1


def test_option_1_the_computer_and_the_coach_take_the_win():
    rules = variant("argentine", served_win_choice=True)
    g = Game(rules, ["Ana", "Ben"], ScriptedRoller([1, 1, 1, 1, 1, 6, 6, 6, 6, 6] + FIVE), )
    g.roll()
    for level in ("beginner", "heuristic", "optimal", "expert"):
        assert players.make_player(level, rules).choose(g) == {"win": True}
    hint = coach.hint(g)
    assert hint[0]["kind"] == "win" and hint[0]["action"] == {"win": True} and hint[0]["loss"] == 0
    assert coach.cost(g, {"win": True}) == 0


def test_option_1_through_the_worker_protocol():
    s = app.Session()
    reply = s.handle({"op": "new", "variant": "argentine", "options": {"served_win_choice": True},
                      "sheet": True, "sides": ["Ana", "Ben"]})
    assert reply["ok"]
    reply = s.handle({"op": "enter", "dice": FIVE, "at": 1})
    assert reply["view"]["can_take_win"] and not reply["view"]["over"]
    reply = s.handle({"op": "win"})
    assert reply["ok"] and reply["view"]["over"]
    assert [e["kind"] for e in reply["view"]["events"]][:1] == ["auto_win"]
    refused = s.handle({"op": "win"})
    assert not refused["ok"] and refused["code"] == "game.over"


# --- 2. a winning served Generala is written on the sheet ---------------------------------

def test_option_2_rolled_the_winning_generala_is_written_with_the_served_bonus():
    g = rolled(FIVE, served_generala_written=True)
    g.roll()
    assert g.over and g.sheet(0)["generala"] == 55
    assert g.auto_win == {"side": 0, "kind": "served-generala", "box": "generala", "points": 55}
    assert g.totals() == [55]


def test_option_2_with_generala_filled_it_goes_to_double_generala():
    g = rolled([3, 3, 3, 3, 1, 3, 3, 3, 3, 3, 3], served_generala_written=True, served_bonus=10)
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()  # not served: an ordinary Generala
    g.score("generala")
    g.roll()
    assert g.over and g.sheet(0)["double-generala"] == 110


def test_option_2_score_sheet_and_undo_of_the_entry():
    g = sheet_game(sides=("Ana", "Ben"), served_generala_written=True)
    g.enter(FIVE, 1)
    assert g.over and g.sheet(0)["generala"] == 55
    g.undo()
    assert not g.over and g.sheet(0)["generala"] is None and g.history == [{"order": [0, 1]}]


def test_option_2_off_the_winner_column_can_read_0():
    g = rolled(FIVE)
    g.roll()
    assert g.over and g.sheet(0)["generala"] is None and g.totals() == [0]


def test_options_1_and_2_the_taken_win_is_written():
    g = rolled(FIVE, served_win_choice=True, served_generala_written=True)
    g.roll()
    g.take_win()
    assert g.sheet(0)["generala"] == 55


def test_option_2_does_not_change_the_solver():
    assert solitaire_rules(variant("argentine", served_generala_written=True)) == solitaire_rules(
        variant("argentine"))


# --- 3. the served bonus on a Generala that does not win ----------------------------------

def test_option_3_rolled_a_served_generala_earns_the_bonus_when_it_does_not_win():
    g = rolled(FIVE, served_generala_wins=False, served_generala_bonus=True)
    g.roll()
    assert not g.over and g.preview()["generala"] == 55
    g.score("generala")
    assert g.sheet(0)["generala"] == 55
    later = rolled([4, 4, 4, 4, 1, 4], served_generala_wins=False, served_generala_bonus=True)
    later.roll()
    later.hold([0, 1, 2, 3])
    later.roll()
    assert later.preview()["generala"] == 50  # not served: no bonus


def test_option_3_score_sheet():
    g = sheet_game(served_generala_wins=False, served_generala_bonus=True, served_bonus=10)
    g.enter(FIVE, 1)
    assert g.score("generala") == 60


def test_option_3_does_nothing_while_the_served_generala_wins():
    rules = variant("argentine", served_generala_bonus=True)
    assert rules.score("generala", FIVE, roll=1) == 50
    assert solitaire_rules(rules) == solitaire_rules(variant("argentine"))


def test_option_3_solver_values_change():
    base = variant("argentine", served_generala_wins=False)
    bonus = variant("argentine", served_generala_wins=False, served_generala_bonus=True)
    assert table_name(bonus) == "argentine.served_generala_bonus_on.gvt"
    model = model_for(bonus)
    assert max(model.served["generala"]) == 55 and max(model.later["generala"]) == 50
    assert solve(bonus).value > table_for(base).value


# --- 4. Generala scratched only after Double Generala ------------------------------------

def test_option_4_rolled_generala_cannot_be_scratched_while_double_is_open():
    g = rolled(NOTHING * 2, generala_scratch_last=True)
    g.roll()
    for scratch in (True, False):
        with pytest.raises(IllegalAction) as err:
            g.score("generala", scratch=scratch)
        assert err.value.code == "box.scratch_last"
        assert err.value.params == {"box": "generala", "after": "double-generala"}
    v = view(g)
    assert "generala" not in v["scorable"]
    assert cell(v, "generala")["refused"] == {"code": "box.scratch_last",
                                              "params": {"box": "generala", "after": "double-generala"}}
    assert "generala" not in g.preview()
    g.score("double-generala")  # the big box first
    g.roll()
    g.score("generala", scratch=True)
    assert g.sheet(0)["generala"] == 0


def test_option_4_five_alike_still_goes_into_generala_and_without_double_it_does_nothing():
    g = rolled(FIVE, generala_scratch_last=True, served_generala_wins=False)
    g.roll()
    assert g.score("generala") == 50
    g = rolled(NOTHING, generala_scratch_last=True, double_generala=False)
    g.roll()
    g.score("generala", scratch=True)


def test_option_4_score_sheet():
    g = sheet_game(generala_scratch_last=True)
    g.enter(NOTHING, 3)
    with pytest.raises(IllegalAction, match="generala can be scratched only once double-generala"):
        g.score("generala", scratch=True)
    assert view(g)["scorable"] == [b for b in g.rules.categories if b != "generala"]


def solved_values(rules):
    """Backward induction with the model of exactly ``rules`` (not the solver's solitaire
    rules, which leave options 4 and 5 out): every state's value."""
    model = Model(rules)
    V = [0.0] * len(model.states)
    for mask in model.masks_desc:
        for x in model.xs_of[mask]:
            if mask != model.full:
                V[model.index[(mask, x)]] = model.turn((mask, x), V, model.index)
    return model, V


@pytest.mark.parametrize("option", ["generala_scratch_last", "double_after_generala"])
def test_options_4_and_5_refuse_only_moves_the_optimum_never_makes(option):
    """The solver uses the default table for them: solved with the refusals in the model,
    every state's value is the same as without them."""
    rules = variant("argentine", served_generala_wins=False, **{option: True})
    model, V = solved_values(rules)
    assert model._refusals  # the model does refuse the moves
    _, default = solved_values(variant("argentine", served_generala_wins=False))
    assert V == pytest.approx(default, abs=1e-9)
    assert table_name(variant("argentine", **{option: True})) == "argentine.gvt"


def test_option_4_solver_and_coach_never_offer_the_refused_scratch():
    rules = variant("argentine", generala_scratch_last=True)
    g = Game(rules, ["Ana"], ScriptedRoller(NOTHING * 3))
    g.roll()
    boxes = [c.boxes for c in coach.advisor(rules).choices(g) if c.kind == "score"]
    assert ("generala",) not in boxes and ("double-generala",) in boxes
    assert all(h["boxes"] != ["generala"] for h in coach.hint(g, top=50))
    default = Game(variant("argentine"), ["Ana"], ScriptedRoller(NOTHING * 3))
    default.roll()
    assert ("generala",) in [c.boxes for c in coach.advisor(variant("argentine")).choices(default)]
    for level in ("beginner", "heuristic", "optimal", "expert"):
        assert players.make_player(level, rules).choose(g).get("score") != "generala"


# --- 5. five alike refused in Double Generala while Generala is open ----------------------

def test_option_5_rolled_refused_with_the_reason():
    g = rolled([4, 4, 4, 4, 1, 4], double_after_generala=True)
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    with pytest.raises(IllegalAction) as err:
        g.score("double-generala")
    assert (err.value.code, err.value.params) == ("box.needs_first",
                                                  {"box": "double-generala", "needs": "generala"})
    with pytest.raises(IllegalAction):
        g.score("double-generala", scratch=True)
    v = view(g)
    assert cell(v, "double-generala")["refused"]["code"] == "box.needs_first"
    assert "double-generala" not in v["scorable"]


def test_option_5_off_the_board_asks_before_the_box_is_thrown_away():
    g = rolled([4, 4, 4, 4, 1, 4])
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    c = cell(view(g), "double-generala")
    assert c["playable"] and c["scratch"] and c["throws_away"] == "generala"
    assert "throws_away" not in cell(view(g), "fours")
    assert g.score("double-generala") == 0  # accepted: 0 written


def test_option_5_other_dice_may_still_scratch_double_and_a_scratched_generala_frees_it():
    g = rolled(NOTHING + NOTHING + [2, 2, 2, 2, 1, 2], double_after_generala=True)
    g.roll()
    g.score("double-generala", scratch=True)
    assert g.sheet(0)["double-generala"] == 0
    g = rolled(NOTHING + [2, 2, 2, 2, 1, 2], double_after_generala=True)
    g.roll()
    g.score("generala", scratch=True)
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    assert g.score("double-generala") == 0  # Generala is not open: nothing to wait for


def test_option_5_score_sheet_refusal_through_the_worker():
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "options": {"double_after_generala": True},
              "sheet": True, "sides": ["Ana"]})
    reply = s.handle({"op": "enter", "dice": FIVE, "at": 2})
    assert cell(reply["view"], "double-generala")["refused"]["params"]["needs"] == "generala"
    reply = s.handle({"op": "score", "box": "double-generala"})
    assert not reply["ok"] and reply["code"] == "box.needs_first"


def test_option_5_solver_and_coach():
    rules = variant("argentine", double_after_generala=True)
    g = Game(rules, ["Ana"], ScriptedRoller([4, 4, 4, 4, 1, 4]))
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    assert all(h["boxes"] != ["double-generala"] for h in coach.hint(g, top=50))
    assert ("double-generala",) not in [c.boxes for c in coach.advisor(rules).choices(g)]
    for level in ("beginner", "heuristic", "optimal", "expert"):
        action = players.make_player(level, rules).choose(g)
        assert action.get("score") != "double-generala"


# --- 6. five alike is a full house (Puerto Rican) ----------------------------------------

def test_option_6_rolled_and_score_sheet():
    g = rolled([4, 4, 4, 4, 1, 4], name="puerto-rican", five_alike_full_house=True)
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    assert g.score("full-house") == 30
    default = rolled([4, 4, 4, 4, 1, 4], name="puerto-rican")
    default.roll()
    default.hold([0, 1, 2, 3])
    default.roll()
    assert default.preview()["full-house"] == 0
    s = sheet_game(name="puerto-rican", five_alike_full_house=True, big_general_wins=False)
    s.enter(FIVE, 1)
    assert s.score("full-house") == 35  # served


def test_option_6_solver_values_and_coach():
    rules = variant("puerto-rican", five_alike_full_house=True)
    assert table_name(rules) == "puerto-rican.five_alike_full_house_on.gvt"
    table = register(solve(rules))
    assert table.value > table_for(variant("puerto-rican")).value
    g = Game(rules, ["Ana"], ScriptedRoller([4, 4, 4, 4, 1, 4]))
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    full = next(h for h in coach.hint(g, top=20) if h["boxes"] == ["full-house"])
    assert full["action"] == {"score": "full-house"}  # it scores: not a scratch


# --- 7. five alike is not four of a kind --------------------------------------------------

def test_option_7_rolled_and_score_sheet():
    g = rolled([4, 4, 4, 4, 1, 4], five_alike_four_kind=False)
    g.roll()
    assert g.preview()["four-kind"] == 45  # four alike: served
    g.hold([0, 1, 2, 3])
    g.roll()
    assert g.preview()["four-kind"] == 0
    s = sheet_game(five_alike_four_kind=False)
    s.enter(FIVE, 3)
    assert s.score("four-kind") == 0


def test_option_7_solver_values_and_coach():
    rules = variant("argentine", five_alike_four_kind=False)
    table = register(solve(rules))
    assert table.value < table_for(variant("argentine")).value
    g = Game(rules, ["Ana"], ScriptedRoller([4, 4, 4, 4, 1, 4]))
    g.roll()
    g.hold([0, 1, 2, 3])
    g.roll()
    four = next(h for h in coach.hint(g, top=20) if h["boxes"] == ["four-kind"])
    assert four["action"] == {"score": "four-kind", "scratch": True}


# --- 8. the points of the combinations ----------------------------------------------------

@pytest.mark.parametrize("choice, straight, full, four, generala, double, bonus", [
    ("20-30-40", 20, 30, 40, 50, 100, 5),
    ("25-35-45", 25, 35, 45, 50, 100, 5),
    ("30-50-80-100-200", 30, 50, 80, 100, 200, 10),
])
def test_option_8_rolled(choice, straight, full, four, generala, double, bonus):
    rules = variant("argentine", combination_points=choice, served_generala_wins=False)
    assert rules.score("straight", [1, 2, 3, 4, 5], roll=2) == straight
    assert rules.score("straight", [1, 2, 3, 4, 5], roll=1) == straight + bonus
    assert rules.score("full-house", [2, 2, 3, 3, 3], roll=2) == full
    assert rules.score("four-kind", FOURS_AND_ONE, roll=1) == four + bonus
    assert rules.score("generala", FIVE, roll=2) == generala
    assert rules.price("double-generala", tuple(FIVE), False, {"generala": generala}) == double
    g = rolled([2, 2, 3, 3, 3], combination_points=choice)
    g.roll()
    assert g.score("full-house") == full + bonus


def test_option_8_score_sheet_and_saves():
    g = sheet_game(sides=("Ana", "Ben"), combination_points="25-35-45")
    g.enter([2, 2, 3, 3, 3], 2)
    assert g.score("full-house") == 35
    doc = g.to_json()
    assert doc["options"]["combination_points"] == "25-35-45"
    assert Game.from_json(doc).sheet(0)["full-house"] == 35


def test_option_8_solver_values_and_coach():
    rules = variant("argentine", combination_points="25-35-45")
    table = register(solve(rules))
    assert table.value == pytest.approx(table_for(variant("argentine")).value + 13.64, abs=0.1)
    g = Game(rules, ["Ana"], ScriptedRoller([2, 2, 3, 3, 3]))
    g.roll()
    assert coach.hint(g)[0]["boxes"] == ["full-house"]


# --- the score-sheet correction after the end ---------------------------------------------

def test_score_sheet_a_served_five_alike_typed_by_mistake_can_be_undone():
    g = sheet_game(sides=("Ana", "Ben"))
    g.enter(FIVE, 1)
    assert g.over and g.can_undo
    v = view(g)
    assert v["can_undo"]
    g.undo()
    assert not g.over and g.current == 0 and view(g)["can_enter"]
    g.enter(FOURS_AND_ONE, 1)
    assert g.score("four-kind") == 45


def test_score_sheet_the_last_box_that_ended_the_game_can_be_undone():
    g = sheet_game(double_generala=False)
    for box in g.rules.categories:
        g.enter(NOTHING, 3)
        g.score(box, scratch=True)
    assert g.over and g.can_undo
    g.undo()
    assert not g.over and g.sheet(0)["generala"] is None


def test_score_sheet_only_the_last_entry_comes_back_after_the_end():
    g = sheet_game(sides=("Ana", "Ben"))
    g.enter(NOTHING, 3)
    g.score("ones")
    g.enter(FIVE, 1)
    g.undo()  # the entry that ended the game
    assert not g.over and g.sheet(0)["ones"] == 1
    assert g.can_undo  # Ana's box, as before the end: the game is no longer over


def test_a_rolled_game_still_cannot_be_undone_after_the_end():
    g = rolled(FIVE)
    g.roll()
    assert g.over and not g.can_undo and not view(g)["can_undo"]
    with pytest.raises(IllegalAction) as err:
        g.undo()
    assert err.value.code == "undo.over"


def test_score_sheet_undo_after_the_end_through_the_worker():
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sheet": True, "sides": ["Ana", "Ben"]})
    reply = s.handle({"op": "enter", "dice": FIVE, "at": 1})
    assert reply["view"]["over"] and reply["view"]["can_undo"]
    reply = s.handle({"op": "undo"})
    assert reply["ok"] and not reply["view"]["over"] and reply["view"]["can_enter"]


# --- saves, links and replays carry the options; old saves load with the defaults ----------

def test_share_links_and_replays_carry_the_options():
    s = app.Session()
    options = {"served_win_choice": True, "double_after_generala": True,
               "combination_points": "30-50-80-100-200"}
    s.handle({"op": "new", "variant": "argentine", "options": options, "sheet": True, "sides": ["Ana"]})
    s.handle({"op": "enter", "dice": FIVE, "at": 1})
    s.handle({"op": "score", "box": "fours"})
    link = s.handle({"op": "share"})["link"]
    replay = s.handle({"op": "replay", "link": link})
    assert replay["ok"]
    for name, value in options.items():
        assert replay["view"]["options"][name] == value
    end = s.handle({"op": "replay_at", "step": 2})
    assert cell(end["view"], "fours", side=0)["value"] == 20


def test_a_save_without_the_new_options_loads_with_the_defaults():
    g = rolled([2, 2, 3, 3, 3])
    g.roll()
    g.score("full-house")
    doc = g.to_json()
    for name in ("combination_points", "five_alike_four_kind", "served_generala_bonus",
                 "served_win_choice", "served_generala_written", "generala_scratch_last",
                 "double_after_generala"):
        del doc["options"][name]
    loaded = Game.from_json(doc)
    assert loaded.rules == variant("argentine") and loaded.sheet(0)["full-house"] == 35


def test_the_command_line_takes_the_win_offered(monkeypatch, capsys):
    from generala import cli
    lines = iter(["r", "w"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert cli.main(["play", "argentine", "Ana", "--seed", "50512", "-o", "served_win_choice=on"]) == 0
    out = capsys.readouterr().out
    assert "the win is offered: w takes it" in out and "Ana wins at once (served-generala)!" in out


def test_a_replay_shows_the_win_taken_and_written():
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sheet": True, "sides": ["Ana", "Beto"],
              "options": {"served_win_choice": True, "served_generala_written": True}})
    s.handle({"op": "enter", "dice": [2, 2, 3, 3, 3], "at": 2})
    s.handle({"op": "score", "box": "full-house"})
    s.handle({"op": "enter", "dice": [5] * 5, "at": 1})
    s.handle({"op": "win"})
    link = s.handle({"op": "share"})["link"]
    steps = s.handle({"op": "replay", "link": link})["view"]["replay"]["steps"]
    end = s.handle({"op": "replay_at", "step": steps})["view"]
    assert end["auto_win"] == {"side": 1, "kind": "served-generala", "box": "generala", "points": 55}
    assert end["last"]["type"] == "auto-win" and [e["kind"] for e in end["events"]] == ["auto_win", "game_over"]
    assert cell(end, "generala", side=1)["value"] == 55
