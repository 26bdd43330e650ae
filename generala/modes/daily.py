"""The daily challenge: one solo game a day for each game, with the same dice for everyone.

**The seed.** The challenge of a game on a date (the player's local date, ``YYYY-MM-DD``)
is rolled by a :class:`~generala.rules.roller.SeededRoller` whose seed is the first eight bytes
of ``SHA-256("generala-daily/v1/<game>/<YYYY-MM-DD>")`` (UTF-8), read big-endian, shifted
right by one bit (a seed is below 2**63). That roller is a stream: die number ``n`` of the
day depends only on the seed and ``n``, and a game draws the dice it throws in order, so
the n-th die thrown that day is the same for everyone; what a player holds decides how
many dice each roll draws, and so which dice of the stream they see.

**The game.** The game's default house options with its automatic win off (as for the
solver and the lab: the challenge is a score attack against perfect play, and a served
hand scores its points), one side played by a person, no undo, no hint and no coach until
it is over. The save document says so: ``"daily": {"date": "YYYY-MM-DD", "late": false}``
(``late``: started on another day than its date; a late challenge does not count for the
streak: a challenge counts for the day it was started on), and ``"again": true`` for a
challenge played again after its first game was deleted (it does not count either). No
challenge of a day after ``today`` is made (``daily.future``). Loading checks that the
document is exactly that challenge (those options, one person, the date's seed), so a
saved challenge cannot be changed into another one. A challenge saved by an older
version was played with the variant's default options, its automatic win on: it loads
as it was played (:data:`OPTIONS_BEFORE`).

**The end** (:func:`result`): the score, the optimal player's expected score from the
start, what the optimal player scored on the same stream under the same rules (it plays
the same seed: its holds decide what it sees), the skill lost turn by turn from the coach's report, and a
mark for each box (:data:`MARKS`) for the share text, which tells no die.

**The history** (:func:`history`): from the saved games of this browser (the records'
entries), each game's status today and the streak of days with a challenge finished on
its day.
"""
from __future__ import annotations

import hashlib
from datetime import date as _date, timedelta

from ..rules import save
from ..rules.errors import InvalidInput, IllegalAction, SaveError
from ..rules.game import Game
from ..rules.refusals import shown
from ..rules.roller import SeededRoller
from ..rules.variants import VARIANTS, variant

#: The text hashed for a seed; ``{game}`` is the variant id, ``{date}`` the local date.
DERIVATION = "generala-daily/v1/{game}/{date}"
#: The name of the one side when none is given (the page gives it in the player's language).
PLAYER = "You"
#: A turn that lost less than this many points of expected score against perfect play
#: filled its box(es) well.
WELL = 1.0
#: A box's mark: filled well, filled poorly (the turn lost WELL or more), scratched (0
#: written), open (the game ended before it was filled: an automatic win).
MARKS = ("well", "poorly", "scratched", "open")
#: The options a challenge is played with: the variant's defaults, its automatic win off.
#: Older versions played it with the defaults as they are (the win on): their saves load so.
OPTIONS_NOW, OPTIONS_BEFORE = "now", "before"


def rules(game: str, played: str = OPTIONS_NOW):
    """The rules of ``game``'s challenge: its default options with the automatic win off
    (``played`` OPTIONS_BEFORE: the defaults as they are, as older versions played it)."""
    spec = variant(game).spec
    auto = spec.auto_win
    if played == OPTIONS_NOW and auto is not None:
        return variant(game, **{auto.option: False})
    return variant(game)


def check_date(text) -> str:
    """``text`` when it is a real date written ``YYYY-MM-DD``; else ``daily.date``."""
    if isinstance(text, str) and len(text) == 10 and text[4] == "-" and text[7] == "-":
        try:
            if _date.fromisoformat(text).isoformat() == text:
                return text
        except ValueError:
            pass
    raise InvalidInput("daily.date", {"got": shown(text)})


def seed(game: str, date: str) -> int:
    """The seed of ``game``'s challenge on ``date`` (see the module's text)."""
    if game not in VARIANTS:
        variant(game)  # refuses it, naming the variants
    text = DERIVATION.format(game=game, date=check_date(date))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def roller(game: str, date: str) -> SeededRoller:
    return SeededRoller(seed(game, date))


