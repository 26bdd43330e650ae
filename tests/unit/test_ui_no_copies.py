"""The page decides no game rule: static/ui reads the engine's view, replies and catalog
(docs/ARCHITECTURE.md, "The view's fields"). This scan fails when a copy comes back in a
page module (the word tables aside):

- a computer level's player value written out or parsed (a string with ``ai:``): the view's
  ``sides[i].computer`` and ``acting``, the catalog's ``levels``;
- a limit of the catalog's ``limits`` written as a number (a name's length, the largest
  seed, ``2 ** 63``, an export file's size; the number of sides compared), or the old
  copies' names (``MAX_SIDES``, ``MAX_NAME``, ``MAX_SEED``, ``MAX_FILE``, ``MAX_BYTES``,
  ``LEVELS``, ``PLAYERS``);
- the split's five dice counted (``len(...) == 5``): the view's ``split_sizes``;
- a 0 taken for a scratch (``preview == 0``): the cell's ``scratch`` and ``request``;
- a save's history read (``["history"]``, ``.get("history")``): whose turn a replayed step
  is, and whether a game is a score-sheet game, are the views';
- the list of games written out (a list or tuple of two or more of the catalog's game
  ids): the catalog's ``games``, in the order shown;
- a game special-cased by its id (a comparison with a game id, ``view["variant"] ==
  "bulgarian"``): the view says what differs (the paper sheet: ``sides[i].paper``);
- a threshold of the engine's written out (a float compared, the name ``BEST``): which
  choice is the best is the engine's (``is_best`` of a hint's choice and of a report's
  decision, a move's ``cost_best``);
- the daily challenge's "no help in play" (``daily`` and ``over`` read together) and "no
  report for a score-sheet game" (``over`` and ``sheet`` read together): the view's
  ``help`` and ``can_report``;
- a new game guessed from the view (its ``rolls`` compared with 0): the view's ``moves``;
- a hold or score request built on the page (``{"op": "hold"}``, ``{"op": "score"}``):
  the cells', the hints' and the split's ``request``;
- a computer level picked out by its id (a level id compared, or listed), a saved bot's
  option value parsed (``startswith(BOT_VALUE)``): the catalog's levels (``min_sides``),
  the option's ``data-bot``;
- the dice of a score-sheet entry counted (a ``count`` set to or compared with 5 or 10)
  or its rolls written out (``(1, 2, 3)``, ``range(1, 4)``): the view's ``dice_count``
  and ``entry_rolls``;
- "served" taken for the first roll (a roll's number compared with 1): the view's
  ``served`` and the ``enter`` event's;
- the number of sides capped at the limit (``min(len(sides), 8)``);
- a moment found by comparing two views (the previous view's ``held``, ``over`` or
  ``dice`` read): the view's events (``hold``'s ``changed``, ``game_over``).

The first paint's level picker (index.html, plain HTML before the UI runs) lists the
catalog's levels.
"""
import ast
from pathlib import Path

import pytest

from generala.catalog import catalog

UI = Path(__file__).resolve().parents[2] / "static" / "ui"
LIMITS = catalog()["limits"]
NAMES = {"MAX_SIDES", "MAX_NAME", "MAX_SEED", "MAX_FILE", "MAX_BYTES", "LEVELS", "PLAYERS"}
NUMBERS = {LIMITS["name"], LIMITS["seed"], LIMITS["file_bytes"]}
GAMES = set(catalog()["games"])
LEVEL_IDS = {level["id"] for level in catalog()["levels"]}
REQUESTS = {"hold", "score"}  # the engine's requests a page must take from a view or a reply
ROLL_KEYS = {"rolls", "roll", "at"}  # a roll's number, in a view or an event
EARLIER = ("prev", "before", "old")  # names of a view drawn earlier


def _key(node):
    """The string key ``node`` reads (``x["key"]`` or ``x.get("key")``), else None."""
    if isinstance(node, ast.Subscript) and _const(node.slice, str):
        return node.slice.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and node.args and _const(node.args[0], str):
        return node.args[0].value
    return None


