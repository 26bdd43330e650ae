"""Where value tables come from: a registry filled from files, bytes, or by solving.

The browser worker fetches ``static/tables/<name>`` when a computer player or a
hint is first needed and calls :func:`register_bytes`; CPython loads the file
from the repository's ``static/tables`` or, failing that, solves (seconds for
the five-dice games except ``bulgarian``, which takes many minutes).
"""
from __future__ import annotations

from pathlib import Path

from .solver import Table, solitaire_rules, solve, table_name

TABLES_DIR = Path(__file__).resolve().parents[2] / "static" / "tables"
_tables: dict = {}


def register(table: Table) -> Table:
    _tables[solitaire_rules(table.rules)] = table
    return table


def register_bytes(data: bytes, rules=None) -> Table:
    return register(Table.from_bytes(data, rules))


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
