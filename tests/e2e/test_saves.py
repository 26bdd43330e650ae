"""Saves: autosave after every action, reload mid-turn resumes exactly, several
unfinished games, finished games in the history, delete with confirmation, and a
save that cannot be loaded is reported, kept aside untouched, and harms nothing else."""
import json

import pytest

from e2e_support import wait_ready
from gamepage import GamePage, Mirror, gp, open_library, play_turn, shared  # noqa: F401

from generala import app

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice


def storage(page) -> dict:
    return page.evaluate("""() => Object.fromEntries(
        generala.storage.keys('generala.').map(k => [k, generala.storage.get(k)]))""")


def reload(gp: GamePage):
    gp.page.reload()
    wait_ready(gp.page)


@pytest.mark.cross_engine
def test_reload_mid_turn_resumes_exactly(gp: GamePage):
    p = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=9)
    m = Mirror("argentine", ("Ana", "Beto"), 9)
    play_turn(gp, m, holds=False)  # one side has scored
    gp.roll()
    m.do({"op": "roll"})
    for i in (0, 2):
        gp.hold(i)
        m.do({"op": "toggle", "die": i})
    gp.roll()
    m.do({"op": "roll"})
    gp.hold(4)
    m.do({"op": "toggle", "die": 4})
    before = (gp.dice(), gp.held(), gp.rolls_left(), gp.turn_line(), gp.current(), gp.totals())
    assert before[0] == m.view["dice"] and before[1] == m.view["held"]

    reload(gp)
    assert p.is_visible("#board")
    after = (gp.dice(), gp.held(), gp.rolls_left(), gp.turn_line(), gp.current(), gp.totals())
    assert after == before
    # the seeded dice continue where they were: no re-roll
    gp.roll()
    m.do({"op": "roll"})
    assert gp.dice() == m.view["dice"]
    assert gp.rolls_left() == 0


@pytest.mark.cross_engine
def test_board_is_drawn_from_the_save_before_the_engine_is_ready(gp: GamePage):
    p = gp.page
    gp.new_game("bulgarian", ("Ana",), seed=3)
    gp.roll()
    dice = gp.dice()
    # Hold the engine worker back: the saved view must be drawn anyway.
    p.route("**/generala.lazy.zip", lambda route: None)  # never answered
    p.reload(wait_until="commit")
    p.wait_for_selector("html[data-state=ui-ready]", state="attached", timeout=60_000)
    p.wait_for_selector("#board", state="visible")
    assert gp.dice() == dice
    assert p.is_disabled("#roll")
    p.unroute("**/generala.lazy.zip")
    reload(gp)
    assert gp.dice() == dice and p.is_enabled("#roll")


@pytest.mark.cross_engine
def test_continue_list_history_and_delete_with_confirmation(gp: GamePage):
    p = gp.page
    p.evaluate("() => { for (const k of generala.storage.keys('generala.')) generala.storage.remove(k); }")
    reload(gp)
    gp.new_game("argentine", ("Ana", "Beto"), seed=31)
    gp.roll()
    gp.new_game("puerto-rican", ("Caro",), seed=32)
    gp.roll()
    m = Mirror("puerto-rican", ("Caro",), 32)
    m.do({"op": "roll"})
    gp.home()
    items = p.locator("#continue-list > li")
    assert items.count() == 2
    assert "General — Caro" in items.first.inner_text()  # newest first
    assert "Generala — Ana, Beto" in items.nth(1).inner_text()
    # continue the older one
    gp._after(lambda: items.nth(1).locator("[data-continue]").click())
    assert "Ana" in p.inner_text("#sheet thead")
    assert gp.rolls_left() == 2
    # finish Caro's game: it moves to the history with its result
    gp.home()
    gp._after(lambda: p.locator("#continue-list > li").first.locator("[data-continue]").click())
    p.wait_for_selector("#roll:enabled")
    box = m.best_box()
    gp.score(box)
    m.do({"op": "score", "box": box})
    while not m.view["over"]:
        play_turn(gp, m, holds=False)
    gp.home()
    assert p.locator("#continue-list > li").count() == 1
    open_library(p)
    history = p.locator("#history-list > li")
    assert history.count() == 1
    assert f"1st Caro {m.view['sides'][0]['total']}" in history.first.inner_text()
    # delete asks first; Cancel keeps it, Delete removes it
    history.first.locator("[data-delete]").click()
    p.wait_for_selector("#confirm[open]")
    p.click("#confirm-cancel")
    assert history.count() == 1
    history.first.locator("[data-delete]").click()
    p.click("#confirm-ok")
    p.wait_for_selector("#history-section", state="hidden")
    assert not any(json.loads(v).get("over") for k, v in storage(p).items() if k.startswith("generala.save."))


@pytest.mark.cross_engine
def test_corrupt_saves_are_reported_kept_and_harmless(gp: GamePage):
    p = gp.page
    # A save whose history the engine refuses (an unknown box), and one that is not JSON.
    s = app.Session()
    reply = s.handle({"op": "new", "variant": "argentine", "sides": ["Vera", "Zhoro"], "seed": 1})
    bad_save = dict(reply["save"], history=reply["save"]["history"] + [{"roll": [1, 2, 3, 4, 5]}, {"score": "nope"}])
    entry = {"id": "gbad", "created": 0, "updated": 0, "variant": "argentine", "title": "Generala",
             "names": ["Vera", "Zhoro"], "over": False, "round": 1, "turns": 11, "result": None,
             "save": bad_save, "view": reply["view"]}
    bad = json.dumps(entry)
    junk = '{"id": "gjunk", "save": {truncated'
    p.evaluate("""([bad, junk]) => {
        generala.storage.set('generala.save.gbad', bad);
        generala.storage.set('generala.save.gjunk', junk);
        generala.storage.set('generala.current', 'gbad');
    }""", [bad, junk])
    reload(gp)
    messages = p.inner_text("#messages")
    assert "Generala — Vera, Zhoro" in messages and "could not be loaded" in messages
    assert p.is_visible("#home")
    aside = p.inner_text("#aside-list")
    assert "Generala — Vera, Zhoro" in aside
    assert "gjunk" in aside and "corrupt" in aside
    # kept untouched
    stored = storage(p)
    assert stored["generala.save.gbad"] == bad
    assert stored["generala.save.gjunk"] == junk
    # everything else works: a new game plays and saves
    gp.new_game("argentine", ("Ana",), seed=2)
    gp.roll()
    assert len(gp.dice()) == 5
    reload(gp)
    assert p.is_visible("#board") and len(gp.dice()) == 5
    assert storage(p)["generala.save.gbad"] == bad
    # the aside entries can be deleted
    gp.home()
    for _ in range(2):
        p.locator("#aside-list [data-delete]").first.click()
        p.click("#confirm-ok")
    p.wait_for_selector("#aside-section", state="hidden")
    assert "generala.save.gbad" not in storage(p)
