# Computer players on the board: a side whose `player` is "ai:<level>"
# is played by the engine one step at a time ({"op": "ai"}: roll, hold, roll, ...,
# score), at a pace a person can follow (PACE_MS between steps; at once under
# prefers-reduced-motion), skippable (the Skip button or the S key finishes the
# computer's turn at once). While a computer plays, the board shows its dice and
# holds but no control of the board acts (the engine's view offers nothing to do
# while a computer acts). A game of computers alone plays to the end.
#
# The coach's part (hint, coach toggle, costs, game report) is in coach.py; both
# share the bar under the dice (built here) and `ask` (a request that may need the
# rules' value table: NeedTable -> solve in slices with progress -> ask again).
#
# A part of the board (board_parts.py): prepare(view, ui) before the board is drawn,
# draw(view, ui, board) after; said(reply) after an action's reply is drawn and announced.

import js
from js import document
from jsffi import create_proxy

import engine_client
import words
from dom import byid, each, el, on
from screens import spawn
from shapes import acting_side

PACE_MS = 600
REDUCED_PACE_MS = 0
# Before a computer's first roll, while the view offers Undo (the person before it just
# filled a box), the computer waits this long: Undo in that moment cancels its turn.
UNDO_GRACE_MS = 1000
SOLVE_BUDGET_MS = 150
CSS = "./static/css/coach.css"


def level_of(view, i):
    """The computer level of side i ("optimal", ...) or None for a person."""
    player = str(view["sides"][i].get("player") or "human")
    return player[3:] if player.startswith("ai:") else None


def computer_level(view):
    """The level of the computer that acts now (the view's "acting"), or None."""
    acting = view.get("acting")
    return acting.get("computer") if acting else None


def level_name(level):
    names = {"beginner": words.t("ai.level.beginner"), "heuristic": words.t("ai.level.heuristic"),
             "optimal": words.t("ai.level.optimal"), "expert": words.t("ai.level.expert")}
    return names.get(level, level)


def reduced_motion():
    try:
        return bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    except Exception:
        return False


