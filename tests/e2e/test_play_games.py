"""Full games of every variant through the UI with seeded dice; the page must show
the engine's dice, holds and totals at every step (the CPython mirror replays the
same actions)."""
import pytest
from gamepage import GamePage, Mirror, gp, play_turn, shared  # noqa: F401

CASES = [
    ("argentine", 11, {}),
    ("puerto-rican", 7, {"stake_per_point": 1}),
    ("double", 3, {}),
    ("bulgarian", 5, {}),
]


@pytest.mark.parametrize("variant,seed,options", CASES, ids=[c[0] for c in CASES])
def test_full_game(gp: GamePage, variant, seed, options):
    names = ("Ana", "Beto")
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
