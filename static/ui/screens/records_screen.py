# A player's record: per player name and game, across the finished games saved
# in this browser and its finished games by link (op records): games, wins, best and
# mean score, scratches per box, Generalas rolled, and a chart of scores over time. Its looks:
# static/css/records.css (a table; on a phone, a card a record).
import js

from words import words
from screens.chart import score_chart
from web.dom import byid, clear, el, on
from board.render import sheet_mark
from engine import engine_client
from web.screen_switch import section, spawn


# The figures of a record: the words' key (records.KEY) and the record's field.
FIGURES = ("games", "wins", "best", "mean", "five")
FIELDS = ("games", "wins", "best", "mean", "five_alike")
CSS = "./static/css/records.css"


def number(x):
    """A mean as written: 20, 48.5, 117.33."""
    if x == int(x):
        return str(int(x))
    return ("%.2f" % x).rstrip("0")


def ms_of(value):
    """A stored time in ms (a number, or digits as text) as a float; 0 when there is none."""
    try:
        return float(value or 0)
    except Exception:
        return 0.0


def stamp(ms):
    try:
        return str(js.Date.new(float(ms)).toISOString())[:16].replace("T", " ")  # float: no 32-bit cut
    except Exception:
        return ""


class RecordsView:
    def __init__(self, saves, screens, catalog, links):
        """``saves``: the storage's saved games (saves.py: the finished ones counted);
        ``links``: the games by link (linkplay.py: exported()), their finished games too."""
        self.sheets = {}
        self.saves = saves
        self.screens = screens
        self.catalog = catalog
        if js.document.querySelector('link[href="' + CSS + '"]') is None:
            js.document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.root = section("records", words.t("records.screen"))
        self.players = []
        self.links = links
        self.opening = 0  # how many times the screen was opened: the last one draws
        # index.html's nav button (#nav-records) opens it: home_screen.py, from the start
        on(self.root, "click", self.on_click)
        on(self.root, "change", self.on_change)
        on(byid("nav-home"), "click", lambda e: self.screens.hide_mine())

    def title_of(self, variant):
        info = self.catalog.get(variant) if isinstance(self.catalog, dict) else None
        english = info["title"] if info else variant
        title = getattr(words, "title", None)  # the game's name in the page's language
        return title(variant, english) if title else english

    def open_now(self):
        """Open the records screen (the nav button, or its tap kept from before the UI was ready)."""
        spawn(self.open())

    def relabel(self):
        """After a language change: the nav button, and the screen if it is showing."""
        btn = byid("nav-records")
        if btn is not None:
            btn.textContent = words.t("records.nav")
        if not self.root.hidden:
            spawn(self.open())

    async def open(self):
        # Opened again before the last opening was drawn (the nav tapped twice, the language
        # changed meanwhile): only the last one draws.
        self.opening += 1
        mine = self.opening
        root = self.root
        clear(root)
        head = el("div", "replay-head")
        head.appendChild(el("h2", None, words.t("records.title"), {"id": "records-title"}))
        head.appendChild(el("button", "btn", words.t("records.back"), {"type": "button", "data-records": "back"}))
        root.appendChild(head)
        status = el("p", "status", words.t("records.loading"), {"id": "records-status"})
        root.appendChild(status)
        root.removeAttribute("data-ready")
        self.screens.show("records")
        _, finished, _ = self.saves.listing()
        # with the finished games by link (linkplay.py: exported), oldest first: the chart
        # runs forward in time
        entries = [(ms_of(e.get("updated")), {"save": e["save"]}) for e in reversed(finished)]
        links = self.links.exported()
        entries += [(ms_of(ms), {"link": local}) for _, ms, over, local in links if over]
        order = sorted(range(len(entries)), key=lambda k: (entries[k][0], k))
        entries = [entries[k] for k in order]
        if not entries:
            status.textContent = words.t("records.none")
            root.setAttribute("data-ready", "0")
            return
        ready = await engine_client.ready()
        if mine != self.opening:
            return
        if not ready:
            status.textContent = words.t("records.no_engine")
            return
        for ms, entry in entries:
            entry["when"] = stamp(ms)
        entries = [entry for _, entry in entries]
        reply = await engine_client.call({"op": "records", "entries": entries}, quiet=True)
        if mine != self.opening:
            return
        if not reply.get("ok"):
            status.textContent = words.t("records.failed", why=words.refusal(reply))
            return
        result = reply["records"]
        self.players = result["players"]
        self.sheets = {}  # (name, variant) -> how many of the games counted were score-sheet games
        for e in finished:
            if e.get("sheet"):  # the list field: the game's view said so (saves.py)
                for name in e.get("names") or []:
                    key = (name, e.get("variant"))
                    self.sheets[key] = self.sheets.get(key, 0) + 1
        status.textContent = words.tn("records.skipped", result["skipped"]) if result["skipped"] else ""
        self.draw_table(root)
        self.detail = el("div", "record-detail", None, {"id": "record-detail"})
        root.appendChild(self.detail)
        if self.players:
            self.draw_detail(0)
        root.setAttribute("data-ready", str(len(self.players)))

    def draw_table(self, root):
        """The records, a row a player and game. On a phone each row is a card (records.css):
        the name, the game, then each figure under its label (the labels are the column
        headers' words, shown only there)."""
        wrap = el("div", "records-wrap")
        table = el("table", "records-table", None, {"id": "records-table"})
        table.appendChild(el("caption", "sr-only", words.t("records.title")))
        thead = el("thead")
        tr = el("tr")
        for key in ("player", "game") + FIGURES:
            tr.appendChild(el("th", "rec-" + key, words.t("records." + key), {"scope": "col"}))
        thead.appendChild(tr)
        table.appendChild(thead)
        tbody = el("tbody")
        for k, p in enumerate(self.players):
            tr = el("tr", None, None, {"data-record": k, "data-name": p["name"], "data-variant": p["variant"]})
            th = el("th", "rec-player", None, {"scope": "row"})
            th.appendChild(el("span", "rec-name", p["name"]))
            sheets = self.sheets.get((p["name"], p["variant"]), 0)
            if sheets:
                th.appendChild(el("br"))
                th.appendChild(sheet_mark(words.t("records.sheet", n=sheets, games=p["games"])))
            tr.appendChild(th)
            tr.appendChild(el("td", "rec-game", self.title_of(p["variant"])))
            for key, field in zip(FIGURES, FIELDS):
                td = el("td", "rec-figure rec-" + key)
                td.appendChild(el("span", "rec-label", words.t("records." + key)))
                td.appendChild(el("span", "rec-value", number(p[field]), {"data-key": field}))
                tr.appendChild(td)
            tbody.appendChild(tr)
        table.appendChild(tbody)
        wrap.appendChild(table)
        root.appendChild(wrap)
        row = el("div", "records-pick")
        row.appendChild(el("label", None, words.t("records.pick"), {"for": "records-pick"}))
        sel = el("select", None, None, {"id": "records-pick"})
        for k, p in enumerate(self.players):
            sel.appendChild(el("option", None, p["name"] + " — " + self.title_of(p["variant"]), {"value": k}))
        row.appendChild(sel)
        root.appendChild(row)

    def draw_detail(self, k):
        p = self.players[k]
        node = self.detail
        clear(node)
        node.setAttribute("data-record", str(k))
        title = words.t("records.chart", name=p["name"], game=self.title_of(p["variant"]))
        node.appendChild(el("h3", None, p["name"] + " — " + self.title_of(p["variant"])))
        node.appendChild(score_chart([(s.get("when"), s["score"]) for s in p["scores"]], title))
        node.appendChild(el("h4", None, words.t("records.scratches")))
        scratches = p["scratches"]
        if not scratches:
            node.appendChild(el("p", "help", words.t("records.no_scratches")))
        else:
            ul = el("ul", "scratches", None, {"id": "record-scratches"})
            for box in sorted(scratches, key=lambda b: -scratches[b]):
                ul.appendChild(el("li", None, words.box(box) + ": " + str(scratches[box]), {"data-box": box}))
            node.appendChild(ul)

    def on_click(self, event):
        t = event.target
        node = t.closest("[data-records]")
        if node and str(node.getAttribute("data-records")) == "back":
            self.screens.back()
            return
        row = t.closest("tr[data-record]")
        if row:
            k = int(row.getAttribute("data-record"))
            byid("records-pick").value = str(k)
            self.draw_detail(k)

    def on_change(self, event):
        if event.target.id == "records-pick":
            self.draw_detail(int(event.target.value))

