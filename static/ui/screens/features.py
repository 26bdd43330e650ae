# The page's screens besides home and the board: score-sheet mode, replays and share
# links, records, the daily challenge, the Bot lab, play by link. page_boot.py builds it
# with what they use (the controller, the board, the saved games, the screen, the engine
# client) and joins its calls to the hooks of the parts that say when (amend / resumed /
# saves_drawn / blocks / linked / relabel / opened); each screen is built here with what
# it uses. Which screen shows is web/screen_switch.py; their
# parts of the board (the entry panel, the share panel) register with it (board_parts.py).
# Export and import of saved games (transfer.py), on the home screen.
#
# Score-sheet mode is built with the page (the board asks it on every move), and export
# and import too (a new device imports its games before its engine is ready). The other
# screens (replays, records, the daily challenge, the Bot lab, play by link, a finished
# game's story in win chances: the `later`
# modules of pyscript.toml's [files]) are imported and built by build(): at
# boot when the page opens with something of theirs to show (a saved game, a link:
# page_boot.py), else once the page is ready, in short slices, so a first visit's first
# tap does not wait for them. A player who asks for one of them sooner waits for it
# (part(), use()); until they are built, the calls below that are theirs do nothing.
import asyncio

from pyscript import document

from web.dom import el
from web.screen_switch import Screens, spawn
from screens.sheetmode import SheetMode
from saves.transfer import Transfer

CSS = "./static/css/sheet.css"
# The parts build() makes, in order: their attribute here.
PARTS = ("replay", "records", "daily", "botlab", "link", "story")


class Features:
    def __init__(self, game, board, keeper, saves, screen, engine, catalog, pause, engine_taken):
        """``game``: the controller; ``board``: the board (render.Board); ``keeper``: the
        saved games as listed (saved_games.py); ``saves``: their storage (saves.py);
        ``screen``: the navigation; ``engine``: the engine client; ``catalog``: the engine's
        (the records name its variants; export files are at most its limits.file_bytes);
        ``pause``: ends a browser task (main.py), between build()'s slices;
        ``engine_taken()``: said when a game by link takes the engine's game."""
        if document.querySelector('link[href="' + CSS + '"]') is None:
            document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.game, self.board, self.keeper, self.saves = game, board, keeper, saves
        self.screen, self.engine, self.engine_taken = screen, engine, engine_taken
        self.catalog = catalog
        self.pause = pause
        self.screens = Screens(lambda: game.view is not None, screen.show_home)
        self.sheet = SheetMode(game, board, screen)
        # an imported game by link needs linkplay.py: build() awaited for it
        self.transfer = Transfer(saves, keeper, catalog["limits"], lambda: self.link, self.build)
        for name in PARTS:
            setattr(self, name, None)
        self.built = asyncio.Event()
        self.building = False
        self.lists_drawn = False  # the saved games' lists were drawn before build()

    async def build(self):
        """Import and build the other screens (once; a second call waits for the first):
        a slice of work per browser task. Then they draw what was drawn before them (the
        saved games' lists, a link in the address)."""
        if self.building:
            await self.built.wait()
            return
        self.building = True
        pause = self.pause
        # One screen's module (with what it imports that is not loaded yet) a slice.
        from screens.replayview import ReplayView
        await pause()
        from screens.records_screen import RecordsView
        await pause()
        from screens.daily_screen import Daily
        await pause()
        from screens.botlab import BotLab
        await pause()
        from screens.linkplay import LinkPlay
        await pause()
        from screens.game_story import GameStory
        await pause()

        game, catalog, board, saves, screens = self.game, self.catalog, self.board, self.saves, self.screens
        self.replay = ReplayView(game, board, self.keeper, saves, screens, catalog["limits"])
        await pause()
        # a game by link is replayed on the replay screen
        link = LinkPlay(game, board, self.keeper, self.screen, self.engine, screens, catalog["variants"],
                        self.replay, self.engine_taken)
        await pause()
        # the finished games by link count in the records
        self.records = RecordsView(saves, screens, catalog["variants"], link)
        await pause()
        self.daily = Daily(game, board, saves, catalog["variants"], catalog["games"])
        await pause()
        self.botlab = BotLab(screens, catalog["variants"])
        self.story = GameStory(game, board, self.keeper)
        self.link = link  # the last: transfer's links() finds it once all are built
        self.built.set()
        document.documentElement.setAttribute("data-screens", "built")
        if self.lists_drawn:
            self.saves_drawn()

    async def part(self, name):
        """The part ``name`` (one of PARTS), built first if it is not yet."""
        await self.build()
        return getattr(self, name)

    def use(self, name, act):
        """``act(part)`` once the part ``name`` is built (at once if it is)."""
        part = getattr(self, name)
        if part is not None:
            act(part)
            return

        async def later():
            act(await self.part(name))

        spawn(later())

    def each(self):
        """The parts built so far."""
        return [part for part in (getattr(self, name) for name in PARTS) if part is not None]

    def amend(self, req):
        """A `new` request from the setup form (score-sheet mode if chosen)."""
        self.sheet.amend(req)

    def resumed(self, entry):
        self.sheet.resumed(entry)

    def saves_drawn(self):
        self.transfer.saves_drawn()
        if self.link is None:  # not built yet: build() draws them
            self.lists_drawn = True
            return
        self.replay.saves_drawn()
        self.daily.refresh_now()
        self.link.saves_drawn()

    def blocks(self):
        """True when rolling / holding must not be sent (a score-sheet game)."""
        return self.sheet.blocks()

    def relabel(self):
        """After a language change (navigation.py relang): screens built once, in the new words."""
        self.sheet.relabel()
        self.transfer.relabel()
        for part in self.each():
            part.relabel()

    def linked(self, reply, drawn):
        """A move's reply in a game by link (controller.changed): linkplay.py keeps it."""
        if self.link is not None:  # a game by link on the board: built at boot
            self.link.linked(reply, drawn)

    def opened(self):
        """At boot, after the first screen: open a shared link (#replay=...) or a game by
        link's (#play=...). Before build() nothing: a page that opens with a link builds
        them at boot, and a link that comes later finds them built (their hashchange)."""
        if self.link is not None:
            self.replay.from_hash()
            self.link.from_hash()
