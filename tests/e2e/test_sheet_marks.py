"""A score-sheet game (real dice, scores entered by hand) says it is one wherever it is
shown: the home lists (Continue, Finished, with their Replay and Export buttons), the
replay screen and the records; visibly and for screen readers, in every language."""
import pytest
from sheetpage import SheetPage
from gamepage import gp, open_home, open_library, shared  # noqa: F401
from test_a11y import set_lang

MARK = "[data-kind='sheet']"
WORDS = {  # the mark, and what a screen reader hears after it
    "en": ("Score sheet", "played with real dice, scores entered by hand"),
    "es": ("Hoja de puntos", "jugada con dados reales, puntos anotados a mano"),
    "bg": ("Лист за точки", "играна с истински зарове, точките са вписани на ръка"),
    "ru": ("Лист очков", "сыграна настоящими костями, очки записаны вручную"),
}


@pytest.fixture(scope="module")
def games(shared):
    """On the shared page, from no saves: a finished score-sheet game (Caro, Dani), an
    unfinished one (Eva) and a finished game with the page's dice (Fede)."""
    page, _ = shared
    sp = SheetPage(page)
    sp.home()
    page.evaluate("() => { for (const k of Object.keys(localStorage))"
                  " if (k.startsWith('generala.save.')) localStorage.removeItem(k); }")
    sp.new_game("puerto-rican", ("Caro", "Dani"))
    sp.enter([3, 3, 3, 5, 5], at=3)
    sp.score("full-house")
    sp.enter([5, 5, 5, 5, 5], at=1)
    page.wait_for_selector("#over", state="visible")
    sp.new_game("argentine", ("Eva",))
    sp.enter([2, 2, 4, 5, 6], at=2)
    sp.score("twos")
    sp.new_game("argentine", ("Fede",), seed=307, sheet=False)
    sp.roll()  # five alike served: Fede wins at once
    page.wait_for_selector("#over", state="visible")
    sp.home()
    return sp


def item(p, name):
    return p.locator("#home li.save", has_text=name)


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_home_lists_mark_score_sheet_games(gp, games, lang):
    p = gp.page
    gp.home()
    set_lang(p, lang)
    try:
        mark, said = WORDS[lang]
        for name, where in (("Caro", "history"), ("Eva", "continue")):
            (open_library if where == "history" else open_home)(p)
            li = p.locator(f"#{where}-list li.save", has_text=name)
            assert li.count() == 1
            m = li.locator(MARK)
            assert m.count() == 1 and m.is_visible()
            assert mark in m.inner_text()  # seen
            assert m.locator(".sr-only").text_content() == f" ({said})"  # heard
            # the list's Replay and Export buttons are on the same marked item
            assert li.locator("[data-replay-save]").count() == 1 and li.locator("[data-export-save]").count() == 1
        open_library(p)
        fede = item(p, "Fede")
        assert fede.count() == 1 and fede.locator(MARK).count() == 0
    finally:
        set_lang(p, "en")


def test_replay_says_it_is_a_score_sheet_game(gp, games):
    sp = SheetPage(gp.page)
    p = sp.page
    sp.home()
    open_library(p)  # finished games
    for name, marked in (("Caro", True), ("Fede", False)):
        item(p, name).locator("[data-replay-save]").click()
        sp.wait_step(0)
        names = p.locator("#replay .replay-names")
        assert name in names.inner_text()
        assert names.locator(MARK).count() == (1 if marked else 0)
        if marked:
            assert "Score sheet" in names.inner_text()
            assert "played with real dice" in names.locator(".sr-only").text_content()
        p.click('#replay [data-replay="back"]')
        p.wait_for_selector("#library", state="visible")  # back where the replay was opened


def test_records_say_how_many_games_were_score_sheet_games(gp, games):
    p = gp.page
    gp.home()
    p.click("#nav-records")
    p.wait_for_selector("#records[data-ready]", state="attached")
    rows = p.locator("#records-table tbody tr")
    marks = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        marks[row.get_attribute("data-name")] = row.locator(MARK).inner_text() if row.locator(MARK).count() else None
    assert "Score sheet: 1 of 1" in marks["Caro"] and "Score sheet: 1 of 1" in marks["Dani"]
    assert marks["Fede"] is None and "Eva" not in marks  # Eva's game is not finished
    p.click('#records [data-records="back"]')
    p.wait_for_selector("#home", state="visible")
