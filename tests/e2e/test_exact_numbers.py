"""Integers cross the page exactly: the seeds 0, 2**53 + 1 (the first a JavaScript number
cannot hold: JSON.parse makes it 2**53) and 2**63 - 1 (the largest seed) through a game's
save, a reload, export, import, a share link and replay; and a daily challenge (its seed
is 64 bits) through export and import: it opens again as that day's challenge, replays,
and cannot be played again.

Everything stored or downloaded is read here as raw text and parsed in CPython, which
keeps every integer (a test that went through JSON.parse would round it itself).
"""
from __future__ import annotations

import json

import pytest
import e2e_support
from e2e_support import STATE_LOG_SCRIPT, Guard, boot, wait_ready
from gamepage import GamePage, Mirror, open_home, open_library
from sheetpage import REPLAY_AT
from test_daily import DAY, at, figure, play_to_the_end, start_today
from test_export_import import as_file, choose_file

from generala import Game, SeededRoller, app, variant
from generala.modes import bundle, share
from generala.rules.save import dump
from generala.ai.strategies import chase, step

SEEDS = [0, 2 ** 53 + 1, 2 ** 63 - 1]
RAW_CURRENT = """() => { const id = localStorage.getItem('generala.current');
  return id && localStorage.getItem('generala.save.' + id); }"""
RAW_SAVES = """() => Object.keys(localStorage).filter(k => k.startsWith('generala.save.'))
  .map(k => localStorage.getItem(k))"""


def current_save(page) -> dict:
    """The stored save of the game on the board, parsed from its text here."""
    return json.loads(page.evaluate(RAW_CURRENT))["reply"]["save"]


def stored_saves(page) -> list[dict]:
    out = []
    for text in page.evaluate(RAW_SAVES):
        try:
            out.append(json.loads(text)["reply"]["save"])
        except (ValueError, KeyError, TypeError):
            pass
    return out


def new_context(browser, base_url, guards, day=None):
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  service_workers="block", accept_downloads=True, reduced_motion="reduce")
    if day:
        context.clock.install(time=at(day))
    guard = Guard()
    guard.attach_context(context)
    guards.append(guard)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    boot(page)
    return context, page


@pytest.fixture(scope="module")
def guards():
    made: list[Guard] = []
    yield made


@pytest.fixture(autouse=True)
def no_browser_problems(guards):
    yield
    problems = []
    for guard in guards:
        guard.collect_error_boxes()
        problems += guard.problems
        guard.problems.clear()
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(f"  - {p}" for p in problems), pytrace=False)


@pytest.fixture(scope="module")
def two(browser, base_url, guards):
    """Two browsers: A plays and exports, B imports."""
    a_context, a = new_context(browser, base_url, guards)
    b_context, b = new_context(browser, base_url, guards)
    yield a, b
    a_context.close()
    b_context.close()


def export_one(page, gid):
    """The export file of the stored game ``gid`` (its list item's Export), as text."""
    open_home(page)
    if not page.is_visible(f'[data-export-save="{gid}"]'):
        open_library(page)
    name, path = e2e_support.download(page, lambda: page.click(f'[data-export-save="{gid}"]'))
    return name, path.read_text(encoding="utf-8")


def finished_save(seed, names):
    game = Game(variant("argentine"), list(names), SeededRoller(seed))
    while not game.over:
        step(game, chase)
    return dump(game)


def replay_to_the_end(page, doc):
    """The replay on screen: step 0, then its last step shows the game's final totals."""
    page.wait_for_function(REPLAY_AT, arg=0, timeout=15_000)
    steps = int(page.get_attribute("#replay", "data-steps"))
    game = Game.from_json(doc)
    assert steps == sum(1 for a in game.history if "rolloff" not in a and "order" not in a)
    page.click('#replay [data-replay="last"]')
    page.wait_for_function(REPLAY_AT, arg=steps, timeout=15_000)
    totals = page.eval_on_selector_all('#replay-sheet tfoot tr[data-sum="total"] td', "els => els.map(e => e.textContent)")
    assert [int(t) for t in totals] == game.totals()


