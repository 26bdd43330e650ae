# The setup form: the game, its house options, the sides. Built from the
# catalog (catalog.json, written by the build from generala/catalog.py), so it
# works before the engine has booted: its games and options (variants), who may play
# a side (levels, in their order) and the limits (limits: sides, a name's length, the
# largest seed). Reading the form happens once, on Start.
from players import botseat
from words import words
from web.dom import byid, clear, each, el

# The words naming who plays a side, by the catalog's level id (a level without words
# is named by its id).
LEVEL_WORDS = {"beginner": "setup.ai_beginner", "heuristic": "setup.ai_heuristic",
               "optimal": "setup.ai_optimal", "expert": "setup.ai_expert",
               "champion": "setup.ai_champion"}
# A saved bot's option in a side's "who plays" (botseat.py): this before its name.
BOT_VALUE = "bot:"  # a saved bot's option value is this and its name (unique); data-bot holds the name


def clean(text, most):
    """Trim and collapse spaces. Returns (name, too_long): a name has at most ``most``
    characters (the catalog's limits.name)."""
    name = " ".join(str(text).split())
    if len(name) > most:
        return name[:most].strip(), True
    return name, False


def players(catalog):
    """Who may play a side, as the setup form offers it: (value, words key or text), a
    person first, then the catalog's computer levels (each side's ``player`` value)."""
    return [("human", "setup.human")] + [(level["player"], LEVEL_WORDS.get(level["id"], level["id"]))
                                         for level in catalog["levels"]]


