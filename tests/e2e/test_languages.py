"""Languages: the browser's preference picks the language, the picker
switches in place and is remembered, ?lang= is validated, <html lang> follows, and
the board speaks the chosen language (plural forms included)."""
from __future__ import annotations

import pytest

from e2e_support import STATE_LOG_SCRIPT, Guard, boot, cross_engine
from gamepage import pick_lang, GamePage, open_setup


def lang_of(page) -> str:
    return page.evaluate("document.documentElement.lang")


@pytest.mark.cross_engine
def test_language_from_browser_picker_remembered_and_url_validated(browser, base_url):
    context = browser.new_context(base_url=base_url, locale="bg-BG", service_workers="block")
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    try:
        boot(page)
        assert lang_of(page) == "bg"
        assert page.inner_text("#start") == "Започнете играта"
        assert page.title() == "Генерал — игри със зарове"
        assert page.input_value("#lang-pick") == "bg"

        # the picker: in place, names typed so far kept, remembered across a reload
        open_setup(page)
        page.fill("#sides > li:first-child .side-name", "Петя")
        page.select_option("#lang-pick", "ru")
        page.wait_for_function("() => document.documentElement.lang === 'ru'")
        assert page.inner_text("#start") == "Начать игру"
        assert page.input_value("#sides > li:first-child .side-name") == "Петя"
        assert "Стрит" not in page.inner_text("#setup")  # box names appear on the board only
        boot(page, "/")
        assert lang_of(page) == "ru"

        # a game in Russian: box names of the seed, plural forms of the rolls left
        gp = GamePage(page)
        gp.new_game("puerto-rican", ("Аня",), seed=1)
        assert page.inner_text('#sheet tr[data-row="straight"] th') == "Стрит"
        assert page.inner_text('#sheet tr[data-row="small-general"] th') == "Малый генерал\nпять одинаковых"
        gp.roll()
        assert "Осталось 2 броска." in page.text_content("#announce")
        assert page.inner_text("#roll") == "Бросить (ещё 2)"

        # ?lang= wins over the saved choice; a bad value is refused with a message
        boot(page, "/?lang=es")
        assert lang_of(page) == "es"
        assert page.inner_text('#sheet tr[data-row="four-kind"] th') == "Póker"
        boot(page, "/?lang=xx%3Cb%3E")
        assert lang_of(page) == "ru"
        assert "xx<b>" in page.inner_text("#messages")
        assert page.locator("#messages b").count() == 0
        # Spanish board, then English through the board menu's picker (the board is redrawn in place)
        pick_lang(page, "en")
        assert page.input_value("#lang-pick") == "en"  # the site header's picker says so too
        assert page.inner_text('#sheet tr[data-row="four-kind"] th') == "Four of a kind"
        # kept: saved, and the ?lang= that would override it at the next load is dropped
        assert "lang=" not in page.url
        assert page.evaluate("localStorage.getItem('generala.lang')") == "en"
    finally:
        context.close()
    assert not guard.problems, guard.report()


WHOLE_BUTTONS = """() => [...document.querySelectorAll('#board .tray .actions > button')]
  .filter((b) => b.offsetParent).map((b) => {
    const r = b.getBoundingClientRect();
    const spans = [...b.querySelectorAll('span')].map((s) => s.getBoundingClientRect());
    return {id: b.id, text: b.textContent,
            cut: b.scrollWidth > b.clientWidth || spans.some((s) => s.right > r.right + 0.5 || s.left < r.left - 0.5),
            inside: r.left >= 0 && r.right <= innerWidth};
  })"""


@pytest.mark.parametrize("lang", ["en", "es", cross_engine("bg"), cross_engine("ru")])
def test_the_board_s_buttons_are_whole_on_a_phone_in_every_language(page, lang):
    # Undo, Roll with its rolls left, and Hint side by side at 375 px: none of them cut
    # (Hint read "Подска" in Russian and Bulgarian), none outside the screen.
    page.set_viewport_size({"width": 375, "height": 667})
    boot(page, f"/?lang={lang}")
    page.click("#play-computer")
    page.wait_for_selector("#roll:enabled", timeout=30_000)
    GamePage(page).roll()
    buttons = page.evaluate(WHOLE_BUTTONS)
    assert {b["id"] for b in buttons} >= {"undo", "roll", "hint-btn"}, buttons
    assert all(not b["cut"] and b["inside"] for b in buttons), buttons
    assert "2" in page.inner_text("#roll .roll-left")  # the rolls left, in their own part
