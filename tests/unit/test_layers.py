"""The engine's layers: save documents sit below the game (no import circle between
game.py and save.py), pricing is Rules' public API (no module reaches into its private
names), and the solver, the split pricing and the legality of actions are each written
once."""
import ast
import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "generala"


def imports(path):
    """(module imported, inside a function?) for each import of a module of generala/."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def walk(node, nested):
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom) and child.level:
                names = [child.module] if child.module else [a.name for a in child.names]
                found.extend((name, inner) for name in names)
            walk(child, inner)
    walk(tree, False)
    return found


def test_save_is_below_game_and_neither_imports_the_other_late():
    save = imports(ENGINE / "save.py")
    game = imports(ENGINE / "game.py")
    assert not [name for name, _ in save if name in ("game", "app", "view")]
    assert ("save", False) in [(name, nested) for name, nested in game]
    assert not [name for name, nested in save + game if nested]


def test_no_module_reaches_into_the_rules_private_names():
    private = re.compile(r"\.(_price|_prices|_check_pair|_options)\b")
    for path in ENGINE.rglob("*.py"):
        if path.name == "variants.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not private.findall(text), path


def test_one_solve_one_split_pricing_one_legality():
    app = (ENGINE / "app.py").read_text(encoding="utf-8")
    assert "masks_desc" not in app and "solver.solving(" in app  # the solver's own loop, sliced
    for name in ("app.py", "view.py", "ai/coach.py"):
        text = (ENGINE / name).read_text(encoding="utf-8")
        assert not re.search(r"if i not in (split|positions)", text), name  # Rules.price_split splits
    view = (ENGINE / "view.py").read_text(encoding="utf-8")
    assert "legal_actions()" in view and "game.rolls < 3" not in view  # offers come from the game


# --- the layers of both trees, from every import (tools/layers.py) -------------------

import pytest  # noqa: E402

from tools import layers  # noqa: E402


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
