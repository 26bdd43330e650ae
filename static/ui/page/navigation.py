# What the person sees around the board: the home screen or the board, the rules
# dialog, the confirm dialog, the live region and the notes, the language of every word
# on the page, and where the keyboard focus goes. The controller's `screen`
# (controller.py). It knows none of the parts it switches between: it says what happens
# through the hooks it is built with (web/hooks.py; page_boot.py joins the parts to them):
# leaving() when the board is left (the stored game closed, the lists drawn again),
# home_shown(panel) once the home screen shows, relabelled() after a language change
# (each part redraws its words).

import js
from pyscript import document

from words import words
from web.dom import byid, clear, each, el, message, open_at_top

html = document.documentElement
LANG_KEY = "generala.lang"  # the language chosen with the picker (saved by static/js/first-tap.mjs)


def translate_page():
    """The page's own words (index.html data-i18n / data-i18n-attr) and <html lang>."""
    html.setAttribute("lang", words.lang())
    document.title = words.t("page.title")
    meta = document.querySelector('meta[name="description"]')
    if meta:
        meta.setAttribute("content", words.t("page.description"))
    for node in each(document.querySelectorAll("[data-i18n]")):
        node.textContent = words.t(str(node.getAttribute("data-i18n")))
    for node in each(document.querySelectorAll("[data-i18n-attr]")):
        for part in str(node.getAttribute("data-i18n-attr")).split(";"):
            name, key = part.split(":")
            node.setAttribute(name.strip(), words.t(key.strip()))
    pick = byid("lang-pick")
    if pick:
        pick.value = words.lang()


def set_state(state):
    # Never overwrite an error reported earlier (e.g. by engine.mjs).
    if html.dataset.state != "error":
        html.dataset.state = state


def status(text):
    byid("engine-status").textContent = text


class Navigation:
    def __init__(self, catalog, leaving, home_shown, relabelled):
        self.catalog = catalog
        self.leaving = leaving
        self.home_shown = home_shown
        self.relabelled = relabelled
        self.confirm_cb = None

    def board_visible(self):
        return not byid("board").hidden

    def show_home(self, panel=None):
        """The home screen: ``panel`` ("main", "setup", "library"), or the one it showed
        last (back from a replay or the records opened from the saved games)."""
        self.leaving()
        byid("board").hidden = True
        byid("home").hidden = False
        js.window.scrollTo(0, 0)  # the home screen opens at its top (New game at a game's end: Play in sight)
        self.home_shown(panel)
        byid("nav-home").hidden = True
        byid("nav-rules").hidden = True

    def show_board(self):
        html.classList.remove("resuming")  # static/js/page-lang.js: a game to resume
        byid("home").hidden = True
        byid("board").hidden = False
        byid("nav-home").hidden = False
        byid("nav-rules").hidden = False
        js.window.scrollTo(0, 0)  # a game opens at its top, wherever the form was scrolled

    def announce(self, text):
        """Said by the live region (#announce)."""
        byid("announce").textContent = text

    def message(self, text, kind="info"):
        message(text, kind)

    def status(self, text):
        status(text)

    def focus(self, ident):
        node = byid(ident)
        if node is not None:
            node.focus()

    def show_rules(self, view, req):
        """The rules of the game on the board (its ``view``), else of the game the setup
        form's request ``req`` would start."""
        if view:
            variant, title, options = view["variant"], view["title"], view["options"]
        else:
            variant, options = req["variant"], req["options"]
            title = self.catalog[variant]["title"]
        body = byid("rules-body")
        clear(body)
        byid("rules-title").textContent = words.t("rules.title_game", title=words.title(variant, title))
        if view and any(row["mandatory"] for row in view["rows"]):  # the sheet's * and O, first
            body.appendChild(el("p", "rules-legend", words.t("sheet.par_legend"), {"id": "rules-legend"}))
        for para in words.RULES.get(variant, []):
            body.appendChild(el("p", None, para))
        if options:
            body.appendChild(el("h3", None, words.t("rules.house")))
            ul = el("ul", "rules-options")
            info = self.catalog.get(variant, {})
            helps = {o["name"]: o["help"] for o in info.get("options", [])}
            order = info.get("sheet_order") or []  # in the order of the boxes they change
            for name in sorted(options, key=lambda n: order.index(n) if n in order else len(order)):
                li = el("li", None, None, {"data-option": name})
                li.appendChild(el("strong", None, words.option(name) + ": " + words.option_value(options[name])))
                if name in helps:
                    li.appendChild(el("span", "help", " — " + words.option_help(name, helps[name])))
                ul.appendChild(li)
            body.appendChild(ul)
        body.appendChild(el("h3", None, words.t("help.title")))
        body.appendChild(el("p", "help", words.t("help.intro")))
        ul = el("ul", "keys-help")
        for line in words.t("help.keys"):
            ul.appendChild(el("li", None, line))
        body.appendChild(ul)
        from screens import linkplay  # playing by link, and its honest limits

        linkplay.help_nodes(body)
        open_at_top(byid("rules"), byid("rules-title"))

    def ask(self, text, ok_label, callback):
        dialog = byid("confirm")
        byid("confirm-text").textContent = text
        byid("confirm-ok").textContent = ok_label
        dialog.returnValue = ""
        self.confirm_cb = callback
        dialog.showModal()
        byid("confirm-cancel").focus()

    def on_confirm_close(self, event):
        cb = self.confirm_cb
        self.confirm_cb = None
        if cb and str(byid("confirm").returnValue) == "ok":
            cb()

    def on_lang(self, event):
        code = str(byid("lang-pick").value)
        js.generala.keepLanguage(code)  # saved, and ?lang= dropped (static/js/first-tap.mjs)
        self.relang(code)

    def relang(self, code):
        """Redraw every word in the language ``code``; nothing the player entered is lost."""
        words.set_lang(code)
        translate_page()
        if str(js.generala.engine.state) == "ready":  # else "starting the engine" is said anew
            byid("engine-status").textContent = ""
        self.relabelled()
        byid("announce").textContent = words.t("lang.label") + ": " + words.NAMES[code]

    def refocus(self, view, force=False):
        """Keep the keyboard on the board: when the focused control went away (a filled
        box, a closed split, Roll after the last roll) or is the board's Menu (the play
        moved on while it had the focus), focus the next thing to do: the box marked best
        when a box is to be chosen. ``force``: whatever has the focus (Escape closed the
        menu). True when something was focused."""
        active = document.activeElement
        if not force and active and not (active == document.body or active.matches(":disabled") or active.closest("[hidden]")
                                         or str(active.id or "") == "board-menu-btn"):
            return False
        target = None
        if view and view["over"]:
            target = byid("again")
        elif view and view["can_roll"] and not byid("roll").disabled:
            target = byid("roll")
        else:  # the box the view's previews mark best (render.best_preview), else the first
            target = (document.querySelector("#sheet button.box.best:not([hidden]):not(:disabled)")
                      or document.querySelector("#sheet button.box:not([hidden]):not(:disabled):not(.refused)"))
        if target:
            target.focus()
            return True
        return False
