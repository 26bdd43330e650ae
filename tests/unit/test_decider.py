"""The moment that decided a finished game (generala/seen/decider.py, the view's ``decider``),
read from real games of the four variants played to the end by the ``chase`` strategy
with seeded dice, one side to four: a served Generala or Big General that won at once,
the box that put the winner ahead for good, the box that drew level for a shared first
place, the best box (a lead kept from the first round, a one-side game)."""
import pytest

from generala import Game, ScriptedRoller, SeededRoller, app, variant
from generala.seen.decider import decider, turns
from generala.modes.replay import Replay
from generala.ai.strategies import chase, step

NAMES = ["Ana", "Beto", "Caro", "Dani"]


def played(variant_name, sides, seed):
    game = Game(variant(variant_name), NAMES[:sides], SeededRoller(seed))
    while not game.over:
        step(game, chase)
    return game


def moment(kind, side, round_, boxes, points, served=False, **more):
    return {"kind": kind, "side": side, "round": round_, "boxes": boxes, "points": points,
            "served": served, **more}


# (variant, sides, seed): the decider of that game, and the final totals (what the page shows)
REAL = {
    ("argentine", 2, 0): (moment("lead", 0, 9, ["generala"], 50), [126, 93]),
    ("argentine", 2, 22): (moment("level", 0, 8, ["threes"], 3), [122, 122]),
    ("argentine", 1, 0): (moment("best", 0, 7, ["four-kind"], 40), [78]),
    ("argentine", 3, 18): (moment("auto_win", 2, 9, ["generala"], None, True, win="served-generala"),
                           [97, 118, 81]),
    ("bulgarian", 2, 1): (moment("lead", 0, 6, ["fives"], 5), [88, 19]),
    # shared first place drawn level by Beto's -10 in Fives: no moment of points; the
    # winners' best box instead
    ("bulgarian", 2, 8): (moment("best", 1, 1, ["general"], 80), [87, 87]),
    ("bulgarian", 1, 0): (moment("best", 0, 1, ["chance"], 25), [0]),
    ("bulgarian", 3, 2): (moment("best", 2, 1, ["general"], 75), [37, 31, 63]),
    ("puerto-rican", 3, 18): (moment("auto_win", 2, 9, ["small-general"], None, True, win="big-general"),
                              [97, 118, 81]),
    ("puerto-rican", 2, 0): (moment("lead", 0, 9, ["small-general"], 60), [136, 93]),
    ("puerto-rican", 1, 3): (moment("best", 0, 3, ["four-kind"], 40), [82]),
    ("double", 1, 0): (moment("best", 0, 1, ["fours", "five-kind"], 58), [113]),
    ("double", 4, 33): (moment("level", 3, 5, ["twos", "big-general"], 4), [104, 125, 111, 125]),
    ("double", 2, 0): (moment("lead", 1, 2, ["sixes", "full-house"], 45), [123, 143]),
    ("double", 2, 1): (moment("best", 1, 2, ["fours", "five-kind"], 54), [116, 159]),
}


@pytest.mark.parametrize("key", list(REAL), ids=lambda k: "-".join(map(str, k)))
def test_the_moment_that_decided_real_games(key):
    game = played(*key)
    expected, totals = REAL[key]
    assert decider(game) == expected
    if totals is not None:
        assert game.totals() == totals


def leaders(totals):
    return {i for i, t in enumerate(totals) if t == max(totals)}


@pytest.mark.parametrize("variant_name", ["argentine", "bulgarian", "puerto-rican", "double"])
@pytest.mark.parametrize("sides", [1, 2, 3, 4])
def test_what_each_kind_says_holds_in_the_game(variant_name, sides):
    """Twelve games each: the moment is one of the game's turns (its side, round, boxes and
    points as the sheet has them), and it means what its kind says."""
    for seed in range(12):
        game = played(variant_name, sides, seed)
        found = decider(game)
        winners = {i for i, p in enumerate(game.ranking()) if p == 1}
        if game.auto_win is not None:
            assert found["kind"] == "auto_win" and found["side"] == game.auto_win["side"]
            assert found["win"] == game.auto_win["kind"] and found["points"] is None
            continue
        history = turns(game)
        assert history[-1]["totals"] == game.totals()
        k = next(k for k, t in enumerate(history) if {key: t[key] for key in found if key != "kind"}
                 == {key: found[key] for key in found if key != "kind"})
        turn = history[k]
        assert sum(game.sheets[turn["side"]][b] for b in turn["boxes"]) == turn["points"]
        assert turn["side"] in winners
        if found["kind"] in ("lead", "level"):
            # from this turn on the top is the winners', and not just before it
            assert all(leaders(t["totals"]) == winners for t in history[k:])
            assert k == 0 or leaders(history[k - 1]["totals"]) != winners
            assert turn["round"] > 1 and turn["points"] > 0
            assert (found["kind"] == "lead") == (len(winners) == 1)
        else:
            assert found["kind"] == "best"
            assert turn["points"] == max(t["points"] for t in history if t["side"] in winners)


