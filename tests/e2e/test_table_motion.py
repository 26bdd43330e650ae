"""The game table: dice that tumble and land on the engine's faces, sound, celebrations.

- A roll is seen: the dice that roll are animated (document.getAnimations()) and land
  on the faces the engine rolled (the CPython mirror of the same game), in every
  variant; the cube's final orientation shows that face; held dice stay still.
- A second Roll while the dice are in the air is queued (rolled once they land), the
  second click of a double click is ignored: one click, one roll.
- Reduced motion (the board's switch, and prefers-reduced-motion in Chromium): no
  animation at all, the faces change at once.
- Sound: no AudioContext before the first user gesture; the mute button is remembered
  across a reload; off by default in embed mode.
- Celebrations: five alike and an automatic win get a card, confetti and a sentence in
  the live region; a key ends them; the focus stays. Hot-seat: the hand-over card.

The module's page runs on Playwright's fake clock (flowing as real time): a test that
proves a roll is NOT sent pauses it and fires every timer the page could still have.
"""
import json

import pytest
from gamepage import GamePage, Mirror, gp, shared_page  # noqa: F401

from e2e_support import STATE_LOG_SCRIPT, boot, cross_engine, engine_round_trip, pause_clock


@pytest.fixture(scope="module")
def shared(browser, base_url):
    yield from shared_page(browser, base_url, clock=True)


# The face each die shows, read from its cube's computed transform: the face whose
# outward normal the transform turns towards the viewer (+z).
SHOWN = """() => [...document.querySelectorAll('#board .tray [data-die]')].map(die => {
  const cube = die.querySelector('.cube');
  const t = getComputedStyle(cube).transform;
  const m = t === 'none' ? new DOMMatrix() : new DOMMatrix(t);
  const normals = {1: [0, 0, 1], 6: [0, 0, -1], 2: [1, 0, 0], 5: [-1, 0, 0], 3: [0, -1, 0], 4: [0, 1, 0]};
  let best = null, bestZ = -2;
  for (const [face, [x, y, z]] of Object.entries(normals)) {
    const p = m.transformPoint(new DOMPoint(x, y, z, 0));
    if (p.z > bestZ) { bestZ = p.z; best = +face; }
  }
  return best;
})"""

# The elements the page animates from now on (Element.animate, which dice-motion.mjs uses):
# which dice a roll moved is read from them, not from the animations still running when
# the test looks (a loaded machine may look after a short tumble has landed).
TRACK = """() => {
  if (!window.__animated) {
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
      window.__animated.add(this);
      return animate.apply(this, args);
    };
  }
  window.__animated = new Set();
}"""
# MOVED, per die: was anything of it (its body, its cube) animated since TRACK?
MOVED = """() => [...document.querySelectorAll('#board .tray [data-die]')].map(die =>
  [...die.querySelectorAll('.die-body, .cube')].some(n => window.__animated.has(n)))"""

LANDED = "() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null))).then(() => true)"

SEEDS = {"argentine": 3, "puerto-rican": 3, "bulgarian": 3, "double": 3}


def switch(p, ident: str):
    """Flip a switch of the board's menu (#sound, #motion); the menu stays open."""
    if not p.is_visible("#board-menu"):
        p.click("#board-menu-btn")
    p.click(f"#{ident}")


def motion(gp: GamePage, on: bool):
    """Set the board menu's Dice motion switch (checked = moving), the menu closed after."""
    p = gp.page
    want = "true" if on else "false"
    if p.get_attribute("#motion", "aria-checked") != want:
        switch(p, "motion")
        p.keyboard.press("Escape")
    assert p.get_attribute("#motion", "aria-checked") == want


def roll_and_see(gp: GamePage, m: Mirror):
    """Roll on both; the dice that rolled move and the held ones stay still; the faces are
    the engine's at once and shown once the dice land."""
    p = gp.page
    held = list(m.view["held"]) if m.view["dice"] else [False] * m.view["dice_count"]
    m.do({"op": "roll"})
    p.evaluate(TRACK)
    gp.roll()
    assert gp.dice() == m.view["dice"]  # data-face: the engine's, before the dice land
    moving = p.evaluate(MOVED)
    assert any(moving), "nothing moves after a roll"
    assert [i for i, mv in enumerate(moving) if mv] == [i for i, h in enumerate(held) if not h]
    p.evaluate(LANDED)
    assert p.evaluate("document.getAnimations().length") == 0
    assert p.evaluate(SHOWN) == m.view["dice"]