def _keys(node):
    """Every string key read anywhere under ``node``."""
    return {k for n in ast.walk(node) for k in [_key(n)] if k is not None}


def _base_name(node):
    """The name a subscript or ``.get`` reads from (``prev`` of ``prev["held"][i]``)."""
    while isinstance(node, (ast.Subscript, ast.Call, ast.Attribute)):
        node = node.value if not isinstance(node, ast.Call) else node.func.value if isinstance(node.func, ast.Attribute) else None
        if node is None:
            return None
        if isinstance(node, ast.Attribute) and not isinstance(node.value, (ast.Subscript, ast.Call)):
            return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _named(node, part):
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return part in name.lower()


def _const(node, kind):
    return isinstance(node, ast.Constant) and type(node.value) is kind


def copies(source):
    """(line, what) for each copy of an engine rule in the Python ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        found.extend((line, what) for what in _decided(node))
        if _const(node, str) and "ai:" in node.value:
            found.append((line, "a computer level's player written out: " + repr(node.value)))
        elif _const(node, int) and node.value in NUMBERS:
            found.append((line, "a limit of the catalog written out: " + str(node.value)))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and _const(node.right, int) \
                and node.right.value == 63:
            found.append((line, "the largest seed written out"))
        elif isinstance(node, (ast.Name, ast.Attribute)):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in NAMES:
                found.append((line, "an old copy's name: " + name))
        elif isinstance(node, ast.Compare):
            sides = [node.left] + list(node.comparators)
            if any(_const(s, str) and s.value in GAMES for s in sides):
                found.append((line, "a game special-cased by its id"))
            if any(_const(s, int) and s.value == LIMITS["sides"] for s in sides):
                found.append((line, "the number of sides compared with the limit"))
            counted = any(isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id == "len"
                          for s in sides)
            if counted and any(_const(s, int) and s.value in (5, 10) for s in sides):
                found.append((line, "dice counted against five (or ten)"))
            if any(isinstance(s, ast.Subscript) and _const(s.slice, str) and s.slice.value == "preview"
                   for s in sides) and any(_const(s, int) and s.value == 0 for s in sides):
                found.append((line, "a 0 taken for a scratch"))
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) \
                and sum(_const(e, str) and e.value in GAMES for e in node.elts) >= 2:
            found.append((line, "the list of games written out"))
        elif isinstance(node, ast.Subscript) and _const(node.slice, str) and node.slice.value == "history":
            found.append((line, "a save's history read"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and _const(node.args[0], str) and node.args[0].value == "history":
            found.append((line, "a save's history read"))
    return found


def _decided(node):
    """What ``node`` decides that the engine says (the rules of the view's help, report,
    best moves, served dice, entry, levels and moments)."""
    out = []
    if isinstance(node, ast.Compare):
        sides = [node.left] + list(node.comparators)
        if any(_const(s, float) for s in sides):
            out.append("a threshold of the engine's written out")
        if any(_const(s, int) and s.value == 0 for s in sides) and any(_key(s) == "rolls" for s in sides):
            out.append("a new game guessed from the view's rolls")
        if any(_const(s, int) and s.value == 1 for s in sides) and any(_key(s) in ROLL_KEYS for s in sides):
            out.append("served taken for the first roll")
        if all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops) \
                and any(_const(s, str) and s.value in LEVEL_IDS for s in sides):
            out.append("a computer level picked out by its id")
        if any(_const(s, int) and s.value in (5, 10) for s in sides) and any(_named(s, "count") for s in sides):
            out.append("the dice of an entry counted against five (or ten)")
    elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        keys = set().union(*(_keys(v) for v in node.values))
        if {"daily", "over"} <= keys:
            out.append("no help in a daily challenge decided on the page")
        if {"over", "sheet"} <= keys:
            out.append("no report for a score-sheet game decided on the page")
    elif isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if _const(k, str) and k.value == "op" and _const(v, str) and v.value in REQUESTS:
                out.append("a " + v.value + " request built on the page")
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        if any(_const(e, str) and e.value in LEVEL_IDS for e in node.elts):
            out.append("a computer level picked out by its id")
        if [e.value for e in node.elts if _const(e, int)] == [1, 2, 3] and len(node.elts) == 3:
            out.append("a score-sheet entry's rolls written out")
    elif isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        consts = [a.value for a in node.args if _const(a, int)]
        if name == "range" and consts == [1, 4]:
            out.append("a score-sheet entry's rolls written out")
        if name in ("min", "max") and LIMITS["sides"] in consts:
            out.append("the number of sides capped at the limit")
        if name == "startswith" and node.args and (
                (isinstance(node.args[0], ast.Name) and node.args[0].id == "BOT_VALUE")
                or (_const(node.args[0], str) and node.args[0].value.startswith("bot:"))):
            out.append("a saved bot's option value parsed")
    elif isinstance(node, ast.Assign) and _const(node.value, int) and node.value.value in (5, 10) \
            and any(_named(t, "count") for t in node.targets):
        out.append("the dice of an entry counted as five (or ten)")
    elif isinstance(node, (ast.Name, ast.Attribute)) and (node.id if isinstance(node, ast.Name) else node.attr) \
            in ("BEST", "TO_WIN"):
        out.append("an old copy's name")
    elif _key(node) in ("held", "over", "dice") and (_base_name(node) or "").lower().startswith(EARLIER):
        out.append("a moment found by comparing two views")
    return out


def page_modules():
    return sorted(p for p in UI.rglob("*.py") if not p.name.startswith("words_"))


def test_the_scan_finds_each_kind_of_copy():
    """Each copy the page once had is found (a scan that finds nothing proves nothing)."""
    once = {
        'PLAYERS = [("ai:beginner", "setup.ai_beginner")]': 2,
        'player[3:] if player.startswith("ai:") else None': 1,
        "MAX_SIDES = 8": 1,
        "MAX_NAME = 24": 2,
        "MAX_SEED = 2 ** 63 - 1": 2,
        "MAX_FILE = 5_000_000": 2,
        "if n >= 8: pass": 1,
        "ok = len(in_a) == 5": 1,
        'zero = cell["preview"] == 0 and not row["mandatory"]': 1,
        'first = doc["history"][0]': 1,
        'history = save.get("history")': 1,
        "if n >= limits['sides']: pass": 0,
        'ok = len(in_a) == view["split_sizes"][0]': 0,
        'ask = cell["scratch"]': 0,
        'level = side["computer"]': 0,
        'ORDER = ["argentine", "puerto-rican", "double", "bulgarian"]': 1,
        'GAMES = ("argentine", "puerto-rican", "double", "bulgarian")': 1,
        'bulgarian = view["variant"] == "bulgarian"': 1,
        'if view["variant"] != "bulgarian": pass': 1,
        'x = roman(p) if view["variant"] == "bulgarian" else str(p)': 1,
        'for name in catalog["games"]: pass': 0,
        'paper = any(s.get("paper") is not None for s in view["sides"])': 0,
        # the coach (players/coach_panel.py)
        "BEST = 0.005": 1,
        'text = best_words if cost < BEST else cost_words': 1,
        'best = c["is_best"]': 0,
        'if view.get("daily") and not view["over"]: people = False': 1,
        'over = bool(view["over"]) and not view["sheet"]': 1,
        'hidden = not view["can_report"]': 0,
        'new = view.get("last") is None and view["rolls"] == 0': 1,
        'new = view["moves"] == 0': 0,
        'game.act({"op": "hold", "dice": action["hold"]})': 1,
        'game.act({"op": "score", "box": action["score"], "scratch": False})': 1,
        'game.act(c["request"])': 0,
        # the setup form (screens/setup.py)
        'TO_WIN = ("expert",)': 2,
        'to_win = [level["player"] for level in levels if level["id"] == "expert"]': 1,
        'if player.startswith(BOT_VALUE): pass': 1,
        'hidden = n < least': 0,
        # score-sheet mode (screens/sheetmode.py, replayview.py)
        "self.count = 5": 1,
        'hint = "44126" if count == 5 else "1122334455"': 1,
        "for at in (1, 2, 3): pass": 1,
        "for at in range(1, 4): pass": 1,
        'for at in view["entry_rolls"]: pass': 0,
        'served = words.t("sheetmode.served") if view["rolls"] == 1 else ""': 1,
        'served = words.t("replay.served") if event["at"] == 1 else ""': 1,
        'served = words.t("replay.served") if event.get("served") else ""': 0,
        # the board (board/render.py)
        'cls = "sheet sides-" + str(min(len(sides), 8))': 1,
        'moved = [i for i in range(n) if bool(prev["held"][i]) != bool(held[i])]': 1,
        'if over and prev is not None and not prev["over"]: pass': 1,
        'starts = not any(c["value"] is not None for c in cells) and view["rolls"] == 0': 1,
        'if happened and ended(view.get("events")): pass': 0,
    }
    for source, count in once.items():
        assert len(copies(source)) == count, (source, copies(source))


@pytest.mark.parametrize("path", page_modules(), ids=lambda p: str(p.relative_to(UI)))
def test_no_page_module_copies_an_engine_rule(path):
    assert copies(path.read_text(encoding="utf-8")) == []


def test_every_page_module_is_scanned():
    assert {p.name for p in page_modules()} >= {"controller.py", "render.py", "cues.py", "shapes.py",
                                                 "setup.py", "quickplay.py", "computer.py", "coach_panel.py",
                                                 "replayview.py", "sheetmode.py", "transfer.py", "page_boot.py"}


def test_the_first_paints_levels_are_the_catalogs():
    """index.html's one-tap level picker is drawn before the UI runs (plain HTML): its
    choices are the catalog's levels, in their order (the home screen keeps only those)."""
    import re
    html = (UI.parents[1] / "index.html").read_text(encoding="utf-8")
    picker = re.search(r'<select id="quick-level">(.*?)</select>', html, re.S)
    assert picker, "no #quick-level in index.html"
    values = re.findall(r'<option value="([^"]+)"', picker.group(1))
    assert values == [level["player"] for level in catalog()["levels"]]


