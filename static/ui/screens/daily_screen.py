# The daily challenge on the page: the home screen's block (index.html #daily-section:
# Today's challenge in one tap, the four games with their status on the day picked, the
# streak) and the board's part (the title's badge; at the end, the comparison with perfect
# play and the share text in the game-over card). The engine decides everything
# (generala/modes/daily.py: the day's seed, no undo or help, each game's status, the streak, the
# end's figures); this module asks it and draws the answers. Its looks: static/css/daily.css.
import js

from screens import daily_share
from engine import engine_client
from words import words
from web.dom import byid, el, on
from web.screen_switch import spawn

# The words of each status the engine gives a game on a day (daily.history).
STATUS = {"new": "daily.status_new", "playing": "daily.status_playing", "done": "daily.status_done"}


def fit_height(area):
    """The share text's box as tall as its text, wrapped lines too (a narrow phone wraps
    a long first line): CSS field-sizing where the browser has it, else the height of
    its content once laid out."""
    if js.CSS.supports("field-sizing", "content") or not int(area.scrollHeight):
        return  # (not laid out: not on screen now; its rows stand)
    area.style.height = "auto"
    area.style.height = str(int(area.scrollHeight) + int(area.offsetHeight) - int(area.clientHeight)) + "px"


def pad(n):
    return ("0" + str(n))[-2:]


def local_day():
    """The player's local date, YYYY-MM-DD (as the well-known word games use it)."""
    now = js.Date.new()
    return str(int(now.getFullYear())) + "-" + pad(int(now.getMonth()) + 1) + "-" + pad(int(now.getDate()))


