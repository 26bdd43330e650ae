"""Hot-seat: three sides including a team, the roll-off, turn order, the team's
members in rotation, keyboard play, undo and a ten-dice split changed by hand."""
import pytest
from e2e_support import engine_round_trip
from gamepage import GamePage, Mirror, gp, play_turn, shared  # noqa: F401

NAMES = ("Ana", "Los Tres", "Dani")
TEAMS = {1: "Beto, Caro"}


@pytest.mark.cross_engine
def test_hot_seat_three_sides_with_a_team(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", NAMES, seed=5, teams=TEAMS)
    m = Mirror("argentine", NAMES, 5, teams=TEAMS)
    # one column per side; the team's header lists its members
    heads = p.locator("#sheet thead th[data-side]")
    assert heads.count() == 3
    assert "Beto, Caro" in heads.nth(1).inner_text()
    # the empty table says who starts; the menu's "Who starts" shows the roll-off with its
    # dice, and the order of play it gives
    first = NAMES[m.view["order"][0]]
    starts = m.view["starts"]
    assert p.inner_text("#starts").startswith(f"{first} starts: the lowest roll-off total ({starts['value']}).")
    p.click("#board-menu-btn")
    p.click("#rolloff summary")
    rolled = sum(len(r) for r in m.view["rolloff"])
    assert p.locator("#rolloff li").count() == rolled
    assert p.locator("#rolloff .mini-die").count() == 5 * rolled
    order = ", ".join(NAMES[i] for i in m.view["order"])
    assert f"Order of play: {order}" in p.inner_text("#rolloff")
    p.keyboard.press("Escape")  # the menu closes, the keyboard is back on the play: Roll
    p.wait_for_selector("#board-menu", state="hidden")
    assert p.evaluate("document.activeElement.id") == "roll"
    seen_players = set()
    for _ in range(2 * len(NAMES)):
        assert gp.current() == m.view["current"]
        side = m.view["sides"][m.view["current"]]
        who = p.inner_text("#who")
        assert m.view["player"] in who
        if len(side["members"]) > 1:
            assert who.startswith("Los Tres: ")
            seen_players.add(m.view["player"])
        play_turn(gp, m, holds=False)
    assert seen_players == {"Beto", "Caro"}  # the team's members take turns
    assert p.is_hidden("#starts")  # said until the first roll
    assert gp.turn_line() == f"Turn 3 of {m.view['turns']}"


@pytest.mark.cross_engine
def test_keyboard_roll_hold_and_score(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=21)
    m = Mirror("argentine", ("Ana", "Beto"), 21)
    start = m.view["current"]
    p.focus("#roll")
    gp._after(lambda: p.keyboard.press("r"))
    m.do({"op": "roll"})
    assert gp.dice() == m.view["dice"]
    gp._after(lambda: p.keyboard.press("1"))
    gp._after(lambda: p.keyboard.press("3"))
    m.do({"op": "toggle", "die": 0})
    m.do({"op": "toggle", "die": 2})
    assert gp.held() == m.view["held"] == [True, False, True, False, False]
    gp._after(lambda: p.keyboard.press("R"))
    m.do({"op": "roll"})
    assert gp.dice() == m.view["dice"]
    # arrows move through the open boxes; Enter scores the focused one
    p.keyboard.press("ArrowDown")
    p.keyboard.press("ArrowDown")
    focused = p.evaluate("document.activeElement.dataset.box")
    assert focused == m.view["rows"][1]["box"]
    preview = m.view["rows"][1]["cells"][m.view["current"]]["preview"]

    def enter():
        p.keyboard.press("Enter")
        if preview == 0:  # a scratch asks first
            p.wait_for_selector("#confirm[open]")
            p.keyboard.press("Tab")  # focus starts on Cancel: move to Scratch
            p.keyboard.press("Enter")

    gp._after(enter)
    m.do({"op": "score", "box": focused})
    assert gp.totals() == [s["total"] for s in m.view["sides"]]
    assert gp.current() == m.view["current"] != start
    # the next person takes the device with Enter too (the card's button has the focus)
    p.wait_for_selector("#handover", state="visible")
    p.keyboard.press("Enter")
    p.wait_for_selector("#handover", state="hidden")
    assert p.evaluate("document.activeElement.id") == "roll"


@pytest.mark.cross_engine
def test_scratch_asks_first_and_cancel_keeps_the_box(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana",), seed=2)
    m = Mirror("argentine", ("Ana",), 2)
    gp.roll()
    m.do({"op": "roll"})
    zero = next(r["box"] for r in m.view["rows"] if r["cells"][0].get("preview") == 0)
    gp.box(zero).click()
    p.wait_for_selector("#confirm[open]")
    assert "Cross out" in p.inner_text("#confirm-text")
    p.click("#confirm-cancel")
    assert gp.box(zero).is_visible()  # still open
    gp.score(zero)  # confirms
    m.do(m.request(zero))
    assert gp.cell(zero, 0) == "—"
    # the page sent the cell's request: the stored game records a scratch, as the coach's moves do
    last = p.wait_for_function("""() => {
        const e = JSON.parse(localStorage.getItem('generala.save.' + localStorage.getItem('generala.current')));
        const entry = (e.reply || e).save.history.at(-1);
        return 'score' in entry && entry; }""").json_value()
    assert last == m.session.game.history[-1] == {"score": zero, "scratch": True}


@pytest.mark.cross_engine
def test_undo_never_reaches_into_the_next_persons_turn(gp: GamePage):
    """Hot-seat: once the turn has passed to the next person, Undo (the button or U) does
    not take back the box before it (the engine's view offers no undo there); that
    person's own hold is still undone."""
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=8)
    m = Mirror("argentine", ("Ana", "Beto"), 8)
    assert p.is_disabled("#undo")
    gp.roll()
    m.do({"op": "roll"})
    box = m.best_box()
    gp.score(box)
    m.do({"op": "score", "box": box})
    first = m.view["order"][0]
    filled = gp.cell(box, first)
    assert filled != "" and gp.current() == m.view["current"] != first
    assert m.view["can_undo"] is False and p.is_disabled("#undo")
    p.keyboard.press("u")
    engine_round_trip(p)
    assert gp.current() == m.view["current"] and gp.cell(box, first) == filled
    gp.roll()  # the next person's own turn: a hold is theirs to take back
    m.do({"op": "roll"})
    gp.hold(0)
    assert gp.held()[0] and p.is_enabled("#undo")
    gp.undo()
    assert not gp.held()[0] and gp.cell(box, first) == filled


@pytest.mark.cross_engine
def test_double_split_changed_by_hand(gp: GamePage):
    p = gp.page
    gp.new_game("double", ("Ana",), seed=4)
    m = Mirror("double", ("Ana",), 4)
    gp.roll()
    m.do({"op": "roll"})
    assert len(gp.dice()) == 10
    gp.pick("sixes")
    assert p.get_attribute('#sheet button.box[data-box="sixes"]', "aria-pressed") == "true"
    gp.pick("full-house")
    p.wait_for_selector("#split-ok:enabled")
    proposal = m.do({"op": "split", "boxes": ["sixes", "full-house"]})["split"]
    assert gp.split_groups()[0] == proposal["positions"]
    assert f"Sixes: {proposal['points'][0]} point" in p.inner_text("#split")
    # move one die out of the first group: 4 + 6 cannot be scored
    a, b = gp.split_groups()
    gp.move(a[0])
    p.wait_for_selector("#split-ok:disabled")
    assert "Each group needs 5 dice" in p.inner_text("#split")
    # and one back from the second group: 5 + 5 again, priced by the engine
    gp.move(b[0])
    positions = sorted(a[1:] + [b[0]])
    p.wait_for_selector("#split-ok:enabled")
    assert gp.split_groups()[0] == positions
    price = m.do({"op": "price", "boxes": ["sixes", "full-house"], "split": positions})["split"]
    assert f"Score {sum(price['points'])} point" in p.inner_text("#split-ok")

    def score():
        p.click("#split-ok")
        if p.is_visible("#confirm"):
            p.click("#confirm-ok")

    gp._after(score)
    m.do(price["request"])
    assert gp.totals() == [m.view["sides"][0]["total"]]
    assert gp.cell("sixes", 0) == m.view["rows"][5]["cells"][0]["text"]
    assert gp.turn_line() == "Turn 2 of 5"


def test_phone_width_and_touch_targets(gp: GamePage):
    p = gp.page
    p.set_viewport_size({"width": 320, "height": 640})
    try:
        gp.new_game("double", ("Ana", "Beto", "Caro"), seed=6)
        gp.roll()
        # nothing sticks out sideways on a 320 px phone (the sheet scrolls inside its frame)
        assert p.evaluate("document.documentElement.scrollWidth") <= 320
        # every button is 44 px square at least; a box of the sheet may be a wide, shorter
        # line (44 px wide at least, and 24 px tall: WCAG's minimum target) so the whole
        # sheet fits the screen
        small = p.evaluate("""() => [...document.querySelectorAll('#board button')]
            .filter(b => b.offsetParent !== null)
            .map(b => [b.id || b.dataset.box || b.dataset.die || b.textContent, b.matches('button.box'),
                       // layout size: the roll's shake (a transform) must not count
                       {width: b.offsetWidth, height: b.offsetHeight}])
            .filter(([, box, r]) => box ? (r.width < 44 || r.height < 24) : (r.width < 44 || r.height < 44))
            .map(([name, , r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert small == []
        assert p.locator("#sheet button.box:visible").count() >= 5  # the boxes were measured
    finally:
        p.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.only_chromium(
    "media emulation (prefers-reduced-motion / prefers-color-scheme): Playwright 1.64 over WebDriver BiDi ignores emulate_media")
def test_reduced_motion_and_dark_mode(gp: GamePage):
    p = gp.page
    try:
        gp.new_game("double", ("Ana", "Beto", "Caro"), seed=6)
        # rolled dice tumble (static/js/dice-motion.mjs), but not under prefers-reduced-motion
        p.emulate_media(reduced_motion="no-preference")
        gp.roll()
        assert p.eval_on_selector('#board .tray [data-die="0"] .cube', "e => e.getAnimations().length") > 0
        p.emulate_media(reduced_motion="reduce")
        p.wait_for_function("() => document.getAnimations().length === 0")  # landed at once
        gp.roll()
        assert p.evaluate("document.getAnimations().length") == 0
        # dark mode follows prefers-color-scheme
        light = p.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        p.emulate_media(color_scheme="dark")
        dark = p.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert light != dark
    finally:
        p.emulate_media(reduced_motion="no-preference", color_scheme="light")
