"""Computer players and the coach in the browser.

- games against computer players of different levels play to the end by themselves,
  and the page's totals are the engine's (the final save replayed in CPython);
- a computer's turn goes step by step at a readable pace (a turn in about 2 s, less at
  the stored fast pace), told in a player's words ("Bot keeps 6 6 and rolls again."),
  people cannot act during it, and Skip (or S, R, a die's number, a tap on the board)
  finishes it at once;
- a hint shows the engine's top choices and values (generala.ai.coach.hint on the
  same save in CPython); the coach shows the cost of a decision (the engine's);
- after the game, the report's skill loss and luck are the engine's;
- house options with no shipped table: the worker solves them, with progress.

The computer's pace is a timer of the page (static/ui/players/computer.py): this module's page
runs on Playwright's fake clock, which flows as real time unless a test pauses it to
prove the pace step by step (page.clock.run_for).
"""
import runpy
import time
from pathlib import Path

import pytest
from e2e_support import cross_engine, engine_round_trip, pause_clock, wait_ready
from gamepage import RENDERED, GamePage, gp, open_setup, set_coach, shared_page  # noqa: F401

from generala import Game
from generala.ai import coach

# static/ui/players/computer.py PACES: the wait before a computer's step, by what it
# follows (its turn's start, a roll, a hold), at the normal and the fast pace
PACES = {"normal": {"start": 100, "roll": 270, "hold": 80},
         "fast": {"start": 0, "roll": 120, "hold": 0}}
GRACE_MS = 1000  # UNDO_GRACE_MS: before its first roll while the person may take a box back
BUSY = "document.getElementById('board').hasAttribute('aria-busy')"
# The game is over, or a person may roll (a computer's turn shows Skip).
PERSON_OR_OVER = """() => {
  const shown = (id) => { const e = document.getElementById(id); return !!e && e.getClientRects().length > 0; };
  return shown('over') || (!document.getElementById('roll').disabled && !shown('ai-skip'));
}"""


@pytest.fixture(scope="module")
def shared(browser, base_url):
    yield from shared_page(browser, base_url, clock=True)


CURRENT_SAVE = """() => {
  const id = generala.storage.get('generala.current');
  const entry = id && JSON.parse(generala.storage.get('generala.save.' + id));
  return entry ? entry.reply.save : null;
}"""


def start(gp: GamePage, variant, sides, seed, options=None, reduced=True):
    """Fill the setup form with (name, player) sides and start (reduced: no pacing)."""
    p = gp.page
    p.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
    gp.home()
    open_setup(p)
    p.check(f'input[data-variant="{variant}"]')
    rows = p.locator("#sides > li")
    while rows.count() < len(sides):
        p.click("#add-side")
    while rows.count() > len(sides):
        rows.last.locator(".remove").click()
    for i, (name, player) in enumerate(sides):
        rows.nth(i).locator(".side-name").fill(name)
        if rows.nth(i).locator("[data-team]").is_checked():
            rows.nth(i).locator("[data-team]").uncheck()
        rows.nth(i).locator(".player").select_option(player)
    for name, value in (options or {}).items():
        node = p.locator(f'[data-option="{name}"]')
        if node.get_attribute("type") == "checkbox":
            node.set_checked(bool(value))
        else:
            node.fill(str(value))
    if not p.is_visible("#seed"):
        p.click(".seed summary")
    p.fill("#seed", str(seed))
    p.click("#start")
    p.wait_for_selector("#board", state="visible")


def current_save(gp: GamePage) -> dict:
    gp.settled()
    return gp.page.evaluate(CURRENT_SAVE)


def wait_person_or_over(gp: GamePage, deadline: float):
    """Until a person may roll or the game is over (computers play meanwhile)."""
    left_ms = (deadline - time.monotonic()) * 1000
    assert left_ms > 0, "the game did not finish"
    gp.page.wait_for_function(PERSON_OR_OVER, timeout=left_ms)


def coach_told(page):
    """The coach toggle is aria-busy until the worker knows (static/ui/players/coach_panel.py): the
    next move's reply then says what it cost."""
    page.wait_for_selector("#coach-toggle:not([aria-busy])", state="attached")


def person_can_roll(gp: GamePage) -> bool:
    return gp.page.is_enabled("#roll") and gp.page.is_hidden("#ai-skip")


