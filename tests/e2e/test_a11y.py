"""Accessibility: axe-core (npm devDependency, used only here) finds no
WCAG 2.0/2.1/2.2 A/AA violation on the setup form, a turn with held dice, the ten-dice
split, the scratch dialog, game over, the rules dialog and the daily challenge (its home
block, board and end), in each of the four
languages (and once in dark mode); a whole game played with the keyboard alone.

axe is evaluated in the page through Playwright (the site's CSP has no 'unsafe-inline',
so an injected <script> would be refused; evaluation through the DevTools protocol is
not a page script)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_support import STATE_LOG_SCRIPT, Guard, boot
from gamepage import RENDERED, GamePage, Mirror, board_menu, leave, open_botlab, open_library, open_setup
from test_daily import play_to_the_end

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
LANGS = ["en", "es", "bg", "ru"]

RUN_AXE = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n").slice(1, 3).join(" "))}));
}"""


@pytest.fixture(scope="module")
def a11y(browser, base_url):
    if not AXE.exists():
        pytest.skip("npm install (devDependency axe-core) first")
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  service_workers="block")
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    boot(page)
    yield page, guard
    context.close()


@pytest.fixture
def gp(a11y):
    page, guard = a11y
    guard.problems.clear()
    page.emulate_media(color_scheme="light")
    yield GamePage(page)
    guard.collect_error_boxes()
    if guard.problems:
        pytest.fail("the browser reported problems:\n" + guard.report(), pytrace=False)


def check(page, where: str, found: dict):
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    violations = page.evaluate(RUN_AXE, TAGS)
    if violations:
        found[where] = violations


