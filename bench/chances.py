"""Win chances: accuracy against simulation, and reply times (CPython).

    python bench/chances.py accuracy [--variants argentine,...] [--sides 2,3]
                                     [--positions 200] [--games 20000] [--seed 1]
        random mid-game positions of each game (optimal players from a seeded game,
        stopped at a random turn and roll), the displayed chance of every side
        (generala.ai.chances.chances) against the share of wins in ``--games`` games
        played on from that position with the same players (every side optimal, the
        policy the chances assume; new dice). Prints each position's worst side error
        in percentage points, then the mean and the worst error per game and side count,
        with the simulation's own standard error beside them.
    python bench/chances.py accuracy --log FILE [--part FROM:TO] ...
    python bench/chances.py accuracy-combine FILE [FILE ...]
        the same in parts (several cores or days): each position its own seeded
        generator, its figures appended to FILE; the combine prints the run's figures
    python bench/chances.py accuracy-shown FILE [FILE ...] [--write]
        the chances shown again at the logged positions (the same seeded generators),
        with the laws as they are now, against the shares of wins simulated there (the
        simulation plays the turns' exact laws: it does not depend on the laws file);
        prints the figures, and with --write puts the new figures shown in the logs
    python bench/chances.py times [--variants ...] [--sides 2,3] [--positions 40]
        the time of a win-chance update (the chances after a move, tables loaded, the
        laws of the other sides' states cached as in a session) and of a play-to-win
        decision (generala.ai.players.WinningPlayer.choose), p50 / p95 / max, in CPython.
"""
from __future__ import annotations

import argparse
import bisect
import copy
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generala import Game, SeededRoller, variant  # noqa: E402
from generala.ai import chances as win  # noqa: E402
from generala.ai.players import OptimalPlayer, WinningPlayer, step  # noqa: E402
from generala.ai.tables import table_for  # noqa: E402

VARIANTS = ["argentine", "puerto-rican", "double", "bulgarian"]


