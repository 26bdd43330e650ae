"""The page's words (static/ui/words/words.py and its tables static/ui/words/words_LANG.py): every
key in all four languages with the same placeholders, the plural forms each language
needs, every key the page uses (index.html data-i18n*, t()/tn() calls in static/ui)
defined, and the English the engine writes itself (titles, summaries, options' help)
taken from the engine, not copied."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "static" / "ui"
sys.path.insert(0, str(ROOT))
from tools import ui_modules  # noqa: E402

sys.path[:0] = [str(ui_modules.UI)]

from words import words  # noqa: E402
from generala.catalog import catalog  # noqa: E402

PLACEHOLDER = re.compile(r"\{(\w*)\}")


def tables(cat):
    """Every language's words as the page has them: English with the engine's own words
    of the catalog ``cat`` (game.ID, summary.ID, opthelp.NAME)."""
    found = {lang: dict(words.table(lang)) for lang in words.LANGS}
    found["en"].update(words.engine_words(cat))
    return found


TABLES = tables(catalog())
EN = TABLES["en"]


def holes(value):
    if isinstance(value, dict):
        return {k: holes(v) for k, v in value.items()}
    if isinstance(value, list):
        return [holes(v) for v in value]
    return sorted(PLACEHOLDER.findall(value))


def test_four_languages():
    assert words.LANGS == ["en", "es", "bg", "ru"]
    assert set(words.LANGS) == set(words.NAMES) == set(words.PLURALS)
    assert sorted(p.name for p in UI.rglob("words_*.py")) == sorted(f"words_{lang}.py" for lang in words.LANGS)


@pytest.mark.parametrize("lang", ["es", "bg", "ru"])
def test_same_keys_as_english(lang):
    table = TABLES[lang]
    assert sorted(set(EN) - set(table)) == [], f"missing in {lang}"
    assert sorted(set(table) - set(EN)) == [], f"unknown keys in {lang}"


def test_the_engine_s_english_is_not_copied():
    """Titles, summaries and options' help are written once, in generala/rules/variants.py:
    words_en.py has none of them, and the page shows the engine's."""
    engine = words.engine_words(catalog())
    assert len(engine) > 15
    assert sorted(set(engine) & set(words.table("en"))) == []
    from generala.rules.variants import SPECS
    try:
        words.use_catalog(catalog())
        words.set_lang("en")
        assert words.summary("double") == SPECS["double"].summary
        assert words.option_help("aces_wild") == SPECS["puerto-rican"].option("aces_wild").help
        assert words.t("summary.bulgarian") == SPECS["bulgarian"].summary
        words.set_lang("es")
        assert words.summary("double").startswith("General doble:")
    finally:
        words.set_lang("en")


@pytest.mark.parametrize("lang", words.LANGS)
def test_no_blank_and_same_placeholders(lang):
    table = TABLES[lang]
    for key, value in table.items():
        en = EN[key]
        assert type(value) is type(en), key
        if isinstance(value, dict):  # plural forms: {n} may be left out ("the game" for one)
            assert sorted(value) == sorted(words.PLURALS[lang]), (lang, key)
            want = set(holes(next(iter(en.values())))) - {"n"}
            for form in value.values():
                assert form.strip() and set(holes(form)) - {"n"} == want, (lang, key, form)
        elif isinstance(value, list):
            assert len(value) == len(en), (lang, key)
            for a, b in zip(value, en):
                assert a.strip() and holes(a) == holes(b), (lang, key)
                assert (a[:1] == " ", a[-1:] == " ") == (b[:1] == " ", b[-1:] == " "), (lang, key)
        else:
            assert value.strip(), (lang, key)
            assert holes(value) == holes(en), (lang, key)
            # a text the page joins to another keeps its leading / trailing space
            assert (value[:1] == " ", value[-1:] == " ") == (en[:1] == " ", en[-1:] == " "), (lang, key)


def index_html():
    """index.html as the build publishes it: its lists of games written from the catalog
    (tools/build.py write_games), their words keys among them."""
    from tools import build
    return build.write_games((ROOT / "index.html").read_text(encoding="utf-8"), catalog())


