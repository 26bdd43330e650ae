# Which screen of the page is showing (home and board belong to controller.py;
# replay and records are added here), for the score-sheet / replay / records screens.
import asyncio

import js

from web.dom import byid, el

MINE = ["replay", "records", "botlab", "linkplay"]
ALL = ["home", "board"] + MINE


def section(ident, label):
    """The <section id=ident> of one of these screens, made once after #board."""
    node = byid(ident)
    if node is None:
        node = el("section", "screen " + ident, None, {"id": ident, "hidden": "", "aria-label": label})
        byid("app").appendChild(node)
    return node


class Screens:
    """Shows one screen; remembers where the player came from for Back."""

    def __init__(self, game_on_board, show_home):
        """``game_on_board()``: whether a game is on the board (Back goes there);
        ``show_home()``: the home screen shown (navigation.py)."""
        self.game_on_board = game_on_board
        self.show_home = show_home
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

    def back(self):
        """Back to the board (if a game is on it) or home."""
        self.hide_mine()
        if self.back_to == "board" and self.game_on_board():
            byid("board").hidden = False
        else:
            self.show_home()


def spawn(coro):
    asyncio.create_task(coro)