@pytest.mark.parametrize("seed", [e2e_support.cross_engine(s, id=str(s)) if s == SEEDS[1] else s for s in SEEDS])
def test_a_seed_stays_exact_through_reload_export_import_share_link_and_replay(two, seed):
    a, b = two
    k = SEEDS.index(seed)
    names = ("Ana", f"Beto {k}")
    gp = GamePage(a)
    gp.new_game("argentine", names, seed=seed)
    m = Mirror("argentine", names, seed)
    gp.roll()
    m.do({"op": "roll"})
    gp.hold(0)
    m.do({"op": "toggle", "die": 0})
    gp.settled()
    assert current_save(a) == dump(m.session.game) and current_save(a)["roller"]["seed"] == seed
    # a reload resumes it, and the next roll is the engine's
    a.reload()
    wait_ready(a)
    a.wait_for_selector("#board", state="visible")
    gp.roll()
    m.do({"op": "roll"})
    assert gp.dice() == m.view["dice"]
    gp.settled()
    assert current_save(a) == dump(m.session.game)
    gid = a.evaluate("() => localStorage.getItem('generala.current')")

    # exported, then imported in another browser: the same save, and it plays on there
    name, text = export_one(a, gid)
    [exported] = json.loads(text)["games"]
    assert exported["save"] == dump(m.session.game) and exported["save"]["roller"]["seed"] == seed
    assert choose_file(b, as_file(name, text)) == ("Imported 1 game.", "info")
    assert dump(m.session.game) in stored_saves(b)
    gb = GamePage(b)
    open_home(b)
    item = b.locator("#continue-list > li", has_text=names[1])
    gb._after(lambda: item.locator("[data-continue]").click())
    b.wait_for_selector("html[data-state=ready]", state="attached")
    box = m.best_box()
    gb.score(box)
    m.do(m.request(box))
    gb.roll()
    m.do({"op": "roll"})
    assert gb.dice() == m.view["dice"]
    gb.settled()
    assert current_save(b) == dump(m.session.game)

    # a finished game of that seed: imported, replayed, shared by link, the link opened
    done = finished_save(seed, ("Ana", f"Cora {k}"))
    file = json.dumps(bundle.export([{"save": done, "id": f"done{k}", "when": "2026-11-30T10:00:00.000Z"}]))
    assert choose_file(b, as_file(f"done{k}.json", file)) == ("Imported 1 game.", "info")
    assert done in stored_saves(b)
    open_library(b)
    b.locator("#history-list > li", has_text=f"Cora {k}").locator("[data-replay-save]").click()
    replay_to_the_end(b, done)
    b.click('#replay [data-share="link"]')
    b.wait_for_selector("#share-url-r", state="visible")
    url = b.input_value("#share-url-r")
    token = url.split("#replay=")[1]
    assert share.decode(token) == done  # the link carries the seed exactly
    b.click('#replay [data-replay="back"]')
    b.wait_for_selector("#home", state="visible")
    a.goto(url)
    wait_ready(a)
    a.wait_for_selector("#replay", state="visible")
    replay_to_the_end(a, done)
    a.click('#replay [data-replay="back"]')
    a.wait_for_selector("#home", state="visible")
    # the same file opened as a replay ("Open a game file")
    open_home(b)
    b.set_input_files("#open-file", files=[as_file(f"done{k}.json", file)])
    replay_to_the_end(b, done)
    b.click('#replay [data-replay="back"]')
    b.wait_for_selector("#home", state="visible")


def test_a_daily_challenge_exported_and_imported_is_that_days_challenge(browser, base_url, guards):
    a_context, a = new_context(browser, base_url, guards, day=DAY)
    b_context, b = new_context(browser, base_url, guards, day=DAY)
    try:
        ga = GamePage(a)
        start_today(ga)
        play_to_the_end(ga, holds=())
        score = figure(ga, "daily-score")
        ga.settled()
        played = current_save(a)
        gid = a.evaluate("() => localStorage.getItem('generala.current')")
        assert played["daily"] == {"date": DAY, "late": False} and played["roller"]["seed"] > 2 ** 53
        name, text = export_one(a, gid)
        [exported] = json.loads(text)["games"]
        assert exported["save"] == played
        assert choose_file(b, as_file(name, text)) == ("Imported 1 game.", "info")
        assert stored_saves(b) == [played]
        # that day's challenge, finished: its result, and no new game
        open_home(b)
        b.wait_for_selector('#daily-argentine[data-status="done"]')
        assert b.inner_text("#daily-argentine .daily-game-status") == "Your score: " + score
        b.click("#play-daily")
        b.wait_for_selector("#board #daily-result[data-state=ready]", timeout=60_000)
        assert figure(GamePage(b), "daily-score") == score
        assert not b.is_visible("#again")
        again = json.loads(b.evaluate("generala.engine.call(JSON.stringify({op: 'again'}))"))
        assert again["ok"] is False and again["code"] == "daily.again"
        assert stored_saves(b) == [played]
        # and it replays
        open_library(b)
        b.locator("#history-list > li").first.locator("[data-replay-save]").click()
        replay_to_the_end(b, played)
        assert app.Session().handle({"op": "load", "save": played})["view"]["daily"] == {"date": DAY, "late": False, "again": False}
    finally:
        a_context.close()
        b_context.close()
