"""Keyboard play on the board: where the focus goes, and the dialogs.

- after the turn's last roll the focus goes to the box the view marks best (the
  engine's previews: render.best_preview, the `.best` class), not to the first open box,
  and Enter scores it;
- the hint (H) and the rules only show something: a game key pressed while one is open
  closes it and plays on the board (R rolls, a die's number holds it, H closes the hint
  again); a click outside closes it as Esc does; no key is swallowed. The confirm dialog
  asks something: it takes no game key until it is answered.

The dice land at once here (reduced motion): a roll is drawn when its reply is.
"""
import pytest
from e2e_support import engine_round_trip
from gamepage import GamePage, Mirror, board_menu, gp, shared  # noqa: F401

BOARD_FOCUSED = ("() => { const a = document.activeElement;"
                 " return !!a && !a.closest('dialog') && (a === document.body || !!a.closest('#board')); }")


@pytest.fixture(autouse=True)
def still_dice(gp: GamePage):
    gp.page.emulate_media(reduced_motion="reduce")
    yield
    gp.page.emulate_media(reduced_motion="no-preference")


def press(gp: GamePage, key: str):
    """A key that draws the board (waits for the engine's reply to be drawn)."""
    gp._after(lambda: gp.page.keyboard.press(key))


def hint_open(gp: GamePage) -> bool:
    return gp.page.evaluate("document.getElementById('hint-dialog').open")


def open_hint(gp: GamePage):
    gp.page.keyboard.press("h")
    gp.page.wait_for_selector("#hint-dialog[open] #hint-table, #hint-dialog[open] .hint-body p")
    assert hint_open(gp)


@pytest.mark.cross_engine
def test_after_the_last_roll_the_focus_is_on_the_best_box(gp: GamePage):
    p = gp.page
    seed = 2  # three rolls: 3 4 5 2 6, a straight; Ones would earn 0 (the CPython engine)
    gp.new_game("argentine", ("Ana",), seed=seed)
    m = Mirror("argentine", ("Ana",), seed)
    p.focus("#roll")
    for _ in range(3):
        m.do({"op": "roll"})
        press(gp, "r")
    assert gp.dice() == m.view["dice"] and m.view["rolls_left"] == 0
    best = m.best_box()
    first = next(r["box"] for r in m.view["rows"] if r["cells"][0].get("playable"))
    assert best != first, "the seed's best box should not be the first open box"
    p.wait_for_function("() => !!document.activeElement && !!document.activeElement.dataset.box")
    focused = p.evaluate("[document.activeElement.dataset.box, document.activeElement.className]")
    assert focused[0] == best and "best" in focused[1].split()
    press(gp, "Enter")  # the focused box is scored
    m.do(m.request(best))
    assert gp.totals() == [s["total"] for s in m.view["sides"]]


@pytest.mark.cross_engine
def test_a_game_key_closes_the_hint_or_the_rules_and_plays(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana",), seed=3)
    press(gp, "r")
    left = gp.rolls_left()

    # H, then a die's number: the hint closes and the die is held.
    open_hint(gp)
    press(gp, "1")
    assert not hint_open(gp) and gp.held()[0]
    p.wait_for_function(BOARD_FOCUSED)

    # H twice: the hint opens and closes; the board still plays.
    open_hint(gp)
    p.keyboard.press("h")
    p.wait_for_function("() => !document.getElementById('hint-dialog').open")
    press(gp, "1")
    assert not gp.held()[0]

    # Esc, then a key: as before.
    open_hint(gp)
    p.keyboard.press("Escape")
    p.wait_for_function("() => !document.getElementById('hint-dialog').open")
    press(gp, "2")
    assert gp.held()[1]

    # A click outside the hint closes it.
    open_hint(gp)
    p.mouse.click(3, 3)
    p.wait_for_function("() => !document.getElementById('hint-dialog').open")
    press(gp, "2")
    assert not gp.held()[1]

    # H, then R: the hint closes and the dice roll.
    open_hint(gp)
    press(gp, "r")
    assert not hint_open(gp) and gp.rolls_left() == left - 1

    # The rules dialog, then R: it closes and the dice roll.
    board_menu(p, "rules")
    p.wait_for_selector("#rules[open]")
    press(gp, "r")
    assert not p.evaluate("document.getElementById('rules').open") and gp.rolls_left() == left - 2
    p.wait_for_function(BOARD_FOCUSED)


def test_the_confirm_dialog_takes_no_game_key(gp: GamePage):
    p = gp.page
    seed = 2
    gp.new_game("argentine", ("Ana",), seed=seed)
    m = Mirror("argentine", ("Ana",), seed)
    m.do({"op": "roll"})
    press(gp, "r")
    zero = next(r["box"] for r in m.view["rows"] if r["cells"][0].get("scratch"))
    gp.box(zero).click()  # a box that earns nothing: the page asks first
    p.wait_for_selector("#confirm[open]")
    n = gp.renders()
    p.keyboard.press("r")
    p.keyboard.press("1")
    engine_round_trip(p)  # a roll or a hold sent at the key press would be drawn by now
    assert p.evaluate("document.getElementById('confirm').open")
    assert gp.renders() == n and gp.rolls_left() == m.view["rolls_left"] and not any(gp.held())
    p.keyboard.press("Escape")  # not scratched
    p.wait_for_function("() => !document.getElementById('confirm').open")
    press(gp, "r")
    assert gp.rolls_left() == m.view["rolls_left"] - 1