@pytest.mark.parametrize("variant", [cross_engine("argentine"), "puerto-rican", "bulgarian", "double"])
def test_the_dice_land_on_the_engines_faces(gp: GamePage, variant):
    gp.new_game(variant, ("Ana", "Beto"), seed=SEEDS[variant])
    motion(gp, True)
    m = Mirror(variant, ("Ana", "Beto"), SEEDS[variant])
    roll_and_see(gp, m)
    # hold the first two dice (a click while they tumble lands them first), roll the rest
    for i in (0, 1):
        m.do({"op": "toggle", "die": i})
        gp.hold(i)
    assert gp.held() == m.view["held"]
    # held dice are set apart by place, not colour alone: they sit on the kept row, below
    tops = gp.page.eval_on_selector_all("#board .tray [data-die]", "els => els.map(e => e.offsetTop)")
    assert tops[0] == tops[1] > tops[2] == tops[3]
    roll_and_see(gp, m)
    assert gp.rolls_left() == m.view["rolls_left"]


def test_a_roll_while_the_dice_tumble_is_queued_and_a_double_click_rolls_once(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=5)
    motion(gp, True)
    m = Mirror("argentine", ("Ana", "Beto"), 5)
    n = gp.renders()
    p.dblclick("#roll")
    m.do({"op": "roll"})
    p.evaluate(LANDED)
    p.wait_for_function("n => +document.getElementById('board').dataset.rendered > n"
                        " && !document.getElementById('board').hasAttribute('aria-busy')", arg=n)
    # A second roll would have been queued for the landing (dice-motion.mjs: sent then,
    # or retried every 50 ms, 40 times, while a reply is awaited): every such timer fired,
    # then a round trip for its reply.
    pause_clock(p)
    try:
        p.clock.run_for(40 * 50)
    finally:
        p.clock.resume()
    engine_round_trip(p)
    assert gp.rolls_left() == m.view["rolls_left"] == 2
    assert gp.dice() == m.view["dice"]
    # Roll again, then once more while those dice are in the air: the second is rolled on landing.
    n = gp.renders()
    p.click("#roll")
    m.do({"op": "roll"})
    p.wait_for_function("() => document.getAnimations().length > 0 || "
                        "document.getElementById('roll').textContent.includes('0 left')")
    tumbling = p.evaluate("generala.dice.tumbling()")
    p.keyboard.press("r")
    if tumbling:
        m.do({"op": "roll"})
    p.evaluate(LANDED)
    p.wait_for_function("want => document.getElementById('roll').textContent.includes(`(${want} left)`)"
                        " && !document.getElementById('board').hasAttribute('aria-busy')",
                        arg=m.view["rolls_left"])
    assert tumbling, "the dice were down before the second Roll (the machine is too slow for this check)"
    assert gp.rolls_left() == m.view["rolls_left"] == 0
    assert gp.dice() == m.view["dice"]
    assert gp.renders() > n


def test_a_die_tapped_while_the_dice_tumble_is_held_and_they_land_at_once(gp: GamePage):
    # The reply is drawn long before the dice land: a tap on a die then is a hold,
    # not lost, and the dice stop tumbling (the tap lands them).
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=5)
    motion(gp, True)
    m = Mirror("argentine", ("Ana", "Beto"), 5)
    m.do({"op": "roll"})
    gp.roll()  # returns once the reply is drawn: the dice are still in the air
    tumbling = p.evaluate("generala.dice.tumbling()")
    gp.hold(2)
    m.do({"op": "toggle", "die": 2})
    assert tumbling, "the dice were down before the tap (the machine is too slow for this check)"
    assert not p.evaluate("generala.dice.tumbling()")
    assert gp.held() == m.view["held"] == [i == 2 for i in range(5)]
    p.evaluate(LANDED)  # the held die's slide to the kept row
    assert gp.dice() == m.view["dice"] and p.evaluate(SHOWN) == m.view["dice"]


