# The board: built once per game from the first view, then updated in place.
# Everything drawn comes from the engine's view model (plus the page's own
# transient choices for the ten-dice split); nothing is read back from the DOM.
import json

import js
from pyscript.ffi import create_proxy

from board import result
from words import words
from board.board_parts import Parts
from web.dom import Cache, clear, el
from board.cues import ended, held_moved, moments, rolled

PIPS = "123456789"
SUM_ORDER = ["numbers", "mandatory", "penalty", "combinations", "total"]  # a 3 x 3 grid; CSS shows the pips of each face


def make_die(cls, attrs=None):
    die = el("button" if cls == "die" else "span", cls, None, attrs)
    for p in PIPS:
        die.appendChild(el("span", "pip p" + p))
    return die


def mini_dice(dice):
    box = el("span", "mini-dice")
    for d in dice:
        die = make_die("mini-die", {"data-face": d})
        box.appendChild(die)
    return box


class Board:
    """The board (#board): drawn from the engine's view, then its registered parts
    (board_parts.py: score-sheet mode, the share panel, computer players, coach)."""

    def __init__(self, root):
        self.root = root
        self.parts = Parts()  # a feature registers its part once, at start
        self.renders = 0  # data-rendered: tests and benchmarks wait on it
        self.key = None  # (variant, sides, dice count): rebuild when it changes
        self.c = Cache()
        self.prev = None  # the last view drawn on this board (None right after a build)
        self.handover_proxies = None  # the hand-over card's click and close (build_handover)

    def busy(self, on):
        """The engine's answers are awaited (engine_client's busy hook): the board is
        aria-busy until the last one comes (tests wait for it to clear)."""
        if on:
            self.root.setAttribute("aria-busy", "true")
        else:
            self.root.removeAttribute("aria-busy")

    # --- build once per game ---------------------------------------------

    def build(self, view):
        for _ in self.building(view):
            pass

    def building(self, view):
        """Build the board's nodes for ``view``'s shape, a part at a time: the generator
        yields between the parts (the head, the table, the sheet's head, every few rows,
        its foot), so that a caller may spread the work over several browser tasks
        (first_game.py's rehearsal); build() does it all at once."""
        self.c = Cache()
        R = self.c.reg
        root = self.root
        clear(root)
        self.root_i = R(root)
        self.key = self.shape(view)
        n = view["dice_count"]
        sides = view["sides"]

        # The board's top bar: the menu, the game and its turn, whose turn it is.
        head = el("div", "board-head")
        self.menu_btn = el("button", "btn menu-btn", None,
                           {"type": "button", "id": "board-menu-btn", "data-menu": "board-menu",
                            "aria-expanded": "false", "aria-controls": "board-menu"})
        self.menu_btn.appendChild(el("span", "menu-icon", None, {"aria-hidden": "true"}))
        self.menu_btn.appendChild(el("span", "menu-word", words.t("board.menu")))
        head.appendChild(self.menu_btn)
        self.title = el("h2", "board-title", words.title(view["variant"], view["title"]), {"id": "board-title"})
        self.turn = el("p", "turn", "", {"id": "turn-line"})
        self.who = el("p", "who", "", {"id": "who"})
        head.appendChild(self.title)
        head.appendChild(self.turn)
        head.appendChild(self.who)
        self.menu = self.build_menu()  # a part may add its own item (coach_panel.py: its switch)
        head.appendChild(self.menu)
        root.appendChild(head)
        self.i_turn, self.i_who = R(self.turn), R(self.who)

        self.banner = el("div", "banner", None, {"id": "banner", "hidden": ""})
        root.appendChild(self.banner)
        self.i_banner = R(self.banner)
        yield

        # The table's column: the dice, Roll, the bar of the computer and the coach (bar.py
        # puts it after the tray), the ten dice's split.
        table_side = el("div", "table-side")
        root.appendChild(table_side)
        tray = self.tray = el("div", "tray")  # the parts' anchors: tray, actions, menu, wrap, over
        # The table: the dice on the felt, held dice on the kept row below it.
        felt = el("div", "dice-table")
        self.dice_box = el("div", "dice dice-" + str(n), None,
                           {"role": "group", "aria-label": words.t("board.dice")})
        self.dice = []
        for i in range(n):
            die = el("button", "die", None, {"data-die": i, "aria-pressed": "false", "type": "button"})
            # The key is drawn by CSS (attr(data-key)): not text, so the die's name is its label alone.
            key = el("span", "die-key", None, {"aria-hidden": "true", "data-key": str((i + 1) % 10)})
            die.appendChild(key)
            self.dice.append(R(die))
            self.dice_box.appendChild(die)
        # The dice's labels say "held": the row's name is for the eyes only.
        self.dice_box.appendChild(el("div", "kept", words.t("table.kept"), {"aria-hidden": "true"}))
        felt.appendChild(self.dice_box)
        # Before the first roll, the empty table says who starts (the roll-off is in the menu).
        self.starts = el("p", "starts", None, {"id": "starts", "hidden": ""})
        felt.appendChild(self.starts)
        tray.appendChild(felt)
        js.generala.dice.dress(self.dice_box)  # the cubes inside the buttons (static/js/dice-motion.mjs)
        actions = self.actions = el("div", "actions")  # a part may add a button (coach_panel.py: Hint)
        self.roll = el("button", "btn primary roll", None, {"id": "roll", "type": "button",
                                                             "aria-keyshortcuts": "R"})
        # Its label in two parts, the rolls left smaller and kept whole ("Roll (2 left)":
        # on a phone the count goes under the verb, never cut inside); one text to read.
        self.roll_verb = el("span", "roll-verb", words.t("board.roll"))
        self.roll_left = el("span", "roll-left")
        self.roll.appendChild(self.roll_verb)
        self.roll.appendChild(js.document.createTextNode(" "))
        self.roll.appendChild(self.roll_left)
        self.undo = el("button", "btn undo", words.t("board.undo"), {"id": "undo", "type": "button", "aria-keyshortcuts": "U"})
        actions.appendChild(self.undo)
        actions.appendChild(self.roll)
        tray.appendChild(actions)
        # A house rule may make a served five alike a choice: the win is taken with this
        # button, or a box is chosen to play on (the view's can_take_win). Its own row under
        # the actions, shown only then.
        self.win_row = el("div", "win-row", None, {"hidden": ""})
        self.take_win = el("button", "btn primary take-win", words.t("board.take_win"),
                           {"id": "take-win", "type": "button", "aria-describedby": "hint"})
        self.win_row.appendChild(self.take_win)
        tray.appendChild(self.win_row)
        self.hint = el("p", "hint", "", {"id": "hint"})
        tray.appendChild(self.hint)
        self.i_roll, self.i_undo, self.i_hint = R(self.roll), R(self.undo), R(self.hint)
        self.i_roll_verb, self.i_roll_left = R(self.roll_verb), R(self.roll_left)
        self.i_win_row = R(self.win_row)
        self.i_dice_box = R(self.dice_box)
        table_side.appendChild(tray)

        self.split = el("div", "split", None, {"id": "split", "hidden": ""})
        table_side.appendChild(self.split)
        yield

        # Whole names may make the sheet wider than a phone: its wrap scrolls sideways, and
        # takes the keyboard's focus to be scrolled with the arrow keys.
        wrap = self.wrap = el("div", "sheet-wrap", None,
                              {"tabindex": "0", "role": "group", "aria-label": words.t("board.sheet")})
        # sides-N: the names share the sheet's width (CSS); more than fit scroll inside the wrap
        # rows-N: the lines of the sheet (header, boxes, sums): on a phone they share the height
        # left by the dice (board-layout.css)
        lines = 1 + len(view["rows"]) + len(sides[0]["subtotals"])
        table = el("table", "sheet sides-" + str(len(sides)) + " rows-" + str(lines), None,
                   {"id": "sheet"})
        table.appendChild(el("caption", "sr-only", words.t("board.sheet")))
        colgroup = el("colgroup")
        colgroup.appendChild(el("col", "col-box"))
        self.cols = []
        for i in range(len(sides)):
            col = el("col", "col-side")
            self.cols.append(R(col))
            colgroup.appendChild(col)
        table.appendChild(colgroup)
        thead = el("thead")
        tr = el("tr")
        box_h = el("th", "box-h", words.t("board.box"), {"scope": "col"})
        if any(row["mandatory"] for row in view["rows"]):
            # where the legend under the sheet has no room (a phone), its * opens the Rules,
            # which begin with it
            box_h.appendChild(el("button", "legend-btn", "*", {"type": "button", "id": "sheet-legend-btn",
                                                              "data-action": "rules",
                                                              "aria-label": words.t("sheet.legend_btn")}))
        tr.appendChild(box_h)
        self.heads = []
        for i, side in enumerate(sides):
            full = side["name"] + (" (" + ", ".join(side["members"]) + ")" if len(side["members"]) > 1 else "")
            # The whole name, wrapped at spaces by CSS (sheet.css), never cut; also in the
            # title (hover).
            th = el("th", "side-h", None, {"scope": "col", "data-side": i, "title": full})
            th.appendChild(el("span", "side-title", side["name"]))
            if len(side["members"]) > 1:
                th.appendChild(el("span", "members", ", ".join(side["members"])))
            self.heads.append(R(th))
            tr.appendChild(th)
        thead.appendChild(tr)
        table.appendChild(thead)
        yield
        tbody = el("tbody")
        self.cells = []  # per row: list of (td, button, span)
        for row in view["rows"]:
            tr = el("tr", "mandatory" if row["mandatory"] else None, None, {"data-row": row["box"]})
            th = el("th", "box-name", words.box(row["box"]), {"scope": "row"})
            what = "boxwhat." + view["variant"] + "." + row["box"]  # a name games use for different hands
            if words.known(what):
                th.appendChild(el("span", "box-what", words.t(what)))
            tr.appendChild(th)
            line = []
            for i in range(len(sides)):
                td = el("td", None, None, {"data-side": i})
                btn = el("button", "box", "", {"type": "button", "data-box": row["box"],
                                               "data-side": i, "hidden": ""})
                span = el("span", "val")
                td.appendChild(btn)
                td.appendChild(span)
                tr.appendChild(td)
                line.append((R(td), R(btn), R(span)))
            self.cells.append(line)
            tbody.appendChild(tr)
            if len(self.cells) % 4 == 0:
                yield
        table.appendChild(tbody)
        yield
        tfoot = el("tfoot")
        self.sums = {}
        present = sides[0]["subtotals"]
        for key in [k for k in SUM_ORDER if k in present] + [k for k in present if k not in SUM_ORDER]:
            tr = el("tr", "sum sum-" + key, None, {"data-sum": key})
            tr.appendChild(el("th", None, words.SUBTOTALS.get(key, key), {"scope": "row"}))
            tds = []
            for i in range(len(sides)):
                td = el("td", None, "", {"data-side": i})
                tds.append(R(td))
                tr.appendChild(td)
            self.sums[key] = (tr, tds)
            tfoot.appendChild(tr)
        self.place_row = el("tr", "sum place", None, {"hidden": ""})
        self.place_row.appendChild(el("th", None, words.t("board.place"), {"scope": "row"}))
        self.places = []
        for i in range(len(sides)):
            td = el("td", None, "", {"data-side": i})
            self.places.append(R(td))
            self.place_row.appendChild(td)
        tfoot.appendChild(self.place_row)
        self.i_place_row = R(self.place_row)
        table.appendChild(tfoot)
        wrap.appendChild(table)
        if any(row["mandatory"] for row in view["rows"]):  # what the * and the O of those rows mean
            wrap.appendChild(el("p", "sheet-legend", words.t("sheet.par_legend"), {"id": "sheet-legend"}))
        root.appendChild(wrap)

        self.over = el("section", "over", None, {"id": "over", "hidden": "", "aria-labelledby": "over-title"})
        root.appendChild(self.over)
        self.build_handover(root)
        yield

        self.prev = None
        self.draw_rolloff(view)
        # Said on the table before the first roll of the game; gone (once) when play has begun.
        self.rolloff_auto = view.get("moves") == 0 and len(sides) > 1  # the view's: no move made yet
        if self.rolloff_auto:
            self.starts.textContent = starts_words(view)
            self.starts.hidden = False

    def build_handover(self, root):
        """Hot-seat: the turn passes to another person's side, and the board waits behind
        a card until that person takes the device and starts (one tap or Enter: the
        button has the focus). Not for a computer, not alone (cues.py decides when)."""
        dialog = self.handover = el("dialog", "handover", None,
                                    {"id": "handover", "aria-labelledby": "handover-title",
                                     "aria-describedby": "handover-line"})
        self.handover_title = el("h2", None, "", {"id": "handover-title"})
        self.handover_line = el("p", "handover-line", "", {"id": "handover-line"})
        self.handover_ok = el("button", "btn primary", words.t("handover.start"),
                              {"type": "button", "id": "handover-ok"})
        dialog.appendChild(self.handover_title)
        dialog.appendChild(self.handover_line)
        dialog.appendChild(self.handover_ok)
        root.appendChild(dialog)
        if self.handover_proxies is None:  # one pair for every board this page builds
            self.handover_proxies = (create_proxy(lambda e: self.take_over()),
                                     create_proxy(lambda e: self.handed_over()))
        self.handover_ok.addEventListener("click", self.handover_proxies[0])
        dialog.addEventListener("close", self.handover_proxies[1])

    def hand_over(self, name):
        """The card of the hand-over to ``name`` (the person whose turn it is now)."""
        self.handover_title.textContent = words.t("handover.title", player=name)
        self.handover_line.textContent = words.t("handover.line", player=name)
        self.handover_ok.textContent = words.t("handover.start")
        if not self.handover.open:
            self.handover.showModal()
        self.handover_ok.focus()

    def take_over(self):
        """Start my turn: the card closed and the focus on Roll in the same task (the card's
        close event, which Escape sends too, comes a task later)."""
        self.handover.close()
        self.handed_over()

    def handed_over(self):
        """The next person has the device: the focus on Roll, the first thing to do."""
        roll = self.roll
        if roll.isConnected and not roll.disabled and not roll.hidden:
            roll.focus()

    def build_menu(self):
        """The board's one menu (static/js/menu.mjs opens and closes it): sound and motion
        switches that say their state in words, who starts, the rules, the records, the
        games. The switches' state: static/js/sound.mjs and dice-motion.mjs."""
        menu = el("div", "board-menu", None, {"id": "board-menu", "hidden": "",
                                               "aria-label": words.t("board.menu")})
        sound_on = not js.generala.sound.muted
        motion_on = not js.generala.dice.still()
        for ident, action, key, on in (("sound", "sound", "table.sound", sound_on),
                                        ("motion", "motion", "table.motion", motion_on)):
            switch = el("button", "menu-item switch " + ident, None,
                        {"type": "button", "role": "switch", "id": ident, "data-action": action,
                         "aria-checked": "true" if on else "false"})
            switch.appendChild(el("span", "switch-name", words.t(key)))
            # The state in words; the name stays the same (aria-checked says the state).
            switch.appendChild(el("span", "switch-state on", words.t("table.on"), {"aria-hidden": "true"}))
            switch.appendChild(el("span", "switch-state off", words.t("table.off"), {"aria-hidden": "true"}))
            menu.appendChild(switch)
        self.rolloff = el("details", "rolloff menu-item", None, {"id": "rolloff"})
        self.rolloff.appendChild(el("summary", None, words.t("board.who_starts")))
        self.rolloff_body = el("div", "rolloff-body")
        self.rolloff.appendChild(self.rolloff_body)
        menu.appendChild(self.rolloff)
        # the page's language, here too (the site header's picker gives way to the board)
        lang = el("label", "menu-item lang-item", None, {"for": "board-lang"})
        lang.appendChild(el("span", "switch-name", words.t("lang.label")))
        pick = el("select", None, None, {"id": "board-lang"})
        for code, name in words.NAMES.items():
            option = el("option", None, name, {"value": code, "lang": code})
            if code == words.lang():
                option.setAttribute("selected", "")
            pick.appendChild(option)
        lang.appendChild(pick)
        menu.appendChild(lang)
        for action, key in (("rules", "board.rules"), ("records", "records.nav"), ("home", "board.leave")):
            menu.appendChild(el("button", "menu-item", words.t(key),
                                {"type": "button", "data-action": action, "data-menu-close": ""}))
        return menu

    @staticmethod
    def shape(view):
        return (view["variant"], view["dice_count"], tuple(s["name"] for s in view["sides"]),
                tuple(r["box"] for r in view["rows"]))

    def draw_rolloff(self, view):
        body = self.rolloff_body
        clear(body)
        names = [s["name"] for s in view["sides"]]
        for n, rnd in enumerate(view["rolloff"]):
            tied = [names[side] for side, _ in rnd]
            # Every round after the first is a re-roll among the sides that tied.
            head = (words.t("sheet.rolloff_first") if n == 0
                    else words.t("sheet.rolloff_again", n=n, names=words.and_list(tied)))
            hid = "rolloff-h" + str(n)
            body.appendChild(el("p", "ro-head" + (" ro-again" if n else ""), head, {"id": hid}))
            ul = el("ul", "rolloff-round" + (" reroll" if n else ""), None,
                    {"aria-labelledby": hid, "data-round": n})
            for side, dice in rnd:
                li = el("li", "reroll" if n else None)
                if n:
                    li.appendChild(el("span", "ro-tag", words.t("sheet.reroll")))
                li.appendChild(el("span", "ro-name", names[side]))
                li.appendChild(mini_dice(dice))
                li.appendChild(el("span", "ro-total", "(" + str(sum(dice)) + ")"))
                ul.appendChild(li)
            body.appendChild(ul)
        if len(view["rolloff"]) > 1:
            body.appendChild(el("p", "help", words.t("board.rolloff_tied")))
        body.appendChild(el("p", "ro-order", words.t("board.order", names=", ".join(names[i] for i in view["order"]))))

    # --- update on every reply -----------------------------------------

    # --- drawn at the click, before the engine's reply (~10 ms later) -------------
    # The board answers in the same frame as the click; update() then draws the reply
    # over it, and the Cache keeps both consistent.

    def rolling(self, view):
        """Roll pressed: the dice that roll leave the table and Roll counts down; they
        land on the reply's faces (update)."""
        c = self.c
        c.seen.pop("dice", None)  # the reply redraws every die, even if refused
        tossed = []
        for i, die in enumerate(self.dice):
            if not (view["dice"] and view["held"][i]):
                tossed.append(i)
            c.flag(die, "disabled", True)
        self.roll_label(max(0, view["rolls_left"] - 1))
        c.flag(self.i_roll, "disabled", True)
        c.flag(self.i_undo, "disabled", True)
        c.flush()
        js.generala.dice.toss(json.dumps(tossed))
        self.rendered(True)

    def scoring(self, view, box):
        """A box chosen: it shows the points it scores, the other boxes and Roll go quiet."""
        c = self.c
        cur = view["current"]
        for r, row in enumerate(view["rows"]):
            cell = row["cells"][cur]
            if not cell.get("playable"):
                continue
            kt, kb, ks = self.cells[r][cur]
            c.seen.pop(("row", r), None)  # the reply redraws these rows, even if refused
            c.seen.pop(kt, None)
            if row["box"] == box:
                c.flag(kb, "hidden", True)
                c.flag(ks, "hidden", False)
                c.text(ks, cell.get("scored", ""))
                c.attr(kt, "class", "filled current")
            else:
                c.flag(kb, "disabled", True)
        for die in self.dice:
            c.flag(die, "disabled", True)
        c.flag(self.i_roll, "disabled", True)
        c.flag(self.i_undo, "disabled", True)
        c.flush()
        self.rendered(True)

    def roll_label(self, left):
        """Roll's words with the rolls left: the verb, and the rest of the language's
        words ("Roll (2 left)": "Roll", "(2 left)") in the smaller part."""
        text = words.tn("board.roll_left", left)
        cut = text.find(" (")
        verb, rest = (text, "") if cut < 0 else (text[:cut], text[cut + 1:])
        self.c.text(self.i_roll_verb, verb)
        self.c.text(self.i_roll_left, rest)

    def update(self, view, ui, predicted=False):
        """Draw ``view``: the board, then its parts (board_parts.py). ``ui`` holds the page's
        transient choices (picked boxes, split); ``predicted``: a view drawn at a click,
        before the engine's reply."""
        self.parts.run(view, ui, self, self.draw)
        self.rendered(predicted)

    def rendered(self, predicted):
        """Count the board's renders (tests and benchmarks wait on data-rendered);
        data-drawn says whether the last one showed the engine's reply or a prediction."""
        self.renders += 1
        self.root.setAttribute("data-rendered", str(self.renders))
        self.root.setAttribute("data-drawn", "predicted" if predicted else "engine")

    def draw(self, view, ui):
        """The board itself."""
        if self.shape(view) != self.key:
            self.build(view)
        c = self.c
        cur = view["current"]
        over = view["over"]
        ten = view["boxes_per_turn"] == 2
        ready = ui["ready"]
        if self.rolloff_auto and (view.get("moves") or over):
            self.rolloff_auto = False
            self.starts.hidden = True
        # fit: a game in play takes one screen (board-layout.css); the end and a score-sheet
        # game flow as a page
        c.attr(self.root_i, "class", "board fit" if not over and not view["sheet"] else "board")
        c.text(self.i_turn, words.turn_line(view))
        c.text(self.i_who, "" if over else words.whose_turn(view))

        # banner: automatic win / game over
        banner = ""
        if view["auto_win"]:
            w = view["auto_win"]
            what = words.AUTO_WINS.get(w["kind"], w["kind"])
            banner = (words.t("board.you_auto_win", what=what) if words.is_you(view, w["side"])
                      else words.t("board.auto_win", name=view["sides"][w["side"]]["name"], what=what))
        elif over:
            banner = words.t("board.game_over", ranking=words.ranking_sentence(view))
        c.text(self.i_banner, banner)
        c.flag(self.i_banner, "hidden", not banner)

        # dice (skipped when nothing about them changed)
        dice = view["dice"]
        held = view["held"]
        can_hold = view["can_hold"] and ready and not ui["split"]
        dkey = (dice, held, can_hold)
        prev = self.prev
        # What the action just drawn made happen (the view's events), seen and heard once:
        # not for the first view of a board (a game opened), nor a view drawn again.
        happened = prev is not None and view is not prev
        # A roll (pressed here, a computer's, another tab's): the dice it threw land on their faces.
        thrown = rolled(view.get("events")) if happened and dice else None
        fresh = bool(thrown)
        # held dice whose hold changed slide to or from the kept row (the view's hold events)
        moved = held_moved(view.get("events")) if happened and dice and not fresh else []
        for i, die in enumerate(self.dice if self.c.seen.get("dice") != dkey else ()):
            face = str(dice[i]) if dice else "0"
            c.attr(die, "data-face", face)
            h = bool(held[i]) if dice else False
            c.attr(die, "aria-pressed", "true" if h else "false")
            label = (words.t("die.label_held" if h else "die.label", i=i + 1, face=face) if dice
                     else words.t("die.unrolled", i=i + 1))
            c.attr(die, "aria-label", label)
            c.flag(die, "disabled", not can_hold)

        self.c.seen["dice"] = dkey

        # actions
        left = view["rolls_left"]
        self.roll_label(left)
        c.flag(self.i_roll, "disabled", not (view["can_roll"] and ready) or bool(ui["split"]))
        c.flag(self.i_roll, "hidden", over)  # game over: no dice, no Roll
        c.flag(self.i_dice_box, "hidden", over and not view["auto_win"])  # the winning dice stay
        c.flag(self.i_undo, "disabled", not (view["can_undo"] and ready))
        c.flag(self.i_win_row, "hidden", not (view.get("can_take_win") and ready))
        c.text(self.i_hint, self.hint_text(view, ui))

        # sheet
        for i, col in enumerate(self.cols):
            now = i == cur and not over
            c.attr(col, "class", "col-side current" if now else "col-side")
            c.attr(self.heads[i], "class", "side-h current" if now else "side-h")
            c.attr(self.heads[i], "aria-current", "true" if now else None)
        picked = ui["picked"]
        top = best_preview(view) if ready else None
        # five dice: the one best box is the engine's (the view's "best": the coach's when it
        # is on, else the most points; when no box earns anything, the best to give up)
        marked = view.get("best") if ready and not ten else None
        for r, row in enumerate(view["rows"]):
            # (the side to play is in the key: its column's tint moves with the turn)
            rkey = (row, ready, ten and self.ten_key(row["box"], ui), bool(ui["split"]), top, marked,
                    None if over else cur)
            if self.c.seen.get(("row", r)) == rkey:
                continue  # this row looks the same as last time
            self.c.seen[("row", r)] = rkey
            name = words.box(row["box"])
            for i, cell in enumerate(row["cells"]):
                kt, kb, ks = self.cells[r][i]
                now = i == cur and not over  # the playing side's column stays in sight (sticky)
                ckey = (cell, rkey[1:], now)
                if self.c.seen.get(kt) == ckey:
                    continue  # this side's cell is unchanged (another side's changed)
                self.c.seen[kt] = ckey
                playable = bool(cell.get("playable")) and ready
                # a box a house rule refuses these dice in: a button that says why when pressed
                refused = cell.get("refused") if ready and not playable and now else None
                c.flag(kb, "hidden", not (playable or refused))
                c.flag(ks, "hidden", playable or bool(refused))
                c.attr(kt, "class", ("filled" if cell["value"] is not None else
                                     ("open" if playable else "")) + (" current" if now else ""))
                if playable:
                    p = cell.get("preview")
                    why = None
                    if ten:
                        best = p is not None and p == top
                    else:
                        best = marked is not None and marked["box"] == row["box"]
                        why = words.t(WHY[marked["why"]]) if best and marked["why"] in WHY else None
                    cls = ("box" + (" zero" if cell.get("scratch") else "") + (" best" if best else "")
                           + (" minus" if p is not None and p < 0 else ""))
                    text = "" if p is None else words.cell_preview(p, row["mandatory"])
                    extra = ", " + words.t("sheet.best") + (" (" + why + ")" if why else "") if best else ""
                    if ten:
                        # Two boxes are chosen, then the split is proposed; each box shows the
                        # engine's points for it: the best five of the ten dice for this box
                        # alone; once a first box is chosen, this box's points paired with it
                        # (op pairs: the best split of the dice between the two); once the
                        # split is proposed, a chosen box's points in that split (the card's).
                        sel = row["box"] in picked
                        split = ui["split"]
                        pairs = ui.get("pairs")
                        paired = (pairs["with"].get(row["box"]) if pairs and not sel and not split
                                  and picked == [pairs["box"]] else None)
                        zero = cell.get("scratch")
                        label = words.t("box.chosen" if sel else "box.choose", box=name)
                        if sel and split:
                            g = split["boxes"].index(row["box"])
                            p = split["points"][g] if split.get("points") is not None else None
                            zero = bool(split["scratch"] and split["scratch"][g])
                            best = False
                            if p is not None:
                                label += ", " + words.t("split.in_split", points=pts(p))
                        elif paired is not None:
                            p = paired["points"][1]
                            zero = paired["scratch"][1]
                            best = row["box"] == pairs["best"]
                            label += ", " + words.t("sheet.paired", points=pts(p), box=words.box(pairs["box"]),
                                                    first=pts(paired["points"][0]))
                        elif p is not None:
                            best = best and not sel  # a box chosen is no longer a suggestion
                            label += ", " + words.t("sheet.best_five", points=pts(p))
                        shown = "…" if p is None else words.cell_preview(p, row["mandatory"])
                        c.text(kb, ("✓ " if sel else "") + shown)
                        c.attr(kb, "aria-pressed", "true" if sel else "false")
                        extra = ", " + words.t("sheet.best") if best else ""
                        c.attr(kb, "aria-label", label + extra)
                        c.attr(kb, "class", "box" + (" zero" if zero else "") + (" best" if best else ""))
                        c.flag(kb, "disabled", bool(split))
                    else:
                        c.text(kb, text)
                        c.attr(kb, "aria-label", words.t("box.score", box=name, points=pts(p)) + extra)
                        c.attr(kb, "class", cls)
                        c.attr(kb, "data-why", why)  # the word under the star (CSS shows it)
                        c.flag(kb, "disabled", False)  # scoring() may have quieted it
                    c.attr(kb, "data-preview", None if p is None else str(p))
                elif refused:
                    c.text(kb, "⊘")
                    c.attr(kb, "class", "box refused")
                    c.attr(kb, "aria-disabled", "true")
                    c.attr(kb, "aria-label", name + ": " + words.refusal(refused))
                    c.attr(kb, "data-preview", None)
                    c.attr(kb, "data-why", None)
                    c.flag(kb, "disabled", False)
                else:
                    c.text(ks, cell["text"])
                if playable:
                    c.attr(kb, "aria-disabled", None)
        for key, (tr, tds) in self.sums.items():
            for i, td in enumerate(tds):
                v = view["sides"][i]["subtotals"].get(key, 0)
                c.text(td, minus(v))
                c.attr(td, "class", "current" if i == cur and not over else None)
        c.flag(self.i_place_row, "hidden", not over)
        for i, td in enumerate(self.places):
            c.text(td, words.ordinal(view["sides"][i]["place"]))
        c.flush()

        self.prev = view
        if fresh:
            # a computer's roll lands quicker (its turn is paced: players/computer.py)
            quick = computer_acting(view)
            js.generala.dice.land(json.dumps({"dice": thrown, "faces": dice, "quick": quick}))
        elif moved:
            js.generala.dice.moved(json.dumps(moved))
        if happened:
            self.moments(view, ui)

        self.draw_split(view, ui)
        self.draw_over(view)
        if happened and ended(view.get("events")):
            result.ended(self.over)  # Play again focused, the card in sight: the first thing to do now

    def moments(self, view, ui):
        """What just happened on this board is seen and heard, from the view's events
        (cues.py): a box filled (a tick), five alike, an automatic win, the end of the
        game (a celebration) (static/js/sound.mjs, moments.mjs); the device passed to
        the next person in hot-seat: the card that person confirms (build_handover), or
        a note that goes by itself at a table of real dice and in a game by link."""
        for kind, data in moments(view):
            if kind == "tick":
                js.generala.sound.tick()
            elif kind == "celebrate":
                js.generala.moments.celebrate(json.dumps(data))
            elif kind == "hand_over" and (view["sheet"] or ui.get("linked") or self.root.hidden):
                # a table of real dice, a game by link: a note (no card to confirm)
                js.generala.moments.handOver(json.dumps(data))
            elif kind == "hand_over":
                self.hand_over(data["name"])

    def hint_text(self, view, ui):
        if view["over"] or ui.get("failed"):  # a failed engine: its one note says it all
            return ""
        if not ui["ready"]:
            return words.t("hint.engine")
        if ui.get("computer"):  # a computer plays this turn (computer.py)
            return ui["computer"]
        if view["boxes_per_turn"] == 2:
            if ui["split"]:
                return words.t("hint.split")
            if view["dice"] is None:
                return words.t("hint.roll_ten")
            if ui["picked"]:
                return words.t("hint.second_box")
            return words.t("hint.ten")
        if view["dice"] is None:
            return words.t("hint.roll")
        if view.get("can_take_win"):
            return words.t("board.win_offer")
        if view["rolls_left"] == 0:
            return words.t("hint.no_rolls")
        return words.t("hint.play")

    def draw_split(self, view, ui):
        split = ui["split"]
        key = repr(split) + repr(view["dice"])
        if self.c.seen.get("split") == key:
            return
        self.c.seen["split"] = key
        node = self.split
        clear(node)
        if not split or not view["dice"]:
            node.hidden = True
            return
        node.hidden = False
        dice = view["dice"]
        a, b = split["boxes"]
        node.appendChild(el("h3", None, words.t("split.title", a=words.box(a), b=words.box(b))))
        in_a = split["positions"]
        for g, box in enumerate((a, b)):
            group = el("div", "group", None, {"data-group": g, "role": "group",
                                              "aria-label": words.t("split.group", box=words.box(box))})
            pts = split["points"][g] if split.get("points") else None
            label = words.t("split.label", box=words.box(box), points="…" if pts is None else words.points(pts))
            group.appendChild(el("p", "group-label", label))
            row = el("div", "dice")
            for i in range(len(dice)):
                if (i in in_a) == (g == 0):
                    die = make_die("die", {"data-split-die": i, "data-face": dice[i], "type": "button",
                                           "aria-label": words.t("split.die", i=i + 1, face=dice[i],
                                                                 box=words.box(b if g == 0 else a))})
                    row.appendChild(die)
            group.appendChild(row)
            node.appendChild(group)
        need = view["split_sizes"][0]  # the dice each box takes (the engine's split_sizes)
        ok = len(in_a) == need and split.get("points") is not None
        msg = "" if len(in_a) == need else words.tn("split.need", need, a=len(in_a), b=len(dice) - len(in_a))
        if msg:
            node.appendChild(el("p", "field-error", msg))
        buttons = el("div", "actions")
        score = el("button", "btn primary", words.t("split.score", points=words.points(sum(split["points"])) if ok else ""),
                   {"type": "button", "data-action": "split-ok", "id": "split-ok"})
        score.disabled = not ok
        buttons.appendChild(score)
        buttons.appendChild(el("button", "btn", words.t("split.cancel"), {"type": "button", "data-action": "split-cancel"}))
        node.appendChild(buttons)

    @staticmethod
    def ten_key(box, ui):
        """What a ten-dice row's box shows besides the view: chosen or not, its points paired
        with the first box chosen (op pairs), its points in the proposed split."""
        pairs = ui.get("pairs")
        split = ui["split"]
        return (box in ui["picked"],
                pairs and (pairs["box"], pairs["best"] == box, repr(pairs["with"].get(box))),
                split and box in split["boxes"] and repr((split["points"], split["scratch"])))

    def draw_over(self, view):
        """The game-over card (result.py), in the section built for it."""
        result.draw(self.over, view, self.c.seen)


