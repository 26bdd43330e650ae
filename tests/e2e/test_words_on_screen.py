"""The words a first-time player reads: names the page made ("You", "Computer") follow a
language switch and the person is "you" in every sentence; counts take each language's
plural form; the coach's line follows the switch; Roll stays one line in Russian; one
plain word for each thing; each game says what it is, the sheet says what its marks
mean; a bad address says nothing untrue and does not stick.

One page for the module (booted once); no full games: a few rolls and one box each."""
from __future__ import annotations

import re

import pytest

from e2e_support import boot
from gamepage import GamePage, leave, open_setup, pick_lang, set_coach, shared_page

PERSON = "() => { const r = document.getElementById('roll');"\
         " return r && !r.disabled && !document.getElementById('board').hasAttribute('aria-busy'); }"
ONE_LINE = """() => { const v = document.querySelector('#roll .roll-verb').getBoundingClientRect();
  const l = document.querySelector('#roll .roll-left').getBoundingClientRect();
  return l.top < v.bottom - 2 && v.top < l.bottom - 2; }"""


@pytest.fixture(scope="module")
def words_page(browser, base_url):
    yield from shared_page(browser, base_url, locale="en-US", viewport={"width": 1280, "height": 800})


@pytest.fixture
def wp(words_page):
    page, guard = words_page
    guard.problems.clear()
    if page.evaluate("document.documentElement.lang") != "en":  # a test before stopped midway
        pick_lang(page, "en")
    yield page
    guard.collect_error_boxes()
    if guard.problems:
        pytest.fail("the browser reported problems:\n" + guard.report(), pytrace=False)


def text(page, sel: str) -> str:
    return " ".join(page.inner_text(sel).split())


def person_to_play(page):
    page.wait_for_function(PERSON, timeout=30_000)


def test_made_names_follow_the_language_and_the_person_is_you(wp):
    """The one-tap game against the computer: "You" and "Computer" are words (Spanish,
    Russian and Bulgarian say them in their own words after a switch mid-game); the
    board says "Your turn" and "You start", never "You starts" or "You to play"; the
    rolls left take the plural form of each language; the coach's line follows the
    switch; against the computer the coach speaks of a chance to win and a cost, and Roll
    stays one line in Russian at 375 px and 1280 px."""
    p, gp = wp, GamePage(wp)
    gp.home()
    assert "Good" in text(p, "#quick-level") and "heuristic" not in p.inner_text("#home")
    p.select_option("#quick-level", "ai:heuristic")
    p.click("#play-computer")
    p.wait_for_selector("#board", state="visible")
    starts = p.text_content("#starts") or ""
    # empty once play has begun; else who starts and why ("You start: the lowest roll-off total (9).")
    assert starts == "" or starts.startswith(("You start:", "Computer starts:")), starts
    assert "You starts" not in starts
    person_to_play(p)
    assert text(p, "#who") == "Your turn"
    set_coach(p, True)
    p.wait_for_selector("#coach-toggle:not([aria-busy])", state="attached")

    # the coach's words: a chance to win and a cost, in plain words
    gp.roll()
    p.click("#hint-btn")
    p.wait_for_selector("#hint-dialog[open] #hint-body table", timeout=30_000)
    hint = text(p, "#hint-dialog")
    assert "Chance to win" in hint and "Cost" in hint and "%" in hint
    assert not re.search(r"Expected final|Loss|solitaire|heuristic", hint)
    p.keyboard.press("Escape")
    p.wait_for_selector("#hint-dialog", state="hidden")
    gp.roll()
    assert text(p, "#roll") == "Roll (1 left)"
    gp._after(lambda: p.click("#sheet button.box.best"))
    p.wait_for_selector("#coach-cost:not([hidden])", state="attached")
    english_cost = p.text_content("#coach-cost")
    assert "You scored" in p.text_content("#announce")
    person_to_play(p)

    # Spanish mid-game: the names, whose turn, the coach's line, "queda 1"
    pick_lang(p, "es")
    board = p.inner_text("#board")
    assert "You" not in board and "Computer" not in board
    assert text(p, "#sheet thead th[data-side='0'] .side-title") == "Tú"
    assert text(p, "#sheet thead th[data-side='1'] .side-title") == "Computadora"
    assert text(p, "#who") == "Te toca"
    spanish_cost = p.text_content("#coach-cost")
    assert spanish_cost != english_cost and ("costó" in spanish_cost or "mejor" in spanish_cost.lower())
    gp.roll()
    gp.roll()
    assert text(p, "#roll") == "Tirar (queda 1)"

    # Russian: the names, and Roll on one line on a desktop and on a phone
    pick_lang(p, "ru")
    assert text(p, "#who") == "Ваш ход"
    assert text(p, "#sheet thead th[data-side='1'] .side-title") == "Компьютер"
    assert text(p, "#roll") == "Бросить (ещё 1)"
    assert p.evaluate(ONE_LINE), "Roll wraps at 1280 px"
    p.set_viewport_size({"width": 375, "height": 667})
    try:
        p.wait_for_function(ONE_LINE, timeout=3_000)
    finally:
        p.set_viewport_size({"width": 1280, "height": 800})
    # Bulgarian: the names the page made, and the person is "you" (Вие)
    pick_lang(p, "bg")
    assert text(p, "#sheet thead th[data-side='0'] .side-title") == "Вие"
    assert text(p, "#who") == "Ваш ред е"
    pick_lang(p, "en")
    assert text(p, "#sheet thead th[data-side='0'] .side-title") == "You"
    # a reload in Spanish keeps the words (stored as words with the game, not as text)
    pick_lang(p, "es")
    boot(p, "/")
    p.wait_for_selector("#board", state="visible")
    assert text(p, "#sheet thead th[data-side='1'] .side-title") == "Computadora"
    pick_lang(p, "en")


