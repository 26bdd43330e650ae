"""Strength of the computer levels: mean scores and head-to-head win rates.

    python bench/solve_strength.py means VARIANT [--games N]
        each level's mean final score in solitaire games (automatic wins off)
    python bench/solve_strength.py match VARIANT A B [--games N]
        A against B, two sides, default options (automatic wins on); the roll-off
        decides who starts. Prints A's score: wins + half the ties, with 2 standard errors.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generala import Game, SeededRoller, variant  # noqa: E402
from generala.ai.players import LEVELS, make_player, play  # noqa: E402
from generala.ai.solver import solitaire_rules  # noqa: E402
from generala.ai.tables import table_for  # noqa: E402


def means(name: str, games: int, seed: int, levels) -> None:
    rules = solitaire_rules(variant(name))
    table_for(rules).cache_size = 40000 if name == "bulgarian" else 10 ** 6
    for level in levels:
        player = make_player(level, rules)
        start = time.perf_counter()
        scores = []
        for i in range(games):
            game = Game(rules, ["solo"], SeededRoller(seed * 1_000_003 + i))
            play(game, [player])
            scores.append(game.totals()[0])
        mean = statistics.mean(scores)
        se = statistics.stdev(scores) / math.sqrt(games)
        print(f"{name} {level}: mean {mean:.2f} ± {2 * se:.2f} (2 SE), sd "
              f"{statistics.stdev(scores):.1f}, {games} games, "
              f"{(time.perf_counter() - start) / games * 1000:.1f} ms/game", flush=True)


def match(name: str, a: str, b: str, games: int, seed: int) -> None:
    rules = variant(name)
    table_for(rules).cache_size = 40000 if name == "bulgarian" else 10 ** 6
    pa, pb = make_player(a, rules), make_player(b, rules)
    score = wins = ties = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game(rules, [a, b + " "], SeededRoller(seed * 1_000_003 + i))
        play(game, [pa, pb])
        places = game.ranking()
        if places[0] < places[1]:
            wins += 1
        elif places[0] == places[1]:
            ties += 1
        if (i + 1) % 1000 == 0:
            print(f"  {i + 1}: {(wins + ties / 2) / (i + 1):.4f}", file=sys.stderr, flush=True)
    score = (wins + ties / 2) / games
    se = math.sqrt(score * (1 - score) / games)
    print(f"{name} {a} vs {b}: {a} scores {score:.4f} ± {2 * se:.4f} (2 SE) "
          f"[wins {wins}, ties {ties}, games {games}], "
          f"{(time.perf_counter() - start) / games * 1000:.1f} ms/game", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("means", "match"))
    p.add_argument("variant")
    p.add_argument("levels", nargs="*")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    if args.what == "means":
        means(args.variant, args.games, args.seed, args.levels or [l for l in LEVELS if l != "expert"])
    else:
        a, b = args.levels
        match(args.variant, a, b, args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
