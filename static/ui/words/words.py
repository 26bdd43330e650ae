# The page's words, in the chosen language: the one place the page looks text up.
# The words themselves are plain data, one module a language: words_en.py (every key,
# with where each is used), words_es.py, words_bg.py, words_ru.py; box and option ids
# are the engine's (generala/rules/variants.py); its view model carries ids and numbers only. The
# English of the games' titles and summaries and of the house options' help is the
# engine's own text (generala/rules/variants.py), read from the catalog (use_catalog).
#
# t(key, **values)       the text of a key with its {placeholders} filled in
# tn(key, n, **values)   the plural form for the number n ({n} is filled in), by the
#                        CLDR category of n in the language (PLURALS, plural_category)
# refusal(reply)         an engine refusal (its code and params) in the current language
#                        (the engine's English is for the console only)
# set_lang(code)         switch language (BOXES, OPTIONS, ... follow, in place);
#                        switching(code) does it a part at a time (the page's boot)
# pick_lang(url, saved, browser)  the language to use: ?lang=, the saved choice, then
#                        the browser's preferences (navigator.languages), then English

import sys

LANGS = ["en", "es", "bg", "ru"]
NAMES = {"en": "English", "es": "Español", "bg": "Български", "ru": "Русский"}
# The plural categories each language needs (see plural_category).
PLURALS = {"en": ["one", "other"], "es": ["one", "other"], "bg": ["one", "other"],
           "ru": ["one", "few", "many"]}

LANG = ["en"]  # the current language (a list so importers see the change)
TABLE = {}  # the current language's words: its module's own table, never written to
ENGINE = {}  # the engine's English: game.ID, summary.ID, opthelp.NAME (use_catalog)

BOXES = {}
OPTIONS = {}
AUTO_WINS = {}
WIN_HANDS = {}  # an automatic win's hand as the game names it ("Generala", "Big General")
RULES = {}
SUBTOTALS = {}
_IDS = {
    "box.": BOXES, "opt.": OPTIONS, "autowin.": AUTO_WINS, "winhand.": WIN_HANDS, "rules.": RULES,
    "sum.": SUBTOTALS,
}


def table(code):
    """The words of the language ``code`` (its module words/words_CODE.py, imported on first use:
    the page loads only the language chosen; page_boot.py imports it in a task of its own)."""
    name = "words.words_" + (code if code in LANGS else "en")
    __import__(name)
    return sys.modules[name].WORDS


def english():
    """The English words: every key (test_i18n), the last resort of a table that lacks one.
    A page in another language never imports them unless it needs one (every table has
    every key: the unit tests make sure of it)."""
    return table("en")


def own(key):
    """The words of ``key`` in the current language (for English, the engine's own
    English too: the games' titles and summaries), or None."""
    text = TABLE.get(key)
    if text is None and LANG[0] == "en":
        text = ENGINE.get(key)
    return text


def known(key):
    """Whether ``key`` has words (in the current language, else in English)."""
    return key in TABLE or key in english()


def engine_words(catalog):
    """The English the engine writes itself, by key: each game's title (game.ID) and
    summary (summary.ID) and each house option's help (opthelp.NAME)."""
    found = {}
    for variant, info in catalog["variants"].items():
        found["game." + variant] = info["title"]
        found["summary." + variant] = info["summary"]
        for opt in info["options"]:
            found["opthelp." + opt["name"]] = opt["help"]
    return found


def use_catalog(catalog):
    """Take the engine's English from the catalog (catalog.json or the engine's reply)."""
    ENGINE.update(engine_words(catalog))


def set_lang(code):
    """Use the language ``code`` (one of LANGS; anything else means English)."""
    for _ in switching(code):
        pass


def switching(code):
    """set_lang(code) a part at a time: the generator yields every few hundred keys, so
    that the page's boot spreads the work over several browser tasks (page_boot.py). The
    language is in use once it is exhausted."""
    if code not in LANGS:
        code = "en"
    global TABLE
    if code == LANG[0] and TABLE:  # in use already: nothing to rebuild
        return
    LANG[0] = code
    TABLE = table(code)  # the engine's English is looked up after it (own(), t())
    for d in _IDS.values():
        d.clear()
    count = 0
    for key, value in TABLE.items():  # each prefix ends at a key's first dot: one look-up a key
        dot = key.find(".") + 1
        d = _IDS.get(key[:dot]) if dot else None
        if d is not None:
            d[key[dot:]] = value
        count += 1
        if count % 250 == 0:
            yield
    RULES.pop("title", None)
    RULES.pop("title_game", None)
    RULES.pop("house", None)


