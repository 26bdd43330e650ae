"""Engine throughput in CPython: games per second per variant, and scoring calls per second.

    python3 bench/engine.py [--games 2000]

A game is a two-side game between two simple strategies from
``generala.strategies``: ``first-roll`` (roll once, best box) and ``chase``
(keep the most common face for three rolls), so the figures cover rolls, holds,
pricing and the bookkeeping of a whole match. Target: >= 1,000 games/s for
``argentine`` (first-roll strategy).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from generala import VARIANTS, Game, SeededRoller, variant  # noqa: E402
from generala.rules.dice import ALL_HANDS  # noqa: E402
from generala.ai.strategies import STRATEGIES, step  # noqa: E402


def games_per_second(rules, strategy, games: int) -> float:
    choose = STRATEGIES[strategy]
    started = time.perf_counter()
    for seed in range(games):
        game = Game(rules, ["A", "B"], SeededRoller(seed))
        while not game.over:
            step(game, choose)
    return games / (time.perf_counter() - started)


def scores_per_second(rules, seconds: float = 0.5) -> float:
    hands = [tuple(reversed(h)) for h in ALL_HANDS]  # unsorted input, as callers give it
    boxes = rules.categories
    calls = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for hand in hands:
            for box in boxes:
                rules.score(box, hand, roll=2)
        calls += len(hands) * len(boxes)
    return calls / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    print(f"CPython {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    print(f"{'variant':14} {'first-roll g/s':>15} {'chase g/s':>10} {'score() calls/s':>16}")
    for name in VARIANTS:
        rules = variant(name)
        fast = games_per_second(rules, "first-roll", args.games)
        chase = games_per_second(rules, "chase", max(args.games // 4, 1))
        scores = scores_per_second(rules)
        print(f"{name:14} {fast:15,.0f} {chase:10,.0f} {scores:16,.0f}")
    target = games_per_second(variant("argentine"), "first-roll", args.games)
    print(f"\nargentine first-roll: {target:,.0f} games/s = {target / 1000:.2f} x the 1,000 games/s target")


if __name__ == "__main__":
    main()
