"""Playing by link through the page's screens: two (or three) browser contexts as devices.

Nothing passes between the contexts but the text of the hand-over screen's Link field:
the host fills the setup form in "link" mode and gets the invitations, a friend opens
one (its address), names itself and gets its join link, and from then on each device
plays its turns on the ordinary board (Roll, then the first box it may fill: a quick
game) and reads the link it must send from its Link field. Every wait is on the page's
state (data-rendered, #linkplay[data-state], data-opened), never a sleep. The contexts
prefer reduced motion, so the moves a link brings are drawn at once (one test steps
through them with motion on, and skips).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from gamepage import RENDERED, board_menu, leave

from e2e_support import STATE_LOG_SCRIPT, STILL_DICE, Guard, boot
from test_a11y import check, report

HANDOVER = "#linkplay:not([hidden])[data-state=handover] [data-link-field]"
# what the page shows when a turn finds no box to fill (a failure's message)
DIAGNOSIS = """() => { const b = document.getElementById('board'), r = document.getElementById('roll'),
  lp = document.getElementById('linkplay');
  return JSON.stringify({rendered: b && b.dataset.rendered, drawn: b && b.dataset.drawn, busy: b && b.getAttribute('aria-busy'),
    hidden: b && b.hidden, inert: b && b.inert, roll: r && [r.disabled, r.textContent],
    dice: Array.from(document.querySelectorAll('#board .tray [data-die]'), d => d.getAttribute('aria-label')),
    boxes: Array.from(document.querySelectorAll('#sheet button.box'), e => [e.dataset.box, e.hidden, e.disabled, e.className]),
    banner: (document.getElementById('banner') || {}).textContent, dialogs: Array.from(document.querySelectorAll('dialog[open]'), d => d.id),
    linkplay: lp && [lp.hidden, lp.dataset.state, lp.dataset.over], message: (document.getElementById('message') || {}).textContent,
    states: window.__stateLog}); }"""
# the game is over: its last move's hand-over (a served win ends it at a roll)
ENDED = "!!document.querySelector('#linkplay[data-state=handover][data-over=true]')"


def axe_clean(page, where: str) -> None:
    """axe-core finds no violation on the screen shown (test_a11y.py's rules)."""
    found: dict = {}
    check(page, where, found)
    assert not found, report(found)


class Device:
    """One browser context: a person's device."""

    def __init__(self, browser, base_url, guards, motion="reduce", offline_ready=False):
        self.context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                           reduced_motion=motion,
                                           service_workers="allow" if offline_ready else "block")
        guard = Guard()
        guard.attach_context(self.context)
        guards.append(guard)
        self.guard = guard
        self.context.add_init_script(STATE_LOG_SCRIPT)
        if motion == "reduce":  # and in Firefox, whose BiDi ignores the emulation: the board's switch
            self.context.add_init_script(STILL_DICE)
        self.page = self.context.new_page()
        self.base_url = base_url
        self.won_at_once = False  # this device's roll ended the game (five alike, served)

    def boot(self, url="/"):
        boot(self.page, url)

    # --- reading ------------------------------------------------------------------------
    def opened(self) -> int:
        return int(self.page.get_attribute("#linkplay", "data-opened") or 0) \
            if self.page.locator("#linkplay").count() else 0

    def renders(self) -> int:
        return int(self.page.get_attribute("#board", "data-rendered") or 0)

    def state(self) -> str | None:
        loc = self.page.locator("#linkplay")
        return loc.get_attribute("data-state") if loc.count() and loc.is_visible() else None

    def link(self, n: int = 0) -> str:
        """The text of the hand-over's Link field ``n``."""
        self.page.wait_for_selector(f'#linkplay:not([hidden]) [data-link-field="{n}"]')
        return self.page.input_value(f'#linkplay [data-link-field="{n}"]')

    def totals(self) -> list[int]:
        return [int(x.replace("\u2212", "-")) for x in self.page.eval_on_selector_all(
            '#sheet tfoot tr[data-sum="total"] td', "els => els.map(e => e.textContent)")]

    def cells(self) -> list[str]:
        return self.page.eval_on_selector_all("#sheet tbody td", "els => els.map(e => e.textContent)")

    # --- acting -------------------------------------------------------------------------
    def start(self, variant: str, name: str, others: list[str]) -> list[str]:
        """The home screen's Play by link: the game, this device's name and who plays each
        other side ("human" for a friend, or a computer level). Returns the invitations."""
        p = self.page
        p.click("#play-link")
        p.wait_for_selector('#setup[data-mode="link"]', state="visible")
        p.check(f'input[data-variant="{variant}"]')
        rows = p.locator("#sides > li")
        while rows.count() < len(others) + 1:
            p.click("#add-side")
        rows.nth(0).locator(".side-name").fill(name)
        for i, who in enumerate(others, 1):
            rows.nth(i).locator(".player").select_option(who)
        p.click("#start")
        p.wait_for_selector("#linkplay:not([hidden])[data-state=invitations]")
        friends = sum(1 for who in others if who == "human")
        return [self.link(n) for n in range(friends)]

    def open(self, url: str) -> None:
        """Open a link's address in this device's tab, and wait until it is taken."""
        n = self.opened()
        self.page.goto(url)
        self.page.wait_for_function(
            "n => +(document.getElementById('linkplay')?.dataset.opened || 0) > n", arg=n, timeout=30_000)

    def join(self, url: str, name: str) -> str:
        """A friend's first visit: the invitation's address, the name, Join; the join link."""
        self.boot(url)
        self.page.wait_for_selector("#linkplay:not([hidden])[data-state=join]")
        self.page.fill("#link-name", name)
        self.page.click("#link-join-btn")
        self.page.wait_for_selector("#linkplay:not([hidden])[data-state=joined]")
        return self.link()

    def my_turn(self) -> bool:
        return self.page.is_visible("#board") and self.page.is_enabled("#roll") \
            if self.page.locator("#roll").count() else False

    def _after(self, action):
        n = self.renders()
        action()
        self.page.wait_for_function(RENDERED, arg=n, timeout=10_000)

    def quick_turn(self) -> None:
        """Roll once and fill the first box the board offers (two with ten dice, and the
        engine's split), confirming a scratch when asked."""
        p = self.page
        boxes = p.locator("#sheet button.box:visible:enabled:not(.refused)")
        # A roll pressed while the board does not take it (seen under load, a render of
        # something else counted as the roll's) leaves no box to fill and Roll enabled:
        # a person presses it again, and so does this.
        # Five alike on the turn's first roll wins the game at once (a served Generala, Big
        # General: 1 roll in 1,296): no box to fill, and the device hands over the result.
        for _ in range(3):
            self._after(lambda: p.click("#roll"))
            p.wait_for_function("() => !!document.querySelector('#sheet button.box:not(.refused):not([disabled])')"
                                " || !document.getElementById('roll').disabled || " + ENDED, timeout=10_000)
            if self.page.evaluate("() => " + ENDED):
                p.wait_for_selector(HANDOVER)
                self.won_at_once = True
                return
            if boxes.count() or not p.is_enabled("#roll"):
                break
        # The roll's reply may come after the check above (under load): a box to fill, or the
        # game ended by that roll.
        try:
            p.wait_for_function("() => [...document.querySelectorAll('#sheet button.box:not(.refused):not([disabled])')]"
                                ".some((b) => b.offsetParent !== null) || " + ENDED, timeout=30_000)
        except Exception:
            raise AssertionError("no box to fill after a roll: " + self.page.evaluate(DIAGNOSIS)) from None
        if self.page.evaluate("() => " + ENDED):
            p.wait_for_selector(HANDOVER)
            self.won_at_once = True
            return
        if p.locator("#board[data-dice='10'], #board .tray [data-die='9']").count():
            first = boxes.first.get_attribute("data-box")
            p.click(f'#sheet button.box[data-box="{first}"]:visible')
            second = p.locator(f"#sheet button.box:visible:enabled:not(.refused):not([data-box='{first}'])").first
            second.click()
            p.wait_for_selector("#split-ok:enabled")
            n = self.renders()
            p.click("#split-ok")
        else:
            self.fill(boxes.first)
            return
        self.confirmed(n)

    def fill(self, box) -> None:
        """Press a box (a locator) and confirm a scratch when asked; until drawn."""
        n = self.renders()
        box.click()
        self.confirmed(n)

    def confirmed(self, n: int) -> None:
        """After a box pressed at render ``n``: confirm a scratch when asked; until drawn."""
        p = self.page
        p.wait_for_function("n => document.getElementById('confirm').open"
                            " || +(document.getElementById('board').dataset.rendered || 0) > n", arg=n)
        if p.is_visible("#confirm"):
            p.click("#confirm-ok")
            p.wait_for_function(RENDERED, arg=n)

    def play_until_handover(self) -> str:
        """This device's turns (and its computers'), until the hand-over: the link to send."""
        p = self.page
        while True:
            p.wait_for_function("() => { const b = document.getElementById('board'), r = document.getElementById('roll');"
                                " return (!b.hidden && !b.inert && r && !r.disabled && b.getAttribute('aria-busy') !== 'true')"
                                " || !!document.querySelector('#linkplay:not([hidden])[data-state=handover]'); }",
                                timeout=60_000)
            if self.state() == "handover":
                return self.link()
            self.quick_turn()


