"""Saves under the failures real browsers produce: storage filled to its quota
mid-game, and two pages playing one game.

Each test: nothing lost, a clear message, the game keeps working."""
import json
import re

import pytest

from e2e_support import EMPTY_FILLER, FILL_STORAGE, boot, wait_ready
from gamepage import GamePage, Mirror

from generala import app
from generala.save import dump

CURRENT_SAVE = "() => generala.storage.get('generala.save.' + generala.storage.get('generala.current'))"
SAVED_REV = ("n => { const t = generala.storage.get('generala.save.' + generala.storage.get('generala.current'));"
             " const m = t && /^\\{\"rev\": (\\d+),/.exec(t); return m && +m[1] >= n; }")

FILL, EMPTY = FILL_STORAGE, EMPTY_FILLER


def rev(page) -> int:
    text = page.evaluate(CURRENT_SAVE)
    return int(re.match(r'\{"rev": (\d+),', text).group(1))


def wait_saved(page, n: int):
    page.wait_for_function(SAVED_REV, arg=n, timeout=10_000)


def not_saved(page):
    return page.locator("#messages .msg-error", has_text="could not be saved")


@pytest.mark.cross_engine
def test_storage_full_mid_game_keeps_the_last_save_and_tells_once(page):
    gp = GamePage(page)
    boot(page)
    gp.new_game("argentine", ("Ana", "Beto"), seed=5)
    m = Mirror("argentine", ("Ana", "Beto"), 5)
    gp.roll()
    m.do({"op": "roll"})
    gp.hold(0)
    size = len(json.dumps(m.do({"op": "toggle", "die": 0})))
    wait_saved(page, 3)
    before = page.evaluate(CURRENT_SAVE)

    assert page.evaluate(FILL) > 0
    for req in ({"op": "toggle", "die": 1}, {"op": "toggle", "die": 0}, {"op": "toggle", "die": 2},
                {"op": "roll"}):
        gp.roll() if req["op"] == "roll" else gp.hold(req["die"])
        grown = len(json.dumps(m.do(req)))
        assert grown > size, "each of these moves makes the save longer: none fits"

    # Told once, not at every move; the previous copy is intact; the game went on in memory.
    assert not_saved(page).count() == 1
    assert page.evaluate(CURRENT_SAVE) == before
    assert gp.dice() == m.view["dice"] and gp.held() == m.view["held"]
    box = m.best_box()
    gp.score(box)
    m.do({"op": "score", "box": box})
    assert gp.totals() == [s["total"] for s in m.view["sides"]]
    assert not_saved(page).count() == 1

    # Space freed: the next move saves the whole game, and a reload resumes it exactly.
    page.evaluate(EMPTY)
    gp.roll()
    m.do({"op": "roll"})
    wait_saved(page, rev_of(before) + 1)
    entry = json.loads(page.evaluate(CURRENT_SAVE))
    assert abs(entry["updated"] - page.evaluate("Date.now()")) < 60_000  # a real time, not cut to 32 bits
    assert json.loads(page.evaluate(CURRENT_SAVE))["reply"]["save"] == dump(m.session.game)
    page.reload()
    wait_ready(page)
    assert gp.dice() == m.view["dice"] and gp.held() == m.view["held"]
    assert not_saved(page).count() == 0


def rev_of(text: str) -> int:
    return int(re.match(r'\{"rev": (\d+),', text).group(1))


@pytest.mark.cross_engine
def test_two_pages_on_one_game_follow_each_other(context):
    a, b = context.new_page(), context.new_page()
    ga, gb = GamePage(a), GamePage(b)
    boot(a)
    ga.new_game("argentine", ("Ana", "Beto"), seed=7)
    m = Mirror("argentine", ("Ana", "Beto"), 7)
    ga.roll()
    m.do({"op": "roll"})
    wait_saved(a, 2)

    boot(b)  # the second page opens on the game in progress
    assert gb.dice() == m.view["dice"] and gb.rolls_left() == m.view["rolls_left"]

    # A plays on: B is told once and follows (board and engine).
    ga.hold(0)
    m.do({"op": "toggle", "die": 0})
    ga.roll()
    m.do({"op": "roll"})
    b.wait_for_function("d => [...document.querySelectorAll('#board .tray [data-die]')]"
                        ".map(e => +e.dataset.face).join() === d.join()", arg=m.view["dice"])
    moved = b.locator("#messages .msg-warn", has_text="moved on in another tab")
    assert moved.count() == 1
    assert a.locator("#messages .msg-warn").count() == 0

    # Now B plays (its engine holds A's moves): A follows.
    box = m.best_box()
    gb.score(box)
    m.do({"op": "score", "box": box})
    a.wait_for_function("t => [...document.querySelectorAll('#sheet tfoot tr[data-sum=\"total\"] td')]"
                        ".map(e => +e.textContent).join() === t.join()",
                        arg=[s["total"] for s in m.view["sides"]])
    gb.roll()
    m.do({"op": "roll"})
    a.wait_for_function("d => [...document.querySelectorAll('#board .tray [data-die]')]"
                        ".map(e => +e.dataset.face).join() === d.join()", arg=m.view["dice"])

    # No move lost: the stored game is every move of both pages, and A plays on from it.
    assert json.loads(a.evaluate(CURRENT_SAVE))["reply"]["save"] == dump(m.session.game)
    ga.hold(2)
    m.do({"op": "toggle", "die": 2})
    ga.roll()
    m.do({"op": "roll"})
    assert ga.dice() == m.view["dice"]
    b.wait_for_function("d => [...document.querySelectorAll('#board .tray [data-die]')]"
                        ".map(e => +e.dataset.face).join() === d.join()", arg=m.view["dice"])


@pytest.mark.cross_engine
def test_a_move_made_on_a_stale_page_never_overwrites_the_newer_save(page):
    """Another tab saved first (its storage event not yet here): this page's move is
    refused, the newer save stays as written, and the page follows it."""
    gp = GamePage(page)
    boot(page)
    gp.new_game("argentine", ("Ana", "Beto"), seed=11)
    gp.roll()
    wait_saved(page, 2)
    # What another tab would have written: the same game, one hold further, rev 3.
    stored = json.loads(page.evaluate(CURRENT_SAVE))
    other = app.Session()
    other.handle({"op": "load", "save": stored["reply"]["save"]})
    reply = other.handle({"op": "toggle", "die": 3})
    newer = '{"rev": 3, ' + json.dumps(dict(stored, reply=reply))[1:].replace('"rev": 2, ', "", 1)
    page.evaluate("t => generala.storage.set('generala.save.' + generala.storage.get('generala.current'), t)", newer)

    gp.hold(0)  # this page's move, made on rev 2
    page.wait_for_selector("#messages .msg-warn >> text=before your last move here was saved")
    page.wait_for_function("h => [...document.querySelectorAll('#board .tray [data-die]')]"
                           ".map(e => e.getAttribute('aria-pressed') === 'true').join() === h.join()",
                           arg=reply["view"]["held"])
    assert page.evaluate(CURRENT_SAVE) == newer
    # The engine followed too: the next roll is the other tab's game rolled on.
    gp.roll()
    assert gp.dice() == other.handle({"op": "roll"})["view"]["dice"]
