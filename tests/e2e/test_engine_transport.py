"""The page's transport to the engine worker (static/js/engine.mjs, engine-worker.mjs).

- Every answer reaches its own request, and the worker takes requests strictly in the
  order they were sent: a request that waits for a value table's download holds up the
  ones behind it (the person's Undo sent while the computer's first step waits for its
  table is taken after that step: refused, as the computer has rolled).
- A worker that dies mid-game is replaced by a new one holding the same game (the coach
  switch and a replay too), the requests still unanswered are sent again, and the
  player is told once; the game then ends as it would have. A worker that keeps dying
  takes the engine-failed path.

The worker is ended the way a crash would end it, with nothing in the page told:
`self.close()` run inside it (Playwright's workers, Chromium), or terminate() on the
page's Worker object (kept by WORKERS below: Playwright's Worker.evaluate does not reach
Firefox's workers over WebDriver BiDi). Value tables are held with `context.route`
until the test lets them go.
"""
from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest
from e2e_support import boot, first_game_prepared, poll, wait_ready
from gamepage import RENDERED, GamePage, pick_lang, set_coach
from test_embed import blog, game_frame  # noqa: F401 (a fixture)
from test_ai_play import CURRENT_SAVE, best_box_on_page, current_save, start

from generala import Game, app
from generala.ai import coach

# Every guarded page keeps its engine workers (the page's Worker objects) in
# window.__engineWorkers, last started last.
WORKERS = """
(() => {
  const Native = globalThis.Worker;
  if (!Native || Native.__generalaKept) return;
  const kept = [];
  Object.defineProperty(window, "__engineWorkers", { value: kept });
  class Kept extends Native {
    constructor(url, options) {
      super(url, options);
      if (options && options.name === "generala-engine") kept.push(this);
    }
  }
  Object.defineProperty(Kept, "__generalaKept", { value: true });
  globalThis.Worker = Kept;
})();
"""

# The ops the page has sent to the engine (whatever the transport's method).
RECORD_SENT = """() => {
  const e = generala.engine;
  window.__sent = [];
  for (const name of ["send", "request"]) {
    const inner = e[name];
    if (typeof inner !== "function") continue;
    e[name] = (text) => { try { window.__sent.push(JSON.parse(text).op); } catch (err) {} return inner(text); };
  }
}"""

# End the current engine worker right after the page sends its `nth` request of op `op`
# (then that request is surely unanswered): terminate() on the Worker object. What the
# page had stored then is kept in window.__ended.
END_AFTER_SEND = """([op, nth]) => {
  const e = generala.engine;
  const inner = e.send;
  let seen = 0;
  window.__ended = null;
  e.send = (text) => {
    const id = inner(text);
    if (window.__ended === null && JSON.parse(text).op === op && ++seen === nth) {
      window.__engineWorkers[window.__engineWorkers.length - 1].terminate();
      const gid = generala.storage.get("generala.current");
      const entry = gid && JSON.parse(generala.storage.get("generala.save." + gid));
      window.__ended = {op, id, restarts: e.restarts, save: entry ? entry.reply.save : null};
    }
    return id;
  };
}"""

ROOT = Path(__file__).resolve().parents[2]
WORDS_ES = runpy.run_path(str(ROOT / "static/ui/words/words_es.py"))["WORDS"]
MESSAGES = "() => [...document.querySelectorAll('#messages .msg')].map(m => [m.className, m.querySelector('.msg-text').textContent])"
RESTARTED = "The game engine stopped and was started again; the game goes on where it was, nothing is lost."


class Held:
    """Downloads of `pattern` (by default the value tables, static/tables/*.gvt), held
    until `release()`. The win chances are switched off for the value tables: the board
    would otherwise ask for the table itself at the game's start (its chances row), and
    the request under test would not be the first to need it."""

    def __init__(self, context, pattern="**/static/tables/*.gvt"):
        self.held = []
        self.seen = 0
        self.open = False
        if "tables" in pattern:
            context.add_init_script("localStorage.setItem('generala.chances', '0')")
        context.route(pattern, self._route)

    def _route(self, route):
        self.seen += 1
        if self.open:
            route.continue_()
        else:
            self.held.append(route)

    def wait(self, page, count=1, timeout_ms=30_000):
        """Until `count` downloads have been asked for (Playwright delivers routes while it waits)."""
        poll(page, lambda: self.seen >= count, timeout_ms / 1000, f"{count} download(s) asked for")

    def release(self):
        self.open = True
        for route in self.held:
            try:
                route.continue_()
            except Exception:  # its worker is gone: nobody waits for it
                pass
        self.held.clear()


