"""The Bot lab (static/ui/screens/botlab.py, static/js/bot-lab.mjs, static/js/bot-worker.js,
generala/modes/bots.py): a bot written in the page runs in a sandbox of its own (what it cannot
touch there: test_bot_sandbox.py), its mean is the same file's in CPython, Stop and the time limit stop a bot that never returns, an error
shows its traceback and position, a saved bot is kept in this browser, and a saved bot
plays a seat in a hot-seat game to the end (its moves the bot's own)."""
from __future__ import annotations

import math

import pytest
import time

from e2e_support import STATE_LOG_SCRIPT, Guard, boot, wait_ready
from gamepage import GamePage, open_botlab, open_setup
from test_ai_play import CURRENT_SAVE, best_box_on_page, person_can_roll, wait_person_or_over

from generala import Game
from generala.modes import bots
from generala.rules.variants import variant

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

RUN_TIMEOUT = 300_000
LOOP = "def play(turn):\n    while True:\n        pass\n"
RAISES = "def play(turn):\n    return helper(turn)\n\n\ndef helper(turn):\n    return turn.dice[9]\n"
ILLEGAL = "def play(turn):\n    return 'sevens'\n"
SLOW_LATER = ("import time\n\ndef play(turn):\n    if turn.turn == 3:\n        while True:\n"
              "            pass\n    return turn.best()\n")


@pytest.fixture(scope="module")
def lab(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  service_workers="block")
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    boot(page)
    open_botlab(page)
    yield page, guard
    context.close()


@pytest.fixture
def page(lab):
    page, guard = lab
    guard.problems.clear()
    yield page
    guard.collect_error_boxes()
    if guard.problems:
        pytest.fail("the browser reported problems:\n" + guard.report(), pytrace=False)


def run(page, code: str, game: str = "argentine", games: int = 1000, wait: str = "done,error"):
    page.evaluate("t => window.generala.botlab.setCode(t)", code)
    page.select_option("#lab-game", game)
    page.fill("#lab-games", str(games))
    page.click("#lab-run")
    page.wait_for_selector("#botlab[data-state=running], #botlab[data-state=done], #botlab[data-state=error]")
    states = wait.split(",")
    page.wait_for_function("s => s.includes(document.getElementById('botlab').dataset.state)", arg=states,
                           timeout=RUN_TIMEOUT)
    return page.get_attribute("#botlab", "data-state")


@pytest.mark.parametrize("name", bots.EXAMPLES)
def test_each_example_matches_the_same_file_in_cpython(page, name):
    source = bots.example_source(name)
    assert run(page, source) == "done"
    mean = float(page.get_attribute("#lab-mean", "data-mean"))
    cpython = bots.run(source, "argentine", 1000, seed=0)
    assert mean == cpython["mean"]  # the same games: the engine counts the bot's moves
    # the charts are drawn, each with its table
    for ident in ("lab-means", "lab-histogram", "lab-boxes"):
        assert page.locator(f"#{ident} svg").count() >= 1
        assert page.locator(f"#{ident} table tbody tr").count() >= 1
    rows = page.locator("#lab-histogram table tbody tr td:last-child").all_text_contents()
    assert sum(int(r) for r in rows) == 1000
    assert page.locator("#lab-boxes table tbody tr").count() == 11


def test_stop_ends_a_bot_that_never_returns(page):
    page.evaluate("t => window.generala.botlab.setCode(t)", LOOP)
    page.fill("#lab-games", "100")
    page.click("#lab-run")
    page.wait_for_selector("#botlab[data-state=running]")
    page.click("#lab-stop")
    page.wait_for_selector("#botlab[data-state=stopped]")
    assert page.is_enabled("#lab-run")
    # the lab runs again after a Stop (a new worker)
    assert run(page, bots.example_source("lazy"), games=100) == "done"


def test_the_time_limit_ends_a_move_that_never_returns_and_says_where(page):
    assert run(page, SLOW_LATER, games=100) == "error"
    page.wait_for_selector("#lab-error h3")
    assert "more than" in page.text_content("#lab-error")
    position = page.text_content("#lab-position")
    assert "3" in position  # the third turn
    page.wait_for_selector("#lab-position dd")


def test_a_bot_that_raises_shows_its_traceback(page):
    assert run(page, RAISES, games=100) == "error"
    trace = page.text_content("#lab-trace")
    assert 'File "bot.py", line 6, in helper' in trace and "IndexError" in trace
    assert page.locator("#lab-position dd").count() >= 4


def test_an_illegal_move_shows_what_was_returned(page):
    assert run(page, ILLEGAL, games=100) == "error"
    assert "'sevens' is not a box" in page.text_content("#lab-error")
    assert "'sevens'" in page.text_content("#lab-position")


def test_a_bot_is_saved_renamed_and_deleted_in_this_browser(page):
    page.evaluate("t => window.generala.botlab.setCode(t)", bots.example_source("lazy"))
    page.fill("#lab-name", "Mine")
    page.click("#lab-save")
    page.wait_for_selector("#lab-saved option[value=Mine]", state="attached")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('generala.bots'))")
    assert stored[-1]["name"] == "Mine" and "turn.best()" in stored[-1]["code"]
    page.fill("#lab-name", "Mine 2")
    page.click("#lab-rename")
    page.wait_for_selector("#lab-saved option[value='Mine 2']", state="attached")
    page.select_option("#lab-saved", "Mine 2")
    with page.expect_download() as download:
        page.click("#lab-export")
    assert download.value.suggested_filename == "Mine_2.py"
    page.click("#lab-delete")
    page.wait_for_selector("#lab-saved option[value='Mine 2']", state="detached")


