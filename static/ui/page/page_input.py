# The page's input: clicks on the board and the home screen, the setup form, the
# messages' Dismiss, and the keys (keys.py and its one key map, keymap.py).
# A part of the controller (controller.Controller).

import js
from js import document

import keys
from dom import byid, on
from screens import spawn


class PageInput:
    def wire(self):
        on(byid("board"), "click", self.on_board_click)
        on(byid("home"), "click", self.on_home_click)
        on(byid("home"), "change", self.on_home_change)
        on(byid("home"), "input", self.on_home_input)
        on(byid("setup"), "submit", self.on_submit)
        on(byid("add-side"), "click", lambda e: self.add_side())
        on(byid("confirm"), "close", self.on_confirm_close)
        on(byid("messages"), "click", self.on_message_click)
        on(byid("nav-home"), "click", lambda e: self.show_home("main"))
        on(byid("nav-rules"), "click", lambda e: self.show_rules())
        on(document, "keydown", self.on_key)
        on(js.window, "pagehide", lambda e: self.save_now())
        on(js.window, "storage", self.on_storage)
        on(js.window, "focus", self.take_over)  # a click or a key on the board takes over too
        if byid("lang-pick"):
            on(byid("lang-pick"), "change", self.on_lang)

    def add_side(self):
        inp = self.setup.add_side()
        if inp:
            inp.focus()

    def on_key(self, event):
        self.take_over()
        keys.handle(event, self)

    def on_board_click(self, event):
        self.take_over()
        t = event.target
        node = t.closest("[data-split-die]")
        if node:
            self.toggle(int(node.getAttribute("data-split-die")))
            return
        node = t.closest("[data-die]")
        if node:
            self.toggle(int(node.getAttribute("data-die")))
            return
        node = t.closest("button.box")
        if node:
            self.pick_box(str(node.getAttribute("data-box")))
            return
        node = t.closest("button")
        if not node:
            return
        ident = str(node.id or "")
        action = str(node.getAttribute("data-action") or "")
        if ident == "roll":
            self.roll()
        elif ident == "undo":
            self.undo()
        elif action == "split-ok":
            self.score_split()
        elif action == "split-cancel":
            self.cancel_split()
        elif action == "again":
            spawn(self.again())
        elif action == "home":
            self.show_home("main")
        elif action == "rules":
            self.show_rules()

    def on_home_click(self, event):
        t = event.target
        node = t.closest("[data-continue]")
        if node:
            spawn(self.resume(str(node.getAttribute("data-continue"))))
            return
        node = t.closest("[data-delete]")
        if node:
            self.delete(str(node.getAttribute("data-delete")), str(node.getAttribute("data-label")))
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
        spawn(self.start())

    def on_message_click(self, event):
        node = event.target.closest("[data-dismiss]")
        if node:
            node.parentElement.remove()
