"""The home screen: plain HTML in the page's language from the first paint, one tap to a
game against the computer (the first roll two taps from a fresh profile), a tap or a pick
made while the page loads kept, the last quick game remembered, hot-seat seats that are
people, the setup form and the saved games on panels of their own, and nothing that moves
at boot. (A first visit's UI starts by itself once the page is idle: test_boot.py.)"""
import sys
from pathlib import Path

import pytest
from e2e_support import boot, cross_engine, poll, wait_ready
from gamepage import SETTLED, open_library, open_setup

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools import ui_modules  # noqa: E402

sys.path[:0] = [str(ui_modules.UI)]
from words import words  # noqa: E402

# The layout shifts since the page began (buffered entries: a new observer's takeRecords()
# has them at once), after the frames that draw the page as it is now.
LAYOUT_SHIFTS = """async () => {
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const po = new PerformanceObserver(() => {});
  po.observe({ type: "layout-shift", buffered: true });
  const shifts = po.takeRecords().filter((e) => !e.hadRecentInput).map((e) => e.value);
  po.disconnect();
  return shifts;
}"""

CURRENT_ENTRY = """() => {
  const id = localStorage.getItem('generala.current');
  return id ? JSON.parse(localStorage.getItem('generala.save.' + id)) : null;
}"""


def visible_text(page, selector):
    return page.inner_text(selector).strip()


@pytest.mark.cross_engine
def test_the_first_roll_is_two_taps_from_a_fresh_profile(page):
    boot(page)
    taps = 0
    page.click("#play-computer")
    taps += 1
    page.wait_for_selector("#board", state="visible")
    page.wait_for_selector("#roll:enabled")
    page.click("#roll")
    taps += 1
    page.wait_for_function("() => [...document.querySelectorAll('[data-die]')].every(d => +d.dataset.face >= 1)")
    page.wait_for_function(SETTLED)  # no reply on its way, the game saved
    assert taps == 2
    entry = page.evaluate(CURRENT_ENTRY)
    assert entry["variant"] == "argentine"
    view = entry["reply"]["view"]
    assert [(s["name"], s["player"]) for s in view["sides"]] == [("You", "human"), ("Computer", "ai:heuristic")]
    assert "2" in page.inner_text("#roll")  # "Roll (2 left)": one roll made


def held_ui(page, url="/"):
    """Open ``url`` with the UI's files (pyscript-files.gz, the pack of PyScript's [files]
    that static/ui/main.mpy comes from: PyScript runs nothing until every file is
    written) held back, without any input; returns once it is asked for (the UI starts by itself once the page is
    idle: the plain-HTML first screen is up, the UI cannot answer yet). release() lets
    them go."""
    held = []
    page.route("**/pyscript-files.gz", lambda route: held.append(route))
    page.goto(url, wait_until="commit")
    poll(page, lambda: held, 60, "the UI's entry requested")

    def release():
        for route in held:
            route.continue_()
    return release


@pytest.mark.cross_engine
def test_a_tap_while_the_page_loads_is_played_once_it_is_ready(page):
    release = held_ui(page)
    assert page.evaluate("() => document.documentElement.dataset.state") == "loading"
    assert not page.is_visible("#first-tap span")
    page.click("#play-computer")
    assert page.get_attribute("html", "data-first-tap") == "computer"
    assert page.is_visible("#first-tap span")
    release()
    page.wait_for_selector("#board", state="visible", timeout=90_000)
    wait_ready(page)
    assert page.get_attribute("html", "data-first-tap") is None
    page.wait_for_function(SETTLED)  # no reply on its way, the game saved
    assert page.evaluate(CURRENT_ENTRY)["variant"] == "argentine"


@pytest.mark.parametrize("lang", ["es", cross_engine("bg"), "ru"])
def test_the_first_screen_is_in_the_page_language_before_the_ui(page, lang):
    release = held_ui(page, f"/?lang={lang}")
    table = words.table(lang)
    before = {sel: visible_text(page, sel) for sel in ("#home-title", "#play-computer", "#play-hotseat")}
    assert before == {"#home-title": table["home.hero_title"], "#play-computer": table["home.play_computer"],
                      "#play-hotseat": table["home.play_hotseat"]}
    assert page.get_attribute("html", "lang") == lang
    # The lists' options too (written by the build in attributes, shown by first-tap.mjs).
    picked = "s => s.selectedOptions[0].textContent"
    assert page.eval_on_selector("#quick-level", picked) == table["home.level_heuristic"]
    assert page.eval_on_selector("#quick-game", picked) == table["game.argentine"]
    release()
    wait_ready(page)
    assert {sel: visible_text(page, sel) for sel in before} == before
    assert page.eval_on_selector("#quick-level", picked) == table["home.level_heuristic"]
    assert page.input_value("#lang-pick") == lang  # the UI chose the same language


def test_the_last_quick_game_is_remembered_and_a_bad_memory_is_ignored(page):
    boot(page)
    page.select_option("#quick-game", "double")
    page.select_option("#quick-level", "ai:beginner")
    page.reload()
    wait_ready(page)
    assert (page.input_value("#quick-game"), page.input_value("#quick-level")) == ("double", "ai:beginner")
    page.click("#play-computer")
    page.wait_for_selector("#board", state="visible")
    page.wait_for_function(SETTLED)  # no reply on its way, the game saved
    entry = page.evaluate(CURRENT_ENTRY)
    assert entry["variant"] == "double"
    assert [s["player"] for s in entry["reply"]["view"]["sides"]] == ["human", "ai:beginner"]
    page.evaluate("() => localStorage.setItem('generala.quick', '{\"variant\": \"<b>x</b>\", \"level\": \"human\"}')")
    page.evaluate("() => localStorage.removeItem('generala.current')")
    page.reload()
    wait_ready(page)
    assert (page.input_value("#quick-game"), page.input_value("#quick-level")) == ("argentine", "ai:heuristic")


