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
  "bulgarian"``): the view says what differs (the paper sheet: ``sides[i].paper``).

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


def _const(node, kind):
    return isinstance(node, ast.Constant) and type(node.value) is kind


def copies(source):
    """(line, what) for each copy of an engine rule in the Python ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
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


def test_the_first_paints_lists_of_games_are_in_the_catalogs_order():
    """index.html's one-tap game picker and the daily challenge's buttons are plain HTML
    drawn before the UI runs: each lists the catalog's games, in its order."""
    import re
    html = (UI.parents[1] / "index.html").read_text(encoding="utf-8")
    picker = re.search(r'<select id="quick-game">(.*?)</select>', html, re.S)
    assert picker, "no #quick-game in index.html"
    assert re.findall(r'<option value="([^"]+)"', picker.group(1)) == catalog()["games"]
    assert re.findall(r'data-daily="([^"]+)"', html) == catalog()["games"]
