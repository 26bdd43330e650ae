"""Bots (generala/modes/bots.py): the view a bot gets, the moves it may answer, the errors that
stop a run (with the bot's traceback and the position), the results, the command line."""
import json
import subprocess
import sys

import pytest

from generala import app
from generala.modes import bots
from generala.rules.game import Game
from generala.rules.roller import SeededRoller
from generala.rules.variants import VARIANTS

LAZY = bots.example_source("lazy")


def game_at_first_roll(name="argentine", seed=3):
    game = Game(bots.lab_rules(name), ["bot"], SeededRoller(seed))
    game.apply({"roll": None})
    return game


def test_the_examples_run_in_every_game_and_the_planner_beats_the_lazy_bot():
    for name in VARIANTS:
        means = {ex: bots.run(bots.example_source(ex), name, 60, seed=5)["mean"]
                 for ex in bots.EXAMPLES}
        assert means["planner"] > means["lazy"], (name, means)


def test_the_lazy_bot_is_two_lines():
    assert len(LAZY.strip().splitlines()) == 2


def test_same_source_same_seed_same_results():
    a = bots.run(bots.example_source("chase"), "argentine", 50, seed=9)
    b = bots.run(bots.example_source("chase"), "argentine", 50, seed=9)
    a.pop("seconds"), b.pop("seconds"), a.pop("games_per_second"), b.pop("games_per_second")
    a.pop("bot_seconds"), b.pop("bot_seconds")
    assert a == b


def test_the_turn_is_a_plain_view():
    game = game_at_first_roll()
    turn = bots.Turn(game)
    assert turn.game == "argentine" and turn.roll == 1 and turn.rolls_left == 2
    assert turn.dice == game.dice and len(turn.open_boxes) == 11
    assert turn.scores == game.preview() and turn.others == [] and turn.turn == 1
    turn.sheet["ones"] = 5  # a copy
    assert game.sheets[0]["ones"] is None


def test_ten_dice_scores_are_the_most_five_of_them_earn():
    game = game_at_first_roll("double")
    turn = bots.Turn(game)
    assert set(turn.scores) == set(game.rules.categories)
    face = max(game.dice, key=game.dice.count)
    assert turn.scores[bots_box(face)] == face * min(5, game.dice.count(face))
    a, b, five = turn.best()
    assert a in turn.open_boxes and b in turn.open_boxes and len(five) == 5


def bots_box(face):
    return ["ones", "twos", "threes", "fours", "fives", "sixes"][face - 1]


@pytest.mark.parametrize("move, kind", [
    ("no-such-box", "illegal"),
    (["ones"], "illegal"),            # a list of str: two boxes, not for five dice
    ([7], "illegal"),                 # not among the dice
    (3.5, "illegal"),
    (None, "illegal"),
])
def test_illegal_answers_are_refused_with_a_message(move, kind):
    game = game_at_first_roll()
    with pytest.raises(bots.BotError) as err:
        bots.to_action(game, move)
    assert err.value.kind == kind and err.value.message


def test_keeping_every_die_or_keeping_with_no_rolls_left_is_illegal():
    game = game_at_first_roll()
    with pytest.raises(bots.BotError, match="every die"):
        bots.to_action(game, list(game.dice))
    game.apply({"roll": None})
    game.apply({"roll": None})
    with pytest.raises(bots.BotError, match="no rolls left"):
        bots.to_action(game, [])


def test_a_filled_box_is_illegal_and_a_box_worth_nothing_is_a_scratch():
    game = game_at_first_roll()
    zero = next(b for b, p in game.preview().items() if p == 0)
    action = bots.to_action(game, zero)
    assert action == {"score": zero, "scratch": True}
    game.apply(action)
    game.apply({"roll": None})
    with pytest.raises(bots.BotError, match="already filled"):
        bots.to_action(game, zero)