class Setup:
    def __init__(self, catalog, variant=None):
        """``catalog``: the engine's catalog (variants, levels, limits)."""
        self.limits = catalog["limits"]
        self.players = players(catalog)
        # the fewest sides each computer level plays in (the catalog's: expert plays to win,
        # only where there is someone to beat)
        self.min_sides = {level["player"]: level["min_sides"] for level in catalog["levels"]}
        self.order = catalog["games"]  # the games, in the order shown
        catalog = self.catalog = catalog["variants"]
        self.form = byid("setup")
        self.games = byid("game-choice")
        self.options = byid("house-options")
        self.sides = byid("sides")
        self.count = 0
        self.variant = variant if variant in catalog else self.order[0]
        self.built = False
        botseat.listen(self.offer_bots)

    def build(self):
        """The form's games, the chosen game's options and two sides: built when first
        needed (its screen opens, or it is read), not with the page (a first tap on the
        one-tap choice does not wait for them)."""
        if self.built:
            return
        self.built = True
        self.build_games(self.variant)
        for _ in range(2):
            self.add_side()

    # --- the game and its options ----------------------------------------

    def build_games(self, chosen):
        fs = self.games
        for node in each(fs.querySelectorAll("label.game")):
            node.remove()
        for name in self.order:
            if name not in self.catalog:
                continue
            info = self.catalog[name]
            label = el("label", "game")
            radio = el("input", None, None, {"type": "radio", "name": "variant", "value": name,
                                             "data-variant": name})
            radio.checked = name == chosen
            label.appendChild(radio)
            text = el("span", "game-text")
            text.appendChild(el("span", "game-title", words.title(name, info["title"])))
            text.appendChild(el("span", "game-summary", words.summary(name, info["summary"])))
            label.appendChild(text)
            fs.appendChild(label)
        self.variant = chosen
        self.build_options()

    def choose(self, name):
        self.build()
        if name in self.catalog and name != self.variant:
            self.variant = name
            self.build_options()

    def build_options(self):
        fs = self.options
        for node in each(fs.querySelectorAll(".option, .help-none")):
            node.remove()
        opts = self.catalog[self.variant]["options"]
        if not opts:
            fs.appendChild(el("p", "help help-none", words.t("setup.no_options")))
        for opt in opts:
            name = opt["name"]
            row = el("div", "option")
            ident = "opt-" + name
            help_id = "help-" + name
            if opt["type"] == "bool":
                box = el("input", None, None, {"type": "checkbox", "id": ident, "data-option": name,
                                               "aria-describedby": help_id})
                box.checked = bool(opt["default"])
                label = el("label", "check")
                label.appendChild(box)
                label.appendChild(el("span", None, words.option(name)))
                row.appendChild(label)
            elif opt["type"] == "choice":
                row.appendChild(el("label", None, words.option(name), {"for": ident}))
                sel = el("select", None, None, {"id": ident, "data-option": name, "aria-describedby": help_id})
                for v in opt["values"]:
                    o = el("option", None, words.option_value(v), {"value": str(v)})
                    o.selected = v == opt["default"]
                    sel.appendChild(o)
                row.appendChild(sel)
            else:
                row.appendChild(el("label", None, words.option(name), {"for": ident}))
                row.appendChild(el("input", None, None, {"id": ident, "data-option": name, "type": "number",
                                                         "min": "0", "step": "any", "inputmode": "decimal",
                                                         "value": str(opt["default"]),
                                                         "aria-describedby": help_id}))
            row.appendChild(el("p", "help", words.option_help(name, opt["help"]), {"id": help_id}))
            fs.appendChild(row)

    # --- sides -------------------------------------------------------------

    def add_side(self, name="", members=None):
        self.build()
        n = self.sides.children.length
        if n >= self.limits["sides"]:
            return None
        self.count += 1
        k = str(self.count)
        li = el("li", "side", None, {"data-side-row": k})
        nid = "side-name-" + k
        li.appendChild(el("label", "side-label", words.t("setup.name"), {"for": nid}))
        inp = el("input", "side-name", None, {"id": nid, "autocomplete": "off", "data-name": k,
                                              "placeholder": words.t("setup.player", n=n + 1),
                                              "aria-describedby": "side-msg-" + k})
        inp.value = name
        li.appendChild(inp)
        team = el("label", "check team-toggle")
        tbox = el("input", None, None, {"type": "checkbox", "data-team": k})
        team.appendChild(tbox)
        team.appendChild(el("span", "team-text", words.t("setup.team")))
        li.appendChild(team)
        if len(self.players) > 1:
            sel = el("select", "player", None, {"data-player": k, "aria-label": words.t("setup.who")})
            for value, text in self.players:
                sel.appendChild(el("option", None, words.t(text) if text.startswith("setup.") else text,
                                    {"value": value}))
            self.offer_bots_in(sel)
            li.appendChild(sel)
        rm = el("button", "btn small remove", words.t("setup.remove"), {"type": "button", "data-remove": k,
                                                                        "aria-label": words.t("setup.remove_label", n=n + 1)})
        li.appendChild(rm)
        mid = "side-members-" + k
        members_row = el("div", "members-row", None, {"hidden": ""})
        members_row.appendChild(el("label", "members-label", words.t("setup.members"), {"for": mid}))
        minp = el("input", "side-members", None, {"id": mid, "autocomplete": "off", "data-members": k})
        members_row.appendChild(minp)
        li.appendChild(members_row)
        if members:
            tbox.checked = True
            members_row.hidden = False
            minp.value = ", ".join(members)
        li.appendChild(el("p", "field-error", None, {"id": "side-msg-" + k, "hidden": "", "aria-live": "polite"}))
        self.sides.appendChild(li)
        self.refresh_buttons()
        return inp

    def offer_bots_in(self, sel):
        """The saved bots as who may play a side, after the computer levels (the choice kept
        while that bot is still saved)."""
        chosen = str(sel.value)
        for o in each(sel.querySelectorAll("option[data-bot]")):
            o.remove()
        for b in botseat.load_bots():
            sel.appendChild(el("option", None, words.t("setup.bot", name=b["name"]),
                               {"value": BOT_VALUE + b["name"], "data-bot": b["name"]}))
        sel.value = chosen
        if str(sel.value) != chosen:
            sel.value = "human"

    def offer_bots(self):
        """The saved bots changed (the Bot lab): offered again in every side."""
        for sel in each(self.sides.querySelectorAll(".player")):
            self.offer_bots_in(sel)

    def seat_people(self, n):
        """``n`` seats, each a person (the hot-seat form starts from these)."""
        self.build()
        clear(self.sides)
        for _ in range(n):
            self.add_side()

    def remove_side(self, k):
        self.build()
        node = self.sides.querySelector('[data-side-row="' + k + '"]')
        if node and self.sides.children.length > 1:
            node.remove()
            self.refresh_buttons()
            byid("add-side").focus()  # the focused button went away: keep the keyboard in the form

    def toggle_team(self, k, on):
        self.build()
        row = self.sides.querySelector('[data-side-row="' + k + '"] .members-row')
        if row:
            row.hidden = not on

    def refresh_buttons(self):
        n = self.sides.children.length
        for i, li in enumerate(each(self.sides.children)):
            li.querySelector(".remove").disabled = n <= 1
            li.querySelector(".side-name").setAttribute("placeholder", words.t("setup.player", n=i + 1))
            li.querySelector(".remove").setAttribute("aria-label", words.t("setup.remove_label", n=i + 1))
        byid("add-side").disabled = n >= self.limits["sides"]
        for player, least in self.min_sides.items():
            for o in each(self.sides.querySelectorAll('option[value="' + player + '"]')):
                o.hidden = n < least

    def relabel(self):
        """After a language change: the form's words again, what was entered kept."""
        if not self.built:  # built later, in the words of its time
            return
        for label in each(self.games.querySelectorAll("label.game")):
            name = str(label.querySelector("input").value)
            info = self.catalog.get(name) or {}
            label.querySelector(".game-title").textContent = words.title(name, info.get("title"))
            label.querySelector(".game-summary").textContent = words.summary(name, info.get("summary", ""))
        none = self.options.querySelector(".help-none")
        if none:
            none.textContent = words.t("setup.no_options")
        for opt in self.catalog[self.variant]["options"]:
            name = opt["name"]
            node = self.options.querySelector('[data-option="' + name + '"]')
            if node is None:
                continue
            row = node.closest(".option")
            lab = row.querySelector("label.check span") if opt["type"] == "bool" else row.querySelector("label")
            if lab:
                lab.textContent = words.option(name)
            helpnode = row.querySelector(".help")
            if helpnode:
                helpnode.textContent = words.option_help(name, opt["help"])
            if opt["type"] == "choice":
                for o in each(node.querySelectorAll("option")):
                    for v in opt["values"]:
                        if str(v) == str(o.value):
                            o.textContent = words.option_value(v)
        for li in each(self.sides.children):
            for sel, key in ((".side-label", "setup.name"), (".team-text", "setup.team"),
                             (".remove", "setup.remove"), (".members-label", "setup.members")):
                node = li.querySelector(sel)
                if node:
                    node.textContent = words.t(key)
            sel = li.querySelector(".player")
            if sel:
                sel.setAttribute("aria-label", words.t("setup.who"))
                for o in each(sel.querySelectorAll("option")):
                    for value, text in self.players:
                        if value == str(o.value) and text.startswith("setup."):
                            o.textContent = words.t(text)
                self.offer_bots_in(sel)
        self.refresh_buttons()

    def check_name(self, k):
        """Live check while typing: a visible message when a name is too long."""
        self.build()
        li = self.sides.querySelector('[data-side-row="' + k + '"]')
        if not li:
            return
        msg = li.querySelector(".field-error")
        most = self.limits["name"]
        long_ = clean(li.querySelector(".side-name").value, most)[1]
        for part in str(li.querySelector(".side-members").value).split(","):
            long_ = long_ or clean(part, most)[1]
        msg.textContent = words.t("setup.too_long", max=most) if long_ else ""
        msg.hidden = not long_

    # --- reading the form --------------------------------------------------

    def read(self):
        """The `new` request's variant, options and sides, notes to show the player, and the
        names the page gave (a name left blank: "Player 2"), as words by side
        (words.clean_named: worded anew in another language)."""
        self.build()
        notes = []
        options = {}
        for opt in self.catalog[self.variant]["options"]:
            node = self.options.querySelector('[data-option="' + opt["name"] + '"]')
            if node is None:
                continue
            if opt["type"] == "bool":
                options[opt["name"]] = bool(node.checked)
            elif opt["type"] == "choice":
                for v in opt["values"]:
                    if str(v) == node.value:
                        options[opt["name"]] = v
            else:
                text = str(node.value).strip()
                try:
                    v = float(text) if text else 0
                    if v < 0:
                        raise ValueError
                    options[opt["name"]] = int(v) if v == int(v) else v
                except ValueError:
                    notes.append(words.t("setup.not_number", option=words.option(opt["name"]), text=text,
                                         default=words.option_value(opt["default"])))
        sides = []
        named = {}  # the names the page gives (a name left blank): words, by side
        most = self.limits["name"]
        for i, li in enumerate(each(self.sides.children)):
            name, long_ = clean(li.querySelector(".side-name").value, most)
            if not name:
                name = words.t("setup.player", n=i + 1)
                named[str(i)] = ["setup.player", i + 1]
            if long_:
                notes.append(words.t("setup.shortened", max=most, name=name))
            members = []
            if li.querySelector("[data-team]").checked:
                for part in str(li.querySelector(".side-members").value).split(","):
                    m, long_ = clean(part, most)
                    if long_:
                        notes.append(words.t("setup.shortened", max=most, name=m))
                    if m:
                        members.append(m)
            player, saved_bot = "human", None
            sel = li.querySelector(".player")
            if sel:
                player = str(sel.value)
                chosen = sel.querySelector("option:checked")
                if chosen is not None and chosen.hasAttribute("data-bot"):
                    saved_bot = str(chosen.getAttribute("data-bot"))
            side = {"name": name, "members": members, "player": player}
            if saved_bot is not None:  # a saved bot: the game names it (botseat.py)
                bot = botseat.seat_of(saved_bot)
                side["player"] = "bot" if bot else "human"
                if bot:
                    side["bot"] = bot
                    if not str(li.querySelector(".side-name").value).strip():
                        side["name"] = clean(bot["name"], most)[0]
                        named.pop(str(i), None)
            sides.append(side)
        return {"variant": self.variant, "options": options, "sides": sides}, notes, named


def parse_seed(text, most):
    """A dice seed typed in the form or given in the address (?seed=), or None: a whole
    number from 0 to ``most`` (the catalog's limits.seed)."""
    text = str(text).strip()
    if not text or len(text) > len(str(most)) or not all("0" <= ch <= "9" for ch in text):
        return None
    n = int(text)
    return n if n <= most else None
