"""The page's UI modules (MicroPython), read from static/ui/modules.toml, their one list.

The build publishes them from it (tools/build.py: bytecode in one bundle named by ui.json, main.py's
import order) and the tests that run UI modules in CPython put the same folders on
``sys.path`` (``on_path``): in the page every module sits at the root of MicroPython's
file system, so ``import render`` finds ``static/ui/board/render.py`` in both.
"""
from __future__ import annotations

import contextlib
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "static" / "ui"
LIST = UI / "modules.toml"
ENTRY = "main.py"  # the entry point static/js/ui-loader.mjs runs (main.run()): not in the list


def modules() -> dict[str, list[str]]:
    """``{"boot": [...], "later": [...]}``: each module as "folder/name" (no .py)."""
    data = tomllib.loads(LIST.read_text(encoding="utf-8"))
    return {"boot": list(data.get("boot", [])), "later": list(data.get("later", []))}


def listed() -> list[str]:
    found = modules()
    return found["boot"] + found["later"]


def stem(module: str) -> str:
    """The name a module is imported by ("board/render" -> "render")."""
    return module.rsplit("/", 1)[-1]


def folders() -> list[Path]:
    """The folders of the listed modules, each once, in list order."""
    seen: list[Path] = []
    for module in listed():
        folder = (UI / module).parent
        if folder not in seen:
            seen.append(folder)
    return seen


def problems() -> list[str]:
    """What is wrong with the list against the files: a module listed twice or under two
    folders, a listed file that is missing, a .py file under static/ui that is not listed."""
    found: list[str] = []
    names = listed()
    stems = [stem(m) for m in names]
    for name in sorted({s for s in stems if stems.count(s) > 1}):
        found.append(f"static/ui/modules.toml lists the module {name!r} more than once")
    for module in names:
        if not (UI / f"{module}.py").is_file():
            found.append(f"static/ui/modules.toml lists {module!r}, but static/ui/{module}.py does not exist")
    for path in sorted(UI.rglob("*.py")):
        rel = path.relative_to(UI).with_suffix("").as_posix()
        if rel != ENTRY[:-3] and rel not in names and "__pycache__" not in path.parts:
            found.append(f"static/ui/{rel}.py is not listed in static/ui/modules.toml")
    return found


@contextlib.contextmanager
def on_path():
    """The UI's folders on ``sys.path`` (first), for importing UI modules in CPython."""
    added = [str(p) for p in folders()]
    sys.path[:0] = added
    try:
        yield
    finally:
        for p in added:
            sys.path.remove(p)
