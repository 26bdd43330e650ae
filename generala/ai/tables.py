"""Where value tables come from: a registry filled from files or by solving.

A table is loaded from ``static/tables`` (the browser worker first fetches it
into that path of Pyodide's file system when the engine asks for it: NeedTable,
``static/js/engine-worker.mjs``) or, failing that, solved (seconds for the
five-dice games except ``bulgarian``, which takes many minutes).

:func:`table_for` is the one way to a rules' table: it turns the rules into the solver's
(solitaire) rules and names the table's file once for each rules, then answers from a
dict keyed by the rules as given (a move priced by the coach asks it several times).
"""
from __future__ import annotations

from pathlib import Path

from .solver import Table, solitaire_rules, solve, table_name

TABLES_DIR = Path(__file__).resolve().parents[2] / "static" / "tables"
_tables: dict = {}  # solitaire rules -> table
_by_rules: dict = {}  # rules as asked for -> table (table_for's answers)


class TableMissing(LookupError):
    """No table for the rules, neither registered nor shipped: ``name`` its file's name,
    ``path`` where it would be (solving was not allowed)."""

    def __init__(self, name: str, path: Path) -> None:
        super().__init__(f"no value table {name} (expected {path})")
        self.name, self.path = name, path


def register(table: Table) -> Table:
    _tables[solitaire_rules(table.rules)] = table
    _by_rules.clear()  # an answer given before may have been another table of those rules
    return table


def forget(rules) -> None:
    """Drop the table of ``rules`` (the next :func:`table_for` loads or solves it again)."""
    _tables.pop(solitaire_rules(rules), None)
    _by_rules.clear()


def cached(rules) -> Table | None:
    return _tables.get(solitaire_rules(rules))


def table_for(rules, *, allow_solve: bool = True, progress=None) -> Table:
    """The value table of ``rules``: registered, shipped, or solved now (with ``allow_solve``
    false, :class:`TableMissing` instead of solving)."""
    got = _by_rules.get(rules)
    if got is not None:
        return got
    solo = solitaire_rules(rules)
    got = _tables.get(solo)
    if got is None:
        name = table_name(solo)
        path = TABLES_DIR / name
        if path.is_file():
            got = register(Table.load(path, solo))
        elif not allow_solve:
            raise TableMissing(name, path)
        else:
            got = register(solve(solo, progress))
    _by_rules[rules] = got
    return got
