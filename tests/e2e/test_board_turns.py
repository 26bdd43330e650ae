"""A turn on the board as a newcomer meets it, on a 375x667 phone and a 1280x800 desktop
(one shared page, its viewport set by each test):

- Генерал's long sheet fits the screen at each step, its totals in view; what each box
  would earn shows once the dice have landed (at once with motion off); when no box earns
  anything, the star marks the best box to give up; alone, no hand-over.
- The star is the coach's when the coach is on (the engine's view says which, and why in
  a word), and after a costly move the coach's line names the better choice; then the
  next person confirms the hand-over (Enter), the board waiting behind it.
- A computer's turn leaves the board where it is: Skip takes Hint's place, what it scored
  is said on the felt, whose turn it is stays on one line, and the tint moves with the
  turn.
"""
import pytest
from e2e_support import engine_round_trip
from gamepage import RENDERED, GamePage, Mirror, gp, shared  # noqa: F401
from test_one_screen import check

SIZES = {"375x667": (375, 667), "1280x800": (1280, 800)}

# Set before an action: what the board showed in the very task the engine's reply was
# drawn (a MutationObserver on data-rendered runs right after that task): dice in the air, the
# colour of an open box's points, and the running animations.
WATCH = """() => {
  const board = document.getElementById('board');
  window.__drawn = null;
  const seen = new MutationObserver(() => {
    if (board.dataset.drawn !== 'engine') return;  // the click's own drawing: the reply's next
    const box = board.querySelector('#sheet button.box:not([hidden])');
    window.__drawn = {air: board.hasAttribute('data-dice-air'),
                      color: box ? getComputedStyle(box).color : null,
                      running: document.getAnimations().filter(a => a.playState === 'running').length};
    seen.disconnect();
  });
  seen.observe(board, {attributes: true, attributeFilter: ['data-rendered']});
}"""
LANDED = "() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null))).then(() => true)"
TRANSPARENT = "rgba(0, 0, 0, 0)"
# The boxes of the sheet the eye measures: the frame, its total row, Roll, who plays.
PLACES = """() => {
  const r = (e) => { const b = e.getBoundingClientRect(); return [b.top, b.bottom, b.left, b.right]; };
  const who = document.getElementById('who');
  const st = getComputedStyle(who), line = parseFloat(st.lineHeight);
  return {wrap: r(document.querySelector('#board .sheet-wrap')),
          total: r(document.querySelector('#sheet tr[data-sum="total"]')),
          roll: r(document.getElementById('roll')), felt: r(document.querySelector('#board .dice-table')),
          whoLines: (who.clientHeight - parseFloat(st.paddingTop) - parseFloat(st.paddingBottom)) / line, vh: innerHeight,
          tinted: [...new Set([...document.querySelectorAll('#sheet tbody td.current')].map(td => td.dataset.side))]};
}"""


@pytest.fixture(params=list(SIZES))
def size(request, gp):
    w, h = SIZES[request.param]
    gp.page.set_viewport_size({"width": w, "height": h})
    gp.page.emulate_media(reduced_motion="no-preference")
    yield request.param
    gp.page.set_viewport_size({"width": 1280, "height": 900})


def best_on_page(p):
    """The box the board marks best: its box, its word, its label."""
    marked = p.eval_on_selector_all("#sheet button.box.best:visible",
                                    "els => els.map(e => [e.dataset.box, e.dataset.why, e.getAttribute('aria-label')])")
    assert len(marked) == 1, marked
    return marked[0]


def totals_in_view(p, where):
    """The total row inside the sheet's frame and the screen; every box to fill a target
    of 24 px tall (WCAG's minimum) and 44 px wide at least."""
    m = p.evaluate(PLACES)
    assert m["wrap"][0] <= m["total"][0] and m["total"][1] <= m["wrap"][1] + 0.5 <= m["vh"] + 0.5, f"{where}: {m}"
    small = p.eval_on_selector_all("#sheet button.box:visible", """els => els.filter(e => e.offsetHeight < 24
        || e.offsetWidth < 44).map(e => `${e.dataset.box}: ${e.offsetWidth}x${e.offsetHeight}`)""")
    assert small == [], f"{where}: {small}"


