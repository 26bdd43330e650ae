"""The loader: versioned documents, and only SaveError for anything bad."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generala import Game, SaveError, ScriptedRoller, SeededRoller, variant
from generala.save import SCHEMA, dumps


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
    try:
        Game.from_json(doc)
    except SaveError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_random_text_raises_only_save_error(blob):
    try:
        Game.from_json(blob)
    except SaveError:
        pass
