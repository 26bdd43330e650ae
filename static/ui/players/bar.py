# The bar under the dice, shared by the computer players (computer.py: who plays, Skip)
# and the coach (coach_panel.py: Hint, the coach switch, the cost of a move, the report), and
# what both need from the engine:
#
#   view        the last view drawn on the board (set by the computer's part, which
#               prepares every draw)
#   ask(req)    a request that may need the rules' value table: NeedTable -> the table
#               solved in slices, with progress in the bar -> the request sent again
#   solve()     that solving alone (a computer's turn that needs the table)
#   show_note   a line of text under the bar
import asyncio

import js
from pyscript.ffi import create_proxy

from engine import engine_client
from words import words
from web.dom import byid, el

SOLVE_BUDGET_MS = 150


class Bar:
    def __init__(self):
        self.view = None
        self.root = el("div", "ai-bar", None, {"id": "ai-bar"})
        self.progress = el("p", "ai-progress", None, {"id": "ai-progress", "hidden": "", "role": "status"})
        self.progress_bar = el("progress", None, None, {"max": "100", "value": "0", "aria-hidden": "true"})
        self.progress_text = el("span", "ai-progress-text", "")
        self.progress.appendChild(self.progress_bar)
        self.progress.appendChild(self.progress_text)
        self.note = el("p", "ai-note", "", {"id": "ai-note", "hidden": ""})
        self.root.appendChild(self.progress)
        self.root.appendChild(self.note)
        self.solving = False  # a table being solved: one at a time
        self.loading_proxy = create_proxy(lambda *a: self.loading())

    def add_line(self, line, first=False):
        """A part's line in the bar: the computer's first, the coach's last."""
        if first:
            self.root.insertBefore(line, self.root.firstChild)
        else:
            self.root.appendChild(line)

    def place(self, board):
        """Put the bar under the dice (the board is rebuilt for every new game)."""
        if not self.root.isConnected:
            board.tray.parentNode.insertBefore(self.root, board.tray.nextSibling)

    def show_note(self, text):
        self.note.textContent = text or ""
        self.note.hidden = not text

    # --- requests that need the rules' value table ----------------------------------

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
                if not self.solving:
                    self.progress.hidden = True
            if reply.get("kind") != "NeedTable" or attempt:
                return reply
            if not await self.solve():
                return reply
        return reply

    def loading(self):
        if not self.solving:
            self.progress_bar.removeAttribute("value")  # indeterminate
            self.progress_text.textContent = words.t("coach.loading")
            self.progress.hidden = False

    async def solve(self):
        """Compute the open game's value table in slices, showing progress. True when done."""
        while self.solving:
            await asyncio.sleep(0.2)
        self.solving = True
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
            self.solving = False
            self.progress.hidden = True
        if ok:
            byid("announce").textContent = words.t("coach.solved")
        else:
            self.show_note(words.t("coach.no_table"))
        return ok