def lang():
    return LANG[0]


def primary(tag):
    """'es-AR' -> 'es' (None for something that is not a language tag of ours)."""
    code = str(tag or "").strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGS else None


def pick_lang(url=None, saved=None, browser=()):
    """(code, bad): the language to use and a rejected ?lang= value (or None)."""
    bad = None
    if url is not None:
        code = primary(url)
        if code:
            return code, None
        bad = str(url)[:20]
    code = primary(saved)
    if code:
        return code, bad
    for tag in browser or ():
        code = primary(tag)
        if code:
            return code, bad
    return "en", bad


def _fill(text, values):
    if values:
        return text.format(**values)
    return text


def t(key, **values):
    """The text of ``key`` in the current language (English if this table lacks it:
    the unit tests make sure none does; the key itself as a last resort)."""
    text = TABLE.get(key)
    if text is None:
        text = english().get(key) or ENGINE.get(key, key)
    if isinstance(text, list):
        return [_fill(p, values) for p in text]
    return _fill(text, values)


def plural_category(code, n):
    """CLDR plural category of the number n in the language ``code``."""
    if n != int(n):
        return "few" if code == "ru" else "other"
    n = abs(int(n))
    if code == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def tn(key, n, **values):
    """The form of the plural ``key`` for the number n (its CLDR category in the current
    language), {n} filled in as num(n) writes it."""
    forms = TABLE.get(key) or english()[key]
    cat = plural_category(lang(), n)
    text = forms.get(cat) or forms.get("other") or forms.get("many")
    values["n"] = num(n)
    return _fill(text, values)


def num(n):
    """A number as written in the current language (decimal comma outside English), a
    negative one with the real minus sign (U+2212), as the score sheet writes it."""
    if n != int(n):
        return decimal(n)
    text = str(int(n))
    return "\u2212" + text[1:] if text.startswith("-") else text


def percent(n):
    """A whole percent as the language writes it: 62% / 62 %."""
    return t("num.percent", n=num(n))


def decimal(x):
    """A number with two decimals, as num writes a fraction: 2.50 / 2,50, −0,25."""
    text = "%.2f" % x
    text = text if lang() == "en" else text.replace(".", ",")
    return "\u2212" + text[1:] if text.startswith("-") else text


def box(name):
    return BOXES.get(name, name)


def option(name):
    return OPTIONS.get(name, name)


def option_help(name, fallback=""):
    return own("opthelp." + name) or fallback


def title(variant, fallback=None):
    """A game's title by its variant id (the engine's own title as a fallback)."""
    return own("game." + str(variant)) or fallback or str(variant)


def summary(variant, fallback=""):
    return own("summary." + str(variant)) or fallback


def option_value(value):
    if value is True:
        return t("value.on")
    if value is False:
        return t("value.off")
    if isinstance(value, (int, float)):
        return num(value)
    return str(value)


def ordinal(n):
    if n is None:
        return ""
    code = lang()
    if code == "es":
        return str(n) + ".º"
    if code == "ru":
        return str(n) + "-е"
    if code == "bg":
        last = n % 10
        if 10 <= n % 100 <= 20:
            return str(n) + "-то"
        return str(n) + {1: "-во", 2: "-ро", 7: "-мо", 8: "-мо"}.get(last, "-то")
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return str(n) + suffix


def points(n):
    return tn("n.points", n)


def and_list(items):
    items = [str(i) for i in items]
    if len(items) < 2:
        return "".join(items)
    return t("and", a=", ".join(items[:-1]), b=items[-1])


def dice_text(dice):
    return ", ".join(str(d) for d in dice)


def side_label(view, i):
    side = view["sides"][i]
    return side["name"]


# --- the names the page made ----------------------------------------------------------
#
# A name the page gave a side (the one-tap game's "You" and "Computer", the setup form's
# "Player 3", the daily challenge's "You") is a word: the page keeps it with the game as
# its key (and number), {"<side>": [key] or [key, n]}, and words it in the language in
# use whenever the game is drawn (named_view). A name a person typed is text and stays.
# The engine's game holds the name in the language the game was started in.
MADE_NAMES = ("home.you", "home.computer", "setup.player")
YOU = "home.you"  # the person at this device: sentences about that side say "you"


