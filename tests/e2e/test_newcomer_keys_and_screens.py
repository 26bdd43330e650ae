"""What a newcomer meets with the keyboard and on the first screens, on one booted page
(its window resized per check: 375x667 and 1280x800 where the layout matters):

- Enter scores the box marked best from Roll (it never rolls); Escape out of the menu
  gives the keyboard back to the play (Roll), not to Menu; with the focus left on Menu,
  the turn's last roll still brings it to the box marked best;
- Skip's focus ring is whole (the board clips what overflows it);
- the rules and the hint open at their top: the title has the focus, Close beside it;
- the home screen's hot-seat offers how many play: 3 players in two taps; a row added to
  the form stays in sight above the sticky Start bar; the board says who starts and why
  (the engine's view: `starts`);
- New game at the end of a game opens the home screen at its top, Play in sight.

Hot-seat Undo, the engine's rule, is test_play_hotseat.py's."""
from __future__ import annotations

import pytest
from gamepage import GamePage, Mirror, board_menu, gp, open_home, shared  # noqa: F401
from test_result_card import play_to_the_end

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
SIZES = [pytest.param(PHONE, id="375"), pytest.param(DESKTOP, id="1280")]

# The focused element's id, or its box (data-box) and whether it is marked best.
FOCUS = ("() => { const a = document.activeElement; if (!a) return null;"
         " return a.dataset && a.dataset.box ? a.dataset.box + (a.classList.contains('best') ? ' best' : '') : a.id; }")

# Skip, once shown and focused: its rectangle grown by its focus ring against the window
# and every ancestor that clips (overflow not visible); null until then.
SKIP_RING = """() => {
  const s = document.getElementById('ai-skip');
  if (!s || s.hidden || document.activeElement !== s) return null;
  const cs = getComputedStyle(s);
  const shown = s.matches(':focus-visible') && cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
  const grow = Math.max(0, parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset));
  const r = s.getBoundingClientRect();
  const ring = {left: r.left - grow, right: r.right + grow, top: r.top - grow, bottom: r.bottom + grow};
  const cut = [];
  if (ring.left < 0 || ring.top < 0 || ring.right > innerWidth || ring.bottom > innerHeight) cut.push('window');
  for (let e = s.parentElement; e; e = e.parentElement) {
    const st = getComputedStyle(e);
    if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
    const b = e.getBoundingClientRect();
    if (ring.left < b.left || ring.right > b.right || ring.top < b.top || ring.bottom > b.bottom) cut.push(e.id || e.className);
  }
  return {shown, cut};
}"""

# A dialog as it opens: what has the focus, how far it is scrolled, where Close sits.
DIALOG_TOP = """([id, title]) => {
  const d = document.getElementById(id);
  const close = d.querySelector('button[value=close]');
  const top = d.getBoundingClientRect().top;
  return {focus: document.activeElement && document.activeElement.id, scrolled: d.scrollTop,
          tall: d.scrollHeight > d.clientHeight, closeAt: close.getBoundingClientRect().top - top,
          titleAt: document.getElementById(title).getBoundingClientRect().top - top};
}"""


@pytest.fixture(autouse=True)
def still_dice(gp: GamePage):
    gp.page.emulate_media(reduced_motion="reduce")
    yield
    gp.page.emulate_media(reduced_motion="no-preference")
    gp.page.set_viewport_size({"width": 1280, "height": 900})


def press(gp: GamePage, key: str):
    """A key that draws the board (waits for the engine's reply to be drawn)."""
    gp._after(lambda: gp.page.keyboard.press(key))


def test_enter_scores_never_rolls_and_escape_gives_the_play_the_keyboard(gp: GamePage):
    p = gp.page
    p.set_viewport_size(DESKTOP)
    seed = 2
    gp.new_game("argentine", ("Ana",), seed=seed)
    m = Mirror("argentine", ("Ana",), seed)
    p.focus("#roll")
    press(gp, "r")
    m.do({"op": "roll"})
    assert p.evaluate(FOCUS) == "roll"  # Roll still has the keyboard
    best = m.best_box()
    assert m.view["rows"][[r["box"] for r in m.view["rows"]].index(best)]["cells"][0]["preview"] > 0
    press(gp, "Enter")  # the box marked best, not a second roll
    m.do(m.request(best))
    assert gp.totals() == [s["total"] for s in m.view["sides"]] and m.view["round"] == 2
    assert gp.rolls_left() == 3

    p.click("#board-menu-btn")
    p.wait_for_selector("#board-menu", state="visible")
    p.keyboard.press("Escape")
    p.wait_for_selector("#board-menu", state="hidden")
    assert p.evaluate(FOCUS) == "roll"  # back on the play: Enter does not open the menu again

    p.focus("#board-menu-btn")  # the focus left on Menu: the last roll still brings it to the best box
    for _ in range(3):
        press(gp, "r")
        m.do({"op": "roll"})
    assert m.view["rolls_left"] == 0
    p.wait_for_function(f"() => ({FOCUS})() === {m.best_box()!r} + ' best'")


