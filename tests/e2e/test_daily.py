"""The daily challenge on the page: the same dice for everyone, what holds decide, a result
that stays, the streak across days (the page's clock set by Playwright)."""
from __future__ import annotations

import json
import re

import pytest
from e2e_support import STATE_LOG_SCRIPT, STILL_DICE, Guard, boot
from gamepage import GamePage, open_home, pick_lang

from generala.modes import daily
from generala.ai import players

DAY = "2026-12-01"


def at(day: str, hour: int = 10) -> str:
    return "%sT%02d:00:00" % (day, hour)


@pytest.fixture
def contexts(browser, base_url):
    """Fresh contexts (each a new browser profile: nothing saved), their clocks on DAY.
    The board's motion switch off (STILL_DICE): the dice land at once (a roll pressed while
    they tumble waits for them to land: ~0.6 s a turn; the motion is test_table_motion.py's)."""
    made = []

    def make(day=DAY, width=1280, height=900):
        context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height},
                                      service_workers="block")
        context.clock.install(time=at(day))
        context.add_init_script(STILL_DICE)
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
    assert int(figure(a, "daily-score")) < int(figure(a, "daily-perfect"))
    assert a.page.locator("#daily-luck").count() == 0  # below perfect play: no word of luck


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


# --- what it is: a score attack against perfect play, for fun, on trust ----------------------

def replay_on_page(gp: GamePage, history):
    """Play a game's history through the page: its rolls (the page's dice checked against
    them), its holds (the dice whose hold changes are tapped) and its boxes."""
    for action in history:
        if "roll" in action:
            gp.roll()
            assert gp.dice() == action["roll"]
        elif "hold" in action:
            want = set(action["hold"])
            for i, held in enumerate(gp.held()):
                if (i in want) != held:
                    gp.hold(i)
        else:
            gp.score(action["score"])


def test_the_page_says_what_the_challenge_is_and_calls_a_score_above_perfect_play_luck(contexts):
    """The home block says that anyone can compute a day's dice and that the challenge
    runs on trust; a game that beats perfect play on the same dice (the heuristic
    player's holds happen to draw better dice of the day's stream) is told it was luck."""
    gp = contexts()
    open_home(gp.page)
    assert gp.page.inner_text("#daily-section .daily-trust") == (
        "Anyone can compute a day's dice from its date: the challenge is for fun, and runs on trust.")
    game = daily.new_game("argentine", DAY, DAY)
    players.play(game, [players.make_player("heuristic", game.rules)])
    perfect = daily.perfect("argentine", DAY)["score"]
    assert game.totals()[0] > perfect
    start_today(gp)
    replay_on_page(gp, game.history)
    gp.page.wait_for_selector("#daily-result[data-state=ready]", timeout=60_000)
    assert figure(gp, "daily-score") == str(game.totals()[0])
    assert figure(gp, "daily-perfect") == str(perfect)
    assert gp.page.inner_text("#daily-luck") == (
        "That is more than perfect play: luck. Perfect play makes the best choice every time, "
        "so a higher score on the same dice comes from the dice falling your way.")


def test_a_served_hand_scores_its_points_the_automatic_win_is_off(contexts):
    """General on 2026-07-12: the day's first roll is 4-4-4-4-4. It wins nothing at once:
    the game goes on and the hand scores its points."""
    day = "2026-07-12"
    gp = contexts(day)
    open_home(gp.page)
    gp.page.wait_for_selector(f'#daily-picker[data-ready="{day}"]')
    gp._after(lambda: gp.page.click("#daily-puerto-rican"))
    gp.page.wait_for_selector("#board #daily-badge")
    gp.roll()
    assert gp.dice() == [4, 4, 4, 4, 4]
    assert not gp.page.is_visible("#over") and gp.page.is_enabled("#roll")
    gp.score("small-general")
    assert gp.totals() == [60]
    assert gp.page.inner_text("#turn-line").startswith("Turn 2 of 10")


# --- no future days -------------------------------------------------------------------