def best_box_on_page(gp: GamePage) -> str:
    """The open box with the most points shown (a simple player)."""
    boxes = gp.page.eval_on_selector_all(
        "#sheet button.box:not([hidden]):not(:disabled)",
        "els => els.map(e => [e.dataset.box, e.textContent])")
    return max(boxes, key=lambda b: int(b[1]) if b[1].lstrip("-").isdigit() else -1)[0]


CASES = [
    ("argentine", 3, [("Ana", "human"), ("Bot B", "ai:beginner"), ("Bot C", "ai:optimal")]),
    ("puerto-rican", 8, [("Bot H", "ai:heuristic"), ("Bot X", "ai:expert")]),
]


@pytest.mark.parametrize("variant,seed,sides", CASES, ids=[c[0] for c in CASES])
def test_game_against_computers_plays_to_the_end(gp: GamePage, variant, seed, sides):
    p = gp.page
    start(gp, variant, sides, seed)
    deadline = time.monotonic() + 240
    human_turns = 0
    while not p.is_visible("#over"):
        wait_person_or_over(gp, deadline)
        if person_can_roll(gp) and p.is_hidden("#over"):
            gp.roll()
            gp.score(best_box_on_page(gp))
            human_turns += 1
    save = current_save(gp)
    game = Game.from_json(save)
    assert game.over
    assert [s.player for s in game.sides] == [pl for _, pl in sides]
    assert gp.totals() == game.totals()
    if any(pl == "human" for _, pl in sides):
        assert human_turns > 0
    # the report: skill loss and luck per side, as the engine computes them
    p.click("#report-btn")
    p.wait_for_selector("#coach-report:not([hidden])")
    report = coach.report(game)
    rows = p.locator("#report-table tbody tr")
    assert rows.count() == len(sides)
    for i, side in enumerate(report["sides"]):
        row = rows.nth(i)
        assert float(row.get_attribute("data-skill")) == pytest.approx(side["skill_loss"], abs=1e-3)
        assert float(row.get_attribute("data-luck")) == pytest.approx(side["luck"], abs=1e-3)
        assert row.locator("td.report-skill").inner_text().lstrip("−") == f"{side['skill_loss']:.2f}"


def nothing_sent(gp: GamePage, n: int):
    """No request went to the engine and nothing was drawn since render n."""
    assert not gp.page.evaluate(BUSY)
    engine_round_trip(gp.page)
    assert gp.renders() == n


def step_after(gp: GamePage, ms: int, slack: int = 0):
    """Move the paused clock on by ``ms``: the computer's next step comes then, not sooner
    (``slack`` ms sooner at most)."""
    p = gp.page
    n = gp.renders()
    if ms > 1 + slack:
        p.clock.run_for(ms - 1 - slack)
        nothing_sent(gp, n)
    p.clock.run_for(1 + slack)
    p.wait_for_function(RENDERED, arg=n)


def doing(gp: GamePage) -> str:
    """What the board's hint line says the computer did last: "start", "roll" or "hold"."""
    text = gp.page.inner_text("#hint")
    if text.endswith("is thinking…"):
        return "start"
    return "hold" if " keeps " in text or "rolls all the dice again" in text else "roll"


def paced_turn(gp: GamePage, pace: str = "normal") -> tuple[int, list[str]]:
    """One computer's turn on the paused clock, each step exactly when its pace says (after
    Undo's moment when the person before it may still take a box back): the ms its steps
    waited (that moment aside) and what the hint line said at each step."""
    p = gp.page
    waited, said = 0, [p.inner_text("#hint")]
    while True:
        if p.is_enabled("#undo"):
            assert doing(gp) == "start"
            step_after(gp, GRACE_MS)
        else:
            ms = PACES[pace][doing(gp)]
            step_after(gp, ms)
            waited += ms
        text = p.inner_text("#hint")
        if p.is_hidden("#ai-skip") or text.endswith("is thinking…"):
            return waited, said  # a person's turn, or the next computer's
        said.append(text)


