"""The view's and the replies' fields that tell the page what the engine decided, so the page
never works them out: who the computers are, the split's sizes, what each playable cell's
choice means (a scratch?) and the request that makes it, what an action made happen
(events), whose turn a replayed step belongs to, and the coach's best choices as data."""
import pytest

from generala import Game, ScriptedRoller, SeededRoller, app, variant
from generala.rules.refusals import CODES
from generala.modes.replay import Replay
from generala.ai.strategies import chase, step

# The roll-off (the lowest sum starts: Ana 6, Beto 29; Bulgarian: the highest die, Ana's 6),
# then the dice of the turns.
ROLLOFF = {"argentine": [1, 1, 1, 1, 2, 6, 6, 6, 6, 5], "bulgarian": [6, 1]}


def session_with(dice, variant_name="argentine", players=("human", "human")):
    s = app.Session()
    sides = [{"name": name, "members": [], "player": p} for name, p in zip(("Ana", "Beto"), players)]
    s.game = Game(variant(variant_name), sides, ScriptedRoller(ROLLOFF[variant_name] + dice))
    assert s.game.order == (0, 1)
    return s


def kinds(reply):
    return [e["kind"] for e in reply["view"]["events"]]


def test_a_served_generala_is_five_alike_an_automatic_win_and_the_end():
    s = session_with([4, 4, 4, 4, 4])
    reply = s.handle({"op": "roll"})
    assert reply["view"]["events"] == [
        {"kind": "roll", "side": 0, "dice": [4] * 5, "rolled": [0, 1, 2, 3, 4], "roll": 1},
        {"kind": "five_alike", "side": 0, "hand": "generala", "served": True, "face": 4},
        {"kind": "auto_win", "side": 0, "win": "served-generala"},
        {"kind": "game_over", "winners": [0]},
    ]


def test_filling_a_box_passes_the_turn_and_undo_brings_it_back():
    s = session_with([1, 2, 4, 4, 6], players=("human", "ai:beginner"))
    s.handle({"op": "roll"})
    reply = s.handle({"op": "score", "box": "fours"})
    assert reply["view"]["events"] == [
        {"kind": "box_filled", "side": 0, "boxes": ["fours"], "points": [8], "scratch": [False]},
        {"kind": "hand_over", "side": 1, "player": "Beto", "from": 0},
    ]
    reply = s.handle({"op": "undo"})
    assert reply["view"]["events"] == [
        {"kind": "undo", "side": 0, "undone": {"score": "fours"}},
        {"kind": "hand_over", "side": 0, "player": "Ana", "from": 1},
    ]


def test_holds_say_which_dice_changed_and_later_rolls_which_dice_were_thrown():
    s = session_with([1, 2, 4, 4, 6, 4, 4, 4])
    s.handle({"op": "roll"})
    assert s.handle({"op": "hold", "dice": [2, 3]})["view"]["events"] == [
        {"kind": "hold", "side": 0, "held": [2, 3], "changed": [2, 3]}]
    assert s.handle({"op": "toggle", "die": 3})["view"]["events"] == [
        {"kind": "hold", "side": 0, "held": [2], "changed": [3]}]
    s.handle({"op": "toggle", "die": 3})
    reply = s.handle({"op": "roll"})
    assert reply["view"]["events"] == [
        {"kind": "roll", "side": 0, "dice": [4, 4, 4, 4, 4], "rolled": [0, 1, 4], "roll": 2},
        {"kind": "five_alike", "side": 0, "hand": "generala", "served": False, "face": 4},
    ]


def test_views_that_follow_no_action_have_no_events():
    s = session_with([1, 2, 4, 4, 6])
    s.handle({"op": "roll"})
    assert s.handle({"op": "view"})["view"]["events"] == []
    saved = s.handle({"op": "hold", "dice": [0]})["save"]
    assert app.Session().handle({"op": "load", "save": saved})["view"]["events"] == []
    refused = s.handle({"op": "score", "box": "nowhere"})
    assert refused["ok"] is False and refused["view"]["events"] == []