@pytest.fixture
def kept(context):
    context.add_init_script(WORKERS)


def end_worker(page, browser_name):
    """End the engine's current worker from inside (self.close(), Chromium) or by its page
    object (terminate(), Firefox): either way the page's code is told nothing."""
    if browser_name == "chromium":
        workers = [w for w in page.workers if "engine-worker" in w.url]
        assert workers, [w.url for w in page.workers]
        try:
            workers[-1].evaluate("self.close()")
        except Exception:  # the worker may be gone before it answers
            pass
    else:
        page.evaluate("window.__engineWorkers[window.__engineWorkers.length - 1].terminate()")


def messages(page):
    return page.evaluate(MESSAGES)


def mirror_of(save_doc):
    """A CPython session holding the game of a save."""
    session = app.Session()
    assert session.handle({"op": "load", "save": save_doc})["ok"]
    return session


def engine_view(page):
    reply = json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'view'}))"))
    assert reply["ok"], reply
    return reply["view"]


def assert_stored_is_the_engines(gp):
    """The game stored for this board is the one the engine holds."""
    save = current_save(gp)
    assert engine_view(gp.page) == mirror_of(save).handle({"op": "view"})["view"]
    return save


def sides(*pairs):
    return [{"name": name, "members": [], "player": player} for name, player in pairs]


# --- one request at a time, each answer to its own request ----------------------------

def test_an_undo_sent_while_the_computers_first_step_loads_its_table_comes_after_it(page):
    """The person fills a box; the optimal computer's first step asks for its value table,
    whose download is held; in that moment the person presses Undo (still offered). The
    worker takes the Undo after the step: the computer has rolled, so the Undo is refused,
    in the page's words of that refusal (the engine's English goes to the console only),
    and nothing else is said (before, the Undo overtook the step, each answer went to the
    other's callback, and the page said "Ana is played by a person")."""
    tables = Held(page.context)
    boot(page)
    gp = GamePage(page)
    players = [("Ana", "human"), ("Bot", "ai:optimal")]
    start(gp, "argentine", players, seed=7)  # Ana plays first
    page.evaluate(RECORD_SENT)
    console = []
    page.on("console", lambda msg: console.append((msg.type, msg.text)))
    gp.roll()
    box = best_box_on_page(gp)
    gp.score(box)
    assert gp.current() == 1 and page.is_enabled("#undo")  # the moment before the computer starts
    before = messages(page)
    tables.wait(page)  # the computer's first step is on its way and waits for its table
    assert page.evaluate("window.__sent.slice(-1)") == ["ai"]
    assert page.is_enabled("#undo")
    page.click("#undo")
    page.wait_for_function("() => window.__sent.includes('undo')")
    tables.release()
    gp.settled()

    # What the engine says, step by step, in CPython.
    mirror = app.Session()
    mirror.handle({"op": "new", "variant": "argentine", "sides": sides(*players), "seed": 7})
    mirror.handle({"op": "roll"})
    assert mirror.handle({"op": "score", "box": box})["ok"]
    stepped = mirror.handle({"op": "ai"})
    assert stepped["ok"] and stepped["action"] == {"roll": None}
    refused = mirror.handle({"op": "undo"})
    assert not refused["ok"] and refused["kind"] == "IllegalAction" and refused["code"] == "undo.roll"

    told = messages(page)[len(before):]
    assert [text for _, text in told] == ["A roll cannot be undone: its dice are final."], told  # refusal.undo.roll
    assert refused["error"] not in page.inner_text("body")
    assert [kind for kind, text in console if "undo.roll" in text and refused["error"] in text] == ["info"], console
    assert not any("played by a person" in text for _, text in messages(page))
    assert page.is_disabled("#undo")
    # Ana's box stays filled; the computer plays its turn on, and the game comes back to Ana.
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_selector("#roll:enabled", timeout=60_000)
    gp.settled()
    assert gp.current() == 0
    while mirror.game.sides[mirror.game.current].player != "human":
        assert mirror.handle({"op": "ai"})["ok"]
    save = assert_stored_is_the_engines(gp)
    assert Game.from_json(save).history == mirror.game.history
    assert gp.cell(box, 0) != ""


