"""One screen, one thumb: at each step of a turn, the dice, Roll and every box of the
playing side's column are inside the viewport, and the page does not scroll.

Phones 375x667 and 375x812 (portrait) and a desktop 1280x800; two sides (hot-seat).
All four games on all three: Generala, Puerto Rican General, Bulgarian Генерал (15 boxes
and 4 sums) and Double General (ten dice). A box is in view only when its frame does not
clip it: the sheet never scrolls. A box stays a touch target: 44 px tall or wide.
Roll sits in the thumb's reach on a phone (the lower third of the screen).
"""
import pytest
from e2e_support import cross_engine
from gamepage import RENDERED, GamePage, Mirror, gp, open_setup, shared  # noqa: F401

SIZES = {"375x667": (375, 667), "375x812": (375, 812), "1280x800": (1280, 800)}
CASES = [(v, s) for s in SIZES for v in ("argentine", "puerto-rican", "bulgarian", "double")]
NAMES = ("Ana", "Beto")

# What a player needs on screen now, measured in the page: each rect of the dice, Roll, and
# the playing side's cells (their buttons when they can be chosen), the split when it is
# open; and whether the page itself scrolls.
MEASURE = """() => {
  const rect = (e) => { const r = e.getBoundingClientRect();
    return {what: e.id || e.dataset.die || e.dataset.box || e.dataset.splitDie || e.tagName,
            top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: r.width, h: r.height}; };
  const board = document.getElementById('board');
  const cur = board.querySelector('#sheet th.side-h.current');
  const side = cur ? cur.dataset.side : null;
  const need = [document.getElementById('roll')];
  const boxes = [];
  const split = document.getElementById('split');
  if (split && !split.hidden) {  // the split's two groups show the ten dice
    need.push(...split.querySelectorAll('[data-split-die]'), document.getElementById('split-ok'));
  } else {
    need.push(...board.querySelectorAll('.dice-table .die[data-die]'));
  }
  if (side !== null) {
    for (const td of board.querySelectorAll(`#sheet tbody td[data-side="${side}"]`)) {
      const btn = td.querySelector('button.box');
      const target = btn && !btn.hidden ? btn : td;
      need.push(target);
      if (target === btn) boxes.push(btn);
    }
  }
  return {
    vw: innerWidth, vh: innerHeight, scrollY: scrollY, scrollX: scrollX,
    docH: document.documentElement.scrollHeight, docW: document.documentElement.scrollWidth,
    sheet: (w => [w.scrollHeight, w.clientHeight])(board.querySelector('.sheet-wrap')),
    need: need.map(rect), boxes: boxes.map(rect), roll: rect(document.getElementById('roll')),
    side,
  };
}"""


def check(gp: GamePage, size: str, step: str):
    """Everything the turn needs is on screen, nothing scrolls (with the step's name when not)."""
    m = gp.page.evaluate(MEASURE)
    where = f"{size}, {step}"
    assert m["side"] is not None, f"{where}: no playing side's column"
    assert m["docH"] <= m["vh"] + 1 and m["scrollY"] == 0, f"{where}: the page scrolls ({m['docH']} > {m['vh']})"
    assert m["docW"] <= m["vw"] + 1, f"{where}: the page scrolls sideways ({m['docW']} > {m['vw']})"
    hidden = [r["what"] for r in m["need"] if r["w"] == 0 or r["h"] == 0]
    assert not hidden, f"{where}: not shown: {hidden}"
    out = [r["what"] for r in m["need"]
           if r["top"] < -0.5 or r["left"] < -0.5 or r["bottom"] > m["vh"] + 0.5 or r["right"] > m["vw"] + 0.5]
    assert not out, f"{where}: off screen: {out}"
    # the whole sheet, its sums included, is seen without scrolling it (while the ten dice
    # are split, the split has the room and the sums may scroll)
    if step != "split":
        assert m["sheet"][0] <= m["sheet"][1] + 1, f"{where}: the sheet scrolls ({m['sheet'][0]} > {m['sheet'][1]})"
    small = [r["what"] for r in m["boxes"] if r["h"] < 44 and r["w"] < 44]
    assert not small, f"{where}: boxes smaller than a touch target (44 px): {small}"
    if m["vw"] < 600:  # a phone: Roll where the thumb rests
        assert m["roll"]["top"] > m["vh"] * 2 / 3, f"{where}: Roll is not at the bottom ({m['roll']['top']})"


