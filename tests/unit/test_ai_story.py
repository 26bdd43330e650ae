"""A game's story in win chances (generala.ai.story): its points against the chances
computed at each box, its turning point and each person's costliest box, through the
app too."""
import pytest

from generala import Game, SeededRoller, app, variant
from generala.ai import chances as win
from generala.ai import story
from generala.ai.players import OptimalPlayer, WinningPlayer, step
from generala.ai.tables import table_for
from generala.rules.sides import Side

RULES = variant("argentine", served_generala_wins=False)


def played(rules=RULES, seed=3, sides=2):
    """A finished game: "Ana" (a person's side, played here by the optimal player) against
    computers."""
    table = table_for(rules)
    game = Game(rules, [Side("Ana")] + [Side(f"C{i}", player="ai:optimal") for i in range(sides - 1)],
                SeededRoller(seed))
    player = OptimalPlayer(rules, table)
    while not game.over:
        step(game, player)
    return game, table


def chances_after_each_box(game, table):
    fresh = Game(game.rules, game.sides, None, rolloff=False)
    setup = [a for a in game.history if "rolloff" in a or "order" in a]
    fresh.replay(setup)
    out = []
    for action in game.history[len(setup):]:
        fresh.apply(action)
        if "score" in action:
            out.append(win.chances(fresh, table))
    return out


@pytest.mark.parametrize("sides", [2, 3])
def test_each_point_is_the_chances_after_that_box(sides):
    game, table = played(sides=sides)
    told = story.story(game, table)
    want = chances_after_each_box(game, table)
    assert len(told["points"]) == len(want) == sides * RULES.turns
    for point, chances in zip(told["points"], want):
        assert point["chances"] == pytest.approx(chances, abs=1e-4)
        assert sum(point["chances"]) == pytest.approx(1.0, abs=1e-3)
    assert told["points"][-1]["chances"] == pytest.approx(win.finished(game))
    assert told["start"] == pytest.approx([1 / sides] * sides, abs=0.15)
    assert sum(told["start"]) == pytest.approx(1.0, abs=1e-3)


def test_the_turning_point_is_the_biggest_swing_of_its_own_side():
    game, table = played(seed=11)
    told = story.story(game, table)
    before = told["start"]
    swings = []
    for point in told["points"]:
        side = point["side"]
        swings.append(abs(point["chances"][side] - before[side]))
        before = point["chances"]
    turning = told["turning"]
    assert swings[turning["index"]] == pytest.approx(max(swings), abs=1e-4)
    point = told["points"][turning["index"]]
    assert (turning["side"], turning["round"], turning["boxes"]) == (point["side"], point["round"], point["boxes"])
    assert turning["cause"] in ("roll", "choice")


def bad_generala():
    """Ana (a person) rolls five fives in her third turn and writes them in Fives, with
    Generala open: the chance to win she gave away is her costliest box."""
    rules = RULES
    table = table_for(rules)
    game = Game(rules, [Side("Ana"), Side("Beto", player="ai:optimal")], SeededRoller(5))
    player = OptimalPlayer(rules, table)
    while game.round < 3 or game.current != 0:
        step(game, player)
    game.roll([5, 5, 5, 5, 5])
    valued = {tuple(c.boxes): u for c, u in WinningPlayer(rules, table).valued(game) if c.kind == "score"}
    game.score("fives")
    while not game.over:
        step(game, player)
    return game, table, valued


def test_a_persons_costliest_box_and_what_was_better():
    game, table, valued = bad_generala()
    told = story.story(game, table)
    (worst,) = [c for c in told["costliest"] if c["side"] == 0]
    assert (worst["round"], worst["boxes"]) == (3, ["fives"])
    best_boxes, best = max(valued.items(), key=lambda kv: kv[1])
    assert worst["best"] == list(best_boxes) and best_boxes != ("fives",)
    assert worst["cost"] == pytest.approx(best - valued[("fives",)], abs=1e-4)
    assert worst["cost"] > 0.02
    assert all(c["side"] == 0 for c in told["costliest"])  # a computer's boxes are not weighed


