"""Strength of the computer levels: mean scores and head-to-head win rates.

    python bench/solve_strength.py means VARIANT [--games N]
        each level's mean final score in solitaire games (automatic wins off)
    python bench/solve_strength.py match VARIANT A B [--games N]
        A against B, two sides, default options (automatic wins on); the roll-off
        decides who starts. Prints A's score: wins + half the ties, with 2 standard errors.
        Each seed is played twice, seats swapped (common random numbers), unless --unpaired.
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


WEIGHT = LATE = None


def _result(game, side: int) -> float:
    places = game.ranking()
    other = 1 - side
    return 1.0 if places[side] < places[other] else 0.5 if places[side] == places[other] else 0.0


def match(name: str, a: str, b: str, games: int, seed: int, paired: bool = True) -> None:
    """A's score against B. Paired (the default): every seed is played twice with the
    seats swapped; the seeded roller gives die number k the same value in both games,
    so while both sides play alike the two games cancel out (common random numbers),
    and the standard error comes from the pairs' spread."""
    rules = variant(name)
    table_for(rules).cache_size = 40000 if name == "bulgarian" else 10 ** 6
    pa, pb = make_player(a, rules), make_player(b, rules)
    for player in (pa, pb):
        if WEIGHT is not None and hasattr(player, "score_weight"):
            player.score_weight = WEIGHT
        if LATE is not None and hasattr(player, "late_turns"):
            player.late_turns = LATE
    results = []
    wins = ties = played = 0
    start = time.perf_counter()
    for i in range(games // 2 if paired else games):
        s = seed * 1_000_003 + i
        g1 = Game(rules, [a, b + " "], SeededRoller(s))
        play(g1, [pa, pb])
        r1 = _result(g1, 0)
        rs = [r1]
        if paired:
            g2 = Game(rules, [b + " ", a], SeededRoller(s))
            play(g2, [pb, pa])
            rs.append(_result(g2, 1))
        for r in rs:
            played += 1
            wins += r == 1.0
            ties += r == 0.5
        results.append(sum(rs) / len(rs))
        if len(results) % 100 == 0:
            se_now = statistics.stdev(results) / math.sqrt(len(results))
            print(f"  {played}: {statistics.mean(results):.4f} ± {2 * se_now:.4f} (2 SE)",
                  file=sys.stderr, flush=True)
    score = statistics.mean(results)
    se = statistics.stdev(results) / math.sqrt(len(results))
    naive = math.sqrt(score * (1 - score) / played)
    print(f"{name} {a} vs {b}: {a} scores {score:.4f} ± {2 * se:.4f} (2 SE"
          f"{', paired seeds, seats swapped' if paired else ''}; unpaired 2 SE would be "
          f"{2 * naive:.4f}) [wins {wins}, ties {ties}, games {played}], "
          f"{(time.perf_counter() - start) / played * 1000:.1f} ms/game", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("means", "match"))
    p.add_argument("variant")
    p.add_argument("levels", nargs="*")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--unpaired", action="store_true", help="independent games, no seat swap")
    p.add_argument("--score-weight", type=float, help="the expert's weight of the expected score")
    p.add_argument("--late-turns", type=int, help="the expert plays to win in its last N turns")
    args = p.parse_args(argv)
    global WEIGHT, LATE
    WEIGHT, LATE = args.score_weight, args.late_turns
    if args.what == "means":
        means(args.variant, args.games, args.seed, args.levels or [l for l in LEVELS if l != "expert"])
    else:
        a, b = args.levels
        match(args.variant, a, b, args.games, args.seed, not args.unpaired)
    return 0


if __name__ == "__main__":
    sys.exit(main())
