"""Bots: players written in Python by the player, run many times (the Bot lab, ``simulate --bot``).

A bot is a file of Python that defines ``play(turn)``, or a class ``Bot`` whose
``play(self, turn)`` method is called (a new ``Bot()`` for each game). ``turn`` is a
:class:`Turn`, a plain view of the moment; the bot answers one of::

    [6, 6, 6]                            keep these dice (their faces) and roll the others
    []                                   roll every die again
    "fours"                              fill this box (five dice)
    ("fours", "full-house")              ten dice: fill two boxes, the best split
    ("fours", "full-house", [4, 4, 4, 4, 1])   ten dice: these five dice go to "fours"

``turn.best()`` is the move that fills the box (the two boxes) worth most now.
Anything else is an illegal move; an exception, an illegal move or a move that takes
more than ``LIMIT`` seconds stops the run with a :class:`BotError`: what happened, the
bot's traceback and the position. docs/bot-api.md is the full description.

The same file gives the same results in CPython and in the page: each game ``g`` of a
run rolls the seeded dice of ``seed + g``, and a game is one side alone, the
variant's default options with its automatic win switched off (the solitaire game
whose optimal values ``REFERENCE`` lists).
"""
from __future__ import annotations

import linecache
import math
import re
import time
import traceback
from collections import Counter

from ..rules.errors import GeneralaError
from ..rules.game import Game, positions_of
from ..rules.roller import SeededRoller
from ..rules.variants import SPECS, Rules, _groups, variant

#: Seconds a bot may take for one move.
LIMIT = 1.0
GAMES_MIN, GAMES_MAX = 1, 10000
#: Mean final score of the solitaire game (default options, automatic wins off):
#: ``optimal``, the solved table's exact value; ``heuristic``, the heuristic level's
#: mean over simulated games (docs/computer-players.md, ``bench/solve_strength.py``).
REFERENCE = {
    "argentine": {"optimal": 162.4695, "heuristic": 158.8},
    "puerto-rican": {"optimal": 156.1885, "heuristic": 155.0},
    "double": {"optimal": 197.7318, "heuristic": 189.6},
    "bulgarian": {"optimal": 143.4142, "heuristic": 119.6},
}
HISTOGRAM_BINS = 20
#: The example bots shipped with the engine (generala/bot_examples/NAME.py), shortest first.
EXAMPLES = ("lazy", "chase", "planner")


def example_source(name: str) -> str:
    """The source text of an example bot."""
    import os
    if name not in EXAMPLES:
        raise KeyError(name)
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "bot_examples", f"{name}.py")
    with open(path, encoding="utf-8") as f:
        return f.read()