def used_keys():
    """Keys named in the page's code: t("..."), tn("...") (a key built from a prefix,
    t("replay." + key), is left out) and index.html data-i18n* / data-words."""
    keys = set()
    for path in UI.rglob("*.py"):
        if path.name.startswith("words_"):
            continue
        for m in re.finditer(r"\btn?\(\s*\"([a-z_.\-]+)\"", path.read_text(encoding="utf-8")):
            if not m.group(1).endswith("."):
                keys.add((path.name, m.group(1)))
    html = index_html()
    for m in re.finditer(r'data-(?:i18n(?:-[a-z-]+)?|words)="([^"]+)"', html):
        for part in m.group(1).split(";"):
            keys.add(("index.html", part.split(":")[-1].strip()))
    return keys


def test_every_used_key_exists():
    used = used_keys()
    assert len(used) > 50
    missing = sorted(f"{where}: {key}" for where, key in used if key not in EN)
    assert missing == []


def test_every_key_is_used():
    """No dead words: each key is named in the page's code or index.html, or looked up
    by a prefix: words.py's own (box., opt., rules., refusal., ... by id) or one a module
    joins to a name it also writes (t("replay." + key) for key in ("first", ...))."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in UI.rglob("*.py") if not p.name.startswith("words_")}
    sources.update({p.name: p.read_text(encoding="utf-8") for p in (ROOT / "static" / "js").glob("*.*js")})
    sources["index.html"] = index_html()
    # refusal.CODE / refusal.FAMILY and type.ID: looked up by the engine's codes and type
    # ids (words.refusal), each checked against generala/rules/refusals.py below; ai.LEVEL: the
    # catalog's level ids, a refusal's "levels" param worded (words.refusal)
    by_id = tuple(words._IDS) + ("game.", "summary.", "opthelp.", "refusal.", "type.", "ai.level.", "boxwhat.")
    named = {key for _, key in used_keys()}

    def used(key):
        if key.startswith(by_id) or key in named or any(f'"{key}"' in text or f"'{key}'" in text for text in sources.values()):
            return True
        prefix, _, rest = key.rpartition(".")
        return any(f'"{prefix}." +' in text and f'"{rest}"' in text for text in sources.values())

    assert sorted(key for key in EN if not used(key)) == []


def missing_option_words(cat, tables):
    """The words a house option of the catalog lacks: ``(language, key)`` pairs, sorted.
    Every option needs its label ``opt.NAME`` and its help ``opthelp.NAME`` in every language."""
    return sorted((lang, prefix + opt["name"])
                  for lang, table in tables.items()
                  for info in cat["variants"].values() for opt in info["options"]
                  for prefix in ("opt.", "opthelp.") if not str(table.get(prefix + opt["name"], "")).strip())


def test_every_box_option_and_game_has_words():
    cat = catalog()
    for lang, table in TABLES.items():
        for variant in cat["variants"]:
            assert "game." + variant in table and "summary." + variant in table and "rules." + variant in table
    assert missing_option_words(cat, TABLES) == []
    from generala import app
    for variant in cat["variants"]:
        s = app.Session()
        reply = s.handle({"op": "new", "variant": variant, "options": {}, "seed": 1,
                          "sides": [{"name": "A", "members": [], "player": "human"}]})
        for row in reply["view"]["rows"]:
            assert "box." + row["box"] in EN, row["box"]
        for key in reply["view"]["sides"][0]["subtotals"]:
            assert "sum." + key in EN, key


@pytest.mark.parametrize("n,en,es,bg,ru", [
    (0, "0 points", "0 puntos", "0 точки", "0 очков"),
    (1, "1 point", "1 punto", "1 точка", "1 очко"),
    (2, "2 points", "2 puntos", "2 точки", "2 очка"),
    (5, "5 points", "5 puntos", "5 точки", "5 очков"),
    (11, "11 points", "11 puntos", "11 точки", "11 очков"),
    (21, "21 points", "21 puntos", "21 точки", "21 очко"),
    (22, "22 points", "22 puntos", "22 точки", "22 очка"),
    (112, "112 points", "112 puntos", "112 точки", "112 очков"),
    (-1, "\u22121 point", "\u22121 punto", "\u22121 точка", "\u22121 очко"),
])
def test_plural_points(n, en, es, bg, ru):
    try:
        for lang, want in (("en", en), ("es", es), ("bg", bg), ("ru", ru)):
            words.set_lang(lang)
            assert words.points(n) == want
    finally:
        words.set_lang("en")


def test_rolls_left_russian_and_bulgarian():
    try:
        words.set_lang("ru")
        assert [words.rolls_left_text(n) for n in (1, 2, 5, 0)] == [
            "Остался 1 бросок.", "Осталось 2 броска.", "Осталось 5 бросков.", "Бросков не осталось."]
        words.set_lang("bg")
        assert words.rolls_left_text(1) == "Остава 1 хвърляне."
        assert words.rolls_left_text(2) == "Остават 2 хвърляния."
    finally:
        words.set_lang("en")


@pytest.mark.parametrize("n,ru,bg", [
    (1, "one", "one"), (21, "one", "other"), (3, "few", "other"), (22, "few", "other"),
    (5, "many", "other"), (11, "many", "other"), (12, "many", "other"), (0, "many", "other"),
])
def test_plural_categories_one_few_many_in_russian_and_bulgarian(n, ru, bg):
    """CLDR: Russian one (1, 21), few (2-4, 22), many (5, 11-14, 0); Bulgarian one/other."""
    assert words.plural_category("ru", n) == ru
    assert words.plural_category("bg", n) == bg
    assert words.plural_category("es", n) == words.plural_category("en", n) == ("one" if n == 1 else "other")


@pytest.mark.parametrize("key", ["board.roll_left", "records.skipped", "replay.file_more", "sheetmode.too_many",
                                 "split.need"])
def test_counts_take_the_plural_form_of_each_language(key):
    """What counts something (Roll's rolls left, games, dice) is a plural key: Spanish says
    "queda 1" and "quedan 2"; Russian one, few and many; Bulgarian one and other."""
    try:
        words.set_lang("es")
        one, two = words.tn(key, 1, a=1, b=1), words.tn(key, 2, a=1, b=1)
        assert one != two  # singular and plural differ in Spanish
        assert words.tn("board.roll_left", 1) == "Tirar (queda 1)"
        assert words.tn("board.roll_left", 2) == "Tirar (quedan 2)"
        words.set_lang("ru")
        forms = [words.tn(key, n, a=1, b=1) for n in (1, 3, 5)]
        assert all(str(n) in f for n, f in zip((1, 3, 5), forms))
        assert words.tn("records.skipped", 1).startswith("1 сохранённую партию")
        assert words.tn("records.skipped", 3).startswith("3 сохранённые партии")
        assert words.tn("records.skipped", 5).startswith("5 сохранённых партий")
        words.set_lang("bg")
        assert words.tn("replay.file_more", 1).startswith("Файлът съдържа 1 игра:")
        assert words.tn("replay.file_more", 3).startswith("Файлът съдържа 3 игри:")
        assert words.tn("replay.file_more", 5).startswith("Файлът съдържа 5 игри:")
    finally:
        words.set_lang("en")


def view_of(*sides, current=0):
    return {"sides": [{"name": n, "members": m} for n, m in sides], "current": current,
            "player": sides[current][0], "over": False, "events": [{"kind": "x", "player": sides[current][0]}]}


def test_names_the_page_made_are_words_and_typed_names_stay():
    """A name the page made is worded in the language in use; a typed name and a team stay;
    the person's own side ("You") is "you" in the sentences about it."""
    named = words.clean_named({"0": ["home.you"], "1": ["home.computer"], "2": ["setup.player", 3],
                               "3": ["setup.player", 4], "x": ["home.you"], "4": ["not.a.name"]})
    assert named == {"0": ["home.you"], "1": ["home.computer"], "2": ["setup.player", 3], "3": ["setup.player", 4]}
    view = view_of(("You", ["You"]), ("Computer", ["Computer"]), ("Player 3", []), ("Reds", ["Ana", "Bo"]),
                   ("Zoe", []))
    try:
        words.set_lang("es")
        shown = words.named_view(view, named)
        assert [s["name"] for s in shown["sides"]] == ["Tú", "Computadora", "Jugador 3", "Reds", "Zoe"]
        assert shown["sides"][0]["members"] == ["Tú"] and shown["player"] == "Tú"
        assert shown["events"][0]["player"] == "Tú"
        assert view["sides"][0]["name"] == "You"  # the engine's view is not changed
        assert words.whose_turn(shown) == "Te toca"
        words.set_lang("ru")
        shown = words.named_view(view, named)
        assert words.whose_turn(shown) == "Ваш ход"
        other = words.named_view(dict(view, current=1, player="Computer"), named)
        assert words.whose_turn(other) == "Ход: Компьютер"
        words.set_lang("en")
        shown = words.named_view(view, named)
        assert words.whose_turn(shown) == "Your turn"
        shown["last"] = {"type": "score", "side": 0, "boxes": ["fours"], "points": [12]}
        assert words.announce(shown).startswith("You scored ")
        assert words.named_view(view, {}) is view
        assert words.clean_named("junk") == {} and words.clean_named({"0": ["setup.player", True]}) == {}
    finally:
        words.set_lang("en")


def test_numbers_and_ordinals():
    try:
        words.set_lang("es")
        assert words.money(2.5) == "2,50" and words.ordinal(1) == "1.º"
        words.set_lang("bg")
        assert [words.ordinal(n) for n in (1, 2, 3, 4, 7, 8)] == ["1-во", "2-ро", "3-то", "4-то", "7-мо", "8-мо"]
        words.set_lang("ru")
        assert words.ordinal(2) == "2-е" and words.money(0.25) == "0,25"
        assert words.decimal(3) == "3,00" and words.decimal(-0.25) == "\u22120,25"
        words.set_lang("en")
        assert [words.ordinal(n) for n in (1, 2, 3, 4, 11, 21)] == ["1st", "2nd", "3rd", "4th", "11th", "21st"]
        assert words.money(3) == "3" and words.money(2.5) == "2.50"
        assert words.decimal(0) == "0.00" and words.num(-2.5) == "\u22122.50"
    finally:
        words.set_lang("en")


def test_box_names_as_players_say_them():
    T = TABLES
    assert [T["bg"]["box." + b] for b in ("pair", "two-pairs", "three-kind", "four-kind", "full-house",
                                          "small-straight", "large-straight", "chance", "general")] == [
        "Един чифт", "Два чифта", "Тройка", "Каре", "Фул", "Малка кента", "Голяма кента", "Шанс", "Генерал"]
    assert [T["es"]["box." + b] for b in ("straight", "full-house", "four-kind", "generala", "double-generala")] == [
        "Escalera", "Full", "Póker", "Generala", "Generala doble"]
    assert [T["ru"]["box." + b] for b in ("straight", "full-house", "four-kind", "small-general", "big-general")] == [
        "Стрит", "Фул", "Каре", "Малый генерал", "Большой генерал"]


def test_set_lang_updates_shared_tables_in_place():
    boxes = words.BOXES
    try:
        words.set_lang("bg")
        assert boxes["pair"] == "Един чифт" and words.RULES["bulgarian"][0].startswith("Пет зара")
        assert "title" not in words.RULES and words.SUBTOTALS["total"] == "Общо"
    finally:
        words.set_lang("en")
    assert boxes["pair"] == "One pair"


def test_pick_lang():
    assert words.pick_lang(None, None, ["bg-BG", "en"]) == ("bg", None)
    assert words.pick_lang(None, None, ["de-DE", "es-AR"]) == ("es", None)
    assert words.pick_lang(None, "ru", ["bg"]) == ("ru", None)
    assert words.pick_lang("es", "ru", ["bg"]) == ("es", None)
    assert words.pick_lang("xx", None, ["de"]) == ("en", "xx")
    assert words.pick_lang("<script>", "bg", []) == ("bg", "<script>")
    assert words.pick_lang(None, None, []) == ("en", None)


def test_the_first_screen_is_written_in_every_language():
    """tools/build.py writes each data-words text of index.html in the four languages
    (one <span lang> each, CSS shows the page's): the English there is the table's,
    and an unknown key or a stale English text stops the build."""
    sys.path.insert(0, str(ROOT))
    from tools import build
    html = index_html()
    out = build.write_words(html, TABLES)
    n = len(re.findall(r"data-words=", html))
    options = len(re.findall(r"<option[^>]*data-words=", html))
    head = len(re.findall(r"<(?:title|meta)[^>]*data-words=", html))  # the tab's title, the description
    assert n - options - head >= 8 and options == 9 and head == 2  # the quick-play lists: 4 games, 5 levels
    for lang in words.LANGS:
        assert len(re.findall(f'<span lang="{lang}">', out)) == n - options - head
        assert len(re.findall(f'<option[^>]* data-words-{lang}="', out)) == options
        assert len(re.findall(f'<(?:title|meta)[^>]* data-words-{lang}="', out)) == head
    # The title and the description too: static/js/page-lang.js shows them before the first paint.
    assert f'data-words-ru="{TABLES["ru"]["page.title"]}">Generala — dice games</title>' in out
    assert f'data-words-bg="{TABLES["bg"]["page.description"]}"' in out
    assert '<span lang="bg">' + TABLES["bg"]["home.play_computer"] + "</span>" in out
    # An option holds text only: its words are attributes, the text stays English.
    assert f'data-words-ru="{TABLES["ru"]["home.level_expert"]}">Expert</option>' in out
    assert f'data-words-es="{TABLES["es"]["game.double"]}"' in out
    assert f'data-words-ru="{TABLES["ru"]["game.double"]}">Double General</option>' in out
    with pytest.raises(build.BuildError, match="home.level_expert"):
        build.write_words(html.replace(">Expert<", ">Master<"), TABLES)
    with pytest.raises(build.BuildError, match="home.play_computer"):
        build.write_words(html.replace(">Play against the computer<", ">Play with the computer<"), TABLES)
    with pytest.raises(build.BuildError, match="no.such.key"):
        build.write_words('<p data-words="no.such.key">x</p>', TABLES)
    with pytest.raises(build.BuildError, match="page.description"):
        build.write_words(html.replace('content="Play Generala', 'content="Play Yahtzee'), TABLES)


def test_the_keys_help_names_each_key_once():
    """The Rules dialog's keys (help.keys): one line a key, in every language."""
    for lang in words.LANGS:
        lines = TABLES[lang]["help.keys"]
        keys = [line.split(" — ")[0].split(":")[0] for line in lines]
        assert len(keys) == len(set(keys)) == len(TABLES["en"]["help.keys"]), lang
        firsts = [k.split()[0] for k in keys]
        assert len(firsts) == len(set(firsts)), lang


# --- the engine's refusals (words.refusal) ------------------------------------------------

from generala.rules import refusals  # noqa: E402

REFUSAL_KEYS = sorted(key for key in EN if key.startswith("refusal."))


def codes_worded_by(key):
    """The codes whose words are ``key`` (words.refusal_key): its own code, or the codes of
    its family that have no key of their own."""
    return sorted(code for code in refusals.CODES if words.refusal_key(code) == key)


def test_every_refusal_code_has_words_in_every_language():
    """Each code of the engine has its own words or its family's (never the generic ones
    meant for a code this page does not know), in all four tables."""
    generic = sorted(code for code in refusals.CODES if words.refusal_key(code) == "refusal.other")
    assert generic == []
    for lang, table in TABLES.items():
        assert sorted(code for code in refusals.CODES if words.refusal_key(code) not in table) == [], lang
    # the codes a player meets have words of their own (a family's words say "a bug")
    for code in ("box.filled", "roll.none_left", "undo.roll", "save.illegal", "save.dice_edited",
                 "import.game", "link.check", "share.unfinished", "seed.range", "name.too_long"):
        assert words.refusal_key(code) == "refusal." + code
    assert {words.refusal_key(code) for code in refusals.CODES if code.startswith("request.")} == {"refusal.request"}
    assert words.refusal_key("internal.error") == "refusal.internal"


def test_no_refusal_words_are_dead():
    """Every refusal key words some code of the engine (its own, or a family's code without
    words of its own), but refusal.other, the words of a code this page does not know."""
    dead = [key for key in REFUSAL_KEYS if key != "refusal.other" and not codes_worded_by(key)]
    assert dead == []
    assert "refusal.other" in EN


@pytest.mark.parametrize("lang", words.LANGS)
def test_refusal_placeholders_are_params_of_its_codes(lang):
    """A refusal's words name only params every code they word carries (a dict of plural
    forms counts the param words.COUNTED names, as {n}), or {code}."""
    table = TABLES[lang]
    for key in REFUSAL_KEYS:
        value = table[key]
        forms = list(value.values()) if isinstance(value, dict) else [value]
        for code in codes_worded_by(key) or ["?"]:
            allowed = (refusals.params_of(code) if code in refusals.CODES else set()) | {"code"}
            if isinstance(value, dict):
                assert key == "refusal." + code and words.COUNTED[code] in refusals.params_of(code), code
                allowed.add("n")
            for form in forms:
                assert set(holes(form)) <= allowed, (lang, key, code, form)


def test_plural_refusals_count_a_number_param():
    """A refusal's words are plural forms exactly when words.COUNTED names its counted param."""
    plural = sorted(key[len("refusal."):] for key in REFUSAL_KEYS if isinstance(EN[key], dict))
    assert plural == sorted(words.COUNTED)
    for code, name in words.COUNTED.items():
        assert name in refusals.params_of(code), code


def test_every_type_id_has_words():
    """{expected} of a refusal is a type id of generala/rules/refusals.py TYPES: each has its words."""
    assert sorted(key[len("type."):] for key in EN if key.startswith("type.")) == sorted(refusals.TYPES)