def check_not_future(date: str, today: str | None) -> None:
    """``daily.future`` when ``date`` is after ``today`` (both checked dates): a day to come
    has no challenge yet."""
    if today is not None and date > today:
        raise IllegalAction("daily.future", {"date": date, "today": today})


def new_game(game: str, date: str, today: str | None = None, name: str = PLAYER, again: bool = False):
    """The challenge of ``game`` on ``date``, not started; late when ``today`` is another day
    (``daily.future`` when ``date`` is after it). ``name``: the one side's (the page gives
    "You" in the player's language). ``again``: played again after its first game was
    deleted (marked, and it does not count for the streak)."""
    date = check_date(date)
    today = check_date(today) if today is not None else None
    late = today is not None and today != date
    check_not_future(date, today)
    played = Game(rules(game), [{"name": name, "members": [], "player": "human"}],
                  roller(game, date))
    played.daily = {"date": date, "late": late}
    if again:
        played.daily["again"] = True
    return played


def check_document(doc: dict, game) -> dict:
    """The ``daily`` field of a save document, checked against the game it loads as:
    ``save.daily`` when it is not exactly that date's challenge."""
    info = doc.get("daily")
    if (not isinstance(info, dict) or set(info) - {"again"} != {"date", "late"}
            or type(info["late"]) is not bool or info.get("again", True) is not True):
        raise SaveError("save.daily", {"got": shown(info)})
    try:
        date = check_date(info["date"])
    except InvalidInput:
        raise SaveError("save.daily", {"got": shown(info)}) from None
    played = game.rules
    saved = doc.get("roller")
    if (played.options not in (rules(played.name).options, rules(played.name, OPTIONS_BEFORE).options)
            or len(game.sides) != 1 or game.sides[0].player != "human"
            or not isinstance(saved, dict) or saved.get("kind") != "seeded"
            or saved.get("seed") != seed(played.name, date)):
        raise SaveError("save.daily", {"got": shown(info)})
    checked = {"date": date, "late": info["late"]}
    if info.get("again"):
        checked["again"] = True
    return checked


save.register_field("daily", check_document)


def refuse_help(game) -> None:
    """A challenge in play gives no hint and no coach: ``daily.no_help``."""
    if not game.helps:
        raise IllegalAction("daily.no_help")


# --- the end --------------------------------------------------------------------

_perfect: dict = {}


def perfect(game, date: str) -> dict:
    """The optimal player's game on that day's stream: ``{"score", "rolls", "history"}``.
    ``game``: the variant id (the challenge's rules now) or the rules a challenge was
    played with (an older one's: perfect play is scored the same way). Deterministic: the
    same seed, the same table, the same choices."""
    played_rules = rules(game) if isinstance(game, str) else game
    key = (played_rules, check_date(date))
    got = _perfect.get(key)
    if got is None:
        from ..ai import players  # the computer players load when a challenge ends, not before
        played = Game(played_rules, [{"name": PLAYER, "members": [], "player": "human"}],
                      roller(played_rules.name, date))
        bot = players.make_player("optimal", played.rules)
        players.play(played, [bot])
        got = _perfect[key] = {"score": played.totals()[0],
                               "rolls": sum(1 for a in played.history if "roll" in a),
                               "history": [dict(a) for a in played.history]}
    return got


