#!/usr/bin/env python3
"""The layers of the project's two Python trees, checked from their imports.

    python3 tools/layers.py          each tree's layers, top to bottom, and what breaks them

A tree is a folder of Python whose folders (packages) and top-level modules are set in
layers, top to bottom (TREES below). Every import of one of the tree's own modules is
read from the source, imports inside functions and classes included (a late import is
an import all the same). Two rules:

- an import reaches only down: a module imports modules of its own layer or of the
  layers below it, never above;
- there is no circle: not between modules, nor between packages (two packages of one
  layer may not import each other both ways);
- a module is imported by its path (``from board import render``), never by a bare name
  that only the file system's layout resolves (``import render`` for board/render.py),
  which hides from a reader, and from this check, who depends on whom.

Exit status 1 when a rule is broken (tests/unit/test_layers.py runs the same check).
Standard library only.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tree:
    """``root``: the folder. ``package``: the name the tree is imported by (``generala``:
    its modules import each other relatively or as ``generala.x``), or None when its top
    folders are imported by their own names (the page's UI: ``from board import render``).
    ``layers``: top to bottom, each a list of the names of top-level packages (folders)
    or modules. ``apart``: folders that are data, not code of the tree (never imported)."""
    root: Path
    package: str | None
    layers: list[list[str]]
    apart: list[str] = field(default_factory=list)


TREES = {
    "generala": Tree(
        ROOT / "generala", "generala",
        layers=[["__main__"], ["app", "cli", "catalog", "__init__"], ["modes"], ["seen"], ["ai"], ["rules"]],
        apart=["bot_examples"],
    ),
    "static/ui": Tree(
        ROOT / "static" / "ui", None,
        layers=[["main"], ["page"], ["screens"], ["players", "saves"], ["board"], ["engine", "web"], ["words"]],
    ),
}


def modules(tree: Tree) -> dict[str, Path]:
    """Dotted name (within the tree, no tree prefix) -> file, for every module of the tree."""
    found = {}
    for path in sorted(tree.root.rglob("*.py")):
        rel = path.relative_to(tree.root)
        if "__pycache__" in rel.parts or rel.parts[0] in tree.apart:
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(tree: Tree, name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, int]]:
    """(module of the tree it imports, line) for each import in the module ``name``,
    wherever it stands in the file."""
    is_package = path.name == "__init__.py"
    if name == "__init__":  # the tree's own package: its relative imports start at the top
        here = []
    else:
        here = name.split(".") if is_package else name.split(".")[:-1]
    out = []

    def resolve(dotted: str) -> str | None:
        """The longest known module at the start of ``dotted`` (a name imported from a
        module is not a module)."""
        parts = dotted.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in known:
                return candidate
            parts.pop()
        return None

    def own(dotted: str) -> str | None:
        """``dotted`` as written in an absolute import, inside the tree, or None."""
        if tree.package is None:
            return dotted
        if dotted == tree.package:
            return "__init__"
        if dotted.startswith(tree.package + "."):
            return dotted[len(tree.package) + 1:]
        return None

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                inside = own(alias.name)
                target = resolve(inside) if inside else None
                if target:
                    out.append((target, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
                if node.level - 1 > len(here):
                    continue
                start = ".".join(base + ([node.module] if node.module else []))
            else:
                start = own(node.module or "")
                if start is None:
                    continue
            for alias in node.names:
                full = f"{start}.{alias.name}" if start else alias.name
                target = resolve(full) or (resolve(start) if start else None)
                if target is None and not start:
                    target = "__init__" if "__init__" in known else None
                if target:
                    out.append((target, node.lineno))
    return [(t, line) for t, line in out if t != name]


def bare_names(tree: Tree, path: Path, known: dict[str, Path]) -> list[tuple[str, int]]:
    """(name, line) of each absolute import in ``path`` that names no module of the tree by
    its path but is the last part of one (``import render`` for board.render)."""
    if tree.package is not None:
        return []
    last = {name.rsplit(".", 1)[-1] for name in known if "." in name}
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        names += [n.args[0].value for n in [node] if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "__import__"
                  and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)]
        for name in names:
            first = name.split(".")[0]
            if first not in {k.split(".")[0] for k in known} and first in last:
                out.append((name, node.lineno))
    return out


def top(name: str) -> str:
    return name.split(".")[0]


def check(tree: Tree) -> tuple[dict[str, list[tuple[str, int]]], list[str]]:
    """The tree's import graph (module -> [(module, line)]) and the problems found."""
    known = modules(tree)
    graph = {name: imported(tree, name, path, known) for name, path in known.items()}
    layer_of = {n: i for i, layer in enumerate(tree.layers) for n in layer}
    problems = []
    for name in sorted(graph):
        if top(name) not in layer_of:
            problems.append(f"{tree.root.relative_to(ROOT)}: {name} is in no layer (tools/layers.py TREES)")
    for name, path in sorted(known.items()):
        for bare, line in bare_names(tree, path, known):
            problems.append(f"{path.relative_to(ROOT)}:{line}: imports {bare!r} by a bare name: "
                            "name its package (from board import render)")
    for name, targets in sorted(graph.items()):
        for target, line in targets:
            a, b = layer_of.get(top(name)), layer_of.get(top(target))
            if a is not None and b is not None and b < a:
                problems.append(f"{known[name].relative_to(ROOT)}:{line}: {name} imports {target}, "
                                f"a layer above it ({top(target)} over {top(name)})")
    for circle in circles({n: {t for t, _ in ts} for n, ts in graph.items()}):
        problems.append(f"{tree.root.relative_to(ROOT)}: modules import each other in a circle: "
                        + " -> ".join(circle + [circle[0]]))
    packages: dict[str, set[str]] = {}
    for name, targets in graph.items():
        for target, _ in targets:
            if top(target) != top(name):
                packages.setdefault(top(name), set()).add(top(target))
    for circle in circles(packages):
        problems.append(f"{tree.root.relative_to(ROOT)}: packages import each other in a circle: "
                        + " -> ".join(circle + [circle[0]]))
    return graph, problems


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node, each as one of its cycles
    (Tarjan's algorithm, then a path around the part)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    parts: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                parts.append(part)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    found = []
    for part in parts:
        members = set(part)
        start = min(part)
        path, seen, v = [start], {start}, start
        while True:  # walk inside the part until a node comes back
            w = next(w for w in sorted(graph[v]) if w in members)
            if w in seen:
                found.append(path[path.index(w):])
                break
            path.append(w)
            seen.add(w)
            v = w
    return found


def main() -> int:
    broken = 0
    for label, tree in TREES.items():
        graph, problems = check(tree)
        print(f"{label}/ ({len(graph)} modules), top to bottom:")
        for layer in tree.layers:
            names = [n for n in layer if any(top(m) == n for m in graph)]
            print("  " + "  |  ".join(names) if names else "  (empty)")
        for problem in problems:
            print(f"  ! {problem}")
        broken += len(problems)
    print("layers: " + (f"{broken} problem(s)" if broken else "every import reaches down, no circle"))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
