"""The loader: versioned documents, and only SaveError for anything bad."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generala import Game, SaveError, ScriptedRoller, SeededRoller, variant
from generala.rules.save import SCHEMA, dumps
from generala.rules.variants import SPECS


def normal_form(doc):
    """What a loaded document saves as, written from the normal form that generala/rules/save.py
    documents: the document itself, with the current schema, every option of its variant
    (defaults filled in), each side in full, the roller's own keys, each hold sorted and
    each two-box split sorted."""
    if isinstance(doc, (bytes, bytearray)):
        doc = doc.decode("utf-8")
    if isinstance(doc, str):
        doc = json.loads(doc)

    def words(text):
        return " ".join(text.split())

    def side(s):
        s = {"name": s} if isinstance(s, str) else s
        name = words(s["name"])
        return {"name": name, "members": [words(m) for m in s.get("members", [])] or [name],
                "player": s.get("player", "human")}

    def action(a):
        if set(a) == {"hold"}:
            return {"hold": sorted(set(a["hold"]))}
        if isinstance(a.get("score"), list) and "split" in a:
            return {**a, "split": sorted(a["split"])}
        return a

    roller = doc["roller"]
    if roller is not None:
        own = ("kind", "seed") if roller["kind"] == "seeded" else ("kind", "values")
        roller = {k: roller[k] for k in own}
    spec = SPECS[doc["variant"]]
    return {"schema": SCHEMA, "game": "generala", "variant": doc["variant"],
            "options": {o.name: doc["options"].get(o.name, o.default) for o in spec.options},
            "sides": [side(s) for s in doc["sides"]], "roller": roller,
            "history": [action(a) for a in doc["history"]]}


def same_json(a, b) -> bool:
    """Equal as JSON text (so that 1 and true, or 1 and 1.0, differ)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def check_loads_back(doc):
    """Load ``doc``; if it loads, it must save as its normal form, and that again loads
    and saves to itself. Returns whether it loaded."""
    try:
        game = Game.from_json(doc)
    except SaveError:
        return False
    saved = game.to_json()
    assert same_json(saved, normal_form(doc)), (doc, saved)
    assert same_json(Game.from_json(saved).to_json(), saved)
    return True


def sample_game():
    g = Game(variant("argentine", served_bonus=10), ["Ana", {"name": "Tigres", "members": ["Beto", "Caro"]}],
             SeededRoller(5))
    g.roll()
    g.hold([0, 1])
    g.roll()
    g.score("sixes")
    g.roll()
    return g


def test_document_is_versioned_plain_json():
    doc = sample_game().to_json()
    assert doc["schema"] == SCHEMA == 1
    assert doc["variant"] == "argentine" and doc["options"]["served_bonus"] == 10
    assert doc["roller"] == {"kind": "seeded", "seed": 5}
    assert json.loads(json.dumps(doc)) == doc


def test_newer_schema_is_refused_with_a_reason():
    doc = sample_game().to_json()
    doc["schema"] = SCHEMA + 1
    with pytest.raises(SaveError, match="newer"):
        Game.from_json(doc)


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: d.pop("history"), "history"),
    (lambda d: d.update(variant="yahtzee"), "unknown variant"),
    (lambda d: d.update(options={"served_bonus": 7}), "served_bonus"),
    (lambda d: d["history"][3]["roll"].__setitem__(0, d["history"][2 - 1]["roll"][0] % 6 + 1), "held dice"),
    (lambda d: d["history"].insert(2, {"score": "ones"}), "not legal"),
    (lambda d: d["history"][1].update(roll=[1, 2, 3, 4, 7]), "die"),
    (lambda d: d["history"].__setitem__(0, {"rolloff": [[0, [1, 1, 1, 1, 1]]]}), "roll-off"),
    (lambda d: d.update(sides=[]), "sides"),
    (lambda d: d.update(schema="1"), "schema"),
])
def test_illegal_or_malformed_documents_say_why(mutate, reason):
    doc = sample_game().to_json()
    mutate(doc)
    with pytest.raises(SaveError, match=reason):
        Game.from_json(doc)


def test_truncated_json_text_is_a_save_error():
    text = dumps(sample_game())
    for cut in range(0, len(text), 7):
        with pytest.raises(SaveError):
            Game.from_json(text[:cut])


def test_loaded_game_keeps_its_seeded_roller_and_never_rerolls():
    g = sample_game()
    loaded = Game.from_json(dumps(g))
    assert loaded.roll() == g.roll()


def test_a_given_roller_replaces_the_saved_one():
    g = Game.from_json(dumps(sample_game()), roller=ScriptedRoller([1] * 40))
    g.hold([])
    assert isinstance(g.roller, ScriptedRoller)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_fuzzed_documents_raise_only_save_error(data):
    doc = sample_game().to_json()
    # Replace one value somewhere in the document with arbitrary JSON.
    path_target = doc
    keys = []
    while isinstance(path_target, (dict, list)) and path_target and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(list(path_target.keys()) if isinstance(path_target, dict)
                                        else list(range(len(path_target)))))
        keys.append(key)
        if not isinstance(path_target[key], (dict, list)):
            break
        path_target = path_target[key]
    target = doc
    for key in keys[:-1]:
        target = target[key]
    if keys:
        target[keys[-1]] = data.draw(json_values)
    else:
        doc = data.draw(json_values)
    original = json.loads(json.dumps(doc))
    check_loads_back(doc)
    assert same_json(doc, original)  # loading leaves the document as it was


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_random_text_raises_only_save_error(blob):
    check_loads_back(blob)


@pytest.mark.parametrize("edit, normal", [
    (lambda d: d.update(options={}), lambda d: d["options"].update(served_bonus=5)),
    (lambda d: d["sides"].__setitem__(0, " Ana "),
     lambda d: d["sides"].__setitem__(0, {"name": "Ana", "members": ["Ana"], "player": "human"})),
    (lambda d: d["sides"][1].update(members=[], player="ai:optimal"),
     lambda d: d["sides"][1].update(members=["Tigres"], player="ai:optimal")),
    (lambda d: d["history"].__setitem__(2, {"hold": [1, 0, 1]}),
     lambda d: d["history"].__setitem__(2, {"hold": [0, 1]})),
    (lambda d: d["roller"].update(note="x"), lambda d: None),
    (lambda d: d.pop("game"), lambda d: None),
    (lambda d: d.update(note="x"), lambda d: None),
])
def test_a_document_that_loads_saves_as_its_documented_normal_form(edit, normal):
    doc = sample_game().to_json()
    expected = json.loads(json.dumps(doc))
    edit(doc)
    normal(expected)
    assert check_loads_back(doc)
    assert same_json(normal_form(doc), expected) and same_json(Game.from_json(doc).to_json(), expected)


def test_a_scratch_flag_is_true_not_one():
    doc = sample_game().to_json()
    assert doc["history"][4] == {"score": "sixes"}
    doc["history"][4] = {"score": "sixes", "scratch": 1}
    with pytest.raises(SaveError, match="not a score action"):
        Game.from_json(doc)
