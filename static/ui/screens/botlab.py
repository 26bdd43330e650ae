# The Bot lab (docs/bot-api.md): write a player in Python, run it for 100 to 10,000
# games in a worker of its own (static/js/bot-lab.mjs: the editor, the worker, Stop, the
# time limit), and draw what it did: the mean ± 2 SE beside the optimal player's and
# the heuristic level's, a histogram of the final scores, each box's average and how
# often it was scratched; each chart also as a table. The player's bots are kept in this
# browser (localStorage, through static/js/storage.mjs): saved, renamed, deleted,
# exported as .py and imported. A bot runs in a sandbox (an opaque origin), and the
# results are the game's engine's, which plays each of the bot's games again from its
# moves (generala/modes/bots.py): the page only draws them. Its looks: static/css/botlab.css.
import json

import js

from words import words
from players.botseat import load_bots, save_bots
from screens.chart import node as svg
from web.dom import byid, clear, el, on
from web.screen_switch import section, spawn

CSS = "./static/css/botlab.css"
GAMES_MIN, GAMES_MAX, GAMES_STEP = 100, 10000, 100
RUNNING = ("running", "replaying", "counting")
# The kinds of a bot's error (generala/modes/bots.py BotError; "sandbox": its sandbox sent the
# page what the protocol does not, static/js/bot-lab.mjs), each with its heading.
ERRORS = ("exception", "illegal", "timeout", "load", "sandbox")
W = 320


def fixed(x, places=2):
    text = ("%." + str(places) + "f") % x
    text = text if words.lang() == "en" else text.replace(".", ",")
    return "\u2212" + text[1:] if text.startswith("-") else text


def percent(x):
    return fixed(100 * x, 1) + " %"


def table(caption, heads, rows, cls="lab-table"):
    """A table of figures: ``rows`` of cells, the first a row header."""
    t = el("table", cls)
    t.appendChild(el("caption", None, caption))
    head = el("thead")
    tr = el("tr")
    for h in heads:
        tr.appendChild(el("th", None, h, {"scope": "col"}))
    head.appendChild(tr)
    t.appendChild(head)
    body = el("tbody")
    for row in rows:
        tr = el("tr")
        tr.appendChild(el("th", None, row[0], {"scope": "row"}))
        for cell in row[1:]:
            tr.appendChild(el("td", None, cell))
        body.appendChild(tr)
    t.appendChild(body)
    return t


def figure(chart, tab, ident):
    """A chart (hidden from screen readers) with its table (for them; shown on request)."""
    box = el("figure", "lab-figure", None, {"id": ident})
    box.appendChild(chart)
    details = el("details", "lab-numbers")
    details.appendChild(el("summary", None, words.t("lab.numbers")))
    details.appendChild(tab)
    box.appendChild(details)
    return box


def bars(rows, high, cls, label_w=110, unit=None):
    """A horizontal bar chart: ``rows`` of (label, value, error or None, kind)."""
    n = len(rows)
    h = 22 * n + 8
    chart = svg("svg", {"viewBox": "0 0 " + str(W) + " " + str(h), "class": "lab-chart " + cls,
                        "aria-hidden": "true", "focusable": "false"})
    span = W - label_w - 56
    high = high or 1
    for i, (label, value, err, kind) in enumerate(rows):
        y = 6 + 22 * i
        chart.appendChild(svg("text", {"x": label_w - 6, "y": y + 13, "text-anchor": "end",
                                       "class": "tick"}, label))
        width = max(0, span * value / high)
        chart.appendChild(svg("rect", {"x": label_w, "y": y + 2, "width": round(width, 1), "height": 14,
                                       "class": "bar " + kind}))
        if err:
            x1, x2 = label_w + span * (value - err) / high, label_w + span * (value + err) / high
            chart.appendChild(svg("line", {"x1": round(x1, 1), "x2": round(x2, 1), "y1": y + 9, "y2": y + 9,
                                           "class": "err"}))
        chart.appendChild(svg("text", {"x": label_w + width + 4, "y": y + 13, "class": "tick"},
                              unit(value) if unit else fixed(value, 1)))
    return chart


