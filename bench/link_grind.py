"""Colluders grinding 100,000 secrets against an honest friend in a game by link (not a
test: tests/unit/test_link_collusion.py runs the same grinding with fewer secrets).

    python3 bench/link_grind.py [--tries 100000] [--devices 3 8] [--seeds 1]

For each table (the host and every side but one colluding, the honest friend joining
first, the last colluder grinding before it commits), the grinding loop judges each secret
by everything the colluders hold and keeps those it predicts to win ("the grinder plays
first with five alike on its first roll"); the oracle then says what each kept secret
really gives. Prints the secrets tried, kept, really winning, and the time a secret takes.
On format 1 (a friend's join carried its roll-off element) every kept secret wins; now
none beyond chance (about one in 3,888 with three devices, one in 10,368 with eight).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "unit")]

from test_link_collusion import Table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=100_000)
    parser.add_argument("--devices", type=int, nargs="+", default=[3, 8])
    parser.add_argument("--seeds", type=int, default=1)
    args = parser.parse_args()
    for count in args.devices:
        for seed in range(args.seeds):
            table = Table(count, seed=f"bench-{count}-{seed}")
            start = time.perf_counter()
            kept = table.grind(table.grinder, args.tries)
            took = time.perf_counter() - start
            won = sum(1 for secret in kept if (lambda f, r: f == table.grinder and len(set(r)) == 1)(
                *table.truth(secret, table.grinder)))
            print(f"{count} devices, seed {seed}: {args.tries:,} secrets in {took:.1f} s "
                  f"({took / args.tries * 1e6:.0f} µs each); kept {len(kept)}, really winning {won}")


if __name__ == "__main__":
    main()