def test_ten_dice_take_two_boxes_and_an_optional_split():
    game = game_at_first_roll("double")
    with pytest.raises(bots.BotError, match="two boxes"):
        bots.to_action(game, "sixes")
    best = bots.to_action(game, ("sixes", "fives"))
    assert best["score"] == ["sixes", "fives"]
    five = list(game.dice[:5])
    chosen = bots.to_action(game, ("sixes", "fives", five))
    assert sorted(game.dice[i] for i in chosen["split"]) == sorted(five)
    with pytest.raises(bots.BotError, match="five dice"):
        bots.to_action(game, ("sixes", "fives", five[:4]))
    with pytest.raises(bots.BotError, match="twice"):
        bots.to_action(game, ("sixes", "sixes"))


def run_error(source, game="argentine", **kw):
    with pytest.raises(bots.BotError) as err:
        bots.run(source, game, 5, **kw)
    return err.value


def test_an_exception_stops_the_run_with_the_bots_traceback_and_the_position():
    err = run_error("def play(turn):\n    return helper(turn)\n\ndef helper(turn):\n    return 1 / 0\n")
    assert err.kind == "exception" and err.message.startswith("ZeroDivisionError")
    assert 'File "bot.py", line 5, in helper' in err.trace and "generala" not in err.trace
    assert err.position["game"] == 1 and err.position["turn"] == 1 and len(err.position["dice"]) == 5


def test_an_illegal_move_stops_the_run_with_what_was_returned():
    err = run_error("def play(turn):\n    return 'sevens'\n")
    assert err.kind == "illegal" and "'sevens' is not a box" in err.message
    assert err.position["returned"] == "'sevens'"


def test_a_slow_move_is_a_timeout_measured_by_the_clock():
    ticks = iter(range(0, 10**6, 2))  # every move "takes" 2 s
    err = run_error(LAZY, clock=lambda: next(ticks))
    assert err.kind == "timeout" and "more than 1 s" in err.message


def test_the_alarm_guard_interrupts_a_move_that_never_ends():
    err = run_error("def play(turn):\n    while True:\n        pass\n", guard=bots.alarm_guard(),
                    limit=0.2)
    assert err.kind == "timeout" and 'File "bot.py", line 2, in play' in err.trace


def test_a_file_that_fails_to_load_or_has_no_bot():
    assert run_error("def play(turn)\n").kind == "load"
    assert "neither" in run_error("x = 1\n").message
    assert "ValueError" in run_error("raise ValueError('at import')\n").message


def test_a_class_bot_is_made_again_for_each_game():
    source = ("made = []\nclass Bot:\n    def __init__(self):\n        made.append(1)\n"
              "    def play(self, turn):\n        assert len(made) <= 3\n        return turn.best()\n")
    assert bots.run(source, "argentine", 3)["games"] == 3
    assert run_error(source.replace("<= 3", "<= 2"), "argentine").position["game"] == 3


def test_results_hold_the_mean_the_references_a_histogram_and_each_box():
    r = bots.run(bots.example_source("chase"), "puerto-rican", 100, seed=1)
    assert r["games"] == 100 and r["se"] > 0
    assert r["reference"] == bots.REFERENCE["puerto-rican"]
    assert sum(b["count"] for b in r["histogram"]) == 100
    assert r["histogram"][0]["from"] <= r["min"] and r["histogram"][-1]["to"] > r["max"]
    assert [b["box"] for b in r["boxes"]] == list(bots.lab_rules("puerto-rican").categories)
    assert all(0 <= b["scratched"] <= 1 for b in r["boxes"])
    total = sum(b["mean"] for b in r["boxes"])
    assert abs(total - r["mean"]) < 0.01 * 11


def test_the_sandbox_functions_run_in_slices_answer_moves_not_figures_and_report_errors():
    assert bots.start(LAZY, "argentine", 30)["done"] == 0
    moves, out = [], {"done": 0}
    while out["done"] < 30:
        out = bots.advance(0.001)
        assert set(out) == {"done", "games", "moves"}  # no figures: the engine counts
        moves += out["moves"]
        assert len(moves) == out["done"]
    counted = bots.tally_results(bots.tally(bots.new_tally("argentine", 0), moves))
    assert counted["mean"] == bots.run(LAZY, "argentine", 30)["mean"]
    assert bots.start("def play(t): return 0\n", "argentine", 30)["done"] == 0
    assert bots.advance()["error"]["kind"] == "illegal"
    assert bots.start("nope(", "argentine", 30)["error"]["kind"] == "load"


