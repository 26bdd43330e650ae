"""Simulation check of the solver: games of the optimal player against the solved value.

    python bench/solve_simulate.py VARIANT [--games 20000] [--seed 1] [--option NAME=VALUE]

Plays solitaire games (automatic wins off, as solved) with the engine's Game and
a seeded roller, and prints the mean final score, its standard error, the solved
value and the distance in standard errors (the check: |z| < 3).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generala import Game, SeededRoller  # noqa: E402
from generala.ai.cli_solve import rules_from_args  # noqa: E402
from generala.ai.players import OptimalPlayer, play  # noqa: E402
from generala.ai.solver import solitaire_rules  # noqa: E402
from generala.ai.tables import table_for  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("variant")
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", "-o", action="append", default=[])
    args = p.parse_args(argv)
    rules = solitaire_rules(rules_from_args(args))
    table = table_for(rules)
    table.cache_size = 40000 if rules.name == "bulgarian" else 10 ** 6
    player = OptimalPlayer(rules, table)
    n = s = ss = 0
    start = time.perf_counter()
    for i in range(args.games):
        game = Game(rules, ["solo"], SeededRoller(args.seed * 1_000_003 + i))
        play(game, [player])
        x = game.totals()[0]
        n += 1
        s += x
        ss += x * x
        if (i + 1) % 500 == 0:
            mean = s / n
            sd_now = math.sqrt(max(0.0, ss / n - mean * mean) * n / (n - 1))
            print(f"  {n} games  sum {s}  sum of squares {ss}  mean {mean:.3f}  "
                  f"se {sd_now / math.sqrt(n):.3f}  z {(mean - table.value) / (sd_now / math.sqrt(n)):+.2f}  "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    mean = s / n
    sd = math.sqrt(max(0.0, ss / n - mean * mean) * n / (n - 1))
    se = sd / math.sqrt(n)
    z = (mean - table.value) / se
    print(f"{rules!r}: {n} games of the optimal player, seed {args.seed}")
    print(f"mean {mean:.4f}  sd {sd:.3f}  se {se:.4f}  solved {table.value:.4f}  "
          f"z {z:+.2f}  {'OK' if abs(z) < 3 else 'FAIL'} (|z| < 3)  "
          f"time {time.perf_counter() - start:.0f} s")
    return 0 if abs(z) < 3 else 1


if __name__ == "__main__":
    sys.exit(main())
