# Computer players on the board: a side the view says a computer plays (sides[i].computer,
# its level; the view's `acting` names the one acting now) is played by the engine one
# step at a time ({"op": "ai"}: roll, hold, roll, ..., score), at a pace a person can
# follow: a turn of three rolls takes about 1 s (PACES: the wait before each step, by
# what the step before it was; its dice land quicker than a person's), less at the stored
# "fast" pace (set_pace, for the
# board's settings), at once when motion is off (prefers-reduced-motion, or the board's
# motion switch). The Skip button, the S key, a game key (R, a die's number) or a tap
# on the board hurries the rest of the turn (not in the moment before its first roll
# while Undo is offered: that moment is the person's). The board's hint line says what
# the computer does, as a player would ("Bot keeps 6 6 6 and rolls again."), and the
# computer's line in the bar what it scored once the turn is a person's again. While a
# computer plays, the board shows its dice and holds but no control of the board acts
# (the engine's view offers nothing to do while a computer acts). A game of computers
# alone plays to the end.
#
# A side a saved bot plays (the view's sides[i].computer "bot", sides[i].bot its name and
# hash; docs/bot-api.md, "A bot at the table") is paced and told the same way, but its
# moves are the bot's: each step asks the engine ({"op": "bot"}), which rolls when a roll
# is due or answers the plain state to decide on; the bot's own worker
# (js.generala.botlab.choose, never the game's engine worker) answers the move, which
# goes back to the engine ({"op": "bot", "move"}) and is checked like any. When the bot
# fails (an exception, an illegal move, more than a second), the heuristic level
# ({"op": "ai"} on a bot's side) plays the rest of that turn for it and the bar's note
# says what the bot did wrong; its next turn is the bot's again. A bot this browser no
# longer keeps: the note says so and the heuristic level plays its turns.
#
# The coach's part (hint, coach toggle, costs, game report) is in coach_panel.py; both
# draw in the bar under the dice (bar.py), which also sends their requests that may
# need the rules' value table (NeedTable -> solve in slices with progress -> ask again).
#
# A part of the board (board_parts.py): prepare(view, ui) before the board is drawn,
# draw(view, ui, board) after; said(reply) after an action's reply is drawn and announced.

import json

import js
from pyscript import document

from players import botseat
from engine import engine_client
from words import words
from web.dom import byid, each, el, on
from web.screen_switch import spawn
from board.shapes import acting_side

# The wait before a computer's step (ms), by what came before it: the turn's start, a
# roll (its dice land, in QUICK_TOSS_MS, and are seen) or a hold (the roll follows it). A
# turn of three rolls and two holds waits 100 + 3 x 270 + 2 x 80 = 1070 ms at the normal
# pace: with the engine's replies, at most about 1.2 s.
PACES = {"normal": {"start": 100, "roll": 270, "hold": 80},
         "fast": {"start": 0, "roll": 120, "hold": 0}}
PACE_KEY = "generala.computer_pace"  # the stored pace: "normal" (absent) or "fast"
# Before a computer's first roll, while the view offers Undo (the person before it just
# filled a box), the computer waits this long: Undo in that moment cancels its turn.
UNDO_GRACE_MS = 1000
CSS = "./static/css/coach.css"
storage = js.generala.storage


def set_pace(pace):
    """The computer players' pace, stored for the next visits too: "normal" (a turn in
    about 1 s) or "fast" (a turn in well under a second). For the board's settings;
    the next step waits at the new pace. False for a pace that is neither."""
    if pace not in PACES:
        return False
    storage.set(PACE_KEY, pace)
    return True


def pace_setting():
    """The stored pace: "normal" or "fast"."""
    pace = str(storage.get(PACE_KEY) or "")
    return pace if pace in PACES else "normal"


def computer_level(view):
    """The level of the computer that acts now (the view's "acting"), or None."""
    acting = view.get("acting")
    return acting.get("computer") if acting else None


