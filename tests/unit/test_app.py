"""The worker protocol: JSON requests in, view model and save document out."""
import json

import pytest

from generala import app
from generala.catalog import catalog


def call(session, **req):
    reply = json.loads(json.dumps(session.handle(req)))  # replies must be plain JSON
    return reply


@pytest.fixture
def session():
    return app.Session()


def test_handle_speaks_json_text():
    assert json.loads(app.handle('{"op": "ping"}'))["ok"] is True
    assert json.loads(app.handle("not json"))["ok"] is False
    reply = json.loads(app.handle('{"op": "fly"}'))
    assert reply["error"] == 'unknown op "fly"'
    assert (reply["kind"], reply["code"], reply["params"]) == ("InvalidInput", "request.unknown_op", {"got": '"fly"'})


def test_new_game_returns_view_and_save(session):
    reply = call(session, op="new", variant="bulgarian", sides=["Ana", "Beto"], seed=9)
    view, save = reply["view"], reply["save"]
    assert save["schema"] == 1 and save["roller"] == {"kind": "seeded", "seed": 9}
    assert [r["box"] for r in view["rows"]][:7] == ["ones", "twos", "threes", "fours", "fives", "sixes", "pair"]
    assert view["can_roll"] and not view["can_hold"] and view["dice"] is None
    assert view["rolloff"] and view["turns"] == 15


def test_a_turn_through_the_protocol(session):
    call(session, op="new", variant="argentine", sides=["Ana"], seed=2)
    view = call(session, op="roll")["view"]
    assert view["last"]["type"] == "roll" and len(view["dice"]) == 5
    playable = [r for r in view["rows"] if r["cells"][0].get("playable")]
    assert len(playable) == 11 and all("preview" in r["cells"][0] for r in playable)
    view = call(session, op="toggle", die=0)["view"]
    assert view["held"][0] is True
    box = max(playable, key=lambda r: r["cells"][0]["preview"])
    reply = call(session, op="score", box=box["box"])
    assert reply["view"]["last"]["type"] == "score"
    assert reply["view"]["sides"][0]["total"] == box["cells"][0]["preview"]
    assert reply["view"]["round"] == 2


def test_errors_come_back_with_the_unchanged_view(session):
    call(session, op="new", variant="argentine", sides=["Ana"], seed=2)
    reply = call(session, op="toggle", die=0)
    assert reply["ok"] is False and reply["kind"] == "IllegalAction"
    assert reply["view"]["held"] == [False] * 5


def test_loading_a_save_resumes_the_same_dice(session):
    first = call(session, op="new", variant="puerto-rican", sides=["Ana", "Beto"], seed=4)
    call(session, op="roll")
    saved = call(session, op="toggle", die=1)["save"]
    dice = call(session, op="roll")["view"]["dice"]
    other = app.Session()
    view = call(other, op="load", save=saved)["view"]
    assert view["held"][1] and call(other, op="roll")["view"]["dice"] == dice
    assert first["save"]["roller"] == saved["roller"]


def test_a_corrupt_save_is_refused_with_a_message(session):
    reply = call(session, op="load", save={"schema": 99})
    assert reply["ok"] is False and "newer" in reply["error"]


def test_double_split_proposal_price_and_score(session):
    call(session, op="new", variant="double", sides=["Ana"], seed=1)
    call(session, op="roll")
    proposal = call(session, op="split", boxes=["fives", "full-house"])["split"]
    assert len(proposal["positions"]) == 5
    priced = call(session, op="price", boxes=["fives", "full-house"], split=proposal["positions"])
    assert priced["split"]["points"] == proposal["points"]
    view = call(session, op="score", boxes=["fives", "full-house"], split=proposal["positions"])["view"]
    assert view["sides"][0]["total"] == sum(proposal["points"])


@pytest.mark.parametrize("seed", range(12))
def test_double_pairs_price_each_open_box_with_the_first_as_the_split_would(session, seed):
    """The first box chosen: each other open box's points are those of the split op split
    proposes for the pair (both boxes', with the pair's scratch flags); best is the pair
    that earns most; filled boxes and the first box itself are not listed."""
    call(session, op="new", variant="double", sides=["Ana", "Beto"], seed=seed)
    call(session, op="roll")
    assert call(session, op="score", boxes=["ones", "twos"])["ok"]  # each side's first turn
    call(session, op="roll")
    assert call(session, op="score", boxes=["threes", "fours"])["ok"]
    view = call(session, op="roll")["view"]
    opened = [r["box"] for r in view["rows"] if r["cells"][view["current"]]["value"] is None]
    assert len(opened) == len(view["rows"]) - 2  # the first side's two boxes are filled
    for first in opened:
        pairs = call(session, op="pairs", box=first)["pairs"]
        assert pairs["box"] == first
        assert list(pairs["with"]) == [b for b in opened if b != first]
        totals = {}
        for other, entry in pairs["with"].items():
            split = call(session, op="split", boxes=[first, other])["split"]
            assert entry == {"points": split["points"], "scratch": split["scratch"]}, (first, other)
            totals[other] = sum(split["points"])
        top = max(totals.values())
        assert pairs["best"] == (next(b for b in totals if totals[b] == top) if top > 0 else None)


