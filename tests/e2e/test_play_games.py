"""Full games of every variant through the UI with seeded dice; the page must show
the engine's dice, holds and totals at every step (the CPython mirror replays the
same actions)."""
import pytest
from gamepage import GamePage, Mirror, board_menu, gp, play_turn, shared  # noqa: F401

CASES = [
    ("argentine", 11, {}),
    ("puerto-rican", 7, {"stake_per_point": 1}),
    ("double", 3, {}),
    ("bulgarian", 5, {}),
]


@pytest.mark.parametrize("variant,seed,options", CASES, ids=[c[0] for c in CASES])
def test_full_game(gp: GamePage, variant, seed, options):
    names = ("Ana", "Beto")
    if variant != "argentine":  # one game with the dice's motion; the rest land at once
        gp.page.emulate_media(reduced_motion="reduce")  # (a roll pressed while they tumble waits ~0.6 s)
    gp.new_game(variant, names, seed=seed, options=options)
    m = Mirror(variant, names, seed, options)
    assert gp.turn_line() == f"Turn 1 of {m.view['turns']}"
    turn = 0
    while not m.view["over"]:
        assert gp.current() == m.view["current"]
        play_turn(gp, m, holds=turn % 2 == 0)
        turn += 1
    gp.page.wait_for_selector("#over", state="visible")
    assert gp.totals() == [s["total"] for s in m.view["sides"]]
    ranking = gp.page.locator("#ranking li")
    assert ranking.count() == 2
    first = min(range(2), key=lambda i: (m.view["sides"][i]["place"], i))
    assert names[first] in ranking.first.inner_text()
    if m.view["settlement"]:
        pay = m.view["settlement"][0]
        assert f"{names[pay['from']]} pays {names[pay['to']]}" in gp.page.inner_text("#settlement")
    # every box of every side as the engine wrote it
    for row in m.view["rows"]:
        for i, cell in enumerate(row["cells"]):
            if cell["value"] is not None:
                assert gp.cell(row["box"], i) == cell["text"], (row["box"], i)


@pytest.mark.cross_engine
def test_automatic_win_is_announced_settled_and_play_again(gp: GamePage):
    p = gp.page
    names = ("Ana", "Beto")
    seed = 2422  # the first roll of the game is five alike (found with the CPython engine)
    gp.new_game("puerto-rican", names, seed=seed, options={"stake_per_point": 2})
    m = Mirror("puerto-rican", names, seed, {"stake_per_point": 2})
    m.do({"op": "roll"})
    gp.roll()
    assert m.view["auto_win"]["kind"] == "big-general"
    winner = names[m.view["auto_win"]["side"]]
    assert f"{winner} wins with a Big General" in p.inner_text("#banner")
    assert "wins!" in p.text_content("#announce")
    assert p.is_visible("#over") and p.is_disabled("#roll")
    assert p.locator("#sheet button.box:visible").count() == 0
    loser = names[1 - m.view["auto_win"]["side"]]
    amount = m.view["settlement"][0]["amount"]
    assert amount == 200  # at least 100 points' worth after a Big General, times the stake
    assert f"{loser} pays {winner} 200" in p.inner_text("#settlement")
    # Play again: same sides and options, a fresh board
    gp._after(lambda: p.click("#again"))
    assert gp.turn_line() == "Turn 1 of 10"
    assert p.is_hidden("#over") and p.is_enabled("#roll")
    assert [p.inner_text(f'#sheet thead th[data-side="{i}"] .side-title') for i in (0, 1)] == list(names)
    assert gp.totals() == [0, 0]


def test_rules_dialog_shows_the_game_and_options_in_effect(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana",), seed=1, options={"served_bonus": 10, "straight_wrap": False})
    board_menu(p, "rules")
    p.wait_for_selector("#rules[open]")
    text = p.inner_text("#rules")
    assert "Rules: Generala" in text
    assert "First-roll bonus: 10" in text and "3-4-5-6-1 is a straight: off" in text
    p.keyboard.press("Escape")
    p.wait_for_selector("#rules", state="hidden")