# --- a worker that dies ------------------------------------------------------------------

def restarted_once(page, text=RESTARTED, timeout_ms=30_000):
    """The player was told once that the engine started again, and nothing else went wrong."""
    page.wait_for_function("t => [...document.querySelectorAll('#messages .msg-text')].some(m => m.textContent === t)",
                           arg=text, timeout=timeout_ms)
    told = messages(page)
    assert [m for m in told if m[1] == text] == [["msg msg-warn", text]], told
    assert not [m for m in told if "msg-error" in m[0]], told
    assert page.evaluate("generala.engine.restarts") == 1
    assert page.evaluate("generala.engine.state") == "ready"


def test_a_worker_lost_in_a_computers_turn_is_replaced_and_the_game_ends_as_it_would_have(page, kept):
    boot(page)
    gp = GamePage(page)
    players = [("Bot A", "ai:heuristic"), ("Bot B", "ai:beginner")]
    # The worker ends right after the page sends the computers' third step: with seed 9, Bot B
    # has rolled and held, and this step (a roll) is on its way, in the middle of its turn.
    page.evaluate(END_AFTER_SEND, ["ai", 3])
    start(gp, "argentine", players, seed=9, reduced=False)  # paced: a step every 600 ms
    restarted_once(page)
    ended = page.evaluate("window.__ended")
    assert ended["op"] == "ai" and ended["restarts"] == 0

    # The same game in CPython, to its end.
    mirror = app.Session()
    mirror.handle({"op": "new", "variant": "argentine", "sides": sides(*players), "seed": 9})
    while not mirror.game.over:
        assert mirror.handle({"op": "ai"})["ok"]
    history = mirror.game.history
    assert ended["save"]["history"] == history[:3]  # the roll-off, Bot B's roll and hold
    assert "hold" in history[2] and "roll" in history[3]

    page.emulate_media(reduced_motion="reduce")  # the rest at once
    page.wait_for_selector("#over", state="visible", timeout=120_000)
    save = assert_stored_is_the_engines(gp)
    game = Game.from_json(save)
    assert game.history == history  # no step lost, none played twice
    assert gp.totals() == game.totals()
    assert page.evaluate("generala.engine.restarts") == 1


def test_a_worker_lost_while_a_hint_waits_for_its_table_is_replaced_and_the_hint_comes(page, kept, browser_name):
    tables = Held(page.context)
    boot(page)
    gp = GamePage(page)
    start(gp, "argentine", [("Ana", "human"), ("Bot", "ai:beginner")], seed=7)
    gp.roll()
    before = current_save(gp)
    page.keyboard.press("h")  # a hint: the engine needs the rules' value table, held
    tables.wait(page)
    assert page.get_attribute("#hint-btn", "aria-busy") == "true"  # its request is on its way
    end_worker(page, browser_name)
    restarted_once(page)
    tables.release()  # the new worker asks for the table again
    page.wait_for_selector("#hint-dialog[open] #hint-table")
    assert tables.seen == 2
    shown = page.eval_on_selector_all("#hint-table tbody tr", "rows => rows.map(r => +r.dataset.expected)")
    want = coach.hint(Game.from_json(before), top=len(shown))
    assert shown == pytest.approx([c["expected"] for c in want], abs=1e-4)
    page.keyboard.press("Escape")
    page.wait_for_selector("#hint-dialog", state="hidden")

    # The game plays on from where it was: the same dice, then a box filled.
    assert assert_stored_is_the_engines(gp) == before
    box = best_box_on_page(gp)
    gp.score(box)
    mirror = mirror_of(before)
    assert mirror.handle({"op": "score", "box": box})["ok"]
    assert Game.from_json(assert_stored_is_the_engines(gp)).history[:len(mirror.game.history)] == mirror.game.history
    assert len([m for m in messages(page) if m[1] == RESTARTED]) == 1


