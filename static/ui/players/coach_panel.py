# The coach: a Hint (button or H key) lists the best choices now (holds
# or boxes) with the expected final score of each and its loss against the best,
# in a native <dialog>; the Coach toggle makes every person's decision show what
# it cost and what was better ("That cost 3.20 points. Better: Score Chance." /
# "Best move."), on the page and in the live
# region; after the game, a report of each side's decisions, skill loss and luck.
# Where there is an opponent, both speak in the chance to win instead: the hint's
# choices with their chance and what each gives up against the best for the win, a
# move's line "That cost 6% of your chance to win." (the engine's chance, chance_loss,
# chance_cost).
# Values come from the engine ({"op": "hint"}, {"op": "coach"}, {"op": "report"});
# a missing value table (house options) is solved first, with progress (bar.ask).
import json

import js
from pyscript import document

from engine import engine_client
from players.win_chances import percent
from words import words
from web.dom import byid, clear, el, on, open_at_top
from web.screen_switch import spawn

STORE_KEY = "generala.coach"
TOP = 5
storage = js.generala.storage


def dice_words(dice):
    return ", ".join(str(d) for d in dice)


def boxes_words(boxes):
    return " + ".join(words.box(b) for b in boxes)


def choice_text(c):
    """A hint's choice ({"kind", "keep", "boxes", "action"}) in words."""
    kind = c.get("kind")
    if kind == "roll":
        return words.t("coach.roll")
    if kind == "hold":
        return words.t("coach.keep", dice=dice_words(c["keep"])) if c["keep"] else words.t("coach.keep_none")
    if kind == "win":
        return words.t("coach.win")
    action = c.get("action") or {}
    return words.t("coach.scratch" if action.get("scratch") is True else "coach.score", boxes=boxes_words(c["boxes"]))


def played_text(action):
    """A decision of the report: {"keep": [faces]} or a score action."""
    if "keep" in action:
        return words.t("coach.keep", dice=dice_words(action["keep"])) if action["keep"] else words.t("coach.keep_none")
    boxes = action.get("score")
    boxes = boxes if isinstance(boxes, list) else [boxes]
    return words.t("coach.scratch" if action.get("scratch") else "coach.score", boxes=boxes_words(boxes))


