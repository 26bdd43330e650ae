"""Strength of the computer levels: mean scores and head-to-head win rates.

    python bench/solve_strength.py means VARIANT [--games N]
        each level's mean final score in solitaire games (automatic wins off)
    python bench/solve_strength.py match VARIANT A B [--games N]
        A against B, two sides, default options (automatic wins on); the roll-off
        decides who starts. Prints A's score: wins + half the ties, with 2 standard errors.
        Each seed is played twice, seats swapped (common random numbers), unless --unpaired.
    python bench/solve_strength.py match VARIANT A B --games N --pairs FROM:TO --log FILE
        only the pairs FROM..TO-1 of that run (pair i plays seed SEED * 1_000_003 + i, so
        the pairs of one run may be played in parts, on several cores or days), each
        pair's result appended to FILE as a line of JSON; a pair FILE holds already (of
        the same run) is not played again: the same command goes on where it stopped
    python bench/solve_strength.py combine FILE [FILE ...]
        the score of the pairs logged in the files (each pair once): the run in parts
"""
from __future__ import annotations

import argparse
import json
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


def match(name: str, a: str, b: str, games: int, seed: int, paired: bool = True,
          pairs: tuple[int, int] | None = None, log: Path | None = None) -> None:
    """A's score against B. Paired (the default): every seed is played twice with the
    seats swapped; the seeded roller gives die number k the same value in both games,
    so while both sides play alike the two games cancel out (common random numbers),
    and the standard error comes from the pairs' spread."""
    rules = variant(name)
    table_for(rules).cache_size = 40000 if name == "bulgarian" else 10 ** 6
    pa, pb = make_player(a, rules), make_player(b, rules)
    for player in (pa, pb):
        # The win chances' laws and turns kept across games (the same states come back in
        # the openings): a quarter less time in Генерал's games, the same moves.
        if getattr(player, "chances", None) is not None:
            player.chances.cache_size = 200_000
        if WEIGHT is not None and hasattr(player, "score_weight"):
            player.score_weight = WEIGHT
        if LATE is not None and hasattr(player, "late_turns"):
            player.late_turns = LATE
    results = []
    wins = ties = played = 0
    start = time.perf_counter()
    first, end = pairs if pairs is not None else (0, games // 2 if paired else games)
    done = set()
    if log is not None and log.is_file():
        for line in log.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if row and (row["variant"], row["a"], row["b"], row["seed"], row["paired"]) == (name, a, b, seed, paired):
                done.add(row["i"])
    out = log.open("a", encoding="utf-8") if log is not None else None
    for i in range(first, end):
        if i in done:
            continue
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
        if out is not None:
            out.write(json.dumps({"variant": name, "a": a, "b": b, "seed": seed, "paired": paired,
                                  "i": i, "results": rs}) + "\n")
            out.flush()
        if len(results) % 100 == 0:
            se_now = statistics.stdev(results) / math.sqrt(len(results))
            print(f"  {played}: {statistics.mean(results):.4f} ± {2 * se_now:.4f} (2 SE)",
                  file=sys.stderr, flush=True)
    if len(results) < 2:
        print(f"{name} {a} vs {b}: {len(results)} pair(s) played here, {len(done)} logged before "
              f"(combine the log for the score)", flush=True)
        return
    score = statistics.mean(results)
    se = statistics.stdev(results) / math.sqrt(len(results))
    naive = math.sqrt(score * (1 - score) / played)
    print(f"{name} {a} vs {b}: {a} scores {score:.4f} ± {2 * se:.4f} (2 SE"
          f"{', paired seeds, seats swapped' if paired else ''}; unpaired 2 SE would be "
          f"{2 * naive:.4f}) [wins {wins}, ties {ties}, games {played}], "
          f"{(time.perf_counter() - start) / played * 1000:.1f} ms/game", flush=True)


def combine(files: list[Path]) -> None:
    """The score of the pairs logged by match --log (a pair logged twice counts once; the
    files must be of one run: the same variant, players, seed and pairing)."""
    pairs: dict[int, list[float]] = {}
    runs = set()
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                runs.add((row["variant"], row["a"], row["b"], row["seed"], row["paired"]))
                pairs[row["i"]] = row["results"]
    if len(runs) != 1:
        raise SystemExit(f"the files hold {len(runs)} runs, not one: {sorted(runs)}")
    (name, a, b, seed, paired), = runs
    results = [sum(rs) / len(rs) for rs in pairs.values()]
    games = [r for rs in pairs.values() for r in rs]
    score = statistics.mean(results)
    se = statistics.stdev(results) / math.sqrt(len(results))
    missing = max(pairs) + 1 - len(pairs)
    print(f"{name} {a} vs {b}: {a} scores {score:.4f} ± {2 * se:.4f} (2 SE; {len(pairs)} pairs of seed {seed}, "
          f"{missing} missing below pair {max(pairs)}) [wins {games.count(1.0)}, ties {games.count(0.5)}, "
          f"games {len(games)}]", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=("means", "match", "combine"))
    p.add_argument("variant")
    p.add_argument("levels", nargs="*")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--unpaired", action="store_true", help="independent games, no seat swap")
    p.add_argument("--score-weight", type=float, help="the expert's weight of the expected score")
    p.add_argument("--late-turns", type=int, help="the expert plays to win in its last N turns")
    p.add_argument("--pairs", help="FROM:TO, the pairs (games, unpaired) of the run played here")
    p.add_argument("--log", type=Path, help="append each pair's result to this file (JSON lines)")
    args = p.parse_args(argv)
    if args.what == "combine":
        combine([Path(args.variant), *map(Path, args.levels)])
        return 0
    global WEIGHT, LATE
    WEIGHT, LATE = args.score_weight, args.late_turns
    if args.what == "means":
        means(args.variant, args.games, args.seed, args.levels or [l for l in LEVELS if l != "expert"])
    else:
        a, b = args.levels
        pairs = tuple(int(x) for x in args.pairs.split(":")) if args.pairs else None
        match(args.variant, a, b, args.games, args.seed, not args.unpaired, pairs, args.log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