class Daily:
    def __init__(self, game, board, saves, catalog, games):
        """``game``: the controller (start_game, resume); ``board`` the board (the
        challenge's part of it); ``saves`` the storage's saved games (saves.py: the days
        played); ``catalog``: its variants; ``games``: the catalog's games in the order
        shown."""
        self.game = game
        self.saves = saves
        self.catalog = catalog
        self.games = games
        self.history = None
        self.result_for = None  # (variant, date) of the result drawn or being computed
        self.share = None
        self.share_result = None  # the engine's daily_result reply drawn last
        self.root = byid("daily-section")
        self.picker = byid("daily-picker")
        self.build()
        if self.root is not None:
            on(self.root, "click", self.on_click)
        board.parts.add("challenge", self.draw)

    # --- the home screen's block -------------------------------------------------

    def build(self):
        """Take the block's parts, written in index.html (no layout shift at the first paint):
        the four games' buttons, the streak, the day."""
        if self.picker is None:
            return
        self.buttons = {}
        for name in self.games:
            btn = byid("daily-" + name)
            if btn is not None and name in self.catalog:
                self.buttons[name] = btn
            elif btn is not None:
                btn.parentNode.remove()
        self.titles()
        self.streak = byid("daily-streak")
        self.late_note = byid("daily-late")
        self.refused = byid("daily-refused")  # why the engine refuses the day picked (a day to come)
        self.today = local_day()  # the day the picker opened on: a new day moves it on
        self.date_input = byid("daily-date")
        self.date_input.value = self.today
        self.date_input.setAttribute("max", self.today)
        on(self.date_input, "change", lambda e: self.refresh_now())

    def titles(self):
        """The games' titles in the page's language (index.html writes the English ones)."""
        for name, btn in self.buttons.items():
            btn.querySelector(".daily-game-title").textContent = words.title(name, self.catalog[name].get("title"))

    def relabel(self):
        """After a language change: the titles, the statuses and the streak in the new words
        (the rest of the block is index.html's, in every language)."""
        self.titles()
        self.refresh_now()

    def picked_day(self):
        value = str(self.date_input.value) if self.picker is not None else ""
        return value or local_day()

    def entries(self):
        """The saved games that are challenges (their save says so), finished or not."""
        unfinished, finished, _ = self.saves.listing()
        return [{"id": e["id"], "save": e["save"], "when": str(e.get("updated") or "")}
                for e in unfinished + finished if "daily" in e["save"]]

    def refresh_now(self):
        spawn(self.refresh())

    async def refresh(self):
        """Ask the engine each game's status on the day picked and the streak; draw them."""
        if self.picker is None or not await engine_client.ready():
            return None
        today = local_day()
        if today != self.today:  # midnight passed (or the clock moved): today is a new day
            if self.picked_day() == self.today:
                self.date_input.value = today
            self.today = today
        day = self.picked_day()
        reply = await engine_client.call({"op": "daily_history", "today": today, "date": day,
                                          "entries": self.entries()}, quiet=True)
        self.date_input.setAttribute("max", today)
        if not reply.get("ok"):
            self.refuse(day, reply)
            return None
        history = self.history = reply["challenges"]
        self.refuse(day, None)
        self.late_note.hidden = history["date"] == today
        for name, btn in self.buttons.items():
            status = history["games"][name]
            btn.setAttribute("data-status", status["status"])
            text = words.t(STATUS[status["status"]], score=words.num(status["score"] or 0))
            if status.get("again"):
                text = text + " " + words.t("daily.played_again")
            btn.querySelector(".daily-game-status").textContent = text
        line = words.tn("daily.streak", history["streak"])
        if history["best_streak"] > history["streak"]:
            line = line + " · " + words.tn("daily.best_streak", history["best_streak"])
        self.streak.textContent = line
        self.picker.setAttribute("data-ready", history["date"])
        return history

    def refuse(self, day, reply):
        """The engine refused the day picked (a day after today, a date that is not one):
        its refusal under the Day field, the games not playable; None: the day is fine."""
        if self.refused is None:
            return
        bad = reply is not None and reply.get("kind") != "NoAnswer"
        self.refused.textContent = words.refusal(reply) if bad else ""
        self.refused.hidden = not bad
        if bad:
            self.date_input.setAttribute("aria-invalid", "true")
            self.picker.setAttribute("data-refused", day)
            self.late_note.hidden = True
        else:
            self.date_input.removeAttribute("aria-invalid")
            self.picker.removeAttribute("data-refused")
        for btn in self.buttons.values():
            btn.disabled = bad

    def on_click(self, event):
        node = event.target.closest("[data-daily]")
        if node:
            spawn(self.play(str(node.getAttribute("data-daily")), self.picked_day()))

    def play_today(self):
        """The home screen's one tap: today's challenge of the game picked for one-tap play."""
        pick = byid("quick-game")
        name = str(pick.value) if pick is not None and str(pick.value) in self.catalog else self.games[0]
        if self.picker is not None:
            self.date_input.value = local_day()
        spawn(self.play(name, local_day()))

    async def play(self, name, day):
        """Open the challenge of ``name`` on ``day``: its result when finished (it is played
        once), the game where it was left, or a new one."""
        if not await engine_client.ready():
            return
        if self.picker is not None:
            self.date_input.value = day
        history = await self.refresh()
        if history is None and self.picker is not None and self.picker.hasAttribute("data-refused"):
            return  # the day is refused: said under the Day field
        status = history["games"][name] if history else {"status": "new", "id": None}
        if status["status"] != "new" and status["id"]:
            await self.game.resume(status["id"])
            return
        req = {"op": "daily", "variant": name, "date": day, "today": local_day(), "name": words.t("home.you")}
        if name + "/" + day in self.saves.daily_deleted():
            req["again"] = True  # its first game was deleted: this one is marked "played again"
        await self.game.start_game(req, {"0": ["home.you"]})

    # --- the board's part ----------------------------------------------------------

    def draw(self, view, ui, board):
        info = view.get("daily")
        title = board.root.querySelector("#board-title")
        badge = byid("daily-badge")
        if not info:
            if badge is not None:
                badge.remove()
            return
        if badge is None and title is not None:
            badge = el("span", "daily-badge", None, {"id": "daily-badge"})
            title.appendChild(badge)
        if badge is not None:
            text = words.t("daily.badge_late" if info["late"] else "daily.badge", date=info["date"])
            if info.get("again"):
                text = text + " " + words.t("daily.played_again")
            badge.textContent = text
        if not view["over"]:
            self.result_for = None
            return
        key = (view["variant"], info["date"])
        panel = byid("daily-result")
        if panel is None or panel.parentNode != board.over or self.result_for != key:
            panel = self.panel(board.over, info)
            if self.result_for != key:
                self.result_for = key
                spawn(self.compute(panel, key))
            elif self.share_result is not None and self.share_result["result"]["date"] == key[1] \
                    and self.share_result["result"]["variant"] == key[0]:
                self.fill(panel, self.share_result)

    def panel(self, over, info):
        old = byid("daily-result")
        if old is not None:
            old.remove()
        panel = el("section", "daily-result", None, {"id": "daily-result", "data-state": "computing",
                                                      "aria-labelledby": "daily-result-title"})
        panel.appendChild(el("h4", None, words.t("daily.result", date=info["date"]), {"id": "daily-result-title"}))
        # shown by CSS only after a second (daily.css): a quick answer never flashes it
        wait = el("p", "daily-computing", None, {"id": "daily-computing", "role": "status"})
        wait.appendChild(el("span", None, words.t("daily.computing")))
        wait.appendChild(el("progress", None, None, {"aria-label": words.t("daily.computing")}))
        panel.appendChild(wait)
        winner = over.querySelector("#over-winner")
        if winner is not None and winner.nextSibling is not None:
            over.insertBefore(panel, winner.nextSibling)
        else:
            over.appendChild(panel)
        return panel

    async def compute(self, panel, key):
        reply = await engine_client.call({"op": "daily_result"}, quiet=True)
        if self.result_for != key:
            return
        panel = byid("daily-result") or panel
        if not reply.get("ok"):
            panel.appendChild(el("p", "msg msg-error", words.t("daily.failed", why=words.refusal(reply)),
                                 {"role": "alert"}))
            panel.setAttribute("data-state", "failed")
            return
        self.share_result = reply
        self.fill(panel, reply)
        spawn(self.refresh())

    def fill(self, panel, reply):
        wait = panel.querySelector("#daily-computing")
        if wait is not None:
            wait.remove()
        result = reply["result"]
        figures = el("dl", "daily-figures", None, {"id": "daily-figures"})
        for key, value, ident in (("daily.you", words.num(result["score"]), "daily-score"),
                                  ("daily.perfect", words.num(result["perfect"]), "daily-perfect"),
                                  ("daily.expected", words.decimal(result["expected"]), "daily-expected"),
                                  ("daily.lost", words.decimal(result["skill_loss"]), "daily-lost")):
            row = el("div")
            row.appendChild(el("dt", None, words.t(key)))
            row.appendChild(el("dd", None, value, {"id": ident}))
            figures.appendChild(row)
        panel.appendChild(figures)
        if result["score"] > result["perfect"]:  # more than perfect play on the same dice: luck
            panel.appendChild(el("p", "daily-luck", words.t("daily.luck"), {"id": "daily-luck"}))
        details = el("details", "daily-turns")
        details.appendChild(el("summary", None, words.t("daily.turns")))
        table = el("table", None, None, {"id": "daily-turns"})
        table.appendChild(el("caption", "sr-only", words.t("daily.turns")))
        head = el("tr")
        for key in ("daily.turn", "daily.boxes", "daily.points", "daily.loss"):
            head.appendChild(el("th", None, words.t(key), {"scope": "col"}))
        table.appendChild(head)
        for turn in result["turns"]:
            tr = el("tr")
            tr.appendChild(el("td", None, words.num(turn["turn"])))
            tr.appendChild(el("td", None, words.and_list([words.box(b) for b in turn["boxes"]])))
            tr.appendChild(el("td", None, " + ".join(words.num(p) for p in turn["points"])))
            tr.appendChild(el("td", None, words.decimal(turn["loss"])))
            table.appendChild(tr)
        details.appendChild(table)
        panel.appendChild(details)
        text = daily_share.share_text(reply["share"])
        self.share = text
        panel.appendChild(el("label", "sr-only", words.t("daily.share_text"), {"for": "daily-share-text"}))
        area = el("textarea", "daily-share-text", None, {"id": "daily-share-text", "readonly": "",
                                                         "rows": str(len(text.split("\n")))})
        area.value = text
        panel.appendChild(area)
        fit_height(area)
        panel.appendChild(el("p", "help daily-legend", words.t("daily.legend")))
        buttons = el("div", "actions daily-actions")
        copy = el("button", "btn primary", words.t("daily.copy"), {"type": "button", "id": "daily-copy"})
        on(copy, "click", lambda e: spawn(self.copy()))
        buttons.appendChild(copy)
        if getattr(js.navigator, "share", None) is not None:
            send = el("button", "btn", words.t("daily.share"), {"type": "button", "id": "daily-send"})
            on(send, "click", lambda e: spawn(self.send()))
            buttons.appendChild(send)
        panel.appendChild(buttons)
        self.said = el("p", "daily-said", "", {"id": "daily-said", "role": "status"})
        panel.appendChild(self.said)
        panel.setAttribute("data-state", "ready")

    async def copy(self):
        try:
            await js.navigator.clipboard.writeText(self.share)
            self.said.textContent = words.t("daily.copied")
        except Exception:
            area = byid("daily-share-text")
            if area is not None:
                area.select()
            self.said.textContent = words.t("daily.copy_failed")

    async def send(self):
        try:
            data = js.Object.new()
            data.text = self.share
            await js.navigator.share(data)
        except Exception:
            pass  # the player closed the sheet