@pytest.mark.cross_engine
def test_computer_turn_is_paced_and_skippable(gp: GamePage):
    """Time moves only by hand here (the fake clock paused): the computer's first roll
    comes when Ana's moment to take her box back is over, each next step the pace after
    the last one drawn, and after Skip the rest of the turn with no time passing."""
    p = gp.page
    start(gp, "argentine", [("Ana", "human"), ("Bot", "ai:heuristic")], seed=4, reduced=False)
    p.wait_for_function(PERSON_OR_OVER)
    assert person_can_roll(gp)  # Ana, the first side, starts
    gp.roll()
    pause_clock(p)
    try:
        gp.score(best_box_on_page(gp))
        p.wait_for_selector("#ai-skip", state="visible")
        assert p.inner_text("#hint") == "Bot is thinking…"  # a player's words, no level named
        # (before its first roll, Ana may still take back a box she just filled: test_undo.py)
        assert p.is_disabled("#roll") and p.is_enabled("#undo")
        assert p.locator("#sheet button.box:visible").count() == 0
        before = gp.renders()
        p.keyboard.press("r")  # a person cannot roll for the computer, nor hurry it in her moment
        nothing_sent(gp, before)
        p.clock.run_for(GRACE_MS - 1)
        nothing_sent(gp, before)
        p.clock.run_for(1)
        p.wait_for_function(RENDERED, arg=before)  # the computer's first roll
        assert p.is_disabled("#undo")  # the computer has rolled: its turn is its own
        assert p.text_content("#announce").startswith("Bot: ")
        assert p.inner_text("#hint") == f"Bot rolls {' '.join(map(str, gp.dice()))}."
        # paced: the next step the pace after a roll once this one was drawn, not sooner
        step_after(gp, PACES["normal"]["roll"])
        assert p.is_visible("#ai-skip"), "the test needs a computer turn of three steps or more"
        # Skip: the rest of the computer's turn at once. Its steps then wait 0 ms (1 ms
        # when scheduled while the fake clock runs a timer): 1 ms a step, where a paced
        # step waits its pace.
        now = p.evaluate("Date.now()")
        p.keyboard.press("s")
        steps = 0
        while p.is_visible("#ai-skip"):
            assert steps < 12, "a turn is at most three rolls, holds and a box"
            n = gp.renders()
            p.clock.run_for(1)
            p.wait_for_function(RENDERED, arg=n)
            steps += 1
        assert steps >= 1
        assert p.evaluate("Date.now()") - now == steps < PACES["normal"]["hold"]
        assert p.text_content("#announce").startswith("Bot: ")
        assert person_can_roll(gp) or p.is_visible("#over")
        if person_can_roll(gp):  # the computer's move cannot be taken back by the person
            assert p.is_disabled("#undo")
            assert p.inner_text("#ai-status").startswith("Bot scores ")  # what it scored stays in view
    finally:
        p.clock.resume()


def hurried(gp: GamePage, hurry) -> int:
    """After the computer's first step, ``hurry()``: the rest of its turn comes at once
    (1 ms a step on the paused clock). The steps it took."""
    p = gp.page
    steps = 0
    hurry()
    while p.is_visible("#ai-skip") and not p.inner_text("#hint").endswith("is thinking…"):
        assert steps < 12, "a turn is at most three rolls, holds and a box"
        n = gp.renders()
        p.clock.run_for(1)
        p.wait_for_function(RENDERED, arg=n)
        steps += 1
    return steps