@pytest.mark.parametrize("size", SIZES)
def test_skips_focus_ring_is_whole(gp: GamePage, size):
    p = gp.page
    p.set_viewport_size(size)
    gp.new_game("argentine", ("Ana", "Bot"), seed=4, players=("human", "ai:heuristic"))
    p.wait_for_function("() => !document.getElementById('roll').disabled")  # Ana's turn (the computer's first)
    p.focus("#roll")
    press(gp, "r")
    p.keyboard.press("Enter")  # scored by the keyboard: the computer's turn, Skip has the focus
    ring = p.wait_for_function(SKIP_RING, timeout=15_000).json_value()
    assert ring["shown"] and ring["cut"] == [], ring
    p.keyboard.press("s")
    p.wait_for_function("() => !document.getElementById('roll').disabled")


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_and_the_hint_open_at_their_top(gp: GamePage, size):
    p = gp.page
    p.set_viewport_size(size)
    if not p.is_visible("#board") or p.is_visible("#over"):
        gp.new_game("argentine", ("Ana",), seed=2)
    board_menu(p, "rules")
    p.wait_for_selector("#rules[open]")
    seen = opened_at_its_top(p, "rules", "rules-title")
    assert seen["tall"] or size is DESKTOP, "the rules should be taller than a phone's window"
    p.keyboard.press("h")
    p.wait_for_selector("#hint-dialog[open] #hint-table, #hint-dialog[open] .hint-body p")
    opened_at_its_top(p, "hint-dialog", "hint-title")


def opened_at_its_top(p, dialog: str, title: str) -> dict:
    """The open dialog is at its top, its title focused, Close beside it; then closed by Escape."""
    seen = p.evaluate(DIALOG_TOP, [dialog, title])
    assert seen["focus"] == title and seen["scrolled"] == 0, seen
    assert seen["closeAt"] < 80 and seen["titleAt"] < 80, seen  # Close at the top, beside the title
    p.keyboard.press("Escape")
    p.wait_for_function("d => !document.getElementById(d).open", arg=dialog)
    return seen


@pytest.mark.parametrize("size", SIZES)
def test_hot_seat_for_three_in_two_taps_says_who_starts_and_why(gp: GamePage, size):
    p = gp.page
    p.set_viewport_size(size)
    open_home(p)
    p.click("#play-hotseat-3")  # tap 1: three players
    p.wait_for_selector("#setup", state="visible")
    assert p.locator("#sides > li").count() == 3
    # a row added stays in sight, above the sticky Start bar, and the form fits the width
    p.click("#add-side")
    row, bar, wide = p.evaluate("""() => [document.querySelector('#sides > li:last-child').getBoundingClientRect().toJSON(),
        document.querySelector('#setup .form-buttons').getBoundingClientRect().toJSON(),
        document.documentElement.scrollWidth]""")
    assert row["top"] >= 0 and row["bottom"] <= bar["top"] + 1, (row, bar)
    assert wide <= size["width"], wide
    p.locator("#sides > li").last.locator(".remove").click()
    gp._after(lambda: p.click("#start"))  # tap 2
    p.wait_for_selector("#board", state="visible")
    assert p.locator("#sheet thead th[data-side]").count() == 3
    gp.settled()
    view = p.evaluate("""() => JSON.parse(localStorage.getItem('generala.save.' + localStorage.getItem('generala.current'))).reply.view""")
    name = view["sides"][view["starts"]["side"]]["name"]  # the engine's: who starts, and why
    assert view["starts"]["side"] == view["order"][0]
    assert p.inner_text("#starts") == f"{name} starts: the lowest roll-off total ({view['starts']['value']})." + (
        " Tied sides rolled again." if view["starts"]["tied"] else "")
    box = p.eval_on_selector("#starts", "e => e.getBoundingClientRect().toJSON()")
    assert box["top"] >= 0 and box["bottom"] <= size["height"], box


def test_new_game_at_the_end_opens_the_home_screen_at_its_top(gp: GamePage):
    """On a phone, where the end of a game scrolls (its card brought into sight); the last
    turn played on the page (test_result_card.py's way: one reload)."""
    p = gp.page
    p.set_viewport_size(PHONE)
    play_to_the_end(gp, "argentine", ("Ana",), 3)
    p.wait_for_function("() => scrollY > 0")  # the card brought into sight: the page scrolled
    p.click('#over [data-action="home"]')
    p.wait_for_selector("#play-computer", state="visible")
    r = p.eval_on_selector("#play-computer", "e => e.getBoundingClientRect().toJSON()")
    assert p.evaluate("scrollY") == 0 and r["top"] >= 0 and r["bottom"] <= PHONE["height"], r
