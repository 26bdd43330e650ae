"""Simulated frequencies agree with RULES.md's exact probabilities (within 3 standard errors)."""
import json
import math
import subprocess
import sys

import pytest

from generala import variant
from generala.modes.simulate import simulate

FIVE_ALIKE_ONE_ROLL = 6 / 7776
FIVE_ALIKE_THREE_ROLLS = 2783176 / 60466176


def within_3_se(observed: float, p: float, n: int) -> bool:
    return abs(observed - p) <= 3 * math.sqrt(p * (1 - p) / n)


@pytest.fixture(scope="module")
def chase_summary():
    # Automatic wins off so that every game runs all its turns.
    return simulate(variant("puerto-rican", big_general_wins=False), ["chase", "chase"], 2500, seed=1)


def test_five_alike_in_one_roll_matches_6_in_7776(chase_summary):
    f = chase_summary["frequencies"]
    assert f["turns"] == 2500 * 2 * 10
    assert within_3_se(f["five_alike_first_roll"], FIVE_ALIKE_ONE_ROLL, f["turns"])


def test_five_alike_within_three_rolls_keeping_the_most_common_face(chase_summary):
    f = chase_summary["frequencies"]
    assert within_3_se(f["five_alike_in_turn"], FIVE_ALIKE_THREE_ROLLS, f["turns"])


def test_the_oracle_itself_is_what_rules_md_prints():
    assert round(FIVE_ALIKE_ONE_ROLL * 100, 4) == 0.0772
    assert round(FIVE_ALIKE_THREE_ROLLS * 100, 4) == 4.6029


def test_simulate_command_prints_a_json_summary():
    out = subprocess.run(
        [sys.executable, "-m", "generala", "simulate", "argentine", "-n", "50",
         "-s", "chase", "-s", "first-roll", "--option", "double_generala=off"],
        capture_output=True, text=True, check=True,
    ).stdout
    summary = json.loads(out)
    assert summary["games"] == 50 and summary["options"]["double_generala"] is False
    assert [s["strategy"] for s in summary["sides"]] == ["chase", "first-roll"]
    assert summary["games_per_second"] > 0 and summary["stdev"] > 0
    assert abs(sum(s["wins"] for s in summary["sides"]) - 1) < 1e-9


def test_commands_report_bad_options_without_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "generala", "simulate", "argentine", "-o", "served_bonus=7"],
        capture_output=True, text=True,
    )
    assert result.returncode == 2
    assert "served_bonus" in result.stderr and "Traceback" not in result.stderr


def test_play_command_plays_a_turn_from_standard_input():
    result = subprocess.run(
        [sys.executable, "-m", "generala", "play", "argentine", "Ana", "--seed", "3"],
        input="r\nh 12\nr\ns sixes\nq\n", capture_output=True, text=True, check=True,
    )
    assert "Ana — turn 2 of 11" in result.stdout
