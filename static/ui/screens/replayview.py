# Replays and sharing. Any finished or saved game can be stepped
# through (op replay / replay_at: the board after each action); a finished game
# is shared as a link index.html#replay=<token> (op share; the token is checked
# by the engine, so a damaged or edited link shows an error, never a wrong game)
# and as a small JSON file (the export format that the import reads).
import json

import js
from pyscript import document

from screens import papersheet
from words import words
from web.dom import address_link, byid, clear, el, on, saved_items
from board.render import mini_dice, sheet_mark
from engine import engine_client
from web.dom import message
from engine.replies import save_doc
from web.screen_switch import section, spawn


def dice_text(dice):
    return " ".join(str(d) for d in dice)


def link_url(token):
    loc = js.location
    path = str(loc.pathname)
    if path.endswith("/"):
        path += "index.html"
    return str(loc.origin) + path + "#replay=" + token


def link_token():
    """The replay's link in the address, None when there is none or when it is longer
    than any link (then its length is all that was read: web.dom.address_link)."""
    return address_link("#replay=")[0]


def link_too_long():
    token, length = address_link("#replay=")
    return token is None and length > 0


def export_text(save, gid, when):
    """A one-game export file (the format op import reads)."""
    doc = {"format": "generala-export", "version": 1, "exported": when,
           "games": [{"id": gid or "shared", "save": save, "when": when, "finished": True}]}
    return json.dumps(doc)


def iso_now():
    return str(js.Date.new().toISOString())


def download(name, text):
    a = el("a", None, None, {"download": name,
                             "href": "data:application/json;charset=utf-8," + str(js.encodeURIComponent(text))})
    a.hidden = True
    document.body.appendChild(a)
    a.click()
    a.remove()


def file_name(variant):
    stamp = iso_now()[:16].replace(":", "").replace("T", "-")
    return "generala-" + str(variant) + "-" + stamp + ".json"


