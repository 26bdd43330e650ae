"""The engine's refusals in the player's language (static/ui/words/words.py ``refusal``),
for real refusals of the engine (``generala.app.Session().handle``): a filled box, a fourth
roll, a roll undone, edited dice in a save, in an export file and behind a roll that
cannot be checked (a nested cause), a damaged link, a request only a bug could send, too
many players (a counted number). Each is worded in the four languages from its code and
params: the exact words for a few, and for all, no English of the engine's in Spanish,
Bulgarian or Russian, no placeholder left unfilled, and in English the player's words,
not the engine's."""
import json
import re

import pytest

from generala import app
from generala.modes import bundle, share
from generala.catalog import catalog
from generala.rules.refusals import CODES
from tools import ui_modules

with ui_modules.on_path():
    from words import words
    for _lang in words.LANGS:
        words.table(_lang)  # imported now: set_lang finds them later

words.use_catalog(catalog())


@pytest.fixture(autouse=True)
def english_after():
    yield
    words.set_lang("en")


def played(seed=7):
    """A game of Ana and Beto, Ana's Fours and Beto's Ones scratched, Ana's second turn
    rolled once: (session, the side to play)."""
    s = app.Session()
    assert s.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": seed})["ok"]
    first = s.game.current
    s.handle({"op": "roll"})
    assert s.handle({"op": "score", "box": "fours", "scratch": True})["ok"]
    s.handle({"op": "roll"})
    assert s.handle({"op": "score", "box": "ones", "scratch": True})["ok"]
    assert s.handle({"op": "roll"})["ok"] and s.game.current == first
    return s


def save_of(s):
    return json.loads(json.dumps(s.game.to_json()))


def edited_die(doc):
    for action in doc["history"]:
        if action.get("roll"):
            action["roll"][0] = action["roll"][0] % 6 + 1
            return doc
    raise AssertionError("no roll")


def refused(reply, code):
    assert reply["ok"] is False and reply["code"] == code, reply
    return reply


def samples():
    """name -> a real refusal of the engine."""
    found = {}
    s = played()
    found["box filled"] = refused(s.handle({"op": "score", "box": "fours"}), "box.filled")
    s.handle({"op": "roll"})
    s.handle({"op": "roll"})
    found["fourth roll"] = refused(s.handle({"op": "roll"}), "roll.none_left")
    found["roll undone"] = refused(s.handle({"op": "undo"}), "undo.roll")
    doc = save_of(played())
    found["edited dice"] = refused(app.Session().handle({"op": "load", "save": edited_die(save_of(played()))}),
                                   "save.dice_edited")
    twice = save_of(played())
    twice["history"].append({"score": "fours"})
    found["box filled twice in a save"] = refused(app.Session().handle({"op": "load", "save": twice}), "save.illegal")
    export = json.dumps(bundle.export([{"save": doc, "when": "2024-01-01T00:00:00Z"},
                                       {"save": edited_die(save_of(played())), "when": "2024-01-02T00:00:00Z"}]))
    found["edited dice in an export"] = refused(app.Session().handle({"op": "import", "text": export}), "import.game")
    scripted = dict(doc, roller={"kind": "scripted", "values": [1, 2, 3]})
    found["dice that cannot be checked"] = refused(app.Session().handle({"op": "load", "save": scripted}),
                                                   "save.rolloff_unchecked")
    token = share.encode(finished_doc())
    i = len(token) // 2
    damaged = token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1:]
    found["damaged link"] = app.Session().handle({"op": "replay", "link": damaged})
    assert found["damaged link"]["kind"] == "SaveError" and found["damaged link"]["code"].startswith("link.")
    found["request bug"] = refused(app.Session().handle({"op": "undo", "die": 3}), "request.no_fields")
    found["too many players"] = refused(app.Session().handle({"op": "load", "save": dict(doc, sides=["P"] * 9)}),
                                        "save.illegal")
    found["unknown game"] = refused(app.Session().handle({"op": "load", "save": dict(doc, variant="yahtzee")}),
                                    "save.illegal")
    found["house rule value"] = refused(app.Session().handle(
        {"op": "load", "save": dict(doc, options={"served_bonus": 7})}), "save.illegal")
    found["unfinished share"] = refused(played().handle({"op": "share"}), "share.unfinished")
    return found


