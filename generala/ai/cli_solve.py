"""``python -m generala solve VARIANT [--option NAME=VALUE ...]``: solve a variant, write its table.

The table file is the same bytes at every run (it holds no time or date), and an
existing file is overwritten only with ``--force``.

``python -m generala laws VARIANT [--option ...]``: the laws of the points still to come
of every state (:mod:`generala.ai.laws`) from the variant's table (read from
``static/tables``, or solved), written to ``static/tables/<table>.gvl``; the same table
gives the same bytes.

Wire-in: ``add_parser(subparsers)`` adds the ``solve`` sub-command and sets
``func=run``; ``run(args)`` returns the exit code. Also runnable on its own:
``python -m generala.ai.cli_solve VARIANT ...``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..rules.errors import GeneralaError
from ..rules.refusals import shown
from ..rules.variants import VARIANTS, parse_option, variant

TABLES_DIR = Path(__file__).resolve().parents[2] / "static" / "tables"
#: ``--moments auto`` computes the standard deviations up to this many states.
MOMENTS_AUTO_STATES = 100_000


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "solve", help="solve a variant exactly (solitaire, no automatic wins) and write its table",
        description="Compute the optimal expected final score of a variant's solitaire game "
                    "(automatic wins switched off) and write the value table used by the "
                    "computer players and the coach.")
    _arguments(p)
    p.set_defaults(func=run)
    q = subparsers.add_parser(
        "laws", help="write the laws of the points to come of every state (from the table)",
        description="Compute, from a variant's value table, the law of the points still to "
                    "come of every state under the table's policy (generala.ai.laws: exact, or "
                    "a coarse shape in bulgarian) and write it as static/tables/<table>.gvl, "
                    "the win chances' laws.")
    q.add_argument("variant", choices=VARIANTS)
    q.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="a house option (booleans as on/off); repeatable")
    q.add_argument("--out", help="laws file (default: static/tables/<table>.gvl)")
    q.add_argument("--force", action="store_true", help="overwrite the laws file if it exists")
    q.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    q.set_defaults(func=run_laws)
    return p


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", choices=VARIANTS)
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="a house option (booleans as on/off); repeatable")
    p.add_argument("--out", help="table file (default: static/tables/<variant>[.<options>].gvt)")
    p.add_argument("--no-table", action="store_true", help="do not write a table")
    p.add_argument("--force", action="store_true",
                   help="overwrite the table file if it exists (a shipped table, say)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.add_argument("--moments", choices=("on", "off", "auto"), default="auto",
                   help="also store the standard deviation of the points to come (for the "
                        "expert player; about three solves' time); auto: for variants of at most "
                        f"{MOMENTS_AUTO_STATES} states (all but bulgarian)")


def rules_from_args(args):
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise GeneralaError("option.name_value", {"got": shown(item)})
        options[name.strip().replace("-", "_")] = parse_option(args.variant, name.strip().replace("-", "_"), value)
    return variant(args.variant, **options)


def run_laws(args) -> int:
    from . import laws
    from .chances import Chances
    from .solver import table_name
    from .tables import table_for
    try:
        rules = rules_from_args(args)
    except GeneralaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    path = Path(args.out) if args.out else TABLES_DIR / laws.laws_name(table_name(rules))
    if path.exists() and not args.force:
        print(f"error: {path} exists; pass --force to overwrite it (or --out elsewhere)",
              file=sys.stderr)
        return 2

    def progress(done, total):
        if not args.quiet:
            print(f"\r  {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    start = time.perf_counter()
    built = laws.build(Chances(table_for(rules), use_laws=False), progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    size = built.save(path)
    print(f"laws ({built.kind}, {built.count} entries): {path} ({size} bytes, {size / 1024:.1f} KiB), "
          f"{time.perf_counter() - start:.1f} s")
    return 0


def run(args) -> int:
    if getattr(args, "func", run) is run_laws:
        return run_laws(args)
    from .solver import solitaire_rules, solve, table_name
    try:
        rules = rules_from_args(args)
    except GeneralaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    solo = solitaire_rules(rules)
    path = None if args.no_table else Path(args.out) if args.out else TABLES_DIR / table_name(solo)
    if path is not None and path.exists() and not args.force:
        print(f"error: {path} exists; pass --force to overwrite it (or --out elsewhere)",
              file=sys.stderr)
        return 2
    last = [0.0]

    def progress(done, total):
        now = time.perf_counter()
        if not args.quiet and (now - last[0] > 2 or done == total):
            last[0] = now
            print(f"\r  {done}/{total} states", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)

    start = time.perf_counter()
    table = solve(solo, progress)
    seconds = time.perf_counter() - start
    print(f"{solo!r} (solitaire: automatic wins off)")
    print(f"optimal expected final score: {table.value:.6f}")
    print(f"states: {len(table.V)}  time: {seconds:.2f} s")
    if args.moments == "on" or (args.moments == "auto" and len(table.V) <= MOMENTS_AUTO_STATES):
        from .solver import moments
        start = time.perf_counter()
        sd = moments(table, progress)
        print(f"standard deviation of the final score: {sd[table.index[(0, 0)]]:.4f}  "
              f"time: {time.perf_counter() - start:.2f} s")
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        size = table.save(path)
        print(f"table: {path} ({size} bytes, {size / 1024:.1f} KiB)")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m generala.ai.cli_solve")
    _arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
