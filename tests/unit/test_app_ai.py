"""Computer players, hints and the coach through the worker protocol."""
import pytest

from generala import Game, app
from generala.ai import coach, tables


def new(session, sides, **extra):
    return session.handle({"op": "new", "variant": "argentine", "sides": sides, "seed": 5, **extra})


def test_two_computer_players_play_a_game_to_the_end():
    session = app.Session()
    new(session, [{"name": "Bot A", "player": "ai:optimal"}, {"name": "Bot B", "player": "ai:beginner"}])
    for _ in range(2000):
        reply = session.handle({"op": "ai"})
        assert reply["ok"], reply
        assert reply["action"] == {k: v for k, v in reply["action"].items()}
        if reply["view"]["over"]:
            break
    assert session.game.over
    loaded = Game.from_json(reply["save"])
    assert loaded.totals() == session.game.totals()


def test_ai_refuses_to_play_for_a_person():
    session = app.Session()
    new(session, ["Ana"])
    reply = session.handle({"op": "ai"})
    assert reply["ok"] is False and "person" in reply["error"]


def test_unknown_level_is_reported():
    session = app.Session()
    new(session, [{"name": "Bot", "player": "ai:genius"}])
    reply = session.handle({"op": "ai"})
    assert reply["ok"] is False and "genius" in reply["error"]


def test_hint_values_are_the_coachs():
    session = app.Session()
    new(session, ["Ana"])
    session.handle({"op": "roll"})
    hint = session.handle({"op": "hint", "top": 3})["hint"]
    # the coach's choices, each marked best by the engine when it loses less than BEST_LOSS
    assert hint == [dict(c, is_best=c["loss"] < app.BEST_LOSS) for c in coach.hint(session.game, top=3)]
    assert hint[0]["is_best"] is True
    assert hint[0]["loss"] == 0 and hint[0]["expected"] >= hint[-1]["expected"]


def test_coach_reports_the_cost_of_each_human_decision():
    session = app.Session()
    new(session, ["Ana"])
    session.handle({"op": "coach", "on": True})
    session.handle({"op": "roll"})
    choices = session.handle({"op": "hint", "top": 1000})["hint"]
    bad = next(c for c in reversed(choices) if c["kind"] == "score" and not c["action"].get("scratch"))
    assert bad["loss"] > 0
    reply = session.handle({"op": "score", "box": bad["boxes"][0]})
    assert reply["cost"] == pytest.approx(bad["loss"], abs=1e-3)
    assert session.handle({"op": "coach", "on": False})["coach"] is False
    session.handle({"op": "roll"})
    assert "cost" not in session.handle({"op": "score", "box": "ones"})


def test_house_options_without_a_shipped_table_are_solved_in_slices():
    session = app.Session()
    session.handle({"op": "new", "variant": "puerto-rican", "options": {"aces_wild": False},
                    "sides": ["Ana"], "seed": 1})
    solo = tables.solitaire_rules(session.game.rules)
    tables.forget(solo)
    reply = session.handle({"op": "hint"})
    assert reply["kind"] == "NeedTable" and reply["table"].startswith("puerto-rican.")
    steps = []
    while True:
        reply = session.handle({"op": "solve", "budget_ms": 50})
        steps.append(reply["progress"])
        if reply["done"]:
            break
    assert len(steps) > 1 and steps[-1][0] == steps[-1][1]
    assert [s[0] for s in steps] == sorted(s[0] for s in steps)
    assert all(done < total for done, total in steps[:-1])
    assert session.handle({"op": "hint"})["ok"]
    # the slices are the one solve: the same values as solving at once
    from generala.ai import solver
    assert tables.cached(solo).V == solver.solve(solo).V


