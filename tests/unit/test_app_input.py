"""Bad input at the engine's entry point: always a clean refusal with a reason, never InternalError."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generala import app
from generala.modes import bundle, share
from generala.rules import nesting
from generala.rules.refusals import CODES, english, params_of
from generala import Game

load = Game.from_json  # a save document to a game, or SaveError

KINDS = {"InvalidInput", "IllegalAction", "SaveError", "NeedTable"}
DEEP = "[" * 100_000


def reply_of(text):
    """The reply to a request text, which must be strict JSON (no NaN) with ok and, if not ok, a kind."""
    def no_constants(name):
        raise AssertionError(f"the reply holds {name}: not JSON")
    reply = json.loads(app.handle(text), parse_constant=no_constants)
    assert isinstance(reply["ok"], bool)
    if not reply["ok"]:
        assert reply["kind"] in KINDS, reply
        assert isinstance(reply["error"], str) and reply["error"]
        # a code of the one table, with its params; the English is its template filled with them
        code, params = reply["code"], reply["params"]
        assert code in CODES and set(params) == params_of(code), reply
        assert reply["error"] == english(code, params), reply
    return reply


@pytest.fixture
def fresh_session(monkeypatch):
    session = app.Session()
    monkeypatch.setattr(app, "SESSION", session)
    return session


def req(**fields):
    return json.dumps(fields)


# --- nesting deeper than any real document --------------------------------------------------

def test_the_deepest_real_documents_are_far_below_the_limit():
    from generala.ai.strategies import chase, step
    from generala import Game, SeededRoller, variant
    deepest = 0
    for name in ("argentine", "puerto-rican", "double", "bulgarian"):
        g = Game(variant(name), ["A", "B", "C"], SeededRoller(5))
        while not g.over:
            step(g, chase)
        export = bundle.export([{"id": "x", "save": g.to_json(), "when": "now"}])
        request = {"op": "import", "text": json.dumps(export)}
        records = {"op": "records", "entries": [{"save": g.to_json(), "when": None}]}
        deepest = max(deepest, nesting.text_depth(json.dumps(export)),
                      nesting.value_depth(request), nesting.value_depth(records))
    assert 8 <= deepest <= 10 and nesting.MAX_DEPTH >= 3 * deepest


@pytest.mark.parametrize("text", [
    DEEP,
    '{"op": "load", "save": ' + DEEP + "}",
    '{"op": "new", "options": {"x": ' + DEEP + "}}",
    '{"op": "import", "text": "' + DEEP + '"}',  # inside a string: not nesting at all
])
def test_a_deep_request_text_is_refused_before_it_is_parsed(fresh_session, text):
    reply = reply_of(text)
    assert reply["ok"] is False
    if text.startswith('{"op": "import"'):
        assert reply["kind"] == "SaveError" and "nests more than" in reply["error"]
    else:
        assert reply["kind"] == "InvalidInput" and "nests more than" in reply["error"]


def test_nesting_scan_skips_strings_and_escapes():
    assert nesting.text_depth('["[[[", "\\"[[", {"a": "]]]}"}]') == 2
    assert nesting.text_depth('"\\\\"') == 0
    assert nesting.text_depth("[" * 40) == nesting.MAX_DEPTH + 1  # stops counting past the limit


def deep_value(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_deep_save_export_or_link_is_a_save_error(fresh_session):
    from generala.rules.errors import SaveError
    with pytest.raises(SaveError, match="nests more than"):
        load(DEEP)
    with pytest.raises(SaveError, match="nests more than"):
        load({"schema": 1, "history": deep_value(100_000)})
    with pytest.raises(SaveError, match="nests more than"):
        bundle.read('{"format": "generala-export", "games": ' + DEEP)
    session = app.Session()
    for op in ({"op": "load", "save": {"schema": 1, "x": deep_value(100_000)}},
               {"op": "replay", "save": {"schema": 1, "x": deep_value(50)}},
               {"op": "share", "save": deep_value(40)}):
        reply = session.handle(op)
        assert reply["ok"] is False and reply["kind"] == "InvalidInput" and "nests" in reply["error"]
    reply = session.handle({"op": "replay", "save": {"schema": 1, "history": deep_value(20)}})
    assert reply["kind"] == "SaveError"


def link_of(payload: bytes) -> str:
    import base64, binascii, zlib
    packed = zlib.compress(payload, 9)
    raw = packed + binascii.crc32(packed).to_bytes(4, "big")
    return share.PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_link_that_inflates_to_megabytes_of_brackets_is_refused_for_its_size(fresh_session):
    token = link_of(b"[" * 1_900_000)
    assert len(token) < 3000
    reply = reply_of(req(op="replay", link=token))
    assert reply["kind"] == "SaveError" and "unpacks to more than" in reply["error"]


def test_a_small_deep_link_is_refused_for_its_nesting(fresh_session):
    reply = reply_of(req(op="replay", link=link_of(b"[" * 100_000)))
    assert reply["kind"] == "SaveError" and "nests more than" in reply["error"]


# --- malformed requests -------------------------------------------------------------------

def open_game(session, variant="argentine", **extra):
    reply = session.handle({"op": "new", "variant": variant, "sides": ["Ana", "Beto"], "seed": 3, **extra})
    assert reply["ok"], reply
    return reply


@pytest.mark.parametrize("request_", [
    {"op": "score", "box": ["ones"]},
    {"op": "new", "options": ["served_bonus", 10]},
    {"op": "hint", "top": "x"},
    {"op": "solve", "budget_ms": "soon"},
    {"op": "solve", "budget_ms": float("nan")},
    {"op": "toggle", "die": True},
    {"op": "toggle"},
    {"op": "hold", "dice": [0, "1"]},
    {"op": "roll", "dice": [1, 2, 3, 4, 5]},  # a field roll does not take
    {"op": "enter", "dice": [1, 2, 3, 4, 5], "at": 9},
    {"op": "replay_at", "step": "3"},
    {"op": "import", "text": None},
    {"op": "coach", "on": "yes"},
    {"op": "new", "seed": -1},
    {"op": "new", "seed": 2 ** 80},
    {"op": "new", "seed": 4, "order": [1, 0]},
    {"op": "new", "sheet": True, "seed": 4},
    {"op": "score", "box": "ones", "boxes": ["ones", "twos"]},
    {"op": "score", "box": "ones", "split": [0, 1, 2, 3, 4]},
    {"op": "score", "boxes": ["ones", "twos"]},  # argentine fills one box
    {"op": "replay", "link": "g1.x", "save": {}},
    {"op": "price", "boxes": ["ones", "twos"], "split": [0, 1, 2, 3, 4]},  # five dice: no splits
    {"op": 7},
])
def test_malformed_requests_are_invalid_input_with_a_reason(request_):
    session = app.Session()
    open_game(session)
    session.handle({"op": "roll"})
    reply = session.handle(request_)
    assert reply["ok"] is False and reply["kind"] == "InvalidInput", reply
    assert reply["error"]


@pytest.mark.parametrize("request_", [
    {"op": "score", "boxes": ["ones", "sixes"], "split": [0, 1, 2, 3, "x"]},
    {"op": "score", "boxes": ["ones", "nowhere"], "split": [0, 1, 2, 3, 4]},
    {"op": "score", "boxes": ["ones", "sixes"], "scratch": True},
    {"op": "score", "boxes": ["ones", "sixes"], "scratch": [True]},
    {"op": "score", "box": "ones"},
    {"op": "price", "boxes": ["ones"], "split": [0, 1, 2, 3, 4]},
])
def test_a_bad_split_or_box_is_refused_before_the_coach_prices_it(request_):
    session = app.Session()
    open_game(session, "double")
    session.handle({"op": "coach", "on": True})
    assert session.handle({"op": "roll"})["ok"]
    reply = session.handle(request_)
    assert reply["ok"] is False and reply["kind"] == "InvalidInput", reply


def test_a_bad_single_box_with_the_coach_on_is_invalid_input():
    session = app.Session()
    open_game(session)
    session.handle({"op": "coach", "on": True})
    session.handle({"op": "roll"})
    for bad in ({"op": "score", "box": "nowhere"}, {"op": "score", "box": "ones", "scratch": "yes"}):
        reply = session.handle(bad)
        assert reply["kind"] == "InvalidInput", reply
    assert session.handle({"op": "score", "box": "ones"})["ok"]


# --- every request, any values: never InternalError ----------------------------------------

BOXES = ["ones", "twos", "sixes", "full-house", "generala", "small-general", "big-general",
         "five-kind", "pair", "two-pairs", "general", "nowhere"]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-2 ** 70, 2 ** 70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(BOXES),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=15,
)
plausible = st.one_of(
    st.integers(-1, 11), st.lists(st.integers(-1, 10), max_size=11), st.lists(st.integers(1, 6), min_size=5, max_size=10),
    st.lists(st.sampled_from(BOXES), min_size=1, max_size=3), st.lists(st.booleans(), max_size=3),
    st.sampled_from(["argentine", "double", "bulgarian", "puerto-rican", "g1.", "g1.eJw"]),
    st.builds(dict, served_bonus=st.sampled_from([0, 5, 10, 7, "5"])),
)
OPS = sorted(app.FIELDS) + ["fly", "", "op_new", "__init__", "replay-at"]
FIELD_NAMES = sorted({f for fields in app.FIELDS.values() for f in fields} | {"x"})


def _real_games():
    from generala import Game, SeededRoller, variant
    from generala.ai.strategies import chase, step
    games = []
    for name in ("argentine", "puerto-rican", "double", "bulgarian"):
        g = Game(variant(name), ["A", "B"], SeededRoller(2))
        while not g.over:
            step(g, chase)
        games.append(g.to_json())
        part = Game(variant(name), ["A", "B"], SeededRoller(4))
        for _ in range(5):
            step(part, chase)
        games.append(part.to_json())
    return games


REAL = _real_games()


@st.composite
def saves(draw):
    """A real save, often damaged in one place (a die, a box, a key)."""
    doc = json.loads(json.dumps(draw(st.sampled_from(REAL))))
    how = draw(st.sampled_from(["as is", "die", "action", "key", "roller"]))
    history = doc["history"]
    i = draw(st.integers(0, len(history) - 1))
    if how == "die" and "roll" in history[i]:
        history[i]["roll"][0] = draw(st.integers(-1, 7))
    elif how == "action":
        history[i] = draw(json_values)
    elif how == "key":
        doc[draw(st.sampled_from(sorted(doc)))] = draw(json_values)
    elif how == "roller":
        doc["roller"] = draw(st.one_of(json_values, st.builds(lambda s: {"kind": "seeded", "seed": s}, st.integers())))
    return doc


LINKS = [share.encode(doc) for doc in REAL if load(doc).over]
links = st.one_of(st.sampled_from(LINKS), st.builds(lambda t, i, c: t[:i] + c + t[i + 1:],
                                                     st.sampled_from(LINKS), st.integers(0, 200), st.sampled_from("Ab-_9.")))
def _link_tokens():
    from generala.modes import linkgame
    from generala import variant
    sides = [{"name": "Ana", "player": "human"}, {"name": None, "player": "human"}]
    host = linkgame.create(variant("argentine"), sides, bytes(range(32)), bytes(16))
    invitation = host.invitation(1)
    beto = linkgame.join(invitation, "Beto", bytes(range(1, 33)))
    return [invitation, beto.link()], [host.local(), beto.local()]


LINK_TOKENS, LINK_LOCALS = _link_tokens()


def _lab_runs():
    """A real run's moves (generala/modes/bots.py) and the engine's counts of them, as text."""
    from generala.modes import bots
    run = bots.Run(bots.example_source("chase"), "argentine", 3, seed=0, record=True)
    run.step(3600.0)
    moves = run.take_moves()
    first = bots.tally(bots.new_tally("argentine", 0), moves[:1])
    return moves, [json.dumps(first), json.dumps(bots.tally(first, moves[1:]))]


LAB_MOVES, LAB_TALLIES = _lab_runs()
lab_moves = st.one_of(st.just(LAB_MOVES), st.lists(st.sampled_from(LAB_MOVES), max_size=3),
                      st.lists(st.text(alphabet="0123456789abcz.-", max_size=12), max_size=3))
tallies = st.one_of(st.sampled_from(LAB_TALLIES), st.builds(lambda t, i, c: t[:i] + c + t[i + 1:],
                                                            st.sampled_from(LAB_TALLIES), st.integers(0, 300),
                                                            st.sampled_from('1a",:{}')), st.text(max_size=8))
tokens = st.one_of(st.sampled_from(LINK_TOKENS), st.builds(lambda t, i, c: t[:i] + c + t[i + 1:],
                                                           st.sampled_from(LINK_TOKENS), st.integers(0, 300),
                                                           st.sampled_from("Ab-_9.")), links)
boxes = st.sampled_from(BOXES)
dice = st.lists(st.integers(-1, 7), min_size=4, max_size=11)
FIELD_VALUES = {
    "variant": st.sampled_from(["argentine", "double", "bulgarian", "puerto-rican", "yahtzee"]),
    "options": st.dictionaries(st.sampled_from(["served_bonus", "double_generala", "stake_per_point",
                                                "aces_wild", "bogus"]),
                               st.one_of(st.booleans(), st.integers(-1, 12), st.floats())),
    "sides": st.lists(st.one_of(st.text(max_size=5), st.fixed_dictionaries(
        {"name": st.text(max_size=5)}, optional={"members": st.lists(st.text(max_size=4), max_size=3),
                                                 "player": st.sampled_from(["human", "ai:random", "ai:x", "bot"]),
                                                 "bot": st.sampled_from([{"name": "b", "hash": "0a"},
                                                                         {"name": "", "hash": "zz"}])})),
                      max_size=9),
    "seed": st.integers(-5, 2 ** 64), "sheet": st.booleans(), "order": st.lists(st.integers(-1, 3), max_size=4),
    "save": saves(), "die": st.integers(-1, 11), "dice": dice,
    "hold": st.lists(st.integers(-1, 10), max_size=11),
    "box": boxes, "boxes": st.lists(boxes, min_size=1, max_size=3),
    "scratch": st.one_of(st.booleans(), st.lists(st.booleans(), min_size=1, max_size=3)),
    "split": st.lists(st.integers(-1, 10), min_size=4, max_size=6), "at": st.integers(0, 4),
    "link": links, "step": st.integers(-1, 300),
    "entries": st.lists(st.fixed_dictionaries({"save": saves(), "when": st.one_of(st.none(), st.text(max_size=5))}),
                        max_size=3),
    "text": st.one_of(st.builds(lambda g: json.dumps(bundle.export([{"save": g}])), saves()),
                      st.builds(json.dumps, saves()), st.text(max_size=20)),
    "top": st.integers(-1, 2 ** 70), "on": st.booleans(), "again": st.booleans(),
    "budget_ms": st.one_of(st.integers(-1, 5), st.floats()),
    "date": st.one_of(st.sampled_from(["2026-12-01", "2026-02-30", "1999-1-1"]), st.text(max_size=10)),
    "name": st.one_of(st.text(max_size=8), st.integers()),
    "today": st.one_of(st.sampled_from(["2026-12-01", "2026-12-02"]), st.text(max_size=10)),
    "move": st.one_of(st.fixed_dictionaries({"keep": st.lists(st.integers(-1, 10), max_size=11)}),
                      st.fixed_dictionaries({"score": boxes}), json_values),
    "x": json_values,
    "game": st.sampled_from(["argentine", "double", "bulgarian", "yahtzee"]),
    "moves": lab_moves, "tally": st.one_of(st.none(), tallies), "games": st.integers(-1, 10_001),
    "seconds": st.one_of(st.integers(-1, 100), st.floats()),
    "token": tokens, "name": st.text(max_size=30),
    "entropy": st.one_of(st.text(max_size=5), st.sampled_from(["00" * 48, "ab" * 10, "0f" * 32, "zz" * 48])),
    "local": st.one_of(st.none(), st.sampled_from(LINK_LOCALS), json_values),
}


@st.composite
def requests(draw):
    op = draw(st.sampled_from(OPS))
    known = list(app.FIELDS.get(op, {}))
    names = draw(st.lists(st.sampled_from(known), max_size=4, unique=True)) if known else []
    if draw(st.integers(0, 9)) == 0:
        names.append(draw(st.sampled_from(FIELD_NAMES)))  # sometimes a field the op does not take
    fields = {}
    for name in names:
        junk = draw(st.integers(0, 5)) == 0
        fields[name] = draw(json_values if junk else FIELD_VALUES[name])
    return {"op": op, **fields}


split5 = st.permutations(range(10)).map(lambda p: sorted(p[:5]))
pair = st.lists(boxes, min_size=2, max_size=2, unique=True)
moves = st.one_of(
    st.builds(lambda b, x: {"op": "score", "box": b, "scratch": x}, boxes, st.booleans()),
    st.builds(lambda ab, sp, x: {"op": "score", "boxes": ab, "split": sp, "scratch": x},
              pair, split5, st.lists(st.booleans(), min_size=2, max_size=2)),
    st.builds(lambda ab: {"op": "split", "boxes": ab}, pair),
    st.builds(lambda ab, sp: {"op": "price", "boxes": ab, "split": sp}, pair, split5),
    st.builds(lambda d: {"op": "hold", "dice": sorted(d)}, st.sets(st.integers(0, 9))),
    st.builds(lambda d: {"op": "roll", "hold": sorted(d)}, st.sets(st.integers(0, 9))),
    st.builds(lambda d, a: {"op": "enter", "dice": d, "at": a},
              st.one_of(st.lists(st.integers(1, 6), min_size=5, max_size=5),
                        st.lists(st.integers(1, 6), min_size=10, max_size=10)), st.integers(1, 3)),
    st.sampled_from([{"op": "roll"}, {"op": "undo"}, {"op": "ai"}, {"op": "hint"}, {"op": "report"},
                     {"op": "view"}, {"op": "toggle", "die": 0}]),
)


def _session_with(variant, sheet=False, coach=False, rolled=False, sides=2):
    session = app.Session()
    new = {"op": "new", "variant": variant, "sides": [f"P{i}" for i in range(sides)]}
    if sheet:
        new["sheet"] = True
    else:
        new["seed"] = 11
    assert session.handle(new)["ok"]
    if coach:
        session.handle({"op": "coach", "on": True})
    if rolled and not sheet:
        assert session.handle({"op": "roll"})["ok"]
    if rolled and sheet:
        dice = [1, 2, 3, 4, 6] * (2 if variant == "double" else 1)
        assert session.handle({"op": "enter", "dice": dice, "at": 2})["ok"]
    return session


SETUPS = [None] + [
    (variant, sheet, coach, rolled)
    for variant in ("argentine", "puerto-rican", "double", "bulgarian")
    for sheet, coach in ((False, False), (True, False), (False, True))
    for rolled in (False, True)
]


@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SETUPS), st.lists(st.one_of(requests(), requests(), moves, moves, json_values),
                                         min_size=1, max_size=10))
def test_any_request_gets_a_json_reply_never_an_internal_error(monkeypatch, setup, batch):
    session = app.Session() if setup is None else _session_with(*setup)
    monkeypatch.setattr(app, "SESSION", session)
    for request in batch:
        try:
            text = json.dumps(request)
        except ValueError:
            continue
        reply_of(text)


def test_a_required_seed_given_as_null_is_a_missing_field():
    """null is the same as leaving ``seed`` out: where the op needs one, it is missing."""
    reply = app.Session().handle({"op": "lab_games", "game": "argentine", "seed": None, "moves": []})
    assert (reply["kind"], reply["code"], reply["params"]) == (
        "InvalidInput", "request.field_missing", {"op": "lab_games", "field": "seed"})