def result(game) -> dict:
    """The end of a finished challenge (the value table must be loaded)::

        {"variant", "date", "late", "again", "score", "expected", "perfect", "skill_loss",
         "turns": [{"turn", "boxes", "points", "loss"}], "marks": [{"box", "mark"}]}
    """
    info = getattr(game, "daily", None)
    if not info:
        raise IllegalAction("daily.not_daily")
    if not game.over:
        raise IllegalAction("daily.unfinished")
    from ..ai import coach  # as the players: loaded when first needed
    report = coach.report(game)["sides"][0]
    by_turn: dict[int, float] = {}
    for decision in report["decisions"]:
        by_turn[decision["turn"]] = by_turn.get(decision["turn"], 0.0) + decision["loss"]
    sheet = game.sheets[0]
    turns, mark_of = [], {}
    turn = 0
    for action in game.history:
        if "score" not in action:
            continue
        turn += 1
        boxes = action["score"] if isinstance(action["score"], list) else [action["score"]]
        loss = round(by_turn.get(turn, 0.0), 2)
        turns.append({"turn": turn, "boxes": boxes, "points": [sheet[b] for b in boxes], "loss": loss})
        for box in boxes:
            mark_of[box] = "scratched" if sheet[box] == 0 else ("well" if loss < WELL else "poorly")
    marks = [{"box": box, "mark": mark_of.get(box, "open")} for box in game.rules.categories]
    best = perfect(game.rules, info["date"])
    return {"variant": game.rules.name, "date": info["date"], "late": info["late"],
            "again": bool(info.get("again")),
            "score": game.totals()[0], "expected": round(report["start"], 2),
            "perfect": best["score"], "skill_loss": round(report["skill_loss"], 2),
            "turns": turns, "marks": marks}


def share(result: dict) -> dict:
    """What the share text tells, and nothing else: no die, no box's points."""
    return {"variant": result["variant"], "date": result["date"], "late": result["late"],
            "again": result["again"], "score": result["score"], "perfect": result["perfect"],
            "marks": [m["mark"] for m in result["marks"]],
            "row": 5 if len(result["marks"]) % 5 == 0 else 4 if len(result["marks"]) % 4 == 0 else 6}


# --- the history ----------------------------------------------------------------

def history(entries, today: str, date: str | None = None) -> dict:
    """The challenges among saved games ``[{"id", "save", "when"}, ...]``; ``games``: each
    game's status on ``date`` (today when not given)::

        {"today": today, "date": date,
         "games": {variant: {"status": "new"|"playing"|"done", "id", "score", "again"}},
         "streak": n, "best_streak": n, "days": [{"date", "variant", "score", "late", "again", "over", "id"}]}

    ``streak``: days in a row, ending today (or yesterday while today's is not finished),
    with at least one challenge started on its day (not late), finished, and not played
    again after its first game was deleted: a challenge counts for the day it was started
    on, whenever it is finished. ``date`` after ``today``: ``daily.future``. One damaged
    save never hides the others (it is skipped)."""
    today = check_date(today)
    date = check_date(date) if date is not None else today
    check_not_future(date, today)
    days, games = [], {name: {"status": "new", "id": None, "score": None, "again": False} for name in VARIANTS}
    for entry in entries if isinstance(entries, list) else []:
        try:
            if not isinstance(entry, dict) or not isinstance(entry.get("save"), dict) \
                    or "daily" not in entry["save"]:
                continue
            played = Game.from_json(entry["save"])
        except (SaveError, TypeError, KeyError):
            continue
        info = played.daily
        day = {"date": info["date"], "variant": played.rules.name, "late": info["late"],
               "again": bool(info.get("again")), "over": played.over,
               "score": played.totals()[0] if played.over else None, "id": entry.get("id")}
        days.append(day)
        if info["date"] == date:
            mine = games[played.rules.name]
            if mine["status"] != "done":  # a finished one wins over a copy in play
                games[played.rules.name] = {"status": "done" if played.over else "playing",
                                            "id": day["id"], "score": day["score"], "again": day["again"]}
    days.sort(key=lambda d: (d["date"], d["variant"]), reverse=True)
    counted = {d["date"] for d in days if d["over"] and not d["late"] and not d["again"]}
    streak, day = 0, _date.fromisoformat(today)
    if day.isoformat() not in counted:
        day -= timedelta(days=1)
    while day.isoformat() in counted:
        streak += 1
        day -= timedelta(days=1)
    best = run = 0
    previous = None
    for text in sorted(counted):
        current = _date.fromisoformat(text)
        run = run + 1 if previous is not None and current - previous == timedelta(days=1) else 1
        best, previous = max(best, run), current
    return {"today": today, "date": date, "games": games, "streak": streak, "best_streak": best, "days": days}
