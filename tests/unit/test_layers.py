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