def clean_named(named):
    """The stored names the page made, checked (what storage holds is not trusted): a dict
    {"<side>": [key] or [key, n]} of known keys, else {}."""
    out = {}
    if not isinstance(named, dict):
        return out
    for side, made in named.items():
        if (isinstance(side, str) and side.isdigit() and len(side) < 3 and isinstance(made, list)
                and 1 <= len(made) <= 2 and made[0] in MADE_NAMES
                and (len(made) == 1 or (isinstance(made[1], int) and not isinstance(made[1], bool)
                                        and 0 < made[1] < 100))):
            out[side] = list(made)
    return out


def made_name(made):
    """A name the page made, in the current language."""
    return t(made[0], n=made[1]) if len(made) > 1 else t(made[0])


def named_view(view, named):
    """``view`` with the names the page made worded in the current language (a copy; the
    view itself when there are none): each such side's name, and the player's name where
    it is that side's (who plays, the events); the person's own side is marked "you"."""
    if not named or not view or not view.get("sides"):
        return view
    view = dict(view)
    sides = [dict(s) for s in view["sides"]]
    renamed = {}
    for key, made in named.items():
        i = int(key)
        side = sides[i] if i < len(sides) else None
        if side is not None and len(side.get("members") or ()) <= 1:  # a team's name is typed
            old, new = side["name"], made_name(made)
            renamed[old] = side["name"] = new
            if side.get("members") == [old]:
                side["members"] = [new]
            side["you"] = made[0] == YOU
    view["sides"] = sides
    if view.get("player") in renamed:
        view["player"] = renamed[view["player"]]
    events = view.get("events")
    if events and any(e.get("player") in renamed for e in events):
        view["events"] = [dict(e, player=renamed[e["player"]]) if e.get("player") in renamed else e
                          for e in events]
    return view


def is_you(view, i):
    """Whether side ``i`` is the person at this device (a name the page made: "You")."""
    return i is not None and 0 <= i < len(view["sides"]) and bool(view["sides"][i].get("you"))


def turn_line(view):
    if view["over"]:
        return t("turn.over")
    return t("turn.line", round=view["round"], turns=view["turns"])


def whose_turn(view):
    if view["current"] is None:  # the game is over: nobody is to play
        return ""
    side = view["sides"][view["current"]]
    if side.get("you"):
        return t("turn.you")
    if len(side["members"]) > 1:
        return t("turn.who_team", side=side["name"], player=view["player"])
    return t("turn.who", player=view["player"])


def rolls_left_text(left):
    return tn("n.rolls_left", left) if left else t("say.no_rolls")


def announce(view):
    """The sentence for the live region after an action (view['last'])."""
    last = view.get("last")
    if not last:
        return ""
    kind = last.get("type")
    if kind == "roll":
        return t("say.rolled", dice=dice_text(last["dice"])) + " " + rolls_left_text(last["rolls_left"])
    if kind == "auto-win":
        i = (view.get("auto_win") or {}).get("side", 0)
        if is_you(view, i):
            return t("say.you_auto_win", dice=dice_text(last["dice"]), what=AUTO_WINS.get(last["kind"], last["kind"]))
        side = side_label(view, i)
        return t("say.auto_win", side=side, dice=dice_text(last["dice"]),
                 what=AUTO_WINS.get(last["kind"], last["kind"]))
    if kind == "hold":
        held = last.get("held") or []
        if not held:
            return t("say.no_holds")
        dice = view.get("dice") or []
        return t("say.holding", dice=", ".join(
            t("say.held_die", i=i + 1, face=dice[i] if i < len(dice) else "?") for i in held))
    if kind == "score":
        parts = [t("say.part", box=box(b), points=points(p)) for b, p in zip(last["boxes"], last["points"])]
        if is_you(view, last["side"]):
            text = t("say.you_scored", parts=and_list(parts))
        else:
            text = t("say.scored", side=side_label(view, last["side"]), parts=and_list(parts))
        if last.get("over"):
            return text + " " + t("say.over") + " " + ranking_sentence(view)
        return text + " " + whose_turn(view) + "."
    if kind == "undo":
        return t("say.undone") + " " + whose_turn(view) + "."
    return ""


def ranking_sentence(view):
    order = sorted(range(len(view["sides"])), key=lambda i: (view["sides"][i]["place"] or 99, i))
    return "; ".join(t("place.line", place=ordinal(view["sides"][i]["place"]), name=view["sides"][i]["name"],
                       total=view["sides"][i]["total"]) for i in order) + "."


