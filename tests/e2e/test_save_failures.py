"""Saves under the failures real browsers produce: storage filled to its quota
mid-game, and two pages playing one game.

Each test: nothing lost, a clear message, the game keeps working."""
import json
import re

import pytest
from playwright.sync_api import expect

from e2e_support import EMPTY_FILLER, FILL_STORAGE, boot, wait_ready
from gamepage import GamePage, Mirror, open_library

from generala import app
from generala.rules.save import dump

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

CURRENT_SAVE = "() => generala.storage.get('generala.save.' + generala.storage.get('generala.current'))"
SAVED_REV = ("n => { const t = generala.storage.get('generala.save.' + generala.storage.get('generala.current'));"
             " const m = t && /^\\{\"rev\": (\\d+),/.exec(t); return m && +m[1] >= n; }")

FILL, EMPTY = FILL_STORAGE, EMPTY_FILLER
FULL_STORAGE_NOTE = "The browser's storage is full"


def rev(page) -> int:
    text = page.evaluate(CURRENT_SAVE)
    return int(re.match(r'\{"rev": (\d+),', text).group(1))


def wait_saved(page, n: int):
    page.wait_for_function(SAVED_REV, arg=n, timeout=10_000)


def not_saved(page):
    return page.locator("#messages .msg-error", has_text=FULL_STORAGE_NOTE)


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
    ga.take_over()  # the turn passed to Beto on B: A's board asks for the device to be handed over too
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


# --- a game that does not fit -----------------------------------------------------------

# Fill the storage, then free about ``n`` characters (one filler made shorter).
LEAVE_FREE = """free => {
  let n = 0, size = 1 << 20;
  while (size >= 1) {
    try { localStorage.setItem("filler." + n, "x".repeat(size)); n++; } catch (e) { size >>= 1; }
  }
  const k = Object.keys(localStorage).find(k => k.startsWith("filler.") && localStorage.getItem(k).length > free);
  localStorage.setItem(k, localStorage.getItem(k).slice(free));
  return free;
}"""
STORED = "() => { const t = generala.storage.get('generala.save.' + generala.storage.get('generala.current')); return t && JSON.parse(t); }"
ASIDE = "() => generala.storage.get('generala.aside')"


def play_solo_to_the_end(gp: GamePage, m: Mirror):
    """Roll once and fill the best box, each turn, to the end (page and mirror)."""
    while not m.view["over"]:
        gp.roll()
        m.do({"op": "roll"})
        if m.view["over"]:
            break
        box = m.best_box()
        gp.score(box)
        m.do(m.request(box))
    gp.settled()
    assert gp.totals() == [s["total"] for s in m.view["sides"]]


def full_note(page):
    return page.locator("#messages .msg", has_text=FULL_STORAGE_NOTE)


def test_a_game_that_never_fit_is_told_as_such_and_nothing_is_listed_that_does_not_exist(page):
    """About 2,000 characters left: no save of the game fits. The player is told at once
    that nothing of it is stored and how to make room; after a reload the page says the
    game was not stored, lists nothing and keeps nothing aside."""
    gp = GamePage(page)
    boot(page)
    gp.home()
    assert page.evaluate(LEAVE_FREE, 2000) == 2000
    gp.new_game("argentine", ("Ana",), seed=5)
    m = Mirror("argentine", ("Ana",), 5)
    gp.settled()
    assert page.evaluate(STORED) is None
    note = full_note(page)
    expect(note).to_have_count(1)
    expect(note).to_contain_text("Nothing of this game is stored.")
    expect(note).to_contain_text("delete finished games")
    play_solo_to_the_end(gp, m)
    expect(note).to_have_count(1)  # one note, kept up to date: not one a move
    expect(note).to_contain_text("Nothing of this game is stored.")

    page.reload()
    wait_ready(page)
    assert page.is_visible("#home") and page.is_hidden("#board")
    told = page.locator("#messages .msg")
    expect(told).to_have_count(1)
    expect(told).to_contain_text("The last game was not saved")
    expect(told).not_to_contain_text("kept aside")
    assert page.evaluate(ASIDE) in (None, "{}")
    assert page.locator("#home [data-save]").count() == 0
    assert page.evaluate("() => generala.storage.get('generala.current')") is None
    page.evaluate(EMPTY)


