# The home screen's play choices (index.html #home, drawn in plain HTML before this
# runs): one tap against the computer with the last game and level (quickplay.py),
# hot-seat and custom games (the setup form, setup.py), saved games and records.
# A tap made before the UI was ready is kept by static/js/first-tap.mjs and played here;
# the one-tap game may be ready before the tap (page/first_game.py prepares it).
import asyncio

import js
from pyscript import document

from screens import quickplay
from words import words
from web.dom import byid, each, message, on
from screens.setup import parse_seed

html = document.documentElement
storage = js.generala.storage
PANELS = ("main", "setup", "library")
QUICK_NAMES = {"0": ["home.you"], "1": ["home.computer"]}  # the one-tap game's names, as words


class Home:
    def __init__(self, catalog, setup, controller, board, features):
        """``catalog``: the engine's catalog (its variants, levels and limits); ``setup``
        the setup form; ``controller`` starts the games chosen (start_game, begin);
        ``board`` says whether a game was drawn yet (renders); ``features`` the other
        screens (score-sheet mode's amend, records, the daily challenge, the Bot lab, play
        by link)."""
        self.levels = catalog["levels"]
        self.limits = catalog["limits"]
        catalog = self.catalog = catalog["variants"]
        self.setup = setup
        self.controller = controller
        self.board = board
        self.features = features
        # The one-tap game prepared while the page was idle (first_game.py): (request, the
        # engine's reply), None until then, False once the choice was made.
        self.prepared = None
        self.root = byid("home")
        self.pick_game = byid("quick-game")
        self.pick_level = byid("quick-level")
        for option in each(self.pick_game.querySelectorAll("option")):
            if str(option.value) not in catalog:
                option.remove()
        levels = quickplay.players(self.levels)  # the first paint's choices: the catalog's only
        for option in each(self.pick_level.querySelectorAll("option")):
            if str(option.value) not in levels:
                option.remove()
        saved = storage.get(quickplay.PREFS_KEY)
        variant, level = quickplay.read_prefs(str(saved) if saved else None, set(catalog), self.levels)
        # A game or level picked before the UI took over (first-tap.mjs) is kept.
        if not self.pick_game.hasAttribute("data-picked") or str(self.pick_game.value) not in catalog:
            self.pick_game.value = variant
        if not self.pick_level.hasAttribute("data-picked") or str(self.pick_level.value) not in levels:
            self.pick_level.value = level
        self.relabel()
        on(self.pick_game, "change", lambda e: self.picked())
        on(self.pick_level, "change", lambda e: self.remember())

    def listen(self):
        """The choices answer from now on (page_boot.py: once every part is built): a tap
        before this (the page is built a slice at a time) is kept by first-tap.mjs and
        played by first_tap()."""
        on(self.root, "click", self.on_click)
        records = byid("nav-records")  # the site's nav (index.html), outside the home screen
        if records is not None:
            on(records, "click", lambda e: self.choose("records"))
        js.window.generala.home = True  # first-tap.mjs stops keeping taps

    def engine_taken(self):
        """The engine's game is not the one-tap game prepared while idle (a game by link
        opened there): that one is not prepared from now on, and one prepared already is
        dropped (a tap on the one-tap choice then asks the engine for its game again)."""
        self.prepared = False

    def relabel(self):
        """The games' titles in the page's language (the levels are data-i18n), and the line
        that says what the game picked is."""
        for option in each(self.pick_game.querySelectorAll("option")):
            name = str(option.value)
            option.textContent = words.title(name, self.catalog[name].get("title"))
        self.game_line()

    def game_line(self):
        name = str(self.pick_game.value)
        line = byid("quick-game-line")
        if line is not None and name in self.catalog:
            line.textContent = words.summary(name, self.catalog[name].get("summary", ""))

    def picked(self):
        self.game_line()
        self.remember()

    def remember(self):
        storage.set(quickplay.PREFS_KEY, quickplay.write_prefs(str(self.pick_game.value), str(self.pick_level.value)))

    # --- panels -------------------------------------------------------------------

    def show(self, panel="main"):
        """Show ``panel`` (None: the one shown last)."""
        if panel is not None:
            self.root.setAttribute("data-panel", panel if panel in PANELS else "main")
        html.classList.remove("resuming")

    def open_setup(self, mode, seats=2):
        """The setup form: 'hotseat' (the game and the players, every seat a person), 'link' (a game by link: the game, its rules, who plays each side: linkplay.py)
        or 'custom' (everything). A seat never keeps a computer the player did not see:
        hot-seat starts from two people, or from the ``seats`` chosen on the home screen."""
        self.setup.build()
        form = byid("setup")
        form.setAttribute("data-mode", mode)
        if mode in ("hotseat", "link"):
            self.setup.seat_people(seats if mode == "hotseat" else 2)
        self.show("setup")
        js.window.scrollTo(0, 0)
        first = form.querySelector('input[name="variant"]:checked') or form.querySelector("input")
        if first:
            first.focus()

    def open_library(self):
        self.show("library")
        js.window.scrollTo(0, 0)
        byid("library-title").focus()

    def saves_drawn(self, finished):
        byid("library-empty").hidden = finished > 0

    # --- the choices ----------------------------------------------------------------

    def on_click(self, event):
        node = event.target.closest("[data-play]")
        if node:
            seats = node.getAttribute("data-seats")
            self.choose(str(node.getAttribute("data-play")), int(str(seats)) if seats else 2)
            return
        node = event.target.closest("[data-home-panel]")
        if node:
            self.show(str(node.getAttribute("data-home-panel")))
            focus = byid("play-computer")
            if focus:
                focus.focus()

    def quick_request(self):
        """The `new` request of the one-tap game: the game and level picked."""
        you, computer = words.t("home.you"), words.t("home.computer")
        return quickplay.request(str(self.pick_game.value), str(self.pick_level.value), you, computer, self.levels)

    def choose(self, choice, seats=2):
        if choice == "computer":
            prepared, self.prepared = self.prepared, False
            self.remember()
            req = self.quick_request()
            if prepared and prepared[0] == req and self.board.renders == 0:
                self.controller.begin(prepared[1], QUICK_NAMES)  # the engine's game is that one already
            else:
                asyncio.create_task(self.controller.start_game(req, QUICK_NAMES))
        elif choice in ("hotseat", "custom", "link"):
            self.open_setup(choice, seats)
        elif choice == "library":
            self.open_library()
        elif choice == "records":
            self.features.use("records", lambda records: records.open_now())
        elif choice == "daily":
            self.features.use("daily", lambda daily: daily.play_today())
        elif choice == "botlab":
            self.features.use("botlab", lambda lab: lab.open_now())

    async def start_setup(self):
        """Start the game of the setup form (its Start button)."""
        req, notes, named = self.setup.read()
        if str(byid("setup").getAttribute("data-mode")) == "link":  # a game by link (linkplay.py)
            for n in notes:
                message(n, "warn")
            link = await self.features.part("link")
            await link.start(req)
            return
        self.features.amend(req)
        for n in notes:
            message(n, "warn")
        seed_text = str(byid("seed").value).strip()
        if seed_text:
            seed = parse_seed(seed_text, self.limits["seed"])
            if seed is None:
                err = byid("setup-error")
                err.textContent = words.t("msg.bad_seed", max=self.limits["seed"])
                err.hidden = False
                return
            req["seed"] = seed
        byid("setup-error").hidden = True
        req["op"] = "new"
        await self.controller.start_game(req, named)

    def first_tap(self):
        """Play the choice tapped while the page was loading (first-tap.mjs), once."""
        choice = html.getAttribute("data-first-tap")
        if choice:
            html.removeAttribute("data-first-tap")
            self.choose(str(choice))
