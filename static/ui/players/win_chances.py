# The live win chances: a row under the sheet's sums, every side's chance to win as it
# stands after the last box filled ("62%"), in a game of two sides or more. The figures
# are the engine's (generala/ai/chances.py): a move that fills a box (or undoes one)
# brings them in its reply once the engine is told so ({"op": "chances", "on": true});
# a game opened or resumed asks for them ({"op": "chances"}). A switch in the board's
# menu hides them (kept in storage); W says them in the live region (on request, never
# at every change). None in a daily challenge in play (the engine gives no help there)
# or where the rules' value table is not shipped (house options: never solved for this).
import json

import js

from engine import engine_client
from words import words
from web.dom import byid, el, on
from web.screen_switch import spawn

STORE_KEY = "generala.chances"
storage = js.generala.storage


def percent(p):
    """A chance as a whole percent, never 0 or 100 unless it is certain."""
    p = float(p)
    n = int(p * 100 + 0.5)
    if n == 0 and p > 0:
        return words.t("chances.below", n=words.percent(1))
    if n == 100 and p < 1:
        return words.t("chances.above", n=words.percent(99))
    return words.percent(n)


def chances_text(view, sides):
    """"Ana 62% · Beto 38%": each side's name and chance, in the order of the sheet."""
    return " · ".join(view["sides"][i]["name"] + " " + percent(p) for i, p in enumerate(sides))