def histogram_chart(hist):
    h = 150
    chart = svg("svg", {"viewBox": "0 0 " + str(W) + " " + str(h), "class": "lab-chart histogram",
                        "aria-hidden": "true", "focusable": "false"})
    if not hist:
        return chart
    top = max(b["count"] for b in hist) or 1
    n = len(hist)
    left, bottom, width = 30, h - 20, W - 40
    step = width / n
    for i, b in enumerate(hist):
        bh = (bottom - 10) * b["count"] / top
        chart.appendChild(svg("rect", {"x": round(left + i * step + 1, 1), "y": round(bottom - bh, 1),
                                       "width": round(max(step - 2, 1), 1), "height": round(bh, 1),
                                       "class": "bar bot"}))
    chart.appendChild(svg("line", {"x1": left, "x2": left + width, "y1": bottom, "y2": bottom, "class": "axis"}))
    chart.appendChild(svg("text", {"x": left, "y": h - 6, "class": "tick"}, words.num(hist[0]["from"])))
    chart.appendChild(svg("text", {"x": left + width, "y": h - 6, "class": "tick", "text-anchor": "end"},
                          words.num(hist[-1]["to"])))
    chart.appendChild(svg("text", {"x": left - 4, "y": 14, "class": "tick", "text-anchor": "end"}, words.num(top)))
    return chart


