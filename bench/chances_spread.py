"""Генерал's win chances with each state's own spread: an experiment, not what ships.

The laws file of ``bulgarian`` (generala/ai/laws.py) gives a state between turns its
coarse key's shape, moved to the state's table mean, and while the mandatory total's sign
is open two copies of it, the penalty's chance and the gap between the copies taken from
the state's penalty group. This script measures what each state's own figures would
give instead: one backward pass under the table's policy (as ``laws._penalty_moments``)
finds per state the penalty's chance ``q``, ``E[R·1pen]`` and ``E[R²]`` (``R`` the points
to come), and the chances are shown again at the positions of the full-size accuracy run
(``bench/logs/chances-accuracy/bulgarian-*.jsonl``) against the shares of wins simulated
there (the simulation does not depend on the law under test).

    python bench/chances_spread.py moments [--cache DIR]     # the pass: ~25 min on one core
    python bench/chances_spread.py accuracy [--cache DIR] [--modes base,spread,spread+penalty]
        base            the laws file as it ships
        spread          the key's shape stretched to the state's own spread (the penalty's
                        two copies from the group, as shipped)
        penalty         the state's own q and gap, the key's spread
        spread+penalty  both
    python bench/chances_spread.py sizes [--cache DIR]
        the bytes the state's figures would take (16-bit, byte planes, zlib 9)

Measured 2026-12-04 (docs/benchmarks.md, "At full size").
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import chances as accuracy_bench  # noqa: E402
from generala import variant  # noqa: E402
from generala.ai import chances as win  # noqa: E402
from generala.ai import laws as L  # noqa: E402
from generala.ai.players import OptimalPlayer  # noqa: E402
from generala.ai.tables import table_for  # noqa: E402

LOGS = ROOT / "bench" / "logs" / "chances-accuracy"
NAMES = ("q", "a", "m2")


def moments(table, cache: Path) -> None:
    ch = win.Chances(table)
    ch.cache_size = 10 ** 6
    model, index, V = ch.model, table.index, table.V
    n = len(model.states)
    q, a, m2 = (array("d", bytes(8 * n)) for _ in NAMES)
    start = time.time()
    for done, mask in enumerate(model.masks_desc, 1):
        if mask == model.full:
            continue
        for x in model.xs_of[mask]:
            i = index[(mask, x)]
            tq = ta = tm = 0.0
            for (r, j), p in ch.outcomes((mask, x)).items():
                tm += p * (r * r + 2 * r * V[j] + m2[j])
                if x != L.SAFE_X and r < -25:  # the turn that charges the penalty
                    tq += p
                    ta += p * (r + V[j])
                else:
                    tq += p * q[j]
                    ta += p * (r * q[j] + a[j])
            q[i], a[i], m2[i] = tq, ta, tm
        ch._outcomes.clear()
        if done % 2048 == 0:
            print(f"{done} of {len(model.masks_desc)} masks, {time.time() - start:.0f} s", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    for name, arr in zip(NAMES, (q, a, m2)):
        with open(cache / f"{name}.bin", "wb") as f:
            arr.tofile(f)
    print(f"saved in {cache} ({time.time() - start:.0f} s)")


def load(cache: Path) -> list[array]:
    out = []
    for name in NAMES:
        arr = array("d")
        arr.frombytes((cache / f"{name}.bin").read_bytes())
        out.append(arr)
    return out


def _stretched(qs, s: float) -> list[int]:
    m = sum(qs) / len(qs)
    return sorted(round(m + s * (x - m)) for x in qs)


def _variance(qs) -> float:
    m = sum(qs) / len(qs)
    return sum((x - m) ** 2 for x in qs) / len(qs)


def patch_laws(table, figures, mode: str) -> None:
    """``Laws.law`` as ``mode`` says (module note); ``base`` leaves it as it ships."""
    Q, A, M2 = figures
    model, V = table.model, table.V
    shipped = L.Laws.law.__dict__.get("shipped") or L.Laws.law

    def law(self, i):
        if mode == "base":
            return shipped(self, i)
        mask, x = model.states[i]
        qs = self.entry(L.coarse_key(model, mask))
        settled = self.table.index.get((mask, L.SAFE_X))
        q = gap = 0.0
        if not (x == L.SAFE_X or settled is None):
            if "penalty" in mode:
                q = Q[i]
                if L._TINY < q < 1 - L._TINY:
                    gap = A[i] / q - (V[i] - A[i]) / (1 - q)
            else:
                q, gap = self.penalty[self._groups[L.group_of(model, mask, x)]]
        if q <= L._TINY or q >= 1 - L._TINY:
            q = gap = 0.0
        spread = _variance(qs)
        if "spread" in mode and spread > 0:
            # the shape's own part of the state's variance (the copies' gap makes the rest);
            # never below a third of the key's spread
            rest = max(0.0, M2[i] - V[i] * V[i]) - q * (1 - q) * gap * gap
            qs = _stretched(qs, math.sqrt(max(rest, spread / 9) / spread))
        if q == 0.0:
            return L.from_quantiles(qs, V[i])
        without = V[i] - q * gap
        return L._mix([(1.0 - q, 0, L.from_quantiles(qs, without)), (q, 0, L.from_quantiles(qs, without + gap))])
    law.shipped = shipped
    L.Laws.law = law


def accuracy(table, figures, modes: list[str]) -> None:
    rules = table.rules
    player = OptimalPlayer(rules, table)
    positions = {}
    for sides in (2, 3):
        rows = [json.loads(line) for line in (LOGS / f"bulgarian-{sides}.jsonl").read_text().splitlines() if line]
        positions[sides] = [(accuracy_bench.position(rules, sides, random.Random(f"{r['seed']}:bulgarian:{sides}:{r['p']}"),
                                                     player), r) for r in rows]
    for mode in modes:
        patch_laws(table, figures, mode)
        for sides, games in positions.items():
            ch = win.Chances(table)
            ch.cache_size = 10 ** 6
            errors, noise = [], []
            for game, row in games:
                shown = win.with_auto_wins(game, win.shares([ch.final_law(game, s) for s in range(sides)]))
                err, se = accuracy_bench._errors(shown, row["got"], row["games"])
                errors.append(err)
                noise.append(se)
            print(accuracy_bench._summary(f"{mode}, {sides} sides: {len(games)} positions", errors, noise), flush=True)


def sizes(table, figures) -> None:
    Q, A, M2 = figures
    model, V = table.model, table.V
    sd, qs, gaps = array("H"), array("H"), array("H")
    for i, (mask, x) in enumerate(model.states):
        sd.append(min(65535, round(math.sqrt(max(0.0, M2[i] - V[i] * V[i])) * 16)))
        if x == L.SAFE_X or mask == model.full:
            continue
        q = Q[i]
        gap = A[i] / q - (V[i] - A[i]) / (1 - q) if L._TINY < q < 1 - L._TINY else 0.0
        qs.append(round(q * 65535))
        gaps.append(min(65535, max(0, round(gap * 16) + 32768)))
    for name, arr in (("spread (sd x 16)", sd), ("q (x 65535)", qs), ("gap (x 16)", gaps)):
        print(f"{name}: {len(arr)} states, {len(L._planes(arr)):,} bytes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("moments", "accuracy", "sizes"))
    ap.add_argument("--cache", type=Path, default=Path("/tmp/generala-spread"),
                    help="where the pass's figures are kept (three files of 7.7 MB)")
    ap.add_argument("--modes", default="base,spread,penalty,spread+penalty")
    args = ap.parse_args()
    table = table_for(variant("bulgarian"))
    table.cache_size = 40000
    if args.what == "moments":
        moments(table, args.cache)
    elif args.what == "accuracy":
        accuracy(table, load(args.cache), args.modes.split(","))
    else:
        sizes(table, load(args.cache))


if __name__ == "__main__":
    main()