@pytest.mark.cross_engine
def test_hot_seat_seats_are_people_and_custom_shows_everything(page):
    boot(page)
    open_setup(page, "custom")
    rows = page.locator("#sides > li")
    rows.nth(1).locator(".player").select_option("ai:optimal")
    assert page.is_visible("#house-options") and page.is_visible(".seed")
    page.click("#setup [data-home-panel=main]")
    page.wait_for_selector("#play-computer", state="visible")
    open_setup(page, "hotseat")
    assert page.inner_text("#setup h2") == "Hot-seat game"
    assert not page.is_visible("#house-options") and not page.is_visible(".seed")
    players = page.eval_on_selector_all("#sides .player", "els => els.map(e => e.value)")
    assert players == ["human", "human"]  # no computer the player did not see


@pytest.mark.cross_engine
def test_saved_games_import_and_export_are_a_panel_of_their_own(page):
    boot(page)
    assert not page.is_visible("#import-games") and not page.is_visible("#history-section")
    open_library(page)
    assert page.is_visible("#import-games") and page.is_visible("#library-empty")
    assert not page.is_visible("#play-computer")
    page.click("#library [data-home-panel=main]")
    page.wait_for_selector("#play-computer", state="visible")
    assert page.evaluate("document.activeElement.id") == "play-computer"


@pytest.mark.only_chromium("the Layout Instability API (layout-shift entries) is Chromium's")
@pytest.mark.parametrize("width", [375, 412, 1280])
def test_nothing_moves_while_the_page_boots(browser, base_url, width):
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": 800},
                                  service_workers="block")
    try:
        page = context.new_page()
        boot(page)
        shifts = page.evaluate(LAYOUT_SHIFTS)
        assert sum(shifts) < 0.01, shifts
    finally:
        context.close()


def test_a_game_in_progress_opens_without_the_home_screen_flashing(page):
    boot(page)
    page.click("#play-computer")
    page.wait_for_selector("#roll:enabled")
    page.click("#roll")
    page.wait_for_function(SETTLED)  # no reply on its way, the game saved
    page.add_init_script("""
      window.__homeSeen = false;
      const look = () => {
        const home = document.getElementById('home');
        if (home && home.checkVisibility({visibilityProperty: true})) window.__homeSeen = true;
        if (document.documentElement.dataset.state !== 'ready') requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    """)
    page.reload()
    wait_ready(page)
    assert page.is_visible("#board")
    assert page.evaluate("window.__homeSeen") is False


def test_a_click_without_a_pointer_while_the_ui_loads_is_played(page):
    # A screen reader's browse mode activates a button with a click event alone (no
    # pointer, no key reaches the page): kept like a tap, and played once the UI is ready.
    release = held_ui(page)
    assert page.get_attribute("html", "data-state") == "loading"
    page.evaluate("document.getElementById('play-computer').click()")
    assert page.get_attribute("html", "data-first-tap") == "computer"
    release()
    page.wait_for_selector("#board:not([hidden]) [data-die]", timeout=90_000)
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
    page.wait_for_function(SETTLED)  # no reply on its way, the game saved
    assert page.evaluate(CURRENT_ENTRY)["variant"] == "argentine"


def test_picks_made_before_the_ui_starts_are_kept(page):
    # The language and the quick-play game chosen on the plain page: the words change at
    # once, and the UI boots in that language with that game.
    release = held_ui(page, "/?lang=en")
    assert page.get_attribute("html", "data-state") == "loading"
    shown = page.evaluate("""() => {  // as the pickers do, without a pointer or focus
      for (const [id, value] of [['lang-pick', 'bg'], ['quick-game', 'double']]) {
        const select = document.getElementById(id);
        select.value = value;
        select.dispatchEvent(new Event('change', {bubbles: true}));
      }
      // In the same task, so before the UI could run a line: the plain page has switched.
      return [document.documentElement.lang, document.getElementById('home-title').innerText.trim(),
              document.getElementById('quick-game').selectedOptions[0].textContent,
              document.documentElement.dataset.state];
    }""")
    assert shown == ["bg", words.table("bg")["home.hero_title"], words.table("bg")["game.double"], "loading"]
    assert "lang=" not in page.url
    assert page.title() == words.table("bg")["page.title"]  # the tab's title too
    release()
    wait_ready(page)
    assert page.get_attribute("html", "lang") == "bg"
    assert page.input_value("#lang-pick") == "bg"
    assert page.input_value("#quick-game") == "double"
    assert page.evaluate("localStorage.getItem('generala.lang')") == "bg"
    page.click("#play-computer")
    page.wait_for_selector("#board", state="visible")
    page.wait_for_function(SETTLED)  # no reply on its way, the game saved
    assert page.evaluate(CURRENT_ENTRY)["variant"] == "double"


def test_a_saved_game_or_a_game_link_starts_the_ui_without_input(page):
    # A URL that carries a game: the UI starts after the first paint, no input needed.
    page.goto("/?seed=5")
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
    # A game in progress: after a reload the board is back with no input at all.
    page.goto("/")
    wait_ready(page)
    page.click("#play-computer")
    page.wait_for_selector("#board", state="visible")
    page.wait_for_function(SETTLED)  # no reply on its way, the game saved
    page.reload()
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
    page.wait_for_selector("#board", state="visible")
    assert page.evaluate("window.__stateLog")[-3:] == ["loading", "ui-ready", "ready"]
