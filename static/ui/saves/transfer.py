# Export and import of saved games, built by features.py with the saved games it lists and
# a way to the games by link (built later: links() is None until then).
#
# Export: every readable saved game (unfinished and finished; saves set aside are
# left out), or one game from its list item, as a JSON file in the format of
# generala/modes/bundle.py: {"format": "generala-export", "version": 1, "exported": ISO time,
# "games": [{"id", "when", "finished", "save"}]}. Composed here from the stored save
# documents (the engine is not needed, so export works even while it boots).
#
# Import: the file is checked by the engine (op import: size, format, schema, every
# history replayed); only then is anything stored. Each game becomes a new save,
# drawn from the view the engine sends with it; a game whose save document is
# already stored is skipped. A write that fails (storage full) undoes the whole
# import. The button works at once: a file chosen while the engine is still booting
# waits for it ("Checking ...") instead of being refused.
#
# No whole file is ever one MicroPython string (its heap failed on a 2 MB one): the
# export is handed to the Blob in parts, one game each, and the import is read,
# checked and parsed in JS (static/js/engine.mjs importFile); the games come over one at a
# time, each game's save and view as JSON texts (a number parsed by JavaScript is rounded
# above 2**53: a 64-bit seed), parsed here.
#
# Safari deletes a site's storage after 7 days of use without a visit to the site
# (home-screen web apps count their own days): the note beside "Export all games"
# says so whenever games are saved.
import json

import js
from pyscript import document
from pyscript.ffi import create_proxy

from words import words
from web.dom import byid, el, on, saved_items
from saves.saves import describe
from engine import engine_client
from web.screen_switch import spawn


FORMAT = "generala-export"
VERSION = 1


def iso(ms):
    """An ISO time from a stored millisecond count (None when it is not one)."""
    if type(ms) is not int or ms <= 0 or ms > 8_000_000_000_000_000:
        return None  # Date#toISOString throws on an invalid date: never reach it
    return str(js.Date.new(float(ms)).toISOString())  # float: a large int would be cut to 32 bits


def today():
    d = js.Date.new()
    return "%04d-%02d-%02d" % (int(d.getFullYear()), int(d.getMonth()) + 1, int(d.getDate()))


def export_parts(entries, links=()):
    """The export document of stored entries, as a JS array of JSON text parts (one per game).
    ``links``: games by link, (id, when in ms, finished, local record) each, marked by their
    ``link`` field (the record, its secret with it: needed to play on)."""
    head = {"format": FORMAT, "version": VERSION, "exported": str(js.Date.new().toISOString())}
    parts = js.Array.new()
    parts.push(json.dumps(head)[:-1] + ', "games": [')
    n = 0
    for e in entries:
        parts.push((", " if n else "") + json.dumps({"id": e.get("id"), "when": iso(e.get("updated")),
                                                     "finished": bool(e.get("over")), "save": e["save"]}))
        n += 1
    for gid, ms, over, local in links:
        parts.push((", " if n else "") + json.dumps({"id": gid, "when": iso(ms), "finished": over, "link": local}))
        n += 1
    parts.push("]}")
    return parts


def download(name, parts):
    """Save the text ``parts`` as the file ``name`` (a Blob behind an <a download>)."""
    blob = js.Blob.new(parts, js.JSON.parse('{"type": "application/json"}'))
    url = js.URL.createObjectURL(blob)
    a = el("a", None, None, {"download": name, "href": url})
    a.hidden = True
    document.body.appendChild(a)
    a.click()
    a.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 60_000)