class BotError(Exception):
    """A bot's run stopped: ``kind`` is ``exception``, ``illegal``, ``timeout`` or ``load``;
    ``message`` says what happened, ``trace`` is the bot's traceback (text, may be empty),
    ``position`` the game position (a dict) or None."""

    def __init__(self, kind: str, message: str, trace: str = "", position: dict | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.trace = trace
        self.position = position

    def to_json(self) -> dict:
        return {"kind": self.kind, "message": self.message, "trace": self.trace,
                "position": self.position}

    def __str__(self) -> str:
        lines = [f"bot error ({self.kind}): {self.message}"]
        if self.position:
            lines += [f"  {k}: {v}" for k, v in self.position.items()]
        if self.trace:
            lines.append(self.trace.rstrip())
        return "\n".join(lines)


class Turn:
    """The view a bot gets: plain values, copies (changing them changes nothing)."""

    __slots__ = ("game", "dice", "roll", "rolls_left", "sheet", "open_boxes", "scores",
                 "others", "turn", "turns", "boxes_per_turn", "total", "_game")

    def __init__(self, game: Game):
        rules = game.rules
        side = game.current
        self._game = game
        #: The game's name: argentine, bulgarian, puerto-rican or double.
        self.game = rules.name
        #: The dice as they lie (5 or 10 faces, 1 to 6).
        self.dice = tuple(game.dice)
        #: The roll of this turn, 1 to 3, and the rolls still allowed.
        self.roll = game.rolls
        self.rolls_left = 3 - game.rolls
        #: This side's sheet, every box in sheet order: points, or None while open.
        self.sheet = dict(game.sheets[side])
        self.open_boxes = [b for b, v in self.sheet.items() if v is None]
        #: What each open box would score with these dice now (ten dice: the most five
        #: of them earn in that box).
        self.scores = _scores(game)
        #: The other sides' sheets (empty in the lab: a game there is one side alone).
        self.others = [dict(s) for i, s in enumerate(game.sheets) if i != side]
        #: This side's turn, 1 to ``turns``.
        self.turn = game.round
        self.turns = rules.turns
        self.boxes_per_turn = rules.boxes_per_turn
        self.total = rules.total(game.sheets[side])

    def best(self):
        """The move that fills the box (ten dice: the two boxes and split) worth most now;
        the first in sheet order among equals."""
        game = self._game
        if game.rules.boxes_per_turn == 2:
            a, b, split = game.rules.best_play(game.dice, game.sheets[game.current])
            return (a, b, list(split.group_a))
        best = None
        for box, points in self.scores.items():
            if best is None or points > self.scores[best]:
                best = box
        return best

    def __repr__(self) -> str:
        return (f"Turn(game={self.game!r}, dice={self.dice}, roll={self.roll}, "
                f"open_boxes={self.open_boxes})")


def _scores(game: Game) -> dict:
    if game.rules.dice == 5:
        return game.preview()
    rules, sheet = game.rules, game.sheets[game.current]
    groups = {g for pair in _groups(tuple(sorted(game.dice))) for g in pair}
    return {box: max(rules.price_group(box, g, sheet) for g in groups)
            for box, v in sheet.items() if v is None}


# --- loading a bot -------------------------------------------------------------------


def load(source: str, filename: str = "bot.py"):
    """A bot's source compiled and run: a function ``new_player() -> play(turn)`` that
    starts a game (a fresh ``Bot()`` when the file has a class ``Bot``).
    BotError ``load`` when the file fails or defines neither."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"__name__": "bot", "__file__": filename}
    try:
        code = compile(source, filename, "exec")
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001 - whatever the bot's file raises is its error
        if not isinstance(exc, Exception):
            raise
        raise BotError("load", f"{type(exc).__name__}: {exc}", _bot_trace(exc, filename)) from None
    cls = namespace.get("Bot")
    if isinstance(cls, type):
        if not callable(getattr(cls, "play", None)):
            raise BotError("load", "the class Bot has no play(self, turn) method")

        def new_player():
            return cls().play
        return new_player
    play = namespace.get("play")
    if callable(play):
        return lambda: play
    raise BotError("load", "the file defines neither play(turn) nor a class Bot")


def _bot_trace(exc: BaseException, filename: str) -> str:
    """The traceback from the bot's first frame on (the engine's frames left out)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    if isinstance(exc, SyntaxError):
        tb = None
    if isinstance(exc, MoveTimeout):  # where the bot was when the timer stopped it
        frames = [f for f in traceback.extract_tb(tb) if f.filename == filename]
        return ("Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
                + f"MoveTimeout: {exc}\n")
    return "".join(traceback.format_exception(type(exc), exc, tb))


# --- one move ------------------------------------------------------------------------


def _illegal(message: str):
    return BotError("illegal", message)


def to_action(game: Game, move) -> dict:
    """The engine's action for a bot's answer, checked; BotError ``illegal`` when it is none."""
    rules = game.rules
    if isinstance(move, str):
        if rules.boxes_per_turn == 2:
            raise _illegal(f"ten dice fill two boxes: return (box_a, box_b), got {move!r}")
        return _fill(game, move)
    if isinstance(move, (list, tuple)) and move and isinstance(move[0], str):
        if rules.boxes_per_turn != 2:
            raise _illegal(f"return one box name (a str), got {move!r}")
        if len(move) not in (2, 3) or not isinstance(move[1], str):
            raise _illegal(f"return (box_a, box_b) or (box_a, box_b, five_dice), got {move!r}")
        split = None
        if len(move) == 3:
            split = _positions(game, move[2], "the split")
            if len(split) != 5:
                raise _illegal(f"the split gives five dice to {move[0]!r}, got {move[2]!r}")
        return _fill(game, move[0], move[1], split)
    if isinstance(move, (list, tuple)):
        if game.rolls_left == 0:
            raise _illegal(f"no rolls left: return a box to fill, got {move!r}")
        keep = _positions(game, move, "the dice kept")
        if len(keep) == len(game.dice):
            raise _illegal(f"every die is kept: return a box to fill instead, got {move!r}")
        return {"keep": keep}
    raise _illegal(f"return dice to keep (a list of faces) or a box to fill, got {move!r}")


