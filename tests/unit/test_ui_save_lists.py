"""static/ui/saves/save_lists.py in CPython: the words of the home screen's lists of saved
games, in each language the page speaks."""
import sys
from pathlib import Path

import pytest

from tools import ui_modules

UI_PATHS = [str(ui_modules.UI)]


@pytest.fixture
def lists():
    sys.path[:0] = UI_PATHS
    try:
        from saves import save_lists
        from words import words
        from generala.catalog import catalog
        words.use_catalog(catalog())  # as the page at boot: the engine's English titles
        yield save_lists, words
    finally:
        words.set_lang("en")
        for path in UI_PATHS:
            sys.path.remove(path)
        ui_modules.forget()


FINISHED = {"variant": "argentine", "title": "Generala", "names": ["Ana", "Beto", "Caro"],
            "result": [["Beto", 2, 180], ["Caro", None, 0], ["Ana", 1, 230]]}

# Written out from the word tables (static/ui/words_*.py; English titles are the
# engine's, generala/rules/variants.py), not computed with the module under test.
TITLES = {
    "en": {"argentine": "Generala", "puerto-rican": "General", "double": "Double General", "bulgarian": "Генерал"},
    "es": {"argentine": "Generala", "puerto-rican": "General", "double": "General doble",
           "bulgarian": "General búlgaro"},
    "bg": {"argentine": "Генерала", "puerto-rican": "Пуерторикански генерал", "double": "Двоен генерал",
           "bulgarian": "Генерал"},
    "ru": {"argentine": "Генерала", "puerto-rican": "Генерал", "double": "Двойной генерал",
           "bulgarian": "Болгарский генерал"},
}
UNNAMED = {"en": "Game", "es": "Partida", "bg": "Игра", "ru": "Партия"}
# FINISHED's result line, side by side: first place first, the side with no place last.
RESULTS = {
    "en": ["1st Ana 230", "2nd Beto 180", "Caro 0"],
    "es": ["1.º Ana 230", "2.º Beto 180", "Caro 0"],
    "bg": ["1-во Ana 230", "2-ро Beto 180", "Caro 0"],
    "ru": ["1-е Ana 230", "2-е Beto 180", "Caro 0"],
}
ROUNDS = {"en": "Turn 3 of 11 · today", "es": "Turno 3 de 11 · today", "bg": "Ход 3 от 11 · today",
          "ru": "Ход 3 из 11 · today"}


@pytest.mark.parametrize("lang", ["en", "es", "bg", "ru"])
def test_a_finished_game_lists_its_sides_first_place_first(lists, lang):
    save_lists, words = lists
    words.set_lang(lang)
    line = save_lists.result_line(FINISHED)
    assert [part.strip() for part in line.split(", ")] == RESULTS[lang]
    assert save_lists.result_line({"result": None}) == ""


@pytest.mark.parametrize("lang", ["en", "es", "bg", "ru"])
def test_a_game_in_progress_says_its_round_when_known(lists, lang):
    save_lists, words = lists
    words.set_lang(lang)
    entry = {"variant": "argentine", "round": 3, "turns": 11}
    assert save_lists.continue_meta(entry, "today") == ROUNDS[lang]
    assert save_lists.continue_meta({"round": None, "turns": 11}, "today") == "today"
    assert save_lists.continue_meta({"round": 3}, "today") == "today"


@pytest.mark.parametrize("lang", ["en", "es", "bg", "ru"])
def test_titles_are_in_the_page_language(lists, lang):
    save_lists, words = lists
    words.set_lang(lang)
    for variant, title in TITLES[lang].items():
        # the page's own words, not the title stored with the save (an older build's,
        # perhaps in another language)
        assert save_lists.game_title({"variant": variant, "title": "Stored title"}) == title
    assert save_lists.game_title({"variant": "house-rules", "title": "Mine"}) == "Mine"
    assert save_lists.game_title({"variant": "house-rules"}) == UNNAMED[lang]