def test_each_game_says_what_it_is_and_the_sheet_what_its_marks_mean(wp):
    """The game list has a line for each game (Генерал is the Bulgarian General); the
    Bulgarian sheet has a legend for its * and O, and a score under par is not drawn in
    the colour of a gain; Small General says which hand it is in each game; the setup
    form's levels are plain words."""
    p, gp = wp, GamePage(wp)
    gp.home()
    p.select_option("#quick-game", "bulgarian")
    assert "Bulgarian General" in p.text_content("#quick-game-line")
    p.select_option("#quick-game", "argentine")
    assert "Generala" in p.text_content("#quick-game-line")
    open_setup(p)
    assert "heuristic" not in p.inner_text("#setup") and "Computer: good" in p.inner_text("#setup")

    gp.new_game("bulgarian", ("Ana", "Beto"), seed=1)
    legend = p.text_content("#sheet-legend")
    assert "*" in legend and "par (O)" in legend
    gp.roll()
    p.wait_for_selector("#board:not([data-dice-air])", state="attached")  # the points show once the dice land
    colours = p.evaluate("""() => {
        const of = sel => [...document.querySelectorAll(sel)].map(b => getComputedStyle(b).color);
        return {minusCls: of('#sheet button.box.minus:not(.best)'),
                gain: of('#sheet button.box:not(.minus):not(.best):not([hidden])')}; }""")
    assert colours["minusCls"], "a score under par is marked"
    assert set(colours["minusCls"]).isdisjoint(colours["gain"])

    for variant, box, what in (("puerto-rican", "small-general", "five alike"),
                               ("double", "small-general", "1-2-3-4-5")):
        gp.new_game(variant, ("Ana",), seed=1)
        assert text(p, f'#sheet tr[data-row="{box}"] .box-what') == what
    leave(p)


def test_on_a_phone_the_sheets_star_opens_the_rules_that_say_what_it_means(wp):
    """375x667: Генерал's one-screen board has no room for the legend under the sheet; the
    * in its Box header (a 24 px target, named) opens the Rules, which begin with it. At
    1280x800 the legend is under the sheet and no such button is shown."""
    p, gp = wp, GamePage(wp)
    gp.new_game("bulgarian", ("Ana", "Beto"), seed=1)
    assert p.is_visible("#sheet-legend") and not p.is_visible("#sheet-legend-btn")
    p.set_viewport_size({"width": 375, "height": 667})
    try:
        assert not p.is_visible("#sheet-legend")
        star = p.locator("#sheet-legend-btn")
        assert star.is_visible() and star.get_attribute("aria-label") == "What * and O mean: the rules"
        box = star.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        star.click()
        p.wait_for_selector("#rules[open]")
        legend = p.text_content("#rules-legend")
        assert legend.startswith("* Ones to Sixes") and "par (O)" in legend
        p.keyboard.press("Escape")
        p.wait_for_selector("#rules", state="hidden")
    finally:
        p.set_viewport_size({"width": 1280, "height": 800})
    gp.new_game("argentine", ("Ana", "Beto"), seed=1)  # no * on this sheet: no button
    assert p.locator("#sheet-legend-btn").count() == 0
    leave(p)


def test_a_bad_address_says_nothing_untrue_and_does_not_stick(wp):
    """?variant=nope with a saved game's board on screen says the game is unknown, not
    to "choose one below"; a bad #replay= link is said once and leaves the address."""
    p, gp = wp, GamePage(wp)
    gp.new_game("argentine", ("Ana",), seed=1)
    gp.settled()
    boot(p, "/?variant=nope")
    p.wait_for_selector("#board", state="visible")
    said = p.inner_text("#messages")
    assert "Unknown game “nope”" in said and "below" not in said
    boot(p, "/#replay=not-a-replay")
    p.wait_for_selector("#replay-error", state="visible", timeout=30_000)
    assert p.evaluate("location.hash") == ""
    leave(p)
