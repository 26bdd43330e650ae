# "Play against the computer" in one tap: the game and level used last time, and the
# `new` request they make. The levels are the catalog's (catalog["levels"]: each one's
# `player` is the value a side plays with, and what is remembered). Plain Python (no
# DOM): unit-tested in CPython (tests/unit/test_ui_quickplay.py); home_screen.py is its
# DOM glue.
import json

PREFS_KEY = "generala.quick"  # {"variant": ..., "level": ...}: the last quick game
DEFAULT_LEVEL = "heuristic"  # the level id offered first (else the catalog's first level)
DEFAULT_VARIANT = "argentine"
MAX_PREFS = 200  # characters: anything longer was not written by this page


def players(levels):
    """The catalog's levels as the values a side plays with, in their order."""
    return [level["player"] for level in levels]


def default_level(levels):
    for level in levels:
        if level["id"] == DEFAULT_LEVEL:
            return level["player"]
    return levels[0]["player"] if levels else None


def read_prefs(text, variants, levels):
    """(variant, level) from the stored text; each bad or missing part takes its default.
    ``levels``: the catalog's levels."""
    variant = DEFAULT_VARIANT if DEFAULT_VARIANT in variants else (sorted(variants) or [None])[0]
    level = default_level(levels)
    if not text or len(text) > MAX_PREFS:
        return variant, level
    try:
        prefs = json.loads(text)
    except ValueError:
        return variant, level
    if not isinstance(prefs, dict):
        return variant, level
    if isinstance(prefs.get("variant"), str) and prefs["variant"] in variants:
        variant = prefs["variant"]
    if isinstance(prefs.get("level"), str) and prefs["level"] in players(levels):
        level = prefs["level"]
    return variant, level


def write_prefs(variant, level):
    return json.dumps({"variant": variant, "level": level})


def request(variant, level, you, computer, levels):
    """The engine's `new` request: the player first, then the computer at ``level`` (one of
    the catalog's ``levels``), the game's house options at their defaults."""
    if level not in players(levels):
        raise ValueError("unknown level: " + str(level))
    return {"op": "new", "variant": variant, "options": {},
            "sides": [{"name": you, "members": [], "player": "human"},
                      {"name": computer, "members": [], "player": level}]}
