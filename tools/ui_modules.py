"""The page's UI modules (MicroPython), read from static/ui/modules.toml, their one list.

The build publishes them from it (tools/build.py: bytecode in one archive that PyScript
unpacks, the tree as it is: static/ui/board/render.py -> board/render.mpy; main.py's
import order) and the tests that run UI modules in CPython put static/ui on ``sys.path``
(``on_path``): in both, a module is imported by its package (``from board import render``),
each folder of static/ui a package one level deep, with an __init__.py.
"""
from __future__ import annotations

import contextlib
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "static" / "ui"
LIST = UI / "modules.toml"
ENTRY = "main.py"  # the entry point index.html's <script type="mpy"> runs (main.run()): not in the list
INIT = "__init__"  # each package's own module: published with it, not in the list


def modules() -> dict[str, list[str]]:
    """``{"boot": [...], "later": [...]}``: each module as "folder/name" (no .py)."""
    data = tomllib.loads(LIST.read_text(encoding="utf-8"))
    return {"boot": list(data.get("boot", [])), "later": list(data.get("later", []))}


def listed() -> list[str]:
    found = modules()
    return found["boot"] + found["later"]


def dotted(module: str) -> str:
    """The name a module is imported by ("board/render" -> "board.render")."""
    return module.replace("/", ".")


def packages() -> list[str]:
    """The packages of the listed modules (their folders), each once, in list order."""
    seen: list[str] = []
    for module in listed():
        package = module.rsplit("/", 1)[0]
        if "/" in module and package not in seen:
            seen.append(package)
    return seen


def published() -> list[str]:
    """Every module the build compiles: the listed ones, each package's __init__, main."""
    return listed() + [f"{p}/{INIT}" for p in packages()] + [ENTRY[:-3]]


def engine_names() -> set[str]:
    """The last names of the engine's modules (generala/): a UI module named like one of
    them would make a reader (and a search) take one for the other."""
    engine = ROOT / "generala"
    return {p.stem for p in engine.rglob("*.py") if p.stem != INIT and "__pycache__" not in p.parts}


def problems() -> list[str]:
    """What is wrong with the list against the files: a module listed twice, not in a
    package one level deep, without its package's __init__.py, named like one of the
    engine's modules; a listed file that is missing, a .py file under static/ui that is
    not listed."""
    found: list[str] = []
    names = listed()
    for name in sorted({m for m in names if names.count(m) > 1}):
        found.append(f"static/ui/modules.toml lists the module {name!r} more than once")
    engine = engine_names()
    for module in names:
        if module.count("/") != 1:
            found.append(f"static/ui/modules.toml lists {module!r}: a module sits in a package one level deep (folder/name)")
        elif module.rsplit("/", 1)[1] in engine:
            found.append(f"static/ui/{module}.py is named like an engine module (generala/): name it for what the page does")
        if not (UI / f"{module}.py").is_file():
            found.append(f"static/ui/modules.toml lists {module!r}, but static/ui/{module}.py does not exist")
    for package in packages():
        if not (UI / package / f"{INIT}.py").is_file():
            found.append(f"static/ui/{package}/ has no {INIT}.py: each folder of static/ui is a package")
    for path in sorted(UI.rglob("*.py")):
        rel = path.relative_to(UI).with_suffix("").as_posix()
        if rel != ENTRY[:-3] and rel not in names and path.stem != INIT and "__pycache__" not in path.parts:
            found.append(f"static/ui/{rel}.py is not listed in static/ui/modules.toml")
    return found


@contextlib.contextmanager
def on_path():
    """static/ui on ``sys.path`` (first), for importing UI modules in CPython by their
    packages, as the page does (``from board import render``)."""
    sys.path.insert(0, str(UI))
    try:
        yield
    finally:
        sys.path.remove(str(UI))


def forget() -> None:
    """Drop every UI module (its packages too) from ``sys.modules``: the next import loads
    them again (a test's stand-ins for ``js`` or ``pyscript`` then take effect)."""
    tops = set(packages()) | {ENTRY[:-3]}
    for name in [n for n in sys.modules if n.split(".")[0] in tops]:
        del sys.modules[name]