def finished_doc():
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 3})
    while not s.game.over:
        view = s.handle({"op": "roll"})["view"]
        box = next(r["box"] for r in view["rows"] if r["cells"][view["current"]].get("playable"))
        s.handle({"op": "score", "box": box, "scratch": True})
    return save_of(s)


SAMPLES = samples()


def worded(lang, reply):
    words.set_lang(lang)
    return words.refusal(reply)


def shingles(text):
    """Runs of three words (letters only, lower case): English phrases of a text."""
    tokens = re.findall(r"[a-z]+", text.lower())
    return {" ".join(tokens[i:i + 3]) for i in range(len(tokens) - 2)}


def test_the_samples_cover_the_nested_refusals():
    assert SAMPLES["box filled twice in a save"]["params"]["cause"]["code"] == "box.filled"
    assert SAMPLES["edited dice in an export"]["params"]["cause"]["code"] == "save.dice_edited"
    assert SAMPLES["dice that cannot be checked"]["params"]["cause"]["code"] == "roller.exhausted"
    assert SAMPLES["too many players"]["params"]["cause"]["code"] == "sides.count"


@pytest.mark.parametrize("lang,want", [
    ("en", "Fours is already filled."),
    ("es", "La casilla Cuatros ya está anotada."),
    ("bg", "Полето „Четворки“ вече е попълнено."),
    ("ru", "Комбинация «Четвёрки» уже заполнена."),
])
def test_a_filled_box_is_named_in_the_language(lang, want):
    assert worded(lang, SAMPLES["box filled"]) == want


@pytest.mark.parametrize("lang,want", [
    ("en", "Three rolls are the most a turn has: choose a box."),
    ("es", "Un turno tiene como mucho tres tiradas: elige una casilla."),
    ("bg", "Един ход има най-много три хвърляния: изберете поле."),
    ("ru", "В ходе не больше трёх бросков: выберите комбинацию."),
])
def test_a_fourth_roll(lang, want):
    assert worded(lang, SAMPLES["fourth roll"]) == want


@pytest.mark.parametrize("lang,want", [
    ("en", "The saved game is not a valid game. Fours is already filled."),
    ("es", "La partida guardada no es una partida válida. La casilla Cuatros ya está anotada."),
    ("bg", "Запазената игра не е валидна игра. Полето „Четворки“ вече е попълнено."),
    ("ru", "Сохранённая партия недействительна. Комбинация «Четвёрки» уже заполнена."),
])
def test_a_save_that_is_not_legal_says_why_in_the_same_language(lang, want):
    assert worded(lang, SAMPLES["box filled twice in a save"]) == want


def test_edited_dice_name_the_turn_the_player_and_the_faces():
    reply = SAMPLES["edited dice"]
    p = reply["params"]
    dice, seeded = ", ".join(map(str, p["dice"])), ", ".join(map(str, p["seeded"]))
    assert worded("en", reply) == (f"The dice were edited: in turn {p['turn']}, roll {p['roll']} of {p['name']} "
                                   f"shows {dice}, but the seed gives {seeded}.")
    assert worded("ru", reply) == (f"Кости изменены: в ходе {p['turn']} бросок {p['roll']} игрока {p['name']} "
                                   f"показывает {dice}, а зерно даёт {seeded}.")
    # in an export file: the game's number, then the same words
    nested = SAMPLES["edited dice in an export"]
    assert nested["params"]["game"] == 2
    assert worded("es", nested) == "No se puede cargar la partida 2 del archivo. " + worded("es", reply)


@pytest.mark.parametrize("lang,want", [
    ("en", "A game has 1 to 8 players, not 9."),
    ("es", "Una partida tiene de 1 a 8 jugadores, no 9."),
    ("bg", "Една игра има от 1 до 8 играчи, не 9."),
    ("ru", "В партии от 1 до 8 игроков, а не 9."),
])
def test_a_counted_number_takes_its_plural_form(lang, want):
    assert worded(lang, SAMPLES["too many players"]["params"]["cause"]) == want