def test_post_game_report_has_skill_and_luck():
    session = app.Session()
    new(session, [{"name": "Bot", "player": "ai:heuristic"}])
    while not session.game.over:
        session.handle({"op": "ai"})
    report = session.handle({"op": "report"})["report"]
    side = report["sides"][0]
    assert side["final"] == session.game.totals()[0]
    assert side["skill_loss"] >= 0
    assert side["luck"] == pytest.approx(side["final"] - side["start"] + side["skill_loss"], abs=1e-3)


def test_a_move_never_waits_for_a_missing_coach_table():
    session = app.Session()
    session.handle({"op": "new", "variant": "argentine", "options": {"generala_points": 60},
                    "sides": ["Ana"], "seed": 2})
    tables.forget(session.game.rules)
    session.handle({"op": "coach", "on": True})
    assert session.handle({"op": "roll"})["ok"]
    reply = session.handle({"op": "score", "box": "sixes"})
    assert reply["ok"] and "cost" not in reply


@pytest.mark.parametrize("variant, seed", [("argentine", 5), ("argentine", 11), ("double", 3)])
def test_each_hint_carries_the_one_request_that_plays_it(variant, seed):
    """A hint's ``request``, sent as it is, makes the game its ``action`` says: a hold is
    "keep these, roll the rest" (the hold, then the roll, in the history); a box is filled
    as the action writes it. Checked against the game the action is applied to."""
    import copy
    session = app.Session()
    session.handle({"op": "new", "variant": variant, "sides": ["Ana"], "seed": seed})
    session.handle({"op": "roll"})
    for _ in range(3):  # three points of the turn: after the first, second and third roll
        hints = session.handle({"op": "hint", "top": 5})["hint"]
        assert hints and all(h["request"]["op"] in ("roll", "score") for h in hints)
        for h in hints:
            expected = copy.deepcopy(session.game)
            action = h["action"]
            if "hold" in action:
                assert h["request"] == {"op": "roll", "hold": action["hold"]}
                expected.apply(action)
                expected.apply({"roll": None})
            else:
                expected.apply(action)
            trial = copy.deepcopy(session)
            reply = trial.handle(h["request"])
            assert reply["ok"], (h, reply)
            assert trial.game.history == expected.history
        moves = [h for h in hints if h["kind"] == "hold"]
        if not moves:
            break
        session.handle(moves[0]["request"])


def test_keep_and_roll_is_one_move_or_none():
    """op roll with ``hold``: refused as a whole (nothing held) when the roll would be."""
    session = app.Session()
    new(session, ["Ana"])
    session.handle({"op": "roll"})
    history = list(session.game.history)
    for hold, code in (([0, 1, 2, 3, 4], "roll.all_held"), ([0, 9], "hold.position")):
        reply = session.handle({"op": "roll", "hold": hold})
        assert reply["code"] == code and session.game.history == history
    reply = session.handle({"op": "roll", "hold": [4, 1]})
    assert reply["ok"] and [e for e in session.game.history[len(history):] if "hold" in e] == [{"hold": [1, 4]}]
    assert reply["view"]["events"][0]["rolled"] == [0, 2, 3]  # the dice kept were not thrown


def test_pricing_a_move_finds_the_rules_table_once(monkeypatch):
    """The coach prices each move of a game from the table found for its rules the first
    time: the rules are turned into the solver's rules and the table's file named once."""
    from generala.ai import solver
    session = app.Session()
    new(session, ["Ana"])
    session.handle({"op": "coach", "on": True})
    session.handle({"op": "roll"})
    assert "cost" in session.handle({"op": "roll"})  # the table is found: moves are priced
    calls = []
    for name in ("solitaire_rules", "table_name"):
        real = getattr(tables, name)
        monkeypatch.setattr(tables, name, lambda rules, real=real, name=name: calls.append(name) or real(rules))
        monkeypatch.setattr(solver, name, getattr(tables, name))
    reply = session.handle({"op": "score", "box": "ones"})
    assert reply["ok"] and "cost" in reply
    session.handle({"op": "roll"})
    assert "cost" in session.handle({"op": "roll", "hold": [0]})
    assert calls == []
