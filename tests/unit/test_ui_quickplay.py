"""The one-tap game against the computer (static/ui/screens/quickplay.py): what is remembered,
what a stored value may not change, and that the request it makes is one the engine plays,
with the catalog's levels (the page has no list of its own)."""
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tools import ui_modules  # noqa: E402

sys.path[:0] = [str(ui_modules.UI)]

from screens import quickplay  # noqa: E402
from generala import app  # noqa: E402
from generala.catalog import catalog  # noqa: E402

VARIANTS = {"argentine", "puerto-rican", "double", "bulgarian"}
LEVELS = catalog()["levels"]
PLAYERS = [level["player"] for level in LEVELS]


def test_first_visit_gets_generala_against_a_good_computer():
    assert quickplay.read_prefs(None, VARIANTS, LEVELS) == ("argentine", "ai:heuristic")
    assert quickplay.players(LEVELS) == PLAYERS


def test_the_levels_are_the_catalogs():
    """A level the catalog lacks is not remembered; without the default level, the first."""
    fewer = [level for level in LEVELS if level["id"] != "heuristic"]
    stored = quickplay.write_prefs("double", "ai:heuristic")
    assert quickplay.read_prefs(stored, VARIANTS, fewer) == ("double", fewer[0]["player"])
    with pytest.raises(ValueError):
        quickplay.request("double", "ai:heuristic", "Ana", "Computer", fewer)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("level", PLAYERS)
def test_what_is_written_is_read_back(variant, level):
    assert quickplay.read_prefs(quickplay.write_prefs(variant, level), VARIANTS, LEVELS) == (variant, level)


@pytest.mark.parametrize("text, expected", [
    ('{"variant": "yahtzee", "level": "ai:expert"}', ("argentine", "ai:expert")),
    ('{"variant": "double", "level": "human"}', ("double", "ai:heuristic")),
    ('{"variant": ["double"], "level": 3}', ("argentine", "ai:heuristic")),
    ("[1, 2]", ("argentine", "ai:heuristic")),
    ("not json", ("argentine", "ai:heuristic")),
    ('{"variant": "double", "pad": "' + "x" * 300 + '"}', ("argentine", "ai:heuristic")),
])
def test_a_bad_stored_value_takes_the_defaults(text, expected):
    assert quickplay.read_prefs(text, VARIANTS, LEVELS) == expected


@given(st.text(max_size=300))
def test_any_stored_text_gives_a_known_game_and_level(text):
    variant, level = quickplay.read_prefs(text, VARIANTS, LEVELS)
    assert variant in VARIANTS and level in PLAYERS


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("level", [level["player"] for level in LEVELS if not level["needs_table"]])
def test_the_request_starts_a_game_with_a_person_then_the_computer(variant, level):
    reply = json.loads(app.handle(json.dumps(quickplay.request(variant, level, "Ana", "Computer", LEVELS))))
    assert reply["ok"], reply
    sides = reply["view"]["sides"]
    assert [(s["name"], s["player"]) for s in sides] == [("Ana", "human"), ("Computer", level)]


def test_a_level_that_is_not_a_computer_is_refused():
    with pytest.raises(ValueError):
        quickplay.request("argentine", "human", "Ana", "Computer", LEVELS)