def test_the_coach_switch_and_its_table_come_back_in_the_new_worker(page, kept):
    """With the coach on, the worker ends just after a person's move is sent: the new
    worker has the coach on and the rules' table loaded again, so the move, sent again,
    comes back with its cost (the engine's, as in CPython)."""
    boot(page)
    gp = GamePage(page)
    start(gp, "argentine", [("Ana", "human")], seed=21)
    page.evaluate("""() => { const e = generala.engine, inner = e.request; window.__answered = [];
        e.request = (text) => inner(text).then((parts) => { window.__answered.push(JSON.parse(text).op); return parts; }); }""")
    set_coach(page, True)
    # the coach's switch: off, a hint that loads the table, on
    page.wait_for_function("() => window.__answered.filter(op => op === 'coach').length === 2")
    gp.roll()
    before = current_save(gp)
    choices = coach.hint(Game.from_json(before), top=1000)
    bad = next(c for c in reversed(choices) if c["kind"] == "score" and not c["action"].get("scratch"))
    box = bad["boxes"][0]
    page.evaluate(END_AFTER_SEND, ["score", 1])
    gp.score(box)
    restarted_once(page)
    assert page.evaluate("window.__ended.op") == "score"
    mirror = mirror_of(before)
    mirror.handle({"op": "coach", "on": True})
    scored = mirror.handle({"op": "score", "box": box})
    assert scored["cost"] > 0.01
    page.wait_for_selector("#coach-cost:not([hidden])")
    assert float(page.get_attribute("#coach-cost", "data-cost")) == pytest.approx(scored["cost"], abs=1e-3)
    assert Game.from_json(assert_stored_is_the_engines(gp)).history == mirror.game.history


def test_the_new_worker_holds_the_game_the_coach_and_the_replay_the_old_one_held(page, kept, browser_name):
    """Straight through the transport: a game, the coach on, a replay opened at a step; the
    worker ends with nothing on its way; the next requests find all of it in the new one."""
    boot(page)
    first_game_prepared(page)  # the page's own `new` done: the engine's game is the test's now

    def call(req):
        return json.loads(page.evaluate("(t) => generala.engine.call(t)", json.dumps(req)))

    # a finished game to replay (CPython), and a game in play in the worker
    done = app.Session()
    done.handle({"op": "new", "variant": "argentine", "sides": sides(("A", "ai:beginner"), ("B", "ai:beginner")),
                 "seed": 5})
    while not done.game.over:
        done.handle({"op": "ai"})
    finished = done.game.to_json()
    mirror = app.Session()
    for req in ({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 3}, {"op": "roll"},
                {"op": "toggle", "die": 0}, {"op": "roll"}, {"op": "replay", "save": finished},
                {"op": "replay_at", "step": 5}, {"op": "coach", "on": True}):
        got = call(req)
        assert got["ok"], got
        assert mirror.handle(req)["ok"]
    end_worker(page, browser_name)
    restarted_once(page)
    assert call({"op": "view"})["view"] == mirror.handle({"op": "view"})["view"]
    assert call({"op": "replay_at", "step": 6})["view"] == mirror.handle({"op": "replay_at", "step": 6})["view"]
    rolled = call({"op": "roll"})  # the turn's third roll: the coach prices it
    want = mirror.handle({"op": "roll"})
    assert rolled["view"] == want["view"] and rolled["save"] == want["save"]
    assert rolled["cost"] == pytest.approx(want["cost"], abs=1e-6)


