# The page's input: clicks on the board and the home screen, the setup form, the
# messages' Dismiss, and the keys (keys.py and its one key map, keymap.py), each sent to
# the object it is for: the controller (the game on the board), the screen
# (navigation.py), the saved games (saved_games.py), the setup form, the home screen, the
# computer players and the coach, and the screens that take keys (score-sheet mode's
# entry, a replay: replay() is None until built); page_boot.py gives it each of them.
# Every one is a PyScript event handler (pyscript.when), listening on a container once
# (the board's dice, boxes and buttons are found from the event's target), so a board
# drawn again keeps its handlers. A tap on the board while a computer plays hurries its
# turn (computer.py); a click outside a dialog that only shows something (the hint, the
# rules) closes it.

import js
from pyscript import document, when

from page import keys
from web.dom import byid
from page.keymap import LIGHT
from web.screen_switch import spawn

# What a tap does by itself: a tap there is not taken for hurrying a computer's turn.
CONTROLS = "button:not(:disabled), input, select, textarea, label, a, summary, dialog"


class PageInput:
    def __init__(self, controller, screen, keeper, setup, home, sheet, replay, computer, coach, chances):
        self.controller = controller
        self.screen = screen
        self.keeper = keeper
        self.setup = setup
        self.home = home
        self.sheet = sheet
        self.replay = replay
        self.computer = computer
        self.coach = coach
        self.chances = chances

    def wiring(self):
        """Wire the page's handlers (pyscript.when), a few at a time: the generator yields
        between them, so that the page's boot spreads the work over browser tasks."""
        screen, keeper = self.screen, self.keeper

        @when("click", "#board")
        def board_click(event):
            self.on_board_click(event)

        @when("change", "#board")
        def board_change(event):
            self.on_board_change(event)

        @when("menu-closed", "#board")
        def menu_closed(event):
            self.on_menu_closed(event)

        @when("pointerdown", "#board")
        def board_pointer(event):
            self.on_board_pointer(event)

        @when("click", document)
        def backdrop_click(event):
            self.on_backdrop_click(event)

        @when("click", "#home")
        def home_click(event):
            self.on_home_click(event)

        @when("change", "#home")
        def home_change(event):
            self.on_home_change(event)

        @when("input", "#home")
        def home_input(event):
            self.on_home_input(event)

        yield

        @when("submit", "#setup")
        def setup_submit(event):
            self.on_submit(event)

        @when("click", "#add-side")
        def add_side():
            self.add_side()

        @when("close", "#confirm")
        def confirm_close(event):
            screen.on_confirm_close(event)

        @when("click", "#messages")
        def message_click(event):
            self.on_message_click(event)

        yield

        @when("click", "#nav-home")
        def nav_home():
            screen.show_home("main")

        @when("click", "#nav-rules")
        def nav_rules():
            self.show_rules()

        @when("keydown", document)
        def key(event):
            self.on_key(event)

        @when("pagehide", js.window)
        def leaving():
            keeper.save_now()

        @when("storage", js.window)
        def stored(event):
            keeper.on_storage(event)

        @when("focus", js.window)
        def focused():  # a click or a key on the board takes over too
            keeper.take_over()

        if byid("lang-pick"):
            @when("change", "#lang-pick")
            def language(event):
                screen.on_lang(event)

    def show_rules(self):
        """The rules of the game on the board, else of the one the setup form would start."""
        view = self.controller.view
        self.screen.show_rules(view, None if view else self.setup.read()[0])

    def add_side(self):
        """A new row, its name focused and in sight above the sticky Start bar (its
        scroll-margin, static/css/board-layout.css)."""
        inp = self.setup.add_side()
        if inp:
            inp.focus(js.JSON.parse('{"preventScroll": true}'))
            inp.closest("li").scrollIntoView(js.JSON.parse('{"block": "nearest"}'))

    def on_key(self, event):
        self.keeper.take_over()
        keys.handle(event, self.controller, self.screen, self.sheet, self.replay(), self.computer, self.coach,
                    self.chances)

    def on_menu_closed(self, event):
        """Escape closed the board's menu: the keyboard goes back to the play (the next
        thing to do: Roll, the box marked best, Play again), not to Menu."""
        if self.screen.refocus(self.controller.view, force=True):
            event.preventDefault()

    def on_board_pointer(self, event):
        """A tap on the board (its disabled dice, the sheet, the table) while a computer
        plays: the rest of its turn at once. A control that does something keeps its job."""
        computer = self.computer
        if computer.computer_turn() and event.target.closest(CONTROLS) is None:
            computer.hurry()

    def on_backdrop_click(self, event):
        """A click on the backdrop of a dialog that only shows something (LIGHT) closes it,
        as Esc does; a dialog that asks (confirm) waits for its answer."""
        dialog = event.target
        if dialog is None or str(dialog.tagName or "").lower() != "dialog" or not dialog.open:
            return
        if str(dialog.id or "") not in LIGHT:
            return
        box = dialog.getBoundingClientRect()
        x, y = event.clientX, event.clientY
        if x < box.left or x > box.right or y < box.top or y > box.bottom:
            dialog.close()

    def on_board_click(self, event):
        self.keeper.take_over()
        game = self.controller
        t = event.target
        node = t.closest("[data-split-die]")
        if node:
            game.toggle(int(node.getAttribute("data-split-die")))
            return
        node = t.closest("[data-die]")
        if node:
            game.toggle(int(node.getAttribute("data-die")))
            return
        node = t.closest("button.box")
        if node:
            game.pick_box(str(node.getAttribute("data-box")))
            return
        node = t.closest("button")
        if not node:
            return
        ident = str(node.id or "")
        action = str(node.getAttribute("data-action") or "")
        if ident == "roll":
            game.roll()
        elif ident == "undo":
            game.undo()
        elif ident == "take-win":
            game.take_win()
        elif action == "split-ok":
            game.score_split()
        elif action == "split-cancel":
            game.cancel_split()
        elif action == "again":
            spawn(game.again())
        elif action == "home":
            self.screen.show_home("main")
        elif action == "rules":
            self.show_rules()
        elif action == "records":
            self.home.choose("records")

    def on_board_change(self, event):
        """The board menu's language picker: the same as the site header's."""
        if str(event.target.id or "") == "board-lang":
            byid("lang-pick").value = event.target.value
            self.screen.on_lang(event)

    def on_home_click(self, event):
        t = event.target
        node = t.closest("[data-continue]")
        if node:
            spawn(self.controller.resume(str(node.getAttribute("data-continue"))))
            return
        node = t.closest("[data-delete]")
        if node:
            self.keeper.delete(str(node.getAttribute("data-delete")), str(node.getAttribute("data-label")))
            return
        node = t.closest("[data-remove]")
        if node:
            self.setup.remove_side(str(node.getAttribute("data-remove")))

    def on_home_change(self, event):
        t = event.target
        if t.getAttribute("data-variant"):
            self.setup.choose(str(t.value))
        elif t.getAttribute("data-team"):
            self.setup.toggle_team(str(t.getAttribute("data-team")), bool(t.checked))

    def on_home_input(self, event):
        t = event.target
        k = t.getAttribute("data-name") or t.getAttribute("data-members")
        if k:
            self.setup.check_name(str(k))

    def on_submit(self, event):
        event.preventDefault()
        spawn(self.home.start_setup())

    def on_message_click(self, event):
        node = event.target.closest("[data-dismiss]")
        if node:
            node.parentElement.remove()