# Firefox and WebKit play one phone and the desktop (the cross-engine subset)
ACROSS = {("argentine", "375x667"), ("double", "1280x800")}
PARAMS = [cross_engine(v, s, id=f"{v}-{s}") if (v, s) in ACROSS else pytest.param(v, s, id=f"{v}-{s}")
          for v, s in CASES]


@pytest.mark.parametrize("variant,size", PARAMS)
def test_a_turn_fits_one_screen(gp: GamePage, variant, size):
    play_a_turn(gp, variant, size, NAMES)


@pytest.mark.parametrize("variant", ["argentine", "bulgarian"])
def test_three_sides_one_a_team_fit_a_small_phone(gp: GamePage, variant):
    """Three columns on 375x667, one a team (its members under its name): the long box
    names wrap in the narrow first column, and the sheet still fits, its totals in view."""
    play_a_turn(gp, variant, "375x667", ("Ana", "Los Tres", "Dani"), teams={1: "Beto, Caro"})


def play_a_turn(gp: GamePage, variant, size, names, teams=None):
    """The first turn (three rolls, the dice a good player keeps held), checked at each step."""
    p = gp.page
    p.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    try:
        gp.new_game(variant, names, seed=7, teams=teams)
        m = Mirror(variant, names, 7, teams=teams)
        check(gp, size, "before the first roll")
        for roll in (1, 2, 3):
            gp.roll()
            m.do({"op": "roll"})
            assert gp.dice() == m.view["dice"]
            check(gp, size, f"roll {roll}")
            if m.view["over"]:
                return  # a served win ends the game: no turn left to check
            if roll < 3:
                want = set(m.keep())
                for i, h in enumerate(m.view["held"]):
                    if (i in want) != h:
                        m.do({"op": "toggle", "die": i})
                        gp.hold(i)
                assert gp.held() == m.view["held"]
                check(gp, size, f"held after roll {roll}")
        if m.view["boxes_per_turn"] == 2:
            a, b = m.best_pair()["boxes"]
            gp.pick(a)
            check(gp, size, "one box picked")
            gp.pick(b)
            p.wait_for_selector("#split", state="visible")
            check(gp, size, "split")
    finally:
        p.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.cross_engine
def test_a_hot_seat_game_opens_at_its_top_from_a_scrolled_form(gp: GamePage):
    """The setup's Start is in reach at the bottom of a phone's screen however far the form
    is scrolled; the game opens at its top, and the hand-over card is whole on screen."""
    p = gp.page
    p.set_viewport_size({"width": 375, "height": 667})
    try:
        open_setup(p, "hotseat")
        p.check('input[data-variant="argentine"]')  # the form remembers the last game's
        rows = p.locator("#sides > li")
        while rows.count() < 2:
            p.click("#add-side")
        for i, name in enumerate(NAMES):
            rows.nth(i).locator(".side-name").fill(name)
        p.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert p.evaluate("scrollY") > 0  # the form is taller than the screen
        start = p.locator("#start").bounding_box()
        assert 0 <= start["y"] and start["y"] + start["height"] <= 667  # Start is in reach
        p.evaluate("window.scrollTo(0, 200)")
        start = p.locator("#start").bounding_box()
        assert 0 <= start["y"] and start["y"] + start["height"] <= 667  # sticky: wherever the form is
        n = gp.renders()
        p.click("#start")
        p.wait_for_function(RENDERED, arg=n)
        assert p.evaluate("scrollY") == 0
        head = p.locator("#board .board-head").bounding_box()
        assert head["y"] >= 0 and p.is_visible("#who")
        # one turn, then the device is passed: the card is on screen, whole
        gp.roll()
        n = gp.renders()
        p.click("#sheet button.box:visible >> nth=0")
        if p.is_visible("#confirm"):
            p.click("#confirm-ok")
        p.wait_for_function(RENDERED, arg=n)
        card = p.locator("#handover")
        card.wait_for(state="visible")
        box = card.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 667 and box["x"] >= 0 and box["x"] + box["width"] <= 375
        assert p.evaluate("scrollY") == 0
        p.click("#handover-ok")
        card.wait_for(state="hidden")
    finally:
        p.set_viewport_size({"width": 1280, "height": 900})