def test_a_game_by_link_is_restarted_in_the_new_worker_from_its_record(page, kept, browser_name):
    """A game by link in the worker (op link_load, then a roll): the worker ends; the new one
    holds the same game by link (link_load of the last reply's record), so the next moves
    answer the same view, dice and record as in CPython."""
    boot(page)
    first_game_prepared(page)  # the page's own `new` done: the engine's game is the test's now

    def call(req):
        return json.loads(page.evaluate("(t) => generala.engine.call(t)", json.dumps(req)))

    # Ana and Beto joined, in CPython; the device whose turn it is plays in the page
    sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
    ana, beto = app.Session(), app.Session()
    made = ana.handle({"op": "link_new", "variant": "argentine", "sides": sides, "entropy": "5a" * 48})
    joined = beto.handle({"op": "link_join", "token": made["invitations"][0]["token"], "name": "Beto",
                          "entropy": "c3" * 32})
    opened = ana.handle({"op": "link_open", "token": joined["link"], "local": made["local"]})
    local = opened["local"]
    if not opened["status"]["mine"]:
        start = ana.handle({"op": "link_send"})
        local = beto.handle({"op": "link_open", "token": start["link"], "local": joined["local"]})["local"]
    mirror = app.Session()
    for req in ({"op": "link_load", "local": local}, {"op": "roll"}, {"op": "toggle", "die": 0}):
        got, want = call(req), mirror.handle(req)
        assert got["ok"] and want["ok"], got
    assert got["local"] == want["local"] and got["status"]["mine"]
    end_worker(page, browser_name)
    restarted_once(page)
    assert call({"op": "view"})["view"] == mirror.handle({"op": "view"})["view"]
    rolled, want = call({"op": "roll"}), mirror.handle({"op": "roll"})  # the dice drawn from the record
    assert rolled["ok"] and rolled["view"] == want["view"]
    assert rolled["local"] == want["local"] and rolled["status"] == want["status"]


WORDS_EN = runpy.run_path(str(ROOT / "static/ui/words/words_en.py"))["WORDS"]
# The hold of die 1 as drawn now, and whether die 1 and Roll take a click.
BOARD_STATE = """() => { const die = document.querySelector('#board .tray [data-die="1"]');
  return {held: die.getAttribute('aria-pressed'), die: !die.disabled, roll: !document.getElementById('roll').disabled}; }"""


@pytest.mark.parametrize("when,lang", [("while it starts", "en"), ("soon after it is ready", "es")])
def test_a_worker_that_keeps_dying_takes_the_engine_failed_path(page, guard, kept, browser_name, when, lang):
    """Workers that keep dying: one note in the player's language (the restart's note
    gone, no English on the page: the reason is on the console), the board disabled and
    showing the engine's last answer (a die tapped as the engine failed is not drawn
    held), and a reload plays on from the stored game."""
    guard.allow(r"^console error: The game engine stopped: the engine worker stopped")
    words = WORDS_ES if lang == "es" else WORDS_EN
    boot(page)
    gp = GamePage(page)
    if lang != "en":
        pick_lang(page, lang)
    start(gp, "argentine", [("Ana", "human")], seed=3)
    gp.roll()
    before = current_save(gp)
    if when == "while it starts":
        engine = Held(page.context, "**/generala.lazy.zip")  # the new worker's boot waits for it
    end_worker(page, browser_name)
    page.wait_for_function("() => generala.engine.restarts === 1")
    if when == "while it starts":
        engine.wait(page)
    else:
        page.wait_for_function("() => window.__engineWorkers.length === 2")
        gp.roll()  # answered by the new worker
        assert Game.from_json(current_save(gp)).rolls == 2
    stored = current_save(gp)
    assert page.evaluate(BOARD_STATE) == {"held": "false", "die": True, "roll": True}
    page.evaluate(END_AFTER_SEND, ["toggle", 1])
    page.click('#board .tray [data-die="1"]')  # this hold's worker ends too: no new worker this time
    page.wait_for_selector("html[data-state=error]")
    page.wait_for_function("() => !document.getElementById('board').hasAttribute('aria-busy')")
    page.wait_for_selector('#board .tray [data-die="1"]:disabled')
    assert page.evaluate(BOARD_STATE) == {"held": "false", "die": False, "roll": False}
    assert messages(page) == [["msg msg-error stacked", words["msg.engine_stopped"]]]
    assert page.is_visible("#engine-reload")
    assert page.locator("#boot-error").count() == 0 or page.is_hidden("#boot-error")
    assert "engine worker" not in page.inner_text("body")
    assert page.inner_text("#hint").strip() == ""  # no "starting the engine" either
    page.click('#board .tray [data-die="2"]', force=True)  # disabled: nothing is drawn or sent
    assert page.evaluate(BOARD_STATE)["held"] == "false"
    assert page.evaluate("generala.engine.restarts") == 1
    # Nothing of the game is lost: it is stored as the engine last answered, and a reload
    # (the note's button) plays it on.
    assert page.evaluate(CURRENT_SAVE) == stored
    if when == "while it starts":
        assert stored == before
        engine.release()
    else:
        assert Game.from_json(stored).rolls == 2
    with page.expect_navigation():
        page.click("#engine-reload")
    wait_ready(page)
    page.wait_for_selector("#board", state="visible")
    assert engine_view(page) == mirror_of(stored).handle({"op": "view"})["view"]
    gp.hold(1)
    assert gp.held()[1] is True
    assert messages(page) == []