def test_each_playable_cell_says_if_it_is_a_scratch_and_the_request_that_fills_it():
    s = session_with([1, 2, 4, 4, 6])
    view = s.handle({"op": "roll"})["view"]
    cells = {row["box"]: row["cells"][0] for row in view["rows"]}
    assert cells["fours"]["scratch"] is False and cells["fours"]["request"] == {"op": "score", "box": "fours"}
    assert cells["generala"]["scratch"] is True
    assert cells["generala"]["request"] == {"op": "score", "box": "generala", "scratch": True}
    assert "request" not in view["rows"][0]["cells"][1]  # the other side's cells are not playable
    reply = s.handle(cells["generala"]["request"])
    assert s.game.history[-1] == {"score": "generala", "scratch": True}
    assert reply["view"]["events"][0]["scratch"] == [True]


def test_a_mandatory_box_that_earns_nothing_is_no_scratch():
    s = session_with([3, 3, 3, 1, 2], "bulgarian")
    view = s.handle({"op": "roll"})["view"]
    threes = next(r for r in view["rows"] if r["box"] == "threes")["cells"][view["current"]]
    fours = next(r for r in view["rows"] if r["box"] == "fours")["cells"][view["current"]]
    assert threes["preview"] == 0 and threes["scratch"] is False and threes["request"] == {"op": "score", "box": "threes"}
    assert fours["preview"] == -12 and fours["scratch"] is False


def test_ten_dice_the_split_sizes_and_the_chosen_pairs_scratch_and_request():
    dice = [5, 5, 5, 5, 5, 1, 2, 3, 4, 5]
    s = app.Session()
    s.game = Game(variant("double"), ["Ana"], ScriptedRoller(dice))
    view = s.handle({"op": "roll"})["view"]
    assert view["split_sizes"] == [5, 5]
    sixes = next(r for r in view["rows"] if r["box"] == "sixes")["cells"][0]
    assert sixes["request"] is None and sixes["scratch"] is True and sixes["preview"] == 0
    proposal = s.handle({"op": "split", "boxes": ["fives", "sixes"]})["split"]
    assert proposal["points"][1] == 0 and proposal["scratch"] == [False, True]
    assert proposal["request"] == {"op": "score", "boxes": ["fives", "sixes"], "split": proposal["positions"],
                                   "scratch": [False, True]}
    priced = s.handle({"op": "price", "boxes": ["five-kind", "small-general"], "split": [0, 1, 2, 3, 4]})["split"]
    assert priced["points"] == [50, 21] and priced["scratch"] == [False, False]
    assert priced["request"] == {"op": "score", "boxes": ["five-kind", "small-general"], "split": [0, 1, 2, 3, 4]}
    reply = s.handle(proposal["request"])
    assert reply["ok"] and s.game.history[-1] == {"score": ["fives", "sixes"], "split": proposal["positions"],
                                                  "scratch": [False, True]}
    assert app.Session().handle({"op": "new", "variant": "argentine", "seed": 1})["view"]["split_sizes"] is None


def test_ten_dice_five_alike_is_an_event_with_the_games_hand():
    s = app.Session()
    s.game = Game(variant("double"), ["Ana"], ScriptedRoller([6, 6, 1, 6, 2, 6, 3, 6, 4, 5]))
    events = s.handle({"op": "roll"})["view"]["events"]
    assert events[1] == {"kind": "five_alike", "side": 0, "hand": "five-kind", "served": True, "face": 6}


@pytest.mark.parametrize("name, hand", [("argentine", "generala"), ("bulgarian", "general"),
                                        ("puerto-rican", "small-general"), ("double", "five-kind")])
def test_each_game_names_its_five_alike(name, hand):
    assert variant(name).best_hand == hand


def test_each_side_says_which_computer_plays_it_and_none_in_a_score_sheet_game():
    sides = [{"name": "Ana", "members": [], "player": "human"}, {"name": "Bot", "members": [], "player": "ai:expert"}]
    view = app.Session().handle({"op": "new", "variant": "argentine", "sides": sides, "seed": 1})["view"]
    assert [s["computer"] for s in view["sides"]] == [None, "expert"]
    view = app.Session().handle({"op": "new", "variant": "argentine", "sides": sides, "sheet": True})["view"]
    assert [s["computer"] for s in view["sides"]] == [None, None]