def test_still_switch_changes_the_faces_at_once(gp: GamePage):
    p = gp.page
    gp.new_game("double", ("Ana", "Beto"), seed=12)  # five alike on the first roll
    motion(gp, False)
    try:
        assert p.evaluate("document.documentElement.dataset.motion") == "still"
        m = Mirror("double", ("Ana", "Beto"), 12)
        m.do({"op": "roll"})
        p.evaluate(TRACK)
        gp.roll()
        assert not any(p.evaluate(MOVED)) and p.evaluate("document.getAnimations().length") == 0
        assert gp.dice() == m.view["dice"]
        assert p.evaluate(SHOWN) == m.view["dice"]
        # the celebration is still and silent: its card, no confetti, no animation
        assert p.is_visible("#board .moment.celebrate")
        assert p.evaluate("generala.moments.showing().confetti") is False
        assert p.evaluate("document.getAnimations().length") == 0
        p.keyboard.press("Shift")
        assert not p.is_visible("#board .moment")
    finally:
        motion(gp, True)


@pytest.mark.only_chromium("media emulation (prefers-reduced-motion): Playwright 1.64 over WebDriver BiDi ignores emulate_media")
def test_prefers_reduced_motion_means_no_animation(gp: GamePage):
    p = gp.page
    p.evaluate("localStorage.removeItem('generala.motion')")  # follow the system
    p.emulate_media(reduced_motion="reduce")
    try:
        gp.new_game("argentine", ("Ana", "Beto"), seed=3)
        assert p.get_attribute("#motion", "aria-checked") == "false"
        m = Mirror("argentine", ("Ana", "Beto"), 3)
        m.do({"op": "roll"})
        p.evaluate(TRACK)
        gp.roll()
        assert not any(p.evaluate(MOVED)) and p.evaluate("document.getAnimations().length") == 0
        assert gp.dice() == m.view["dice"]
        assert p.evaluate(SHOWN) == m.view["dice"]
        m.do({"op": "toggle", "die": 0})
        gp.hold(0)
        assert p.evaluate("document.getAnimations().length") == 0
    finally:
        p.emulate_media(reduced_motion="no-preference")
    p.wait_for_selector('#motion[aria-checked="true"]', state="attached")  # the switch follows the system again


@pytest.mark.parametrize("variant,seed,kind,said", [("bulgarian", 106, "five", "General! First roll!"),
                                                    ("double", 12, "five", "Five alike! First roll!"),
                                                    cross_engine("argentine", 2422, "auto", "wins at once")])
def test_five_alike_is_celebrated_and_a_key_skips_it(gp: GamePage, variant, seed, kind, said):
    """Five alike is celebrated by the name of the game's own hand (the engine's five_alike
    event: its hand and whether it was served); a served Generala wins at once."""
    p = gp.page
    gp.new_game(variant, ("Ana", "Beto"), seed=seed)
    motion(gp, True)
    m = Mirror(variant, ("Ana", "Beto"), seed)
    m.do({"op": "roll"})
    assert max(m.view["dice"].count(f) for f in range(1, 7)) >= 5
    p.focus("#roll")
    gp.roll()
    card = p.locator(f"#board .moment.celebrate-{kind}")
    assert card.is_visible()
    assert card.get_attribute("aria-hidden") == "true"
    assert p.evaluate("generala.moments.showing().confetti") is True
    assert p.eval_on_selector("canvas.confetti", "c => getComputedStyle(c).pointerEvents") == "none"
    assert said in p.text_content("#announce") and said.split()[0] in card.inner_text()
    assert (kind == "auto") == m.view["over"]
    # the card never covers the dice it celebrates
    covered = p.evaluate("""() => { const c = document.querySelector('#board .moment').getBoundingClientRect();
      return [...document.querySelectorAll('#board .dice-table .die')].map(d => d.getBoundingClientRect())
        .filter(d => d.width && !(d.bottom <= c.top || d.top >= c.bottom || d.right <= c.left || d.left >= c.right)).length; }""")
    assert covered == 0
    focused = p.evaluate("document.activeElement && document.activeElement.id")
    assert focused in ("roll", "again")  # the focus stayed where the board put it
    p.keyboard.press("Shift")
    assert not card.is_visible()
    assert p.evaluate("generala.moments.showing().confetti") is False
    assert p.evaluate("document.activeElement && document.activeElement.id") == focused


