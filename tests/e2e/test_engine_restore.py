"""A worker that dies right after a request that changed the game: the new worker holds
exactly the game the page shows and stores, for every op that changes a game.

The ops are the engine's: those of tests/unit/every_op.py whose example answers
``"changed": true`` in CPython (the unit tests check that field over every op of
generala/app.py, and that every op has an example), so a new op that changes a game fails
``test_every_op_that_changes_a_game_is_played_here`` until a scenario below plays it.

The worker is ended (terminate() on the page's Worker object, as a crash would end it:
nothing in the page is told) the moment the answer to the request arrives; the page then
takes that answer as usual, and sends again what it had sent meanwhile. Once a new worker
took its place:

- the page's storage and its board are as they were when the worker died (when nothing
  was sent after that request), byte for byte;
- the game the new worker holds (``op view``, through the page's transport) is the stored
  game's (CPython, loaded from the stored save, or a game by link's stored record);
- the stored game is the one that request answered, and the requests sent after it played
  on it (CPython, replaying them on that answer's game);
- the next roll goes on from there, under the same stored game.

A page replaces at most one lost worker a minute (engine.mjs RESTART_WINDOW_MS): these pages
run Playwright's clock, moved a minute on after each replacement.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from e2e_support import boot, engine_round_trip
from gamepage import GamePage, leave, open_home
from sheetpage import SheetPage
from test_ai_play import best_box_on_page, start
from test_engine_transport import WORKERS
from test_link_play import HANDOVER, Device, devices  # noqa: F401 (a fixture)

from generala import app
from generala.modes import bots
from generala.ai import coach
from generala.rules.game import Game
from generala.rules.save import dump

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
from every_op import WIN_SEED, changing  # noqa: E402

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

SEED = 2 ** 53 + 1
LAZY = bots.example_source("lazy")

# Installed once a page is booted: ends the engine's worker the moment the answer to the
# request armed for arrives (window.__arm = {op, person}: with `person`, only an answer
# after which a person plays, or the game is over). Every request the page sends is kept in
# order (window.__sent, its JSON text); each end is kept in window.__killed: the op, the
# answer's reply and save texts, and the request's place in __sent.
HOOK = """() => {
  if (window.__restoreHook) return;
  window.__restoreHook = true;
  const e = generala.engine;
  window.__arm = null;
  window.__killed = [];
  window.__sent = [];
  const byId = new Map();
  const hit = (op, index, reply, save) => {
    const arm = window.__arm;
    if (!arm || arm.op !== op || typeof reply !== "string") return;
    if (arm.person) {
      const view = JSON.parse(reply).view;
      if (!view || (!view.over && view.acting && view.acting.computer)) return;
    }
    window.__arm = null;
    window.__killed.push({ op, reply, save, index });
    window.__engineWorkers[window.__engineWorkers.length - 1].terminate();
  };
  const send = e.send;
  e.send = (text) => {
    window.__sent.push(text);
    const index = window.__sent.length - 1;
    const id = send(text);
    byId.set(id, { op: JSON.parse(text).op, index });
    return id;
  };
  e.onReply((answer) => {
    const sent = byId.get(answer.id);
    byId.delete(answer.id);
    if (sent) hit(sent.op, sent.index, answer.reply, answer.save);
  });
  const request = e.request;
  e.request = (text) => {
    window.__sent.push(text);
    const index = window.__sent.length - 1;
    return request(text).then((parts) => { hit(JSON.parse(text).op, index, parts.reply, parts.save); return parts; });
  };
}"""

STORAGE = """() => Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('generala.')).sort()
  .map(k => [k, localStorage.getItem(k)]))"""
BOARD = """() => {
  const b = document.getElementById('board');
  if (!b || b.hidden) return null;
  const text = (id) => { const n = document.getElementById(id); return n ? n.innerText : null; };
  return {sheet: text('sheet'), turn: text('turn-line'), roll: text('roll'),
          dice: [...b.querySelectorAll('.tray [data-die]')].map(d => [d.dataset.face, d.getAttribute('aria-pressed')]),
          over: !!document.querySelector('#over:not([hidden])')};
}"""
# No reply on its way and the last one's save written (gamepage.SETTLED), the engine ready.
SETTLED = """() => { const b = document.getElementById('board');
  return generala.engine.state === 'ready' && !b.hasAttribute('aria-busy') && !b.hasAttribute('data-save-pending'); }"""
ERRORS = "() => [...document.querySelectorAll('#messages .msg-error .msg-text')].map(m => m.textContent)"


@pytest.fixture
def kept(context):
    """The page's engine workers kept (test_engine_transport.WORKERS), and Playwright's clock."""
    context.add_init_script(WORKERS)
    context.clock.install()


def hooked(page):
    page.evaluate(HOOK)


def arm(page, op, person=False):
    page.evaluate("([op, person]) => { window.__arm = {op, person}; }", [op, person])


def stored_game(page, reply):
    """The stored game a reply belongs to: ("save", its save document) of the board's
    stored game, or ("local", a game by link's record) (raw text parsed here: JavaScript's
    numbers would round a seed)."""
    if "local" in reply:
        text = page.evaluate("k => localStorage.getItem(k)", "generala.link." + reply["status"]["id"])
        return "local", json.loads(text)["local"]
    gid = page.evaluate("() => localStorage.getItem('generala.current')")
    text = page.evaluate("k => localStorage.getItem(k)", "generala.save." + gid)
    return "save", json.loads(text)["reply"]["save"]


def opened(kind, doc):
    """A CPython session holding that stored game."""
    session = app.Session()
    reply = session.handle({"op": "link_load", "local": doc} if kind == "local" else {"op": "load", "save": doc})
    assert reply["ok"], reply
    return session


def probe(answer):
    """What `op view` shows of a session's game: its view, or the refusal's code."""
    return answer["view"] if answer["ok"] else answer["code"]


def engine_probe(page):
    return probe(json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'view'}))")))


def restarted(page, kills):
    """The armed request was answered and its worker ended; a new one has taken its place,
    the page has taken the answer and every request sent again. Returns what was killed:
    {op, reply (parsed here), save (parsed), chain: the requests sent after it, seen: the
    storage and board once the page had taken the answer (the restart writes nothing: what
    the page sends again may)}."""
    page.wait_for_function("n => window.__killed.length >= n", arg=kills, timeout=60_000)
    page.wait_for_function(SETTLED, timeout=60_000)
    seen = page.evaluate(STORAGE), page.evaluate(BOARD)
    page.wait_for_function("n => generala.engine.restarts >= n && generala.engine.state === 'ready'", arg=kills,
                           timeout=60_000)
    page.wait_for_function(SETTLED, timeout=60_000)
    engine_round_trip(page)  # every request sent before has been answered and taken
    page.wait_for_function(SETTLED, timeout=60_000)
    page.clock.fast_forward(61_000)  # the next worker lost may be replaced too
    killed = page.evaluate("n => window.__killed[n - 1]", kills)
    chain = page.evaluate("i => window.__sent.slice(i + 1)", killed["index"])
    return {"op": killed["op"], "reply": json.loads(killed["reply"]),
            "save": None if killed["save"] is None else json.loads(killed["save"]),
            "chain": [json.loads(t) for t in chain], "seen": seen}


def check(page, killed):
    """The new worker holds the stored game, which is the one the killed request answered
    (and the requests after it played on); with nothing sent after it, the storage and the
    board are as they were when the page had taken that answer, and the board shows it."""
    reply = killed["reply"]
    assert reply["ok"], reply
    kind, stored = stored_game(page, reply)
    assert engine_probe(page) == probe(opened(kind, stored).handle({"op": "view"}))
    answered = reply["local"] if kind == "local" else killed["save"]
    if killed["chain"]:
        mirror = opened(kind, answered)
        for req in killed["chain"]:
            mirror.handle(req)
        assert (mirror.link.local() if kind == "local" else dump(mirror.game)) == stored
    else:
        assert stored == answered
        assert (page.evaluate(STORAGE), page.evaluate(BOARD)) == killed["seen"]
        board = killed["seen"][1]
        if board is not None and reply.get("view"):
            view = reply["view"]
            faces = [int(face) for face, _ in board["dice"]]
            assert faces == (view["dice"] or [0] * len(faces))  # 0: not rolled yet
            assert [held == "true" for _, held in board["dice"]] == [bool(h) for h in view["held"]]
            assert board["over"] is view["over"]
    assert page.evaluate(ERRORS) == []
    # the page said once that the engine started again: that note is put away
    notes = page.locator("#messages .msg-warn [data-dismiss]")
    while notes.count():
        notes.first.click()
    return kind, stored


def kill_after(page, op, action, kills, person=False):
    """Arm, act, and check once the new worker holds the game; the next roll then goes on
    from the stored game (when a person may roll). Returns the kills so far."""
    arm(page, op, person)
    action()
    killed = restarted(page, kills + 1)
    assert killed["op"] == op
    kind, stored = check(page, killed)
    if page.is_visible("#board") and page.is_enabled("#roll") and page.is_visible("#roll"):
        mirror = opened(kind, stored)
        gp = GamePage(page)
        gp.roll()
        page.wait_for_function(SETTLED)
        want = mirror.handle({"op": "roll"})
        assert want["ok"], want
        _, now = stored_game(page, want)
        assert now == (want["local"] if kind == "local" else want["save"])
        assert gp.dice() == want["view"]["dice"]
    return kills + 1


PLAYED = {}  # op -> the test that ends the worker right after it


def plays(*ops):
    def mark(fn):
        for op in ops:
            PLAYED[op] = fn.__name__
        return fn
    return mark


# Ops that change a game which the page never sends: a hint's choice that keeps dice is
# one request, a roll with its `hold` (the engine's op hold stays for other clients).
NOT_SENT_BY_THE_PAGE = {"hold"}


def test_every_op_that_changes_a_game_is_played_here():
    ops = changing()
    assert {"new", "roll", "win", "bot", "daily"} <= ops  # the engine says so (tests/unit/test_app_changed.py)
    assert NOT_SENT_BY_THE_PAGE <= ops
    ui = Path(__file__).resolve().parents[2] / "static" / "ui"
    for op in NOT_SENT_BY_THE_PAGE:
        sent = [p.name for p in ui.rglob("*.py") if re.search(r"[\"']op[\"']\s*:\s*[\"']" + op + r"[\"']", p.read_text(encoding="utf-8"))]
        assert sent == [], (op, sent)
    assert ops - NOT_SENT_BY_THE_PAGE <= set(PLAYED), sorted(ops - NOT_SENT_BY_THE_PAGE - set(PLAYED))


@pytest.mark.cross_engine
@plays("new", "roll", "toggle", "score", "undo", "win", "again", "load", "daily", "enter")
def test_a_persons_games_are_held_by_the_new_worker(page, kept):
    boot(page)
    hooked(page)
    page.emulate_media(reduced_motion="reduce")
    gp = GamePage(page)
    # (after each, the next roll: here the turn's first)
    kills = kill_after(page, "new", lambda: gp.new_game("argentine", ("Ana",), seed=SEED), 0)
    kills = kill_after(page, "toggle", lambda: gp.hold(0), kills)  # then the turn's second roll
    kills = kill_after(page, "roll", gp.roll, kills)  # the third: no roll after it
    kills = kill_after(page, "undo", lambda: (gp.score(best_box_on_page(gp)), gp.undo()), kills)
    kills = kill_after(page, "score", lambda: gp.score(best_box_on_page(gp)), kills)  # then the next turn's roll
    # a hint's choice that holds dice: its one request, a roll with the dice it keeps
    gp.roll()
    page.wait_for_function(SETTLED)
    _, stored = stored_game(page, {})
    choices = coach.hint(Game.from_json(stored), top=5)
    hold = next(i for i, c in enumerate(choices) if "hold" in c["action"])

    def play_hint():
        page.keyboard.press("h")
        page.click(f'#hint-dialog[open] [data-play="{hold}"]')
    kills = kill_after(page, "roll", play_hint, kills)
    # the automatic win, taken (a house option makes it a choice): the game is over
    gp.new_game("argentine", ("Ana",), seed=WIN_SEED, options={"served_win_choice": True})
    gp.roll()
    page.wait_for_selector("#take-win:visible")
    kills = kill_after(page, "win", lambda: gp._after(lambda: page.click("#take-win")), kills)
    assert page.is_visible("#over")
    shared = json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'share'}))"))
    assert shared["ok"], shared  # the game in the worker is over: its link is given
    kills = kill_after(page, "again", lambda: gp._after(lambda: page.click("#again")), kills)
    # the first game, continued from the home screen's list
    open_home(page)
    item = page.locator("#continue-list > li", has_text="Ana").first
    kills = kill_after(page, "load", lambda: gp._after(lambda: item.locator("[data-continue]").click()), kills)
    # today's challenge: the next roll is the challenge's, stored under its own save
    open_home(page)
    page.wait_for_selector("#daily-picker[data-ready]")
    kills = kill_after(page, "daily", lambda: gp._after(lambda: page.click("#play-daily")), kills)
    _, stored = stored_game(page, {})
    assert stored["daily"]["late"] is False and len(stored["history"]) == 1  # the roll after it
    # a score-sheet game's dice entered
    sp = SheetPage(page)
    sp.new_game("argentine", ("Ana", "Beto"))
    kills = kill_after(page, "enter", lambda: sp.enter([4, 4, 1, 2, 6], at=2), kills)
    assert [k["op"] for k in page.evaluate("window.__killed")] == [
        "new", "toggle", "roll", "undo", "score", "roll", "win", "again", "load", "daily", "enter"]


@pytest.mark.cross_engine
@plays("ai", "bot")
def test_a_computers_and_a_bots_turns_are_held_by_the_new_worker(page, kept, context):
    # a saved bot, as the Bot lab keeps it (not on about:blank: Firefox refuses its storage)
    context.add_init_script("try { localStorage.getItem('generala.bots') || localStorage.setItem('generala.bots', "
                            + json.dumps(json.dumps([{"name": "Lazy", "code": LAZY}])) + "); } catch (e) {}")
    boot(page)
    hooked(page)
    gp = GamePage(page)
    # the computer's step that ends its turn (it plays first with seed 2; then Ana plays)
    kills = kill_after(page, "ai", lambda: start(gp, "argentine", [("Ana", "human"), ("Bot", "ai:beginner")], seed=2),
                       0, person=True)
    # a saved bot's move that ends its turn
    kills = kill_after(page, "bot", lambda: start(gp, "argentine", [("Ana", "human"), ("Lazy", "bot:Lazy")], seed=2),
                       kills, person=True)
    _, stored = stored_game(page, {})
    assert any(side.get("bot") for side in stored["sides"])
    assert [k["op"] for k in page.evaluate("window.__killed")] == ["ai", "bot"]


@plays("link_new", "link_join", "link_open", "link_send", "link_load")
def test_a_game_by_link_is_held_by_the_new_worker(devices):
    ana, beto = devices(), devices()
    for d in (ana, beto):
        d.context.add_init_script(WORKERS)
        d.context.clock.install()
    ana.boot()
    hooked(ana.page)
    invitations = []
    kills = {ana: kill_after(ana.page, "link_new",
                             lambda: invitations.extend(ana.start("argentine", "Ana", ["human"])), 0)}
    beto.boot(invitations[0])
    hooked(beto.page)
    beto.page.wait_for_selector("#linkplay:not([hidden])[data-state=join]")
    beto.page.fill("#link-name", "Beto")
    kills[beto] = kill_after(beto.page, "link_join", lambda: beto.page.click("#link-join-btn"), 0)
    join = beto.link()
    kills[ana] = kill_after(ana.page, "link_open", lambda: ana.open(join), kills[ana])
    # the device whose turn it is plays it and hands the game on: the link it sends (when
    # Beto plays first, Ana's hand-over came with link_open: Beto opens its link first)
    mover = ana
    if ana.state() == "handover":
        beto.open(ana.link())
        mover = beto
    kills[mover] = kill_after(mover.page, "link_send", mover.play_until_handover, kills[mover])
    # the game opened again from the home screen's list of games by link
    leave_to_home(ana)
    kills[ana] = kill_after(ana.page, "link_load", lambda: ana.page.click("#link-list [data-link-open]"), kills[ana])
    ops = [k["op"] for d in (ana, beto) for k in d.page.evaluate("window.__killed")]
    assert sorted(ops) == sorted(["link_new", "link_join", "link_open", "link_send", "link_load"])


def leave_to_home(device):
    """The home screen's list of games by link (test_link_play's way there)."""
    if device.state() is not None:
        device.page.click('#linkplay [data-link="home"]')
    else:
        leave(device.page)
    device.page.wait_for_selector("#link-list [data-link-open]")