def still():
    """Motion is off: the board's motion switch, else prefers-reduced-motion (dice-motion.mjs)."""
    try:
        return bool(js.generala.dice.still())
    except Exception:
        return bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)


def faces(view, positions, ordered=False):
    """The faces of the dice at ``positions``, as a player reads them out: "6 6 5"
    (``ordered``: highest first, as dice kept are told; else as they lie)."""
    dice = view["dice"] or []
    shown = [dice[i] for i in positions if i < len(dice)]
    return " ".join(str(d) for d in (sorted(shown, reverse=True) if ordered else shown))


def scored_words(view):
    """What a computer side just scored (the view's last action), as a player says it:
    "Bot scores 30 points in Sixes."; "" when the last action was no computer's score."""
    last = view.get("last") or {}
    side = last.get("side")
    if last.get("type") != "score" or side is None or view["sides"][side]["computer"] is None:
        return ""
    parts, crossed = [], []
    for box, points, scratch in zip(last["boxes"], last["points"], last.get("scratch") or [False] * len(last["boxes"])):
        if scratch:
            crossed.append(words.t("ai.box", box=words.box(box)))
        else:
            parts.append(words.t("ai.part", points=words.points(points).replace("-", "\u2212"), box=words.box(box)))
    name = view["sides"][side]["name"]
    if parts and crossed:
        return words.t("ai.scores_scratches", name=name, parts=words.and_list(parts), boxes=words.and_list(crossed))
    if crossed:
        return words.t("ai.scratches", name=name, boxes=words.and_list(crossed))
    return words.t("ai.scores", name=name, parts=words.and_list(parts))


def doing_words(view):
    """What the computer acting now does, as a player says it: thinking before its first
    roll (after what the computer before it scored), then each roll and hold."""
    cur = view["current"]
    name = view["sides"][cur]["name"]
    last = view.get("last") or {}
    if view["rolls"] and last.get("side") == cur:
        if last.get("type") == "roll":
            return words.t("ai.rolls", name=name, dice=faces(view, range(len(view["dice"]))))
        if last.get("type") == "hold":
            held = last.get("held") or []
            return words.t("ai.keeps", name=name, dice=faces(view, held, ordered=True)) if held else words.t("ai.keeps_none", name=name)
    before = scored_words(view)
    return (before + " " if before else "") + words.t("ai.thinking", name=name)