def test_telling_again_after_an_undo_tells_the_new_box():
    rules = RULES
    table = table_for(rules)
    game = Game(rules, [Side("Ana"), Side("Beto", player="ai:optimal")], SeededRoller(9))
    player = OptimalPlayer(rules, table)
    while game.current != 0:
        step(game, player)
    game.roll([6, 6, 6, 2, 3])
    game.score("sixes")
    index = sum("score" in a for a in game.history) - 1
    teller = story.Teller(table)
    first = teller.tell(game)
    assert teller.tell(game) == first
    game.undo()
    game.score("threes")
    again = teller.tell(game)
    assert first["points"][index]["boxes"] == ["sixes"]
    assert again["points"][index]["boxes"] == ["threes"]
    assert again["points"][index]["chances"] != first["points"][index]["chances"]
    assert again == story.Teller(table).tell(game)


def test_an_automatic_win_ends_the_story():
    rules = variant("argentine", served_generala_wins=True)
    table = table_for(rules)
    game = Game(rules, [Side("Ana"), Side("Beto")], SeededRoller(9))
    game.roll([2, 3, 4, 4, 1])
    game.score("fours")
    second = game.current
    game.roll([3, 3, 3, 3, 3])
    assert game.over and game.auto_win["side"] == second
    told = story.story(game, table)
    last = told["points"][-1]
    assert last["side"] == second and last["auto_win"] == game.auto_win["kind"]
    assert last["chances"][second] == 1.0 and last["chances"][1 - second] == 0.0
    assert told["turning"]["side"] == second and told["turning"]["after"] == 1.0


def test_the_app_tells_a_finished_game_and_not_a_lone_one():
    session = app.Session()
    reply = session.handle({"op": "new", "variant": "argentine", "seed": 3, "sides": [
        {"name": "Ana", "player": "ai:optimal"}, {"name": "Beto", "player": "ai:optimal"}]})
    assert reply["ok"], reply
    while not session.game.over:
        assert session.handle({"op": "ai"})["ok"]
    told = session.handle({"op": "story"})
    game = session.game
    boxes = sum("score" in a for a in game.history) + (game.auto_win is not None)
    assert told["ok"] and len(told["story"]["points"]) == boxes > 2
    assert told["story"]["costliest"] == []  # computers only
    alone = app.Session()
    alone.handle({"op": "new", "variant": "argentine", "sides": ["Ana"]})
    assert alone.handle({"op": "story"}) == {"story": None, "ok": True, "changed": False}


def test_with_an_opponent_the_coach_names_the_better_choice_for_the_win():
    """A costly move's reply: the chance given up, and the better choice is the hint's first
    (the best for the win), with its chance; the best move for the win is told best."""
    session = app.Session()
    session.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 4})
    session.handle({"op": "coach", "on": True})
    session.handle({"op": "roll"})
    hint = session.handle({"op": "hint", "top": 100})["hint"]
    worst, best = hint[-1], hint[0]
    assert worst["chance_loss"] >= 0.005 and not worst["chance_best"] and best["chance_best"]
    reply = session.handle(worst["request"])
    assert reply["chance_cost"] == pytest.approx(worst["chance_loss"], abs=2e-4)
    assert reply["chance_best"] is False
    assert reply["cost_better"]["request"] == best["request"]
    assert reply["cost_better"]["chance"] == best["chance"]
    again = app.Session()
    again.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 4})
    again.handle({"op": "coach", "on": True})
    again.handle({"op": "roll"})
    top = again.handle({"op": "hint", "top": 1})["hint"][0]
    reply = again.handle(top["request"])
    assert reply["chance_best"] is True and reply["chance_cost"] < 0.005
    assert "cost_better" not in reply


@pytest.mark.parametrize("name", ["argentine", "double", "bulgarian"])
def test_the_boxes_weighed_alone_are_the_play_to_win_players_values(name):
    """story weighs a person's boxes with WinningPlayer.box_values (no turn solved): the
    very values of its valued() for the score choices."""
    rules = variant(name)
    table = table_for(rules)
    game = Game(rules, ["Ana", "Beto"], SeededRoller(21))
    player = OptimalPlayer(rules, table)
    while game.turn < 5:
        step(game, player)
    game.roll()
    game.roll()
    winning = WinningPlayer(rules, table)
    whole = {c.boxes: u for c, u in winning.valued(game) if c.kind == "score"}
    alone = {c.boxes: u for c, u in WinningPlayer(rules, table).box_values(game)}
    assert whole and alone == whole