def _positions(game: Game, faces, what: str) -> list[int]:
    if not isinstance(faces, (list, tuple)) or not all(type(f) is int for f in faces):
        raise _illegal(f"{what} must be a list of dice faces (ints), got {faces!r}")
    wanted = Counter(faces)
    have = Counter(game.dice)
    if any(wanted[f] > have[f] for f in wanted):
        raise _illegal(f"{what} {list(faces)!r} are not among the dice {list(game.dice)!r}")
    return positions_of(game.dice, sorted(faces))


def _fill(game: Game, box, box_b=None, split=None) -> dict:
    return _fill_action(game, box, box_b, split).to_json()


def _fill_action(game: Game, box, box_b=None, split=None):
    """The engine's action that fills ``box`` (and ``box_b``), checked as a bot's answer."""
    sheet = game.sheets[game.current]
    for b in (box, box_b) if box_b is not None else (box,):
        if b not in sheet:
            raise _illegal(f"{b!r} is not a box of {game.rules.name}: {', '.join(sheet)}")
        if sheet[b] is not None:
            raise _illegal(f"the box {b!r} is already filled")
    if box_b is not None and box == box_b:
        raise _illegal(f"two different boxes, got {box!r} twice")
    try:
        return game.fill_action(box, box_b, split)
    except GeneralaError as exc:  # pragma: no cover - the checks above come first
        raise _illegal(str(exc)) from None


def position(game: Game, number: int, seed: int, move=None) -> dict:
    """Where a game stands, for an error's report (plain values)."""
    out = {
        "game": number,
        "seed": seed,
        "variant": game.rules.name,
        "turn": game.round,
        "roll": game.rolls,
        "dice": list(game.dice) if game.dice is not None else None,
        "sheet": dict(game.sheets[game.current]) if game.current is not None else None,
    }
    if move is not None:
        out["returned"] = repr(move)[:200]
    return out


# --- a run ---------------------------------------------------------------------------


def lab_rules(name: str, **options) -> Rules:
    """The rules a bot is run with: the game's default options (or ``options``), its
    automatic win off unless an option says otherwise."""
    auto = SPECS[name].auto_win
    if auto is not None:
        options.setdefault(auto.option, False)
    return variant(name, **options)


class NoGuard:
    """A move's guard that only measures (the page: its worker is stopped from outside)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class AlarmGuard:
    """A move's guard that interrupts it past the limit with a timer signal (CPython on a
    system with ``setitimer``, main thread): the command line's."""

    limit = LIMIT

    def __enter__(self):
        import signal

        def interrupt(signum, frame):
            raise MoveTimeout(f"the move took more than {self.limit:g} s")
        self._old = signal.signal(signal.SIGALRM, interrupt)
        signal.setitimer(signal.ITIMER_REAL, self.limit * 1.05)
        return self

    def __exit__(self, *exc):
        import signal
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._old)
        return False


def alarm_guard():
    """AlarmGuard where the system has timer signals and this is the main thread, else NoGuard."""
    import threading
    try:
        import signal
        usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    except ImportError:  # pragma: no cover - Pyodide has signal; other ports may not
        usable = False
    return AlarmGuard if usable else NoGuard