def test_the_first_paints_lists_of_games_are_written_from_the_catalog():
    """index.html's one-tap game picker and the daily challenge's buttons are plain HTML
    drawn before the UI runs: the build writes them from the catalog (tools/build.py
    write_games), each the catalog's games in its order; index.html holds one template
    line each, no game of its own. Another order, or a fifth game, is followed."""
    import re
    from tools import build as site_build
    html = (UI.parents[1] / "index.html").read_text(encoding="utf-8")
    assert not re.findall(r'<option value="([^"{]+)" data-words="game\.', html), "a game written in index.html"
    assert not re.findall(r'data-daily="([^"{]+)"', html), "a game written in index.html"

    def lists(cat):
        out = site_build.write_games(html, cat)
        picker = re.search(r'<select id="quick-game">(.*?)</select>', out, re.S).group(1)
        titles = re.findall(r'<span class="daily-game-title">([^<]*)</span>', out)
        return (re.findall(r'<option value="([^"]+)"', picker), re.findall(r'data-daily="([^"]+)"', out), titles)

    real = catalog()
    assert lists(real) == (real["games"], real["games"], [real["variants"][g]["title"] for g in real["games"]])
    fifth = {"games": ["bulgarian", "fifth", "argentine"],
             "variants": {**real["variants"], "fifth": {"title": "Fifth & <last>"}}}
    assert lists(fifth) == (fifth["games"], fifth["games"], ["Генерал", "Fifth &amp; &lt;last&gt;", "Generala"])
