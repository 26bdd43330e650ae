"""Computer players play legal full games; the coach's numbers agree with the players."""
import pytest

from generala import Game, SeededRoller, variant
from generala.ai import coach
from generala.ai.players import LEVELS, ROLL, OptimalPlayer, make_player, play, step
from generala.ai.solver import solitaire_rules
from generala.ai.tables import TABLES_DIR, table_for
from generala.ai.solver import table_name

VARIANT_OPTIONS = [
    ("argentine", {}), ("argentine", {"double_generala": False, "served_bonus": 10}),
    ("puerto-rican", {}), ("puerto-rican", {"aces_wild": False}), ("double", {}), ("bulgarian", {}),
]


def have_table(rules):
    return (TABLES_DIR / table_name(solitaire_rules(rules))).is_file()


def levels_for(rules):
    if rules.name == "bulgarian" and not have_table(rules):
        return ["beginner", "heuristic"]  # the optimal table takes minutes to solve
    return list(LEVELS)


@pytest.mark.parametrize("name,options", VARIANT_OPTIONS)
def test_every_level_plays_legal_full_games(name, options):
    rules = variant(name, **options)
    levels = levels_for(rules)
    players = [make_player(level, rules) for level in levels]
    for seed in range(2):
        game = Game(rules, [f"p{i}" for i in range(len(players))], SeededRoller(seed))
        play(game, players)  # every action goes through the engine's checks
        assert game.over
        if game.auto_win is None:
            assert all(v is not None for sheet in game.sheets for v in sheet.values())
        # replaying the history gives the same game
        again = Game.from_json(game.to_json())
        assert again.totals() == game.totals()


def test_solo_game_for_each_level_and_teams():
    rules = variant("puerto-rican", big_general_wins=False)
    for level in LEVELS:
        game = Game(rules, [{"name": "T", "members": ["a", "b"]}], SeededRoller(7))
        play(game, [make_player(level, rules)])
        assert game.over and game.totals()[0] > 0


def test_players_hold_then_roll_and_never_hold_everything():
    rules = variant("argentine")
    player = make_player("optimal", rules)
    game = Game(rules, ["a"], SeededRoller(3))
    for _ in range(60):
        if game.over:
            break
        action = player.choose(game)
        if "hold" in action:
            assert len(action["hold"]) < rules.dice
            step(game, player)
            assert player.choose(game) == ROLL or "score" in player.choose(game)
        else:
            step(game, player)


def test_optimal_follows_the_hint_and_costs_nothing():
    rules = variant("argentine", served_generala_wins=False)
    player = OptimalPlayer(rules)
    game = Game(rules, ["a"], SeededRoller(11))
    for _ in range(40):
        if game.over:
            break
        if game.rolls:
            hints = coach.hint(game, top=3)
            assert hints[0]["loss"] == 0
            assert [h["expected"] for h in hints] == sorted((h["expected"] for h in hints), reverse=True)
            action = player.choose(game)
            assert coach.cost(game, action) == pytest.approx(0, abs=1e-9)
        step(game, player)


def test_hint_values_are_the_solved_value_at_the_start():
    rules = variant("puerto-rican")
    game = Game(rules, ["a"], SeededRoller(1))
    assert coach.hint(game)[0]["expected"] == pytest.approx(table_for(rules).value, abs=1e-4)


def test_report_luck_and_skill_add_up():
    rules = variant("argentine", served_generala_wins=False)
    players = [make_player("beginner", rules), make_player("optimal", rules)]
    game = Game(rules, ["b", "o"], SeededRoller(2))
    play(game, players)
    rep = coach.report(game)
    start = table_for(rules).value
    for side in rep["sides"]:
        assert side["final"] == pytest.approx(start + side["luck"] - side["skill_loss"], abs=1e-3)
        assert all(d["loss"] >= 0 for d in side["decisions"])
    assert rep["sides"][1]["skill_loss"] == pytest.approx(0, abs=1e-6)
    assert rep["sides"][0]["skill_loss"] > 0


def test_cost_of_a_bad_scratch_is_positive():
    rules = variant("argentine", served_generala_wins=False)
    game = Game(rules, ["a"], SeededRoller(0))
    game.roll([6, 6, 6, 6, 2])
    game.hold([0, 1, 2, 3])
    game.roll([6, 6, 6, 6, 6])
    game.hold([0, 1, 2, 3, 4])
    assert coach.cost(game, {"score": "generala"}) == pytest.approx(0, abs=1e-9)
    assert coach.cost(game, {"score": "ones", "scratch": True}) > 40
    assert coach.cost(game, {"roll": None}) == pytest.approx(0.0, abs=1e-9)  # all held: stopping


def test_double_hint_and_split_action():
    rules = variant("double")
    game = Game(rules, ["a"], SeededRoller(4))
    game.roll()
    game.roll()
    game.roll()
    hints = coach.hint(game, top=2)
    action = hints[0]["action"]
    assert "split" in action and len(action["split"]) == 5
    assert coach.cost(game, action) == pytest.approx(0, abs=1e-9)
    step(game, make_player("optimal", rules))
    assert game.turn == 1


def test_unknown_level():
    with pytest.raises(ValueError):
        make_player("grandmaster", variant("double"))


def test_expert_last_turn_law_matches_the_rules_oracle():
    from generala.ai.players import ExpertPlayer
    rules = variant("argentine")
    expert = ExpertPlayer(rules)
    model = expert.advisor.model
    law = dict(expert._last_turn_law((model.full ^ model.bit["generala"], 0)))
    # RULES.md: five alike within three rolls, keeping the most common face
    assert law[50] == pytest.approx(2783176 / 60466176, abs=1e-12)
    sixes = (model.full ^ model.bit["sixes"], 0)
    law = expert._last_turn_law(sixes)
    assert sum(p for _, p in law) == pytest.approx(1)
    assert sum(v * p for v, p in law) == pytest.approx(expert.advisor.table.state_value(sixes), abs=1e-3)


def test_expert_against_a_finished_side_plays_for_the_points_it_needs():
    """Last box 'generala' open, behind by 30 against a finished side: the only way to win
    is five alike, so it keeps the most common face even where the optimal player might not."""
    from generala.ai.players import ExpertPlayer
    rules = variant("argentine", served_generala_wins=False)
    expert = ExpertPlayer(rules)
    game = Game(rules, ["a", "b"], SeededRoller(0), rolloff=False)
    for box in rules.categories:
        game.sheets[0][box] = 0  # side a has finished: 30 points
        if box != "generala":
            game.sheets[1][box] = 0  # side b (to play): only Generala open, 0 points
    game.sheets[0]["sixes"] = 30
    game.turn = 1  # side b to play its last turn
    assert game.current == 1
    game.roll([2, 2, 5, 5, 5])
    assert expert.choose(game) == {"hold": [2, 3, 4]}
    game.hold([2, 3, 4])
    game.roll([4, 5, 5, 5, 5])
    assert expert.choose(game) == {"hold": [1, 2, 3, 4]}
