"""Win chances on the page, against the CPython engine's for the same game:

- the board's row under the sums: every side's chance after each box filled, the very
  figures CPython gives for the same game (and again after a reload, from the save); a
  roll leaves them; the Menu switch hides them (kept), W says them or why there are none;
  the row fits a 375x667 phone in every game;
- the hint and the coach in chances where there is an opponent (in points alone);
- the game's story at the end: its chart (a line per side) and its table, point for point
  CPython's story of the same finished game, the turning point and the costliest choice
  in words, in four languages at 375 px and 1280 px; axe finds nothing on it.
"""
from __future__ import annotations

import pytest

from e2e_support import cross_engine, wait_ready
from gamepage import GamePage, Mirror, gp, play_turn, set_coach, shared  # noqa: F401
from test_a11y import AXE, check, report
from test_result_card import play_to_the_end

from generala.ai import story as game_story
from generala.ai.tables import table_for

# The dice land at once (the board's motion switch off): what is under test is the figures.
pytestmark = pytest.mark.still_dice

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
# The row shows the engine's figures for the turn on the board: no request on its way.
ROW_READY = """key => { const r = document.getElementById('chances-row');
  return !!r && !r.hidden && !r.hasAttribute('aria-busy') && r.dataset.key === key; }"""


def row_key(view) -> str:
    return f"{view['round']}/{view['current']}"


def shown(page) -> list[float]:
    return [float(x) for x in page.eval_on_selector_all("#chances-row td", "tds => tds.map(t => t.dataset.chance)")]


def wait_row(page, view):
    page.wait_for_function(ROW_READY, arg=row_key(view), timeout=20_000)


def menu_switch(page, on: bool):
    page.click("#board-menu-btn")
    page.set_checked("#chances-toggle", on)
    page.keyboard.press("Escape")
    page.wait_for_selector("#board-menu", state="hidden")


def said(page) -> str:
    return page.text_content("#announce") or ""


@pytest.mark.parametrize("variant", [cross_engine("argentine"), "bulgarian"])
def test_the_row_shows_the_engines_chances_after_every_box(gp: GamePage, variant):
    p = gp.page
    p.set_viewport_size(DESKTOP)
    gp.new_game(variant, ("Ana", "Beto"), seed=5)
    m = Mirror(variant, ("Ana", "Beto"), 5)
    wait_row(p, m.view)
    assert shown(p) == m.do({"op": "chances"})["chances"]["sides"]
    for _ in range(3):
        play_turn(gp, m, holds=True)
        wait_row(p, m.view)
        want = m.do({"op": "chances"})["chances"]["sides"]
        assert shown(p) == want
        cells = p.eval_on_selector_all("#chances-row td", "tds => tds.map(t => t.textContent)")
        assert all(c.endswith("%") for c in cells) and sum(want) == pytest.approx(1.0, abs=1e-3)
    # a roll leaves the figures as they were: the turn's, after the last box
    before = shown(p)
    gp.roll()
    m.do({"op": "roll"})
    wait_row(p, m.view)
    assert shown(p) == before
    # after a reload the page asks the engine for them, from the stored game: CPython's
    # answer for that game, dice and all
    gp.settled()
    p.reload()
    wait_ready(p)
    p.wait_for_selector("#board", state="visible")
    wait_row(p, m.view)
    assert shown(p) == m.do({"op": "chances"})["chances"]["sides"]


def test_the_menu_switch_hides_them_and_w_says_them(gp: GamePage):
    p = gp.page
    p.set_viewport_size(DESKTOP)
    gp.new_game("puerto-rican", ("Ana", "Beto"), seed=8)
    m = Mirror("puerto-rican", ("Ana", "Beto"), 8)
    play_turn(gp, m, holds=False)
    wait_row(p, m.view)
    p.keyboard.press("w")
    chances = m.do({"op": "chances"})["chances"]["sides"]
    words = f"Ana {round(chances[0] * 100)}% · Beto {round(chances[1] * 100)}%"
    p.wait_for_function("t => document.getElementById('announce').textContent.includes(t)", arg=words)
    menu_switch(p, False)
    assert p.is_hidden("#chances-row")
    assert p.evaluate("generala.storage.get('generala.chances')") == "0"
    p.keyboard.press("w")
    p.wait_for_function("() => document.getElementById('announce').textContent.includes('hidden')")
    play_turn(gp, m, holds=False)
    assert p.is_hidden("#chances-row")  # and none asked for: hidden is hidden
    menu_switch(p, True)
    wait_row(p, m.view)
    assert shown(p) == m.do({"op": "chances"})["chances"]["sides"]
    # alone: no row, no switch
    gp.new_game("argentine", ("Ana",), seed=8)
    assert p.is_hidden("#chances-row")
    p.keyboard.press("w")
    p.wait_for_function("() => document.getElementById('announce').textContent.startsWith('No win chances')")


@pytest.mark.parametrize("variant", ["argentine", "puerto-rican", cross_engine("bulgarian"), "double"])
def test_the_row_fits_a_small_phone(gp: GamePage, variant):
    """With the chances shown, everything a turn needs is on a 375x667 screen (as in
    test_one_screen), and so is the row, within the sheet, which does not scroll."""
    from test_one_screen import check as fits
    p = gp.page
    p.set_viewport_size(PHONE)
    gp.new_game(variant, ("Ana", "Beto"), seed=2)
    m = Mirror(variant, ("Ana", "Beto"), 2)
    play_turn(gp, m, holds=False)
    play_turn(gp, m, holds=False)
    wait_row(p, m.view)
    gp.roll()
    fits(gp, "375x667", f"{variant}, chances shown")
    box = p.evaluate("""() => { const r = document.getElementById('chances-row').getBoundingClientRect();
      const w = document.querySelector('#board .sheet-wrap');
      const f = w.getBoundingClientRect();
      return {top: r.top, bottom: r.bottom, frame: f.bottom, scroll: w.scrollHeight, client: w.clientHeight,
              vh: innerHeight}; }""")
    assert box["bottom"] <= box["frame"] + 0.5 and box["bottom"] <= box["vh"], box
    assert box["scroll"] <= box["client"] + 1, box


