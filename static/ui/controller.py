# The main-thread UI (PyScript MicroPython): events -> engine requests -> draw the view.
# main.py imports the modules one browser task at a time, then runs boot() here.
#
# Boot contract: <html data-state> goes loading -> ui-ready (the page answers
# input: setup form, saved games, the saved board drawn from its last view) ->
# ready (the engine can roll) or error (with a visible message).
#
# Only this thread touches the DOM and storage; storage goes through
# js.generalaStorage (never throws); JS calls that may fail are awaited promises
# (MicroPython can catch a rejected promise, not a synchronous throw). The game
# lives in the engine worker: this side keeps the last view it drew and the
# player's transient choices (the two boxes and the split of the ten dice).
import asyncio
import gc
import json

import js
from pyscript import document
from pyscript.ffi import create_proxy

import computer
import engine_client
import extras
import keys
import words
from dom import byid, clear, each, el, message, on
from replies import stored
from render import Board
from render import sheet_mark as render_sheet_mark
from saves import CONFLICT, FAILED, PREFIX, REV_READ, Saves, describe, rev_of, when
from shapes import sheet_game, size_text
from setup import Setup

html = document.documentElement
storage = js.generalaStorage
MAX_SEED = 2 ** 63 - 1
LANG_KEY = "generala.lang"  # the language chosen with the picker


def choose_lang():
    """?lang= (validated), else the saved choice, else navigator.languages, else English.
    Returns a rejected ?lang= value (shown once the words are in place) or None."""
    search = js.URLSearchParams.new(js.location.search)
    url = search.get("lang")
    saved = storage.get(LANG_KEY)
    try:
        browser = json.loads(str(js.JSON.stringify(js.navigator.languages or [])))
    except Exception:
        browser = []
    code, bad = words.pick_lang(None if url is None else str(url), str(saved) if saved else None, browser)
    words.set_lang(code)
    return bad


def adopt_screens():
    """The issue-8 screens keep their English in TEXT dicts: words translates them in place."""
    import chart
    import papersheet
    import records
    import replayview
    import sheetmode
    for name, mod in (("chart", chart), ("papersheet", papersheet), ("records", records),
                      ("replayview", replayview), ("sheetmode", sheetmode)):
        words.adopt(name, mod.TEXT)


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


def spawn(coro):
    asyncio.create_task(coro)