class Coach:
    def __init__(self, game, board, keeper, screen, bar):
        """``game``: the controller (its view, ui, act()); ``board`` the board (its parts:
        the coach's line is one; its root, where the report goes); ``keeper`` the stored game
        on the board (its id); ``screen`` the navigation (is the board shown)."""
        self.game = game
        self.board = board
        self.keeper = keeper
        self.screen = screen
        self.bar = bar
        self.on = str(storage.get(STORE_KEY) or "") == "1"
        self.sent_on = None  # what the worker was last told (None: nothing yet)
        self.ready_rules = None  # (variant, options) whose table is known to be there
        self.checking = False
        self.report_for = None
        self.no_hint_on = None  # the view on which H said "no hint in a daily challenge"
        self.build()
        board.parts.add("coach", self.draw)  # drawn after the computer's part (its bar)

    # --- the controls ----------------------------------------------------------

    def build(self):
        line = el("div", "coach-line")
        self.hint_btn = el("button", "btn coach-hint", words.t("coach.hint"),
                           {"type": "button", "id": "hint-btn", "aria-keyshortcuts": "H",
                            "aria-haspopup": "dialog"})
        label = self.toggle_label = el("label", "check coach-toggle menu-item")
        self.toggle = el("input", None, None, {"type": "checkbox", "id": "coach-toggle"})
        self.toggle.checked = self.on
        label.appendChild(self.toggle)
        self.toggle_text = el("span", None, words.t("coach.toggle"))
        label.appendChild(self.toggle_text)
        self.cost = el("p", "coach-cost", "", {"id": "coach-cost", "hidden": ""})
        self.cost_shown = None  # (cost, best, better) of the line shown: worded again on a language switch
        self.report_btn = el("button", "btn coach-report-btn", words.t("report.show"),
                             {"type": "button", "id": "report-btn", "hidden": ""})
        line.appendChild(self.hint_btn)
        line.appendChild(label)
        line.appendChild(self.report_btn)
        line.appendChild(self.cost)
        self.bar.add_line(line)
        on(self.hint_btn, "click", lambda e: self.hint())
        on(self.toggle, "change", lambda e: self.toggled())
        on(self.report_btn, "click", lambda e: self.report())

        dialog = self.dialog = el("dialog", "coach-dialog", None, {"id": "hint-dialog",
                                                                    "aria-labelledby": "hint-title"})
        form = el("form", None, None, {"method": "dialog"})
        # its head: the title and Close, at the top (the dialog opens there: open_at_top)
        head = el("div", "dialog-head")
        self.dialog_title = el("h2", None, words.t("coach.title"), {"id": "hint-title", "tabindex": "-1"})
        self.dialog_body = el("div", "hint-body", None, {"id": "hint-body"})
        self.close_btn = el("button", "btn dialog-close", words.t("dialog.close"), {"value": "close", "id": "hint-close"})
        head.appendChild(self.dialog_title)
        head.appendChild(self.close_btn)
        form.appendChild(head)
        form.appendChild(self.dialog_body)
        dialog.appendChild(form)
        document.body.appendChild(dialog)
        on(dialog, "close", lambda e: self.after_dialog())
        on(dialog, "click", self.on_dialog_click)
        self.choices = []

        self.section = el("section", "coach-report", None, {"id": "coach-report", "hidden": "",
                                                           "aria-labelledby": "report-title"})

    def relabel(self):
        self.hint_btn.textContent = words.t("coach.hint")
        self.toggle_text.textContent = words.t("coach.toggle")
        self.report_btn.textContent = words.t("report.show")
        self.dialog_title.textContent = words.t("coach.title")
        self.close_btn.textContent = words.t("dialog.close")
        if self.cost_shown is not None:  # the coach's line, in the new words
            self.show_cost(*self.cost_shown)

    def person_to_play(self, view):
        """A person acts now (the engine's view says who acts)."""
        acting = view.get("acting") if view is not None else None
        return acting is not None and acting["computer"] is None and self.game.ui["ready"]

    def draw(self, view, ui, board):
        """The board's part (board_parts.py): Hint beside Roll, the coach's switch in the
        board's menu, what a move cost and the report in the bar under the dice (bar.py)."""
        if self.hint_btn.parentNode != board.actions:  # a new board: its actions and menu
            board.actions.appendChild(self.hint_btn)
            board.menu.insertBefore(self.toggle_label, board.rolloff)
        self.hint_btn.disabled = not self.person_to_play(view)
        if self.no_hint_on is not None and view is not self.no_hint_on:
            self.no_hint_on = None  # a move since H was pressed in a daily challenge
            self.bar.show_note("")
        people = any(side["computer"] is None for side in view["sides"])
        people = people and bool(view.get("help"))  # the engine's: no hint and no coach in a daily in play
        self.hint_btn.hidden = self.toggle_label.hidden = not people  # computers alone: the report only
        reporting = bool(view.get("can_report"))
        self.report_btn.hidden = not reporting
        if not reporting and not self.section.hidden:
            self.section.hidden = True
            self.report_for = None
        if view.get("moves") == 0:
            self.show_cost(None)  # a new game
        cost = ui.pop("cost", None)  # an action's reply (controller.changed)
        if cost is not None and self.on:
            if cost.get("chance") is not None:
                self.show_cost(float(cost["chance"]), cost["chance_best"], cost.get("better"), True)
            else:
                self.show_cost(float(cost["points"]), cost["best"], cost.get("better"))
        if ui["ready"] and self.keeper.gid is not None and not self.checking:
            rules = (view["variant"], json.dumps(view["options"]))
            if self.on and (self.sent_on is not True or self.ready_rules != rules):
                self.tell_worker(True, rules)
            elif not self.on and self.sent_on is True:
                self.tell_worker(False, rules)

    # --- the coach toggle ---------------------------------------------------------

    def toggled(self):
        self.on = bool(self.toggle.checked)
        storage.set(STORE_KEY, "1" if self.on else "0")
        byid("announce").textContent = words.t("coach.on" if self.on else "coach.off")
        if not self.on:
            self.show_cost(None)
        view = self.bar.view
        if view is not None and self.game.ui["ready"] and not self.checking:
            self.tell_worker(self.on, (view["variant"], json.dumps(view["options"])))

    def tell_worker(self, on_, rules):
        """One switch at a time; the toggle is aria-busy until the worker is told (tests
        wait for it before the next move)."""
        self.checking = True
        self.toggle.setAttribute("aria-busy", "true")
        spawn(self.switch(on_, rules))

    async def switch(self, on_, rules):
        """Tell the worker; before switching on, make sure the rules' table is there (a
        person's move would otherwise be refused for want of it)."""
        try:
            if on_ and self.ready_rules != rules:
                if not (await engine_client.call({"op": "coach", "on": False})).get("ok"):
                    return
                self.sent_on = False
                reply = await self.bar.ask({"op": "hint", "top": 1})
                if not reply.get("ok"):
                    self.on = False
                    self.toggle.checked = False
                    return
                self.ready_rules = rules
            reply = await engine_client.call({"op": "coach", "on": bool(on_)})
            if reply.get("ok"):
                self.sent_on = bool(on_)
                self.show_best(reply.get("view"))
        finally:
            self.checking = False
            self.toggle.removeAttribute("aria-busy")

    def show_best(self, view):
        """The board's best box as the coach now sees it, switched mid-turn: the engine's
        view drawn again where it is the one on the board (the same game and move, no
        request on its way), nothing thrown anew."""
        shown = self.bar.view
        if (view is None or shown is None or engine_client.waiting() or not self.screen.board_visible()
                or any(view.get(k) != shown.get(k) for k in ("round", "current", "rolls", "dice", "held"))):
            return
        view = dict(view)
        view["events"] = []
        self.game.draw(view)

    def said(self, reply):
        """An action's reply, drawn and announced: the live region says its cost too."""
        if "cost" in reply and self.on:
            node = byid("announce")
            node.textContent = str(node.textContent) + " " + str(self.cost.textContent)

    def show_cost(self, cost, best=False, better=None, chance=False):
        """The coach's line: "Best move.", or what the move cost and the better choice
        (the engine's: the reply's cost_better, valued as the cost is); ``chance``: the
        cost is the chance to win given up (0 to 1), not points."""
        self.cost_shown = None if cost is None else (cost, best, better, chance)
        if cost is None:
            self.cost.textContent = ""
            self.cost.hidden = True
            self.cost.removeAttribute("data-cost")
            return
        if best:
            text = words.t("coach.best")
        elif chance:
            text = words.t("coach.cost_chance", pct=percent(cost))
        else:
            text = words.t("coach.cost", points=words.points(round(cost, 2)))
        if not best and better:
            text += " " + words.t("coach.better", choice=choice_text(better))
        self.cost.textContent = text
        self.cost.setAttribute("data-cost", str(cost))
        self.cost.setAttribute("data-in", "chance" if chance else "points")
        self.cost.setAttribute("class", "coach-cost best" if best else "coach-cost")
        self.cost.hidden = False

    # --- hint ----------------------------------------------------------------------

    def hint(self):
        view = self.bar.view
        if not self.person_to_play(view) or not self.screen.board_visible():
            return
        if view.get("help") is False:
            # H in a daily challenge: no hint until it is over (the engine's view says so), said in words under the dice
            # (until the next move), not as a refusal
            text = words.t("daily.no_hint")
            self.bar.show_note(text)
            self.no_hint_on = view
            byid("announce").textContent = text
            return
        spawn(self.show_hint())

    async def show_hint(self):
        self.hint_btn.setAttribute("aria-busy", "true")
        reply = await self.bar.ask({"op": "hint", "top": TOP})
        self.hint_btn.removeAttribute("aria-busy")
        if not reply.get("ok"):  # told by engine_client, or no table (bar.ask said so)
            return
        body = self.dialog_body
        clear(body)
        view = self.bar.view
        dice = view["dice"] if view else None
        body.appendChild(el("p", "hint-dice", words.t("coach.dice", dice=dice_words(dice)) if dice
                            else words.t("coach.start")))
        choices = reply.get("hint") or []
        in_chances = bool(choices) and all(c.get("chance") is not None for c in choices)
        if not choices:
            body.appendChild(el("p", None, words.t("coach.none")))
        else:
            table = el("table", "hint-table", None, {"id": "hint-table",
                                                     "data-in": "chance" if in_chances else "points"})
            head = el("tr")
            for key in ("coach.choice", "coach.chance" if in_chances else "coach.expected", "coach.loss"):
                head.appendChild(el("th", None, words.t(key), {"scope": "col"}))
            head.appendChild(el("td"))
            thead = el("thead")
            thead.appendChild(head)
            table.appendChild(thead)
            tbody = el("tbody")
            for i, c in enumerate(choices):
                tr = el("tr", "best" if i == 0 else None, None,
                        {"data-choice": i, "data-expected": c["expected"], "data-loss": c["loss"]})
                tr.appendChild(el("th", "hint-choice", choice_text(c), {"scope": "row"}))
                if in_chances:  # the chance to win, and what it gives up against the best for the win
                    tr.setAttribute("data-chance", str(c["chance"]))
                    tr.appendChild(el("td", "hint-expected num", percent(c["chance"])))
                    tr.appendChild(el("td", "hint-loss num", words.t("coach.best_short") if c["chance_best"]
                                      else "−" + percent(c["chance_loss"])))
                else:
                    tr.appendChild(el("td", "hint-expected num", words.decimal(c["expected"])))
                    tr.appendChild(el("td", "hint-loss num",
                                      words.t("coach.best_short") if c["is_best"] else "−" + words.decimal(c["loss"])))
                cell = el("td", "hint-play")
                cell.appendChild(el("button", "btn small", words.t("coach.play"),
                                    {"type": "button", "data-play": i,
                                     "aria-label": words.t("coach.play_label", choice=choice_text(c))}))
                tr.appendChild(cell)
                tbody.appendChild(tr)
            self.choices = choices
            table.appendChild(tbody)
            body.appendChild(table)
        body.appendChild(el("p", "help", words.t("coach.help_chance" if in_chances else "coach.help")))
        self.returning = document.activeElement
        open_at_top(self.dialog, self.dialog_title)

    def on_dialog_click(self, event):
        node = event.target.closest("[data-play]")
        if node is None:
            return
        i = int(node.getAttribute("data-play"))
        self.dialog.close()
        if i < len(self.choices):
            self.play(self.choices[i])

    def play(self, c):
        """Do what a hint's choice says (the engine's own action for it)."""
        view = self.bar.view
        if not self.person_to_play(view):
            return
        self.game.act(c["request"])  # the one request that makes it (the engine's)

    def after_dialog(self):
        back = getattr(self, "returning", None)
        if back is not None and back.isConnected and not back.matches(":disabled"):
            back.focus()

    # --- the report after the game ---------------------------------------------------

    def report(self):
        view = self.bar.view
        if view is None or not view["over"]:
            return
        spawn(self.show_report())

    async def show_report(self):
        self.report_btn.setAttribute("aria-busy", "true")
        reply = await self.bar.ask({"op": "report"})
        self.report_btn.removeAttribute("aria-busy")
        if not reply.get("ok"):  # told by engine_client, or no table (bar.ask said so)
            return
        rep = reply["report"]
        node = self.section
        clear(node)
        node.appendChild(el("h3", None, words.t("report.title"), {"id": "report-title", "tabindex": "-1"}))
        if rep.get("auto_win"):
            node.appendChild(el("p", "help", words.t("report.auto_win")))
        table = el("table", "report-table", None, {"id": "report-table"})
        thead = el("thead")
        tr = el("tr")
        for key in ("report.side", "report.start", "report.final", "report.skill", "report.luck"):
            tr.appendChild(el("th", None, words.t(key), {"scope": "col"}))
        thead.appendChild(tr)
        table.appendChild(thead)
        tbody = el("tbody")
        for side in rep["sides"]:
            tr = el("tr", None, None, {"data-side": side["side"], "data-skill": side["skill_loss"],
                                       "data-luck": side["luck"], "data-final": side["final"]})
            tr.appendChild(el("th", None, side["name"], {"scope": "row"}))
            tr.appendChild(el("td", "num", words.decimal(side["start"])))
            tr.appendChild(el("td", "num", str(side["final"])))
            tr.appendChild(el("td", "num report-skill", "−" + words.decimal(side["skill_loss"]) if side["skill_loss"] else words.decimal(0)))
            luck = side["luck"]
            tr.appendChild(el("td", "num report-luck", ("+" if luck > 0 else "−" if luck < 0 else "") + words.decimal(abs(luck))))
            tbody.appendChild(tr)
        table.appendChild(tbody)
        node.appendChild(table)
        node.appendChild(el("p", "help", words.t("report.help")))
        for side in rep["sides"]:
            det = el("details", "report-side", None, {"data-side": side["side"]})
            det.appendChild(el("summary", None, words.t("report.decisions", name=side["name"])))
            t = el("table", "report-decisions")
            head = el("tr")
            for key in ("report.turn", "report.roll", "report.dice", "report.played", "report.optimal", "coach.loss"):
                head.appendChild(el("th", None, words.t(key), {"scope": "col"}))
            th = el("thead")
            th.appendChild(head)
            t.appendChild(th)
            tb = el("tbody")
            for d in side["decisions"]:
                row = el("tr", "best" if d["is_best"] else "lost", None, {"data-loss": d["loss"]})
                row.appendChild(el("td", "num", str(d["turn"])))
                row.appendChild(el("td", "num", str(d["roll"])))
                row.appendChild(el("td", None, dice_words(d["dice"])))
                row.appendChild(el("td", None, played_text(d["action"])))
                row.appendChild(el("td", None, choice_text(d["best"])))
                row.appendChild(el("td", "num", words.t("coach.best_short") if d["is_best"]
                                   else "−" + words.decimal(d["loss"])))
                tb.appendChild(row)
            t.appendChild(tb)
            det.appendChild(t)
            node.appendChild(det)
        board = self.board.root
        if not node.isConnected or node.parentNode != board:
            board.appendChild(node)
        node.hidden = False
        self.report_for = self.keeper.gid
        byid("report-title").focus()
