# Computer players on the board: a side the view says a computer plays (sides[i].computer,
# its level; the view's `acting` names the one acting now) is played by the engine one
# step at a time ({"op": "ai"}: roll, hold, roll, ..., score), at a pace a person can
# follow (PACE_MS between steps; at once under prefers-reduced-motion), skippable (the
# Skip button or the S key finishes the computer's turn at once). While a computer
# plays, the board shows its dice and holds but no control of the board acts (the
# engine's view offers nothing to do while a computer acts). A game of computers alone
# plays to the end.
#
# The coach's part (hint, coach toggle, costs, game report) is in coach.py; both
# draw in the bar under the dice (bar.py), which also sends their requests that may
# need the rules' value table (NeedTable -> solve in slices with progress -> ask again).
#
# A part of the board (board_parts.py): prepare(view, ui) before the board is drawn,
# draw(view, ui, board) after; said(reply) after an action's reply is drawn and announced.

import js
from js import document

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
CSS = "./static/css/coach.css"


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
    def __init__(self, game, bar, clock, setup, catalog):
        """``catalog``: the engine's catalog (its variants' shipped tables, its levels)."""
        if document.querySelector('link[href="' + CSS + '"]') is None:
            document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.game = game  # the controller: its view, changed(), draw(), keeper, screen
        self.bar = bar
        self.setup = setup
        self.catalog = catalog
        # the setup form's values of the levels that play from the rules' value table
        self.table_players = {level["player"] for level in catalog["levels"] if level["needs_table"]}
        # every computer level's value in a side's player (a score-sheet game's sides have
        # no computer: the view's sides[i].computer is null there)
        self.players = {level["player"] for level in catalog["levels"]}
        self.timer = clock.timer(self.step_now)  # a step waiting for its moment
        self.sent = False  # a step on its way to the engine
        self.skipping = False  # finish this computer turn at once
        self.turn_key = None  # (side, round) of the computer turn being played
        self.halted = None  # a turn that failed: not retried by itself
        self.solving = False  # this turn waits for the rules' value table
        self.build_line()
        game.board.parts.add("computer", self.draw, self.prepare)
        self.setup_note_node = el("p", "help ai-setup-note", words.t("ai.setup_slow"),
                                  {"id": "ai-setup-note", "hidden": ""})
        sides = byid("sides")
        if sides is not None:
            sides.parentNode.insertBefore(self.setup_note_node, sides.nextSibling)
            on(byid("home"), "change", lambda e: self.setup_note())

    # --- its line in the bar under the dice ---------------------------------------

    def build_line(self):
        self.status = el("p", "ai-status", "", {"id": "ai-status", "hidden": ""})
        self.skip_btn = el("button", "btn ai-skip", words.t("ai.skip"),
                           {"type": "button", "id": "ai-skip", "aria-keyshortcuts": "S", "hidden": "",
                            "title": words.t("ai.skip_label")})
        line = el("div", "ai-line")
        line.appendChild(self.status)
        line.appendChild(self.skip_btn)
        self.bar.add_line(line, first=True)
        on(self.skip_btn, "click", lambda e: self.skip())

    def setup_note(self):
        """Under the players: a strong computer in a game whose table is not shipped is slow to start."""
        variant = self.setup.variant
        info = self.catalog["variants"].get(variant) or {}
        strong = False
        for sel in each(document.querySelectorAll("#sides .player")):
            if str(sel.value) in self.table_players:
                strong = True
        self.setup_note_node.hidden = not (strong and variant and not info.get("tables"))

    def relabel(self):
        self.setup_note_node.textContent = words.t("ai.setup_slow")
        self.skip_btn.textContent = words.t("ai.skip")
        self.skip_btn.setAttribute("title", words.t("ai.skip_label"))

    # --- the board's part (board_parts.py) ---------------------------------------

    def computer_turn(self, view=None):
        """Whether a computer side acts now (the engine's view says who acts)."""
        view = view or self.bar.view
        return view is not None and computer_level(view) is not None

    def prepare(self, view, ui):
        """Before a view is drawn: the board's hint line says which computer plays. What
        the person may do is the view's own (a computer's turn offers nothing)."""
        self.bar.view = view
        level = computer_level(view)
        ui["computer"] = None if level is None else words.t(
            "ai.playing", name=view["sides"][view["current"]]["name"], level=level_name(level))

    def draw(self, view, ui, board):
        """After the board: the bar under the dice, and the computer's steps played."""
        self.bar.attach(board)
        game = self.game
        playing = (self.computer_turn(view) and ui["ready"] and game.screen.board_visible() and game.keeper.gid is not None
                   and not game.keeper.watching)  # a tab following another tab's moves leaves them to it
        if view["sheet"] and any(side["player"] in self.players for side in view["sides"]):
            self.bar.show_note(words.t("ai.sheet"))
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

    # --- playing ---------------------------------------------------------------

    def pace(self):
        if self.skipping:
            return 0
        view = self.bar.view
        if view is not None and view.get("can_undo"):
            return UNDO_GRACE_MS  # the person's moment to take back the box just filled
        return REDUCED_PACE_MS if reduced_motion() else PACE_MS

    def schedule(self):
        if self.timer.waiting() or self.sent or self.solving or self.halted == self.turn_key:
            return
        self.timer.start(self.pace())

    def cancel(self):
        self.timer.stop()

    def step_now(self):
        game = self.game
        if self.sent or not (self.computer_turn() and game.ui["ready"] and game.screen.board_visible()
                             and game.keeper.gid is not None and not game.keeper.watching):
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
                game.screen.message(words.t("ai.failed", error=words.refusal(reply)), "error")
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
        ok = await self.bar.solve()
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
        if self.timer.waiting():
            self.cancel()
            self.schedule()
        elif not self.sent and not self.solving:
            self.schedule()