def cell_preview(p, mandatory):
    if mandatory:
        return "O" if p == 0 else ("+" + str(p) if p > 0 else "−" + str(-p))
    return str(p)


def money(amount):
    return num(amount)


# --- the engine's refusals ---------------------------------------------------------------
#
# A refusal carries a code and params (generala/rules/refusals.py); its words are the key
# "refusal.<code>", else its family's "refusal.<family>" (the code's part before its first
# dot), else "refusal.other" (a code this page does not know: a newer engine). Which codes
# have words of their own and which share their family's: words_en.py, above its refusals.

# The param a refusal's plural forms count ({n} in them; its key is a dict of plural
# forms, as tn takes).
COUNTED = {
    "sides.count": "max", "name.too_long": "max", "dice.type": "count", "dice.count": "count",
    "save.too_deep": "depth", "import.too_deep": "depth", "link.too_deep": "depth",
    "import.too_large": "max", "import.too_many": "count", "link.too_big": "max",
}
_DICE = ("dice", "seeded", "before", "group")  # params that hold dice: worded as faces


def refusal_key(code):
    """The key of a refusal code's words: its own, its family's, or the generic one."""
    code = str(code)
    if known("refusal." + code):
        return "refusal." + code
    family = "refusal." + code.split(".")[0]
    return family if known(family) else "refusal.other"


def refusal(reply):
    """The words, in the current language, of a refusal: an engine reply with ``code`` and
    ``params``, or the ``{"code", "params"}`` named inside another (a cause), its params
    worded (box ids as box names, a variant as its title, a cause by this function, ...).
    Never the engine's English: a reply without a code, or whose words cannot be filled
    from its params, gets the generic words with what code it has (NoAnswer: the engine
    did not answer)."""
    is_dict = isinstance(reply, dict)
    code = reply.get("code") if is_dict else None
    params = reply.get("params") if is_dict else None
    if not isinstance(code, str):
        kind = reply.get("kind") if is_dict else None
        if kind == "NoAnswer":  # the engine did not answer (engine_client: replies.no_answer)
            return t("msg.no_answer")
        code = str(kind or "?")
    if not isinstance(params, dict):
        params = {}
    key = refusal_key(code)
    try:
        values = {name: worded(name, value) for name, value in params.items()}
        values["code"] = code
        text = TABLE.get(key) or english()[key]
        if isinstance(text, dict):
            return tn(key, params[COUNTED[code]], **values)
        return _fill(text, values)
    except Exception:  # a param missing or not of its kind: the code still tells a developer
        return t("refusal.other", code=code)


def move_text(action):
    """A move of a game by link's history as a player reads it: a roll, the dice kept, a box
    scored (link.rewrites: the two versions of a move)."""
    if "score" in action:
        return t("link.move_score", box=box(action["score"]))
    if "hold" in action:
        held = action["hold"]
        if not held:
            return t("link.move_hold_none")
        return t("link.move_hold", places=and_list(num(int(i) + 1) for i in held))
    if "roll" in action:
        return t("link.move_roll", dice=dice_text(action["roll"]))
    return t("link.move_other")


def worded(name, value):
    """A refusal's param as a player reads it (what each param holds: generala/rules/refusals.py)."""
    if name == "cause" and isinstance(value, dict):
        return refusal(value)
    if name == "expected" and isinstance(value, str):
        return t("type." + value) if known("type." + value) else value
    if name in ("mine", "theirs") and isinstance(value, dict):
        return move_text(value)
    if isinstance(value, list):
        if name == "boxes":
            return and_list([box(b) for b in value])
        if name in _DICE:
            return dice_text(value)
        if name == "variants":
            return ", ".join(title(v) for v in value)
        if name == "options":
            return ", ".join(option(o) for o in value)
        if name == "values":
            return ", ".join(option_value(v) for v in value)
        if name == "levels":
            return ", ".join(t("ai.level." + str(v)) if known("ai.level." + str(v)) else str(v) for v in value)
        return ", ".join(str(v) for v in value)
    if name in ("box", "after", "needs"):
        return box(value)
    if name == "variant":
        return title(value)
    if name == "option":
        return option(value)
    if isinstance(value, bool) or value is None:
        return "true" if value is True else ("false" if value is False else "null")
    if isinstance(value, (int, float)):
        return num(value)
    return str(value)

