"""The engine's layers: save documents sit below the game (no import circle between
rules/game.py and rules/save.py, and the save format knows no mode of play), pricing is
Rules' public API (no module reaches into its private names), and the solver, the split
pricing and the legality of actions are each written once: the adapters, the view and the
coach go through them (each test swaps the one place for a spy and sees it used)."""
import re
from pathlib import Path

import pytest

from generala import app, variant
from generala.ai import solver
from generala.rules.actions import Roll
from generala.rules.game import Game
from generala.rules.roller import ScriptedRoller
from generala.rules.variants import Rules
from tools import layers

ENGINE = Path(__file__).resolve().parents[2] / "generala"


def engine_graph():
    graph, _ = layers.check(layers.TREES["generala"])
    return {name: {target for target, _ in targets} for name, targets in graph.items()}


def test_save_is_below_game_and_knows_no_mode_of_play():
    graph = engine_graph()
    assert "rules.save" in graph["rules.game"]  # Game.to_json / from_json go through it
    # every import counted, late ones too: the save format reaches nothing but the rules
    assert graph["rules.save"] and all(t.startswith("rules.") and t != "rules.game" for t in graph["rules.save"])
    assert "modes.daily" not in graph["rules.save"]


def test_no_module_reaches_into_the_rules_private_names():
    private = re.compile(r"\.(_price|_prices|_check_pair|_options)\b")
    for path in ENGINE.rglob("*.py"):
        if path.name == "variants.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not private.findall(text), path


def test_op_solve_runs_the_solvers_own_loop(monkeypatch):
    """op solve slices ``solver.solving``: a spy in its place is what the op reports."""
    table = object()

    def spy(rules):
        yield 1, 3
        yield 2, 3
        return table

    monkeypatch.setattr(solver, "solving", spy)
    monkeypatch.setattr(solver, "Table", type("T", (), {}))
    registered = []
    from generala.ai import tables
    monkeypatch.setattr(tables, "cached", lambda rules: None)
    monkeypatch.setattr(tables, "register", lambda t: registered.append(t) or type("R", (), {"V": [0] * 5})())
    session = app.Session()
    session.handle({"op": "new", "variant": "argentine", "seed": 1})
    progress = []
    for _ in range(4):
        reply = session.handle({"op": "solve", "budget_ms": 0})
        assert reply["ok"], reply
        progress.append(reply["progress"])
        if reply["done"]:
            break
    assert progress == [[1, 3], [2, 3], [5, 5]] and registered == [table]


def test_every_split_is_priced_by_rules_price_split(monkeypatch):
    """A ten-dice game's op price and its score both call ``Rules.price_split``: made to
    answer (7, 11), each says 7 and 11."""
    calls = []
    monkeypatch.setattr(Rules, "price_split",
                        lambda self, dice, positions, a, b, sheet=None, scratch=(False, False):
                        calls.append((a, b)) or (7, 11))
    session = app.Session()
    session.game = Game(variant("double"), ["Ana"], ScriptedRoller([1, 2, 3, 4, 5, 6, 6, 6, 6, 6]))
    session.handle({"op": "roll"})
    reply = session.handle({"op": "price", "boxes": ["ones", "sixes"], "split": [0, 1, 2, 3, 4]})
    assert reply["ok"] and reply["split"]["points"] == [7, 11]
    reply = session.handle({"op": "score", "boxes": ["ones", "sixes"], "split": [0, 1, 2, 3, 4]})
    assert reply["ok"] and [session.game.sheets[0][b] for b in ("ones", "sixes")] == [7, 11]
    assert ("ones", "sixes") in calls


def test_the_views_offers_are_the_games_legal_actions(monkeypatch):
    """The view offers what ``Game.legal_actions`` lists and nothing else: with the game
    made to list only a roll, mid-turn, the board offers no hold, no box and no undo."""
    session = app.Session()
    view = session.handle({"op": "new", "variant": "argentine", "seed": 3})["view"]
    view = session.handle({"op": "roll"})["view"]
    view = session.handle({"op": "toggle", "die": 0})["view"]
    assert view["can_hold"] and view["scorable"] and view["can_undo"]  # the game's own list
    monkeypatch.setattr(Game, "legal_actions", lambda self: [Roll()])
    view = session.handle({"op": "view"})["view"]
    assert view["can_roll"] and not view["can_hold"] and view["holdable"] == []
    assert view["scorable"] == [] and not view["can_undo"] and not view["can_enter"]
    assert not any(c.get("playable") for r in view["rows"] for c in r["cells"])


# --- the layers of both trees, from every import (tools/layers.py) -------------------


@pytest.mark.parametrize("tree", sorted(layers.TREES))
def test_each_tree_imports_only_down_and_has_no_circle(tree):
    _, problems = layers.check(layers.TREES[tree])
    assert problems == []