class Run:
    """``games`` games of one bot, played a slice at a time (``step``); ``results()`` at the end.

    ``guard()`` is entered around each move (the command line's interrupts a move
    past the limit); ``clock`` measures moves; ``on_move(position)`` is told before
    each move (the page's replay of a game whose move never ended)."""

    def __init__(self, source: str, game: str = "argentine", games: int = 1000, seed: int = 0,
                 filename: str = "bot.py", limit: float = LIMIT, guard=NoGuard,
                 clock=time.perf_counter, on_move=None, first: int = 0, options=None,
                 record: bool = False):
        if game not in SPECS:
            raise BotError("load", f"no game {game!r}: {', '.join(SPECS)}")
        if type(games) is not int or not GAMES_MIN <= games <= GAMES_MAX:
            raise BotError("load", f"games: from {GAMES_MIN} to {GAMES_MAX}, got {games!r}")
        self.rules = lab_rules(game, **(options or {}))
        self.games = games
        self.seed = seed
        self.filename = filename
        self.limit = limit
        self.guard = guard
        self.clock = clock
        self.on_move = on_move
        self.new_player = load(source, filename)
        self.done = first
        self.totals: list[int] = []
        self.box_points = {b: 0 for b in self.rules.categories}
        self.box_scratches = {b: 0 for b in self.rules.categories}
        self.bot_seconds = 0.0
        self.seconds = 0.0
        #: With ``record``: each game's moves (:func:`moves_text`) since :meth:`take_moves`.
        self.record = record
        self.moves: list[str] = []

    def take_moves(self) -> list[str]:
        """The recorded games' moves since the last call, in the order they were played."""
        moves, self.moves = self.moves, []
        return moves

    @property
    def finished(self) -> bool:
        return self.done >= self.games

    def step(self, budget: float = 0.1) -> bool:
        """Play whole games until ``budget`` seconds have passed or the run is over;
        True once it is. BotError when the bot fails."""
        start = time.perf_counter()
        while not self.finished:
            self.play_game(self.done)
            self.done += 1
            if time.perf_counter() - start >= budget:
                break
        self.seconds += time.perf_counter() - start
        return self.finished

    def play_game(self, g: int) -> Game:
        seed = self.seed + g
        game = Game(self.rules, ["bot"], SeededRoller(seed))
        play = self._call(game, g, seed, None)
        codes = [] if self.record else None
        while not game.over:
            if game.rolls == 0:
                game.apply({"roll": None})
                continue
            turn = Turn(game)
            if self.on_move is not None:
                self.on_move(position(game, g + 1, seed))
            move = self._call(game, g, seed, play, turn)
            try:
                action = to_action(game, move)
            except BotError as err:
                err.position = position(game, g + 1, seed, move)
                raise
            if codes is not None:
                codes.append(move_code(self.rules, action))
            if "keep" in action:
                game.apply({"hold": action["keep"]})
                game.apply({"roll": None})
            else:
                game.apply(action)
        sheet = game.sheets[0]
        for box, points in sheet.items():
            self.box_points[box] += points
            if self.rules.scratches(box, points):
                self.box_scratches[box] += 1
        self.totals.append(game.totals()[0])
        if codes is not None:
            self.moves.append(".".join(codes))
        return game

    def _call(self, game, g, seed, play, turn=None):
        """The bot's answer (or a new player when ``play`` is None), guarded and timed."""
        start = self.clock()
        try:
            with self.guard():
                answer = self.new_player() if play is None else play(turn)
        except BotError:
            raise
        except Exception as exc:  # noqa: BLE001 - the bot's own error
            kind = "timeout" if isinstance(exc, MoveTimeout) else "exception"
            message = (f"the move took more than {self.limit:g} s" if kind == "timeout"
                       else f"{type(exc).__name__}: {exc}")
            raise BotError(kind, message, _bot_trace(exc, self.filename),
                           position(game, g + 1, seed)) from None
        spent = self.clock() - start
        self.bot_seconds += spent
        if spent > self.limit:
            raise BotError("timeout", f"the move took {spent:.2f} s, more than {self.limit:g} s",
                           "", position(game, g + 1, seed, answer))
        return answer

    def results(self) -> dict:
        return summary(self.rules, self.totals, self.box_points, self.box_scratches,
                       self.seconds, self.bot_seconds)


class MoveTimeout(Exception):
    """Raised inside a bot's move by a guard that interrupts it (the command line)."""


def summary(rules: Rules, totals: list[int], box_points: dict, box_scratches: dict,
            seconds: float = 0.0, bot_seconds: float | None = 0.0) -> dict:
    """A run's results, plain: mean, 2 SE, the references, a histogram, each box's average
    and scratch rate (``bot_seconds`` None: not measured, the engine's count of a run the
    page's sandbox played)."""
    n = len(totals)
    mean = sum(totals) / n if n else 0.0
    var = sum((t - mean) ** 2 for t in totals) / (n - 1) if n > 1 else 0.0
    sd = math.sqrt(var)
    se = sd / math.sqrt(n) if n else 0.0
    return {
        "game": rules.name,
        "games": n,
        "mean": round(mean, 4),
        "stdev": round(sd, 4),
        "se": round(se, 4),
        "min": min(totals) if totals else 0,
        "max": max(totals) if totals else 0,
        "reference": REFERENCE[rules.name] if rules == lab_rules(rules.name) else None,
        "histogram": histogram(totals),
        "boxes": [
            {"box": b, "mean": round(box_points[b] / n, 3) if n else 0.0,
             "scratched": round(box_scratches[b] / n, 4) if n else 0.0}
            for b in rules.categories
        ],
        "seconds": round(seconds, 3),
        "bot_seconds": None if bot_seconds is None else round(bot_seconds, 3),
        "games_per_second": round(n / seconds, 1) if seconds > 0 else None,
    }