def test_hot_seat_hand_over(gp: GamePage):
    """The turn passes to another person: a card names them and waits (a key or a tap
    elsewhere does not end it, the board behind it takes nothing) until they start."""
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=3)
    m = Mirror("argentine", ("Ana", "Beto"), 3)
    m.do({"op": "roll"})
    gp.roll()
    box = m.best_box()
    nxt = m.do({"op": "score", "box": box})["view"]["player"]
    gp._after(lambda: gp.box(box).click())
    card = p.locator("#handover")
    assert card.is_visible()
    assert p.inner_text("#handover-title") == f"{nxt}'s turn"
    assert p.inner_text("#handover-line") == f"Pass the device to {nxt}."
    p.keyboard.press("Shift")
    assert card.is_visible()
    p.click("#handover-ok")
    assert not card.is_visible()
    assert p.evaluate("document.activeElement.id") == "roll"
    assert p.get_attribute("#sheet th.side-h.current", "aria-current") == "true"
    assert nxt in p.inner_text("#who")


# --- sound: a fresh profile per test ------------------------------------------------

# Records every AudioContext made, and whether the page had a user gesture then.
AUDIO_LOG = """
(() => {
  const made = [];
  Object.defineProperty(window, "__audioMade", { value: made });
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) {
      super(...args);
      const ua = navigator.userActivation;
      made.push(ua ? ua.isActive : null);
    }
  };
})();
"""


def fresh_page(context):
    context.add_init_script(STATE_LOG_SCRIPT)
    context.add_init_script(AUDIO_LOG)
    return context.new_page()


@pytest.mark.cross_engine
def test_no_sound_before_a_gesture_and_mute_is_remembered(context, guard):
    page = fresh_page(context)
    boot(page, "/?variant=argentine&seed=3")
    assert page.evaluate("generala.sound.state()") == "none"
    assert page.evaluate("window.__audioMade") == []
    gp = GamePage(page)
    gp.new_game("argentine", ("Ana", "Beto"), seed=3)  # clicks: gestures
    # Made at the gesture, a little later while the board is not shown (sound.mjs), still
    # within the gesture's activation.
    page.wait_for_function("() => window.__audioMade.length > 0")
    made = page.evaluate("window.__audioMade")
    assert len(made) == 1 and made[0] in (True, None)
    assert page.evaluate("generala.sound.state()") in ("running", "suspended")
    assert page.get_attribute("#sound", "aria-checked") == "true"
    switch(page, "sound")
    assert page.get_attribute("#sound", "aria-checked") == "false"
    # the switch says its state in words, not by a fill alone
    assert page.inner_text("#sound").split() == ["Sound", "Off"]
    assert page.evaluate("localStorage.getItem('generala.sound')") == "off"
    page.reload()
    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
    page.wait_for_selector("#board:not([hidden])")  # the game in progress is back
    assert page.get_attribute("#sound", "aria-checked") == "false"
    assert page.evaluate("generala.sound.muted") is True
    gp.roll()
    assert page.evaluate("window.__audioMade") == []  # muted: no context at all after the reload
    switch(page, "sound")
    assert page.get_attribute("#sound", "aria-checked") == "true"
    assert page.inner_text("#sound").split() == ["Sound", "On"]
    assert page.evaluate("localStorage.getItem('generala.sound')") == "on"
    assert len(page.evaluate("window.__audioMade")) == 1


def test_sound_is_off_by_default_in_embed_mode(context, guard):
    page = fresh_page(context)
    boot(page, "/?embed=1&variant=argentine&seed=3")
    gp = GamePage(page)
    gp.new_game("argentine", ("Ana",), seed=3)
    assert page.get_attribute("#sound", "aria-checked") == "false"
    assert page.evaluate("window.__audioMade") == []
    gp.roll()
    assert page.evaluate("window.__audioMade") == []
    assert json.loads(page.evaluate("JSON.stringify(generala.sound.state())")) == "none"