def start_hot_seat(page, bot: str):
    """A hot-seat game: Ana (a person) and the saved bot ``bot`` (its seat named after it)."""
    page.emulate_media(reduced_motion="reduce")  # the computer's pace: at once
    open_setup(page, "hotseat")
    page.check('input[data-variant="argentine"]')
    rows = page.locator("#sides > li")
    rows.nth(0).locator(".side-name").fill("Ana")
    rows.nth(1).locator(".side-name").fill("")
    rows.nth(1).locator(".player").select_option("bot:" + bot)
    page.click("#start")
    page.wait_for_selector("#board", state="visible")


def ana_plays_until(page, gp: GamePage, done, deadline: float) -> int:
    """Ana rolls once and fills the best box each turn, until ``done()`` or the game is over;
    her turns."""
    turns = 0
    while not page.is_visible("#over") and not done():
        wait_person_or_over(gp, deadline)
        if done():
            break
        if person_can_roll(gp) and page.is_hidden("#over"):
            gp.roll()
            turns += 1
            if page.is_visible("#over"):  # a served Generala wins at once (the dice are the system's)
                break
            gp.score(best_box_on_page(gp))
    return turns


def turns_of(save: dict, side: int) -> int:
    """The turns ``side`` began in the saved game (a turn begins with its first roll)."""
    history = save["history"]
    begun = 0
    for k, action in enumerate(history):
        if "roll" in action:
            game = Game.from_json(dict(save, history=history[:k]))
            begun += game.current == side and game.rolls == 0
    return begun


def save_bot(page, name: str, source: str):
    """Save ``source`` as the bot ``name`` in the lab (opened when it is not on screen)."""
    if not page.is_visible("#botlab"):
        open_botlab(page)
    page.evaluate("t => window.generala.botlab.setCode(t)", source)
    page.fill("#lab-name", name)
    page.click("#lab-save")
    page.wait_for_selector(f"#lab-saved option[value='{name}']", state="attached")


def fnv(text: str) -> str:
    """static/ui/players/botseat.py source_hash, in CPython."""
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def bots_moves_check(save: dict, side: int, source: str) -> int:
    """Replay the save in CPython: every hold and box of ``side`` after a roll is the move the
    bot's file answers there (bots.choose on the engine's state). The moves checked."""
    checked = 0
    history = save["history"]
    for k, action in enumerate(history):
        if not ("hold" in action or "score" in action):
            continue
        game = Game.from_json(dict(save, history=history[:k]))
        if game.current == side and game.rolls and "hold" not in game.history[-1]:
            move = bots.choose(source, bots.state_of(game), "check")["move"]
            if "keep" in move:
                assert sorted(move["keep"]) == action["hold"], (move, action)
            else:
                assert move["score"] == action["score"], (move, action)
            checked += 1
    return checked


def test_a_saved_bot_plays_a_seat_in_a_hot_seat_game_to_the_end(page):
    source = bots.example_source("chase")
    save_bot(page, "Chaser", source)
    gp = GamePage(page)
    start_hot_seat(page, "Chaser")
    assert page.inner_text("#sides .player option[value='bot:Chaser'] >> nth=1") == "Bot: Chaser"
    ana_turns = ana_plays_until(page, gp, lambda: False, time.monotonic() + 300)
    gp.settled()
    save = page.evaluate(CURRENT_SAVE)
    game = Game.from_json(save)
    # every turn, unless a served Generala ended the game early
    assert game.over and ana_turns == turns_of(save, 0) > 0
    served = ana_turns < variant("argentine").turns
    assert save["sides"][1] == {"name": "Chaser", "members": ["Chaser"], "player": "bot",
                                "bot": {"name": "Chaser", "hash": fnv(source)}}
    assert gp.totals() == game.totals()
    assert page.is_hidden("#ai-note")  # no failure, nothing missing
    # every move of the bot's side was the bot's (none the stand-in's)
    assert bots_moves_check(save, 1, source) >= (turns_of(save, 1) if served else variant("argentine").turns)


BROKEN = ("def play(turn):\n    if turn.turn == 2 and turn.roll == 1:\n"
          "        raise ValueError('no luck today')\n    return turn.best()\n")


def test_a_bot_that_fails_or_is_gone_never_stops_the_game(page):
    """A bot that raises: the strong heuristic level finishes that turn and the bar says
    why; a bot deleted from this browser: its game loads, says so, and the heuristic level
    plays its turns to the end."""
    save_bot(page, "Broken", BROKEN)
    gp = GamePage(page)
    start_hot_seat(page, "Broken")
    deadline = time.monotonic() + 300
    notes: list[str] = []  # the note as it was when seen (the next turn may clear it)

    def failed() -> bool:
        note = page.inner_text("#ai-note")
        if "no luck today" in note:
            notes.append(note)
        return bool(notes)

    ana_plays_until(page, gp, failed, deadline)
    assert notes[0] == "The bot Broken stopped (ValueError: no luck today); the computer finished its turn."
    # the bot's own worker failed, never the game's: the game goes on
    page.evaluate("""() => {
      const bots = JSON.parse(localStorage.getItem('generala.bots')).filter(b => b.name !== 'Broken');
      localStorage.setItem('generala.bots', JSON.stringify(bots));
    }""")
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#board", state="visible")
    page.wait_for_selector("#ai-note:not([hidden])")
    assert "no longer kept in this browser" in page.inner_text("#ai-note")
    ana_plays_until(page, gp, lambda: False, deadline)
    gp.settled()
    game = Game.from_json(page.evaluate(CURRENT_SAVE))
    assert game.over and game.sides[1].bot == {"name": "Broken", "hash": fnv(BROKEN)}
    assert gp.totals() == game.totals()