def test_a_long_sheet_fits_its_points_wait_for_the_dice_and_a_star_marks_what_to_give_up(gp: GamePage, size):
    p = gp.page
    gp.new_game("bulgarian", ("Ana",), seed=24)
    m = Mirror("bulgarian", ("Ana",), 24)
    check(gp, size, "before the first roll")
    totals_in_view(p, "before the first roll")
    for roll in (1, 2, 3):
        p.evaluate(WATCH)
        gp.roll()
        m.do({"op": "roll"})
        drawn = p.evaluate("window.__drawn")
        # drawn while the dice tumble: no points yet; once they have landed, the points
        assert drawn["air"] and drawn["running"] > 0 and drawn["color"] == TRANSPARENT, drawn
        p.evaluate(LANDED)
        assert p.get_attribute("#board", "data-dice-air") is None
        assert p.eval_on_selector("#sheet button.box:visible", "e => getComputedStyle(e).color") != TRANSPARENT
        check(gp, size, f"roll {roll}")
        totals_in_view(p, f"roll {roll}")
    box, why, label = best_on_page(p)
    assert (box, why) == (m.view["best"]["box"], "most points") and label.endswith("best now (most points)")
    gp.score(box)
    m.do(m.request(box))
    assert p.evaluate("() => !document.querySelector('#handover[open]')")  # alone: no hand-over
    # the next roll earns nothing anywhere: the star is on the box best given up
    p.click("#board-menu-btn")
    p.click("#motion")  # motion off: the points at once
    p.keyboard.press("Escape")
    p.evaluate(WATCH)
    gp.roll()
    m.do({"op": "roll"})
    drawn = p.evaluate("window.__drawn")
    assert not drawn["air"] and drawn["color"] != TRANSPARENT, drawn
    assert m.view["best"] == {"box": "pair", "why": "give_up"}
    assert max(r["cells"][0]["preview"] for r in m.view["rows"] if r["cells"][0].get("playable")) <= 0
    box, why, label = best_on_page(p)
    assert (box, why) == ("pair", "give up") and "best now (give up)" in label
    check(gp, size, "nothing earns")
    totals_in_view(p, "nothing earns")
    p.click("#board-menu-btn")
    p.click("#motion")
    p.keyboard.press("Escape")


