"""The page's UI modules (MicroPython), read from pyscript.toml's [files], their one list.

PyScript writes each file named there into MicroPython's file system at its package's
path (static/ui/board/render.mpy -> board/render.mpy); the build compiles each from its
.py and writes main.py's import order from the `{BOOT}` entries (tools/build.py); the
tests that run UI modules in CPython put static/ui on ``sys.path`` (``on_path``). In both
a module is imported by its package (``from board import render``), each folder of
static/ui a package one level deep, with an __init__.py.
"""
from __future__ import annotations

import contextlib
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "static" / "ui"
CONFIG = ROOT / "pyscript.toml"
ENTRY = "main.py"  # the entry point index.html's <script type="mpy"> runs (main.run())
INIT = "__init__"  # each package's own module
# The templates of [files]: where the UI's files come from (the site's static/ui) and
# what the page does with each module: import it at start, in order, or on first use.
TEMPLATES = {"{UI}": "./static/ui", "{BOOT}": "{UI}", "{LATER}": "{UI}"}
# PyScript's own package as bytecode: also in [files], not the UI's.
PYSCRIPT = "{PYSCRIPT}"
# One entry: "{GROUP}/folder/name.mpy" = "./folder/" (main: "{UI}/main.mpy" = "./").
ENTRY_RE = re.compile(r"^\{(UI|BOOT|LATER)\}/((?:\w+/)*\w+)\.mpy$")


def files() -> dict[str, str]:
    """pyscript.toml's [files], in its order."""
    return dict(tomllib.loads(CONFIG.read_text(encoding="utf-8")).get("files", {}))


def _entries() -> tuple[list[tuple[str, str, str]], list[str]]:
    """Each entry of [files] as (group, module, destination), and what is wrong with the
    entries themselves (an unknown template or a file not at its package's path)."""
    found, wrong = [], []
    for source, dest in files().items():
        if source.startswith(PYSCRIPT):
            continue  # PyScript's own package (tools/build.py compile_pyscript_package)
        if source in TEMPLATES:
            if dest != TEMPLATES[source]:
                wrong.append(f"pyscript.toml: the template {source} is {dest!r}, the build publishes {TEMPLATES[source]!r}")
            continue
        match = ENTRY_RE.match(source)
        if not match:
            wrong.append(f"pyscript.toml names {source!r}: a UI file is \"{{BOOT}}/folder/name.mpy\", "
                         "\"{LATER}/folder/name.mpy\" or, for main and the packages' __init__, \"{UI}/...\"")
            continue
        group, module = match.groups()
        wanted = f"./{module.rsplit('/', 1)[0]}/" if "/" in module else "./"
        if dest != wanted:
            wrong.append(f"pyscript.toml writes {source} to {dest!r}: it belongs at its package's path, {wanted!r}")
        found.append((group, module, dest))
    return found, wrong


def modules() -> dict[str, list[str]]:
    """``{"boot": [...], "later": [...]}``: each module as "folder/name" (no .py), in
    pyscript.toml's order."""
    found = {"boot": [], "later": []}
    for group, module, _dest in _entries()[0]:
        if group != "UI":
            found[group.lower()].append(module)
    return found


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
    """What is wrong with pyscript.toml's [files] against static/ui: an entry not at its
    package's path, main or a package's __init__ not named, a module named twice, not in a
    package one level deep, without its package's __init__.py, named like one of the
    engine's modules; a named file that is missing, a .py file under static/ui that is
    not named."""
    entries, found = _entries()
    names = listed()
    own = sorted(m for g, m, _d in entries if g == "UI")
    wanted = sorted([f"{p}/{INIT}" for p in packages()] + [ENTRY[:-3]])
    for module in sorted(set(wanted) - set(own)):
        found.append(f'pyscript.toml does not name "{{UI}}/{module}.mpy": main and each package\'s {INIT} are published with the modules')
    for module in sorted(set(own) - set(wanted)):
        found.append(f'pyscript.toml names "{{UI}}/{module}.mpy", which is neither main nor a package\'s {INIT}: '
                     "a module is {BOOT} or {LATER}")
    for name in sorted({m for m in names if names.count(m) > 1}):
        found.append(f"pyscript.toml names the module {name!r} more than once")
    engine = engine_names()
    for module in names:
        if module.count("/") != 1:
            found.append(f"pyscript.toml names {module!r}: a module sits in a package one level deep (folder/name)")
        elif module.rsplit("/", 1)[1] in engine:
            found.append(f"static/ui/{module}.py is named like an engine module (generala/): name it for what the page does")
        if not (UI / f"{module}.py").is_file():
            found.append(f"pyscript.toml names {module!r}, but static/ui/{module}.py does not exist")
    for package in packages():
        if not (UI / package / f"{INIT}.py").is_file():
            found.append(f"static/ui/{package}/ has no {INIT}.py: each folder of static/ui is a package")
    for path in sorted(UI.rglob("*.py")):
        rel = path.relative_to(UI).with_suffix("").as_posix()
        if rel != ENTRY[:-3] and rel not in names and path.stem != INIT and "__pycache__" not in path.parts:
            found.append(f"static/ui/{rel}.py is not named in pyscript.toml's [files]")
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