def test_computer_turns_read_as_turns_of_about_a_second_and_hurry_at_a_tap(gp: GamePage):
    """Two computers after Ana, on the paused clock: the first after Ana's moment to take
    her box back, the second at the start's pace; each turn's steps wait 1.1 s at most in
    all (a turn of at most 1.2 s with the engine's six replies), the hint line telling them
    in a player's words, and what the last one
    scored stays in view on Ana's turn. Then a tap on the board (a die) and the R key
    hurry a computer's turn; the stored fast pace is faster."""
    p = gp.page
    sides = [("Ana", "human"), ("Bot A", "ai:heuristic"), ("Bot B", "ai:heuristic")]
    start(gp, "argentine", sides, seed=4, reduced=False)
    p.evaluate("generala.storage.set('generala.computer_pace', 'normal')")
    p.wait_for_function(PERSON_OR_OVER, timeout=30_000)
    gp.roll()
    pause_clock(p)
    try:
        gp.score(best_box_on_page(gp))
        p.wait_for_selector("#ai-skip", state="visible")
        for turn in range(2):
            name = p.inner_text("#hint").split(" is thinking")[0].split(". ")[-1]
            assert name in ("Bot A", "Bot B")
            waited, said = paced_turn(gp)
            assert waited <= 1100, (waited, said)
            assert said[0].endswith(f"{name} is thinking…")
            assert said[1].startswith(f"{name} rolls ")
            assert all(s.startswith(name + " ") for s in said[1:]), said
            if turn == 0:  # the next computer's hint line says what this one scored
                assert p.inner_text("#hint").startswith(f"{name} scores ")
        assert person_can_roll(gp)
        assert p.inner_text("#ai-status").startswith(("Bot A scores ", "Bot B scores ", "Bot A crosses out ",
                                                      "Bot B crosses out "))

        # Ana's next turn; then a tap on the board hurries the first computer, R the second.
        gp.roll()
        gp.score(best_box_on_page(gp))
        p.wait_for_selector("#ai-skip", state="visible")
        step_after(gp, GRACE_MS)  # its first roll
        assert p.is_disabled('#board .tray [data-die="2"]')
        # a real tap on the die (force: Playwright taps a disabled button too, as a finger does)
        assert hurried(gp, lambda: p.click('#board .tray [data-die="2"]', force=True)) >= 1
        assert p.inner_text("#hint").endswith("is thinking…")  # the next computer: not hurried
        # (its wait may have begun while the clock ran the hurried step's timer: 1 ms early)
        step_after(gp, PACES["normal"]["start"], slack=1)
        assert hurried(gp, lambda: p.keyboard.press("r")) >= 1
        assert person_can_roll(gp)

        # The fast pace: the board menu's "Fast computer" switch (stored for the next visits).
        p.click("#board-menu-btn")
        assert p.get_attribute("#pace", "aria-checked") == "false"
        p.click("#pace")
        assert p.get_attribute("#pace", "aria-checked") == "true"
        assert p.inner_text("#pace").split()[-1] == "On"
        assert p.evaluate("generala.storage.get('generala.computer_pace')") == "fast"
        p.keyboard.press("Escape")
        gp.roll()
        gp.score(best_box_on_page(gp))
        p.wait_for_selector("#ai-skip", state="visible")
        step_after(gp, GRACE_MS)  # Ana's moment, at any pace; then the computers' fast steps
        # Both computers' turns, the clock moved on 10 ms at a time (every step sent in a
        # slice is answered and drawn before the next): far less than their normal pace.
        now = p.evaluate("Date.now()")
        while not person_can_roll(gp):
            assert p.evaluate("Date.now()") - now < 4000, "the computers' turns did not end"
            p.clock.run_for(10)
            engine_round_trip(p)
        fast = p.evaluate("Date.now()") - now
        turn = PACES["fast"]  # a turn: its start, three rolls, two holds (a slice each at most)
        assert fast <= 2 * (turn["start"] + 3 * turn["roll"] + 2 * turn["hold"] + 6 * 10) < 2000, fast
    finally:
        p.evaluate("generala.storage.set('generala.computer_pace', 'normal')")
        p.clock.resume()


def test_reload_during_a_computer_turn_resumes_it(gp: GamePage):
    p = gp.page
    start(gp, "argentine", [("Bot A", "ai:optimal"), ("Bot B", "ai:beginner")], seed=9, reduced=False)
    p.wait_for_selector("#ai-skip", state="visible")
    assert p.is_hidden("#hint-btn") and p.get_attribute(".coach-toggle", "hidden") is not None  # no person plays
    p.wait_for_function("() => +document.getElementById('board').dataset.rendered > 3")
    p.reload()
    wait_ready(p)
    p.wait_for_selector("#board", state="visible")
    saved = current_save(gp)
    p.emulate_media(reduced_motion="reduce")  # the rest at once
    p.wait_for_selector("#over", state="visible", timeout=120_000)
    game = Game.from_json(current_save(gp))
    assert game.over and gp.totals() == game.totals()
    assert len(game.history) > len(saved["history"])


def test_setup_levels_and_the_note_on_games_without_a_table(gp: GamePage):
    p = gp.page
    gp.home()
    open_setup(p)
    rows = p.locator("#sides > li")
    while rows.count() < 2:
        p.click("#add-side")
    levels = rows.nth(1).locator(".player option").evaluate_all("os => os.map(o => [o.value, o.hidden])")
    assert [v for v, _ in levels] == ["human", "ai:beginner", "ai:heuristic", "ai:optimal", "ai:expert", "ai:champion"]
    assert not any(hidden for _, hidden in levels)  # expert shown: two sides
    # every variant ships its table now: no note that a strong computer is slow to start
    rows.nth(1).locator(".player").select_option("ai:optimal")
    for variant in ("argentine", "puerto-rican", "double", "bulgarian"):
        p.check(f'input[data-variant="{variant}"]')
        assert p.is_hidden("#ai-setup-note")
    p.check('input[data-variant="argentine"]')
    rows.nth(1).locator(".player").select_option("human")
    while rows.count() > 1:
        rows.last.locator(".remove").click()
    assert rows.nth(0).locator('.player option[value="ai:expert"]').evaluate("o => o.hidden")


