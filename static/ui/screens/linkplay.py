# Playing by link (docs/link-play.md): two to eight devices, each move passed as a link.
# The engine holds the game, its dice and every check (generala/modes/linkgame.py, the worker's
# link_* requests); this screen draws what its replies say:
#
#   the setup form in "link" mode (home_screen.py) -> start(): link_new, the invitations;
#   one hand-over screen (#linkplay) for invitations, joins and moves: the Link field,
#   Copy, Share where the browser has it, the QR code (static/js/qr-code.mjs when present);
#   an address with #play=<token> -> open_token(): link_read, then the join screen (an
#   invitation this device has not joined) or link_open with the stored record: updated
#   (the moves not seen stepped through on the board, skippable), unchanged, older, or
#   refused with its reason;
#   the ordinary board for the game (controller.py): each reply's `local` stored
#   (linked), and when the move passes the game to another device, link_send's link on
#   the hand-over screen; the result says whether every die is verified (board part).
#
# A device's record is stored under generala.link.<id> (its `local`: the document, its
# side, its secret, what it has sent; and what the lists show: names, status, title;
# `ended`: "unverified" once the player ended it over a move two devices disagree on).
#
# One game by link is played in one tab at a time: the tab that opens it holds the Web Lock
# generala-link-<id> (static/js/link-secrets.mjs claim) while it is on the screen, and lets
# it go on the home screen; another tab opening it says so (#linkplay[data-state=other-tab])
# and never reaches its board or its link.
import asyncio
import json

import js
from pyscript import document

from engine import engine_client
from words import words
from web.dom import LINK_MAX, address_link, byid, clear, el, message, on
from web.screen_switch import section, spawn

PREFIX = "generala.link."
BOARD_PREFIX = "link:"  # the board's game id (saved_games.py) for a game by link
HASH = "#play="
CSS = "./static/css/link.css"
OUTCOMES = {"unchanged": "link.unchanged", "older": "link.older"}  # a link that changes nothing
PASTE_MAX = LINK_MAX  # characters a pasted link may have
LOCK = "generala-link-"  # the Web Lock of one game by link: held by the tab that shows it
STEP_SECONDS = 0.45  # one move of the catch-up, with motion on

storage = js.generala.storage


def play_url(token):
    """The game's own address with the link: no query (a friend's page takes its own
    language, is never an embed, and a seed or a variant means nothing to a game by link)."""
    loc = js.location
    return str(loc.origin) + str(loc.pathname) + HASH + token


def hash_token():
    return address_link(HASH)


def entropy(n):
    return str(js.generala.linkSecrets.hex(n))


def reduced_motion():
    """Motion off: the board's Dice motion switch, or prefers-reduced-motion when the switch
    was never used (static/js/dice-motion.mjs keeps <html data-motion>)."""
    motion = document.documentElement.getAttribute("data-motion")
    if motion is not None:
        return str(motion) == "still"
    return bool(js.matchMedia("(prefers-reduced-motion: reduce)").matches)


# --- what the lists and the hand-over say, from a stored record (plain data) ---------------

def names_of(record):
    return [s.get("name") for s in record["local"]["doc"]["sides"]]


def name_of(record, side):
    names = names_of(record)
    name = names[side] if side is not None and 0 <= side < len(names) else None
    return name or words.t("link.friend")


def devices_waited(record):
    """The sides whose devices the game waits for now (never this device's)."""
    status = record["status"]
    if status["over"]:
        return []
    if status["playing"] is not None:
        return [status["playing"]]
    if status["device"] == 0:
        # the host waits for joins, then (three or more devices) for each friend's part
        return list(status.get("reveals") or [])
    return [0]


def state_text(record):
    status = record["status"]
    if record.get("ended"):
        return words.t("link.state_unverified")
    if status["over"]:
        return words.t("link.state_over")
    if status["mine"]:
        return words.t("link.state_turn")
    waited = devices_waited(record)
    if not waited:
        return words.t("link.state_joins")
    return words.t("link.state_waiting", name=name_of(record, waited[0]))


def devices_count(record):
    return sum(1 for s in record["local"]["doc"]["sides"] if s["player"] == "human")


def receivers(record):
    """Whom the link sent now is for: the device that plays next, or every other device
    once the game is over."""
    status = record["status"]
    if status["over"]:
        return [i for i in range(len(names_of(record))) if i != status["device"]
                and record["local"]["doc"]["sides"][i]["player"] == "human"]
    return devices_waited(record)


def redrawable(method):
    """A screen drawn by ``method`` (its arguments the game's data, never words) is drawn
    again, in the page's new language, when the language changes (LinkPlay.relabel)."""
    def draw(self, *args):
        method(self, *args)
        self.again = lambda: method(self, *args)
    return draw


