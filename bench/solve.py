"""Solver benchmarks: solve time per variant, table sizes, hint and decision times.

    python bench/solve.py [VARIANT ...] [--solve-bulgarian] [--positions 200]

Solve times are measured here for every variant except ``bulgarian`` (many
minutes), whose shipped table is loaded instead (no solve time: shown as "-")
unless --solve-bulgarian.
Decision times: the computer player's choice and the coach's hint at positions
from real games (rolls 1-3), each on a cold turn cache (the first decision of a
turn solves the turn; later ones in the same turn reuse it), median and p95.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generala import VARIANTS, Game, SeededRoller, variant  # noqa: E402
from generala.ai import coach  # noqa: E402
from generala.ai.players import OptimalPlayer, make_player, step  # noqa: E402
from generala.ai.solver import solitaire_rules, solve, table_name  # noqa: E402
from generala.ai.tables import TABLES_DIR, table_for  # noqa: E402


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def positions(rules, count, seed=0):
    """Game positions with dice on the table (rolls 1..3), from heuristic play."""
    player = make_player("heuristic", rules)
    found = []
    i = 0
    while len(found) < count:
        game = Game(rules, ["a"], SeededRoller(seed + i))
        i += 1
        while not game.over and len(found) < count:
            if game.rolls:
                found.append(list(game.history))
            step(game, player)
    return found


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("variants", nargs="*", default=list(VARIANTS))
    p.add_argument("--solve-bulgarian", action="store_true")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--no-solve", action="store_true",
                   help="load the shipped tables (no solve time)")
    args = p.parse_args(argv)
    print(f"{'variant':13} {'':>7} {'':>8} {'':>10} {'':>9} "
          f"{'cold turn: first decision of a turn':>35}")
    print(f"{'variant':13} {'states':>7} {'solve s':>8} {'value':>10} {'table':>9} "
          f"{'choose ms med/p95':>18} {'hint ms med/p95':>16}")
    for name in args.variants:
        rules = solitaire_rules(variant(name))
        path = TABLES_DIR / table_name(rules)
        if not args.no_solve and (name != "bulgarian" or args.solve_bulgarian):
            table = solve(rules)
        else:
            table = table_for(rules, allow_solve=False)
        seconds = "-" if table.seconds is None else f"{table.seconds:.1f}"
        size = path.stat().st_size if path.is_file() else 0
        player = OptimalPlayer(rules, table)
        choose_ms, hint_ms = [], []
        for history in positions(rules, args.positions):
            game = Game(rules, ["a"], None, rolloff=False)
            game.replay(history)
            table._turns.clear()
            t = time.perf_counter()
            player.choose(game)
            choose_ms.append((time.perf_counter() - t) * 1000)
            table._turns.clear()
            coach._advisors.clear()
            t = time.perf_counter()
            coach.advisor(rules).table._turns.clear()
            coach.hint(game)
            hint_ms.append((time.perf_counter() - t) * 1000)
        print(f"{name:13} {len(table.V):>7} {seconds:>8} {table.value:>10.4f} "
              f"{size / 1024:>7.1f}Ki "
              f"{statistics.median(choose_ms):>8.1f}/{pct(choose_ms, 0.95):<8.1f} "
              f"{statistics.median(hint_ms):>7.1f}/{pct(hint_ms, 0.95):<8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
