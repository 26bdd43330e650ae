"""What the setup form offers: every variant, its options and boxes, the computer
levels and the page's limits, as plain data.

The build writes this to ``catalog.json`` so the page can show the setup form
before the engine has booted.
"""
from __future__ import annotations

from pathlib import Path

from .modes.bundle import MAX_BYTES
from .rules.roller import MAX_SEED
from .rules.sides import MAX_NAME, MAX_SIDES, computer_player
from .rules.variants import SPECS, variant

#: The games in the order players are shown them (the setup form, the daily challenge,
#: the home screen's first paint): every variant once.
SHOWN = ("argentine", "puerto-rican", "double", "bulgarian")

#: Value tables shipped with the site (read in CPython at build time; absent in the browser).
TABLES = Path(__file__).resolve().parents[1] / "static" / "tables"


def shipped_tables(name: str) -> list[str]:
    """The value-table files of a variant that the site ships (default options and others),
    with their laws of the points to come (``.gvl``, the win chances': generala.ai.laws)."""
    if not TABLES.is_dir():
        return []
    return sorted(p.name for ext in ("*.gvt", "*.gvl") for p in TABLES.glob(ext)
                  if p.name.split(".")[0] == name)


def option_boxes(name: str, option) -> list[str]:
    """The boxes of the sheet an option changes (any of its values against the default),
    or the box that forfeits the automatic win it switches; in sheet order."""
    spec = SPECS[name]
    base = {b.id: b for b in variant(name).boxes}
    values = (option.default + 1,) if option.number else option.values[1:]
    order: list[str] = []
    for value in values:
        rules = variant(name, **{option.name: value})
        other = {b.id: b for b in rules.boxes}
        for box in rules.categories:
            if base.get(box) != other.get(box) and box not in order:
                order.append(box)
        for box in base:
            if box not in other and box not in order:
                order.append(box)
    auto = spec.auto_win
    if auto is not None and auto.option == option.name and auto.forfeit and auto.forfeit not in order:
        order.append(auto.forfeit)
    return order


def sheet_order(name: str) -> list[str]:
    """The variant's options in the order of the sheet's boxes they change (an option that
    changes no box, such as the stake, after those, in the spec's order): how the Rules
    dialog lists the house rules in effect."""
    spec = SPECS[name]
    sheet: list[str] = []
    for opt in spec.options:  # every box any option may add, in sheet order
        for value in ((opt.default + 1,) if opt.number else opt.values):
            for box in variant(name, **{opt.name: value}).categories:
                if box not in sheet:
                    sheet.append(box)
    full = list(variant(name).categories)
    for box in sheet:
        if box not in full:
            # an added box goes after the one before it in the sheet that adds it
            before = sheet[sheet.index(box) - 1] if sheet.index(box) else None
            full.insert(full.index(before) + 1 if before in full else len(full), box)

    def key(item):
        k, opt = item
        boxes = option_boxes(name, opt)
        return (min(full.index(b) for b in boxes), k) if boxes else (len(full), k)

    return [opt.name for _, opt in sorted(enumerate(spec.options), key=key)]


def catalog() -> dict:
    """What the page offers before the engine answers (the build writes it to catalog.json):

    ``{"variants": {id: {...}}, "games": [id, ...], "levels": [...], "limits": {...}}``:
    every variant with its options and boxes; the games in the order shown (``SHOWN``); the computer levels in the order shown to players, each with
    ``needs_table`` (it plays from the rules' value table, as the coach does) and
    ``min_sides`` (the fewest sides of a game it is offered in: one that plays to win
    needs another side to beat: ``expert``, ``champion``); and the
    limits the page enforces before asking the engine (sides, a name's length, the
    largest seed, an export file's size)."""
    from .ai.players import LEVELS, ExpertPlayer, WinningPlayer
    TO_WIN = (ExpertPlayer, WinningPlayer)  # the levels that play to win: another side to beat
    return {
        "variants": {name: _variant(name, spec) for name, spec in SPECS.items()},
        "games": list(SHOWN),
        "levels": [{"id": level, "player": computer_player(level), "needs_table": cls.needs_table,
                    "min_sides": 2 if issubclass(cls, TO_WIN) else 1}
                   for level, cls in LEVELS.items()],
        "limits": {"sides": MAX_SIDES, "name": MAX_NAME, "seed": MAX_SEED, "file_bytes": MAX_BYTES},
    }


def _variant(name: str, spec) -> dict:
    rules = variant(name)
    return {
        "title": spec.title,
        "summary": spec.summary,
        "dice": spec.dice,
        "turns": rules.turns,
        "boxes_per_turn": spec.boxes_per_turn,
        "categories": list(rules.categories),
        "mandatory": list(spec.mandatory),
        "tables": shipped_tables(name),
        "sheet_order": sheet_order(name),
        "options": [
            {
                "name": opt.name,
                "default": opt.default,
                "values": None if opt.number else list(opt.values),
                "type": "number" if opt.number else "bool" if opt.is_bool else "choice",
                "help": opt.help,
            }
            for opt in spec.options
        ],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(catalog(), sys.stdout, ensure_ascii=False, indent=1)
