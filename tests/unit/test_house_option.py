"""Adding a house option by the documented route (docs/house-option.md): its definition
in the variant spec, its words in the page's table, its test. Nothing else is edited:
the option must then reach the catalog (the setup form), ``variant(...)``, scoring, the
solver's model, the worker protocol and saves; a missing word is caught by the words test.

The options here are defined at test time, in a copy of the Argentine spec.
"""
import dataclasses
import sys
from pathlib import Path

import pytest

from generala import Game, InvalidInput, ScriptedRoller, app, variant
from generala.rules import variants
from generala.catalog import catalog
from generala.rules.scoring import Box
from generala.rules.variants import Option, adds_box, parse_option, sets_points

from tools import ui_modules  # noqa: E402

sys.path[:0] = [str(ui_modules.UI)]

from words import words  # noqa: E402
from test_i18n import missing_option_words, tables  # noqa: E402

# A number read by scoring: what a full house is worth (30 by default, as without it).
FULL_HOUSE = Option("full_house_points", (30, 35), "What a full house is worth.",
                    effect=sets_points("full-house"))
# A flag: a Chance box (the sum of the dice) at the end of the sheet.
CHANCE = Option("chance_box", (False, True), "Adds a Chance box: the sum of the dice.",
                effect=adds_box(Box("chance", "chance")))
# The English help is the Option's own (the engine's text): the page's tables add a label
# in every language and the help in the others.
WORDS = {
    "en": ("Full house points", None, "Chance box", None),
    "es": ("Puntos del full", "Lo que vale un full.", "Casilla libre", "Añade una casilla libre."),
    "bg": ("Точки за фул", "Колко струва фул.", "Шанс", "Добавя кутия „Шанс“."),
    "ru": ("Очки за фул", "Сколько стоит фул.", "Шанс", "Добавляет графу «Шанс»."),
}


@pytest.fixture
def house_options(monkeypatch):
    """The Argentine spec with the two options added at its end (the spec's own definition
    site: ``SPECS``), as an edit of generala/rules/variants.py would make it."""
    spec = variants.SPECS["argentine"]
    monkeypatch.setitem(variants.SPECS, "argentine",
                        dataclasses.replace(spec, options=spec.options + (FULL_HOUSE, CHANCE)))


def test_the_setup_form_offers_them(house_options):
    options = {o["name"]: o for o in catalog()["variants"]["argentine"]["options"]}
    assert options["full_house_points"] == {
        "name": "full_house_points", "default": 30, "values": [30, 35], "type": "choice",
        "help": "What a full house is worth."}
    assert options["chance_box"]["type"] == "bool" and options["chance_box"]["default"] is False
    assert catalog()["variants"]["argentine"]["categories"][-1] == "double-generala"  # off by default


def test_variant_checks_and_parses_them(house_options):
    assert variant("argentine").options["full_house_points"] == 30
    assert variant("argentine", full_house_points=35).options["full_house_points"] == 35
    assert parse_option("argentine", "full_house_points", "35") == 35
    assert parse_option("argentine", "chance_box", "on") is True
    with pytest.raises(InvalidInput, match="allowed values: 30, 35"):
        variant("argentine", full_house_points=33)
    with pytest.raises(InvalidInput, match="chance_box"):
        variant("puerto-rican", chance_box=True)


def test_scoring_reads_them(house_options):
    full = [2, 2, 3, 3, 3]
    assert variant("argentine").score("full-house", full, roll=2) == 30
    assert variant("argentine", full_house_points=35).score("full-house", full, roll=2) == 35
    # the served bonus still comes on top, whichever option is applied first
    assert variant("argentine", full_house_points=35).score("full-house", full, roll=1) == 40
    assert "chance" not in variant("argentine").categories
    rules = variant("argentine", chance_box=True)
    assert rules.categories[-1] == "chance" and rules.turns == 12
    assert rules.score("chance", [6, 5, 4, 1, 1], roll=3) == 17
    # the solver's model prices boxes from the same rules
    from generala.ai.solver import model_for, table_name
    model = model_for(variant("argentine", full_house_points=35))
    assert max(model.later["full-house"]) == 35 and max(model.served["full-house"]) == 40
    assert table_name(rules) == "argentine.chance_box_on.gvt"


def test_games_save_and_load_them(house_options):
    rules = variant("argentine", full_house_points=35, chance_box=True)
    game = Game(rules, ["Ana"], ScriptedRoller([2, 2, 3, 3, 3, 6, 6, 5, 1, 1]))
    game.roll()
    assert game.preview()["full-house"] == 40
    game.score("full-house")
    game.roll()
    game.score("chance")
    doc = game.to_json()
    assert doc["options"]["full_house_points"] == 35 and doc["options"]["chance_box"] is True
    loaded = Game.from_json(doc)
    assert loaded.rules == rules and loaded.sheets == game.sheets
    assert loaded.sheet(0)["full-house"] == 40 and loaded.sheet(0)["chance"] == 19
    assert loaded.to_json() == doc


def test_the_worker_protocol_takes_them(house_options):
    session = app.Session()
    reply = session.handle({"op": "new", "variant": "argentine", "seed": 1,
                            "options": {"full_house_points": 35, "chance_box": True},
                            "sides": [{"name": "A", "members": [], "player": "human"}]})
    assert reply["ok"], reply
    assert reply["view"]["options"]["full_house_points"] == 35
    assert reply["view"]["rows"][-1]["box"] == "chance"


def test_a_missing_word_is_caught_until_it_is_added(house_options):
    cat = catalog()
    found = tables(cat)
    missing = missing_option_words(cat, found)
    assert missing == sorted([(lang, key) for lang in words.LANGS for key in ("opt.chance_box", "opt.full_house_points")]
                             + [(lang, key) for lang in words.LANGS if lang != "en"
                                for key in ("opthelp.chance_box", "opthelp.full_house_points")])
    assert found["en"]["opthelp.chance_box"] == CHANCE.help  # the engine's English
    for lang, table in found.items():
        label, help_, chance, chance_help = WORDS[lang]
        table.update({"opt.full_house_points": label, "opt.chance_box": chance})
        if help_:
            table.update({"opthelp.full_house_points": help_, "opthelp.chance_box": chance_help})
    assert missing_option_words(cat, found) == []
    del found["ru"]["opthelp.chance_box"]
    assert missing_option_words(cat, found) == [("ru", "opthelp.chance_box")]