# Score-sheet mode: the table throws real dice, the page is the sheet.
# Each turn the player enters the dice (tap faces or type 44126; ten dice for
# double) and on which roll they came; the board (render.py) then shows what each
# box would earn and the player picks the box (two boxes and a split for double)
# exactly as in a rolled game. Undo takes back the box, then the entry.
# For Bulgarian the paper sheet of seed 000 is drawn live under the board.
import js
from pyscript import document
from pyscript.ffi import create_proxy

from screens import papersheet
from words import words
from web.dom import byid, clear, el, on
from board.render import mini_dice


def parse_dice(text, count):
    """(dice, error) from typed text such as "44126" or "4 4 1 2 6"."""
    dice = []
    for ch in str(text):
        if ch in " ,-.":
            continue
        if ch not in "123456":
            return dice, words.t("sheetmode.bad", c=ch)
        dice.append(int(ch))
    if len(dice) > count:
        return dice[:count], words.tn("sheetmode.too_many", count)
    return dice, None


class SheetMode:
    def __init__(self, game, board, screen):
        """``game``: the controller (its view, ui, act()); ``board`` the board (the entry
        panel is one of its parts); ``screen`` the navigation (is the board shown)."""
        self.game = game
        self.board = board
        self.screen = screen
        self.on = False
        self.dice = []
        self.count = None  # the view's dice_count, once a view is drawn
        self.rolls = None  # the view's entry_rolls: the rolls an entry may name
        self.panel = None
        self.note = None
        self.paper = None
        self.turn_key = None
        self.spoken = ""
        self.speak_proxy = create_proxy(self.speak)
        self.add_choice()
        board.parts.add("sheet", self.draw)

    # --- setup form --------------------------------------------------------

    def add_choice(self):
        form = byid("setup")
        if form is None or byid("sheet-mode") is not None:
            return
        box = el("div", "sheet-choice option", None, {"id": "sheet-choice"})
        label = el("label", "check")
        self.checkbox = el("input", None, None, {"type": "checkbox", "id": "sheet-mode",
                                                 "aria-describedby": "sheet-mode-help"})
        label.appendChild(self.checkbox)
        label.appendChild(el("span", None, words.t("sheetmode.choice")))
        box.appendChild(label)
        box.appendChild(el("p", "help", words.t("sheetmode.choice_help"), {"id": "sheet-mode-help"}))
        # right under the choice of game: it decides how the whole game is played
        anchor = byid("house-options") or form.querySelector(".seed") or byid("setup-error")
        anchor.parentNode.insertBefore(box, anchor)

    def relabel(self):
        """After a language change: the setup choice and the entry panel in the new words
        (the dice typed so far are kept)."""
        box = byid("sheet-choice")
        if box is not None:
            box.querySelector("label span").textContent = words.t("sheetmode.choice")
            box.querySelector(".help").textContent = words.t("sheetmode.choice_help")
        typed = str(self.text.value) if self.panel is not None else ""
        at = [r.checked for r in self.radios] if self.panel is not None else None
        for node in (self.panel, self.note):
            if node is not None and node.parentNode is not None:
                node.remove()
        if self.paper is not None:
            self.paper.querySelector("summary").textContent = words.t("sheetmode.paper")
        self.panel = None
        self.note = None
        view = self.game.view
        if view is not None and self.screen.board_visible():
            self.draw(view, self.game.ui, self.board)
            if self.panel is not None:
                self.text.value = typed
                if at:
                    for r, checked in zip(self.radios, at):
                        r.checked = checked
                self.dice, error = parse_dice(typed, self.count)
                self.draw_chosen()

    def amend(self, req):
        """A `new` request from the form: score-sheet mode if chosen."""
        self.on = bool(byid("sheet-mode") and byid("sheet-mode").checked)
        if self.on:
            req["sheet"] = True
            req.pop("seed", None)
        self.reset_entry()

    def resumed(self, entry):
        """A stored game opened on the board: score-sheet mode as its list field says, until
        its view is drawn (draw: the view's sheet)."""
        self.on = bool(entry.get("sheet"))
        self.reset_entry()

    def reset_entry(self):
        self.dice = []
        self.turn_key = None

    # --- the entry panel -------------------------------------------------------

    def build_panel(self, count, rolls):
        self.count = count
        self.rolls = rolls
        form = el("form", "entry", None, {"id": "entry", "novalidate": "", "aria-labelledby": "entry-title"})
        form.appendChild(el("h3", "entry-title", "", {"id": "entry-title"}))
        faces = el("div", "entry-faces", None, {"role": "group", "aria-label": words.t("sheetmode.faces")})
        for f in range(1, 7):
            b = el("button", "btn entry-face", None, {"type": "button", "data-entry-face": f,
                                                       "aria-label": words.t("sheetmode.face") + str(f)})
            b.appendChild(mini_dice([f]))
            faces.appendChild(b)
        form.appendChild(faces)
        self.chosen = el("div", "entry-chosen", None, {"id": "entry-chosen", "aria-live": "polite"})
        form.appendChild(self.chosen)
        row = el("div", "entry-row")
        row.appendChild(el("label", None, words.t("sheetmode.typed"), {"for": "entry-text"}))
        self.text = el("input", "entry-text", None, {"id": "entry-text", "inputmode": "numeric",
                                                     "autocomplete": "off", "maxlength": "30",
                                                     "placeholder": "".join(str(1 + i // 2) for i in range(count))})
        row.appendChild(self.text)
        form.appendChild(row)
        fs = el("fieldset", "entry-at")
        fs.appendChild(el("legend", None, words.t("sheetmode.roll")))
        self.radios = []
        for at in rolls:
            lab = el("label", "check")
            r = el("input", None, None, {"type": "radio", "name": "entry-at", "value": at,
                                         "data-entry-at": at})
            self.radios.append(r)
            lab.appendChild(r)
            lab.appendChild(el("span", None, words.t("sheetmode.rolls")[at - 1]))
            fs.appendChild(lab)
        form.appendChild(fs)
        self.error = el("p", "field-error", None, {"id": "entry-error", "hidden": "", "role": "alert"})
        form.appendChild(self.error)
        buttons = el("div", "actions")
        buttons.appendChild(el("button", "btn primary", words.t("sheetmode.ok"), {"type": "submit", "id": "entry-ok"}))
        buttons.appendChild(el("button", "btn", words.t("sheetmode.clear"), {"type": "button", "id": "entry-clear"}))
        form.appendChild(buttons)
        on(form, "submit", self.on_submit)
        on(form, "click", self.on_click)
        on(self.text, "input", self.on_input)
        self.panel = form
        self.note = el("p", "entry-note", "", {"id": "entry-note", "hidden": ""})
        return form

    def place(self, node, after):
        """Put ``node`` right after ``after`` in #board (render.py rebuilds the board per game)."""
        if node.parentNode is None or not node.parentNode.isSameNode(after.parentNode) \
                or node.previousElementSibling is None or not node.previousElementSibling.isSameNode(after):
            after.parentNode.insertBefore(node, after.nextSibling)

    def draw_chosen(self):
        clear(self.chosen)
        if not self.dice:
            self.chosen.appendChild(el("span", "help", words.t("sheetmode.empty")))
        for i, d in enumerate(self.dice):
            b = el("button", "btn small entry-die", None, {"type": "button", "data-entry-remove": i,
                                                           "aria-label": words.t("sheetmode.remove") + str(d)})
            b.appendChild(mini_dice([d]))
            self.chosen.appendChild(b)
        self.chosen.appendChild(el("span", "entry-count", str(len(self.dice)) + " / " + str(self.count)))

    def show_error(self, text):
        self.error.textContent = text or ""
        self.error.hidden = not text

    # --- the board's part (board_parts.py) ------------------------------------

    def draw(self, view, ui, board):
        """After the board: the entry panel under the tray, the paper sheet under the sheet."""
        root = board.root
        self.on = bool(view["sheet"])  # the engine's word: a score-sheet game
        if not self.on:
            if root.getAttribute("data-mode") == "sheet":
                root.removeAttribute("data-mode")
            for node in (self.panel, self.note, self.paper):
                if node is not None and node.parentNode is not None:
                    node.remove()
            return
        root.setAttribute("data-mode", "sheet")
        count, rolls = view["dice_count"], view.get("entry_rolls") or []
        if self.panel is None or self.count != count or self.rolls != rolls:
            self.build_panel(count, rolls)
        self.place(self.panel, board.tray)
        self.place(self.note, self.panel)
        entering = view["can_enter"]  # the engine says when dice may be entered
        self.panel.hidden = not entering
        key = (view["current"], view["round"], view["over"])
        if entering:
            side = view["sides"][view["current"]]
            who = view["player"] if view["player"] else side["name"]
            self.panel.querySelector("#entry-title").textContent = words.t("sheetmode.title") + str(who)
            if key != self.turn_key:
                # a new turn: fresh entry, the last roll (no served bonus unless said so)
                self.turn_key = key
                self.dice = []
                self.text.value = ""
                if self.radios:
                    self.radios[-1].checked = True
                self.show_error(None)
                self.draw_chosen()
                # keyboard players type the next dice at once (unless focus is elsewhere on purpose)
                active = document.activeElement
                if active is None or active.isSameNode(document.body) or root.contains(active) \
                        or active.offsetParent is None:  # on a hidden screen (Start, Play again)
                    self.text.focus()
        else:
            self.turn_key = None
        if view["dice"] is not None and not view["over"]:
            dice = " ".join(str(d) for d in view["dice"])
            if view["boxes_per_turn"] == 2:
                self.note.textContent = words.t("sheetmode.entered_two", dice=dice, at=view["rolls"])
            else:
                self.note.textContent = words.t("sheetmode.entered", dice=dice, at=view["rolls"],
                                                served=words.t("sheetmode.served") if view.get("served") else "")
            self.note.hidden = False
        else:
            self.note.hidden = True
        self.announce(view)
        self.draw_paper(view, board.wrap)

    def announce(self, view):
        """The live region after an entry (saved_games.py words rolls and scores, not entries):
        set just after saved_games.py has written its own (empty) sentence for this reply."""
        last = view.get("last") or {}
        if last.get("type") not in ("other", "auto-win") or view["dice"] is None:
            return
        if view["auto_win"]:
            w = view["auto_win"]
            name = view["sides"][w["side"]]["name"]
            self.spoken = words.t("sheetmode.auto_win", who=name, dice=" ".join(str(d) for d in view["dice"]),
                                  kind=words.AUTO_WINS.get(w["kind"], w["kind"]))
        elif not view["over"]:
            self.spoken = self.note.textContent
        else:
            return
        js.setTimeout(self.speak_proxy, 0)

    def speak(self, *args):
        if self.spoken:
            byid("announce").textContent = self.spoken
            self.spoken = ""

    def draw_paper(self, view, wrap):
        if not papersheet.has_paper(view):
            if self.paper is not None and self.paper.parentNode is not None:
                self.paper.remove()
            return
        if self.paper is None:
            self.paper = el("details", "paper-wrap", None, {"id": "paper", "open": ""})
            self.paper.appendChild(el("summary", None, words.t("sheetmode.paper")))
        self.place(self.paper, wrap)
        old = self.paper.querySelector("table")
        table = papersheet.sheet_table(view, "paper-sheet")
        if old is not None:
            old.replaceWith(table)
        else:
            self.paper.appendChild(table)

    # --- events --------------------------------------------------------------

    def entering(self):
        g = self.game
        return (self.on and self.panel is not None and not self.panel.hidden and g.view is not None
                and g.ui["ready"] and g.screen.board_visible())

    def add(self, face):
        if len(self.dice) < self.count:
            self.dice.append(face)
            self.text.value = "".join(str(d) for d in self.dice)
            self.show_error(None)
            self.draw_chosen()

    def remove(self, i):
        if 0 <= i < len(self.dice):
            self.dice.pop(i)
            self.text.value = "".join(str(d) for d in self.dice)
            self.draw_chosen()

    def on_click(self, event):
        t = event.target
        node = t.closest("[data-entry-face]")
        if node:
            self.add(int(node.getAttribute("data-entry-face")))
            return
        node = t.closest("[data-entry-remove]")
        if node:
            self.remove(int(node.getAttribute("data-entry-remove")))
            return
        node = t.closest("#entry-clear")
        if node:
            self.dice = []
            self.text.value = ""
            self.show_error(None)
            self.draw_chosen()

    def on_input(self, event):
        dice, error = parse_dice(self.text.value, self.count)
        self.dice = dice
        self.show_error(error)
        self.draw_chosen()

    def on_submit(self, event):
        event.preventDefault()
        self.submit()

    def submit(self):
        if not self.entering():
            return
        dice, error = parse_dice(self.text.value, self.count)
        if error is None and len(dice) != self.count:
            error = words.t("sheetmode.count", n=self.count, k=len(dice))
        if error:
            self.show_error(error)
            self.text.focus()
            return
        at = 3
        for r in self.radios:
            if r.checked:
                at = int(r.value)
        self.show_error(None)
        self.game.act({"op": "enter", "dice": dice, "at": at})

    def blocks(self):
        """Rolling and holding are not for a score-sheet game (the table rolls)."""
        return self.on