@pytest.fixture
def devices(browser, base_url):
    guards: list[Guard] = []
    made: list[Device] = []

    def make(**kw) -> Device:
        d = Device(browser, base_url, guards, **kw)
        made.append(d)
        return d

    yield make
    for d in made:
        d.context.close()
    problems = [g.report() for g in guards if g.problems]
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(problems), pytrace=False)


def two_devices(devices, variant="argentine"):
    ana, beto = devices(), devices()
    ana.boot()
    [invitation] = ana.start(variant, "Ana", ["human"])
    assert "#play=p1." in invitation
    join = beto.join(invitation, "Beto")
    assert "#play=p1." in join and join != invitation
    ana.open(join)
    return ana, beto


def play_to_the_end(players: dict) -> list[str]:
    """Pass the game between the devices (by side) until it is over: a device on the
    hand-over screen gives its link to the devices it names (data-to); a device whose turn
    it is plays until its hand-over. Once over, a closing link (a friend's, when the game
    ended before its first turn) is delivered too. The links sent, in order."""
    sent, delivered, over = [], set(), False
    for _ in range(400):
        handing = [(i, d) for i, d in players.items() if d.state() == "handover"
                   and (i, d.link()) not in delivered]
        if handing:
            i, d = handing[0]
            link = d.link()
            delivered.add((i, link))
            sent.append(link)
            to = [int(x) for x in (d.page.get_attribute("#linkplay", "data-to") or "").split(",") if x]
            for r in to:
                players[r].open(link)
            over = over or d.page.get_attribute("#linkplay", "data-over") == "true"
            continue
        if over:
            return sent
        movers = [d for d in players.values() if d.state() is None and d.page.is_visible("#board")]
        assert movers, "no device can move and none hands the game on"
        movers[0].play_until_handover()
    raise AssertionError("the game did not end")


