"""The daily challenge on the page: the same dice for everyone, what holds decide, a result
that stays, the streak across days (the page's clock set by Playwright)."""
from __future__ import annotations

import re

import pytest
from e2e_support import STATE_LOG_SCRIPT, Guard, boot
from gamepage import GamePage, open_home

from generala import daily

DAY = "2026-12-01"


def at(day: str, hour: int = 10) -> str:
    return "%sT%02d:00:00" % (day, hour)


@pytest.fixture
def contexts(browser, base_url):
    """Fresh contexts (each a new browser profile: nothing saved), their clocks on DAY."""
    made = []

    def make(day=DAY):
        context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                      service_workers="block")
        context.clock.install(time=at(day))
        guard = Guard()
        guard.attach_context(context)
        context.add_init_script(STATE_LOG_SCRIPT)
        page = context.new_page()
        boot(page)
        made.append((context, guard))
        return GamePage(page)

    yield make
    for context, guard in made:
        guard.collect_error_boxes()
        context.close()
        assert not guard.problems, guard.report()


def start_today(gp: GamePage):
    open_home(gp.page)
    gp.page.wait_for_selector("#daily-picker[data-ready]")
    gp._after(lambda: gp.page.click("#play-daily"))
    gp.page.wait_for_selector("#board #daily-badge")


def first_open_box(gp: GamePage) -> str:
    return gp.page.eval_on_selector("#sheet button.box[data-box]:not([hidden])", "b => b.dataset.box")


def play_to_the_end(gp: GamePage, holds=(0,)) -> list[list[int]]:
    """Each turn: roll, hold ``holds``, roll again, fill the first open box. The dice seen."""
    seen = []
    while not gp.page.is_visible("#over"):
        gp.roll()
        seen.append(gp.dice())
        if gp.page.is_visible("#over"):  # an automatic win
            break
        for i in holds:
            gp.hold(i)
        gp.roll()
        seen.append(gp.dice())
        if gp.page.is_visible("#over"):
            break
        gp.score(first_open_box(gp))
    gp.page.wait_for_selector("#daily-result[data-state=ready]", timeout=60_000)
    return seen


def figure(gp: GamePage, ident: str) -> str:
    return gp.page.inner_text("#" + ident).strip()


def test_two_players_with_the_same_holds_get_the_same_dice_and_score(contexts):
    a, b = contexts(), contexts()
    start_today(a)
    start_today(b)
    assert a.page.inner_text("#daily-badge") == "Daily challenge, " + DAY
    # no undo, no hint while it is played
    assert not a.page.is_visible("#board .coach-hint") and not a.page.is_enabled("#undo")
    seen_a = play_to_the_end(a)
    seen_b = play_to_the_end(b)
    assert seen_a == seen_b
    assert seen_a[0] == list(daily.roller("argentine", DAY).draw(5, 0))
    assert figure(a, "daily-score") == figure(b, "daily-score") == str(a.totals()[0])
    assert figure(a, "daily-perfect") == str(daily.perfect("argentine", DAY)["score"])
    share = a.page.input_value("#daily-share-text")
    assert share.splitlines()[0] == "Generala · daily challenge " + DAY
    assert share == b.page.input_value("#daily-share-text")
    assert not a.page.is_visible("#again")  # played once


def test_different_holds_see_different_dice_of_the_same_stream(contexts):
    a, b = contexts(), contexts()
    stream = daily.roller("argentine", DAY).draw(12, 0)
    for gp, holds in ((a, (0,)), (b, (0, 1, 2))):
        start_today(gp)
        gp.roll()
        for i in holds:
            gp.hold(i)
        gp.roll()
    assert a.dice() == [stream[0], *stream[5:9]]
    assert b.dice() == [*stream[0:3], *stream[5:7]]
    assert a.dice() != b.dice()


@pytest.mark.cross_engine
def test_a_finished_challenge_shows_its_result_and_cannot_be_played_again(contexts):
    gp = contexts()
    start_today(gp)
    play_to_the_end(gp, holds=())
    score = figure(gp, "daily-score")
    open_home(gp.page)
    gp.page.wait_for_selector('#daily-argentine[data-status="done"]')
    assert gp.page.inner_text("#daily-argentine .daily-game-status") == "Your score: " + score
    gp.page.click("#play-daily")
    gp.page.wait_for_selector("#board #daily-result[data-state=ready]")
    assert figure(gp, "daily-score") == score
    assert not gp.page.is_visible("#again")
    assert gp.page.is_disabled("#roll") or not gp.page.is_visible("#roll")
    reply = gp.page.evaluate("generala.engine.call(JSON.stringify({op: 'again'}))")
    assert '"daily.again"' in reply


def finish_one(gp: GamePage):
    start_today(gp)
    play_to_the_end(gp, holds=())
    open_home(gp.page)


def streak(gp: GamePage) -> str:
    gp.page.wait_for_selector("#daily-picker[data-ready]")
    return gp.page.inner_text("#daily-streak")


def test_the_streak_counts_across_days_and_breaks_after_a_missed_day(contexts):
    gp = contexts("2026-12-01")
    finish_one(gp)
    gp.page.wait_for_function("() => /Streak: 1 day/.test(document.getElementById('daily-streak').textContent)")
    gp.page.clock.set_system_time(at("2026-12-02"))
    gp.page.reload()
    boot(gp.page)  # the page opens on the new day
    open_home(gp.page)
    gp.page.wait_for_selector('#daily-picker[data-ready="2026-12-02"]')
    assert gp.page.get_attribute("#daily-argentine", "data-status") == "new"
    assert streak(gp) == "Streak: 1 day"  # yesterday's still counts until today is played
    finish_one(gp)
    gp.page.wait_for_function("() => /Streak: 2 days/.test(document.getElementById('daily-streak').textContent)")
    # a day missed: the streak is broken, the best one kept
    gp.page.clock.set_system_time(at("2026-12-04"))
    gp.page.reload()
    boot(gp.page)
    open_home(gp.page)
    gp.page.wait_for_selector('#daily-picker[data-ready="2026-12-04"]')
    assert streak(gp) == "Streak: 0 days · best: 2 days"
    # an earlier day is still played, marked late, and counts for nothing
    gp.page.fill("#daily-date", "2026-12-03")
    gp.page.wait_for_selector('#daily-picker[data-ready="2026-12-03"]')
    assert gp.page.is_visible("#daily-late")
    gp._after(lambda: gp.page.click("#daily-argentine"))
    assert re.search(r"2026-12-03 \(late\)", gp.page.inner_text("#daily-badge"))
    play_to_the_end(gp, holds=())
    assert "(late)" in gp.page.input_value("#daily-share-text").splitlines()[0]
    open_home(gp.page)
    gp.page.wait_for_selector('#daily-picker[data-ready]')
    assert streak(gp) == "Streak: 0 days · best: 2 days"