def write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_check_sees_a_late_import_upward_and_a_circle(tmp_path, monkeypatch):
    monkeypatch.setattr(layers, "ROOT", tmp_path)
    write(tmp_path / "pkg", {
        "__init__.py": "",
        "top/__init__.py": "",
        "top/app.py": "from ..low import base\n",
        "low/__init__.py": "",
        "low/base.py": "def f():\n    from ..top import app  # late, and upward\n",
        "low/one.py": "from . import two\n",
        "low/two.py": "from .one import f\n",
    })
    tree = layers.Tree(tmp_path / "pkg", "pkg", layers=[["top"], ["low"], ["__init__"]])
    graph, problems = layers.check(tree)
    assert ("low.base", 2) in graph["top.app"] or ("low.base", 1) in graph["top.app"]
    assert ("top.app", 2) in graph["low.base"]
    assert any("low.base imports top.app, a layer above it" in p for p in problems)
    assert any("modules import each other in a circle" in p and "low.one" in p and "low.two" in p for p in problems)
    assert any("packages import each other in a circle" in p for p in problems)


def test_the_check_reads_a_tree_of_top_level_packages(tmp_path, monkeypatch):
    monkeypatch.setattr(layers, "ROOT", tmp_path)
    write(tmp_path / "ui", {
        "main.py": "import page.boot\n",
        "page/__init__.py": "",
        "page/boot.py": "from board import render\nimport js\n",
        "board/__init__.py": "",
        "board/render.py": "from words import t\n",
        "words/__init__.py": "def t(k): return k\n",
    })
    tree = layers.Tree(tmp_path / "ui", None, layers=[["main"], ["page"], ["board"], ["words"]])
    graph, problems = layers.check(tree)
    assert problems == []
    assert {t for t, _ in graph["page.boot"]} == {"board.render"}
    assert {t for t, _ in graph["board.render"]} == {"words"}
    write(tmp_path / "ui", {"words/__init__.py": "from board import render\n"})
    _, problems = layers.check(tree)
    assert any("words imports board.render, a layer above it" in p for p in problems)


def test_the_check_refuses_a_module_imported_by_a_bare_name(tmp_path, monkeypatch):
    monkeypatch.setattr(layers, "ROOT", tmp_path)
    write(tmp_path / "ui", {
        "main.py": "import boot\n",  # page/boot.py, found only because the folders are flattened
        "page/__init__.py": "",
        "page/boot.py": "x = __import__('render')\n",
        "board/__init__.py": "",
        "board/render.py": "",
    })
    tree = layers.Tree(tmp_path / "ui", None, layers=[["main"], ["page"], ["board"]])
    _, problems = layers.check(tree)
    assert any("main.py:1: imports 'boot' by a bare name" in p for p in problems)
    assert any("page/boot.py:1: imports 'render' by a bare name" in p for p in problems)


def test_the_check_reads_the_imports_of_the_trees_own_package(tmp_path, monkeypatch):
    """The tree's ``__init__.py`` imports relatively from the top of the tree: those imports
    count like any (a front door in the bottom layer may not import the layer above)."""
    monkeypatch.setattr(layers, "ROOT", tmp_path)
    write(tmp_path / "pkg", {
        "__init__.py": "from .top.app import run\n",
        "top/__init__.py": "",
        "top/app.py": "def run(): pass\n",
    })
    tree = layers.Tree(tmp_path / "pkg", "pkg", layers=[["top"], ["__init__"]])
    graph, problems = layers.check(tree)
    assert ("top.app", 1) in graph["__init__"]
    assert any("__init__ imports top.app, a layer above it" in p for p in problems)


# The page's parts that others are given when built (static/ui/page/page_boot.py assembles
# them): a part uses what it was given, never another part's parts.
UI_PARTS = ("game", "controller", "keeper", "screen", "computer", "coach", "features", "engine", "home", "setup", "nav")
REACH_THROUGH = re.compile(r"\bself\.(\w+)\.(" + "|".join(UI_PARTS) + r")\.\w")


def reaches_through(source: str) -> list[str]:
    """Lines of ``source`` that reach through one part into another's, or tie parts with
    attach() after they were built."""
    return [line.strip() for line in source.splitlines()
            if REACH_THROUGH.search(line) or re.search(r"\.attach\(", line)]


def test_no_part_of_the_page_reaches_through_another():
    assert reaches_through("self.game.screen.ask(text)\nkeeper.attach(game, home)\n") == [
        "self.game.screen.ask(text)", "keeper.attach(game, home)"]
    assert reaches_through("self.screen.ask(text)\nself.board.parts.add('link', part)\n") == []
    found = {}
    for path in sorted((layers.ROOT / "static" / "ui").rglob("*.py")):
        lines = reaches_through(path.read_text(encoding="utf-8"))
        if lines:
            found[path.relative_to(layers.ROOT).as_posix()] = lines
    assert found == {}