def opening_with_five_alike(variant: str) -> tuple[str, str]:
    """A host's and a friend's random bytes (link_new takes 48, link_join 32) whose game by
    link opens with five alike, found by the CPython engine as the page's worker would play
    them: the host creates, the friend joins, the first mover rolls."""
    import hashlib

    from generala.modes import linkgame
    from generala.rules.actions import Roll
    from generala.rules.variants import variant as rules_of

    def stream(tag: str, n: int) -> bytes:
        return b"".join(hashlib.sha256(f"{tag}-{k}".encode()).digest() for k in range(2))[:n]

    rules = rules_of(variant)
    sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
    for i in range(100_000):
        host_bytes, friend_bytes = stream(f"host-{i}", 48), stream(f"friend-{i}", 32)
        host = linkgame.create(rules, sides, host_bytes[linkgame.ID_SIZE:], host_bytes[:linkgame.ID_SIZE])
        friend = linkgame.join(host.invitation(1), "Beto", friend_bytes)
        host.merge(friend.link())
        if host.my_turn():  # the host rolls first (the test plays it so)
            host.game.play(Roll())
            if len(set(host.game.dice)) == 1:
                return host_bytes.hex(), friend_bytes.hex()
    raise AssertionError("no opening with five alike in 100,000 tries")


def fix_link_bytes(device: Device, hexed: str) -> None:
    """The device's next secret (generala.linkSecrets.hex) is ``hexed``: a test's only way to
    dice it chose, as the dice come from every device's secret."""
    device.page.evaluate("h => { const given = generala.linkSecrets.hex;"
                         " generala.linkSecrets.hex = n => (2 * n === h.length ? h : given(n)); }", hexed)


def test_five_alike_on_the_first_roll_ends_a_game_by_link(devices):
    """Big General on the host's first roll: the game is over at that roll, the host hands
    over the result, the friend's device shows it, and both verify every die."""
    host_bytes, friend_bytes = opening_with_five_alike("puerto-rican")
    ana, beto = devices(), devices()
    ana.boot()
    fix_link_bytes(ana, host_bytes)
    [invitation] = ana.start("puerto-rican", "Ana", ["human"])
    beto.boot(invitation)
    fix_link_bytes(beto, friend_bytes)
    beto.page.wait_for_selector("#linkplay:not([hidden])[data-state=join]")
    beto.page.fill("#link-name", "Beto")
    beto.page.click("#link-join-btn")
    beto.page.wait_for_selector("#linkplay:not([hidden])[data-state=joined]")
    ana.open(beto.link())
    assert ana.state() is None and ana.my_turn()  # the host plays first
    link = ana.play_until_handover()
    assert ana.won_at_once and ana.page.get_attribute("#linkplay", "data-over") == "true"
    assert ana.page.get_attribute("#linkplay", "data-to") == "1"
    beto.open(link)
    # the friend's values no move has shown yet (it never played): its closing link, to Ana
    assert beto.state() == "handover" and beto.page.get_attribute("#linkplay", "data-to") == "0"
    assert beto.page.inner_text("#linkplay-title") == "The game is over: send this last link to Ana"
    assert "The game ended before your first turn." in beto.page.inner_text("#link-stage-help")
    ana.page.click('#linkplay [data-link="board"]')
    ana.page.wait_for_selector("#over", state="visible")
    assert verified(ana) == "pending"
    ana.open(beto.link())
    for d in (ana, beto):
        if d.state() == "handover":
            d.page.click('#linkplay [data-link="board"]')
        d.page.wait_for_selector("#over", state="visible")
        assert verified(d) == "verified"
    for d in (ana, beto):
        assert d.page.inner_text("#banner") == "Ana wins with a Big General (five alike on the first roll)!"
    assert link and ana.totals() == beto.totals()


def won_at_a_first_roll(device: Device) -> bool:
    """The game on this device's board ended with an automatic win ("Ana wins with a
    Generala on the first roll (five alike)!")."""
    return device.won_at_once or "first roll" in device.page.inner_text("#banner")