def test_a_one_side_game_is_told_by_its_best_box_served_or_not():
    """Argentine Generala alone, one box a turn on the first roll: Four of a kind served
    (40 and the served bonus) is the best box, the full house served (35) the next."""
    plan = [([1, 1, 1, 2, 3], "ones"), ([2, 2, 2, 1, 3], "twos"), ([2, 2, 3, 3, 3], "full-house"),
            ([4, 4, 4, 1, 2], "fours"), ([5, 5, 5, 1, 2], "fives"), ([6, 6, 6, 1, 2], "sixes"),
            ([1, 2, 3, 4, 5], "straight"), ([3, 3, 3, 3, 1], "four-kind"), ([3, 1, 2, 4, 6], "threes"),
            ([1, 2, 3, 4, 6], "generala"), ([1, 2, 3, 4, 6], "double-generala")]
    game = Game(variant("argentine"), ["Ana"], ScriptedRoller([d for dice, _ in plan for d in dice]))
    for _, box in plan:
        game.roll()
        game.score(box, scratch=game.preview()[box] == 0)
    assert game.over and game.totals() == [162]
    assert decider(game) == moment("best", 0, 8, ["four-kind"], 45, served=True)


def test_no_moment_when_nothing_was_earned():
    """Every box written 0 by choice: the best box would be a 0, so nothing is told."""
    game = Game(variant("argentine"), ["Ana"], ScriptedRoller([1, 2, 3, 4, 6] * 11))
    for box in game.rules.categories:
        game.roll()
        game.score(box, scratch=True)
    assert game.over and game.totals() == [0]
    assert decider(game) is None


def test_a_served_generala_decides_at_once():
    s = app.Session()
    sides = [{"name": n, "members": [], "player": "human"} for n in ("Ana", "Beto")]
    s.game = Game(variant("argentine"), sides, ScriptedRoller([1, 1, 1, 1, 2, 6, 6, 6, 6, 5, 4, 4, 4, 4, 4]))
    assert s.handle({"op": "view"})["view"]["decider"] is None  # not over: nothing decided yet
    view = s.handle({"op": "roll"})["view"]
    assert view["over"]
    assert view["decider"] == moment("auto_win", 0, 1, ["generala"], None, True, win="served-generala")


def test_the_view_carries_the_moment_once_over_loaded_and_replayed():
    s = app.Session()
    sides = [{"name": n, "members": [], "player": "human"} for n in NAMES[:2]]
    reply = s.handle({"op": "new", "variant": "argentine", "options": {}, "sides": sides, "seed": 0})
    assert reply["view"]["decider"] is None
    while not s.game.over:
        step(s.game, chase)
    view = s.handle({"op": "view"})
    expected = REAL[("argentine", 2, 0)][0]
    assert view["view"]["decider"] == expected
    save = s.game.to_json()
    assert app.Session().handle({"op": "load", "save": save})["view"]["decider"] == expected
    replay = Replay(save)
    assert replay.view_at(replay.steps)["decider"] == expected
    assert replay.view_at(replay.steps - 1)["decider"] is None


def test_a_score_sheet_game_is_told_the_same_way():
    """Real dice entered by hand: the order given, no roller; the history is all there is."""
    s = app.Session()
    sides = [{"name": n, "members": [], "player": "human"} for n in ("Ana", "Beto")]
    s.handle({"op": "new", "variant": "puerto-rican", "options": {}, "sides": sides, "sheet": True})
    s.handle({"op": "enter", "dice": [3, 3, 3, 5, 5], "at": 3})
    s.handle({"op": "score", "box": "full-house"})
    view = s.handle({"op": "enter", "dice": [6, 6, 6, 6, 6], "at": 1})["view"]
    assert view["over"]
    assert view["decider"] == moment("auto_win", 1, 1, ["small-general"], None, True, win="big-general")
