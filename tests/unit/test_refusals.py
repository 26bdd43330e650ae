"""Refusals carry a code and params: one table (generala/rules/refusals.py) lists every code with
its English template; every code raised anywhere in generala/ is in it, every template's
placeholders are its code's params, and real refusals come out with the right code and
params (the page words them from these, the English is for the console)."""
import ast
import json
import re
from pathlib import Path

import pytest

from generala import Game, ScriptedRoller, SeededRoller, app, variant
from generala.modes import bundle, share
from generala.rules.errors import GeneralaError, IllegalAction, InvalidInput, SaveError
from generala.rules.refusals import CODES, TYPES, english, params_of, placeholders, shown

ENGINE = Path(__file__).resolve().parents[2] / "generala"
ERRORS = {"GeneralaError", "InvalidInput", "IllegalAction", "SaveError"}
PREFIXES = {code.split(".")[0] for code in CODES}
CODE_LIKE = re.compile(r"^[a-z]+\.[a-z_]+$")
#: Where a refusal is raised with a code that is not written at the call: passed on
#: (a SaveError keeps the code of the dice refusal it replaces) or chosen from a table
#: of literal codes (nesting.CODES).
DYNAMIC = {("save.py", "err.code"), ("nesting.py", "CODES[what][0]"), ("nesting.py", "CODES[what][1]"),
           ("game.py", "refused[0]")}  # a house rule's refusal: Rules.fill_refusal's codes