@pytest.mark.parametrize("name", VARIANTS)
def test_the_engine_counts_a_run_from_its_moves_as_the_run_itself_does(name):
    source = bots.example_source("planner")
    run = bots.Run(source, name, 40, seed=11, record=True)
    run.step(3600.0)
    moves = run.take_moves()
    assert len(moves) == 40 and run.take_moves() == []
    state = bots.new_tally(name, 11)
    for first in range(0, 40, 15):  # in parts, as the page sends them
        state = bots.check_tally(json.loads(json.dumps(bots.tally(state, moves[first:first + 15]))))
    counted, played = bots.tally_results(state, 2.0), run.results()
    for key in ("games", "mean", "stdev", "se", "min", "max", "reference", "histogram", "boxes"):
        assert counted[key] == played[key], key
    assert counted["seconds"] == 2.0 and counted["bot_seconds"] is None


def game_moves(name="argentine", seed=3):
    """The moves of game 0 of a run of the chase example, and the replayed game."""
    run = bots.Run(bots.example_source("chase"), name, 1, seed=seed, record=True)
    run.step(3600.0)
    text = run.take_moves()[0]
    return text, bots.replay_game(bots.lab_rules(name), seed, 0, text)


def test_a_move_is_one_short_token_and_its_game_replays_to_the_same_end():
    for name in VARIANTS:
        text, game = game_moves(name)
        tokens = text.split(".")
        assert all(0 < len(t) <= 5 and t.isalnum() and t == t.lower() for t in tokens)
        assert game.over
        played = bots.Run(bots.example_source("chase"), name, 1, seed=3)
        played.step(3600.0)
        assert game.totals()[0] == played.totals[0]


@pytest.mark.parametrize("change, said", [
    (lambda t: t.rsplit(".", 1)[0], "end before the game"),
    (lambda t: t + ".2", "after the end"),
    (lambda t: "zz." + t, "names no box"),
    (lambda t: "-1." + t, "is not a move"),
    (lambda t: "1q." + t, "every die is kept"),       # 31 << 1 = 62: the five dice kept
    (lambda t: "1234567890." + t, "is not a move"),  # too long
])
def test_moves_the_game_does_not_allow_are_refused_with_the_position(change, said):
    text, _ = game_moves()
    with pytest.raises(bots.BotError) as err:
        bots.replay_game(bots.lab_rules("argentine"), 3, 0, change(text))
    assert err.value.kind == "illegal" and said in err.value.message
    assert err.value.position["seed"] == 3 and err.value.position["game"] == 1


def test_a_box_filled_twice_or_dice_kept_with_no_roll_left_are_refused():
    rules = bots.lab_rules("argentine")
    fill_ones = bots.move_code(rules, {"score": "ones"})
    with pytest.raises(bots.BotError, match="already filled"):
        bots.replay_game(rules, 0, 0, ".".join([fill_ones] * 11))
    keep_none = bots.move_code(rules, {"keep": []})
    with pytest.raises(bots.BotError, match="no rolls left"):
        bots.replay_game(rules, 0, 0, ".".join([keep_none] * 3))
    ten = bots.lab_rules("double")
    with pytest.raises(bots.BotError, match="five dice each"):
        bots.replay_game(ten, 0, 0, bots.move_code(ten, {"score": ["ones", "twos"], "split": [0, 1]}))


def test_a_tally_that_is_not_one_is_refused():
    good = bots.tally(bots.new_tally("argentine", 0), [game_moves(seed=0)[0]])
    assert bots.check_tally(good) == good
    for bad in ({**good, "games": 2}, {**good, "game": "chess"}, {**good, "points": good["points"][:3]},
                {**good, "extra": 1}, [], {**good, "totals": {"x": 1}}):
        with pytest.raises(ValueError):
            bots.check_tally(bad)