def verified(device: Device) -> str:
    device.page.wait_for_selector("#link-result .link-verified")
    return device.page.get_attribute("#link-result .link-verified", "data-verified")


@pytest.mark.parametrize("variant", ["argentine", "bulgarian", "puerto-rican", "double"])
def test_a_whole_game_by_link_between_two_devices(devices, variant):
    ana, beto = two_devices(devices, variant)
    sent = play_to_the_end({0: ana, 1: beto})
    for d in (ana, beto):
        if d.state() == "handover":  # the last mover: its result board
            d.page.click('#linkplay [data-link="board"]')
        d.page.wait_for_selector("#over", state="visible")
        assert verified(d) == "verified"
        assert "All dice verified" in d.page.inner_text("#link-result")
    assert len(sent) > 5 or won_at_a_first_roll(ana)
    # on a phone, the verification is on the first screen of the finished board
    for d in (ana, beto):
        d.page.set_viewport_size({"width": 375, "height": 667})
        d.page.evaluate("scrollTo(0, 0)")
        box = d.page.locator("#link-result").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 667, box
        if variant == "argentine" and d is ana:
            axe_clean(d.page, "a finished game by link, 375 px")
        d.page.set_viewport_size({"width": 1280, "height": 900})
    assert ana.totals() == beto.totals()
    assert ana.cells() == beto.cells()
    assert max(len(link) for link in sent) <= 2100
    for d in (ana, beto):
        assert records_of(d) == {("Ana", variant): 1, ("Beto", variant): 1}
        assert sorted(best_of(d)) == sorted(ana.totals())


def records_of(device: Device) -> dict:
    """The Records screen, opened from the board's menu: {(name, variant): games}."""
    board_menu(device.page, "records")
    device.page.wait_for_selector("#records:not([hidden])[data-ready]")
    rows = device.page.locator("#records-table tbody tr")
    return {(rows.nth(k).get_attribute("data-name"), rows.nth(k).get_attribute("data-variant")):
            int(rows.nth(k).locator("[data-key=games]").inner_text()) for k in range(rows.count())}


def best_of(device: Device) -> list[int]:
    return [int(x.replace("\u2212", "-")) for x in device.page.eval_on_selector_all(
        "#records-table tbody [data-key=best]", "els => els.map(e => e.textContent)")]


def exchange(players: dict, count: int, delivered: set | None = None) -> list[tuple[int, int, str]]:
    """``count`` hand-overs (as play_to_the_end): (from, to, link) of each link taken.
    ``delivered``: (side, link) already given."""
    taken, delivered = [], set(delivered or ())
    while len(taken) < count:
        handing = [(i, d) for i, d in players.items() if d.state() == "handover"
                   and (i, d.link()) not in delivered]
        if handing:
            i, d = handing[0]
            link = d.link()
            delivered.add((i, link))
            for r in [int(x) for x in (d.page.get_attribute("#linkplay", "data-to") or "").split(",") if x]:
                players[r].open(link)
                taken.append((i, r, link))
            continue
        movers = [d for d in players.values() if d.state() is None and d.page.is_visible("#board")]
        movers[0].play_until_handover()
    return taken


@pytest.mark.cross_engine
def test_the_same_link_twice_an_older_link_and_a_damaged_one(devices):
    ana, beto = devices(), devices()
    ana.boot()
    [invitation] = ana.start("argentine", "Ana", ["human"])
    join = beto.join(invitation, "Beto")
    # the invitation opened again where it was joined: the same join link, no new secret
    beto.open(invitation)
    assert beto.state() == "handover" and beto.link() == join
    assert beto.page.inner_text("#linkplay-title") == "You joined. Send this link back to Ana"
    ana.open(join)
    players = {0: ana, 1: beto}
    taken = exchange(players, 4, {(1, join)})
    _, to, last = taken[-1]
    receiver = players[to]
    receiver.page.wait_for_selector("#board", state="visible")
    before = receiver.cells()
    # the same link again: nothing new, the game as it was
    receiver.open(last)
    assert receiver.state() == "unchanged"
    assert "Nothing new in this link" in receiver.page.inner_text("#link-outcome")
    receiver.page.click('#linkplay [data-link="resume"]')
    receiver.page.wait_for_selector("#board", state="visible")
    assert receiver.cells() == before
    # an older link to the same device: it has a later position already
    stale = [link for _, r, link in taken[:-1] if r == to][-1]
    receiver.open(stale)
    assert receiver.state() == "older"
    assert "already has a later position" in receiver.page.inner_text("#link-outcome")
    # a damaged link: refused with its reason
    token_at = last.index("#play=") + len("#play=") + 40
    damaged = last[:token_at] + ("A" if last[token_at] != "A" else "B") + last[token_at + 1:]
    receiver.open(damaged)
    assert receiver.state() == "refused"
    text = receiver.page.inner_text("#link-error")
    assert text.startswith("This link cannot be taken.") and len(text) > len("This link cannot be taken.") + 10
    receiver.page.click('#linkplay [data-link="home"]')
    receiver.page.wait_for_selector(f'#link-list [data-link-game][data-link-state="turn"]')


