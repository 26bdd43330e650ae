"""Page object for the game UI, a CPython mirror of the engine, and a shared booted page.

GamePage drives the board through stable selectors (data-die="0", data-box="fours",
#roll); every action waits until the board has drawn the engine's reply (the board
counts its renders in data-rendered). Mirror plays the same actions on
`generala.app.Session` in CPython, so a test can compare what the page shows
with what the engine computes.
"""
from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
from e2e_support import STATE_LOG_SCRIPT, STILL_DICE, Guard, boot

from generala import app

# Drawn at least once more, and no engine reply still on its way.
RENDERED = ("n => { const b = document.getElementById('board');"
            " return +(b.dataset.rendered || 0) > n && !b.hasAttribute('aria-busy'); }")
# No engine reply on its way and the last one's save written (the board is saved a task
# after it is drawn, and carries data-save-pending until then: saved_games.py).
SETTLED = ("() => { const b = document.getElementById('board');"
           " return !b.hasAttribute('aria-busy') && !b.hasAttribute('data-save-pending'); }")


def board_menu(page, action: str):
    """Choose ``action`` ("home", "rules", "records") in the board's menu."""
    page.click("#board-menu-btn")
    page.click(f'#board-menu [data-action="{action}"]')


def pick_lang(page, code: str):
    """Choose the page's language: in the board's menu on the board, else in the site
    header's picker."""
    if page.is_visible("#board"):
        if not page.is_visible("#board-menu"):
            page.click("#board-menu-btn")
        page.select_option("#board-lang", code)
    else:
        page.select_option("#lang-pick", code)
    page.wait_for_function("l => document.documentElement.lang === l", arg=code)


def set_coach(page, on: bool = True):
    """The coach's switch, in the board's menu (the menu closed again after)."""
    page.click("#board-menu-btn")
    page.set_checked("#coach-toggle", on)
    page.keyboard.press("Escape")
    page.wait_for_selector("#board-menu", state="hidden")


def leave(page):
    """Back to the home screen: from the board through its menu, from another screen
    through the site header's Games."""
    if page.is_visible("#board"):
        if page.is_visible("#handover"):  # hot-seat: the next person took the device
            page.click("#handover-ok")
        board_menu(page, "home")
    elif page.is_visible("#nav-home"):
        page.click("#nav-home")


def open_setup(page, mode="custom"):
    """The home screen's setup form: "custom" (everything) or "hotseat" (the game and
    the players). The play choices are the home screen's first panel."""
    leave(page)
    if page.get_attribute("#home", "data-panel") != "setup" or page.get_attribute("#setup", "data-mode") != mode:
        if page.get_attribute("#home", "data-panel") != "main":
            page.click("#home [data-home-panel=main] >> visible=true")
        page.click(f"#play-{mode}")
    page.wait_for_selector("#setup", state="visible")


def open_home(page):
    """The home screen's play choices (with the games to continue)."""
    leave(page)
    if page.get_attribute("#home", "data-panel") != "main":
        page.click("#home [data-home-panel=main] >> visible=true")
    page.wait_for_selector("#play-computer", state="visible")


def open_library(page):
    """The home screen's panel of finished games, import and export."""
    leave(page)
    if page.get_attribute("#home", "data-panel") != "library":
        if page.get_attribute("#home", "data-panel") != "main":
            page.click("#home [data-home-panel=main] >> visible=true")
        page.click("#open-library")
    page.wait_for_selector("#library", state="visible")