class BotLab:
    def __init__(self, screens, catalog):
        self.screens = screens
        self.catalog = catalog
        self.lab = js.generala.botlab
        self.drawn_phase = None
        self.editor_ready = False
        self.bots = load_bots()
        self.current = None  # the name of the saved bot in the editor, or None
        if js.document.querySelector('link[href="' + CSS + '"]') is None:
            js.document.head.appendChild(el("link", None, None, {"rel": "stylesheet", "href": CSS}))
        self.root = section("botlab", words.t("lab.screen"))
        self.root.setAttribute("data-state", "idle")
        self.build()
        on(self.root, "click", self.on_click)
        on(self.root, "change", self.on_change)
        on(byid("nav-home"), "click", lambda e: self.screens.hide_mine())
        self.lab.listen(self.changed)

    # --- the screen, built once ---------------------------------------------------

    def build(self):
        r = self.root
        clear(r)
        self.title = el("h2", None, words.t("lab.title"), {"id": "lab-title", "tabindex": "-1"})
        r.appendChild(self.title)
        r.appendChild(el("p", "help", words.t("lab.intro")))
        r.appendChild(el("p", "help", words.t("lab.sandbox"), {"id": "lab-sandbox"}))
        api = el("details", "lab-api", None, {"id": "lab-api"})
        api.appendChild(el("summary", None, words.t("lab.api")))
        api.appendChild(el("pre", "lab-code", API, {"lang": "en", "tabindex": "0"}))
        r.appendChild(api)

        mine = el("div", "lab-row lab-mine")
        mine.appendChild(el("label", None, words.t("lab.saved"), {"for": "lab-saved"}))
        self.saved = el("select", None, None, {"id": "lab-saved"})
        mine.appendChild(self.saved)
        for action, key in (("load", "lab.load"), ("rename", "lab.rename"), ("delete", "lab.delete"),
                            ("export", "lab.export")):
            mine.appendChild(el("button", "btn small", words.t(key),
                                {"type": "button", "data-lab": action, "id": "lab-" + action}))
        self.file = el("input", "sr-only", None, {"type": "file", "accept": ".py,text/x-python,text/plain",
                                                  "id": "lab-file", "tabindex": "-1",
                                                  "aria-label": words.t("lab.import")})
        mine.appendChild(self.file)
        mine.appendChild(el("button", "btn small", words.t("lab.import"),
                            {"type": "button", "data-lab": "import", "id": "lab-import"}))
        r.appendChild(mine)

        ex = el("div", "lab-row")
        ex.appendChild(el("label", None, words.t("lab.examples"), {"for": "lab-example"}))
        self.example = el("select", None, None, {"id": "lab-example"})
        ex.appendChild(self.example)
        ex.appendChild(el("button", "btn small", words.t("lab.use_example"),
                          {"type": "button", "data-lab": "example", "id": "lab-use-example"}))
        r.appendChild(ex)

        name_row = el("div", "lab-row")
        name_row.appendChild(el("label", None, words.t("lab.name"), {"for": "lab-name"}))
        self.name = el("input", None, None, {"id": "lab-name", "type": "text", "maxlength": "40",
                                             "autocomplete": "off", "spellcheck": "false"})
        name_row.appendChild(self.name)
        name_row.appendChild(el("button", "btn small", words.t("lab.save"),
                                {"type": "button", "data-lab": "save", "id": "lab-save"}))
        r.appendChild(name_row)

        self.editor_label = el("p", "lab-editor-label", words.t("lab.editor_help"), {"id": "lab-editor-help"})
        r.appendChild(self.editor_label)
        self.editor = el("div", "lab-editor", None, {"id": "lab-editor"})
        r.appendChild(self.editor)

        run = el("div", "lab-row lab-run")
        run.appendChild(el("label", None, words.t("lab.game"), {"for": "lab-game"}))
        self.game = el("select", None, None, {"id": "lab-game"})
        for name in self.catalog:
            self.game.appendChild(el("option", None, words.title(name, self.catalog[name].get("title")),
                                     {"value": name}))
        run.appendChild(self.game)
        run.appendChild(el("label", None, words.t("lab.games"), {"for": "lab-games"}))
        self.games = el("input", None, None, {"id": "lab-games", "type": "number", "min": GAMES_MIN,
                                              "max": GAMES_MAX, "step": GAMES_STEP, "value": "1000",
                                              "inputmode": "numeric"})
        run.appendChild(self.games)
        self.run_btn = el("button", "btn primary", words.t("lab.run"), {"type": "button", "data-lab": "run",
                                                                      "id": "lab-run"})
        self.stop_btn = el("button", "btn danger", words.t("lab.stop"), {"type": "button", "data-lab": "stop",
                                                                        "id": "lab-stop", "disabled": ""})
        run.appendChild(self.run_btn)
        run.appendChild(self.stop_btn)
        r.appendChild(run)

        self.progress = el("progress", "lab-progress", None, {"id": "lab-progress", "max": "1", "value": "0",
                                                              "aria-label": words.t("lab.progress")})
        r.appendChild(self.progress)
        self.status = el("p", "status", None, {"id": "lab-status", "role": "status"})
        r.appendChild(self.status)
        self.error = el("div", "lab-error", None, {"id": "lab-error", "hidden": ""})
        r.appendChild(self.error)
        self.results = el("div", "lab-results", None, {"id": "lab-results"})
        r.appendChild(self.results)
        self.draw_saved()
        self.draw_examples()

    def relabel(self):
        """After a language change: the screen's words again (the editor keeps its code)."""
        code = str(self.lab.code()) if self.editor_ready else None
        self.root.setAttribute("aria-label", words.t("lab.screen"))
        self.editor_ready = False
        self.build()
        self.drawn_phase = None
        if not self.root.hidden:
            spawn(self.ensure_editor(code))
        self.changed()

    # --- opening --------------------------------------------------------------------

    def open_now(self):
        spawn(self.open())

    async def open(self):
        self.screens.show("botlab")
        byid("nav-home").hidden = False
        self.lab.warm()
        self.title.focus()
        await self.ensure_editor()
        self.changed()

    async def ensure_editor(self, code=None):
        if self.editor_ready:
            return
        text = code if code is not None else self.starting_code()
        await self.lab.editor(self.editor, text, words.t("lab.editor"))
        self.editor_ready = True
        self.root.setAttribute("data-editor", "ready")

    def starting_code(self):
        examples = self.examples()
        return examples.get("chase") or "def play(turn):\n    return turn.best()\n"

    def examples(self):
        text = str(self.lab.state.examples or "")
        return json.loads(text) if text else {}

    # --- the saved bots -----------------------------------------------------------

    def draw_saved(self):
        clear(self.saved)
        if not self.bots:
            self.saved.appendChild(el("option", None, words.t("lab.none_saved"), {"value": ""}))
        for b in self.bots:
            self.saved.appendChild(el("option", None, b["name"], {"value": b["name"]}))
        if self.current:
            self.saved.value = self.current
        for action in ("load", "rename", "delete", "export"):
            node = byid("lab-" + action)
            if node is not None:
                node.disabled = not self.bots

    def draw_examples(self):
        clear(self.example)
        names = list(self.examples()) or ["lazy", "chase", "planner"]
        for n in names:
            self.example.appendChild(el("option", None, words.t("lab.example." + n), {"value": n}))

    def find(self, name):
        for b in self.bots:
            if b["name"] == name:
                return b
        return None

    def chosen(self):
        return self.find(str(self.saved.value))

    def note(self, text):
        self.status.textContent = text

    def save(self):
        name = str(self.name.value).strip()[:40]
        if not name:
            self.note(words.t("lab.name_needed"))
            self.name.focus()
            return
        code = str(self.lab.code())
        found = self.find(name)
        if found:
            found["code"] = code
        else:
            self.bots.append({"name": name, "code": code})
        save_bots(self.bots)
        self.current = name
        self.draw_saved()
        self.note(words.t("lab.saved_as", name=name))

    def load(self):
        b = self.chosen()
        if b is None:
            return
        self.lab.setCode(b["code"])
        self.name.value = b["name"]
        self.current = b["name"]
        self.note(words.t("lab.loaded", name=b["name"]))

    def rename(self):
        b = self.chosen()
        new = str(self.name.value).strip()[:40]
        if b is None:
            return
        if not new or new == b["name"] or self.find(new):
            self.note(words.t("lab.rename_help"))
            self.name.focus()
            return
        old = b["name"]
        b["name"] = new
        save_bots(self.bots)
        self.current = new
        self.draw_saved()
        self.note(words.t("lab.renamed", old=old, name=new))

    def delete(self):
        b = self.chosen()
        if b is None:
            return
        self.bots = [x for x in self.bots if x is not b]
        save_bots(self.bots)
        self.current = None
        self.draw_saved()
        self.note(words.t("lab.deleted", name=b["name"]))

    def export(self):
        b = self.chosen()
        if b is None:
            return
        self.lab.download(file_name(b["name"]), b["code"])

    async def import_file(self):
        files = self.file.files
        if not files or files.length == 0:
            return
        f = files.item(0)
        text = await self.lab.readText(f, 200000)
        self.file.value = ""
        if text is None:
            self.note(words.t("lab.import_failed"))
            return
        name = str(f.name)
        if name.endswith(".py"):
            name = name[:-3]
        name = name[:40] or "bot"
        base, k = name, 2
        while self.find(name):
            name = base + " " + str(k)
            k += 1
        self.bots.append({"name": name, "code": str(text)})
        save_bots(self.bots)
        self.current = name
        self.draw_saved()
        self.lab.setCode(str(text))
        self.name.value = name
        self.note(words.t("lab.imported", name=name))

    # --- events -------------------------------------------------------------------

    def on_click(self, event):
        node = event.target.closest("[data-lab]")
        if node is None:
            return
        action = str(node.getAttribute("data-lab"))
        if action == "run":
            self.run()
        elif action == "stop":
            self.lab.stop()
        elif action == "example":
            code = self.examples().get(str(self.example.value))
            if code:
                self.lab.setCode(code)
                self.current = None
                self.note(words.t("lab.example_loaded", name=words.t("lab.example." + str(self.example.value))))
        elif action == "save":
            self.save()
        elif action == "load":
            self.load()
        elif action == "rename":
            self.rename()
        elif action == "delete":
            self.delete()
        elif action == "export":
            self.export()
        elif action == "import":
            self.file.click()

    def on_change(self, event):
        if event.target == self.file:
            spawn(self.import_file())

    def run(self):
        try:
            n = int(float(str(self.games.value)))
        except ValueError:
            n = 1000
        n = min(GAMES_MAX, max(GAMES_MIN, n))
        self.games.value = str(n)
        self.lab.run(str(self.game.value), n, 0)

    # --- drawing the run ------------------------------------------------------------

    def changed(self):
        s = self.lab.state
        phase = str(s.phase)
        running = phase in RUNNING
        self.root.setAttribute("data-state", phase)
        self.run_btn.disabled = running
        self.stop_btn.disabled = not (running or phase == "booting")
        games = int(s.games or 0)
        done = int(s.done or 0)
        self.progress.max = str(max(games, 1))
        self.progress.value = str(done)
        if not self.example.options.length or (self.example.options.length and s.ready
                                                and not self.root.hasAttribute("data-examples")):
            if s.ready:
                self.root.setAttribute("data-examples", "1")
                self.draw_examples()
        if phase == "running":
            self.status.textContent = words.t("lab.running", done=words.num(done), games=words.num(games))
        elif phase == "replaying":
            self.status.textContent = words.t("lab.replaying")
        elif phase == "counting":
            self.status.textContent = words.t("lab.counting", games=words.num(games))
        elif phase == "booting":
            self.status.textContent = words.t("lab.booting")
        elif phase == "stopped":
            self.status.textContent = words.t("lab.stopped", done=words.num(done), games=words.num(games))
        elif phase == "failed" and str(s.failure) == "count":
            self.status.textContent = words.t("lab.count_failed")
        elif phase == "failed":
            self.status.textContent = words.t("lab.failed") + " " + str(s.message)
        if phase == self.drawn_phase:
            return
        self.drawn_phase = phase
        if running:
            self.error.hidden = True
            clear(self.results)
        elif phase == "done":
            results = json.loads(str(s.results))
            self.status.textContent = words.t("lab.done", games=words.num(results["games"]))
            self.draw_results(results)
        elif phase == "error":
            self.status.textContent = words.t("lab.stopped_by_error")
            self.draw_error(json.loads(str(s.error)))

    def draw_error(self, err):
        box = self.error
        clear(box)
        kind = err.get("kind")
        box.appendChild(el("h3", None, words.t("lab.error." + (kind if kind in ERRORS else "exception"))))
        box.appendChild(el("p", "lab-error-message", err.get("message", ""), {"lang": "en"}))
        if err.get("trace"):
            box.appendChild(el("pre", "lab-code lab-trace", err["trace"], {"lang": "en", "tabindex": "0",
                                                                          "id": "lab-trace"}))
        pos = err.get("position")
        if pos:
            box.appendChild(el("h4", None, words.t("lab.position")))
            dl = el("dl", "lab-position", None, {"id": "lab-position"})
            for key in ("game", "seed", "turn", "roll", "dice", "returned"):
                if pos.get(key) is None:
                    continue
                value = pos[key]
                if key == "dice":
                    value = " ".join(str(d) for d in value)
                dl.appendChild(el("dt", None, words.t("lab.pos." + key)))
                dl.appendChild(el("dd", None, value))
            box.appendChild(dl)
            sheet = pos.get("sheet") or {}
            rows = [[words.box(b), "" if v is None else words.num(v)] for b, v in sheet.items()]
            if rows:
                box.appendChild(table(words.t("lab.pos.sheet"), [words.t("lab.box"), words.t("lab.points")], rows))
        box.hidden = False

    def draw_results(self, res):
        out = self.results
        clear(out)
        two_se = 2 * res["se"]
        head = el("p", "lab-mean", words.t("lab.mean", mean=fixed(res["mean"]), err=fixed(two_se),
                                          games=words.num(res["games"])), {"id": "lab-mean",
                                                                           "data-mean": res["mean"],
                                                                           "data-se": res["se"]})
        out.appendChild(head)
        ref = res.get("reference") or {}
        rows = [(words.t("lab.your_bot"), res["mean"], two_se, "bot")]
        if "heuristic" in ref:
            rows.append((words.t("lab.heuristic"), ref["heuristic"], None, "ref"))
        if "optimal" in ref:
            rows.append((words.t("lab.optimal"), ref["optimal"], None, "ref"))
        high = max([r[1] + (r[2] or 0) for r in rows] + [1])
        chart = bars(rows, high, "means")
        tab = table(words.t("lab.means_caption"), [words.t("lab.player"), words.t("lab.mean_col"),
                                                   words.t("lab.err_col")],
                    [[r[0], fixed(r[1]), fixed(r[2]) if r[2] else ""] for r in rows])
        out.appendChild(el("h3", None, words.t("lab.means_title")))
        out.appendChild(figure(chart, tab, "lab-means"))

        out.appendChild(el("h3", None, words.t("lab.histogram_title")))
        hist = res["histogram"]
        tab = table(words.t("lab.histogram_caption"), [words.t("lab.scores"), words.t("lab.count")],
                    [[words.num(b["from"]) + "–" + words.num(b["to"] - 1), words.num(b["count"])] for b in hist])
        out.appendChild(figure(histogram_chart(hist), tab, "lab-histogram"))

        out.appendChild(el("h3", None, words.t("lab.boxes_title")))
        boxes = res["boxes"]
        high = max([b["mean"] for b in boxes] + [1])
        chart = bars([(words.box(b["box"]), b["mean"], None, "bot") for b in boxes], high, "boxes")
        scratch = bars([(words.box(b["box"]), b["scratched"], None, "scratch") for b in boxes], 1, "scratches",
                       unit=percent)
        tab = table(words.t("lab.boxes_caption"), [words.t("lab.box"), words.t("lab.average"),
                                                   words.t("lab.scratched")],
                    [[words.box(b["box"]), fixed(b["mean"]), percent(b["scratched"])] for b in boxes])
        fig = figure(chart, tab, "lab-boxes")
        fig.insertBefore(scratch, fig.lastChild)
        out.appendChild(fig)
        speed = res.get("games_per_second")
        if speed:
            out.appendChild(el("p", "help", words.t("lab.speed", n=fixed(speed, 0), s=fixed(res["seconds"], 1))))


def file_name(name):
    keep = "".join(c if c.isalpha() or c.isdigit() or c in "-_" else "_" for c in name)
    return (keep or "bot") + ".py"


API = """def play(turn):          # or: class Bot: def play(self, turn)
    ...
    return [6, 6]          # keep these dice (faces), roll the others
    return "fours"         # fill a box
    return ("fours", "sixes")              # ten dice: two boxes, best split
    return ("fours", "sixes", [4, 4, 4, 1, 2])   # ten dice: these five to "fours"

turn.game          argentine | bulgarian | puerto-rican | double
turn.dice          the dice, e.g. (6, 6, 2, 5, 6)
turn.roll          1..3;  turn.rolls_left: 2..0
turn.sheet         {"ones": 3, "twos": None, ...}   (None: open)
turn.open_boxes    ["twos", ...]
turn.scores        what each open box would score now
turn.others        the other sides' sheets (empty in the lab)
turn.turn, turn.turns, turn.boxes_per_turn, turn.total
turn.best()        the move that fills the box worth most now

An exception, an illegal move or a move over 1 second stops the run.
Full description: docs/bot-api.md"""
