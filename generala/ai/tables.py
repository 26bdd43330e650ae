"""Where value tables come from: a registry filled from files or by solving.

A table is loaded from ``static/tables`` (the browser worker first fetches it
into that path of Pyodide's file system when the engine asks for it: NeedTable,
``static/js/engine-worker.mjs``) or, failing that, solved (seconds for the
five-dice games except ``bulgarian``, which takes many minutes).
"""
from __future__ import annotations

from pathlib import Path

from .solver import Table, solitaire_rules, solve, table_name

TABLES_DIR = Path(__file__).resolve().parents[2] / "static" / "tables"
_tables: dict = {}


def register(table: Table) -> Table:
    _tables[solitaire_rules(table.rules)] = table
    return table


def cached(rules) -> Table | None:
    return _tables.get(solitaire_rules(rules))


def table_for(rules, *, allow_solve: bool = True, progress=None) -> Table:
    """The value table of ``rules``: registered, shipped, or solved now."""
    solo = solitaire_rules(rules)
    got = _tables.get(solo)
    if got is not None:
        return got
    path = TABLES_DIR / table_name(solo)
    if path.is_file():
        return register(Table.load(path, solo))
    if not allow_solve:
        raise LookupError(f"no value table for {solo!r} (expected {path})")
    return register(solve(solo, progress))
