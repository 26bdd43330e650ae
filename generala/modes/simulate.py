"""Many games between strategies, summarised: scores, wins, speed and dice frequencies."""
from __future__ import annotations

import statistics
import time

from ..rules.game import Game
from ..rules.roller import SeededRoller
from ..ai.players import LEVELS
from ..ai.players import strategy as level_strategy
from ..ai.strategies import STRATEGIES, step
from ..rules.variants import Rules


def simulate(rules: Rules, strategies: list[str], games: int, seed: int = 0) -> dict:
    """Play ``games`` games, one side per strategy name (a simple strategy of
    ``STRATEGIES`` or a computer level of ``LEVELS``: ``champion`` plays for the chance to
    win), seeds ``seed``, ``seed + 1``, ...

    Besides scores it counts, over every turn played with five dice, how often
    the first roll showed five alike and how often five alike came within the
    turn: with the ``chase`` strategy the latter is RULES.md's 4.6029 %.
    """
    players = [STRATEGIES[name] if name in STRATEGIES else level_strategy(name)
               for name in strategies]
    unknown = [name for name in strategies if name not in STRATEGIES and name not in LEVELS]
    if unknown:
        raise ValueError(f"unknown strategy {unknown[0]!r}")
    names = [f"{i + 1}:{name}" for i, name in enumerate(strategies)]
    scores: list[list[int]] = [[] for _ in players]
    wins = [0.0] * len(players)
    turns = served = in_turn = auto_wins = 0
    started = time.perf_counter()
    for g in range(games):
        game = Game(rules, names, SeededRoller(seed + g))
        five_dice = rules.dice == 5
        while not game.over:
            player = players[game.current]
            if five_dice and game.rolls == 0:
                turns += 1
                step(game, player)
                if len(set(game.dice)) == 1:
                    served += 1
                    in_turn += 1
                    continue
                while "score" not in (action := step(game, player)):
                    if "roll" in action and len(set(game.dice)) == 1:
                        in_turn += 1
                continue
            step(game, player)
        auto_wins += game.auto_win is not None
        places = game.ranking()
        firsts = places.count(1)
        for i, total in enumerate(game.totals()):
            scores[i].append(total)
            if places[i] == 1:
                wins[i] += 1 / firsts
    elapsed = time.perf_counter() - started
    summary = {
        "variant": rules.name,
        "options": rules.options,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "sides": [
            {
                "strategy": strategies[i],
                "mean": round(statistics.fmean(s), 4),
                "stdev": round(statistics.stdev(s), 4) if len(s) > 1 else 0.0,
                "wins": round(wins[i] / games, 4),
            }
            for i, s in enumerate(scores)
        ],
        "automatic_wins": auto_wins,
    }
    everyone = [t for s in scores for t in s]
    summary["mean"] = round(statistics.fmean(everyone), 4)
    summary["stdev"] = round(statistics.stdev(everyone), 4) if len(everyone) > 1 else 0.0
    if turns:
        summary["frequencies"] = {
            "turns": turns,
            "five_alike_first_roll": served / turns,
            "five_alike_in_turn": in_turn / turns,
        }
    return summary