@pytest.mark.only_chromium(
    "only Playwright's Chromium denies the cross-site frame its storage, and with it Web Locks (Firefox"
    " partitions it: the frame's worker is watched by its lock, as above); and Playwright 1.64 over BiDi"
    " hangs on actions inside the frame in Firefox 153 (test_embed.py)")
def test_in_a_frame_without_web_locks_a_lost_worker_is_found_by_pings(page, blog, kept):
    host_url, game_url = blog  # the game in Spanish, in a cross-site iframe
    page.goto(host_url)
    game = game_frame(page, game_url)
    wait_ready(game)
    assert game.evaluate("generala.engine.lifeline") == "ping"
    gp = GamePage(game)
    gp.new_game(variant="argentine", names=("Ana",), seed=7)
    gp.roll()
    before = game.evaluate(CURRENT_SAVE)
    game.evaluate(END_AFTER_SEND, ["roll", 1])
    n = gp.renders()
    warnings = []
    page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    game.click("#roll")
    # no answer to 8 pings in a row (a second apart): the worker is taken for lost, and
    # replaced; the page says why in the console (not the time it took: a loaded
    # machine's timers run late)
    restarted_once(game, WORDS_ES["msg.engine_restarted"])
    [why] = [w for w in warnings if w.startswith("the engine worker stopped (")]
    assert why.startswith("the engine worker stopped (8 pings in a row unanswered) with 1 request(s) unanswered (roll)"), why
    game.wait_for_function(RENDERED, arg=n, timeout=30_000)
    mirror = mirror_of(before)
    rolled = mirror.handle({"op": "roll"})
    assert gp.dice() == rolled["view"]["dice"]
    assert game.evaluate(CURRENT_SAVE) == json.loads(json.dumps(mirror.game.to_json()))


def test_a_page_kept_in_the_back_forward_cache_comes_back_with_its_worker_watched(page, browser_name, base_url):
    """Firefox keeps no page whose worker holds a Web Lock in its back/forward cache: the
    worker lets its lock go as the page is left (beforeunload), and takes a new one when
    the page comes back."""
    if browser_name == "chromium":
        pytest.skip("Playwright starts Chromium with --disable-back-forward-cache (a held lock does not keep"
                    " Chromium's cache from a page: measured with that switch left out)")
    page.add_init_script("addEventListener('pageshow', (e) => { window.__shown = (window.__shown || []).concat([e.persisted]); })")
    boot(page)
    assert page.evaluate("generala.engine.lifeline") == "lock"
    gp = GamePage(page)
    start(gp, "argentine", [("Ana", "human")], seed=3)
    gp.roll()
    page.evaluate("window.__kept = true")
    page.goto(base_url + "/version.json")
    page.evaluate("setTimeout(() => history.back(), 0)")
    page.wait_for_function("() => window.__kept === true && (window.__shown || []).includes(true)")
    page.wait_for_function("() => generala.engine.lifeline === 'lock'")  # a new lock, watched again
    # (Playwright over BiDi waits for a navigation that a page from that cache never ends:
    # the roll is clicked from script)
    n = gp.renders()
    page.evaluate("document.getElementById('roll').click()")
    page.wait_for_function(RENDERED, arg=n)
    assert Game.from_json(page.evaluate(CURRENT_SAVE)).rolls == 2
    assert page.evaluate("generala.engine.restarts") == 0