@pytest.mark.only_chromium("one engine is enough for a stored record put back")
def test_a_link_that_rewrites_a_move_already_stored_is_refused_naming_the_move(devices):
    ana, beto = two_devices(devices)
    players = {0: ana, 1: beto}
    if ana.state() == "handover":  # Beto plays first: the start link
        exchange(players, 1)
    mover, other = (ana, beto) if ana.page.is_visible("#board") else (beto, ana)
    key = mover.page.evaluate("() => Object.keys(localStorage).find(k => k.startsWith('generala.link.'))")
    kept = mover.page.evaluate("k => localStorage.getItem(k)", key)
    link = mover.play_until_handover()
    other.open(link)
    # the mover's device as it was before its turn (a backup put back), playing another box
    mover.page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, kept])
    mover.page.click('#linkplay [data-link="home"]')
    mover.page.click(f'[data-link-open="{key[len("generala.link."):]}"]')
    mover.page.wait_for_selector("#board:not([inert])", state="visible")
    mover._after(lambda: mover.page.click("#roll"))
    mover._after(lambda: mover.page.click("#roll"))
    mover.fill(mover.page.locator("#sheet button.box:visible:enabled:not(.refused)").last)
    mover.page.wait_for_selector(HANDOVER)
    rewritten = mover.link()
    assert rewritten != link
    other.open(rewritten)
    # two versions of one move: who, which move, both versions, and what can be done
    assert other.state() == "disagree"
    assert other.page.inner_text("#linkplay-title") == "Two versions of a move"
    axe_clean(other.page, "two versions of a move")
    said = other.page.inner_text("#link-error")
    assert "rewrites a move already played: turn 1 of" in said
    assert "scored in " in said and " on this device, " in said and " in the link)." in said
    # keep this device's game: the board as it was, the link not taken
    other.page.click('#linkplay [data-link="resume"]')
    other.page.wait_for_function("() => !document.getElementById('board').hidden"
                                 " || !!document.querySelector('#linkplay:not([hidden])[data-state=handover]')")
    # the same link again, and the game ended as unverified: marked so in the list
    other.open(rewritten)
    assert other.state() == "disagree"
    other.page.click('#linkplay [data-link="end"]')
    other.page.click("#confirm-ok")
    other.page.wait_for_selector("#linkplay:not([hidden])[data-state=ended]")
    assert "ended as unverified" in other.page.inner_text("#link-outcome")
    other.page.click('#linkplay [data-link="home"]')
    other.page.wait_for_selector('#link-list [data-link-state="over"]')
    assert "ended, not verified" in other.page.inner_text("#link-list")


def test_three_sides_with_a_computer_on_the_host(devices):
    ana, beto = devices(), devices()
    ana.context.add_init_script("localStorage.setItem('generala.computer_pace', 'fast')")
    ana.boot()
    [invitation] = ana.start("argentine", "Ana", ["human", "ai:beginner"])
    join = beto.join(invitation, "Beto")
    ana.open(join)
    play_to_the_end({0: ana, 1: beto})
    for d in (ana, beto):
        if d.state() == "handover":
            d.page.click('#linkplay [data-link="board"]')
        d.page.wait_for_selector("#over", state="visible")
        assert verified(d) == "verified"
    assert ana.totals() == beto.totals() and len(ana.totals()) == 3
    # the finished game on the replay screen, from the list of games by link
    leave(beto.page)
    beto.page.click("#link-list [data-link-replay]")
    beto.page.wait_for_selector("#replay:not([hidden])[data-steps]")
    steps = int(beto.page.get_attribute("#replay", "data-steps"))
    # (a game won at a first roll, by a person or the computer, ends sooner: 1 roll in 1,296)
    assert steps > 33 or won_at_a_first_roll(ana)
    assert beto.page.get_attribute("#replay", "data-step") == "0"
    beto.page.click("#replay-last")
    beto.page.wait_for_selector(f'#replay[data-step="{steps}"]')
    assert "Ana" in beto.page.inner_text("#replay-result")


def test_the_moves_a_link_brings_are_stepped_through_and_can_be_skipped(devices):
    ana, beto = devices(), devices(motion="no-preference")
    ana.boot()
    [invitation] = ana.start("argentine", "Ana", ["human"])
    join = beto.join(invitation, "Beto")
    ana.open(join)
    if ana.state() == "handover":  # Beto first: the start link, then Beto's quick turn back
        beto.open(ana.link())
        ana.open(beto.play_until_handover())
    ana.page.wait_for_selector("#board:not([inert])", state="visible")
    for _ in range(3):  # three rolls, then a box: four moves for Beto to see
        ana._after(lambda: ana.page.click("#roll"))
    ana.fill(ana.page.locator("#sheet button.box:visible:enabled:not(.refused)").first)
    link = ana.play_until_handover()
    n = beto.opened()
    beto.page.goto(link)
    beto.page.wait_for_selector("#link-catchup:not([hidden])")
    assert "Catching up: move" in beto.page.inner_text("#link-catchup")
    beto.page.click("#link-skip")
    beto.page.wait_for_function(
        "n => +(document.getElementById('linkplay')?.dataset.opened || 0) > n", arg=n)
    assert beto.page.get_attribute("#linkplay", "data-caught-up") in ("skipped", "played")
    beto.page.wait_for_selector("#board:not([inert])", state="visible")
    assert beto.totals() == ana_totals_from_link(ana)