@pytest.mark.cross_engine
def test_hint_shows_the_engines_values(gp: GamePage):
    p = gp.page
    start(gp, "argentine", [("Ana", "human")], seed=11)
    gp.roll()
    p.keyboard.press("h")
    p.wait_for_selector("#hint-dialog[open] #hint-table")
    shown = p.eval_on_selector_all(
        "#hint-table tbody tr",
        "rows => rows.map(r => [r.querySelector('th').textContent, r.children[1].textContent,"
        " r.children[2].textContent, +r.dataset.expected])")
    game = Game.from_json(current_save(gp))
    want = coach.hint(game, top=5)
    assert len(shown) == len(want) == 5
    for (text, expected, loss, raw), c in zip(shown, want):
        assert raw == pytest.approx(c["expected"], abs=1e-4)
        assert expected == f"{c['expected']:.2f}"
        assert loss == ("best" if c["loss"] < 0.005 else f"−{c['loss']:.2f}")
        if c["kind"] == "hold":
            keep = ", ".join(map(str, c["keep"]))
            assert text == (f"Keep {keep}, roll again" if keep else "Roll all the dice again")
    assert f"Dice: {', '.join(map(str, game.dice))}." in p.inner_text("#hint-body")
    p.keyboard.press("Escape")
    p.wait_for_selector("#hint-dialog", state="hidden")
    # "Play" on the best choice does it: the engine's action for it
    p.click("#hint-btn")
    p.wait_for_selector("#hint-dialog[open] #hint-table")
    best = want[0]
    n = gp.renders()
    p.click('#hint-table [data-play="0"]')
    p.wait_for_selector("#hint-dialog", state="hidden")
    p.wait_for_function(RENDERED, arg=n)
    after = Game.from_json(current_save(gp))
    if best["kind"] == "hold":
        assert after.rolls == game.rolls + 1
        assert [after.dice[i] for i in best["action"]["hold"]] == [game.dice[i] for i in best["action"]["hold"]]
    else:
        assert after.history[-1].get("score") == best["action"]["score"]


@pytest.mark.cross_engine
def test_coach_shows_the_cost_of_each_decision(gp: GamePage):
    p = gp.page
    start(gp, "argentine", [("Ana", "human")], seed=21)
    if not p.is_checked("#coach-toggle"):
        set_coach(p, True)
    coach_told(p)
    gp.roll()
    # a poor decision: the worst box with points
    game = Game.from_json(current_save(gp))
    choices = coach.hint(game, top=1000)
    bad = next(c for c in reversed(choices) if c["kind"] == "score" and not c["action"].get("scratch"))
    assert bad["loss"] > 0.01
    gp.score(bad["boxes"][0])
    p.wait_for_selector("#coach-cost:not([hidden])")
    assert float(p.get_attribute("#coach-cost", "data-cost")) == pytest.approx(bad["loss"], abs=1e-3)
    points = f"{round(bad['loss'], 2):.2f}"
    # what it cost, and the better choice (the coach's best, as its hint words it)
    better = coach.best_choice(game)
    assert p.inner_text("#coach-cost").startswith(f"That cost {points} points. Better: ")
    if better["kind"] == "score":
        name = runpy.run_path(str(Path(__file__).parents[2] / "static/ui/words/words_en.py"))["WORDS"]["box." + better["boxes"][0]]
        assert p.inner_text("#coach-cost").endswith(f" Better: Score {name}.")
    assert f"That cost {points} points. Better: " in p.text_content("#announce")
    # the best decision: the coach's first choice
    gp.roll()
    game = Game.from_json(current_save(gp))
    best = coach.hint(game, top=1)[0]
    if best["kind"] == "hold":
        for i in range(5):
            if (i in best["action"]["hold"]) != gp.held()[i]:
                gp.hold(i)
        gp.roll()
    else:
        gp.score(best["boxes"][0])
    p.wait_for_function("() => document.getElementById('coach-cost').dataset.cost < 0.005")
    assert p.inner_text("#coach-cost") == "Best move."
    set_coach(p, False)
    assert p.is_hidden("#coach-cost")