def test_a_request_only_a_bug_sends_says_so_with_its_code():
    reply = SAMPLES["request bug"]
    for lang in words.LANGS:
        text = worded(lang, reply)
        assert "request.no_fields" in text, (lang, text)
    assert worded("bg", reply).startswith("Играта не можа да приеме тази заявка.")


def test_params_are_worded_in_the_language():
    words.set_lang("ru")
    value = SAMPLES["house rule value"]
    assert "«Надбавка за первый бросок»" in words.refusal(value)  # the option's label
    assert words.refusal({"code": "score.one_box", "params": {"variant": "double"}}).startswith(
        "В игре «Двойной генерал»")  # the game's title
    assert words.refusal({"code": "box.unknown", "params": {"variant": "bulgarian", "got": '"x"',
                                                          "boxes": ["pair", "chance"]}}).endswith("Пара и Шанс.")
    words.set_lang("es")
    assert words.refusal({"code": "save.field", "params": {"field": "sides", "expected": "list"}}).endswith(
        "falta o no es una lista.")


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("lang", ["es", "bg", "ru"])
def test_no_english_of_the_engine_in_other_languages(name, lang):
    reply = SAMPLES[name]
    text = worded(lang, reply)
    assert text and "{" not in text and reply["error"] not in text
    mine = shingles(json.dumps(reply["params"], ensure_ascii=False))  # names, refused values
    leaked = (shingles(reply["error"]) - mine) & shingles(text)
    assert not leaked, (text, leaked)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_english_is_the_players_words_not_the_engines(name):
    reply = SAMPLES[name]
    text = worded("en", reply)
    assert text and "{" not in text and text != reply["error"]
    assert text[0].isupper() and text.endswith("."), text


def test_what_the_page_does_not_know_still_gets_words():
    words.set_lang("bg")
    other = words.t("refusal.other", code="dice.wobbly")
    assert words.refusal({"code": "dice.wobbly", "params": {}}) == other  # a newer engine's code
    assert words.refusal({"code": "request.new_field", "params": {}}) == words.t("refusal.request",
                                                                              code="request.new_field")
    # params that do not fill the words, or no code at all: the generic words, never a crash
    assert words.refusal({"code": "box.filled", "params": {}}) == words.t("refusal.other", code="box.filled")
    assert words.refusal({"code": "sides.count", "params": {"max": "many"}}) == words.t(
        "refusal.other", code="sides.count")
    assert words.refusal({"ok": False, "kind": "TooLarge", "error": "x"}) == words.t("refusal.other", code="TooLarge")
    assert words.refusal({"ok": False, "kind": "NoAnswer", "error": "x"}) == "Двигателят на играта не отговори."


def test_every_code_is_worded_from_sample_params_in_every_language():
    """Each code, with params of the kinds generala/rules/refusals.py describes, gets its words
    (not the generic ones) in each language."""
    from generala.rules.refusals import params_of
    sample = {"box": "fours", "boxes": ["ones", "twos"], "variant": "argentine", "variants": ["argentine"],
              "option": "served_bonus", "options": ["served_bonus"], "values": [5, 10], "dice": [1, 2, 3, 4, 5],
              "seeded": [1, 2, 3, 4, 6], "before": [1, 1, 1, 1, 1], "group": [1, 2], "side": 0, "name": "Ana",
              "expected": "list", "cause": {"code": "box.filled", "params": {"box": "fours"}},
              "levels": ["beginner"], "kinds": ["seeded"], "fields": ["x"], "takes": ["op"]}
    for lang in words.LANGS:
        words.set_lang(lang)
        for code in CODES:
            params = {p: sample.get(p, 3) if p not in ("got", "error", "op", "field", "table", "first", "second")
                      else "x" for p in params_of(code)}
            text = words.refusal({"code": code, "params": params})
            assert text != words.t("refusal.other", code=code) and "{" not in text, (lang, code, text)