def test_a_game_whose_first_save_alone_fit_reopens_as_stored_and_says_so(page):
    """The new game's save fits, none of the longer ones after it does (every later
    save of this game is longer than the first). The note names the turn stored; a
    reload opens exactly that stored game and says that the moves after it could not be
    stored."""
    gp = GamePage(page)
    boot(page)
    gp.new_game("argentine", ("Ana",), seed=5)
    m = Mirror("argentine", ("Ana",), 5)
    gp.settled()
    first = page.evaluate(STORED)
    assert first is not None and first["round"] == 1
    page.evaluate(LEAVE_FREE, 200)
    play_solo_to_the_end(gp, m)
    stored = page.evaluate(STORED)
    assert not stored["over"], "the finished game does not fit"
    note = full_note(page)
    expect(note).to_have_count(1)
    expect(note).to_contain_text(f"Stored: the game at turn {stored['round']} of 11.")

    page.reload()
    wait_ready(page)
    page.wait_for_selector("#board", state="visible")
    gp.settled()
    expect(page.locator("#turn-line")).to_contain_text(f"Turn {stored['round']} of 11")
    assert gp.totals() == [stored["reply"]["view"]["sides"][0]["total"]]
    told = page.locator("#messages .msg")
    expect(told).to_have_count(1)
    expect(told).to_contain_text(f"This game goes on from what was stored: turn {stored['round']} of 11.")
    expect(told).to_contain_text("could not be stored")
    # The engine holds the stored game, and nothing else was written or set aside.
    reply = json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'view'}))"))
    assert reply["view"] == app.Session().handle({"op": "load", "save": stored["reply"]["save"]})["view"]
    assert page.evaluate(ASIDE) in (None, "{}")
    page.evaluate(EMPTY)


@pytest.mark.cross_engine
def test_room_made_by_deleting_a_finished_game_stores_the_moves_kept_on_the_page(page):
    """The advice works: the player leaves the board, deletes a finished game, and the
    game whose moves did not fit is stored as it was last played (Continue opens it
    there, with no word of an older state)."""
    from test_bad_saves import entry_text, reply_of
    finished_id = "g1700000000002-1"
    gp = GamePage(page)
    boot(page)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  ["generala.save." + finished_id, entry_text(finished_id, reply_of(2, over=True), 1_700_000_100_000)])
    gp.new_game("argentine", ("Ana",), seed=5)
    m = Mirror("argentine", ("Ana",), 5)
    gp.settled()
    page.evaluate(LEAVE_FREE, 200)
    for _ in range(2):
        gp.roll()
        m.do({"op": "roll"})
        box = m.best_box()
        gp.score(box)
        m.do(m.request(box))
    gp.settled()
    assert page.evaluate(STORED)["round"] == 1
    gid = page.evaluate("() => generala.storage.get('generala.current')")
    expect(full_note(page)).to_contain_text("Stored: the game at turn 1 of 11.")

    open_library(page)
    page.locator(f'#history-list [data-delete="{finished_id}"]').click()
    page.click("#confirm-ok")
    expect(page.locator("#messages .msg", has_text="There is room again")).to_have_count(1)
    expect(full_note(page)).to_have_count(0)
    stored = json.loads(page.evaluate("k => generala.storage.get(k)", "generala.save." + gid))
    assert stored["reply"]["save"] == dump(m.session.game) and stored["round"] == 3
    assert page.evaluate("() => generala.storage.get('generala.unsaved')") is None

    gp.home()
    gp._after(lambda: page.click(f'#continue-list [data-continue="{gid}"]'))
    expect(page.locator("#turn-line")).to_contain_text("Turn 3 of 11")
    expect(page.locator("#messages .msg", has_text="goes on from what was stored")).to_have_count(0)
    page.evaluate(EMPTY)