class Game:
    """The controller: one per page."""

    def __init__(self, catalog, params):
        """The state; assemble() then builds the screens."""
        self.catalog = catalog
        self.params = params
        self.saves = Saves(storage)
        self.board = Board(byid("board"))
        self.view = None
        self.gid = None
        self.created = None
        self.rev = 0  # the stored rev this board shows (saves.py: two tabs on one game)
        self.watching = False  # following another tab's moves until the player acts here
        self.unsaved = False  # a write failed: told once per game, the game goes on in memory
        self.pending = None
        self.save_proxy = create_proxy(lambda: self.save_now())
        self.gc_proxy = create_proxy(lambda: gc.collect())
        self.frame_proxy = create_proxy(lambda t: js.setTimeout(self.gc_proxy, 0))
        self.renders = 0
        self.ui = {"ready": False, "picked": [], "split": None, "scoring": False}
        self.later = None  # a saved game to open with the engine's view once it is ready
        self.confirm_cb = None

    async def assemble(self, pause):
        """Build the screens, one browser task each (main.py: no long task at boot)."""
        self.setup = Setup(self.catalog, self.params.get("variant"))
        await pause()
        self.extras = extras.Extras(self, self.catalog)  # score sheet, replay, records
        await pause()
        self.computer = computer.Computer(self, message)  # computer players, coach
        self.seed = self.params.get("seed")
        if self.seed is not None:
            byid("seed").value = str(self.seed)
        self.wire()

    # --- screens ------------------------------------------------------------

    def board_visible(self):
        return not byid("board").hidden

    def show_home(self):
        self.save_now()
        self.gid = None
        self.view = None
        self.saves.set_current(None)
        self.draw_saves()
        byid("board").hidden = True
        byid("home").hidden = False
        byid("nav-home").hidden = True
        byid("nav-rules").hidden = True

    def show_board(self):
        byid("home").hidden = True
        byid("board").hidden = False
        byid("nav-home").hidden = False
        byid("nav-rules").hidden = False

    def draw(self, view, predicted=False):
        """Draw a view: the engine's, or one predicted at a click (a hold) until its reply."""
        self.computer.showing(view)
        self.view = view
        self.board.update(view, self.ui)
        self.extras.drawn(view)
        self.computer.drawn(view)
        self.rendered(predicted)
        # Collect garbage once the frame is painted, not in the middle of the next click.
        js.requestAnimationFrame(self.frame_proxy)

    def rendered(self, predicted):
        """Count the board's renders (tests and benchmarks wait on data-rendered);
        data-drawn says whether the last one showed the engine's reply or a prediction."""
        self.renders += 1
        root = self.board.root
        root.setAttribute("data-rendered", str(self.renders))
        root.setAttribute("data-drawn", "predicted" if predicted else "engine")


    def draw_saves(self):
        unfinished, finished, broken = self.saves.listing()
        self.fill_list("continue", unfinished, self.continue_item)
        self.fill_list("history", finished, self.history_item)
        self.fill_list("aside", broken, self.aside_item)
        self.extras.saves_drawn()

    def fill_list(self, name, items, make):
        ul = byid(name + "-list")
        clear(ul)
        for item in items:
            ul.appendChild(make(item))
        byid(name + "-section").hidden = not items

    def continue_item(self, entry):
        li = el("li", "save", None, {"data-save": entry["id"]})
        text = el("span", "save-text")
        text.appendChild(el("span", "save-title", describe(entry)))
        sheet_mark(text, entry)
        meta = (when(entry.get("updated") or 0) if entry.get("round") is None or entry.get("turns") is None else
                words.t("save.turn", round=entry.get("round"), turns=entry.get("turns"),
                        when=when(entry.get("updated") or 0)))
        text.appendChild(el("span", "save-meta", meta))
        li.appendChild(text)
        li.appendChild(el("button", "btn primary small", words.t("save.continue"),
                          {"type": "button", "data-continue": entry["id"],
                           "aria-label": words.t("save.continue_label", game=describe(entry))}))
        li.appendChild(self.delete_button(entry["id"], describe(entry)))
        return li

    def history_item(self, entry):
        li = el("li", "save", None, {"data-save": entry["id"]})
        text = el("span", "save-text")
        text.appendChild(el("span", "save-title", words.title(entry.get("variant"), entry.get("title") or words.t("save.game"))))
        sheet_mark(text, entry)
        result = sorted(entry.get("result") or [], key=lambda r: r[1] or 99)
        text.appendChild(el("span", "save-result", ", ".join(
            words.t("save.result", place=words.ordinal(r[1]), name=r[0], total=r[2]) for r in result)))
        text.appendChild(el("span", "save-meta", when(entry.get("updated") or 0)))
        li.appendChild(text)
        li.appendChild(self.delete_button(entry["id"], describe(entry)))
        return li

    def aside_item(self, item):
        gid, label, reason = item
        li = el("li", "save broken", None, {"data-save": gid})
        text = el("span", "save-text")
        text.appendChild(el("span", "save-title", label))
        text.appendChild(el("span", "save-meta", words.t("save.broken", reason=reason)))
        li.appendChild(text)
        li.appendChild(self.delete_button(gid, label))
        return li

    def delete_button(self, gid, label):
        return el("button", "btn small danger", words.t("save.delete"),
                  {"type": "button", "data-delete": gid, "data-label": label,
                   "aria-label": words.t("save.delete_label", game=label)})

    # --- engine -------------------------------------------------------------

    async def call(self, req, quiet=False):
        """Send a request (engine_client.call); a refused one draws the view it came with."""
        reply = await engine_client.call(req, quiet)
        if not reply.get("ok") and reply.get("view") and self.view is not None:
            self.draw(reply["view"])
        return reply

    def changed(self, reply, draw=True):
        """After an action: draw, announce, autosave (the save's text as it came).
        With more replies on their way, only the save is kept (the last one draws)."""
        view = reply["view"]
        if draw:
            self.draw(view)
            byid("announce").textContent = words.announce(view)
            self.computer.said(reply)
            if self.board_visible():
                self.refocus()
        if reply.get("save") and self.gid:
            # Saved right after this task, so the board is drawn first.
            self.pending = (self.gid, view, stored(reply), self.created)
            js.setTimeout(self.save_proxy, 0)

    def save_now(self):
        """Write the last reply over the rev this board shows. A failed write keeps the
        previous copy and is told once per game (nearly full storage fails every other
        write, as the save grows and shrinks: no message each time); a write refused
        because another tab played on makes this tab follow that tab."""
        pending, self.pending = self.pending, None
        if not pending:
            return
        gid = pending[0]
        outcome, rev = self.saves.write(*pending, expect=self.rev if gid == self.gid else None)
        if outcome == FAILED:
            if not self.unsaved:
                self.unsaved = True
                message(words.t("msg.not_saved"), "error")
        elif outcome == CONFLICT:
            entry, _ = self.saves.get(gid)
            if gid == self.gid:
                if entry is None:
                    self.gone_elsewhere()
                else:
                    self.follow(entry, lost=True)
        elif gid == self.gid:
            self.rev = rev

    # --- two tabs on one game ---------------------------------------------------

    def on_storage(self, event):
        """Another tab wrote a save: follow it when it is this board's game, or refresh
        the lists on the home screen."""
        key = event.key
        if key is None:  # storage cleared
            if not self.board_visible():
                self.draw_saves()
            return
        key = str(key)
        if not key.startswith(PREFIX):
            return
        gid = key[len(PREFIX):]
        if gid == self.gid and self.board_visible():
            # Read through the wrapper, not event.newValue: a value of a few MB written
            # there would be copied whole into MicroPython (storage.mjs MAX_VALUE).
            if int(storage.size(key)) < 0:
                self.gone_elsewhere()
            elif rev_of(storage.head(key, REV_READ)) > self.rev:
                entry, _ = self.saves.get(gid)
                if entry is not None:
                    self.follow(entry)
        elif not self.board_visible():
            self.draw_saves()

    def follow(self, entry, lost=False):
        """Show the game as another tab left it; the engine loads that save too. A move
        made here and not yet written (lost) is dropped, and the player is told."""
        self.rev = self.saves.rev(entry["id"])
        self.pending = None
        self.ui["picked"] = []
        self.ui["split"] = None
        if lost or not self.watching:
            message(words.t("msg.moved_on_lost" if lost else "msg.moved_on"), "warn")
        self.watching = True
        self.extras.resumed(entry)
        if entry["view"] is not None:  # else drawn from the engine's reply (followed)
            self.draw(entry["view"])
        byid("announce").textContent = words.t("msg.moved_on")
        if self.ui["ready"]:
            engine_client.send({"op": "load", "save": entry["save"]}, self.followed)

    def followed(self, reply):
        if reply.get("ok") and not engine_client.waiting() and self.board_visible():
            self.draw(reply["view"])

    def gone_elsewhere(self):
        """The game on the board was deleted in another tab."""
        self.pending = None
        message(words.t("msg.deleted_elsewhere"), "warn")
        self.gid = None
        self.show_home()

    def take_over(self, event=None):
        """The player is here (the window focused, a click on the board, a key): this tab
        plays on, computer turns too."""
        if self.watching:
            self.watching = False
            if self.view is not None and self.board_visible():
                self.draw(self.view)

    def act(self, req, reset=True):
        """An action on the game: the reply is drawn and saved when it comes."""
        if reset:
            self.ui["picked"] = []
            self.ui["split"] = None
        engine_client.send(req, self.acted)

    def acted(self, reply):
        self.ui["scoring"] = False
        if not reply.get("ok"):
            if reply.get("view"):
                self.draw(reply["view"])
        else:
            self.changed(reply, draw=not engine_client.waiting())

    # --- actions (called from events and keys) -----------------------------

    def playing(self):
        return self.view is not None and self.ui["ready"] and not self.view["over"] and self.board_visible()

    def roll(self):
        if self.playing() and self.view["can_roll"] and not self.ui["split"] and not self.extras.blocks():
            self.act({"op": "roll"})
            self.board.rolling(self.view)  # the dice start shaking now; the faces land with the reply
            self.rendered(True)

    def undo(self):
        if self.playing() and self.view["can_undo"]:
            self.act({"op": "undo"})

    def dice_count(self):
        return self.view["dice_count"] if self.view else 0

    def toggle(self, i):
        if not self.playing():
            return
        if self.ui["split"]:
            self.move_split(i)
        elif self.view["can_hold"] and not self.extras.blocks():
            # Drawn at once from the last view (a hold only flips one flag); the engine's
            # reply, drawn when no later request is pending, confirms or corrects it.
            view = dict(self.view)
            view["held"] = list(view["held"])
            view["held"][i] = not view["held"][i]
            view["last"] = None
            self.draw(view, predicted=True)
            self.act({"op": "toggle", "die": i}, reset=False)

    def pick_box(self, box):
        view = self.view
        if not self.playing() or view["dice"] is None:
            return
        row = None
        for r in view["rows"]:
            if r["box"] == box:
                row = r
        cell = row["cells"][view["current"]] if row else None
        if not cell or not cell.get("playable"):
            return
        if view["boxes_per_turn"] == 2:
            picked = self.ui["picked"]
            if box in picked:
                picked.remove(box)
                self.draw(view)
                return
            picked.append(box)
            self.draw(view)
            if len(picked) == 2:
                spawn(self.propose(picked[0], picked[1]))
            return
        if cell["preview"] == 0 and not row["mandatory"]:
            self.ask(words.t("ask.scratch", box=words.box(box)),
                     words.t("ask.scratch_ok"), lambda: self.score(box))
            return
        self.score(box)

    def score(self, box):
        """Score one box: drawn filled at once, the reply then moves the turn on."""
        if self.ui.get("scoring"):
            return  # a second click before the reply: the box is already scored
        self.ui["scoring"] = True
        self.act({"op": "score", "box": box})
        self.board.scoring(self.view, box)
        self.rendered(True)

    async def propose(self, a, b):
        reply = await self.call({"op": "split", "boxes": [a, b]})
        if reply and reply.get("ok"):
            self.ui["split"] = reply["split"]
        else:
            self.ui["picked"] = []
        self.draw(self.view)
        if self.ui["split"]:
            pts = self.ui["split"]["points"]
            byid("announce").textContent = words.t("split.proposed", a=words.box(a), pa=words.points(pts[0]),
                                                   b=words.box(b), pb=words.points(pts[1]))
            ok = byid("split-ok")
            if ok:
                ok.focus()

    def move_split(self, i):
        split = self.ui["split"]
        positions = list(split["positions"])
        if i in positions:
            positions.remove(i)
        else:
            positions.append(i)
        positions.sort()
        split = {"boxes": split["boxes"], "positions": positions, "points": None}
        self.ui["split"] = split
        self.draw(self.view)
        if len(positions) == 5:
            spawn(self.price(split))

    async def price(self, split):
        reply = await self.call({"op": "price", "boxes": split["boxes"], "split": split["positions"]})
        if reply and reply.get("ok") and self.ui["split"] is split:
            split["points"] = reply["split"]["points"]
            self.ui["split"] = dict(split)
            self.draw(self.view)

    def score_split(self):
        split = self.ui["split"]
        if not split or split.get("points") is None:
            return
        req = {"op": "score", "boxes": split["boxes"], "split": split["positions"]}
        zero = [b for b, p in zip(split["boxes"], split["points"]) if p == 0]
        if zero:
            text = (words.t("ask.scratch", box=words.box(zero[0])) if len(zero) == 1 else
                    words.t("ask.scratch_two", boxes=words.and_list(words.box(b) for b in zero)))
            self.ask(text, words.t("ask.scratch_ok"), lambda: self.act(req))
        else:
            self.act(req)

    def cancel_split(self):
        self.ui["picked"] = []
        self.ui["split"] = None
        self.draw(self.view)

    # --- starting, resuming, deleting ------------------------------------------

    async def start(self):
        req, notes = self.setup.read()
        self.extras.amend(req)
        for n in notes:
            message(n, "warn")
        seed_text = str(byid("seed").value).strip()
        if seed_text:
            seed = parse_seed(seed_text)
            if seed is None:
                err = byid("setup-error")
                err.textContent = words.t("msg.bad_seed", max=MAX_SEED)
                err.hidden = False
                return
            req["seed"] = seed
        byid("setup-error").hidden = True
        req["op"] = "new"
        status(words.t("msg.starting_game" if self.ui["ready"] else "msg.starting_engine"))
        reply = await self.call(req)
        if reply and reply.get("ok"):
            self.begin(reply)

    def open_board(self, gid, created):
        """Put the game ``gid`` on the board (built afresh), as stored now."""
        self.gid = gid
        self.created = created
        self.rev = self.saves.rev(gid)  # 0 for a new game
        self.watching = False
        self.unsaved = False
        self.saves.set_current(gid)
        self.ui["picked"] = []
        self.ui["split"] = None
        self.show_board()
        self.board.key = None

    def begin(self, reply):
        self.open_board(self.saves.new_id(), None)
        self.changed(reply)
        v = reply["view"]
        byid("announce").textContent = words.t("say.begin", title=words.title(v["variant"], v["title"]),
                                               who=words.whose_turn(v),
                                               names=", ".join(v["sides"][i]["name"] for i in v["order"]))
        byid("roll").focus()

    async def again(self):
        reply = await self.call({"op": "again"})
        if reply and reply.get("ok"):
            self.begin(reply)

    def resume_view(self, entry):
        """Draw a saved game at once, from its last view (the engine may still be booting).
        False when the stored view cannot be drawn: the engine's view is drawn instead
        once it has loaded the save (load, shown=False)."""
        if entry["view"] is None:
            return False
        self.open_board(entry["id"], entry.get("created"))
        self.extras.resumed(entry)
        self.draw(entry["view"])
        return True

    async def load(self, entry, shown=True):
        """The engine loads the save. ``shown``: its board is drawn already (from the stored
        view); else it is opened with the engine's view, unless the player went elsewhere."""
        reply = await self.call({"op": "load", "save": entry["save"]}, quiet=True)
        if reply.get("ok"):
            if self.gid == entry["id"]:
                self.draw(reply["view"])
            elif not shown and self.gid is None:
                self.open_board(entry["id"], entry.get("created"))
                self.extras.resumed(entry)
                self.draw(reply["view"])
            return True
        reason = reply.get("error") if reply.get("kind") != engine_client.NO_ANSWER else words.t("msg.no_answer")
        self.saves.set_aside(entry["id"], reason)
        message(words.t("msg.load_failed", game=describe(entry), when=when(entry.get("updated") or 0),
                        reason=reason), "error")
        if self.gid is None or self.gid == entry["id"]:
            self.show_home()
        return False

    async def resume(self, gid):
        entry, reason = self.saves.get(gid)
        if entry is None:
            self.saves.set_aside(gid, reason)
            message(words.t("msg.load_failed_id", id=gid, reason=reason), "error")
            self.draw_saves()
            return
        if self.resume_view(entry):
            if self.ui["ready"]:
                await self.load(entry)
        elif self.ui["ready"]:
            await self.load(entry, shown=False)
        else:
            self.later = entry  # opened when the engine is ready (engine_ready)

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

    def delete(self, gid, label):
        def really():
            self.saves.delete(gid)
            self.draw_saves()
            byid("announce").textContent = words.t("save.deleted", game=label)
        self.ask(words.t("save.delete_ask", game=label), words.t("save.delete"), really)

    # --- rules --------------------------------------------------------------

    def show_rules(self):
        if self.view:
            variant, title, options = self.view["variant"], self.view["title"], self.view["options"]
        else:
            req, _ = self.setup.read()
            variant, options = req["variant"], req["options"]
            title = self.catalog[variant]["title"]
        body = byid("rules-body")
        clear(body)
        byid("rules-title").textContent = words.t("rules.title_game", title=words.title(variant, title))
        for para in words.RULES.get(variant, []):
            body.appendChild(el("p", None, para))
        if options:
            body.appendChild(el("h3", None, words.t("rules.house")))
            ul = el("ul", "rules-options")
            helps = {o["name"]: o["help"] for o in self.catalog.get(variant, {}).get("options", [])}
            for name in options:
                li = el("li")
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
        byid("rules").showModal()

    # --- events ---------------------------------------------------------------

    def wire(self):
        on(byid("board"), "click", self.on_board_click)
        on(byid("home"), "click", self.on_home_click)
        on(byid("home"), "change", self.on_home_change)
        on(byid("home"), "input", self.on_home_input)
        on(byid("setup"), "submit", self.on_submit)
        on(byid("add-side"), "click", lambda e: self.add_side())
        on(byid("confirm"), "close", self.on_confirm_close)
        on(byid("messages"), "click", self.on_message_click)
        on(byid("nav-home"), "click", lambda e: self.show_home())
        on(byid("nav-rules"), "click", lambda e: self.show_rules())
        on(document, "keydown", self.on_key)
        on(js.window, "pagehide", lambda e: self.save_now())
        on(js.window, "storage", self.on_storage)
        on(js.window, "focus", self.take_over)  # a click or a key on the board takes over too
        if byid("lang-pick"):
            on(byid("lang-pick"), "change", self.on_lang)

    # --- language ------------------------------------------------------------

    def on_lang(self, event):
        code = str(byid("lang-pick").value)
        storage.set(LANG_KEY, code)
        search = js.URLSearchParams.new(js.location.search)
        if search.has("lang"):  # the address no longer overrides the choice
            search.delete("lang")
            rest = str(search.toString())
            js.history.replaceState(None, "", str(js.location.pathname) + ("?" + rest if rest else "")
                                    + str(js.location.hash))
        self.relang(code)

    def relang(self, code):
        """Redraw every word in the language ``code``; nothing the player entered is lost."""
        words.set_lang(code)
        translate_page()
        if self.ui["ready"]:
            byid("engine-status").textContent = ""
        self.setup.relabel()
        self.draw_saves()
        if self.view is not None:
            self.board.key = None
            self.draw(self.view)
        relabel = getattr(self.extras, "relabel", None)  # issue-8 screens built before the change
        if relabel:
            relabel()
        byid("announce").textContent = words.t("lang.label") + ": " + words.NAMES[code]

    def refocus(self):
        """Keep the keyboard on the board: when the focused control went away (a filled
        box, a closed split), focus the next thing to do."""
        active = document.activeElement
        if active and not (active == document.body or active.disabled or active.closest("[hidden]")):
            return
        view = self.view
        target = None
        if view and view["over"]:
            target = byid("again")
        elif view and view["can_roll"] and not byid("roll").disabled:
            target = byid("roll")
        else:
            target = document.querySelector("#sheet button.box:not([hidden]):not(:disabled)")
        if target:
            target.focus()

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
            self.show_home()
            byid("start").scrollIntoView()
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

    # --- boot -----------------------------------------------------------------

    def first_screen(self):
        """Draw the saved game in progress, or the home screen. Returns the entry to load.
        A stored view that cannot be drawn is not: the home screen is, and the game
        opens with the engine's view once the engine has loaded its save."""
        self.too_big()
        gid = self.saves.current()
        if gid:
            entry, reason = self.saves.get(gid)
            if entry is None:
                self.saves.set_aside(gid, reason)
                message(words.t("msg.load_failed_id", id=gid, reason=reason), "error")
            elif not entry.get("over") and gid not in self.saves.aside():
                if not self.resume_view(entry):
                    self.show_home()
                    self.saves.set_current(gid)  # still the game to resume after a reload
                    self.later = entry
                return entry
        self.show_home()
        return None

    def too_big(self):
        """Name the stored values too long to read (storage.mjs MAX_VALUE): left as they
        are, never copied into this heap. A save among them is listed aside."""
        big = json.loads(str(js.JSON.stringify(storage.oversized("generala."))))
        if big:
            items = ", ".join(str(k) + " (" + size_text(n) + ")" for k, n in big)
            message(words.t("msg.too_big", items=items), "error")

    async def engine_ready(self, entry):
        self.ui["ready"] = True
        later, self.later = self.later, None
        if entry is not None and self.gid == entry["id"]:
            latest, _ = self.saves.get(self.gid)  # another tab may have played on meanwhile
            await self.load(latest or entry)
        elif later is not None and self.gid is None:
            await self.load(later, shown=False)
        elif self.view is not None:
            self.draw(self.view)