def histogram(totals: list[int], bins: int = HISTOGRAM_BINS) -> list[dict]:
    """Final scores counted in bins of a round width (10, 20, 25, 50, ...): ``[{"from", "to",
    "count"}]``, ``to`` not included."""
    if not totals:
        return []
    low, high = min(totals), max(totals)
    width = 5
    for w in (5, 10, 20, 25, 50, 100, 200, 250, 500):
        width = w
        if (high - low) / w < bins:
            break
    start = math.floor(low / width) * width
    count = (high - start) // width + 1
    counts = [0] * count
    for t in totals:
        counts[(t - start) // width] += 1
    return [{"from": start + i * width, "to": start + (i + 1) * width, "count": c}
            for i, c in enumerate(counts)]


def run(source: str, game: str = "argentine", games: int = 1000, seed: int = 0, **kw) -> dict:
    """Play a whole run at once; its results (BotError when the bot fails)."""
    r = Run(source, game, games, seed, **kw)
    while not r.step(3600.0):
        pass
    return r.results()


# --- the page's sandbox ------------------------------------------------------------------
#
# In the page, a bot runs in a sandbox of its own (static/js/bot-lab.mjs: a worker in an
# opaque origin). The lab does not take its figures from there: the sandbox answers each
# game's moves (``advance``'s ``moves``), and the game's engine plays each game again from
# its seed with those moves (``replay_game``, the engine's ``op lab_games``), counting
# what it sees (``tally``) and summing up the run (``tally_results``, ``op lab_results``).

_RUN: Run | None = None


def start(source: str, game: str, games: int, seed: int = 0, first: int = 0,
          on_move=None) -> dict:
    """The page's sandbox: begin a run (``first``: the game to begin at, for a replay)."""
    global _RUN
    _RUN = None
    try:
        _RUN = Run(source, game, games, seed, on_move=on_move, first=first, record=True)
    except BotError as err:
        return {"error": err.to_json()}
    return {"done": _RUN.done, "games": games}


def advance(budget: float = 0.1) -> dict:
    """The page's sandbox: play on for ``budget`` seconds; ``{"done", "games", "moves"}``
    (``moves``: the moves of each game played since the last call, :func:`move_code`'s
    tokens joined by dots), or ``error`` when the bot failed. No figures: the engine
    counts the games from their moves."""
    r = _RUN
    try:
        r.step(budget)
    except BotError as err:
        return {"done": r.done, "games": r.games, "error": err.to_json()}
    return {"done": r.done, "games": r.games, "moves": r.take_moves()}


# A move as a token: an integer in base 36. Even: dice kept, ``mask << 1`` (bit i: the die
# at position i kept). Odd: boxes filled, ``(split << 10 | (b + 1) << 5 | a) << 1 | 1``
# (``a``, ``b``: the boxes' places on the sheet, b + 1 = 0 for one box; ``split``: with
# ten dice, the positions of the five that go to ``a``, else 0).
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_TOKEN_MAX = 9  # characters: ten dice's largest fill is 2**21 or so


def _base36(n: int) -> str:
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = _DIGITS[d] + out
        if n == 0:
            return out


def _mask(positions) -> int:
    return sum(1 << i for i in set(positions))


def move_code(rules: Rules, action: dict) -> str:
    """The token of one checked move (:func:`to_action`'s ``{"keep": positions}`` or score
    action)."""
    if "keep" in action:
        return _base36(_mask(action["keep"]) << 1)
    boxes, cats = action["score"], list(rules.categories)
    if isinstance(boxes, str):
        a, b, split = cats.index(boxes), -1, 0
    else:
        a, b, split = cats.index(boxes[0]), cats.index(boxes[1]), _mask(action.get("split") or ())
    return _base36(((split << 10 | (b + 1) << 5 | a) << 1) | 1)


def move_of(game: Game, token) -> dict:
    """The move a token stands for in ``game`` now, checked as a bot's answer is
    (:func:`to_action`'s ``{"keep": positions}`` or score action); BotError ``illegal``
    when it is none."""
    move = _move_of(game, token)
    return move if isinstance(move, dict) else move.to_json()


def _move_of(game: Game, token):
    """:func:`move_of`, a fill as the engine's action (replayed without going through JSON)."""
    if not isinstance(token, str) or not 0 < len(token) <= _TOKEN_MAX \
            or any(c not in _DIGITS for c in token):
        raise _illegal(f"{token!r} is not a move")
    n = int(token, 36)
    rules, cats = game.rules, list(game.rules.categories)
    if n % 2 == 0:
        mask = n >> 1
        if mask >> rules.dice:
            raise _illegal(f"{token!r} keeps dice that are not there")
        keep = [i for i in range(rules.dice) if mask >> i & 1]
        if game.rolls_left == 0:
            raise _illegal(f"no rolls left: a box to fill, got dice kept {keep}")
        if len(keep) == rules.dice:
            raise _illegal("every die is kept: a box to fill instead")
        return {"keep": keep}
    n >>= 1
    a, b, split = n & 31, (n >> 5 & 31) - 1, n >> 10
    if a >= len(cats) or b >= len(cats):
        raise _illegal(f"{token!r} names no box of {rules.name}")
    if rules.boxes_per_turn == 2:
        positions = [i for i in range(rules.dice) if split >> i & 1]
        if b < 0 or split >> rules.dice or len(positions) != 5:
            raise _illegal(f"{token!r}: ten dice fill two boxes, five dice each")
        return _fill_action(game, cats[a], cats[b], positions)
    if b >= 0 or split:
        raise _illegal(f"{token!r}: five dice fill one box")
    return _fill_action(game, cats[a])


def replay_game(rules: Rules, seed: int, number: int, text: str) -> Game:
    """Game ``number`` (from 0) of a run with ``seed``, played again with the moves of
    ``text`` (tokens joined by dots): the finished game. BotError ``illegal`` (with the
    position) when a move is not one the game allows there, or the moves end before the
    game does or go on after it."""
    game = Game(rules, ["bot"], SeededRoller(seed + number))
    tokens = text.split(".") if text else []
    k = 0
    while not game.over:
        if game.rolls == 0:
            game.roll()
            continue
        try:
            if k == len(tokens):
                raise _illegal("the moves end before the game does")
            action = _move_of(game, tokens[k])
        except BotError as err:
            err.position = position(game, number + 1, seed + number)
            raise
        k += 1
        if isinstance(action, dict):
            game.hold(action["keep"])
            game.roll()
        else:
            game.play(action)
    if k != len(tokens):
        raise BotError("illegal", "moves after the end of the game", "",
                       position(game, number + 1, seed + number))
    return game


def new_tally(game: str, seed: int) -> dict:
    """What the engine has counted of a run: no game yet."""
    rules = lab_rules(game)
    return {"game": game, "seed": seed, "games": 0, "totals": {},
            "points": [0] * len(rules.categories), "scratched": [0] * len(rules.categories)}


def tally(state: dict, moves: list) -> dict:
    """``state`` (:func:`new_tally`'s, or this function's) with the next games counted, each
    played again from its seed with its ``moves`` (:func:`replay_game`). BotError
    ``illegal`` when a game's moves are not legal there; ``load`` when there are more
    games than a run has."""
    rules = lab_rules(state["game"])
    out = {**state, "totals": dict(state["totals"]), "points": list(state["points"]),
           "scratched": list(state["scratched"])}
    if out["games"] + len(moves) > GAMES_MAX:
        raise BotError("load", f"games: from {GAMES_MIN} to {GAMES_MAX}")
    cats = list(rules.categories)
    for text in moves:
        game = replay_game(rules, out["seed"], out["games"], text)
        total = str(game.totals()[0])
        out["totals"][total] = out["totals"].get(total, 0) + 1
        for i, box in enumerate(cats):
            points = game.sheets[0][box]
            out["points"][i] += points
            out["scratched"][i] += rules.scratches(box, points)
        out["games"] += 1
    return out


def tally_results(state: dict, seconds: float = 0.0) -> dict:
    """A run's results (:func:`summary`'s) from what the engine counted."""
    rules = lab_rules(state["game"])
    totals = sorted(int(t) for t, n in state["totals"].items() for _ in range(n))
    cats = list(rules.categories)
    return summary(rules, totals, dict(zip(cats, state["points"])),
                   dict(zip(cats, state["scratched"])), seconds, None)


def check_tally(state) -> dict:
    """``state`` when it is a tally (:func:`new_tally`'s shape, its numbers consistent),
    else ValueError."""
    if not isinstance(state, dict) or set(state) != {"game", "seed", "games", "totals", "points",
                                                      "scratched"}:
        raise ValueError("not a tally")
    if state["game"] not in SPECS:
        raise ValueError("not a game")
    n = len(lab_rules(state["game"]).categories)
    games, totals = state["games"], state["totals"]
    if type(state["seed"]) is not int or state["seed"] < 0 or type(games) is not int \
            or not 0 <= games <= GAMES_MAX:
        raise ValueError("seed or games")
    if not isinstance(totals, dict) or not all(
            isinstance(t, str) and re.fullmatch(r"-?[0-9]{1,6}", t) and type(c) is int and c > 0
            for t, c in totals.items()) or sum(totals.values()) != games:
        raise ValueError("totals")
    for key in ("points", "scratched"):
        v = state[key]
        if not isinstance(v, list) or len(v) != n or not all(type(x) is int for x in v):
            raise ValueError(key)
    return state


def state_of(game: Game) -> dict:
    """The plain state of a game at a saved bot's move (``op bot``'s ``ask``): what
    :func:`choose` needs to make the bot's :class:`Turn`, and nothing of the engine's."""
    return {
        "game": game.rules.name,
        "options": dict(game.rules.options),
        "dice": list(game.dice),
        "rolls": game.rolls,
        "sheets": [dict(s) for s in game.sheets],
        "side": game.current,
        "turn": game.round,
    }


#: The page's seat worker: one player per bot source and seat (``Bot()`` made once, so
#: a class keeps its notes from move to move of a game).
_SEATS: dict = {}


def choose(source: str, state: dict, seat: str = "") -> dict:
    """One move of a saved bot in a game (the page's bot worker): ``state`` is
    :func:`state_of`'s (``game``, ``options``, ``dice``, ``rolls`` made, ``sheets`` of every
    side, ``side``, ``turn``). Answers ``{"move": ...}`` (keep: ``{"keep": [positions]}``,
    fill: the engine's score action), checked here as in a run, or ``{"error": ...}``
    (an exception, an illegal move, a move past ``LIMIT`` seconds). ``seat`` names the
    game's seat, so a class ``Bot`` is made once for it."""
    rules = variant(state["game"], **state.get("options", {}))
    sheets = state["sheets"]
    game = Game(rules, [f"s{i}" for i in range(len(sheets))], None, rolloff=False)
    # each sheet in sheet order, whatever order its keys came in (the page's MicroPython
    # does not keep a dict's order): the bot sees the same turn as in CPython
    game.sheets = [{box: s.get(box) for box in rules.categories} for s in sheets]
    side = state["side"]
    game.order = tuple(range(len(sheets)))
    turn_no = state.get("turn")
    if turn_no is None:
        turn_no = sum(v is not None for v in sheets[side].values()) // rules.boxes_per_turn + 1
    game.turn = (turn_no - 1) * len(sheets) + side
    game.dice = tuple(state["dice"])
    game.rolls = state["rolls"]
    key = (seat, source) if seat else None
    move = None
    try:
        play = _SEATS.get(key) if key else None
        if play is None:
            play = load(source)()
            if key:
                if len(_SEATS) > 16:
                    _SEATS.clear()
                _SEATS[key] = play
        turn = Turn(game)
        start = time.perf_counter()
        move = play(turn)
        spent = time.perf_counter() - start
        if spent > LIMIT:
            raise BotError("timeout", f"the move took {spent:.2f} s, more than {LIMIT:g} s")
        return {"move": to_action(game, move)}
    except BotError as err:
        if err.position is None:
            err.position = position(game, 1, 0, move)
        return {"error": err.to_json()}
    except Exception as exc:  # noqa: BLE001 - the bot's own error
        return {"error": BotError("exception", f"{type(exc).__name__}: {exc}",
                                  _bot_trace(exc, "bot.py"), position(game, 1, 0)).to_json()}