def test_a_link_opened_in_another_browser_says_so_and_how_to_get_there(devices):
    # Beto's reply, meant for Ana, opened in a browser that holds no game (Ana's phone's
    # other browser, where her chat app opened it): said so, with her game's names, and
    # the link to copy into the browser she plays in.
    ana, beto, other = devices(), devices(), devices()
    ana.boot()
    [invitation] = ana.start("argentine", "Ana", ["human"])
    join = beto.join(invitation, "Beto")
    other.boot()
    other.open(join)
    other.page.wait_for_selector("#linkplay:not([hidden])[data-state=not-joined]")
    said = other.page.inner_text("#link-outcome")
    assert "another browser" in said and "Ana" in said and "Beto" in said
    assert "address bar" in other.page.inner_text("#linkplay")
    assert other.link() == join
    assert other.page.is_visible('#linkplay [data-link="copy"]')
    assert other.page.evaluate("document.activeElement.id") == "linkplay-title"
    axe_clean(other.page, "a game in another browser")
    # the game itself is untouched: Ana opens the same link in her own browser and plays on
    ana.open(join)
    assert ana.state() in ("handover", None)


def ana_totals_from_link(ana: Device) -> list[int]:
    ana.page.click('#linkplay [data-link="home"]')
    ana.page.click("#link-list [data-link-open]")
    ana.page.wait_for_selector("#linkplay:not([hidden])[data-state=handover]")
    # the hand-over names the game; the board itself is the other device's now: read the
    # totals from the engine's view through the stored record
    return ana.page.evaluate("""async () => {
      const k = Object.keys(localStorage).find(k => k.startsWith('generala.link.'));
      const local = JSON.parse(localStorage.getItem(k)).local;
      const r = JSON.parse(await generala.engine.call(JSON.stringify({op: 'link_load', local})));
      return r.view.sides.map(s => s.total);
    }""")


@pytest.mark.only_chromium("Chromium's offline mode with the service worker serving (test_offline.py)")
def test_a_device_offline_the_whole_game(devices):
    ana = devices()
    beto = devices(offline_ready=True)
    ana.boot()
    beto.boot()
    beto.page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=90_000)
    beto.context.set_offline(True)
    [invitation] = ana.start("puerto-rican", "Ana", ["human"])
    beto.join(invitation, "Beto")  # a new load of the page, offline: the service worker serves it
    # no QR code offline before one was ever drawn or a game played: the figure says why
    # (and no request bound to fail is made: the guard fails on one)
    beto.page.wait_for_selector('#linkplay .link-qr[data-qr="offline"] figcaption')
    ana.open(beto.link())
    play_to_the_end({0: ana, 1: beto})
    for d in (ana, beto):
        if d.state() == "handover":
            d.page.click('#linkplay [data-link="board"]')
        d.page.wait_for_selector("#over", state="visible")
        assert verified(d) == "verified"
    assert ana.totals() == beto.totals()


def test_export_and_import_carry_a_game_by_link(devices):
    import json

    from test_export_import import as_file, choose_file, download

    ana, beto = two_devices(devices)
    exchange({0: ana, 1: beto}, 3)
    if ana.state() is not None:
        ana.page.click('#linkplay [data-link="home"]')
    else:
        leave(ana.page)
    ana.page.wait_for_selector("#link-list [data-link-game]")
    meta = ana.page.inner_text("#link-list .save-meta")
    name, text = download(ana.page, "#export-all")
    [game] = [g for g in json.loads(text)["games"] if "link" in g]
    assert game["id"].startswith("link:") and set(game["link"]) == {"doc", "device", "secret", "sent"}
    # another browser (the same person's new device) takes it, and plays on from there
    carol = devices()
    carol.boot()
    choose_file(carol.page, as_file(name, text))
    carol.page.click("#library [data-home-panel=main] >> visible=true")
    carol.page.wait_for_selector("#link-list [data-link-game]")
    assert carol.page.inner_text("#link-list .save-meta") == meta
    again = choose_file(carol.page, as_file(name, text))
    assert "already" in again[0]
    carol.page.click("#library [data-home-panel=main] >> visible=true")
    carol.page.click("#link-list [data-link-open]")
    carol.page.wait_for_function("() => { const b = document.getElementById('board');"
                                 " return (!b.hidden && !b.inert) || !!document.querySelector("
                                 "'#linkplay:not([hidden])[data-state=handover]'); }")
    if carol.state() is None:
        assert carol.totals() == ana_board_totals(ana)