def set_lang(page, lang):
    """The site header's language picker (the home screen's: the board has its own top bar)."""
    leave(page)
    page.select_option("#lang-pick", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


def all_states(gp: GamePage, lang: str) -> dict:
    p = gp.page
    found: dict = {}
    gp.home()
    set_lang(p, lang)
    check(p, "home", found)
    open_setup(p, "hotseat")
    check(p, "hot-seat setup", found)
    open_setup(p, "custom")
    check(p, "setup", found)
    open_library(p)
    check(p, "saved games", found)
    open_botlab(p)
    check(p, "bot lab", found)
    p.evaluate("t => window.generala.botlab.setCode(t)", "def play(turn):\n    return turn.best()\n")
    p.fill("#lab-games", "100")
    p.click("#lab-run")
    p.wait_for_selector("#botlab[data-state=done]", timeout=120_000)
    p.eval_on_selector_all("#botlab details", "ds => ds.forEach(d => { d.open = true; })")
    check(p, "bot lab results", found)

    # mid-turn, two dice held
    gp.new_game("argentine", ("Ana", "Beto"), seed=5)
    gp.roll()
    gp.hold(0)
    gp.hold(2)
    assert gp.held()[:3] == [True, False, True]
    check(p, "held dice", found)

    # a dialog: scratching a box asks first
    gp.roll()
    gp.roll()
    zero = p.locator("#sheet button.box.zero:visible").first
    zero.click()
    p.wait_for_selector("#confirm[open]")
    check(p, "scratch dialog", found)
    p.keyboard.press("Escape")
    p.wait_for_selector("#confirm", state="hidden")

    # the board's menu, open (its switches say their state)
    p.click("#board-menu-btn")
    check(p, "board menu", found)
    p.keyboard.press("Escape")
    p.wait_for_selector("#board-menu", state="hidden")

    # the rules (with the house rules in effect)
    board_menu(p, "rules")
    p.wait_for_selector("#rules[open]")
    check(p, "rules", found)
    p.keyboard.press("Escape")
    p.wait_for_selector("#rules", state="hidden")

    # ten dice: two boxes chosen, the proposed split
    gp.new_game("double", ("Ana", "Beto"), seed=3)
    gp.roll()
    m = Mirror("double", ("Ana", "Beto"), 3)
    m.do({"op": "roll"})
    a, b = m.open_boxes()[:2]
    gp.pick(a)
    gp.pick(b)
    p.wait_for_selector("#split-ok:enabled")
    check(p, "double split", found)

    # game over (a Big General on the first roll ends the game at once)
    gp.new_game("puerto-rican", ("Ana", "Beto"), seed=2422, options={"stake_per_point": 2})
    gp.roll()
    p.wait_for_selector("#over", state="visible")
    check(p, "game over", found)

    # the daily challenge: its block on the home screen, its board, its end (played once:
    # the later languages open its result)
    gp.home()
    p.wait_for_selector("#daily-picker[data-ready]")
    check(p, "daily challenge home", found)
    gp._after(lambda: p.click("#daily-puerto-rican"))
    p.wait_for_selector("#board #daily-badge")
    if not p.is_visible("#over"):
        gp.roll()
        check(p, "daily challenge board", found)
        play_to_the_end(gp, holds=())
    p.wait_for_selector("#daily-result[data-state=ready]", timeout=60_000)
    p.click("#daily-result summary")
    check(p, "daily challenge result", found)
    return found


def report(found: dict) -> str:
    return json.dumps(found, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("lang", ["en", "es", "bg", "ru"])
def test_axe_finds_no_violations(gp: GamePage, lang):
    try:
        found = all_states(gp, lang)
        assert gp.page.evaluate("document.documentElement.lang") == lang
    finally:
        set_lang(gp.page, "en")
    assert not found, report(found)


@pytest.mark.only_chromium("media emulation (prefers-color-scheme / prefers-reduced-motion): Playwright 1.64 over WebDriver BiDi ignores emulate_media")
def test_axe_dark_mode(gp: GamePage):
    gp.page.emulate_media(color_scheme="dark")
    try:
        found = all_states(gp, "bg")
    finally:
        set_lang(gp.page, "en")
        gp.page.emulate_media(color_scheme="light")
    assert not found, report(found)


def focused(page) -> str:
    return page.evaluate("""() => { const a = document.activeElement;
      return a ? (a.id || a.dataset.box || a.dataset.die || a.tagName) : ""; }""")


def wait_drawn(page, n):
    page.wait_for_function(RENDERED, arg=n, timeout=10_000)


def renders(page) -> int:
    return int(page.get_attribute("#board", "data-rendered") or 0)


@pytest.mark.cross_engine
def test_whole_game_by_keyboard_alone(gp: GamePage):
    """Setup, every roll, hold and score with keys only (Tab, typing, R, digits, arrows,
    Enter, Escape); the live region tells each step."""
    p = gp.page
    gp.home()
    set_lang(p, "ru")
    try:
        p.evaluate("document.activeElement && document.activeElement.blur()")

        def tab_to(test: str, limit: int = 80):
            for _ in range(limit):
                p.keyboard.press("Tab")
                if p.evaluate(f"(() => {{ const a = document.activeElement; return !!a && ({test}); }})()"):
                    return
            raise AssertionError(f"Tab never reached {test}")

        # the home screen's Custom game, then the game: arrow keys in the radio group
        tab_to("a.id === 'play-custom'")
        p.keyboard.press("Enter")
        p.wait_for_selector("#setup", state="visible")
        if not p.evaluate("document.activeElement.matches('input[data-variant]')"):
            tab_to("a.matches('input[data-variant]')")
        for _ in range(4):
            if p.evaluate("document.activeElement.value") == "argentine":
                break
            p.keyboard.press("ArrowUp")
        assert p.is_checked('input[data-variant="argentine"]')
        # the first player's name; then remove every other player row
        tab_to("a.classList.contains('side-name')")
        p.keyboard.press("Control+A")
        p.keyboard.type("Аня")
        while p.locator("#sides > li").count() > 1:
            tab_to("a.classList.contains('remove') && a.closest('li') !== document.querySelector('#sides > li')")
            p.keyboard.press("Enter")
            assert focused(p) == "add-side"
            p.keyboard.press("Shift+Tab")  # back into the rows for the next one
        # the dice seed (open the <details> with Enter), then Start
        tab_to("a.matches('#seed, .seed summary')")
        if focused(p) != "seed":
            if not p.evaluate("document.querySelector('.seed').open"):
                p.keyboard.press("Enter")
            tab_to("a.id === 'seed'", 3)
        p.keyboard.press("Control+A")
        p.keyboard.type("1")
        tab_to("a.id === 'start'", 5)
        n = renders(p)
        p.keyboard.press("Enter")
        wait_drawn(p, n)
        assert focused(p) == "roll"
        players = p.locator("#sheet thead th.side-h").count()
        turns = 0
        while not p.is_visible("#over"):
            assert turns < 11 * players + 1
            n = renders(p)
            p.keyboard.press("r")
            wait_drawn(p, n)
            if p.is_visible("#over"):
                break  # a served Generala: the game is won at once
            assert "Выпало" in p.text_content("#announce")
            # hold the first die, roll again
            n = renders(p)
            p.keyboard.press("1")
            wait_drawn(p, n)
            assert p.get_attribute('#board .tray [data-die="0"]', "aria-pressed") == "true"
            n = renders(p)
            p.keyboard.press("r")
            wait_drawn(p, n)
            if p.is_visible("#over"):
                break
            # to the boxes with the arrow keys, score the first one with Enter
            p.keyboard.press("ArrowDown")
            assert p.evaluate("document.activeElement.matches('#sheet button.box')")
            n = renders(p)
            p.keyboard.press("Enter")
            if p.is_visible("#confirm"):
                p.keyboard.press("Tab")  # from Cancel to the confirming button
                p.keyboard.press("Enter")
            wait_drawn(p, n)
            assert "записано" in p.text_content("#announce")
            turns += 1
        p.wait_for_selector("#over", state="visible")
        assert players == 1
        # Seed 1 has no automatic win: every box is filled. Should the seed not have
        # reached the form, a served Generala may end the game sooner; it still ended.
        assert turns == 11 or "побеждает" in p.text_content("#announce")
        assert "Игра окончена" in p.text_content("#announce") or "побеждает" in p.text_content("#announce")
        assert focused(p) == "again"
    finally:
        set_lang(p, "en")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_axe_on_the_play_by_link_screens(gp: GamePage, lang):
    """The setup form in link mode, the invitations (the hand-over screen), the list of
    games by link, the join screen and a refused link: no violation."""
    p = gp.page
    found: dict = {}
    try:
        gp.home()
        set_lang(p, lang)
        p.click("#play-link")
        p.wait_for_selector('#setup[data-mode="link"]', state="visible")
        p.focus("#add-side")  # the players, where the form ends (the Start bar sticks at the bottom)
        check(p, "link setup", found)
        p.click("#start")
        p.wait_for_selector("#linkplay:not([hidden])[data-state=invitations]")
        check(p, "link invitations", found)
        invitation = p.input_value('#linkplay [data-link-field="0"]')
        p.click('#linkplay [data-link="home"]')
        p.wait_for_selector("#link-section:not([hidden])")
        check(p, "games by link", found)
        # the invitation opened where the game is not stored: the join screen
        p.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('generala.link.'))"
                   ".forEach(k => localStorage.removeItem(k))")
        p.goto(invitation)
        p.wait_for_selector("#linkplay:not([hidden])[data-state=join]")
        check(p, "link join", found)
        at = invitation.index("#play=") + 30
        p.goto(invitation[:at] + ("A" if invitation[at] != "A" else "B") + invitation[at + 1:])
        p.wait_for_selector("#linkplay:not([hidden])[data-state=refused]")
        check(p, "link refused", found)
        p.click('#linkplay [data-link="home"]')
    finally:
        set_lang(p, "en")
    assert not found, report(found)