def position(rules, sides: int, rng: random.Random, player) -> Game:
    """A random mid-game position: a seeded game of optimal players stopped between a
    fifth and four fifths of its turns, at a random roll of that turn (never over)."""
    while True:
        game = Game(rules, [f"S{i + 1}" for i in range(sides)], SeededRoller(rng.randrange(10 ** 9)))
        last = sides * rules.turns
        stop_turn = rng.randrange(max(1, last // 5), max(2, last * 4 // 5))
        stop_rolls = rng.randrange(0, 3)
        while not game.over and (game.turn < stop_turn or game.rolls < stop_rolls):
            step(game, player)
        if not game.over and not game.win_offered:
            return game


def play_on(game: Game, seed: int, players) -> list[float]:
    g = copy.deepcopy(game)
    g.roller = SeededRoller(seed)
    while not g.over:
        step(g, players[g.current])
    return win.finished(g)


class LawPlay:
    """Games played on by sampling each turn's outcome from its exact law under the table's
    policy (:meth:`generala.ai.chances.Chances.outcomes`: the optimal player's turn, roll by
    roll, summed up), an automatic win drawn first in each turn that may bring one. The
    same players as the optimal player's game, without replaying every roll."""

    def __init__(self, ch) -> None:
        self.ch = ch
        self._cum = {}

    def _draw(self, rng, state, hand=None, rolls=0, served_alike=True):
        key = (state, hand, rolls, served_alike)
        got = self._cum.get(key)
        if got is None:
            outs = self.ch.outcomes(state, hand, rolls, served_alike)
            items = list(outs.items())
            acc, cum = 0.0, []
            for _, p in items:
                acc += p
                cum.append(acc)
            got = self._cum[key] = ([k for k, _ in items], cum)
        keys, cum = got
        return keys[min(len(keys) - 1, bisect.bisect_left(cum, rng.random() * cum[-1]))]

    def play_on(self, game: Game, rng: random.Random) -> list[float]:
        model = self.ch.model
        states = model.states
        n = len(game.sides)
        at = [model.state_of(sheet) for sheet in game.sheets]
        state = [s for s, _ in at]
        total = [b for _, b in at]
        auto = game.rules.auto_win
        q = 6.0 / 6 ** game.rules.dice
        forfeit_bit = model.bit.get(auto.forfeit) if auto and auto.forfeit else None
        lost = [forfeit_bit is not None and game.sheets[i].get(auto.forfeit) == 0 for i in range(n)]
        for t in range(game.turn, n * game.rules.turns):
            side = game.order[t % n]
            if t == game.turn and game.rolls > 0:
                r, i = self._draw(rng, state[side], tuple(sorted(game.dice)), game.rolls)
            else:
                eligible = auto is not None and not lost[side]
                if eligible and rng.random() < q:
                    return [1.0 if j == side else 0.0 for j in range(n)]
                r, i = self._draw(rng, state[side], served_alike=not eligible)
            nxt = states[i]
            if forfeit_bit is not None and r == 0 and (nxt[0] ^ state[side][0]) & forfeit_bit:
                lost[side] = True
            state[side] = nxt
            total[side] += r
        top = max(total)
        firsts = total.count(top)
        return [1.0 / firsts if x == top else 0.0 for x in total]


def measure(game: Game, table, player, rng: random.Random, args) -> tuple[list[float], list[float]]:
    """The chances shown at ``game`` and the shares of wins in ``args.games`` games played on."""
    sides = len(game.sides)
    shown = win.chances(game, table)
    wins = [0.0] * sides
    if args.play == "laws":
        sim = LawPlay(win.for_table(table))
        for g in range(args.games):
            for i, share in enumerate(sim.play_on(game, rng)):
                wins[i] += share
    else:
        base = game.roller
        game.roller = None
        for g in range(args.games):
            for i, share in enumerate(play_on(game, rng.randrange(10 ** 9), [player] * sides)):
                wins[i] += share
        game.roller = base
    return shown, [w / args.games for w in wins]


def _errors(shown, got, games) -> tuple[float, float]:
    """A position's worst side error, and the simulation's own standard error there."""
    err = max(abs(a - b) for a, b in zip(shown, got))
    se = max(math.sqrt(max(c * (1 - c), 1e-9) / games) for c in shown)
    return err, se


def _summary(label: str, errors, noise, extra: str = "") -> str:
    """The mean and worst error; how many positions are over the 2 pp line, and how many
    are off by more than three of the simulation's own standard errors there (a figure
    exact but for the simulation's noise has few of these: ~0.3% of its sides)."""
    over = sum(1 for e in errors if e > 0.02)
    beyond = sum(1 for e, n in zip(errors, noise) if e > 3 * n)
    return (f"{label}: mean error {statistics.fmean(errors) * 100:.2f} pp, worst {max(errors) * 100:.2f} pp, "
            f"over 2 pp: {over}, over 3 SE: {beyond} "
            f"(the simulation's own SE: mean {statistics.fmean(noise) * 100:.2f} pp, "
            f"largest {max(noise) * 100:.2f} pp{extra})")


def _logged(path: Path | None) -> list[dict]:
    if path is None or not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _run_key(row: dict) -> tuple:
    return (row["variant"], row["sides"], row["seed"], row["games"], row["play"])


def accuracy(args) -> None:
    """One generator for every position and its games, in order (the runs of docs/
    benchmarks.md); with --log, each position its own generator (seeded by the run's seed,
    the game, the side count and the position's number), so that a run may be played in
    parts (--part FROM:TO) and combined (accuracy-combine)."""
    rng = random.Random(args.seed)
    done = {(_run_key(r), r["p"]) for r in _logged(args.log)}
    out = args.log.open("a", encoding="utf-8") if args.log is not None else None
    first, end = (int(x) for x in args.part.split(":")) if args.part else (0, args.positions)
    for name in args.variants:
        rules = variant(name)
        table = table_for(rules)
        table.cache_size = 40000 if name == "bulgarian" else 10 ** 6
        player = OptimalPlayer(rules, table)
        for sides in args.sides:
            errors, noise = [], []
            start = time.perf_counter()
            key = (name, sides, args.seed, args.games, args.play)
            for p in range(first, end) if out is not None else range(args.positions):
                if out is not None:
                    if (key, p) in done:
                        continue
                    rng = random.Random(f"{args.seed}:{name}:{sides}:{p}")
                game = position(rules, sides, rng, player)
                shown, got = measure(game, table, player, rng, args)
                err, se = _errors(shown, got, args.games)
                errors.append(err)
                noise.append(se)
                if out is not None:
                    out.write(json.dumps(dict(zip(("variant", "sides", "seed", "games", "play"), key),
                                              p=p, shown=shown, got=got)) + "\n")
                    out.flush()
                if args.verbose:
                    print(f"  {name} {sides} sides #{p}: shown {[round(c * 100, 1) for c in shown]} "
                          f"simulated {[round(c * 100, 1) for c in got]} error {err * 100:.2f} pp",
                          flush=True)
            if errors:
                print(_summary(f"{name}, {sides} sides: {len(errors)} positions x {args.games} games", errors,
                               noise, f"; {time.perf_counter() - start:.0f} s"), flush=True)


def accuracy_combine(files: list[Path]) -> None:
    """The figures of the positions logged by accuracy --log, per game and side count."""
    runs: dict[tuple, dict[int, dict]] = {}
    for path in files:
        for row in _logged(path):
            runs.setdefault(_run_key(row), {})[row["p"]] = row
    for (name, sides, seed, games, play), rows in sorted(runs.items()):
        pairs = [_errors(r["shown"], r["got"], games) for r in rows.values()]
        print(_summary(f"{name}, {sides} sides: {len(rows)} positions x {games} games (seed {seed}, {play})",
                       [e for e, _ in pairs], [n for _, n in pairs]), flush=True)


def accuracy_shown(files: list[Path], write: bool) -> None:
    """The logged positions shown again with today's laws (see the module's note)."""
    for path in files:
        rows = _logged(path)
        runs: dict[tuple, list[dict]] = {}
        for row in rows:
            if row["play"] != "laws":
                raise SystemExit(f"{path}: a run played by games ({row['play']}) depends on no laws: "
                                 "shown again here only for runs played by laws")
            runs.setdefault(_run_key(row), []).append(row)
        for (name, sides, seed, games, play), group in sorted(runs.items()):
            rules = variant(name)
            table = table_for(rules)
            table.cache_size = 40000 if name == "bulgarian" else 10 ** 6
            player = OptimalPlayer(rules, table)
            start = time.perf_counter()
            pairs, moved = [], 0.0
            for row in group:
                game = position(rules, sides, random.Random(f"{seed}:{name}:{sides}:{row['p']}"), player)
                shown = win.chances(game, table)
                moved = max(moved, max(abs(a - b) for a, b in zip(shown, row["shown"])))
                row["shown"] = shown
                pairs.append(_errors(shown, row["got"], games))
            print(_summary(f"{name}, {sides} sides: {len(group)} positions x {games} games (seed {seed}, {play}), "
                           f"shown again", [e for e, _ in pairs], [n for _, n in pairs],
                           f"; the figures shown moved by up to {moved * 100:.2f} pp; "
                           f"{time.perf_counter() - start:.0f} s"), flush=True)
        if write:
            path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def _pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(math.ceil(q * len(values))) - 1)]