def test_an_imported_host_waiting_for_its_friend_shows_the_invitation_again(devices):
    import json

    from test_export_import import as_file, choose_file, download

    ana = devices()
    ana.boot()
    ana.start("argentine", "Ana", ["human"])
    ana.page.click('#linkplay [data-link="home"]')
    ana.page.wait_for_selector("#link-list [data-link-game]")
    name, text = download(ana.page, "#export-all")
    [game] = [g for g in json.loads(text)["games"] if "link" in g]
    assert "invitations" not in game  # the file holds the record; the engine makes them again
    # the host's new device: its invitation opened from the list, joined, and the game starts
    carol = devices()
    carol.boot()
    choose_file(carol.page, as_file(name, text))
    carol.page.click("#library [data-home-panel=main] >> visible=true")
    carol.page.click("#link-list [data-link-open]")
    carol.page.wait_for_selector("#linkplay:not([hidden])[data-state=invitations]")
    invitation = carol.link()
    assert "#play=p1." in invitation
    beto = devices()
    join = beto.join(invitation, "Beto")
    carol.open(join)
    carol.page.wait_for_function("() => { const b = document.getElementById('board');"
                                 " return (!b.hidden && !b.inert) || !!document.querySelector("
                                 "'#linkplay:not([hidden])[data-state=handover]'); }")
    where = "#linkplay" if carol.state() == "handover" else "#sheet thead"
    assert "Beto" in carol.page.inner_text(where)  # the sheet's header, or "Waiting for Beto."


def tab_to(page, selector: str, limit: int = 15) -> None:
    """Press Tab until the focus is on ``selector`` (the page's own tab order)."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def keyboard_turn(device: Device) -> None:
    """A turn by keyboard: R three times (the game may end sooner), then Enter on the box
    the focus lands on, a scratch confirmed with Enter on the dialog's OK."""
    p = device.page
    p.wait_for_function("() => { const r = document.getElementById('roll'); return r && !r.disabled; }")
    p.focus("#roll")
    for _ in range(3):
        if not p.is_enabled("#roll"):
            break
        device._after(lambda: p.keyboard.press("r"))
    if p.locator("#over:visible").count():
        return
    p.wait_for_function("() => !!document.activeElement && !!document.activeElement.dataset.box")
    n = device.renders()
    p.keyboard.press("Enter")
    p.wait_for_function("n => document.getElementById('confirm').open"
                        " || +(document.getElementById('board').dataset.rendered || 0) > n", arg=n)
    if p.is_visible("#confirm"):
        tab_to(p, "#confirm-ok")
        p.keyboard.press("Enter")
        p.wait_for_function(RENDERED, arg=n)


def test_a_game_by_link_is_started_joined_and_played_by_keyboard(devices):
    ana, beto = devices(), devices()
    ana.boot()
    p = ana.page
    p.focus("#play-link")
    p.keyboard.press("Enter")
    p.wait_for_selector('#setup[data-mode="link"]', state="visible")
    tab_to(p, "#sides > li:first-child .side-name", limit=40)
    p.keyboard.press("Control+A")
    p.keyboard.type("Ana")
    tab_to(p, "#start", limit=40)
    p.keyboard.press("Enter")
    p.wait_for_selector("#linkplay:not([hidden])[data-state=invitations]")
    assert p.evaluate("document.activeElement.id") == "linkplay-title"
    tab_to(p, '#linkplay [data-link="copy"]')
    p.keyboard.press("Enter")
    p.wait_for_function("() => document.querySelector('#linkplay .link-copy-note').textContent.length > 0")
    invitation = ana.link()
    # the friend: the name field has the focus, Enter joins
    beto.boot(invitation)
    q = beto.page
    q.wait_for_selector("#linkplay:not([hidden])[data-state=join]")
    q.wait_for_function("() => document.activeElement && document.activeElement.id === 'link-name'")
    q.keyboard.type("Beto")
    q.keyboard.press("Enter")
    q.wait_for_selector("#linkplay:not([hidden])[data-state=joined]")
    ana.open(beto.link())
    # whoever plays first plays a turn by keyboard, and its hand-over's Copy is reached by Tab
    players = {0: ana, 1: beto}
    for _ in range(2):
        mover = next((d for d in players.values() if d.my_turn()), None)
        if mover is None:  # Beto plays first: Ana's start link goes to him
            ana.page.wait_for_selector("#linkplay:not([hidden])[data-state=handover]")
            beto.open(ana.link())
            continue
        keyboard_turn(mover)
        mover.page.wait_for_selector("#linkplay:not([hidden])[data-state=handover]")
        tab_to(mover.page, '#linkplay [data-link="copy"]')
        mover.page.keyboard.press("Enter")
        mover.page.wait_for_function(
            "() => document.querySelector('#linkplay .link-copy-note').textContent.length > 0")
        other = beto if mover is ana else ana
        other.open(mover.link())
        assert other.my_turn() or other.page.is_visible("#over")  # a served Generala may end it
        break
    else:
        raise AssertionError("no device could play")


def ana_board_totals(device: Device) -> list[int]:
    device.page.click("#link-list [data-link-open]")
    device.page.wait_for_selector("#board:not([inert])", state="visible")
    return device.totals()