@pytest.mark.cross_engine
def test_a_day_after_today_is_refused_in_words_and_by_the_engine(contexts):
    gp = contexts()
    p = gp.page
    open_home(p)
    p.wait_for_selector(f'#daily-picker[data-ready="{DAY}"]')
    assert p.get_attribute("#daily-date", "max") == DAY
    p.fill("#daily-date", "2026-12-02")
    p.wait_for_selector('#daily-picker[data-refused="2026-12-02"]')
    assert p.inner_text("#daily-refused") == "The day 2026-12-02 has not come yet: its challenge opens on that day."
    assert p.get_attribute("#daily-date", "aria-invalid") == "true"
    assert all(p.is_disabled(f"#daily-{name}") for name in ("argentine", "puerto-rican", "double", "bulgarian"))
    pick_lang(p, "es")  # worded in the player's language
    p.wait_for_function("() => document.getElementById('daily-refused').textContent.startsWith('El día')")
    assert p.inner_text("#daily-refused") == "El día 2026-12-02 todavía no llegó: su desafío se abre ese día."
    # The engine refuses it too, whatever a page sends.
    reply = json.loads(p.evaluate("""generala.engine.call(JSON.stringify(
        {op: 'daily', variant: 'argentine', date: '2026-12-02', today: '2026-12-01'}))"""))
    assert (reply["code"], reply["params"]) == ("daily.future", {"date": "2026-12-02", "today": DAY})
    assert p.is_hidden("#board")
    # Today again: the games are played.
    p.fill("#daily-date", DAY)
    p.wait_for_function("() => !document.getElementById('daily-picker').hasAttribute('data-refused')")
    assert p.is_hidden("#daily-refused") and p.is_enabled("#daily-argentine")
    assert p.get_attribute("#daily-date", "aria-invalid") is None


# --- a deleted challenge played again -------------------------------------------------------

def test_a_challenge_deleted_and_played_again_is_marked_played_again(contexts):
    gp = contexts()
    p = gp.page
    start_today(gp)
    gp.roll()
    first = gp.dice()
    gp.settled()
    open_home(p)
    p.wait_for_selector('#daily-argentine[data-status="playing"]')
    gid = p.get_attribute("#continue-list [data-continue]", "data-continue")
    p.click(f'#continue-list [data-delete="{gid}"]')
    p.click("#confirm-ok")
    p.wait_for_selector('#daily-argentine[data-status="new"]')
    gp._after(lambda: p.click("#daily-argentine"))
    assert p.inner_text("#daily-badge") == f"Daily challenge, {DAY} (played again)"
    gp.roll()
    assert gp.dice() == first  # the same dice again: that is why it is marked
    gp.settled()
    open_home(p)
    p.wait_for_selector('#daily-argentine[data-status="playing"]')
    assert p.inner_text("#daily-argentine .daily-game-status") == "In progress (played again)"


# --- H: no hint until the end, in words -----------------------------------------------------

def test_h_in_a_daily_says_there_is_no_hint_until_the_end(contexts):
    gp = contexts()
    p = gp.page
    start_today(gp)
    gp.roll()
    p.keyboard.press("h")
    p.wait_for_selector("#ai-note:not([hidden])")
    assert p.inner_text("#ai-note") == ("No hint in the daily challenge until it is over: "
                                        "hints and the coach come back at the end.")
    assert p.locator("#messages .msg").count() == 0  # no refusal
    assert not p.evaluate("document.getElementById('hint-dialog').open")
    gp.hold(0)  # a move: the words go
    assert p.is_hidden("#ai-note")
    p.keyboard.press("h")
    p.wait_for_selector("#ai-note:not([hidden])")
    open_home(p)
    assert p.locator("#messages .msg").count() == 0 and p.is_hidden("#ai-note")


# --- the share text on a phone ----------------------------------------------------------

def test_the_bulgarian_share_text_fits_its_box_on_a_phone(contexts):
    gp = contexts(width=375, height=812)
    p = gp.page
    pick_lang(p, "bg")
    open_home(p)
    assert p.is_visible("#daily-section .daily-trust")
    p.wait_for_selector(f'#daily-picker[data-ready="{DAY}"]')
    gp._after(lambda: p.click("#daily-bulgarian"))
    p.wait_for_selector("#board #daily-badge")
    play_to_the_end(gp, holds=())
    box = p.eval_on_selector("#daily-share-text", """a => ({scroll: a.scrollHeight, client: a.clientHeight,
        lines: a.value.split('\\n').length, head: a.value.split('\\n')[0]})""")
    assert box["head"] == "Генерал · дневно предизвикателство " + DAY
    assert box["scroll"] <= box["client"], box  # every line in sight, the wrapped head too