class ReplayView:
    def __init__(self, game, board, keeper, saves, screens, limits):
        """``game``: the controller (the view and ui on the board); ``board`` the board (its
        share panel is one of its parts); ``keeper`` the stored game on the board (its id,
        save_now()); ``saves`` the storage's saved games (saves.py)."""
        self.game = game
        self.board = board
        self.keeper = keeper
        self.saves = saves
        self.screens = screens
        self.most = limits["file_bytes"]  # the catalog's: a larger file is refused before reading
        self.root = section("replay", words.t("replay.screen"))
        self.save = None      # the save document being replayed
        self.gid = None
        self.token = None
        self.view = None
        self.step = 0
        self.steps = 0
        self.starts = []
        self.busy = False
        self.over = False
        on(self.root, "click", self.on_click)
        on(self.root, "change", self.on_input)
        on(js.window, "hashchange", lambda e: self.from_hash())
        on(byid("home"), "click", self.on_home_click)
        on(byid("board"), "click", self.on_board_click)
        self.add_file_input()
        board.parts.add("share", self.share_panel)

    # --- opening --------------------------------------------------------------

    def frame(self, title):
        """Empty the screen and give it a heading and a Back button. Until a replay is
        drawn on it, it has no data-step(s) (tests wait for them: the last replay's must
        not stand for the next)."""
        root = self.root
        clear(root)
        root.removeAttribute("data-step")
        root.removeAttribute("data-steps")
        head = el("div", "replay-head")
        head.appendChild(el("h2", None, title, {"id": "replay-title"}))
        head.appendChild(el("button", "btn", words.t("replay.back"), {"type": "button", "data-replay": "back"}))
        root.appendChild(head)
        self.status = el("p", "status", "", {"id": "replay-status"})
        root.appendChild(self.status)
        self.screens.show("replay")

    def fail(self, text):
        """The replay cannot be shown: said on its screen. A link in the address that
        failed leaves it (a reload would only fail again), as a game by link's does."""
        if link_token() or link_too_long():
            js.history.replaceState(None, "", str(js.location.pathname) + str(js.location.search))
        self.root.removeAttribute("data-step")
        self.status.textContent = ""
        self.root.appendChild(el("p", "msg msg-error replay-error", text, {"id": "replay-error", "role": "alert"}))

    async def open_save(self, save, gid=None, title=None, over=True):
        self.over = over
        self.frame(words.t("replay.title") + (title or ""))
        self.status.textContent = words.t("replay.loading")
        self.token = None
        await self.start({"op": "replay", "save": save}, "replay.bad_save", gid)

    async def open_link(self, token):
        self.frame(words.t("replay.screen"))
        self.status.textContent = words.t("replay.link_loading")
        self.token = token
        self.over = True
        await self.start({"op": "replay", "link": token}, "replay.bad_link", None)

    async def start(self, req, error_key, gid):
        if not await engine_client.ready():
            self.fail(words.t("replay.no_engine"))
            return
        reply = await engine_client.call(req, quiet=True)
        if not reply.get("ok"):
            self.fail(words.t(error_key, why=words.refusal(reply)))
            return
        self.save = save_doc(reply)
        self.token = reply.get("link") or self.token
        self.gid = gid
        self.build(reply["view"])
        self.show(reply["view"])
        self.root.querySelector("#replay-next").focus()

    def from_hash(self):
        token = link_token()
        if token:
            spawn(self.open_link(token))
        elif link_too_long():  # refused unread, as the engine would (share.MAX_TOKEN)
            self.frame(words.t("replay.screen"))
            self.fail(words.t("replay.bad_link", why=words.refusal({"code": "link.too_long", "params": {}})))

    def relabel(self):
        """After a language change: rebuild what was built once (file box, game-over panel,
        the replay on screen at the same step)."""
        box = byid("open-file-section")
        if box is not None:
            box.remove()
        self.add_file_input()
        panel = byid("game-share")
        if panel is not None:
            panel.remove()
            if self.game.view is not None:
                self.share_panel(self.game.view, self.game.ui, self.board)
        if not self.root.hidden and self.view is not None:
            view = self.view
            self.frame(words.t("replay.title") + view["title"])
            self.build(view)
            self.show(view)

    def add_file_input(self):
        home = byid("library") or byid("home")  # the saved games' panel of the home screen
        if home is None or byid("open-file") is not None:
            return
        box = el("section", "saves open-file", None, {"id": "open-file-section", "aria-labelledby": "open-file-title"})
        box.appendChild(el("h2", None, words.t("replay.file_title"), {"id": "open-file-title"}))
        box.appendChild(el("p", "help", words.t("replay.file_help")))
        box.appendChild(el("label", None, words.t("replay.file_label"), {"for": "open-file"}))
        inp = el("input", None, None, {"type": "file", "id": "open-file", "accept": ".json,application/json"})
        box.appendChild(inp)
        after = byid("history-section")
        if after is not None and after.parentNode is not None and after.parentNode.isSameNode(home):
            home.insertBefore(box, after.nextSibling)
        else:
            home.appendChild(box)
        on(inp, "change", lambda e: spawn(self.open_file(inp)))

    async def open_file(self, inp):
        files = inp.files
        if files is None or files.length == 0:
            return
        f = files.item(0)
        name = str(f.name)
        inp.value = ""  # the same file can be chosen again
        # Read and checked in JS (engine.mjs importFile): a file of a few MB as one
        # MicroPython string fails with MemoryError; only the first game comes here.
        reply = await engine_client.import_file(f, self.most)  # waits for the engine
        if not reply.ok:
            kind = str(reply.kind)
            why = (words.t("replay.file_large") if kind == "TooLarge"
                   else words.t("replay.no_engine") if kind == engine_client.NO_ANSWER
                   else words.refusal(engine_client.refusal_of(reply)))
            message(words.t("replay.file_bad", name=name, why=why), "error")
            return
        games = reply.games
        if not games or int(games.length) == 0:
            message(words.t("replay.file_bad", name=name, why=words.t("replay.file_empty")), "error")
            return
        if int(games.length) > 1:
            message(words.tn("replay.file_more", int(games.length)), "info")
        # the first game with a save, as JSON text (engine.mjs importFile); a game by link
        # is replayed from the list of games by link (linkplay.py)
        first = next((games.at(i) for i in range(int(games.length)) if js.Reflect.has(games.at(i), "save")), None)
        if first is None:
            message(words.t("replay.file_bad", name=name, why=words.t("replay.file_empty")), "error")
            return
        first = json.loads(str(first.save))
        await self.open_save(first, None, name, True)

    # --- the screen ------------------------------------------------------------

    def build(self, view):
        root = self.root
        root.querySelector("#replay-title").textContent = words.t("replay.title") + view["title"]
        self.status.textContent = ""
        names = el("p", "replay-names", ", ".join(s["name"] for s in view["sides"]))
        if view.get("sheet"):
            names.appendChild(el("span", None, " "))
            names.appendChild(sheet_mark())
        root.appendChild(names)
        nav = el("div", "replay-nav actions", None, {"role": "group", "aria-label": words.t("replay.screen")})
        for key in ("first", "prev_turn", "prev", "next", "next_turn", "last"):
            nav.appendChild(el("button", "btn" + (" primary" if key == "next" else ""), words.t("replay." + key),
                               {"type": "button", "data-replay": key, "id": "replay-" + key.replace("_", "-")}))
        root.appendChild(nav)
        info = view["replay"]
        self.steps = info["steps"]
        self.starts = [t["step"] for t in info["turn_starts"]]
        row = el("div", "replay-slider")
        row.appendChild(el("label", None, words.t("replay.slider"), {"for": "replay-range"}))
        self.range = el("input", None, None, {"type": "range", "id": "replay-range", "min": 0,
                                              "max": self.steps, "value": 0})
        row.appendChild(self.range)
        self.counter = el("span", "replay-counter", "", {"id": "replay-counter"})
        row.appendChild(self.counter)
        root.appendChild(row)
        self.event = el("p", "replay-event", "", {"id": "replay-event", "aria-live": "polite"})
        root.appendChild(self.event)
        self.dice = el("div", "replay-dice", None, {"id": "replay-dice", "aria-label": words.t("replay.dice")})
        root.appendChild(self.dice)
        self.sheet = el("div", "sheet-wrap replay-sheet-wrap")
        root.appendChild(self.sheet)
        self.result = el("div", "replay-result", None, {"id": "replay-result"})
        root.appendChild(self.result)
        self.share = el("div", "replay-share")
        root.appendChild(self.share)
        if self.over:  # a finished game is shared; an unfinished one is only replayed
            self.share_buttons(self.share)

    def show(self, view):
        self.view = view
        step = view["replay"]["step"]
        self.step = step
        self.range.value = str(step)
        self.counter.textContent = words.t("replay.step", step=step, steps=self.steps)
        self.event.textContent = self.describe(view, step)
        # dice of the last roll / entry, with the holds
        clear(self.dice)
        if view["dice"]:
            box = el("span", "mini-dice")
            for i, d in enumerate(view["dice"]):
                held = bool(view["held"][i])
                die = mini_dice([d]).firstChild
                die.setAttribute("data-held", "true" if held else "false")
                die.setAttribute("aria-label", str(d) + (", " + words.t("replay.held_mark") if held else ""))
                if held:
                    die.classList.add("held")
                box.appendChild(die)
            self.dice.appendChild(box)
        else:
            self.dice.appendChild(el("span", "help", words.t("replay.no_dice")))
        clear(self.sheet)
        changed = {}
        last = view.get("last") or {}
        if last.get("type") == "score":
            changed[last["side"]] = last["boxes"]
        self.sheet.appendChild(papersheet.sheet_table(view, "replay-sheet", changed))
        self.draw_result(view)
        for key, off in (("first", step == 0), ("prev", step == 0), ("prev_turn", step == 0),
                         ("next", step >= self.steps), ("next_turn", step >= self.steps),
                         ("last", step >= self.steps)):
            btn = self.root.querySelector('[data-replay="' + key + '"]')
            if btn:
                btn.disabled = off
        self.root.setAttribute("data-step", str(step))
        self.root.setAttribute("data-steps", str(self.steps))

    def draw_result(self, view):
        node = self.result
        clear(node)
        if not view["over"]:
            return
        node.appendChild(el("h3", None, words.t("replay.result")))
        ol = el("ol", "ranking")
        sides = view["sides"]
        for i in sorted(range(len(sides)), key=lambda i: (sides[i]["place"] or 99, i)):
            li = el("li", None, None, {"data-side": i})
            li.appendChild(el("span", "rank", papersheet.roman(sides[i]["place"])
                              if papersheet.has_paper(view) else words.ordinal(sides[i]["place"])))
            li.appendChild(el("span", "rank-name", sides[i]["name"]))
            li.appendChild(el("span", "rank-total", words.points(sides[i]["total"])))
            ol.appendChild(li)
        node.appendChild(ol)
        if view["settlement"]:
            node.appendChild(el("h4", None, words.t("replay.settlement")))
            ul = el("ul", "settlement")
            for pay in view["settlement"]:
                ul.appendChild(el("li", None, words.t("replay.pays", a=sides[pay["from"]]["name"],
                                                      b=sides[pay["to"]]["name"], amount=words.money(pay["amount"]))))
            node.appendChild(ul)

    def describe(self, view, step):
        """What this step's action did, from the replayed view: whose turn it belongs to
        (the engine's replay.side) and what it made happen (its events)."""
        sides = view["sides"]
        if step == 0:
            return words.t("replay.start", order=", ".join(sides[i]["name"] for i in view["order"]))
        side = view["replay"]["side"]
        who = sides[side]["name"] if side is not None else ""
        text = ""
        for event in view["events"]:
            kind = event["kind"]
            if kind == "roll":
                text = (words.t("replay.rolled", who=who, dice=dice_text(event["dice"]))
                        + words.t("replay.roll_n", n=event["roll"]))
            elif kind == "enter":
                text = words.t("replay.entered", who=who, dice=dice_text(event["dice"]), n=event["at"]) + \
                    (words.t("replay.served") if event.get("served") else "")
            elif kind == "hold":
                held = event["held"]
                text = words.t("replay.held", who=who, dice=", ".join(str(i + 1) for i in held)) if held \
                    else words.t("replay.held_none", who=who)
            elif kind == "box_filled":
                if all(event["scratch"]):
                    text = words.t("replay.scratched", who=who,
                                   box=words.and_list(words.box(b) for b in event["boxes"]))
                else:
                    parts = [words.box(b) + " " + words.points(p) for b, p in zip(event["boxes"], event["points"])]
                    text = words.t("replay.scored", who=who, boxes=", ".join(parts))
        text = text + "."
        if view["auto_win"]:
            w = view["auto_win"]
            text += " " + words.t("replay.auto_win", who=sides[w["side"]]["name"],
                                  kind=words.AUTO_WINS.get(w["kind"], w["kind"]))
        elif view["over"]:
            text += " " + words.t("replay.over") + words.ranking_sentence(view)
        return text

    async def go(self, step):
        if self.busy or self.view is None:
            return
        step = max(0, min(self.steps, step))
        self.busy = True
        self.root.setAttribute("aria-busy", "true")
        reply = await engine_client.call({"op": "replay_at", "step": step})
        self.busy = False
        self.root.removeAttribute("aria-busy")
        if reply.get("ok"):
            self.show(reply["view"])

    def target(self, key):
        s = self.step
        if key == "first":
            return 0
        if key == "prev":
            return s - 1
        if key == "next":
            return s + 1
        if key == "last":
            return self.steps
        if key == "next_turn":
            later = [t for t in self.starts if t > s]
            return later[0] if later else self.steps
        if key == "prev_turn":
            earlier = [t for t in self.starts if t < s]
            return earlier[-1] if earlier else 0
        return s

    # --- sharing ------------------------------------------------------------------

    def share_buttons(self, node, from_board=False):
        row = el("div", "actions share-actions")
        if from_board:
            row.appendChild(el("button", "btn", words.t("replay.replay_game"), {"type": "button", "data-share": "replay",
                                                                                "id": "replay-this"}))
        where = "" if from_board else "replay-"  # ids unique: both panels may be in the page
        row.appendChild(el("button", "btn", words.t("replay.share"), {"type": "button", "data-share": "link",
                                                           "id": where + "share-link-btn"}))
        row.appendChild(el("button", "btn", words.t("replay.download"), {"type": "button", "data-share": "file",
                                                              "id": where + "share-file-btn"}))
        node.appendChild(row)
        box = el("div", "share-box", None, {"hidden": ""})
        box.appendChild(el("label", None, words.t("replay.link_label"),
                           {"for": "share-url-" + ("b" if from_board else "r")}))
        inp = el("input", "share-url", None, {"readonly": "", "id": "share-url-" + ("b" if from_board else "r")})
        box.appendChild(inp)
        box.appendChild(el("button", "btn small", words.t("replay.copy"), {"type": "button", "data-share": "copy"}))
        box.appendChild(el("p", "help share-note", "", {"aria-live": "polite"}))
        node.appendChild(box)

    async def make_link(self, node, from_board):
        """Fill the share box of ``node`` with the link of the game."""
        token = None if from_board else self.token
        if token is None:
            # the board's game is the session's open game; a replayed one is given by its save
            reply = await engine_client.call({"op": "share"} if from_board else {"op": "share", "save": self.save},
                                             quiet=True)
            if not reply.get("ok"):
                message(words.t("replay.share_failed", why=words.refusal(reply)), "error")
                return
            token = str(reply["link"])
            if not from_board:
                self.token = token
        box = node.querySelector(".share-box")
        inp = box.querySelector(".share-url")
        inp.value = link_url(token)
        box.hidden = False
        inp.focus()
        inp.select()

    async def copy(self, node):
        inp = node.querySelector(".share-url")
        note = node.querySelector(".share-note")
        try:
            await js.navigator.clipboard.writeText(inp.value)
            note.textContent = words.t("replay.copied")
        except Exception:
            inp.select()
            note.textContent = words.t("replay.copy_failed")

    def board_save(self):
        """(save, gid) of the game on the board, from storage (written after every action)."""
        keeper = self.keeper
        keeper.save_now()
        if not keeper.gid:
            return None, None
        entry, _ = self.saves.get(keeper.gid)
        return (entry["save"], keeper.gid) if entry else (None, None)

    def share_action(self, kind, node, from_board):
        if kind == "copy":
            spawn(self.copy(node))
        elif kind == "link":
            spawn(self.make_link(node, from_board))
        elif kind == "file":
            if from_board:
                save, gid = self.board_save()
                variant = self.game.view["variant"] if self.game.view else "game"
            else:
                save, gid = self.save, self.gid
                variant = self.view["variant"] if self.view else "game"
            if save is not None:
                download(file_name(variant), export_text(save, gid, iso_now()))
        elif kind == "replay":
            save, gid = self.board_save()
            if save is not None:
                spawn(self.open_save(save, gid, self.game.view["title"]))

    # --- the board's game-over panel and the saved-games lists -------------------------

    def share_panel(self, view, ui, board):
        """The board's part (board_parts.py): the share panel in a finished game's card."""
        panel = byid("game-share")
        if not view["over"]:
            if panel is not None:
                panel.remove()
            return
        if panel is None:
            panel = el("div", "game-share", None, {"id": "game-share"})
            self.share_buttons(panel, from_board=True)
        if panel.parentNode is None or not panel.parentNode.isSameNode(board.over):
            board.over.appendChild(panel)

    def saves_drawn(self):
        """Replay buttons in the home screen's lists of finished and unfinished games."""
        for li, gid in saved_items():
            if li.querySelector("[data-replay-save]"):
                continue
            btn = el("button", "btn small", words.t("replay.replay"), {"type": "button", "data-replay-save": gid,
                                                            "aria-label": words.t("replay.replay")})
            li.insertBefore(btn, li.querySelector("[data-delete]"))

    # --- events -----------------------------------------------------------------

    def on_click(self, event):
        t = event.target
        node = t.closest("[data-share]")
        if node:
            self.share_action(str(node.getAttribute("data-share")), self.share, False)
            return
        node = t.closest("[data-replay]")
        if not node:
            return
        key = str(node.getAttribute("data-replay"))
        if key == "back":
            self.close()
        else:
            spawn(self.go(self.target(key)))

    def close(self):
        if link_token():
            js.history.replaceState(None, "", str(js.location.pathname) + str(js.location.search))
        self.view = None
        self.screens.back()

    def on_input(self, event):
        if event.target.id == "replay-range":
            spawn(self.go(int(event.target.value)))

    def on_board_click(self, event):
        node = event.target.closest("[data-share]")
        if node:
            self.share_action(str(node.getAttribute("data-share")), byid("game-share"), True)

    def on_home_click(self, event):
        node = event.target.closest("[data-replay-save]")
        if not node:
            return
        gid = str(node.getAttribute("data-replay-save"))
        entry, reason = self.saves.get(gid)
        if entry is None:
            message(words.t("replay.bad_save", why=reason), "error")
            return
        spawn(self.open_save(entry["save"], gid, entry.get("title"), bool(entry.get("over"))))

    def key(self, move):
        """A replay key (keymap.py): first, prev, next, last, prev_turn, next_turn."""
        spawn(self.go(self.target(move)))
