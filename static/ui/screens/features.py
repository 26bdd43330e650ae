# The score-sheet, replay and records features of the page, attached to the controller (controller.py) through a few
# calls (amend / resumed / saves_drawn / blocks / opened): score-sheet
# mode, replays and share links, records. Their own screens live in screens.py; their
# parts of the board (the entry panel, the share panel) register with it (board_parts.py).
# Export and import of saved games (transfer.py), on the home screen.
from js import document

from daily import Daily
from botlab import BotLab
from dom import el
from linkplay import LinkPlay
from records import RecordsView
from replayview import ReplayView
from screens import Screens
from sheetmode import SheetMode
from transfer import Transfer

CSS = "./static/css/sheet.css"


class Features:
    def __init__(self, game, catalog):
        """``catalog``: the engine's (the records name its variants; export files are at most
        its limits.file_bytes)."""
        if document.querySelector('link[href="' + CSS + '"]') is None:
            document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.screens = Screens()
        self.sheet = SheetMode(game)
        self.replay = ReplayView(game, self.screens, catalog["limits"])
        self.records = RecordsView(game, self.screens, catalog["variants"])
        self.transfer = Transfer(game, catalog["limits"])
        self.daily = Daily(game, catalog["variants"])
        self.botlab = BotLab(self.screens, catalog["variants"])
        self.link = LinkPlay(game, self.screens, catalog["variants"])
        self.transfer.links = self.link  # export and import carry the games by link
        self.link.replay = self.replay  # and a game by link is replayed on the replay screen
        self.records.links = self.link  # the finished games by link count in the records

    def amend(self, req):
        """A `new` request from the setup form (score-sheet mode if chosen)."""
        self.sheet.amend(req)

    def resumed(self, entry):
        self.sheet.resumed(entry)

    def saves_drawn(self):
        self.replay.saves_drawn()
        self.transfer.saves_drawn()
        self.daily.refresh_now()
        self.link.saves_drawn()

    def blocks(self):
        """True when rolling / holding must not be sent (a score-sheet game)."""
        return self.sheet.blocks()

    def relabel(self):
        """After a language change (navigation.py relang): screens built once, in the new words."""
        self.sheet.relabel()
        self.replay.relabel()
        self.records.relabel()
        self.transfer.relabel()
        self.daily.relabel()
        self.botlab.relabel()
        self.link.relabel()

    def linked(self, reply, drawn):
        """A move's reply in a game by link (controller.changed): linkplay.py keeps it."""
        self.link.linked(reply, drawn)

    def opened(self):
        """At boot, after the first screen: open a shared link (#replay=...) or a game by
        link's (#play=...)."""
        self.replay.from_hash()
        self.link.from_hash()