def sheet_mark(node, entry):
    """A score-sheet game says so (render.sheet_mark)."""
    if sheet_game(entry.get("save")):
        node.appendChild(render_sheet_mark())


def parse_seed(text):
    text = str(text).strip()
    if not text or len(text) > 19 or not all("0" <= ch <= "9" for ch in text):
        return None
    n = int(text)
    return n if n <= MAX_SEED else None


def url_params(catalog):
    """?variant= and ?seed=, validated: a bad value gets a visible message and the default."""
    params = {}
    search = js.URLSearchParams.new(js.location.search)
    variant = search.get("variant")
    if variant is not None:
        variant = str(variant)
        if variant in catalog:
            params["variant"] = variant
        else:
            message(words.t("msg.unknown_game", name=variant[:40], known=", ".join(sorted(catalog))), "warn")
    seed = search.get("seed")
    if seed is not None:
        n = parse_seed(seed)
        if n is None:
            message(words.t("msg.bad_url_seed", seed=str(seed)[:40], max=MAX_SEED), "warn")
        else:
            params["seed"] = n
    return params


async def load_catalog():
    """catalog.json (written by the build) so the form works before the engine boots."""
    try:
        resp = await js.fetch("./catalog.json")
        if resp.ok:
            return json.loads(await resp.text())
    except Exception:
        pass
    reply = await engine_client.call({"op": "catalog"})
    return reply["catalog"]


async def boot(pause):
    """Boot in slices: pause() ends the browser task, so no slice blocks input for long."""
    bad_lang = choose_lang()
    adopt_screens()
    translate_page()
    if bad_lang is not None:
        message(words.t("msg.bad_lang", lang=bad_lang, known=", ".join(words.LANGS_KNOWN)), "warn")
    if not storage.persistent:
        byid("storage-note").hidden = False
    await pause()
    try:
        catalog = await load_catalog()
        game = Game(catalog, url_params(catalog))
        await game.assemble(pause)
        await pause()
        entry = game.first_screen()
        game.extras.opened()
    except Exception as err:
        engine_client.boot_failed(words.t("msg.page_failed", error=err))
        raise
    set_state("ui-ready")
    status(words.t("msg.starting_engine"))
    version = await engine_client.started()
    if version is None:  # the boot failed, shown by engine.mjs
        return
    byid("engine-version").textContent = str(version)
    await game.engine_ready(entry)
    status("")
    byid("engine-status").hidden = True
    set_state("ready")
    js.window.generalaUI = True