class LinkPlay:
    def __init__(self, game, board, keeper, screen, engine, screens, catalog, replay, engine_taken):
        """``game``: the controller (its view, draw()); ``board`` the board (the link's part
        of it); ``keeper`` the stored game on the board (a game by link is not a save: its
        id is set here); ``screen`` the navigation; ``engine`` the engine client (is a reply
        on its way); ``catalog``: the engine's variants (titles); ``replay`` the replay
        screen (a game by link is replayed there); ``engine_taken()``: said when the
        engine's game becomes a game by link (the one-tap game prepared is not it)."""
        self.board = board
        self.keeper = keeper
        self.screen = screen
        self.engine = engine
        self.engine_taken = engine_taken
        if document.querySelector('link[href="' + CSS + '"]') is None:
            document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.game = game
        self.screens = screens
        self.catalog = catalog
        self.root = section("linkplay", words.t("link.screen"))
        self.gid = None  # the id of the game by link on the board
        self.record = None  # its stored record
        self.invited = None  # the join screen's token
        self.catching = None  # the catch-up under way: {"skip": bool}
        self.sending = False
        self.opened = 0
        self.replay = replay
        self.held = None  # the id of the game whose Web Lock this tab holds
        self.retry = None  # what "Try again" does on the other-tab screen
        self.disagreement = None  # the link of two versions of a move: (gid, token)
        self.again = None  # draws the screen shown again (a @redrawable screen's), or None
        on(self.root, "click", self.on_click)
        on(self.root, "submit", self.on_submit)
        on(js.window, "hashchange", lambda e: self.from_hash())
        on(byid("home"), "click", self.on_home_click)
        on(byid("board"), "click", self.on_board_click)
        board.parts.add("link", self.board_part)

    # --- storage ---------------------------------------------------------------------

    def load(self, gid):
        text = storage.get(PREFIX + gid)
        if not text:
            return None
        try:
            record = json.loads(str(text))
            record["local"]["doc"]["sides"]
            record["status"]["device"]
            return record
        except Exception:
            return None

    def store(self, local, status, view=None, extra=None):
        gid = status["id"]
        record = self.load(gid) or {}
        record["local"], record["status"] = local, status
        if view is not None:
            record["title"] = view["title"]
            record["variant"] = view["variant"]
        record["updated"] = str(storage.now())
        if extra:
            record.update(extra)
        if "variant" not in record:
            record["variant"] = local["doc"]["variant"]
        if not storage.set(PREFIX + gid, json.dumps(record)):
            message(words.t("msg.not_saved"), "error")
        if self.gid == gid:
            self.record = record
        return record

    def stored_ids(self):
        return [str(k)[len(PREFIX):] for k in storage.keys(PREFIX)]

    def title(self, record):
        variant = record.get("variant")
        info = self.catalog.get(variant) or {}
        return words.title(variant, record.get("title") or info.get("title"))

    # --- the screen --------------------------------------------------------------------

    def frame(self, heading, state):
        self.again = None  # a screen that is not @redrawable (opening a link) is not drawn again
        root = self.root
        clear(root)
        for name in ("data-game", "data-to", "data-over"):
            root.removeAttribute(name)
        root.setAttribute("data-state", state)
        root.appendChild(el("h2", None, heading, {"id": "linkplay-title", "tabindex": "-1"}))
        self.screens.show("linkplay")
        return root

    def buttons(self, *which):
        row = el("div", "actions link-actions")
        for key, label, primary in which:
            row.appendChild(el("button", "btn" + (" primary" if primary else ""), label,
                               {"type": "button", "data-link": key}))
        self.root.appendChild(row)

    def note(self, text, kind="info", ident="link-note"):
        role = "alert" if kind == "error" else "status"
        self.root.appendChild(el("p", "msg msg-" + kind + " link-note", text, {"id": ident, "role": role}))

    def link_box(self, token, label, n):
        """One link to send: the Link field, Copy, Share (where the browser has it) and its
        QR code."""
        box = el("div", "link-box", None, {"data-link-box": str(n)})
        if label:
            box.appendChild(el("h3", None, label, {"id": "link-box-title-" + str(n)}))
        ident = "link-field-" + str(n)
        box.appendChild(el("label", "link-label", words.t("link.field"), {"for": ident}))
        field = el("input", "link-field", None, {"id": ident, "readonly": "", "data-link-field": str(n),
                                                 "spellcheck": "false", "autocomplete": "off"})
        field.value = play_url(token)
        box.appendChild(field)
        row = el("div", "actions link-send")
        row.appendChild(el("button", "btn primary", words.t("link.copy"), {"type": "button", "data-link": "copy",
                                                                          "data-for": ident}))
        if js.generala.linkSecrets.canShare():
            row.appendChild(el("button", "btn", words.t("link.share"), {"type": "button", "data-link": "share",
                                                                       "data-for": ident}))
        box.appendChild(row)
        box.appendChild(el("p", "help link-copy-note", "", {"aria-live": "polite"}))
        figure = el("figure", "link-qr", None, {"data-qr-label": words.t("link.qr_label"),
                                                "data-qr-too-long": words.t("link.qr_too_long"),
                                                "data-qr-missing": words.t("link.qr_missing")})
        # The QR code is for another device's camera: on a phone it folds away, so that the
        # field for the link that comes back stays in view under the link to send.
        more = el("details", "link-qr-more", None, {"data-link-qr": str(n)})
        if js.matchMedia("(min-width: 48rem)").matches:
            more.setAttribute("open", "")
        more.appendChild(el("summary", None, words.t("link.qr_show")))
        more.appendChild(figure)
        box.appendChild(more)
        self.root.appendChild(box)
        if js.Reflect.has(js.generala, "qr"):  # static/js/qr-code.mjs, where the page has it
            try:
                js.generala.qr.show(figure, str(field.value))
            except Exception as err:
                js.console.warn("qr: " + str(err))
        return field

    def handover(self, record, tokens, heading, state="handover"):
        """The hand-over: the links to send now (``tokens``: [(label, token)]) and whose turn
        it is."""
        self.record = record
        self.frame(heading, state)
        self.root.setAttribute("data-game", record["status"]["id"])
        # whom the links are for (their sides) and whether the game is over: tests read them
        self.root.setAttribute("data-to", ",".join(str(i) for i in receivers(record)))
        self.root.setAttribute("data-over", "true" if record["status"]["over"] else "false")
        self.root.appendChild(el("p", "link-game", self.title(record) + " · "
                                 + ", ".join(name_of(record, i) for i in range(len(names_of(record))))))
        for n, (label, token) in enumerate(tokens):
            self.link_box(token, label, n)
        status = record["status"]
        self.root.appendChild(el("p", "link-turn", state_text(record)[:1].upper() + state_text(record)[1:] + ".",
                                 {"id": "link-turn", "role": "status"}))
        if not status["mine"]:
            self.paste_form()
        keys = [("home", words.t("link.home"), False)]
        if status["over"] or status["mine"]:
            keys.insert(0, ("board", words.t("link.to_board"), False))
        self.buttons(*keys)
        byid("linkplay-title").focus()

    def paste_form(self):
        """A link received can be pasted here: where a link opens in another browser, or
        in an embedded game (its storage is not the site's own)."""
        form = el("form", "link-paste", None, {"id": "link-paste", "novalidate": ""})
        form.appendChild(el("label", "link-label", words.t("link.paste_label"), {"for": "link-paste-field"}))
        row = el("div", "link-paste-row")
        # maxlength: a paste far longer than any link is cut by the browser, never copied
        # whole into the page (the engine then refuses it as too long)
        row.appendChild(el("input", "link-field", None, {"id": "link-paste-field", "type": "text", "inputmode": "url",
                                                         "spellcheck": "false", "autocomplete": "off",
                                                         "maxlength": str(PASTE_MAX)}))
        row.appendChild(el("button", "btn", words.t("link.paste_open"), {"type": "submit"}))
        form.appendChild(row)
        self.root.appendChild(form)

    def pasted(self):
        text = "".join(str(byid("link-paste-field").value or "").split())  # line breaks, spaces dropped
        at = text.find(HASH)
        token = text[at + len(HASH):] if at >= 0 else text
        if not token.startswith("p") or "." not in token[1:4] or "/" in token:  # a link's token: p<version>.
            old = byid("link-paste-note")
            if old:
                old.remove()
            form = byid("link-paste")
            form.appendChild(el("p", "msg msg-error link-note", words.t("link.paste_bad"),
                                {"id": "link-paste-note", "role": "alert"}))
            return
        spawn(self.open_token(token))

    # --- starting a game (the setup form in link mode) -----------------------------------

    async def start(self, req):
        """link_new with the setup form's game, rules and sides; the invitations shown."""
        sides = []
        for i, side in enumerate(req["sides"]):
            player = side["player"] if i > 0 else "human"
            if player == "bot":
                player = "human"
            sides.append({"name": side["name"] if i == 0 or player != "human" else None, "player": player})
        self.quiet_first_game()
        if not await engine_client.ready():
            message(words.t("replay.no_engine"), "error")
            return
        reply = await engine_client.call({"op": "link_new", "variant": req["variant"], "options": req["options"],
                                          "sides": sides, "entropy": entropy(48)})
        if not reply.get("ok"):
            return
        invitations = [[inv["side"], inv["token"]] for inv in reply["invitations"]]
        record = self.store(reply["local"], reply["status"], None, {"invitations": invitations})
        gid = record["status"]["id"]
        if await self.claim(gid, lambda: self.resume(gid)):
            self.show_invitations(record)

    @redrawable
    def show_invitations(self, record):
        pending = [(words.t("link.invite_for", n=side + 1), token) for side, token in record.get("invitations", [])
                   if names_of(record)[side] is None]
        self.handover(record, pending, words.t("link.invite_title"), "invitations")
        self.root.insertBefore(el("p", "help", words.t("link.invite_help")), self.root.querySelector(".link-box"))

    # --- opening a link -------------------------------------------------------------------

    def from_hash(self):
        token, length = hash_token()
        if token or length:
            js.history.replaceState(None, "", str(js.location.pathname) + str(js.location.search))
        if token:
            spawn(self.open_token(token))
        elif length:  # megabytes in the address: refused unread, as the engine would
            self.refused({"code": "link.too_long", "params": {}})
            self.opened += 1
            self.root.setAttribute("data-opened", str(self.opened))

    @redrawable
    def refused(self, reply):
        self.frame(words.t("link.screen"), "refused")
        self.note(words.t("link.refused", why=words.refusal(reply)), "error", "link-error")
        self.buttons(("home", words.t("link.home"), True))
        byid("linkplay-title").focus()

    def quiet_first_game(self):
        """The one-tap game prepared while idle (first_game.py) must not replace the game
        by link open in the engine: it is not prepared from now on."""
        self.engine_taken()

    async def open_token(self, token):
        """Open a link (#play=): the screen it leads to, then #linkplay[data-opened] counts
        one more link opened (tests wait on it)."""
        try:
            await self.take(token)
        finally:
            self.opened += 1
            self.root.setAttribute("data-opened", str(self.opened))

    async def take(self, token):
        self.quiet_first_game()
        self.frame(words.t("link.screen"), "opening")
        self.note(words.t("link.opening"))
        if not await engine_client.ready():
            self.refused({"kind": "NoAnswer"})
            return
        read = await engine_client.call({"op": "link_read", "token": token}, quiet=True)
        if not read.get("ok"):
            self.refused(read)
            return
        gid = str(read["id"])
        record = self.load(gid)
        seat = read.get("for")
        if seat is not None and record is None:
            if read["sides"][seat]["name"] is not None:
                self.seat_taken(read)  # an invitation made once its friend had joined
            else:
                self.join_screen(token, read)
            return
        if record is not None and record.get("ended"):
            self.ended(record)
            return
        if record is not None and not await self.claim(gid, lambda: self.open_token(token)):
            return
        if seat is not None and record["status"]["device"] == seat:
            await self.resume(gid)  # joined already: the same join link again, never a new secret
            return
        reply = await engine_client.call({"op": "link_open", "token": token,
                                          "local": None if record is None else record["local"]}, quiet=True)
        if not reply.get("ok"):
            if reply.get("code") == "link.rewrites" and record is not None:
                self.disagree(gid, reply)
            else:
                self.refused(reply)
            return
        outcome = reply["outcome"]
        if outcome == "new":
            self.not_here(token, read)
            return
        if outcome != "updated":
            self.outcome(gid, outcome)
            return
        record = self.store(reply["local"], reply["status"], reply.get("view"))
        catch = reply.get("catch_up")
        if catch and reply.get("view") is not None:
            await self.catch_up(gid, catch, reply)
        await self.show_game(record, reply.get("view"), words.t("link.updated"))

    @redrawable
    def outcome(self, gid, outcome):
        """A link opened that changed nothing (seen already, older, another game's turn)."""
        self.frame(words.t("link.screen"), outcome)
        self.note(words.t(OUTCOMES[outcome]), "info", "link-outcome")
        self.buttons(("resume", words.t("link.continue"), True), ("home", words.t("link.home"), False))
        self.root.setAttribute("data-game", gid)
        byid("linkplay-title").focus()

    @redrawable
    def not_here(self, token, read):
        """A link of a game this browser does not hold, and for no seat. Most often the game
        is in another browser of this same device (a link tapped in a chat app opens in its
        own browser, or in the default one): said so, with the way there (the link to copy
        into that browser; its QR code for another device)."""
        self.frame(words.t("link.not_here_title"), "not-joined")
        names = words.and_list(side["name"] for side in read["sides"] if side["name"])
        self.note(words.t("link.not_joined", names=names), "warn", "link-outcome")
        self.root.appendChild(el("p", "help", words.t("link.other_browser_how")))
        self.link_box(token, None, 0)
        self.buttons(("home", words.t("link.home"), False))
        byid("linkplay-title").focus()

    @redrawable
    def seat_taken(self, read):
        """An invitation whose place is taken already: said, never joined."""
        sides = read["sides"]
        self.frame(words.t("link.seat_taken_title"), "seat-taken")
        self.note(words.t("link.seat_taken", name=sides[read["for"]]["name"], host=sides[0]["name"]), "warn",
                  "link-outcome")
        self.buttons(("home", words.t("link.home"), True))
        byid("linkplay-title").focus()

    @redrawable
    def disagree(self, gid, reply):
        """A link with another version of a move this device holds (link.rewrites): who and
        which move, both versions, and what can be done: keep this device's game (the link
        is not taken), or end the game as unverified."""
        self.frame(words.t("link.disagree_title"), "disagree")
        self.root.setAttribute("data-game", gid)
        self.note(words.refusal(reply), "error", "link-error")
        self.root.appendChild(el("p", "help", words.t("link.disagree_help")))
        self.buttons(("resume", words.t("link.keep"), True), ("end", words.t("link.end_unverified"), False),
                     ("home", words.t("link.home"), False))
        byid("linkplay-title").focus()

    def end_unverified(self, gid):
        def really():
            record = self.load(gid)
            if record is None:
                return
            record["ended"] = "unverified"
            record["updated"] = str(storage.now())
            if not storage.set(PREFIX + gid, json.dumps(record)):
                message(words.t("msg.not_saved"), "error")
            self.let_go()
            self.ended(record)
        self.screen.ask(words.t("link.end_ask"), words.t("link.end_unverified"), really)

    @redrawable
    def ended(self, record):
        """A game the player ended as unverified: said; it is no longer played."""
        self.frame(self.title(record), "ended")
        self.root.setAttribute("data-game", record["status"]["id"])
        self.note(words.t("link.ended_note"), "warn", "link-outcome")
        self.buttons(("home", words.t("link.home"), True))
        byid("linkplay-title").focus()

    # --- one tab at a time ------------------------------------------------------------------

    async def claim(self, gid, retry):
        """This tab takes the game ``gid`` (its Web Lock): True when it may show and play it;
        else the other-tab screen, whose Try again calls ``retry()`` (a coroutine)."""
        if self.held == gid and js.generala.linkSecrets.holds(LOCK + gid):
            return True
        self.let_go()
        got = str(await js.generala.linkSecrets.claim(LOCK + gid))
        if got == "taken":
            self.retry = retry
            self.other_tab(gid)
            return False
        if got == "none":
            js.console.warn("link: no Web Locks here: two tabs of one game are not kept apart")
        self.held = gid
        return True

    @redrawable
    def other_tab(self, gid):
        """The game is open in another tab of this browser: Try again once it is closed."""
        self.frame(words.t("link.screen"), "other-tab")
        self.root.setAttribute("data-game", gid)
        self.note(words.t("link.other_tab"), "warn", "link-outcome")
        self.buttons(("retry", words.t("link.retry"), True), ("home", words.t("link.home"), False))
        byid("linkplay-title").focus()

    def let_go(self):
        """The game's Web Lock let go (this tab no longer shows it)."""
        if self.held is not None:
            js.generala.linkSecrets.release(LOCK + self.held)
            self.held = None

    # --- joining -------------------------------------------------------------------------

    @redrawable
    def join_screen(self, token, read):
        self.invited = token
        sides = read["sides"]
        host = sides[0]["name"]
        title = words.title(read["variant"], (self.catalog.get(read["variant"]) or {}).get("title"))
        self.frame(words.t("link.join_title", host=host, title=title), "join")
        self.root.appendChild(el("p", "link-game", words.t("link.join_sides", names=", ".join(
            s["name"] or words.t("link.friend") for s in sides))))
        form = el("form", "link-join", None, {"id": "link-join", "novalidate": ""})
        form.appendChild(el("label", None, words.t("link.join_name"), {"for": "link-name"}))
        name = el("input", None, None, {"id": "link-name", "autocomplete": "nickname", "required": "",
                                        "aria-describedby": "link-join-help"})
        form.appendChild(name)
        form.appendChild(el("p", "help", words.t("link.join_help", host=host), {"id": "link-join-help"}))
        form.appendChild(el("p", "field-error", None, {"id": "link-join-error", "hidden": "", "role": "alert"}))
        row = el("div", "actions")
        row.appendChild(el("button", "btn primary", words.t("link.join"), {"type": "submit", "id": "link-join-btn"}))
        row.appendChild(el("button", "btn", words.t("link.home"), {"type": "button", "data-link": "home"}))
        form.appendChild(row)
        self.root.appendChild(form)
        name.focus()

    async def join(self):
        field = byid("link-name")
        name = " ".join(str(field.value).split())
        err = byid("link-join-error")
        if not name:
            err.textContent = words.t("link.name_needed")
            err.hidden = False
            field.focus()
            return
        token, self.invited = self.invited, None
        if token is None:
            return
        reply = await engine_client.call({"op": "link_join", "token": token, "name": name,
                                          "entropy": entropy(32)}, quiet=True)
        if not reply.get("ok"):
            self.invited = token
            err.textContent = words.refusal(reply)
            err.hidden = False
            return
        record = self.store(reply["local"], reply["status"], reply.get("view"))
        gid = record["status"]["id"]
        if await self.claim(gid, lambda: self.resume(gid)):
            self.joined(record, reply["link"])

    @redrawable
    def joined(self, record, token):
        """Joined: the link back to the host."""
        self.handover(record, [("", token)], words.t("link.send_join", name=name_of(record, 0)), "joined")

    # --- a stored game -----------------------------------------------------------------------

    async def resume(self, gid):
        """Open a stored game by link: the board when this device plays (or it is over), else
        the hand-over with the link to send (the same link again: nothing new is revealed)."""
        record = self.load(gid)
        if record is None:
            return
        if record.get("ended"):
            self.ended(record)
            return
        if not await self.claim(gid, lambda: self.resume(gid)):
            return
        if not await engine_client.ready():
            message(words.t("replay.no_engine"), "error")
            return
        reply = await engine_client.call({"op": "link_load", "local": record["local"]}, quiet=True)
        if not reply.get("ok"):
            self.refused(reply)
            return
        extra = None
        if "invitations" in reply:  # made again by the engine: an imported host has none stored
            extra = {"invitations": [[inv["side"], inv["token"]] for inv in reply["invitations"]]}
        record = self.store(reply["local"], reply["status"], reply.get("view"), extra)
        await self.show_game(record, reply.get("view"))

    async def show_game(self, record, view, said=None):
        """Where a game by link stands now: the board (this device plays, or it is over), or
        the hand-over (the link the others wait for: at the end, this device's closing link
        when the game ended before its first turn)."""
        status = record["status"]
        self.record = record
        if status["device"] == 0 and not status["joined"]:
            self.show_invitations(record)
        elif view is not None and (status["mine"] or status["over"]) and not status.get("owes"):
            self.on_board(record, view)
        else:
            await self.send()
            return
        if said:
            self.screen.announce(said)

    def on_board(self, record, view, replayed=False):
        """The game on the board (``replayed``: a move of the catch-up, which no computer of
        this device plays on: the board's game id stays unset meanwhile)."""
        game = self.game
        self.gid = record["status"]["id"]
        self.record = record
        self.screens.hide_mine()
        self.keeper.close()
        self.keeper.gid = None if replayed else BOARD_PREFIX + self.gid  # not a save: stored here
        game.forget_boxes()
        game.missed = []
        game.named = {}  # each device's names are typed: none is the page's
        self.screen.show_board()
        byid("board").inert = False
        self.board.key = None
        game.draw(view)
        self.screen.refocus(view)

    async def send(self):
        """The link this device sends now (link_send), on the hand-over screen."""
        if self.sending:
            return
        gid = self.record["status"]["id"] if self.record is not None else None
        if gid is not None and self.held != gid and not await self.claim(gid, lambda: self.resume(gid)):
            return  # a tab that does not hold the game never sends its link
        # a friend's closing link (the game ended before its first turn): owed until made
        closing = self.record is not None and bool(self.record["status"].get("owes"))
        self.sending = True
        try:
            reply = await engine_client.call({"op": "link_send"}, quiet=True)
        finally:
            self.sending = False
        if not reply.get("ok"):
            self.refused(reply)
            return
        record = self.store(reply["local"], reply["status"])
        self.gid = None
        self.keeper.gid = None
        self.sent(record, reply["link"], closing)

    @redrawable
    def sent(self, record, token, closing):
        """The hand-over of the link this device sends now (``closing``: a friend's closing
        link, owed because the game ended before its first turn)."""
        who = words.and_list(name_of(record, i) for i in receivers(record))
        status = record["status"]
        help_key = None
        if status["over"]:
            heading = words.t("link.send_last", names=who)
            if closing:
                help_key = "link.closing_help"  # a friend who never played: why its link matters
        elif status["device"] != 0 and status["playing"] is None:
            revealing = status["joined"] and devices_count(record) > 2
            heading = words.t("link.send_reveal" if revealing else "link.send_join", name=who)
            help_key = "link.reveal_friend" if revealing else None
        else:
            heading = words.t("link.send_to", names=who)
            if status["device"] == 0 and status["playing"] is None:
                help_key = "link.reveal_help"  # every device committed: each friend's part next
        self.handover(record, [("", token)], heading)
        if help_key is not None:
            self.root.insertBefore(el("p", "help", words.t(help_key), {"id": "link-stage-help"}),
                                   self.root.querySelector(".link-box"))

    # --- the board's part: each reply stored, the hand-over when the game passes on --------

    def linked(self, reply, drawn):
        """A move's reply on a game by link (controller.changed): its record stored; once the
        game passes to another device (or ends with this device's move), the hand-over."""
        record = self.store(reply["local"], reply["status"], reply["view"])
        status = record["status"]
        if not status["mine"]:
            byid("board").inert = True  # another device plays now: nothing to press until the hand-over
        if drawn and not status["mine"] and not self.engine.waiting() and self.catching is None:
            spawn(self.send())

    def board_part(self, view, ui, board):
        node = byid("link-result")
        gid = str(self.keeper.gid or "")
        if gid.startswith(BOARD_PREFIX):
            board.root.setAttribute("data-link", "")  # a game by link: no Play again, no share panel
        else:
            board.root.removeAttribute("data-link")
        if not gid.startswith(BOARD_PREFIX) or not view["over"] or self.record is None:
            if node is not None:
                node.remove()
            return
        if node is None:
            node = el("div", "link-result", None, {"id": "link-result"})
        clear(node)
        verification = self.record["status"]["verification"]
        if verification["state"] == "verified":
            node.appendChild(el("p", "link-verified", words.t("link.verified"), {"data-verified": "verified"}))
        else:
            names = words.and_list(name_of(self.record, i) for i in verification["pending"])
            node.appendChild(el("p", "link-verified", words.t("link.pending", name=names),
                                {"data-verified": "pending"}))
        node.appendChild(el("button", "btn", words.t("link.send_again"), {"type": "button", "data-link-send": ""}))
        # under the game-over banner, at the top of the board: in view on a phone's first
        # screen (in the result panel it sat some 1,100 px down at 375x667)
        banner = board.banner
        after = node.previousSibling
        if node.parentNode is None or after is None or not after.isSameNode(banner):
            banner.parentNode.insertBefore(node, banner.nextSibling)

    def on_board_click(self, event):
        if event.target.closest("[data-link-send]"):
            spawn(self.send_from_board())

    async def send_from_board(self):
        record = self.record
        if record is None:
            return
        reply = await engine_client.call({"op": "link_load", "local": record["local"]}, quiet=True)
        if reply.get("ok"):
            await self.send()

    # --- the moves this device had not seen, stepped through on the board -------------------

    async def catch_up(self, gid, catch, reply):
        record = self.load(gid)
        self.catching = {"skip": reduced_motion()}
        try:
            bar = byid("link-catchup")
            if bar is None:
                bar = el("div", "link-catchup", None, {"id": "link-catchup", "role": "status"})
                bar.appendChild(el("span", "link-catchup-text", ""))
                bar.appendChild(el("button", "btn small", words.t("link.skip"), {"type": "button",
                                                                                 "id": "link-skip"}))
                on(bar.querySelector("button"), "click", lambda e: self.skip())
                byid("board").parentNode.insertBefore(bar, byid("board"))
            first = True
            for step in range(catch["from"] + 1, catch["steps"] + 1):
                if self.catching["skip"]:
                    break
                shown = await engine_client.call({"op": "replay_at", "step": step}, quiet=True)
                if not shown.get("ok") or self.catching["skip"]:
                    break
                if first:
                    self.on_board(record, shown["view"], replayed=True)
                    first = False
                    bar.hidden = False
                    byid("board").setAttribute("inert", "")
                    byid("link-skip").focus()
                else:
                    self.game.draw(shown["view"])
                bar.querySelector(".link-catchup-text").textContent = words.t(
                    "link.catching_up", step=step - catch["from"], steps=catch["steps"] - catch["from"])
                await asyncio.sleep(STEP_SECONDS)
        finally:
            # how the moves were shown: stepped through, skipped, or at once (reduced motion)
            self.root.setAttribute("data-caught-up", "instant" if first else
                                   "skipped" if self.catching["skip"] else "played")
            self.catching = None
            bar = byid("link-catchup")
            if bar is not None:
                bar.hidden = True
            byid("board").removeAttribute("inert")
        # the game itself again (the replay's steps were views of a copy)
        await engine_client.call({"op": "link_load", "local": self.load(gid)["local"]}, quiet=True)

    def skip(self):
        if self.catching is not None:
            self.catching["skip"] = True

    # --- the home screen's list ------------------------------------------------------------

    def saves_drawn(self):
        """The games by link, in the home screen's list of their own (after Continue)."""
        if self.root.hidden and self.catching is None and not str(self.keeper.gid or "").startswith(BOARD_PREFIX):
            self.let_go()  # the home screen: no game by link is on this tab's screen
        sec = byid("link-section")
        if sec is None:
            sec = el("section", "saves", None, {"id": "link-section", "aria-labelledby": "link-list-title"})
            sec.appendChild(el("h2", None, words.t("link.list_title"), {"id": "link-list-title"}))
            sec.appendChild(el("ul", "save-list", None, {"id": "link-list"}))
            after = byid("continue-section")
            after.parentNode.insertBefore(sec, after.nextSibling)
        ul = byid("link-list")
        clear(ul)
        records = [r for r in (self.load(gid) for gid in self.stored_ids()) if r is not None]
        records.sort(key=lambda r: str(r.get("updated") or ""), reverse=True)
        for record in records:
            gid = record["status"]["id"]
            label = self.title(record) + " · " + ", ".join(name_of(record, i) for i in range(len(names_of(record))))
            state = "over" if record["status"]["over"] or record.get("ended") else \
                "turn" if record["status"]["mine"] else "waiting"
            li = el("li", "save", None, {"data-link-game": gid, "data-link-state": state})
            text = el("span", "save-text")
            text.appendChild(el("span", "save-title", label))
            text.appendChild(el("span", "save-meta", state_text(record)))
            li.appendChild(text)
            li.appendChild(el("button", "btn primary small", words.t("link.open"),
                              {"type": "button", "data-link-open": gid,
                               "aria-label": words.t("link.open_label", game=label)}))
            if record.get("title") is not None:  # the game has begun: it can be replayed
                li.appendChild(el("button", "btn small", words.t("replay.replay"),
                                  {"type": "button", "data-link-replay": gid,
                                   "aria-label": words.t("replay.replay") + ": " + label}))
            li.appendChild(el("button", "btn small danger", words.t("save.delete"),
                              {"type": "button", "data-link-delete": gid, "data-label": label,
                               "aria-label": words.t("save.delete_label", game=label)}))
            ul.appendChild(li)
        sec.hidden = not records

    # --- export and import (transfer.py) ------------------------------------------------

    def exported(self):
        """(id, when in ms, finished, local record) of every stored game by link."""
        out = []
        for gid in self.stored_ids():
            record = self.load(gid)
            if record is not None:
                ms = record.get("updated")
                out.append((BOARD_PREFIX + gid, int(ms) if ms and str(ms).isdigit() else None,
                            bool(record["status"]["over"]), record["local"]))
        return out

    def imported(self, game):
        """A game by link from an import (op import checked it: ``link``, ``status``,
        ``view``): stored, unless this device holds that game already. True when stored."""
        gid = game["status"]["id"]
        if self.load(gid) is not None:
            return False
        self.store(game["link"], game["status"], game.get("view"))
        return True

    def relabel(self):
        sec = byid("link-section")
        if sec is not None:
            sec.querySelector("h2").textContent = words.t("link.list_title")
        if self.again is None or self.root.hidden:
            return
        # the screen shown, drawn again in the new language: what the player typed stays,
        # and the keyboard stays where it was (the language picker)
        typed = {}
        for ident in ("link-paste-field", "link-name"):
            node = byid(ident)
            if node is not None:
                typed[ident] = str(node.value)
        focused = document.activeElement
        ident = str(focused.id) if focused is not None and focused.id else None
        self.again()
        for key, value in typed.items():
            node = byid(key)
            if node is not None:
                node.value = value
        node = byid(ident) if ident else None
        if node is not None:
            node.focus()

    # --- events ---------------------------------------------------------------------------

    def on_home_click(self, event):
        t = event.target
        node = t.closest("[data-link-open]")
        if node:
            spawn(self.resume(str(node.getAttribute("data-link-open"))))
            return
        node = t.closest("[data-link-replay]")
        if node and self.replay is not None:
            spawn(self.open_replay(str(node.getAttribute("data-link-replay"))))
            return
        node = t.closest("[data-link-delete]")
        if node:
            gid, label = str(node.getAttribute("data-link-delete")), str(node.getAttribute("data-label"))

            def really():
                storage.remove(PREFIX + gid)
                self.saves_drawn()
                byid("announce").textContent = words.t("save.deleted", game=label)
            self.screen.ask(words.t("save.delete_ask", game=label), words.t("save.delete"), really)

    async def open_replay(self, gid):
        """The replay screen (replayview.py) stepping through a stored game by link."""
        record = self.load(gid)
        if record is None:
            return
        view = self.replay
        view.over = False  # its share buttons are for games with a seed: not shown
        view.frame(words.t("replay.title") + self.title(record))
        view.status.textContent = words.t("replay.loading")
        view.token = None
        await view.start({"op": "link_replay", "local": record["local"]}, "replay.bad_save", None)

    def on_submit(self, event):
        event.preventDefault()
        if event.target.id == "link-join":
            spawn(self.join())
        elif event.target.id == "link-paste":
            self.pasted()

    def on_click(self, event):
        node = event.target.closest("[data-link]")
        if not node:
            return
        key = str(node.getAttribute("data-link"))
        if key == "copy":
            spawn(self.copy(byid(str(node.getAttribute("data-for")))))
        elif key == "share":
            field = byid(str(node.getAttribute("data-for")))
            spawn(self.share(field))
        elif key == "home":
            self.leave()
        elif key == "board" and self.record is not None:
            spawn(self.resume(self.record["status"]["id"]))
        elif key == "resume":
            spawn(self.resume(str(self.root.getAttribute("data-game"))))
        elif key == "retry" and self.retry is not None:
            retry, self.retry = self.retry, None
            spawn(retry())
        elif key == "end":
            self.end_unverified(str(self.root.getAttribute("data-game")))

    async def copy(self, field):
        note = field.closest(".link-box").querySelector(".link-copy-note")
        done = await js.generala.linkSecrets.copy(field)
        note.textContent = words.t("link.copied" if done else "link.copy_failed")
        if not done:
            field.focus()
            field.select()

    async def share(self, field):
        await js.generala.linkSecrets.share(words.t("link.screen"), str(field.value))

    def leave(self):
        self.let_go()
        self.screens.hide_mine()
        self.screen.show_home("main")


def help_nodes(body):
    """The rules dialog's words on playing by link (navigation.py show_rules)."""
    body.appendChild(el("h3", None, words.t("link.help_title")))
    for para in words.t("link.help"):
        body.appendChild(el("p", "help", para))