def test_house_options_table_is_solved_with_progress(gp: GamePage):
    """Puerto Rican without aces wild ships no table: the worker solves it, with progress."""
    p = gp.page
    start(gp, "puerto-rican", [("Ana", "human")], seed=5, options={"aces_wild": False})
    gp.roll()
    p.click("#hint-btn")
    p.wait_for_selector("#ai-progress:not([hidden]) >> text=/Working out the best play for these house rules: \\d+ %/",
                        timeout=20_000)
    p.wait_for_selector("#hint-dialog[open] #hint-table", timeout=180_000)
    game = Game.from_json(current_save(gp))
    want = coach.hint(game, top=5)
    shown = p.eval_on_selector_all("#hint-table tbody tr", "rows => rows.map(r => +r.dataset.expected)")
    assert shown == pytest.approx([c["expected"] for c in want], abs=1e-4)
    p.keyboard.press("Escape")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_computer_and_coach_screens_pass_axe(gp: GamePage, lang):
    """axe-core (as in test_a11y.py): a computer's turn, the hint dialog, a coach cost and
    the game report have no WCAG A/AA violation."""
    from test_a11y import AXE, check, set_lang
    if not AXE.exists():
        pytest.skip("npm install (devDependency axe-core) first")
    p = gp.page
    found: dict = {}
    gp.home()
    set_lang(p, lang)
    try:
        start(gp, "argentine", [("Ana", "human"), ("Bot", "ai:optimal")], seed=4, reduced=False)
        p.wait_for_selector("#ai-skip", state="visible")
        check(p, "computer's turn", found)
        p.keyboard.press("s")
        p.emulate_media(reduced_motion="reduce")
        p.wait_for_selector("#roll:enabled")
        if not p.is_checked("#coach-toggle"):
            set_coach(p, True)
        coach_told(p)
        gp.roll()
        p.keyboard.press("h")
        p.wait_for_selector("#hint-dialog[open] #hint-table")
        check(p, "hint dialog", found)
        p.keyboard.press("Escape")
        p.wait_for_selector("#hint-dialog", state="hidden")
        gp.score(best_box_on_page(gp))
        p.wait_for_selector("#coach-cost:not([hidden])")
        check(p, "coach cost", found)
        set_coach(p, False)
        deadline = time.monotonic() + 120
        while not p.is_visible("#over"):
            wait_person_or_over(gp, deadline)
            if person_can_roll(gp):
                gp.roll()
                gp.score(best_box_on_page(gp))
        p.click("#report-btn")
        p.wait_for_selector("#coach-report:not([hidden])")
        p.click("#coach-report details summary >> nth=0")
        check(p, "report", found)
    finally:
        set_lang(p, "en")
    assert not found, found


STORED_ENTRY = """() => {
  const id = generala.storage.get('generala.current');
  return id ? JSON.parse(generala.storage.get('generala.save.' + id)) : null;
}"""

# Seed 2422: the first roll of the game is five alike, whoever rolls it (found with the
# CPython engine: generala.app.Session, {"op": "new", ..., "seed": 2422} then one roll).
# The variants where five alike served wins at once: Argentine (a served Generala) and
# Puerto Rican (a Big General); Bulgarian and double have no such rule.
AUTO_WINS = [("argentine", "served-generala", "with a Generala on the first roll"),
             ("puerto-rican", "big-general", "with a Big General")]


@pytest.mark.parametrize("player", [cross_engine("ai:heuristic", id="computer"), "human"], ids=["computer", "person"])
@pytest.mark.parametrize("variant,kind,words", AUTO_WINS, ids=[c[0] for c in AUTO_WINS])
def test_five_alike_served_ends_the_game_for_a_computer_as_for_a_person(gp: GamePage, variant, kind, words, player):
    p = gp.page
    start(gp, variant, [("Uno", player), ("Dos", player)], seed=2422)
    if player == "human":
        gp.roll()
    p.wait_for_selector("#over", state="visible", timeout=30_000)
    gp.settled()
    assert p.is_hidden("#ai-skip") and p.is_disabled("#roll")
    assert p.inner_text("#turn-line") != "Turn 1 of 11"
    assert f"Uno wins {words}" in p.inner_text("#banner")
    assert "Uno wins!" in p.text_content("#announce")
    # the save is marked finished, with the result the engine gives
    entry = p.evaluate(STORED_ENTRY)
    assert entry is not None and entry["over"] is True
    game = Game.from_json(entry["reply"]["save"])
    assert game.over and game.auto_win == {"side": 0, "kind": kind}
    places = {name: place for name, place, _ in entry["result"]}
    assert places == {"Uno": 1, "Dos": 2}
    # and it is listed with the finished games
    gp.home()
    assert p.locator(f'#history-list [data-save="{entry["id"]}"]').count() == 1