class GamePage:
    def __init__(self, page):
        self.page = page

    # --- waiting ------------------------------------------------------------
    def renders(self) -> int:
        return int(self.page.get_attribute("#board", "data-rendered") or 0)

    def _after(self, action, extra: int = 0):
        n = self.renders() + extra
        action()
        self.page.wait_for_function(RENDERED, arg=n, timeout=10_000)

    def take_over(self):
        """Hot-seat: the next person takes the device (the hand-over card's button), when
        the turn passed to another person's side (after a box filled, or an undo)."""
        if self.page.evaluate("() => !!document.querySelector('#handover[open]')"):
            self.page.click("#handover-ok")
            self.page.wait_for_selector("#handover", state="hidden")

    def settled(self, timeout: int = 10_000):
        """No engine reply on its way and the game saved (what a reload would resume)."""
        self.page.wait_for_function(SETTLED, timeout=timeout)

    # --- screens ------------------------------------------------------------
    def home(self):
        """The home screen's play choices (its first panel)."""
        open_home(self.page)

    def new_game(self, variant="argentine", names=("Ana", "Beto"), seed=1, options=None, teams=None, players=None):
        """Fill the setup form (Custom game) and start. teams: {side index: "member, member"};
        players: who plays each side ("human", "ai:beginner", ...; default: people)."""
        p = self.page
        self.home()
        open_setup(p)
        p.check(f'input[data-variant="{variant}"]')
        rows = p.locator("#sides > li")
        while rows.count() < len(names):
            p.click("#add-side")
        while rows.count() > len(names):
            rows.last.locator(".remove").click()
        for i, name in enumerate(names):
            rows.nth(i).locator(".side-name").fill(name)
            team = rows.nth(i).locator("[data-team]")
            if teams and i in teams:
                team.check()
                rows.nth(i).locator(".side-members").fill(teams[i])
            elif team.is_checked():
                team.uncheck()
            rows.nth(i).locator(".player").select_option(players[i] if players else "human")
        for name, value in (options or {}).items():
            node = p.locator(f'[data-option="{name}"]')
            kind = node.get_attribute("type")
            if kind == "checkbox":
                node.set_checked(bool(value))
            elif kind == "number":
                node.fill(str(value))
            else:
                node.select_option(str(value))
        if not p.is_visible("#seed"):
            p.click(".seed summary")
        p.fill("#seed", "" if seed is None else str(seed))
        self._after(lambda: p.click("#start"))
        p.wait_for_selector("#board", state="visible")

    # --- actions ------------------------------------------------------------
    def roll(self):
        self._after(lambda: self.page.click("#roll"))

    def hold(self, i: int):
        self._after(lambda: self.page.click(f'#board .dice [data-die="{i}"]'))

    def box(self, box: str):
        return self.page.locator(f'#sheet button.box[data-box="{box}"]:visible')

    def score(self, box: str):
        """Score a box (confirming a scratch when asked)."""
        p = self.page

        def click():
            n = self.renders()
            self.box(box).click()
            # the page either asks first (a scratch) or draws: wait for one of them, as a
            # slow page may open its dialog a moment after the click
            p.wait_for_function("n => document.getElementById('confirm').open"
                                " || +(document.getElementById('board').dataset.rendered || 0) > n",
                                arg=n, timeout=10_000)
            if p.is_visible("#confirm"):
                p.click("#confirm-ok")

        self._after(click)
        self.take_over()

    def pick(self, box: str):
        """Ten dice: choose one of the two boxes (the second one shows the split)."""
        self.box(box).click()

    def split_groups(self) -> list[list[int]]:
        return [sorted(int(x) for x in self.page.eval_on_selector_all(
            f'#split [data-group="{g}"] [data-split-die]', "els => els.map(e => e.dataset.splitDie)"))
            for g in (0, 1)]

    def move(self, i: int):
        self.page.click(f'#split [data-split-die="{i}"]')

    def undo(self):
        self._after(lambda: self.page.click("#undo"))
        self.take_over()

    # --- reading ------------------------------------------------------------
    def dice(self) -> list[int]:
        return [int(x) for x in self.page.eval_on_selector_all(
            "#board .tray [data-die]", "els => els.map(e => e.dataset.face)")]

    def held(self) -> list[bool]:
        return [x == "true" for x in self.page.eval_on_selector_all(
            "#board .tray [data-die]", "els => els.map(e => e.getAttribute('aria-pressed'))")]

    def rolls_left(self) -> int:
        return int(re.search(r"\((\d+) left\)", self.page.inner_text("#roll")).group(1))

    def totals(self) -> list[int]:
        return [int(x.replace("\u2212", "-")) for x in self.page.eval_on_selector_all(
            '#sheet tfoot tr[data-sum="total"] td', "els => els.map(e => e.textContent)")]

    def current(self) -> int:
        return int(self.page.get_attribute("#sheet th.side-h.current", "data-side"))

    def turn_line(self) -> str:
        return self.page.inner_text("#turn-line")

    def cell(self, box: str, side: int) -> str:
        return self.page.inner_text(f'#sheet tr[data-row="{box}"] td[data-side="{side}"]').strip()


