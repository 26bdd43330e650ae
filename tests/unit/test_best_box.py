"""The one box the board marks as best (the view's "best", generala/seen/view.py best_box)
and the coach's better choice named with a move's cost (the reply's "cost_better").

Without the coach the best box earns the most points now; with the coach on it is the
coach's (the highest expected final score: the basis of a move's cost), so that scoring it
never costs anything; when no box earns anything, it is the box best given up."""
import pytest

from generala import Game, ScriptedRoller, app, variant
from generala.ai import coach
from generala.seen.view import _best_of, view

SIDES = [{"name": "Ana", "player": "human"}, {"name": "Beto", "player": "human"}]


def session(name="bulgarian", seed=7, coach_on=False, sides=SIDES):
    s = app.Session()
    assert s.handle({"op": "new", "variant": name, "sides": sides, "seed": seed})["ok"]
    if coach_on:
        assert s.handle({"op": "coach", "on": True})["ok"]
    return s


def previews(v):
    cur = v["current"]
    return {r["box"]: r["cells"][cur]["preview"] for r in v["rows"] if r["cells"][cur].get("playable")}


@pytest.mark.parametrize("name", ["argentine", "puerto-rican", "bulgarian"])
@pytest.mark.parametrize("seed", [1, 7, 12])
def test_without_the_coach_the_best_box_earns_the_most_points(name, seed):
    s = session(name, seed)
    for _ in range(3):
        v = s.handle({"op": "roll"})["view"]
        if v["over"]:
            return
        shown = previews(v)
        top = max(shown.values())
        assert v["best"]["box"] == next(b for b in shown if shown[b] == top)  # the first in sheet order
        assert v["best"]["why"] == ("points" if top > 0 else "give_up")


@pytest.mark.parametrize("name", ["argentine", "puerto-rican", "bulgarian"])
def test_with_the_coach_the_best_box_is_the_one_that_costs_nothing(name):
    s = session(name, 7, coach_on=True)
    for roll in range(3):
        v = s.handle({"op": "roll"})["view"]
        if v["over"]:
            return
        best = v["best"]
        assert best["why"] in ("game", "give_up")
        game = s.game
        costs = {box: coach.cost(game, game.fill_action(box).to_json()) for box in previews(v)}
        low = min(costs.values())
        assert costs[best["box"]] == pytest.approx(low, abs=1e-9), (roll, best, costs)


def test_the_coach_and_the_points_may_disagree_and_the_view_follows_the_coach():
    """Генерал, seed 7, the first roll [6, 1, 1, 3, 2]: Chance earns most (13), the coach
    scores Ones (the expected final score): the star goes where the coach's cost is 0."""
    plain, coached = session(), session(coach_on=True)
    a = plain.handle({"op": "roll"})["view"]
    b = coached.handle({"op": "roll"})["view"]
    assert a["dice"] == b["dice"] == [6, 1, 1, 3, 2]
    assert a["best"] == {"box": "chance", "why": "points"}
    assert b["best"] == {"box": "ones", "why": "game"}


def test_the_coach_switched_on_or_off_mid_turn_answers_the_view_its_best_box_now():
    """The same roll: switching the coach answers the game's view, its star the coach's
    when on and the most points' again when off (the page draws it at once)."""
    s = session()
    assert "view" not in app.Session().handle({"op": "coach", "on": True})  # no game: no view
    rolled = s.handle({"op": "roll"})["view"]
    assert rolled["best"] == {"box": "chance", "why": "points"}
    on = s.handle({"op": "coach", "on": True})
    assert on["ok"] and on["coach"] is True and not on["changed"]
    assert on["view"]["dice"] == rolled["dice"] and on["view"]["best"] == {"box": "ones", "why": "game"}
    off = s.handle({"op": "coach", "on": False})
    assert off["view"]["best"] == {"box": "chance", "why": "points"}


def test_when_no_box_earns_anything_the_best_is_the_box_to_give_up():
    """Generala, numbers all filled, five dice that make nothing: every box would be 0;
    the board marks the box that could ever earn least (no coach), the coach's with it."""
    rules = variant("argentine")
    game = Game(rules, ["Ana"], ScriptedRoller([1, 2, 3, 5, 6]))
    for box in ("ones", "twos", "threes", "fours", "fives", "sixes"):
        game.sheets[0][box] = 3
    game.roll()
    v = view(game)
    shown = previews(v)
    assert max(shown.values()) == 0
    assert v["best"]["why"] == "give_up"
    assert v["best"]["box"] == min(shown, key=lambda b: _best_of(rules, b))
    coached = view(game, advisor=coach.advisor(rules))
    assert coached["best"]["why"] == "give_up"
    costs = {box: coach.cost(game, game.fill_action(box).to_json()) for box in shown}
    assert costs[coached["best"]["box"]] == pytest.approx(min(costs.values()), abs=1e-9)


def test_no_best_box_before_the_roll_for_ten_dice_or_a_computer():
    s = session()
    assert s.handle({"op": "view"})["view"]["best"] is None  # no dice yet
    s = session("double")
    assert s.handle({"op": "roll"})["view"]["best"] is None  # ten dice: the pairs say it
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "seed": 1,  # the computer starts
              "sides": [{"name": "Bot", "player": "ai:beginner"}, {"name": "Ana", "player": "human"}]})
    v = s.handle({"op": "ai"})["view"]
    assert v["acting"]["computer"] == "beginner" and v["dice"] is not None and v["best"] is None


def test_a_costly_move_names_the_better_choice_and_the_best_move_does_not():
    """Alone, in points (with an opponent the better choice is the one for the win:
    test_ai_story.py)."""
    s = session("argentine", 7, coach_on=True, sides=SIDES[:1])
    for _ in range(3):
        v = s.handle({"op": "roll"})["view"]
    best = v["best"]["box"]
    worst = max((b for b in previews(v)), key=lambda b: coach.cost(s.game, s.game.fill_action(b).to_json()))
    assert worst != best
    other = session("argentine", 7, coach_on=True, sides=SIDES[:1])
    for _ in range(3):
        other.handle({"op": "roll"})
    reply = s.handle(next(r["cells"][v["current"]]["request"] for r in v["rows"] if r["box"] == worst))
    assert reply["cost"] > 0 and not reply["cost_best"]
    assert reply["cost_better"]["kind"] == "score" and reply["cost_better"]["boxes"] == [best]
    good = other.handle(next(r["cells"][v["current"]]["request"] for r in v["rows"] if r["box"] == best))
    assert good["cost_best"] and "cost_better" not in good


def test_a_costly_roll_names_the_better_choice():
    """Re-rolling everything when holding is better: the better choice is the coach's best
    (alone: in points)."""
    s = session("argentine", 7, coach_on=True, sides=SIDES[:1])
    s.handle({"op": "roll"})
    expected = coach.best_choice(s.game)
    reply = s.handle({"op": "roll", "hold": []})
    if reply.get("cost_best"):
        assert "cost_better" not in reply
    else:
        assert reply["cost_better"] == expected