class Computer:
    def __init__(self, game, message):
        if document.querySelector('link[href="' + CSS + '"]') is None:
            document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.game = game
        self.message = message  # dom.message(text, kind): a visible note
        self.real = None  # the last view drawn
        self.timer = None  # a step waiting for its moment
        self.sent = False  # a step on its way to the engine
        self.skipping = False  # finish this computer turn at once
        self.turn_key = None  # (side, round) of the computer turn being played
        self.halted = None  # a turn that failed: not retried by itself
        self.solving = False
        self.step_proxy = create_proxy(lambda *a: self.step_now())
        self.loading_proxy = create_proxy(lambda *a: self.loading())
        self.build_bar()
        game.board.parts.add("computer", self.draw, self.prepare)
        import coach  # noqa: E402 (after the bar exists)
        self.coach = coach.Coach(game, self)
        self.setup_note_node = el("p", "help ai-setup-note", words.t("ai.setup_slow"),
                                  {"id": "ai-setup-note", "hidden": ""})
        sides = byid("sides")
        if sides is not None:
            sides.parentNode.insertBefore(self.setup_note_node, sides.nextSibling)
            on(byid("home"), "change", lambda e: self.setup_note())
        self.relabel_proxy = create_proxy(lambda *a: self.relabel())
        if byid("lang-pick"):  # after navigation.py (relang) has switched the words
            on(byid("lang-pick"), "change", lambda e: js.setTimeout(self.relabel_proxy, 0))

    # --- the bar under the dice ---------------------------------------------

    def build_bar(self):
        bar = self.bar = el("div", "ai-bar", None, {"id": "ai-bar"})
        self.status = el("p", "ai-status", "", {"id": "ai-status", "hidden": ""})
        self.skip_btn = el("button", "btn ai-skip", words.t("ai.skip"),
                           {"type": "button", "id": "ai-skip", "aria-keyshortcuts": "S", "hidden": "",
                            "title": words.t("ai.skip_label")})
        self.progress = el("p", "ai-progress", None, {"id": "ai-progress", "hidden": "", "role": "status"})
        self.progress_bar = el("progress", None, None, {"max": "100", "value": "0", "aria-hidden": "true"})
        self.progress_text = el("span", "ai-progress-text", "")
        self.progress.appendChild(self.progress_bar)
        self.progress.appendChild(self.progress_text)
        self.note = el("p", "ai-note", "", {"id": "ai-note", "hidden": ""})
        line = el("div", "ai-line")
        line.appendChild(self.status)
        line.appendChild(self.skip_btn)
        bar.appendChild(line)
        bar.appendChild(self.progress)
        bar.appendChild(self.note)
        on(self.skip_btn, "click", lambda e: self.skip())

    def attach(self, board):
        """Put the bar under the dice (the board is rebuilt for every new game)."""
        if not self.bar.isConnected:
            board.tray.parentNode.insertBefore(self.bar, board.tray.nextSibling)

    def setup_note(self):
        """Under the players: a strong computer in a game whose table is not shipped is slow to start."""
        variant = self.game.setup.variant
        info = self.game.catalog.get(variant) or {}
        strong = False
        for sel in each(document.querySelectorAll("#sides .player")):
            if str(sel.value) in ("ai:optimal", "ai:expert"):
                strong = True
        self.setup_note_node.hidden = not (strong and variant and not info.get("tables"))

    def relabel(self):
        self.setup_note_node.textContent = words.t("ai.setup_slow")
        self.skip_btn.textContent = words.t("ai.skip")
        self.skip_btn.setAttribute("title", words.t("ai.skip_label"))
        self.coach.relabel()

    def show_note(self, text):
        self.note.textContent = text or ""
        self.note.hidden = not text

    # --- the board's part (board_parts.py) ---------------------------------------

    def computer_turn(self, view=None):
        """Whether a computer side acts now (the engine's view says who acts)."""
        view = view or self.real
        return view is not None and computer_level(view) is not None

    def prepare(self, view, ui):
        """Before a view is drawn: the board's hint line says which computer plays. What
        the person may do is the view's own (a computer's turn offers nothing)."""
        self.real = view
        level = computer_level(view)
        ui["computer"] = None if level is None else words.t(
            "ai.playing", name=view["sides"][view["current"]]["name"], level=level_name(level))

    def draw(self, view, ui, board):
        """After the board: the bar under the dice, and the computer's steps played."""
        self.attach(board)
        game = self.game
        playing = (self.computer_turn(view) and ui["ready"] and game.board_visible() and game.gid is not None
                   and not game.watching)  # a tab following another tab's moves leaves them to it
        if view.get("sheet") and any(level_of(view, i) for i in range(len(view["sides"]))):
            self.show_note(words.t("ai.sheet"))
        if playing:
            cur = view["current"]
            key = (cur, view["round"])
            if key != self.turn_key:
                self.turn_key = key
                self.skipping = False
            self.status.hidden = True  # the board's hint line says who plays (ui["computer"])
            self.skip_btn.hidden = False
            active = document.activeElement
            if active is None or active == document.body or active.disabled or active.closest("[hidden]"):
                self.skip_btn.focus()
            self.schedule()
        else:
            self.turn_key = None
            self.skipping = False
            self.status.hidden = True
            self.skip_btn.hidden = True
            self.cancel()

    def said(self, reply):
        """After an action's reply is drawn and announced (human or computer)."""
        self.coach.said(reply)

    # --- playing ---------------------------------------------------------------

    def pace(self):
        if self.skipping:
            return 0
        if self.real is not None and self.real.get("can_undo"):
            return UNDO_GRACE_MS  # the person's moment to take back the box just filled
        return REDUCED_PACE_MS if reduced_motion() else PACE_MS

    def schedule(self):
        if self.timer is not None or self.sent or self.solving or self.halted == self.turn_key:
            return
        self.timer = js.setTimeout(self.step_proxy, self.pace())

    def cancel(self):
        if self.timer is not None:
            js.clearTimeout(self.timer)
            self.timer = None

    def step_now(self):
        self.timer = None
        game = self.game
        if self.sent or not (self.computer_turn() and game.ui["ready"] and game.board_visible()
                             and game.gid is not None and not game.watching):
            return
        if engine_client.waiting():  # a person's request still on its way: wait for its reply
            self.schedule()
            return
        self.sent = True
        engine_client.send({"op": "ai"}, self.stepped, quiet=True)

    def stepped(self, reply):
        self.sent = False
        game = self.game
        if not reply.get("ok"):
            if reply.get("kind") == "NeedTable":
                self.solving = True
                spawn(self.solve_then_play())
                return
            self.halted = self.turn_key
            if not reply.get("told"):
                self.message(words.t("ai.failed", error=str(reply.get("error"))), "error")
            if reply.get("view"):
                game.draw(reply["view"])
            return
        view = reply["view"]
        side = acting_side(view)  # a served Generala ends the game: then no side is to play
        name = view["sides"][side]["name"] if side is not None else ""
        drawn = not engine_client.waiting()
        game.changed(reply, draw=drawn)
        said = str(byid("announce").textContent)
        if said and drawn and name:
            byid("announce").textContent = words.t("ai.says", name=name, text=said)

    async def solve_then_play(self):
        ok = await self.solve()
        self.solving = False
        if ok:
            self.schedule()
        else:
            self.halted = self.turn_key

    def skip(self):
        """Finish the computer's turn at once."""
        if not self.computer_turn():
            return
        self.skipping = True
        self.halted = None
        if self.timer is not None:
            self.cancel()
            self.schedule()
        elif not self.sent and not self.solving:
            self.schedule()

    # --- requests that need the rules' value table --------------------------------

    async def ask(self, req):
        """Send ``req``; when the rules' value table is missing, solve it (progress shown)
        and send again. The reply dict (engine_client.call: a refusal is told there)."""
        reply = None
        for attempt in range(2):
            # A slow answer (the first one fetches and loads the table): say so.
            slow = js.setTimeout(self.loading_proxy, 400)
            try:
                reply = await engine_client.call(req, quiet=("NeedTable",))
            finally:
                js.clearTimeout(slow)
                if not self.progress_flag:
                    self.progress.hidden = True
            if reply.get("kind") != "NeedTable" or attempt:
                return reply
            if not await self.solve():
                return reply
        return reply

    def loading(self):
        if not self.progress_flag:
            self.progress_bar.removeAttribute("value")  # indeterminate
            self.progress_text.textContent = words.t("coach.loading")
            self.progress.hidden = False

    async def solve(self):
        """Compute the open game's value table in slices, showing progress. True when done."""
        import asyncio
        while self.solving_now():
            await asyncio.sleep(0.2)
        self.progress_flag = True
        self.progress_bar.setAttribute("value", "0")
        self.progress_text.textContent = words.t("coach.solving", pct=0)
        self.progress.hidden = False
        self.show_note("")
        ok = False
        try:
            while True:
                reply = await engine_client.call({"op": "solve", "budget_ms": SOLVE_BUDGET_MS})
                if not reply.get("ok"):
                    break
                done, total = reply.get("progress") or [0, 1]
                pct = int(100 * done / total) if total else 100
                self.progress_bar.setAttribute("value", str(pct))
                self.progress_text.textContent = words.t("coach.solving", pct=pct)
                self.progress.setAttribute("data-progress", str(done) + "/" + str(total))
                if reply.get("done"):
                    ok = True
                    break
        finally:
            self.progress_flag = False
            self.progress.hidden = True
        if ok:
            byid("announce").textContent = words.t("coach.solved")
        else:
            self.show_note(words.t("coach.no_table"))
        return ok

    progress_flag = False

    def solving_now(self):
        return self.progress_flag
