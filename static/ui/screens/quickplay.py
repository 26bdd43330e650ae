# "Play against the computer" in one tap: the game and level used last time, and the
# `new` request they make. Plain Python (no DOM): unit-tested in CPython
# (tests/unit/test_ui_quickplay.py); home_screen.py is its DOM glue.
import json

PREFS_KEY = "generala.quick"  # {"variant": ..., "level": ...}: the last quick game
LEVELS = ("ai:beginner", "ai:heuristic", "ai:optimal", "ai:expert")
DEFAULT_LEVEL = "ai:heuristic"
DEFAULT_VARIANT = "argentine"
MAX_PREFS = 200  # characters: anything longer was not written by this page


def read_prefs(text, variants):
    """(variant, level) from the stored text; each bad or missing part takes its default."""
    variant, level = DEFAULT_VARIANT if DEFAULT_VARIANT in variants else (sorted(variants) or [None])[0], DEFAULT_LEVEL
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
    if prefs.get("level") in LEVELS:
        level = prefs["level"]
    return variant, level


def write_prefs(variant, level):
    return json.dumps({"variant": variant, "level": level})


def request(variant, level, you, computer):
    """The engine's `new` request: the player first, then the computer at ``level``,
    the game's house options at their defaults."""
    if level not in LEVELS:
        raise ValueError("unknown level: " + str(level))
    return {"op": "new", "variant": variant, "options": {},
            "sides": [{"name": you, "members": [], "player": "human"},
                      {"name": computer, "members": [], "player": level}]}