class WinChances:
    def __init__(self, game, board, keeper, screen):
        """``game``: the controller (its view); ``board`` the board (the sheet's foot takes
        the row); ``keeper`` the stored game on the board (its id)."""
        self.game = game
        self.board = board
        self.keeper = keeper
        self.screen = screen
        self.on = str(storage.get(STORE_KEY) or "1") != "0"
        self.latest = None  # (turn key, {"sides": [...], "exact": bool}) the engine's last figures
        self.asking = None  # the turn key of a request on its way
        self.missing = None  # (game, rules) whose table could not be had (not shipped, offline)
        self.row = None  # the row of the sheet now on the board
        self.cells = []
        self.build()
        board.parts.add("chances", self.draw)

    def build(self):
        label = self.toggle_label = el("label", "check chances-toggle menu-item")
        self.toggle = el("input", None, None, {"type": "checkbox", "id": "chances-toggle"})
        self.toggle.checked = self.on
        label.appendChild(self.toggle)
        self.toggle_text = el("span", None, words.t("chances.toggle"))
        label.appendChild(self.toggle_text)
        on(self.toggle, "change", lambda e: self.toggled())

    def relabel(self):
        self.toggle_text.textContent = words.t("chances.toggle")
        if self.row is not None:
            self.row.firstChild.textContent = words.t("chances.row")

    # --- what the board shows ----------------------------------------------------------

    def key_of(self, view):
        """The figures belong to a game and a turn: a new turn (or the same one undone to)
        brings new ones."""
        return (self.keeper.gid, view["round"], view["current"], view["over"], len(view["sides"]))

    @staticmethod
    def rules_of(view):
        return (view["variant"], json.dumps(view["options"]))

    def wanted(self, view):
        """Whether the chances have a place on the board now."""
        return (self.on and view is not None and len(view["sides"]) > 1 and not view["over"]
                and bool(view.get("help")) and self.missing != (self.keeper.gid, self.rules_of(view))
                and self.game.ui["ready"])

    def place(self, board):
        """The row under the sheet's sums (a new board: a new row), counted in the sheet's
        lines (rows-N: a phone shares its height among them)."""
        sheet = board.root.querySelector("#sheet")
        if sheet is None:
            return None
        if self.row is not None and self.row.isConnected and sheet.contains(self.row):
            return self.row
        sides = len(self.game.view["sides"])
        row = el("tr", "sum chances", None, {"id": "chances-row", "hidden": ""})
        row.appendChild(el("th", None, words.t("chances.row"), {"scope": "row"}))
        self.cells = []
        for i in range(sides):
            td = el("td", "num", "", {"data-side": i})
            self.cells.append(td)
            row.appendChild(td)
        sheet.querySelector("tfoot").appendChild(row)
        self.row = row
        return row

    def lines(self, shown):
        """The sheet's rows-N class, one more line while the row is shown (``with-chances``
        says the row is counted)."""
        sheet = self.row.closest("table")
        names = str(sheet.className).split()
        counted = "with-chances" in names
        out = []
        for name in names:
            if name.startswith("rows-"):
                n = int(name[5:]) - (1 if counted else 0)
                name = "rows-" + str(n + 1 if shown else n)
            if name != "with-chances":
                out.append(name)
        if shown:
            out.append("with-chances")
        sheet.className = " ".join(out)

    def draw(self, view, ui, board):
        """The board's part (board_parts.py): the switch in the menu, the row's figures."""
        if self.toggle_label.parentNode != board.menu:
            board.menu.insertBefore(self.toggle_label, board.rolloff)
        got = ui.pop("chances", None)  # a move's reply (controller.changed)
        if got is not None:
            self.latest = (self.key_of(view), got)
        self.toggle_label.hidden = not (len(view["sides"]) > 1 and bool(view.get("help")))
        row = self.place(board)
        if row is None:
            return
        if not self.wanted(view):
            if not row.hidden:
                row.hidden = True
                self.lines(False)
            return
        key = self.key_of(view)
        if self.latest is not None and self.latest[0] == key:
            self.fill(view, self.latest[1])
        elif self.asking != key:
            row.setAttribute("aria-busy", "true")
            spawn(self.ask(key, self.rules_of(view)))
        if row.hidden:
            row.hidden = False
            self.lines(True)

    def fill(self, view, chances):
        sides = chances["sides"]
        for td, p in zip(self.cells, sides):
            td.textContent = percent(p)
            td.setAttribute("data-chance", str(p))
        self.row.setAttribute("data-key", str(view["round"]) + "/" + str(view["current"]))
        self.row.setAttribute("data-exact", "true" if chances.get("exact") else "false")
        self.row.setAttribute("aria-label", words.t("chances.said", chances=chances_text(view, sides)))
        self.row.removeAttribute("aria-busy")

    async def ask(self, key, rules):
        """The figures for the turn on the board (a game opened, the switch turned on, a
        reply that came without them); the engine is told to bring them with every box."""
        self.asking = key
        try:
            reply = await engine_client.call({"op": "chances", "on": True}, quiet=("NeedTable",))
        finally:
            self.asking = None
        view = self.game.view
        if reply.get("kind") == "NeedTable":
            # house options, or offline before the file was kept: no solving for the
            # chances; the next game asks again
            self.missing = (self.keeper.gid, rules)
        elif reply.get("ok") and view is not None and self.key_of(view) == key:
            self.latest = (key, reply["chances"])
        if view is not None and self.screen.board_visible():
            self.draw(view, {}, self.board)
        if self.row is not None and (self.latest is None or self.latest[0] != key):
            self.row.removeAttribute("aria-busy")

    def toggled(self):
        self.on = bool(self.toggle.checked)
        storage.set(STORE_KEY, "1" if self.on else "0")
        byid("announce").textContent = words.t("chances.on" if self.on else "chances.off")
        if not self.on and self.game.ui["ready"]:
            spawn(engine_client.call({"op": "chances", "on": False}))
        view = self.game.view
        if view is not None:
            self.draw(view, {}, self.board)

    def say(self):
        """W: the chances in the live region, or why there are none."""
        view = self.game.view
        if view is None:
            return
        if self.wanted(view) and self.latest is not None and self.latest[0] == self.key_of(view):
            text = words.t("chances.said", chances=chances_text(view, self.latest[1]["sides"]))
        elif len(view["sides"]) < 2 or view["over"]:
            text = words.t("chances.none")
        elif not self.on:
            text = words.t("chances.hidden")
        else:
            text = words.t("chances.none")
        byid("announce").textContent = text
