"""Fair undo on the page: against a computer, the box just filled can be taken back in
the moment before the computer starts (and the computer's turn is then cancelled);
after the game is over nothing is undone. (The engine's rule, undo never takes back a
roll, is tested property-based in tests/unit/test_app_view_actions.py.)"""
from gamepage import RENDERED, GamePage, gp, shared  # noqa: F401


def test_undo_before_the_computers_turn_takes_the_box_back_and_cancels_its_turn(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana", "Bot"), seed=7, players=("human", "ai:beginner"))
    p.wait_for_selector("#roll:enabled")
    gp.roll()
    dice = gp.dice()
    box = p.get_attribute("#sheet button.box:enabled >> nth=0", "data-box")
    gp.score(box)
    # the computer is about to play: Undo is offered for that moment
    assert p.is_enabled("#undo")
    n = gp.renders()
    p.click("#undo")
    p.wait_for_function(RENDERED, arg=n, timeout=10_000)
    assert gp.dice() == dice and gp.current() == 0
    assert p.is_enabled(f'#sheet button.box[data-box="{box}"]')
    assert p.is_enabled("#roll")  # Ana's turn again, her second roll
    p.wait_for_timeout(2500)  # longer than the computer's wait: it does not start
    assert gp.current() == 0 and gp.dice() == dice
    assert not p.is_visible("#ai-skip")


def test_nothing_is_undone_after_the_game_is_over(gp: GamePage):
    p = gp.page
    gp.new_game("puerto-rican", ("Ana", "Beto"), seed=2422)  # a Big General on the first roll
    gp.roll()
    p.wait_for_selector("#over", state="visible")
    assert p.is_disabled("#undo") or not p.is_visible("#undo")
    n = gp.renders()
    totals = gp.totals()
    p.keyboard.press("u")
    p.wait_for_timeout(500)
    assert gp.renders() == n and gp.totals() == totals
    assert p.is_visible("#over")