def test_the_hint_and_the_coach_speak_in_chances_against_an_opponent(gp: GamePage):
    p = gp.page
    p.set_viewport_size(DESKTOP)
    gp.new_game("argentine", ("Ana", "Beto"), seed=4)
    set_coach(p, True)
    m = Mirror("argentine", ("Ana", "Beto"), 4)
    m.do({"op": "coach", "on": True})
    gp.roll()
    m.do({"op": "roll"})
    p.keyboard.press("h")
    p.wait_for_selector("#hint-dialog[open] #hint-table")
    assert p.get_attribute("#hint-table", "data-in") == "chance"
    hint = m.do({"op": "hint", "top": 5})["hint"]
    rows = p.eval_on_selector_all("#hint-table tbody tr", "trs => trs.map(t => +t.dataset.chance)")
    assert rows == [h["chance"] for h in hint]
    assert "%" in p.text_content("#hint-table tbody tr:first-child td")
    p.keyboard.press("Escape")
    # the worst box: its cost in the chance to win
    worst = [h for h in m.do({"op": "hint", "top": 100})["hint"] if h["kind"] == "score"][-1]
    box = worst["request"]["box"]
    reply = m.do(m.request(box))
    gp.score(box)
    p.wait_for_selector("#coach-cost:not([hidden])")
    assert p.get_attribute("#coach-cost", "data-in") == "chance"
    assert float(p.get_attribute("#coach-cost", "data-cost")) == pytest.approx(reply["chance_cost"])
    assert "chance to win" in p.text_content("#coach-cost")
    # alone, the hint stays in points
    gp.new_game("argentine", ("Ana",), seed=4)
    gp.roll()
    p.keyboard.press("h")
    p.wait_for_selector("#hint-dialog[open] #hint-table")
    assert p.get_attribute("#hint-table", "data-in") == "points"
    p.keyboard.press("Escape")
    set_coach(p, False)


def finish(gp: GamePage, variant, names, seed):
    """The game opened at its last turn and finished on the board (test_result_card);
    CPython's story of the same finished game."""
    finished = play_to_the_end(gp, variant, names, seed)
    gp.page.wait_for_selector("#game-story[data-told]", timeout=60_000)
    return finished, game_story.story(finished, table_for(finished.rules))


@pytest.mark.parametrize("lang", [cross_engine("en"), "es", "bg", "ru"])
def test_the_story_at_the_end_is_the_engines(gp: GamePage, lang):
    p = gp.page
    p.set_viewport_size(PHONE)
    finished, want = finish(gp, "puerto-rican", ("Ana", "Beto"), 7)
    if lang != "en":
        p.click("#board-menu-btn")
        p.select_option("#board-lang", lang)
        p.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        p.keyboard.press("Escape")
    try:
        lines = p.eval_on_selector_all("#story-chart polyline", "ls => ls.length")
        assert lines == 2
        assert int(p.get_attribute("#story-chart", "data-points")) == len(want["points"]) + 1
        table = p.eval_on_selector_all(
            "#story-table tbody tr", "trs => trs.map(t => [...t.querySelectorAll('td')].map(d => +d.dataset.chance))")
        assert table == [want["start"]] + [pt["chances"] for pt in want["points"]]
        turning = want["turning"]
        assert p.get_attribute("#story-turning", "data-cause") == turning["cause"]
        costly = p.eval_on_selector_all(".story-costliest", "ps => ps.map(p => +p.dataset.side)")
        assert costly == [c["side"] for c in want["costliest"]]
        text = p.text_content("#game-story")
        assert "{" not in text and "}" not in text  # every word filled in
        for size in (PHONE, DESKTOP):
            p.set_viewport_size(size)
            wide = p.evaluate("""() => { const s = document.getElementById('game-story');
              return [s.scrollWidth, s.clientWidth, document.documentElement.scrollWidth, innerWidth]; }""")
            assert wide[0] <= wide[1] + 1 and wide[2] <= wide[3] + 1, (size, wide)
    finally:
        if lang != "en":
            p.click("#board-menu-btn")
            p.select_option("#board-lang", "en")
            p.wait_for_function("() => document.documentElement.lang === 'en'")
            p.keyboard.press("Escape")


@pytest.mark.only_chromium("media emulation (prefers-color-scheme): Playwright over WebDriver BiDi ignores emulate_media")
def test_axe_finds_nothing_in_the_story(gp: GamePage):
    if not AXE.exists():
        pytest.skip("npm install (devDependency axe-core) first")
    p = gp.page
    finish(gp, "argentine", ("Ana", "Beto", "Caro"), 3)
    p.click("#game-story summary")
    found: dict = {}
    for size in (PHONE, DESKTOP):
        for scheme in ("light", "dark"):
            p.set_viewport_size(size)
            p.emulate_media(color_scheme=scheme)
            check(p, f"story {size['width']} {scheme}", found)
    p.emulate_media(color_scheme="light")
    assert not found, report(found)