def test_a_computers_step_has_events_too():
    s = session_with([1, 2, 4, 4, 6] * 4, players=("ai:beginner", "human"))
    reply = s.handle({"op": "ai"})
    assert reply["action"] == {"roll": None} and kinds(reply) == ["roll"]


def test_replayed_steps_say_whose_turn_it_is_and_the_turns_are_listed():
    g = Game(variant("argentine"), ["Ana", {"name": "Los dos", "members": ["Beto", "Caro"]}], SeededRoller(5))
    while not g.over:
        step(g, chase)
    r = Replay(g.to_json())
    start = r.view_at(0)["replay"]
    assert (start["side"], start["round"], start["player"]) == (None, None, None)
    turns = start["turn_starts"]
    assert [t["step"] for t in turns] == r.turn_starts()
    n = len(g.sides)
    for number, turn in enumerate(turns):
        assert turn["side"] == g.order[number % n] and turn["round"] == number // n + 1
    assert [t["player"] for t in turns if t["side"] == 1][:4] == ["Beto", "Caro", "Beto", "Caro"]
    for step_number in range(1, r.steps + 1):
        view = r.view_at(step_number)
        info = view["replay"]
        owner = max((t for t in turns if t["step"] < step_number), key=lambda t: t["step"])
        assert (info["side"], info["round"], info["player"]) == (owner["side"], owner["round"], owner["player"])
        for event in view["events"]:
            if event["kind"] in ("roll", "hold", "box_filled"):
                assert event["side"] == info["side"]


def test_the_reports_best_choice_is_data():
    s = app.Session()
    assert s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 7})["ok"]
    while not s.game.over:
        s.handle({"op": "roll"})
        view = s.handle({"op": "view"})["view"]
        s.handle({"op": "score", "box": view["scorable"][-1]})
    report = s.handle({"op": "report"})["report"]
    decisions = report["sides"][0]["decisions"]
    assert decisions
    for d in decisions:
        best = d["best"]
        assert set(best) == {"choice", "kind", "keep", "boxes", "action", "request", "expected", "loss"}
        assert best["loss"] == 0 and best["kind"] in ("hold", "score")
        if best["kind"] == "score":
            assert best["action"]["score"] == best["boxes"][0] and best["keep"] == []
        else:
            assert "hold" in best["action"] or best["action"] == {"roll": None}


def test_the_refusals_the_page_meets_most_carry_their_code_and_params(monkeypatch, tmp_path):
    """The page words a refusal from its code and params alone: each moment it meets most,
    played through the engine, is refused with the code that moment has and every param
    that code's words fill in (and the English says the same values)."""
    from generala.ai import tables
    from generala.rules.refusals import params_of
    from generala.rules.save import dump

    def refused(reply, code, **expected):
        assert reply["ok"] is False and reply["code"] == code, reply
        assert params_of(code) <= set(reply["params"]), reply
        assert {k: reply["params"][k] for k in expected} == expected
        return reply

    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 7})
    s.handle({"op": "roll"})
    s.handle({"op": "score", "box": "sixes"})
    s.handle({"op": "roll"})
    reply = refused(s.handle({"op": "score", "box": "sixes"}), "box.filled", box="sixes")
    assert "sixes is already filled" in reply["error"]
    s.handle({"op": "roll"})
    s.handle({"op": "roll"})
    refused(s.handle({"op": "roll"}), "roll.none_left")
    refused(s.handle({"op": "hold", "dice": "x"}), "request.field_type", op="hold", field="dice", got='"x"')
    doc = dump(s.game)
    rolled = next(a for a in doc["history"] if "roll" in a)
    rolled["roll"] = [7 - d for d in rolled["roll"]]  # every die turned over: none as rolled
    refused(app.Session().handle({"op": "load", "save": doc}), "save.dice_edited", name="Ana", roll=1)
    monkeypatch.setattr(tables, "TABLES_DIR", tmp_path)
    tables.forget(s.game.rules)
    reply = refused(s.handle({"op": "hint"}), "table.needed", table="argentine.gvt")
    assert reply["kind"] == "NeedTable"
    tables.forget(s.game.rules)  # loaded again from the shipped file by the next test that asks