def minus(n):
    """A number as the page writes it: negative ones with the minus sign (U+2212)."""
    return "\u2212" + str(-n) if n < 0 else str(n)


# why the view's best box is the best (its "why"), in a word under the star
WHY = {"points": "sheet.why_points", "game": "sheet.why_game", "give_up": "sheet.why_give_up"}


def computer_acting(view):
    """A computer side acts now (the view's "acting")."""
    acting = view.get("acting")
    return bool(acting and acting.get("computer"))


def pts(n):
    """"{n} points" in the page's language, a negative n with the minus sign."""
    return words.points(n).replace("-", "\u2212")


def best_preview(view):
    """The highest preview among the open boxes of the side to play (None when no box
    shows one, or when every box would earn nothing): those boxes stand out."""
    cur = view["current"]
    values = [r["cells"][cur]["preview"] for r in view["rows"]
              if cur is not None and r["cells"][cur].get("playable") and r["cells"][cur].get("preview") is not None]
    top = max(values) if values else None
    return top if top is not None and top > 0 else None


def sheet_mark(text=None):
    """A score-sheet game (real dice, scores entered by hand) says so wherever it is shown:
    a visible mark ("Score sheet", or ``text``) and, for screen readers, what it means."""
    mark = el("span", "save-kind", None, {"data-kind": "sheet"})
    mark.appendChild(el("span", None, "\u270e ", {"aria-hidden": "true"}))
    mark.appendChild(el("span", None, text or words.t("save.sheet")))
    mark.appendChild(el("span", "sr-only", " (" + words.t("save.sheet_label") + ")"))
    return mark


def starts_words(view):
    """Who starts and why, said on the table before the first move: the roll-off's rule and
    the starting side's roll, from the engine's view (`starts`); a view without it (an older
    save's, an order the table settled) says who starts."""
    starts = view.get("starts")
    first = starts["side"] if starts else view["order"][0]
    you = words.is_you(view, first)  # the person at this device: "You start"
    if not starts:
        return words.t("board.you_start") if you else words.t("board.starts", name=view["sides"][first]["name"])
    if starts["rule"] == "highest-die":
        key = "board.you_start_highest" if you else "board.starts_highest"
    else:
        key = "board.you_start_lowest" if you else "board.starts_lowest"
    text = words.t(key, name=view["sides"][first]["name"], value=starts["value"])
    return text + " " + words.t("board.rolloff_tied") if starts["tied"] else text
