"""static/ui/saves/save_lists.py in CPython: the words of the home screen's lists of saved
games, in each language the page speaks."""
import sys
from pathlib import Path

import pytest

from tools import ui_modules

UI_PATHS = [str(p) for p in ui_modules.folders()]


@pytest.fixture
def lists():
    sys.path[:0] = UI_PATHS
    try:
        import save_lists
        import words
        from generala.catalog import catalog
        words.use_catalog(catalog())  # as the page at boot: the engine's English titles
        yield save_lists, words
    finally:
        words.set_lang("en")
        for path in UI_PATHS:
            sys.path.remove(path)
        for name in ("save_lists", "words", "words_en", "words_es", "words_bg", "words_ru"):
            sys.modules.pop(name, None)


FINISHED = {"variant": "argentine", "title": "Generala", "names": ["Ana", "Beto", "Caro"],
            "result": [["Beto", 2, 180], ["Caro", None, 0], ["Ana", 1, 230]]}


def test_a_finished_game_lists_its_sides_first_place_first(lists):
    save_lists, words = lists
    line = save_lists.result_line(FINISHED)
    assert line.startswith(words.t("save.result", place=words.ordinal(1), name="Ana", total=230))
    assert line.index("Ana") < line.index("Beto") < line.index("Caro")  # no place: last
    assert "230" in line and "180" in line
    assert save_lists.result_line({"result": None}) == ""


def test_a_game_in_progress_says_its_round_when_known(lists):
    save_lists, words = lists
    entry = {"variant": "argentine", "round": 3, "turns": 11}
    assert save_lists.continue_meta(entry, "today") == words.t("save.turn", round=3, turns=11, when="today")
    assert "3" in save_lists.continue_meta(entry, "today") and "11" in save_lists.continue_meta(entry, "today")
    assert save_lists.continue_meta({"round": None, "turns": 11}, "today") == "today"


@pytest.mark.parametrize("lang", ["en", "es", "bg", "ru"])
def test_titles_are_in_the_page_language(lists, lang):
    save_lists, words = lists
    words.set_lang(lang)
    assert save_lists.game_title(FINISHED) == words.title("argentine")
    assert save_lists.game_title({"variant": "house-rules", "title": "Mine"}) == "Mine"
    assert save_lists.game_title({"variant": "house-rules"}) == words.t("save.game")
    assert save_lists.result_line(FINISHED).count(",") == 2
