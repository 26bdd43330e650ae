"""``python -m generala``: play in the terminal, simulate strategies, solve variants."""
from __future__ import annotations

import argparse
import contextlib
import json
import sys

from .rules.errors import GeneralaError, InvalidInput
from .rules.game import Game
from .rules.refusals import shown
from .rules.roller import SeededRoller
from .modes.bots import EXAMPLES, BotError, alarm_guard, example_source
from .modes.bots import run as run_bot
from .modes.simulate import simulate
from .ai.players import LEVELS
from .ai.strategies import STRATEGIES
from .rules.variants import VARIANTS, parse_option, variant
from .seen.view import cell_text


def rules_from_args(args):
    options = {}
    for item in args.option or []:
        name, sep, text = item.partition("=")
        if not sep:
            raise InvalidInput("option.name_value", {"got": shown(item)})
        options[name] = parse_option(args.variant, name, text)
    return variant(args.variant, **options)


def _add_rules_args(parser):
    parser.add_argument("variant", choices=VARIANTS)
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="a house option, booleans as on/off (repeatable)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generala", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a game in the terminal")
    _add_rules_args(play)
    play.add_argument("names", nargs="*", default=["You"], help="one name per side")
    play.add_argument("--seed", type=int, help="reproducible dice")

    sim = sub.add_parser("simulate", help="many games between strategies; JSON on stdout")
    _add_rules_args(sim)
    sim.add_argument("--games", "-n", type=int, default=1000)
    sim.add_argument("--strategy", "-s", action="append", choices=sorted(STRATEGIES) + list(LEVELS),
                     help="one per side (repeatable): a simple strategy or a computer level "
                          "(champion: plays for the chance to win); default: two 'chase' sides")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bot", metavar="FILE",
                     help="a bot's Python file (or an example's name: "
                          + ", ".join(EXAMPLES) + "): games of that bot alone, automatic "
                          "wins off (docs/bot-api.md). The file runs as Python with YOUR "
                          "rights: it can read, change or send anything you can. Run only a "
                          "file you have read or trust. Its print() goes to stderr")

    odds = sub.add_parser("chances", help="each side's chance to win a saved game from where it stands")
    odds.add_argument("save", help="a saved game's file (JSON, as exported or saved)")

    link = sub.add_parser("link-play", help="a whole game by link between devices held in memory; "
                                           "JSON on stdout: each link's kind and length, the sheets, "
                                           "the dice's verification")
    _add_rules_args(link)
    link.add_argument("names", nargs="*", default=["Ana", "Beto"], help="one name per side (the host first)")
    link.add_argument("--computer", "-c", action="append", metavar="SIDE=LEVEL",
                      help="a computer side played on the host's device (repeatable)")

    try:
        from .ai import cli_solve
    except ImportError:
        cli_solve = None
    if cli_solve is not None:
        cli_solve.add_parser(sub)

    args = parser.parse_args(argv)
    try:
        if args.command == "play":
            return play_game(rules_from_args(args), args.names, args.seed)
        if args.command == "simulate" and args.bot:
            return simulate_bot(args)
        if args.command == "simulate":
            summary = simulate(rules_from_args(args), args.strategy or ["chase", "chase"],
                               args.games, args.seed)
            json.dump(summary, sys.stdout, indent=1)
            print()
            return 0
        if args.command == "chances":
            return show_chances(args.save)
        if args.command == "link-play":
            from .modes import linkmatch
            computers = {}
            for item in args.computer or []:
                side, _, level = item.partition("=")
                computers[int(side)] = level
            result = linkmatch.play(rules_from_args(args), args.names, computers)
            json.dump(linkmatch.summary(result), sys.stdout, indent=1, ensure_ascii=False)
            print()
            return 0
        return cli_solve.run(args)
    except GeneralaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


#: Said on stderr before a bot's file runs: on the command line nothing sandboxes it.
UNSANDBOXED = ("note: {file} runs as Python with your rights (it can read, change or send "
               "anything you can): run only a bot you have read or trust. Its print() goes "
               "to stderr.")


def simulate_bot(args) -> int:
    """``simulate --bot FILE``: the bot's results as JSON, or its error on stderr (exit 3).
    The bot's file runs here as any Python does, with the rights of whoever runs it (the
    page's sandbox is the page's, docs/bot-api.md): stderr says so first. What it prints
    goes to stderr, so that stdout holds the JSON only."""
    if args.bot in EXAMPLES:
        source, filename = example_source(args.bot), f"{args.bot}.py"
    else:
        with open(args.bot, encoding="utf-8") as f:
            source, filename = f.read(), args.bot
        print(UNSANDBOXED.format(file=args.bot), file=sys.stderr)
    options = {}
    for item in args.option or []:
        name, sep, text = item.partition("=")
        if not sep:
            raise InvalidInput("option.name_value", {"got": shown(item)})
        options[name] = parse_option(args.variant, name, text)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            summary = run_bot(source, args.variant, args.games, args.seed, filename=filename,
                              guard=alarm_guard(), options=options)
    except BotError as err:
        print(err, file=sys.stderr)
        return 3
    json.dump(summary, sys.stdout, indent=1)
    print()
    return 0