class Computer:
    def __init__(self, game, board, keeper, screen, bar, clock, setup, catalog):
        """``game``: the controller (its view, ui, changed(), draw()); ``board`` the board
        (its parts: the computer's bar is one); ``keeper`` the stored game on the board (its
        id, whether this tab follows another's moves); ``screen`` the navigation (is the
        board shown, messages); ``catalog``: the engine's catalog (its variants' shipped
        tables, its levels)."""
        if document.querySelector('link[href="' + CSS + '"]') is None:
            document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.game = game
        self.keeper = keeper
        self.screen = screen
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
        self.stand_in = None  # a bot's turn the heuristic level finishes (the bot failed)
        self.bot_failure = ("", "")  # (game id, what its bot did wrong): shown until its next turn
        self.bot_note = ""  # the bar's note about bots, as last shown
        self.build_line()
        board.parts.add("computer", self.draw, self.prepare)
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
        # The pace, in the board's menu (placed there by draw): a switch that says On/Off.
        self.pace_switch = el("button", "menu-item switch pace", None,
                              {"type": "button", "role": "switch", "id": "pace",
                               "aria-checked": "true" if pace_setting() == "fast" else "false"})
        self.pace_name = el("span", "switch-name", words.t("table.fast"))
        self.pace_switch.appendChild(self.pace_name)
        self.pace_on = el("span", "switch-state on", words.t("table.on"), {"aria-hidden": "true"})
        self.pace_off = el("span", "switch-state off", words.t("table.off"), {"aria-hidden": "true"})
        self.pace_switch.appendChild(self.pace_on)
        self.pace_switch.appendChild(self.pace_off)
        on(self.pace_switch, "click", lambda e: self.toggle_pace())
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

    def toggle_pace(self):
        fast = pace_setting() != "fast"
        set_pace("fast" if fast else "normal")
        self.pace_switch.setAttribute("aria-checked", "true" if fast else "false")

    def relabel(self):
        self.pace_name.textContent = words.t("table.fast")
        self.pace_on.textContent = words.t("table.on")
        self.pace_off.textContent = words.t("table.off")
        self.setup_note_node.textContent = words.t("ai.setup_slow")
        self.skip_btn.textContent = words.t("ai.skip")
        self.skip_btn.setAttribute("title", words.t("ai.skip_label"))

    # --- the board's part (board_parts.py) ---------------------------------------

    def computer_turn(self, view=None):
        """Whether a computer side acts now (the engine's view says who acts)."""
        view = view or self.bar.view
        return view is not None and computer_level(view) is not None

    def prepare(self, view, ui):
        """Before a view is drawn: the board's hint line says what the computer acting now
        does. What the person may do is the view's own (a computer's turn offers nothing)."""
        self.bar.view = view
        ui["computer"] = None if computer_level(view) is None else doing_words(view)

    def draw(self, view, ui, board):
        """After the board: the bar under the dice, the pace switch in the board's menu
        (for a game with a computer side), and the computer's steps played."""
        self.bar.place(board)
        if self.skip_btn.parentNode != board.actions:
            # Skip sits in the row of Roll, in the place of Hint (no hint on a computer's
            # turn): the board keeps its layout between a computer's turn and a person's
            board.actions.appendChild(self.skip_btn)
        if self.pace_switch.parentNode != board.menu:
            board.menu.insertBefore(self.pace_switch, board.rolloff)
        self.pace_switch.hidden = not any(side["computer"] is not None for side in view["sides"])
        game = self.game
        playing = (self.computer_turn(view) and ui["ready"] and self.screen.board_visible() and self.keeper.gid is not None
                   and not self.keeper.watching)  # a tab following another tab's moves leaves them to it
        if view["sheet"] and any(side["player"] in self.players or side["player"] == "bot" for side in view["sides"]):
            self.bar.show_note(words.t("ai.sheet"))
        if playing:
            cur = view["current"]
            key = (cur, view["round"])
            if key != self.turn_key:
                self.turn_key = key
                self.skipping = False
                if view["acting"].get("bot") is not None:
                    self.bot_failure = ("", "")  # a new turn of a bot: the last one's failure is old
            self.status.hidden = True  # the board's hint line says what it does (ui["computer"])
            self.skip_btn.hidden = False
            active = document.activeElement
            if active is None or active == document.body or active.matches(":disabled") or active.closest("[hidden]"):
                self.skip_btn.focus()
            self.schedule()
        else:
            self.turn_key = None
            self.skipping = False
            # a person's turn after a computer's: what the computer scored stays in view
            said = "" if view["over"] else scored_words(view)
            self.status.textContent = said
            self.status.hidden = not said
            self.skip_btn.hidden = True
            self.cancel()
        self.draw_bot_note(view)

    def draw_bot_note(self, view):
        """The bar's note about the bots at the table: one that failed in its last turn, one
        this browser no longer keeps, one whose code changed since the game began."""
        gid, failure = self.bot_failure
        lines = [failure] if failure and gid == str(self.keeper.gid) else []
        bots = [side for side in view["sides"] if side.get("bot") is not None]
        for side in bots:
            code, changed = botseat.find(side["bot"])
            if code is None:
                lines.append(words.t("bot.missing", bot=side["bot"]["name"]))
            elif changed:
                lines.append(words.t("bot.changed", bot=side["bot"]["name"]))
        text = " ".join(lines)
        if bots and not view["over"]:
            js.generala.botlab.warmSeat()  # the bot's worker boots while the first turns are played
        if text != self.bot_note:
            if text or self.note_is_bots():
                self.bar.show_note(text)
            self.bot_note = text

    def note_is_bots(self):
        return bool(self.bot_note) and str(self.bar.note.textContent) == self.bot_note

    # --- playing ---------------------------------------------------------------

    def pace(self):
        """The wait before the next step: none when hurried or with motion off; the
        person's moment to take back the box just filled; else by the stored pace and
        what the step before was (PACES)."""
        if self.skipping:
            return 0
        view = self.bar.view
        if self.grace(view):
            return UNDO_GRACE_MS
        if still():
            return 0
        last = (view.get("last") or {}) if view is not None else {}
        step = "start" if view is None or not view["rolls"] else "hold" if last.get("type") == "hold" else "roll"
        return PACES[pace_setting()][step]

    @staticmethod
    def grace(view):
        """The moment before a computer's first roll while the view offers Undo (the person
        before it just filled a box): the person's, not to be hurried by a tap or a key."""
        return view is not None and bool(view.get("can_undo"))

    def schedule(self):
        if self.timer.waiting() or self.sent or self.solving or self.halted == self.turn_key:
            return
        self.timer.start(self.pace())

    def cancel(self):
        self.timer.stop()

    def step_now(self):
        game = self.game
        if self.sent or not (self.computer_turn() and game.ui["ready"] and self.screen.board_visible()
                             and self.keeper.gid is not None and not self.keeper.watching):
            return
        if engine_client.waiting():  # a person's request still on its way: wait for its reply
            self.schedule()
            return
        self.sent = True
        bot = self.bar.view["acting"].get("bot")
        if bot is not None and self.stand_in != self.turn_key:
            code = botseat.find(bot)[0]
            if code is not None:
                spawn(self.bot_step(code))
                return
        engine_client.send({"op": "ai"}, self.stepped, quiet=True)

    async def bot_step(self, code):
        """One step of a saved bot's turn: the engine rolls, or the bot's worker answers the
        move the engine then plays; a failing bot's turn is finished by the heuristic level."""
        view = self.bar.view
        key = self.turn_key
        try:
            reply = await engine_client.call({"op": "bot"}, quiet=True)
            if not reply.get("ok") or "ask" not in reply:
                self.stepped(reply)
                return
            seat = str(self.keeper.gid) + ":" + str(view["current"])
            moment = self.moment(view)
            answer = json.loads(str(await js.generala.botlab.choose(code, json.dumps(reply["ask"]), seat)))
            if self.turn_key != key or self.bar.view is None or self.moment(self.bar.view) != moment:
                self.sent = False  # the board moved on meanwhile (Undo, another game): ask again
                self.schedule()
                return
            if "move" in answer:
                reply = await engine_client.call({"op": "bot", "move": answer["move"]}, quiet=True)
                if reply.get("ok"):
                    self.stepped(reply)
                    return
                error = {"kind": "illegal", "message": words.refusal(reply)}
            else:
                error = answer.get("error") or {}
        except Exception as err:  # the bot's worker or its answer failed: the game goes on
            error = {"kind": "load", "message": str(err)}
        kind = error.get("kind") if error.get("kind") in ("exception", "illegal", "timeout", "load") else "exception"
        said = str(error.get("message") or "") or words.t("lab.error." + kind)
        self.bot_failure = (str(self.keeper.gid), words.t("bot.failed", bot=view["acting"]["bot"]["name"], error=said))
        self.stand_in = key
        engine_client.send({"op": "ai"}, self.stepped, quiet=True)

    def moment(self, view):
        """Where a bot's turn stands: a move answered for another moment is not played."""
        return (str(self.keeper.gid), view["current"], view["round"], view["rolls"],
                tuple(view["dice"] or ()), tuple(view["held"] or ()))

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
                self.screen.message(words.t("ai.failed", error=words.refusal(reply)), "error")
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

    def hurry(self):
        """A tap on the board or a game key during the computer's turn: the rest of its
        turn at once, as Skip does (not in the person's moment to take a box back)."""
        if self.computer_turn() and not self.grace(self.bar.view):
            self.skip()

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