class Mirror:
    """The same game in CPython: the engine's answer to every action."""

    def __init__(self, variant, names, seed, options=None, teams=None):
        self.session = app.Session()
        sides = []
        for i, name in enumerate(names):
            members = [m.strip() for m in teams[i].split(",")] if teams and i in teams else []
            sides.append({"name": name, "members": members, "player": "human"})
        self.do({"op": "new", "variant": variant, "options": options or {}, "sides": sides, "seed": seed})

    def do(self, req) -> dict:
        reply = self.session.handle(req)
        assert reply["ok"], reply
        if "view" in reply:
            self.view = reply["view"]
        return reply

    def open_boxes(self) -> list[str]:
        cur = self.view["current"]
        return [r["box"] for r in self.view["rows"] if r["cells"][cur]["value"] is None]

    def best_box(self) -> str:
        cur = self.view["current"]
        best = None
        for r in self.view["rows"]:
            cell = r["cells"][cur]
            if cell.get("playable") and (best is None or cell["preview"] > best[1]):
                best = (r["box"], cell["preview"])
        return best[0]

    def request(self, box) -> dict:
        """What the page sends to fill ``box`` now: its cell's request (a scratch says so)."""
        cur = self.view["current"]
        return next(r["cells"][cur]["request"] for r in self.view["rows"] if r["box"] == box)

    def best_pair(self):
        best = None
        for a, b in itertools.combinations(self.open_boxes(), 2):
            split = self.do({"op": "split", "boxes": [a, b]})["split"]
            if best is None or sum(split["points"]) > sum(best["points"]):
                best = split
        return best

    def keep(self) -> list[int]:
        """Indices of the dice showing the most common face (a simple holding policy)."""
        dice = self.view["dice"]
        face = max(Counter(dice).items(), key=lambda kv: (kv[1], kv[0]))[0]
        return [i for i, d in enumerate(dice) if d == face]


def play_turn(gp: GamePage, m: Mirror, holds: bool):
    """Roll (holding the most common face up to three rolls when `holds`), then fill the
    best box (ten dice: the best pair with the engine's proposed split). Checks the
    page against the mirror after every action."""
    m.do({"op": "roll"})
    gp.roll()
    assert gp.dice() == m.view["dice"]
    while holds and not m.view["over"] and m.view["rolls_left"] > 0:
        want = set(m.keep())
        if len(want) == len(m.view["dice"]):
            break
        for i, h in enumerate(m.view["held"]):
            if (i in want) != h:
                m.do({"op": "toggle", "die": i})
                gp.hold(i)
        assert gp.held() == m.view["held"]
        m.do({"op": "roll"})
        gp.roll()
        assert gp.dice() == m.view["dice"]
        assert gp.rolls_left() == m.view["rolls_left"]
    if m.view["over"]:
        return
    if m.view["boxes_per_turn"] == 2:
        split = m.best_pair()
        a, b = split["boxes"]
        gp.pick(a)
        gp.pick(b)
        gp.page.wait_for_selector("#split-ok:enabled")
        groups = gp.split_groups()
        proposal = m.do({"op": "split", "boxes": [a, b]})["split"]
        assert groups[0] == proposal["positions"]
        gp._after(lambda: (gp.page.click("#split-ok"),
                           gp.page.is_visible("#confirm") and gp.page.click("#confirm-ok")))
        gp.take_over()
        m.do(proposal["request"])  # what the page sends: the engine's request for this split
    else:
        box = m.best_box()
        gp.score(box)
        m.do(m.request(box))
    assert gp.totals() == [s["total"] for s in m.view["sides"]]


# --- one booted page shared by a module's tests --------------------------------

def shared_page(browser, base_url, clock=False, still=False, **context_args):
    """(page, guard) of a new context and page, booted; with `clock`, Playwright's fake
    clock is installed before the page loads (time flows as real time until a test
    pauses it: e2e_support.pause_clock); with `still`, the board's motion switch is off
    (the module's `still_dice` marker: none of its tests is about the dice's motion).
    ``context_args``: more of the context's options (a viewport, a locale)."""
    context = browser.new_context(**{"base_url": base_url, "viewport": {"width": 1280, "height": 900},
                                     "service_workers": "block", **context_args})
    if clock:
        context.clock.install()
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    if still:
        context.add_init_script(STILL_DICE)
    page = context.new_page()
    boot(page)
    yield page, guard
    context.close()


def still_module(request) -> bool:
    """Whether the module of a module-scoped fixture is marked `still_dice`."""
    return request.node.get_closest_marker("still_dice") is not None


@pytest.fixture(scope="module")
def shared(request, browser, base_url):
    """(page, guard): one context and page, booted once for the whole module (a module
    that needs the fake clock defines its own `shared` with shared_page(..., clock=True));
    the dice still in a module marked `still_dice`."""
    yield from shared_page(browser, base_url, still=still_module(request))


@pytest.fixture
def gp(shared):
    """A GamePage on the shared page; fails the test on any browser problem it caused."""
    page, guard = shared
    guard.problems.clear()
    guard.allowed.clear()
    yield GamePage(page)
    guard.collect_error_boxes()
    if guard.problems:
        pytest.fail("the browser reported problems:\n" + guard.report(), pytrace=False)


def open_botlab(page):
    """The Bot lab (static/ui/screens/botlab.py), its editor loaded and its worker booted."""
    open_home(page)
    page.click("#open-botlab")
    page.wait_for_selector("#botlab[data-editor=ready]", state="visible")
    page.wait_for_function("() => window.generala.botlab.state.ready", timeout=120_000)