def test_pairs_are_refused_before_a_roll_with_five_dice_and_for_an_unknown_box(session):
    assert call(session, op="pairs", box="sixes")["code"] == "game.none"
    call(session, op="new", variant="double", sides=["Ana"], seed=1)
    assert call(session, op="pairs", box="sixes")["code"] == "score.before_roll"
    call(session, op="roll")
    assert call(session, op="pairs", box="seven")["code"] == "box.unknown"
    assert call(session, op="pairs", box=["sixes", "fives"])["code"] == "request.field_type"
    assert call(session, op="pairs")["code"] == "request.field_missing"
    call(session, op="new", variant="argentine", sides=["Ana"], seed=1)
    call(session, op="roll")
    assert call(session, op="pairs", box="sixes")["code"] == "split.ten_dice"


def test_undo_is_offered_until_the_next_side_rolls(session):
    call(session, op="new", variant="argentine", sides=["Ana"], seed=3)
    call(session, op="roll")
    assert call(session, op="view")["view"]["can_undo"] is False
    view = call(session, op="score", box="generala", scratch=True)["view"]
    assert view["can_undo"] is True
    assert call(session, op="undo")["view"]["rows"][9]["cells"][0]["value"] is None


def test_hot_seat_undo_never_reaches_into_the_next_persons_turn(session):
    call(session, op="new", variant="argentine", sides=["Ana", "Beto"], seed=3)
    call(session, op="roll")
    view = call(session, op="score", box="generala", scratch=True)["view"]
    assert view["can_undo"] is False
    reply = call(session, op="undo")
    first, second = view["order"]
    assert reply["ok"] is False and reply["code"] == "undo.turn_passed"
    assert reply["params"] == {"side": first, "name": view["sides"][first]["name"],
                               "next_name": view["sides"][second]["name"]}
    assert reply["view"]["rows"][9]["cells"][first]["value"] == 0


def test_play_again_keeps_sides_and_options(session):
    call(session, op="new", variant="argentine", options={"served_bonus": 10}, sides=["Ana", "Beto"], seed=3)
    view = call(session, op="again")["view"]
    assert view["options"]["served_bonus"] == 10 and [s["name"] for s in view["sides"]] == ["Ana", "Beto"]


def test_bad_new_game_input_is_reported(session):
    reply = call(session, op="new", variant="argentine", sides=["<b>x</b>" * 5])
    assert reply["ok"] is False and "24" in reply["error"]
    reply = call(session, op="new", variant="nope", sides=["A"])
    assert reply["ok"] is False and "variants" in reply["error"]


def test_catalog_describes_every_variant_for_the_setup_form():
    cat = catalog()["variants"]
    assert set(cat) == {"argentine", "bulgarian", "puerto-rican", "double"}
    assert cat["argentine"]["options"][0] == {
        "name": "served_bonus", "default": 5, "values": [5, 10, 0], "type": "choice",
        "help": cat["argentine"]["options"][0]["help"]}
    assert cat["puerto-rican"]["options"][2]["type"] == "number"
    assert cat["double"]["dice"] == 10 and cat["bulgarian"]["mandatory"][0] == "ones"


def test_undo_never_takes_back_a_roll_nor_anything_once_the_game_is_over(session):
    call(session, op="new", variant="argentine", sides=["Ana"], seed=2)
    view = call(session, op="roll")["view"]
    assert view["can_undo"] is False
    reply = call(session, op="undo")
    assert reply["ok"] is False and reply["kind"] == "IllegalAction" and "roll" in reply["error"]
    assert reply["view"]["dice"] == view["dice"]
    assert call(session, op="hold", dice=[0])["view"]["can_undo"] is True
    assert call(session, op="undo")["view"]["held"] == [False] * 5
    while not view["over"]:
        if view["rolls"] == 0:
            view = call(session, op="roll")["view"]
            continue
        box = next(r["box"] for r in view["rows"] if r["cells"][0].get("playable"))
        view = call(session, op="score", box=box)["view"]
    assert view["can_undo"] is False
    reply = call(session, op="undo")
    assert reply["ok"] is False and "over" in reply["error"]


def test_catalog_lists_the_computer_levels_and_the_limits_the_page_enforces():
    from generala.modes import bundle
    from generala.rules import roller, sides
    from generala.ai import players
    cat = catalog()
    assert set(cat) == {"variants", "games", "levels", "limits"}
    assert sorted(cat["games"]) == sorted(cat["variants"])  # every game once, in the order shown
    assert [level["id"] for level in cat["levels"]] == list(players.LEVELS) == [
        "beginner", "heuristic", "optimal", "expert", "champion"]
    assert [level["player"] for level in cat["levels"]] == ["ai:beginner", "ai:heuristic", "ai:optimal", "ai:expert", "ai:champion"]
    assert [level["needs_table"] for level in cat["levels"]] == [False, False, True, True, True]
    assert cat["limits"] == {"sides": sides.MAX_SIDES, "name": sides.MAX_NAME, "seed": 2**63 - 1,
                             "file_bytes": bundle.MAX_BYTES}
    assert app.Session().handle({"op": "catalog"})["catalog"] == cat
    # the largest seed is taken, one more is refused, by the same limit
    assert call(app.Session(), op="new", seed=cat["limits"]["seed"])["ok"]
    reply = call(app.Session(), op="new", seed=cat["limits"]["seed"] + 1)
    assert reply["code"] == "request.field_range" and reply["params"]["max"] == roller.MAX_SEED
