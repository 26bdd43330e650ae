"""The page's transport to the engine worker (static/js/engine.mjs, engine-worker.mjs).

Every answer reaches its own request, and the worker takes requests strictly in the
order they were sent: a request that waits for a value table's download holds up the
ones behind it (the person's Undo sent while the computer's first step waits for its
table is taken after that step: refused, as the computer has rolled). Value tables are
held with `context.route` until the test lets them go.
"""
from __future__ import annotations

import json

from e2e_support import boot
from gamepage import GamePage
from test_ai_play import best_box_on_page, current_save, settled, start

from generala import Game, app

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

MESSAGES = "() => [...document.querySelectorAll('#messages .msg')].map(m => [m.className, m.querySelector('.msg-text').textContent])"


class Held:
    """Downloads of `pattern` (by default the value tables, static/tables/*.gvt), held
    until `release()`."""

    def __init__(self, context, pattern="**/static/tables/*.gvt"):
        self.held = []
        self.seen = 0
        self.open = False
        context.route(pattern, self._route)

    def _route(self, route):
        self.seen += 1
        if self.open:
            route.continue_()
        else:
            self.held.append(route)

    def wait(self, page, count=1, timeout_ms=30_000):
        """Until `count` downloads have been asked for (Playwright delivers routes while it waits)."""
        for _ in range(timeout_ms // 50):
            if self.seen >= count:
                return
            page.wait_for_timeout(50)
        raise AssertionError(f"no request held after {timeout_ms} ms")

    def release(self):
        self.open = True
        for route in self.held:
            try:
                route.continue_()
            except Exception:  # its worker is gone: nobody waits for it
                pass
        self.held.clear()


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
    in the engine's words, and nothing else is said (before, the Undo overtook the step,
    each answer went to the other's callback, and the page said "Ana is played by a
    person")."""
    tables = Held(page.context)
    boot(page)
    gp = GamePage(page)
    players = [("Ana", "human"), ("Bot", "ai:optimal")]
    start(gp, "argentine", players, seed=7)  # Ana plays first
    page.evaluate(RECORD_SENT)
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
    settled(gp)

    # What the engine says, step by step, in CPython.
    mirror = app.Session()
    mirror.handle({"op": "new", "variant": "argentine", "sides": sides(*players), "seed": 7})
    mirror.handle({"op": "roll"})
    assert mirror.handle({"op": "score", "box": box})["ok"]
    stepped = mirror.handle({"op": "ai"})
    assert stepped["ok"] and stepped["action"] == {"roll": None}
    refused = mirror.handle({"op": "undo"})
    assert not refused["ok"] and refused["kind"] == "IllegalAction"

    told = messages(page)[len(before):]
    assert [text for _, text in told] == [refused["error"]], told
    assert not any("played by a person" in text for _, text in messages(page))
    assert page.is_disabled("#undo")
    # Ana's box stays filled; the computer plays its turn on, and the game comes back to Ana.
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_selector("#roll:enabled", timeout=60_000)
    settled(gp)
    assert gp.current() == 0
    while mirror.game.sides[mirror.game.current].player != "human":
        assert mirror.handle({"op": "ai"})["ok"]
    save = assert_stored_is_the_engines(gp)
    assert Game.from_json(save).history == mirror.game.history
    assert gp.cell(box, 0) != ""