def sources():
    for path in sorted(ENGINE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def raise_sites():
    """Every construction of an engine error: (file, code node, params node or None)."""
    for path, tree in sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else None
            is_super = (isinstance(func, ast.Attribute) and func.attr == "__init__"
                        and isinstance(func.value, ast.Call) and getattr(func.value.func, "id", "") == "super"
                        and path.name == "app.py")
            if name in ERRORS or name == "error" and path.name == "nesting.py" or is_super:
                if node.args:
                    yield path.name, node.args[0], node.args[1] if len(node.args) > 1 else None


def literal_codes():
    """Every string constant of the engine's source that looks like a code (``box.filled``)."""
    found = set()
    for _path, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_LIKE.match(node.value):
                if node.value.split(".")[0] in PREFIXES:
                    found.add(node.value)
    return found


def test_every_code_raised_is_in_the_table_with_the_params_its_template_names():
    sites = list(raise_sites())
    assert len(sites) > 120  # the scan sees the engine's refusals
    dynamic = set()
    for where, code, params in sites:
        if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
            dynamic.add((where, ast.unparse(code)))
            continue
        assert code.value in CODES, (where, code.value)
        wanted = params_of(code.value)
        if params is None:
            assert wanted == set(), (where, code.value, "needs params", wanted)
        elif isinstance(params, ast.Dict) and None not in params.keys:  # no **unpacking: check it here
            keys = {k.value for k in params.keys}
            assert keys == wanted, (where, code.value, keys, wanted)
    assert dynamic == DYNAMIC


def test_every_code_like_literal_is_a_code_and_every_code_is_used():
    literal = literal_codes()
    assert sorted(literal - set(CODES)) == []  # a typo in a code passed around as a value
    assert sorted(set(CODES) - literal) == []  # a code no part of the engine gives


def test_templates_name_only_their_params_and_type_ids_are_english():
    for code, template in CODES.items():
        assert code == code.lower() and CODE_LIKE.match(code), code
        params = {name: [1] if name in ("dice", "seeded") else "x" for name in placeholders(template)}
        if "expected" in params:
            params["expected"] = "int"
        if "cause" in params:
            params["cause"] = {"code": "game.over", "params": {}}
        text = english(code, params)
        assert "{" not in text.replace("{{", "") or code == "action.shape", (code, text)
    assert all(isinstance(words, str) and words for words in TYPES.values())


def test_the_nested_cause_is_named_by_its_code_and_worded_within():
    inner = IllegalAction("box.filled", {"box": "fours"})
    outer = SaveError("save.illegal", {"cause": inner})
    assert outer.params == {"cause": {"code": "box.filled", "params": {"box": "fours"}}}
    assert str(outer) == "the saved game is not legal: fours is already filled"
    assert json.loads(json.dumps(outer.params)) == outer.params


def check(reply, kind, code, params=None):
    """A refusal reply: its kind, code and params, and the English its code's template gives."""
    assert reply["ok"] is False, reply
    assert (reply["kind"], reply["code"]) == (kind, code), reply
    assert set(reply["params"]) == params_of(code), reply
    assert reply["error"] == english(code, reply["params"])
    assert json.loads(json.dumps(reply["params"])) == reply["params"]
    if params is not None:
        assert reply["params"] == params, reply["params"]
    return reply["params"]


def session(variant_name="argentine", **extra):
    s = app.Session()
    reply = s.handle({"op": "new", "variant": variant_name, "sides": ["Ana", "Beto"], "seed": 3, **extra})
    assert reply["ok"], reply
    return s


def test_a_filled_box_is_refused_naming_it():
    s = session()
    s.handle({"op": "roll"})
    first = s.game.current
    s.handle({"op": "score", "box": "fours"})
    while s.game.current != first:
        s.handle({"op": "roll"})
        s.handle({"op": "score", "box": "sixes"})
    s.handle({"op": "roll"})
    check(s.handle({"op": "score", "box": "fours"}), "IllegalAction", "box.filled", {"box": "fours"})


def test_a_fourth_roll_is_refused():
    s = session()
    for _ in range(3):
        assert s.handle({"op": "roll"})["ok"]
    check(s.handle({"op": "roll"}), "IllegalAction", "roll.none_left", {})
    check(s.handle({"op": "hold", "dice": [0]}), "IllegalAction", "hold.none_left", {})


def test_edited_dice_in_a_save_name_the_roll_the_side_and_both_dice():
    g = Game(variant("argentine"), ["Ana", "Beto"], SeededRoller(8))
    g.roll()
    doc = g.to_json()
    seen = doc["history"][-1]["roll"]
    forged = [seen[0] % 6 + 1] + seen[1:]
    doc["history"][-1]["roll"] = forged
    number = len(doc["history"])
    side = g.current
    want = {"action": number, "side": side, "name": g.sides[side].name, "turn": 1, "roll": 1,
            "dice": forged, "seeded": seen}
    for reply in (app.Session().handle({"op": "load", "save": doc}),
                  app.Session().handle({"op": "replay", "link": share.encode(doc)})):
        check(reply, "SaveError", "save.dice_edited", want)
    with pytest.raises(SaveError) as err:
        bundle.read(json.dumps(bundle.export([{"save": doc}])))
    assert err.value.code == "import.game"
    assert err.value.params == {"game": 1, "cause": {"code": "save.dice_edited", "params": want}}


def test_an_edited_roll_off_and_a_roller_that_cannot_check_have_their_codes():
    g = Game(variant("argentine"), ["Ana", "Beto"], SeededRoller(8))
    doc = g.to_json()
    pair = doc["history"][0]["rolloff"][0]
    pair[1][0] = pair[1][0] % 6 + 1
    with pytest.raises(SaveError) as err:
        Game.from_json(doc)
    assert err.value.code == "save.rolloff_edited"
    assert err.value.params["round"] == err.value.params["action"] == 1
    solo = Game(variant("argentine"), ["Ana"], ScriptedRoller([3, 1, 4, 1, 5]))
    solo.roll()
    doc = solo.to_json()
    doc["roller"]["values"] = [3, 1]
    with pytest.raises(SaveError) as err:
        Game.from_json(doc)
    assert err.value.code == "save.dice_unchecked"
    assert err.value.params["cause"] == {"code": "roller.exhausted", "params": {"have": 2, "asked": 5}}


@pytest.mark.parametrize("request_, code, params", [
    ({"op": "hold", "dice": [0, "1"]}, "request.field_type",
     {"op": "hold", "field": "dice", "expected": "ints", "got": '[0, "1"]'}),
    ({"op": "toggle", "die": -1}, "request.field_min",
     {"op": "toggle", "field": "die", "expected": "int", "min": 0, "got": "-1"}),
    ({"op": "enter", "dice": [1, 2, 3, 4, 5], "at": 9}, "request.field_range",
     {"op": "enter", "field": "at", "expected": "int", "min": 1, "max": 3, "got": "9"}),
    ({"op": "undo", "dice": [1]}, "request.no_fields", {"op": "undo", "field": "dice"}),
    ({"op": "roll", "dice": [1]}, "request.field_unknown", {"op": "roll", "field": "dice", "takes": ["hold"]}),
    ({"op": "load", "sav": {}}, "request.field_unknown", {"op": "load", "field": "sav", "takes": ["save"]}),
    ({"op": "toggle"}, "request.field_missing", {"op": "toggle", "field": "die"}),
    ({"op": 7}, "request.unknown_op", {"got": "7"}),
    ({"op": "score", "box": "ones", "boxes": ["a", "b"]}, "request.one_of",
     {"op": "score", "first": "box", "second": "boxes"}),
])
def test_a_malformed_request_field_says_op_field_and_the_type_expected(request_, code, params):
    s = session()
    s.handle({"op": "roll"})
    got = check(s.handle(request_), "InvalidInput", code, params)
    if "expected" in got:
        assert got["expected"] in TYPES


def test_texts_that_are_not_json_or_too_deep_have_request_codes():
    check(json.loads(app.handle("{nope")), "InvalidInput", "request.not_json", {"line": 1, "column": 2})
    check(json.loads(app.handle("[" * 100)), "InvalidInput", "request.too_deep", {"depth": 32})
    check(json.loads(app.handle("[1]")), "InvalidInput", "request.not_object", {})


def test_need_table_says_which_table(monkeypatch, tmp_path):
    from generala.ai import solver, tables
    s = session("argentine", options={"served_bonus": 10})
    s.handle({"op": "roll"})
    solo = solver.solitaire_rules(s.game.rules)
    monkeypatch.setattr(tables, "TABLES_DIR", tmp_path)
    tables.forget(solo)
    reply = s.handle({"op": "hint"})
    name = solver.table_name(solo)
    check(reply, "NeedTable", "table.needed", {"table": name})
    assert reply["table"] == name and reply["path"] == str(tmp_path / name)


@pytest.mark.parametrize("make, code", [
    (lambda: variant("yahtzee"), "variant.unknown"),
    (lambda: variant("argentine", served_bonus=7), "option.value"),
    (lambda: variant("argentine", bogus=1), "option.unknown"),
    (lambda: Game(variant("argentine"), ["A"] * 9, SeededRoller(1)), "sides.count"),
    (lambda: Game(variant("argentine"), ["x" * 30], SeededRoller(1)), "name.too_long"),
    (lambda: Game(variant("argentine"), [" "], SeededRoller(1)), "name.empty"),
    (lambda: Game(variant("argentine"), ["A"], SeededRoller(1)).score("ones"), "score.before_roll"),
    (lambda: Game(variant("argentine"), ["A"], SeededRoller(1)).hold([0]), "hold.before_roll"),
    (lambda: Game(variant("argentine"), ["A"], SeededRoller(1)).undo(), "undo.nothing"),
    (lambda: Game(variant("argentine"), ["A"], SeededRoller(1)).enter([1] * 5), "enter.rolled_game"),
    (lambda: Game(variant("argentine"), ["A"], None, order=[0]).roll(), "roll.score_sheet"),
    (lambda: Game(variant("double"), ["A"], SeededRoller(1)).score("ones", "twos"), "score.before_roll"),
    (lambda: variant("double").best_split([1] * 10, "ones", "ones"), "split.same_box"),
    (lambda: variant("argentine").best_split([1] * 10, "ones", "twos"), "split.ten_dice"),
    (lambda: variant("argentine").score("ones", [1, 2, 3]), "dice.count"),
    (lambda: variant("argentine").score("ones", [1, 2, 3, 4, 9]), "dice.face"),
    (lambda: variant("argentine").score("nowhere", [1, 2, 3, 4, 5]), "box.unknown"),
    (lambda: SeededRoller(-1), "seed.range"),
    (lambda: Game.from_json({"schema": 99}), "save.newer"),
    (lambda: Game.from_json("{"), "save.not_json"),
    (lambda: share.decode("x"), "link.not_link"),
    (lambda: bundle.read("[]"), "import.not_export"),
])
def test_refusals_of_the_api_carry_their_codes(make, code):
    with pytest.raises(GeneralaError) as err:
        make()
    assert err.value.code == code
    assert set(err.value.params) == params_of(code)
    assert str(err.value) == english(code, err.value.params)


def test_a_scratch_of_a_mandatory_box_and_an_illegal_save_have_codes():
    g = Game(variant("bulgarian"), ["A"], ScriptedRoller([1] * 5))
    g.roll()
    with pytest.raises(IllegalAction) as err:
        g.score("ones", scratch=True)
    assert (err.value.code, err.value.params) == ("box.mandatory", {"box": "ones"})
    doc = Game(variant("argentine"), ["A"], SeededRoller(2)).to_json()
    doc["history"].append({"score": "ones"})
    with pytest.raises(SaveError) as err:
        Game.from_json(doc)
    assert err.value.code == "save.illegal"
    assert err.value.params == {"cause": {"code": "score.before_roll", "params": {}}}


def test_got_is_the_refused_value_as_json_cut_short():
    assert shown("fly") == '"fly"' and shown([0, "1"]) == '[0, "1"]' and shown(None) == "null"
    assert len(shown("x" * 500)) == 60 and shown("x" * 500).endswith("...")
    assert shown(object).startswith("<class")  # not JSON: Python's repr


def test_the_command_line_prints_english(capsys):
    from generala import cli
    assert cli.main(["simulate", "argentine", "-o", "served_bonus=7", "-n", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: option served_bonus cannot be")
    assert "allowed values: 5, 10, 0" in err and "{" not in err


def test_the_architecture_page_lists_every_code_with_its_params():
    page = (ENGINE.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \| ([^|]*) \|", page, re.M))
    assert set(rows) == set(CODES)
    for code, params in rows.items():
        assert set(re.findall(r"`(\w+)`", params)) == params_of(code), code