def times(args) -> None:
    rng = random.Random(args.seed)
    for name in args.variants:
        rules = variant(name)
        table = table_for(rules)
        player = OptimalPlayer(rules, table)
        for sides in args.sides:
            update, decide = [], []
            for _ in range(args.positions):
                game = position(rules, sides, rng, player)
                # a session: the other sides' laws are known from the replies before
                win.chances(game, table)
                step(game, player)
                while not game.over and game.rolls != 0:
                    step(game, player)
                if game.over:
                    continue
                t0 = time.perf_counter()
                win.chances(game, table)  # the update after a box filled
                update.append(time.perf_counter() - t0)
                champion = WinningPlayer(rules, table)
                step(game, player)  # its first roll
                if game.over or game.win_offered:
                    continue
                t0 = time.perf_counter()
                champion.choose(game)
                decide.append(time.perf_counter() - t0)
            for label, got in (("win-chance update", update), ("play-to-win decision", decide)):
                print(f"{name}, {sides} sides, {label}: n={len(got)} p50 {_pct(got, 0.5) * 1000:.0f} ms, "
                      f"p95 {_pct(got, 0.95) * 1000:.0f} ms, max {max(got) * 1000:.0f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["accuracy", "accuracy-combine", "accuracy-shown", "times"])
    parser.add_argument("files", nargs="*", type=Path, help="accuracy-combine, accuracy-shown: the logs")
    parser.add_argument("--write", action="store_true", help="accuracy-shown: the new figures shown into the logs")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--sides", default="2,3")
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play", choices=["laws", "games"], default="laws",
                        help="accuracy: play on by each turn's exact law (fast; the default) "
                             "or by the optimal player's game, roll by roll (slow)")
    parser.add_argument("--log", type=Path, help="accuracy: each position's figures appended to this file "
                        "(JSON lines; a position logged already is not played again)")
    parser.add_argument("--part", help="accuracy with --log: the positions FROM:TO of the run played here")
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args()
    if args.what == "accuracy-combine":
        accuracy_combine(args.files)
        return
    if args.what == "accuracy-shown":
        accuracy_shown(args.files, args.write)
        return
    args.variants = args.variants.split(",")
    args.sides = [int(s) for s in args.sides.split(",")]
    if args.positions is None:
        args.positions = 200 if args.what == "accuracy" else 40
    (accuracy if args.what == "accuracy" else times)(args)


if __name__ == "__main__":
    main()
