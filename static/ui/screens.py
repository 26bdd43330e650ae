# Shared plumbing of the score-sheet / replay / records screens: engine
# requests with their reply parsed, and which screen of the page is showing
# (home and board belong to main.py; replay and records are added here).
import asyncio
import json

import js
from pyscript import document

from dom import byid, el

TEXT = {
    "engine_failed": "The game engine failed: ",
    "dismiss": "Dismiss",
}

MINE = ["replay", "records"]
ALL = ["home", "board"] + MINE


async def call(req):
    """The engine's reply as a dict; {"ok": False, "error": ...} if the call itself failed."""
    try:
        text = await js.generalaEngine.call(json.dumps(req))
    except Exception as err:
        return {"ok": False, "error": TEXT["engine_failed"] + str(err)}
    return json.loads(str(text))


async def engine_ready():
    """True once the engine has booted (False if it failed)."""
    try:
        await js.generalaEngine.ready()
        return True
    except Exception:
        return False


def section(ident, label):
    """The <section id=ident> of one of these screens, made once after #board."""
    node = byid(ident)
    if node is None:
        node = el("section", "screen " + ident, None, {"id": ident, "hidden": "", "aria-label": label})
        byid("app").appendChild(node)
    return node


class Screens:
    """Shows one screen; remembers where the player came from for Back."""

    def __init__(self):
        self.back_to = "home"

    def visible(self):
        for name in ALL:
            node = byid(name)
            if node is not None and not node.hidden:
                return name
        return None

    def show(self, name):
        now = self.visible()
        if now in ("home", "board"):
            self.back_to = now
        for other in ALL:
            node = byid(other)
            if node is not None:
                node.hidden = other != name
        js.window.scrollTo(0, 0)

    def hide_mine(self):
        for name in MINE:
            node = byid(name)
            if node is not None:
                node.hidden = True

    def back(self, game):
        """Back to the board (if a game is on it) or home."""
        self.hide_mine()
        if self.back_to == "board" and game.view is not None:
            byid("board").hidden = False
        else:
            game.show_home()


def spawn(coro):
    asyncio.create_task(coro)


def message(text, kind="info"):
    """A visible note the player can dismiss (as main.py's message: text only)."""
    box = byid("messages")
    p = el("p", "msg msg-" + kind)
    p.appendChild(el("span", "msg-text", text))
    p.appendChild(el("button", "btn small dismiss", TEXT["dismiss"], {"type": "button", "data-dismiss": "1"}))
    box.appendChild(p)