def test_the_star_is_the_coachs_and_its_line_names_the_better_choice_then_the_device_is_handed_over(gp: GamePage, size):
    """Generala, seed 5, Ana's third roll [1, 6, 2, 2, 6]: Sixes earns most (12), the coach
    would score Twos (the expected final score). Coach off, the star is on Sixes, "most
    points"; the coach switched on then, on the same roll, it moves to Twos, "long-term";
    Ana scores Sixes, and the coach's line says what that cost and that Twos was better."""
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=5)
    if p.is_checked("#coach-toggle"):
        p.click("#board-menu-btn")
        p.set_checked("#coach-toggle", False)
        p.keyboard.press("Escape")
    p.wait_for_selector("#coach-toggle:not([aria-busy])", state="attached")
    m = Mirror("argentine", ("Ana", "Beto"), 5)
    try:
        for _ in range(3):
            gp.roll()
            m.do({"op": "roll"})
        assert gp.dice() == m.view["dice"] == [1, 6, 2, 2, 6]
        assert m.view["best"] == {"box": "sixes", "why": "points"}
        assert best_on_page(p)[:2] == ["sixes", "most points"]
        # the coach switched on mid-turn: the star is the coach's on this very roll
        n = gp.renders()
        p.click("#board-menu-btn")
        p.set_checked("#coach-toggle", True)
        p.keyboard.press("Escape")
        p.wait_for_selector("#coach-toggle:not([aria-busy])", state="attached")
        p.wait_for_function(RENDERED, arg=n)
        m.do({"op": "coach", "on": True})
        assert gp.dice() == [1, 6, 2, 2, 6]
        box, why, label = best_on_page(p)
        assert (box, why) == (m.view["best"]["box"], "long-term") == ("twos", "long-term")
        assert p.inner_text('#sheet button.box[data-box="sixes"]') == "12"  # the most points, not the best
        # a costly move: the coach's line says what it cost and what was better
        n = gp.renders()
        p.click('#sheet button.box[data-box="sixes"]')
        p.wait_for_function(RENDERED, arg=n)
        cost = m.do(m.request("sixes"))
        assert cost["cost_better"]["boxes"] == ["twos"]
        # the next person's turn: a card that waits for Beto, the board behind it
        p.wait_for_selector("#handover", state="visible")
        assert p.inner_text("#handover-title") == "Beto's turn"
        assert p.inner_text("#handover-line") == "Pass the device to Beto."
        assert p.evaluate("document.activeElement.id") == "handover-ok"
        box = p.locator("#handover").bounding_box()
        w, h = SIZES[size]
        assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= w and box["y"] + box["height"] <= h
        n = gp.renders()
        p.keyboard.press("r")  # no roll for Beto before Beto has the device
        engine_round_trip(p)
        assert gp.renders() == n and p.is_visible("#handover")
        p.keyboard.press("Enter")  # Beto takes it: one key
        p.wait_for_selector("#handover", state="hidden")
        assert p.evaluate("document.activeElement.id") == "roll"
        text = p.inner_text("#coach-cost")
        # against an opponent the coach speaks in the chance to win
        pct = int(cost["chance_cost"] * 100 + 0.5)
        assert pct >= 1 and text == f"That cost {pct}% of your chance to win. Better: Score Twos.", text
    finally:
        p.click("#board-menu-btn")
        p.set_checked("#coach-toggle", False)
        p.keyboard.press("Escape")


def test_a_computer_turn_leaves_the_board_where_it_is(gp: GamePage, size):
    """Ana against "Computer" (Ana starts, seed 5): the board measured while the computer
    plays and at the start of Ana's next turn is the same board."""
    p = gp.page
    p.evaluate("generala.storage.set('generala.computer_pace', 'normal')")
    gp.new_game("argentine", ("Ana", "Computer"), seed=5, players=["human", "ai:heuristic"])
    gp.roll()
    gp.score(best_on_page(p)[0])
    assert p.evaluate("() => !document.querySelector('#handover[open]')")  # a computer needs no hand-over
    p.wait_for_selector("#ai-skip", state="visible")  # its turn (Ana may still take her box back)
    assert p.inner_text("#who") == "Computer to play"
    during = p.evaluate(PLACES)
    skip = p.locator("#ai-skip").bounding_box()
    assert p.locator("#board .tray .actions #ai-skip").count() == 1 and p.is_hidden("#hint-btn")
    assert skip["y"] + skip["height"] <= SIZES[size][1]
    p.wait_for_function("() => !document.getElementById('roll').disabled"
                        " && document.getElementById('ai-skip').hidden", timeout=15_000)
    after = p.evaluate(PLACES)
    assert during["whoLines"] < 1.5 and after["whoLines"] < 1.5, (during["whoLines"], after["whoLines"])
    for part in ("wrap", "total", "felt"):
        assert during[part] == pytest.approx(after[part], abs=0.5), (part, during[part], after[part])
    assert during["roll"][:2] == pytest.approx(after["roll"][:2], abs=0.5)  # (Skip and Hint: a pixel wider or not)
    assert during["tinted"] == ["1"] and after["tinted"] == ["0"], (during["tinted"], after["tinted"])
    totals_in_view(p, "Ana's turn after the computer's")
    said = p.locator("#ai-status")
    assert said.inner_text().startswith(("Computer scores ", "Computer scratches "))
    box, felt = said.bounding_box(), after["felt"]
    assert felt[0] <= box["y"] and box["y"] + box["height"] <= felt[1]  # on the empty felt
    gp.roll()
    assert p.is_hidden("#ai-status")  # gone with Ana's first roll