HELP = """Commands: r = roll, h 1 3 = hold dice 1 and 3 (others roll), s BOX = score,
x BOX = scratch, s A B = two boxes (ten dice, best split), w = take the win offered
(house rule served_win_choice), u = undo, q = quit."""


def show_chances(path: str) -> int:
    """``chances SAVE``: the game's sides, their totals and their chances to win, one line
    each, and whether the figures are exact (``generala.ai.chances``)."""
    from .ai import chances
    from .ai.tables import table_for
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    game = Game.from_json(text)
    table = None if game.over or len(game.sides) == 1 else table_for(game.rules)
    odds = chances.chances(game, table)
    totals = game.totals()
    width = max(len(side.name) for side in game.sides)
    for side, total, chance in zip(game.sides, totals, odds):
        print(f"{side.name:<{width}}  {total:>4} points  {chance * 100:5.1f}%")
    if table is not None:
        ch = chances.for_table(table)
        if ch.exact(game):
            print("exact" + (" (stored laws, 128 quantiles a state)" if ch.stored is not None else ""))
        else:
            print("approximate: the turns beyond the next "
                  f"{ch.depth} of each side by a {'stored shape' if ch.stored is not None else 'normal'} law")
    return 0


def show(game: Game) -> None:
    rules = game.rules
    names = [s.name[:10] for s in game.sides]
    print("\n" + "box".ljust(16) + "".join(n.rjust(11) for n in names))
    for box in rules.categories:
        cells = [cell_text(rules, box, sheet[box]) for sheet in game.sheets]
        print(box.ljust(16) + "".join(c.rjust(11) for c in cells))
    print("total".ljust(16) + "".join(str(t).rjust(11) for t in game.totals()))


def play_game(rules, names, seed) -> int:
    roller = SeededRoller(seed) if seed is not None else SeededRoller.random()
    game = Game(rules, names, roller)
    print(f"{rules.spec.title}: {rules.spec.summary}\n{HELP}")
    if len(game.sides) > 1:
        print("Order of play:", ", ".join(game.sides[i].name for i in game.order))
    while not game.over:
        if game.dice is None:
            show(game)
            print(f"\n{game.player} — turn {game.round} of {rules.turns}")
        else:
            marks = "".join("^" if i in game.held else " " for i in range(rules.dice))
            print(f"dice {' '.join(map(str, game.dice))}   rolls left {game.rolls_left}")
            print(f"held {' '.join(marks)}")
            if game.win_offered:
                print("the win is offered: w takes it, or score a box to play on")
            if game.preview():
                best = sorted(game.preview().items(), key=lambda kv: -kv[1])[:4]
                print("worth:", ", ".join(f"{b} {p}" for b, p in best))
        try:
            line = input("> ").split()
        except EOFError:
            return 0
        if not line:
            continue
        cmd, rest = line[0], line[1:]
        try:
            if cmd == "q":
                return 0
            if cmd == "r":
                game.roll()
            elif cmd == "h":
                digits = list(rest[0]) if len(rest) == 1 and rules.dice == 5 else rest
                game.hold([int(d) - 1 for d in digits])
            elif cmd in ("s", "x") and len(rest) == 2:  # x A B: both written 0 by choice
                game.score(rest[0], rest[1], scratch=[True, True] if cmd == "x" else False)
            elif cmd in ("s", "x") and len(rest) == 1:
                print("wrote", game.score(rest[0], scratch=cmd == "x"))
            elif cmd == "w":
                game.take_win()
            elif cmd == "u":
                game.undo()
            else:
                print(HELP)
        except (GeneralaError, ValueError) as err:
            print("!", err)
    show(game)
    if game.auto_win:
        print(f"{game.sides[game.auto_win['side']].name} wins at once ({game.auto_win['kind']})!")
    for place, side in sorted(zip(game.ranking(), game.sides), key=lambda p: p[0]):
        print(f"{place}. {side.name}")
    for pay in game.settlement():
        print(f"{game.sides[pay['from']].name} pays {game.sides[pay['to']].name} {pay['amount']}")
    return 0
