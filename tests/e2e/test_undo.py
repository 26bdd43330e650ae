"""Fair undo on the page: against a computer, the box just filled can be taken back in
the moment before the computer starts (and the computer's turn is then cancelled);
after the game is over nothing is undone. (The engine's rule, undo never takes back a
roll, is tested property-based in tests/unit/test_app_view_actions.py.)

The computer's moment is a timer of the page (static/ui/players/computer.py UNDO_GRACE_MS,
1000 ms): this module's page runs on Playwright's fake clock, paused while a test
proves what the timer does, and moved on by hand (page.clock.run_for) instead of
waiting for it."""
import pytest
from e2e_support import engine_round_trip, pause_clock
from gamepage import RENDERED, GamePage, gp, shared_page  # noqa: F401

GRACE_MS = 1000  # static/ui/players/computer.py UNDO_GRACE_MS
BUSY = "document.getElementById('board').hasAttribute('aria-busy')"


@pytest.fixture(scope="module")
def shared(browser, base_url):
    yield from shared_page(browser, base_url, clock=True)


@pytest.mark.cross_engine
def test_undo_before_the_computers_turn_takes_the_box_back_and_cancels_its_turn(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana", "Bot"), seed=7, players=("human", "ai:beginner"))
    p.wait_for_selector("#roll:enabled")
    gp.roll()
    dice = gp.dice()
    box = p.get_attribute("#sheet button.box:enabled >> nth=0", "data-box")
    pause_clock(p)  # the computer's moment starts with the box filled: time moves only by hand
    try:
        gp.score(box)
        # the computer is about to play: Undo is offered for that moment
        assert p.is_enabled("#undo")
        n = gp.renders()
        p.click("#undo")
        p.wait_for_function(RENDERED, arg=n, timeout=10_000)
        assert gp.dice() == dice and gp.current() == 0
        assert p.is_enabled(f'#sheet button.box[data-box="{box}"]')
        assert p.is_enabled("#roll")  # Ana's turn again, her second roll
        # Well past the computer's moment: it does not start (a step it sent would
        # make the board busy at once, and be drawn by the round trip's end).
        n = gp.renders()
        p.clock.run_for(2 * GRACE_MS + 500)
        assert not p.evaluate(BUSY)
        engine_round_trip(p)
        assert gp.renders() == n
        assert gp.current() == 0 and gp.dice() == dice
        assert not p.is_visible("#ai-skip")
        # The same box filled again and no Undo: the computer starts when its moment is
        # over, not before (so the clock above did hold the computer's timer).
        gp.score(box)
        n = gp.renders()
        p.clock.run_for(GRACE_MS - 1)
        assert not p.evaluate(BUSY)
        engine_round_trip(p)
        assert gp.renders() == n and gp.current() == 1 and p.is_enabled("#undo")
        p.clock.run_for(1)
        p.wait_for_function(RENDERED, arg=n, timeout=10_000)  # the computer's first roll
        assert gp.current() == 1 and p.is_disabled("#undo")
    finally:
        p.clock.resume()


def test_nothing_is_undone_after_the_game_is_over(gp: GamePage):
    p = gp.page
    gp.new_game("puerto-rican", ("Ana", "Beto"), seed=2422)  # a Big General on the first roll
    gp.roll()
    p.wait_for_selector("#over", state="visible")
    assert p.is_disabled("#undo") or not p.is_visible("#undo")
    n = gp.renders()
    totals = gp.totals()
    p.keyboard.press("u")
    # An undo would be sent at the key press, and drawn by the end of a round trip.
    assert not p.evaluate(BUSY)
    engine_round_trip(p)
    assert gp.renders() == n and gp.totals() == totals
    assert p.is_visible("#over")