def test_an_embedded_game_sends_the_sites_address_and_takes_a_pasted_link(devices, base_url):
    # The host plays in a blog's iframe (?embed=1, in Spanish): the invitation is the game's
    # own address (no embed, no language: the friend's page takes its own), and the join
    # link, which would open outside the iframe, is pasted into the hand-over instead.
    ana, beto = devices(), devices()
    ana.boot("/?embed=1&lang=es")
    [invitation] = ana.start("argentine", "Ana", ["human"])
    assert invitation.startswith(base_url + "/#play=p1."), invitation
    join = beto.join(invitation, "Beto")
    p = ana.page
    p.fill("#link-paste-field", "no link here")
    p.click("#link-paste button[type=submit]")
    p.wait_for_selector("#link-paste-note[role=alert]")
    assert "enlace" in p.inner_text("#link-paste-note")  # worded in the page's language
    # far more than any link put in the field: it keeps what a link can be (its maxlength),
    # and the page answers with words, not a crash
    p.fill("#link-paste-field", "p1." + "A" * 200_000)
    assert p.evaluate("document.getElementById('link-paste-field').value.length") == 70_000
    p.click("#link-paste button[type=submit]")
    p.wait_for_selector("#link-paste-note[role=alert], #linkplay[data-state=refused] #link-error")
    n = ana.opened()
    if ana.state() == "refused":  # the engine refused it: back to the hand-over to paste the real one
        p.click('#linkplay [data-link="home"]')
        p.click("#link-list [data-link-open]")
        p.wait_for_selector("#link-paste-field")
    p.fill("#link-paste-field", join)
    p.click("#link-paste button[type=submit]")
    p.wait_for_function("n => +(document.getElementById('linkplay')?.dataset.opened || 0) > n", arg=n, timeout=30_000)
    # Taken as if opened: the game begins (Ana's board, or the hand-over to Beto after the roll-off).
    p.wait_for_function("() => !document.getElementById('board').hidden"
                        " || !!document.querySelector('#linkplay:not([hidden])[data-state=handover]')", timeout=60_000)
    assert p.locator("#linkplay .msg-error").count() == 0
    link = ana.play_until_handover()
    assert link.startswith(base_url + "/#play=p1.") and link != join


def test_a_game_by_link_started_here_drops_the_one_tap_game_prepared_before_it(devices):
    """The one-tap game is prepared in the engine while the page is idle; a game by link
    started afterwards takes the engine. Back home, "Play against the computer" must ask
    the engine for its game again, not draw the prepared one the engine no longer holds."""
    ana = devices()
    ana.boot()
    ana.page.wait_for_selector("html[data-first-game]", state="attached", timeout=60_000)  # prepared (or rehearsed since)
    ana.start("argentine", "Ana", ["human"])
    ana.page.click('#linkplay [data-link="home"]')
    ana.page.wait_for_selector("#home:not([hidden])")
    ana.page.click("#play-computer")
    ana.page.wait_for_selector("#board:not([hidden]) #roll:enabled")
    n = ana.renders()
    ana.page.click("#roll")
    ana.page.wait_for_function(RENDERED, arg=n, timeout=10_000)
    assert ana.page.get_attribute("#board", "data-drawn") == "engine"
    # the engine rolled this game: every die shows a face, and a box can be filled
    faces = ana.page.eval_on_selector_all("#board .tray [data-die]", "els => els.map(e => e.dataset.face || e.getAttribute('aria-label'))")
    assert len(faces) == 5 and all(faces), faces
    ana.fill(ana.page.locator("#sheet button.box:visible:enabled:not(.refused)").first)


def test_a_language_picked_on_the_hand_over_words_it_again(devices):
    """The hand-over is drawn again in the language picked there: its heading, help and
    links' labels; the links, what the player typed and the keyboard's place stay."""
    sys.path[:0] = [str(Path(__file__).resolve().parents[2] / "static" / "ui")]
    from words import words
    es = words.table("es")
    ana = devices()
    ana.boot()
    ana.start("argentine", "Ana", ["human"])
    p = ana.page
    links = p.locator(".link-field[data-link-field]").evaluate_all("fs => fs.map(f => f.value)")
    assert p.inner_text("#linkplay-title") == words.table("en")["link.invite_title"]
    p.fill("#link-paste-field", "a link half pasted")
    p.focus("#lang-pick")
    p.select_option("#lang-pick", "es")
    p.wait_for_function("t => document.getElementById('linkplay-title').textContent === t",
                        arg=es["link.invite_title"])
    assert p.get_attribute("#linkplay", "data-state") == "invitations"
    assert es["link.invite_help"] in p.inner_text("#linkplay")
    assert p.inner_text("#link-box-title-0") == es["link.invite_for"].replace("{n}", "2")
    assert p.inner_text("label[for=link-paste-field]") == es["link.paste_label"]
    assert p.locator(".link-field[data-link-field]").evaluate_all("fs => fs.map(f => f.value)") == links
    assert p.input_value("#link-paste-field") == "a link half pasted"
    assert p.evaluate("document.activeElement.id") == "lang-pick"
    axe_clean(p, "the hand-over in Spanish")