class Transfer:
    def __init__(self, saves, keeper, limits, links, links_built):
        """``saves``: the storage's saved games (saves.py); ``keeper``: the saved games as
        the page lists them (saved_games.py: draw_saves()); ``links()``: the
        games by link (linkplay.py: exported(), imported()) once built, else None;
        ``links_built()``: awaited for them when a file holds one before they are."""
        self.saves = saves
        self.keeper = keeper
        self.links = links
        self.links_built = links_built
        self.most = limits["file_bytes"]  # the catalog's: a larger file is refused before reading
        self.busy = False
        self.imports = 0
        self.build()
        on(byid("home"), "click", self.on_home_click)

    # --- the section on the home screen -------------------------------------------

    def build(self):
        home = byid("library") or byid("home")  # the saved games' panel of the home screen
        box = self.root = el("section", "saves transfer", None,
                             {"id": "transfer-section", "aria-labelledby": "transfer-title"})
        self.title = el("h2", None, words.t("transfer.title"), {"id": "transfer-title"})
        box.appendChild(self.title)
        self.safari = el("p", "help", words.t("transfer.safari"), {"id": "transfer-safari", "hidden": ""})
        box.appendChild(self.safari)
        row = el("div", "actions")
        self.export_btn = el("button", "btn", words.t("transfer.export_all"),
                             {"type": "button", "id": "export-all", "aria-describedby": "transfer-safari",
                              "hidden": ""})
        row.appendChild(self.export_btn)
        self.import_btn = el("button", "btn", words.t("transfer.import"),
                             {"type": "button", "id": "import-games", "aria-describedby": "import-help"})
        row.appendChild(self.import_btn)
        box.appendChild(row)
        self.help = el("p", "help", words.t("transfer.import_help"), {"id": "import-help"})
        box.appendChild(self.help)
        self.file = el("input", None, None, {"type": "file", "id": "import-file", "hidden": "",
                                             "accept": ".json,application/json",
                                             "aria-label": words.t("transfer.file_label")})
        box.appendChild(self.file)
        self.status = el("p", "transfer-status", "", {"id": "transfer-status", "hidden": ""})
        box.appendChild(self.status)
        home.appendChild(box)
        on(self.export_btn, "click", lambda e: self.export_all())
        on(self.import_btn, "click", lambda e: self.file.click())
        on(self.file, "change", lambda e: spawn(self.import_file()))

    def relabel(self):
        """After a language change (the lists' buttons are redrawn by draw_saves)."""
        self.title.textContent = words.t("transfer.title")
        self.safari.textContent = words.t("transfer.safari")
        self.export_btn.textContent = words.t("transfer.export_all")
        self.import_btn.textContent = words.t("transfer.import")
        self.help.textContent = words.t("transfer.import_help")
        self.file.setAttribute("aria-label", words.t("transfer.file_label"))
        self.show("", None)

    def show(self, text, kind="info"):
        """The outcome, visible in the section and announced through #announce."""
        node = self.status
        node.textContent = text
        node.hidden = not text
        node.className = "transfer-status" + (" msg msg-error" if kind == "error" else "")
        node.setAttribute("data-kind", kind or "")
        if text and kind != "progress":
            byid("announce").textContent = text

    def saves_drawn(self):
        """Export buttons on the list items; the export-all button and Safari's note when games are saved."""
        items = saved_items()
        count = len(items)
        for li, gid in items:
            if li.querySelector("[data-export-save]"):
                continue
            delete = li.querySelector("[data-delete]")
            label = str(delete.getAttribute("data-label")) if delete else str(gid)
            li.insertBefore(el("button", "btn small", words.t("transfer.export"),
                               {"type": "button", "data-export-save": gid,
                                "aria-label": words.t("transfer.export_label", game=label)}), delete)
        links = self.links()
        count += len(links.exported()) if links is not None else 0
        self.export_btn.hidden = count == 0
        self.safari.hidden = count == 0

    # --- export ---------------------------------------------------------------------

    def export_all(self):
        unfinished, finished, _aside = self.saves.listing()
        entries = unfinished + finished
        links = self.links().exported() if self.links() is not None else []
        if not entries and not links:
            return
        name = "generala-games-" + today() + ".json"
        download(name, export_parts(entries, links))
        self.show(words.tn("transfer.exported_all", len(entries) + len(links), file=name))

    def export_one(self, gid):
        entry, reason = self.saves.get(gid)
        if entry is None:
            self.show(words.t("transfer.gone", why=reason), "error")
            return
        name = "generala-game-" + str(entry.get("variant") or "game") + "-" + today() + ".json"
        download(name, export_parts([entry]))
        self.show(words.t("transfer.exported_one", game=describe(entry), file=name))

    def on_home_click(self, event):
        node = event.target.closest("[data-export-save]")
        if node:
            self.export_one(str(node.getAttribute("data-export-save")))

    # --- import ---------------------------------------------------------------------

    def set_busy(self, busy):
        self.busy = busy
        self.import_btn.disabled = busy
        if busy:
            self.import_btn.setAttribute("aria-busy", "true")
        else:
            self.import_btn.removeAttribute("aria-busy")

    async def import_file(self):
        files = self.file.files
        if files is None or files.length == 0 or self.busy:
            return
        f = files.item(0)
        self.file.value = ""  # the same file can be chosen again
        name = str(f.name)
        self.set_busy(True)
        try:
            self.show(words.t("transfer.checking", name=name), "progress")
            await self.check_and_store(f, name)
        finally:
            self.set_busy(False)
            active = document.activeElement
            if active is None or active.isSameNode(document.body):
                self.import_btn.focus()  # disabling the button while busy took the focus away
            self.imports += 1  # each import ends here, whatever came of it (tests wait for it)
            self.root.setAttribute("data-imports", str(self.imports))

    async def check_and_store(self, f, name):
        reply = await engine_client.import_file(f, self.most)  # waits for the engine
        if not reply.ok:
            kind = str(reply.kind)
            if kind == "TooLarge":  # refused before reading
                why = words.t("transfer.too_large", max=self.most // 1_000_000)
            elif kind == engine_client.NO_ANSWER:
                why = words.t("transfer.no_engine")
            elif kind == "ReadError":  # the browser's own words for it: the console only
                js.console.warn("import: the file could not be read: " + str(reply.error))
                why = words.t("transfer.unreadable")
            else:  # the engine names the problem (SaveError), in the player's words
                why = words.refusal(engine_client.refusal_of(reply))
            self.show(words.t("transfer.bad", name=name, why=why), "error")
            return
        games = reply.games
        saves = self.saves
        unfinished, finished, _aside = saves.listing()
        stored = [e["save"] for e in unfinished + finished]
        unfinished = finished = None
        written, already = [], 0
        links = 0
        for i in range(int(games.length)):
            g = games.at(i)
            view_text = g.view if isinstance(g.view, str) else "null"  # one game: a few kB
            if js.Reflect.has(g, "link"):  # a game by link: its device's record (linkplay.py)
                if self.links() is None:
                    await self.links_built()
                added = self.links() is not None and self.links().imported(
                    {"link": json.loads(str(g.link)), "status": json.loads(str(g.status)), "view": json.loads(view_text)})
                links += 1 if added else 0
                already += 0 if added else 1
                continue
            save_text = str(g.save)
            save = json.loads(save_text)
            if save in stored:  # the same game (dicts compare by value)
                already += 1
                continue
            gid = saves.new_id()
            played = int(str(g.whenMs)) if g.whenMs else None  # ms, as text: see engine.mjs importFile
            if not saves.put(gid, json.loads(view_text), '{"view": ' + view_text + ', "save": ' + save_text + "}",
                             updated=played):
                for done in written:
                    saves.delete(done)
                self.keeper.draw_saves()
                self.show(words.t("transfer.full", name=name), "error")
                return
            written.append(gid)
            stored.append(save)
        self.keeper.draw_saves()
        if written or links:
            imported = words.tn("transfer.imported", len(written) + links)
            if already:
                text = words.t("transfer.done_some", imported=imported, already=words.tn("transfer.already", already))
            else:
                text = words.t("transfer.done", imported=imported)
        else:
            text = words.tn("transfer.none_new", already)
        self.show(text)