def test_choose_answers_one_move_of_a_seat_in_a_game():
    game = Game(bots.lab_rules("argentine"), ["a", "b"], SeededRoller(4))
    game.apply({"roll": None})
    state = {"game": "argentine", "dice": list(game.dice), "rolls": 1,
             "sheets": game.sheets, "side": game.current}
    move = bots.choose(LAZY, state)["move"]
    assert "score" in move
    game.apply(move)
    assert bots.choose("def play(t): return 1/0\n", state)["error"]["kind"] == "exception"


def test_simulate_bot_on_the_command_line(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(LAZY)
    out = subprocess.run([sys.executable, "-m", "generala", "simulate", "argentine", "--bot",
                          str(path), "-n", "40", "--seed", "2"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["mean"] == bots.run(LAZY, "argentine", 40, seed=2)["mean"]
    path.write_text("def play(turn):\n    return 'x'\n")
    out = subprocess.run([sys.executable, "-m", "generala", "simulate", "argentine", "--bot",
                          str(path), "-n", "4"], capture_output=True, text=True)
    assert out.returncode == 3 and "illegal" in out.stderr and "dice:" in out.stderr


def test_simulate_bot_says_the_file_runs_with_your_rights_and_its_prints_go_to_stderr(tmp_path):
    path = tmp_path / "chatty.py"
    path.write_text("print('loading')\n\ndef play(turn):\n    print('my move', turn.roll)\n"
                    "    return turn.best()\n")
    out = subprocess.run([sys.executable, "-m", "generala", "simulate", "argentine", "--bot",
                          str(path), "-n", "5"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["games"] == 5  # stdout is the JSON alone
    assert "loading" in out.stderr and out.stderr.count("my move 1") == 5 * 11
    assert f"{path} runs as Python with your rights" in out.stderr.splitlines()[0]
    helped = subprocess.run([sys.executable, "-m", "generala", "simulate", "--help"], capture_output=True, text=True)
    assert "YOUR rights" in " ".join(helped.stdout.split())
    examples = subprocess.run([sys.executable, "-m", "generala", "simulate", "argentine", "--bot", "lazy", "-n", "2"],
                              capture_output=True, text=True)
    assert examples.returncode == 0 and examples.stderr == ""  # the examples are the engine's own


def call(**req):
    """A request to the engine's one session, its reply as plain JSON (generala/app.py)."""
    return json.loads(json.dumps(app.Session().handle(req)))


def test_the_lab_is_counted_by_the_engine_from_the_moves_in_parts():
    """op lab_games / lab_results: the games played again from their moves, the count as
    text given back with the next part, the figures the same as the run's own."""
    run = bots.Run(bots.example_source("chase"), "bulgarian", 25, seed=0, record=True)
    run.step(3600.0)
    moves = run.take_moves()
    tally = None
    for first in (0, 10, 20):
        reply = call(op="lab_games", game="bulgarian", seed=0, moves=moves[first:first + 10], tally=tally)
        assert reply["ok"] and isinstance(reply["tally"], str)
        tally = reply["tally"]
    results = json.loads(call(op="lab_results", tally=tally, games=25, seconds=1.5)["results"])
    assert results["mean"] == run.results()["mean"] and results["games"] == 25
    assert results["histogram"] == run.results()["histogram"] and results["seconds"] == 1.5
    # a count short of the games asked, another game's count, a count that is not one
    for req in ({"op": "lab_results", "tally": tally, "games": 30},
                {"op": "lab_games", "game": "argentine", "seed": 0, "moves": [], "tally": tally},
                {"op": "lab_games", "game": "bulgarian", "seed": 0, "moves": [], "tally": "{}"},
                {"op": "lab_games", "game": "bulgarian", "seed": 0, "moves": [3]}):
        reply = call(**req)
        assert not reply["ok"] and reply["code"] == "request.field_type", req
        assert reply["params"]["expected"] in ("tally", "moves")


def test_the_lab_count_answers_the_bots_error_for_a_move_it_refuses():
    reply = call(op="lab_games", game="argentine", seed=4, moves=["1q"])
    assert reply["ok"] and reply["error"]["kind"] == "illegal"
    assert "every die is kept" in reply["error"]["message"]
    assert reply["error"]["position"]["seed"] == 4 and "tally" not in reply
