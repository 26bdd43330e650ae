"""What the setup form offers: every variant, its options and boxes, as plain data.

The build writes this to ``catalog.json`` so the page can show the setup form
before the engine has booted.
"""
from __future__ import annotations

from pathlib import Path

from .variants import SPECS, variant

#: Value tables shipped with the site (read in CPython at build time; absent in the browser).
TABLES = Path(__file__).resolve().parents[1] / "static" / "tables"


def shipped_tables(name: str) -> list[str]:
    """The value-table files of a variant that the site ships (default options and others)."""
    if not TABLES.is_dir():
        return []
    return sorted(p.name for p in TABLES.glob("*.gvt") if p.name.split(".")[0] == name)


def catalog() -> dict:
    result = {}
    for name, spec in SPECS.items():
        rules = variant(name)
        result[name] = {
            "title": spec.title,
            "summary": spec.summary,
            "dice": spec.dice,
            "turns": rules.turns,
            "boxes_per_turn": spec.boxes_per_turn,
            "categories": list(rules.categories),
            "mandatory": list(spec.mandatory),
            "tables": shipped_tables(name),
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
    return result


if __name__ == "__main__":
    import json
    import sys

    json.dump(catalog(), sys.stdout, ensure_ascii=False, indent=1)
