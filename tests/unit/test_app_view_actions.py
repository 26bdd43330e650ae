"""The view is the one source of what can be done now: who acts (a person, or which
computer), and what the person at the board may do (roll, which dice to hold, which
boxes to fill, enter dice, undo). Property-based, for every variant, rolled and
score-sheet games, people and computers: each action the view offers is one the engine
takes, and each it does not offer is one the engine refuses (or one a computer plays)."""
import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generala import VARIANTS, app
from generala.rules.errors import GeneralaError
from generala.rules.save import dump

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STEPS = 25  # actions per game: the opening turns of every side, and some of the next


def takes(game, act):
    """Whether the engine takes ``act`` on (a copy of) the game."""
    try:
        act(copy.deepcopy(game))
        return True
    except GeneralaError:
        return False


def plans(game, *boxes, **how):
    try:
        game.plan_score(*boxes, **how)
        return True
    except GeneralaError:
        return False


#: Who plays each side, as the test writes its sides (not read back from the engine).
LEVEL = {"human": None, "ai:beginner": "beginner", "ai:heuristic": "heuristic"}


def undo_refusal(game):
    """The refusal of an undo now, on a copy (None when the engine takes it)."""
    try:
        copy.deepcopy(game).undo()
        return None
    except GeneralaError as err:
        return err.code


def check(view, game, players, makers):
    """The view's who-acts and may-do fields against facts the test keeps itself: who plays
    each side (``players``, as it asked for them), who made each history entry (``makers``:
    the request that made it was ``op ai``, or a person's), and the rule book's Undo (a hold
    or the box just filled, never a roll; once over, only a score-sheet game's last entry);
    the rest against what the engine takes."""
    sheet = view["sheet"]
    if game.over:
        assert view["acting"] is None
    else:
        assert view["acting"] == {"side": game.current, "bot": None,
                                  "computer": None if sheet else LEVEL[players[game.current]]}
    last, maker = (game.history[-1], makers[-1]) if game.history else ({}, None)
    # on one device a box is final once another person's turn has begun (hot-seat)
    passed = ("score" in last and not sheet and not game.over and len(players) > 1
              and players[game.current] == "human")
    undoable = (("hold" in last or "score" in last or "enter" in last) and maker == "person"
                and (sheet or not game.over) and not passed)
    assert view["can_undo"] == undoable, (last, maker)
    refused = undo_refusal(game)
    if undoable:
        assert refused is None
    elif passed and maker == "person":
        assert refused == "undo.turn_passed"
    elif maker == "computer" and ("hold" in last or "score" in last) and not game.over:
        assert refused == "undo.computer"  # the engine refuses it too, saying why
    else:
        assert refused is not None
    offered = [view["can_roll"], view["can_hold"], view["can_enter"], view["holdable"], view["scorable"]]
    playable = [r["box"] for r in view["rows"] for i, c in enumerate(r["cells"]) if c.get("playable")]
    if view["acting"] is None or view["acting"]["computer"] is not None:
        # a computer's turn, or the game is over: nothing, but the Undo above
        assert not any(offered) and not playable
        return
    assert playable == view["scorable"]  # the board's open cells are the boxes to fill
    assert view["can_roll"] == (not sheet and takes(game, lambda g: g.roll()))
    dice = game.rules.dice
    assert view["holdable"] == [i for i in range(dice) if not sheet and takes(game, lambda g, i=i: g.toggle(i))]
    assert view["can_hold"] == bool(view["holdable"])
    boxes = game.rules.categories
    if game.rules.boxes_per_turn == 1:
        fillable = [b for b in boxes if plans(game, b) or plans(game, b, scratch=True)]
        assert view["scorable"] == fillable
    else:
        fillable = [a for a in boxes if any(plans(game, a, b) for b in boxes if b != a)]
        assert view["scorable"] == fillable
    if view["can_enter"]:
        assert sheet and takes(game, lambda g: g.enter([1] * dice, 1))


def a_move(view, data):
    """A request for one of the actions the view offers (the computer's, on its turn, or
    the person's Undo before it starts)."""
    if view["acting"]["computer"] is not None:
        return data.draw(st.sampled_from([{"op": "ai"}, {"op": "undo"}] if view["can_undo"] else [{"op": "ai"}]))
    moves = []
    if view["can_roll"]:
        moves.append({"op": "roll"})
    if view["can_enter"]:
        moves.append({"op": "enter", "dice": [data.draw(st.integers(1, 6)) for _ in range(view["dice_count"])],
                      "at": 1})
    moves += [{"op": "toggle", "die": i} for i in view["holdable"]]
    if view["can_undo"]:
        moves.append({"op": "undo"})
    scorable = view["scorable"]
    if view["boxes_per_turn"] == 1:
        moves += [{"op": "score", "box": b} for b in scorable]
    elif len(scorable) >= 2:
        pair = data.draw(st.permutations(scorable))[:2]
        moves.append({"op": "score", "boxes": pair})
    return data.draw(st.sampled_from(moves))


@FAST
@given(st.sampled_from(VARIANTS), st.lists(st.sampled_from(["human", "ai:beginner", "ai:heuristic"]),
                                           min_size=1, max_size=4),
       st.booleans(), st.integers(0, 2**32), st.data())
def test_the_view_offers_exactly_what_the_engine_takes(name, players, sheet, seed, data):
    session = app.Session()
    sides = [{"name": f"P{i}", "members": [], "player": p} for i, p in enumerate(players)]
    req = {"op": "new", "variant": name, "sides": sides}
    req.update({"sheet": True} if sheet else {"seed": seed})
    reply = session.handle(req)
    assert reply["ok"], reply
    makers = ["setup"] * len(session.game.history)  # the roll-off, made by the game
    for _ in range(STEPS):
        view = reply["view"]
        check(view, session.game, players, makers)
        if view["over"]:
            break
        move = a_move(view, data)
        before = len(session.game.history)
        reply = session.handle(move)
        if not reply["ok"] and move["op"] == "score" and "boxes" in move:
            continue  # a pair the two-box rules refuse together: each box is still scorable
        assert reply["ok"], (move, reply)
        assert view["acting"]["computer"] is None or move["op"] in ("ai", "undo")
        after = len(session.game.history)
        if move["op"] == "undo":
            del makers[after:]
        else:
            makers += ["computer" if move["op"] == "ai" else "person"] * (after - before)
        assert len(makers) == after


def test_a_person_may_not_undo_the_box_a_computer_just_filled():
    session = app.Session()
    sides = [{"name": "Ana", "members": [], "player": "human"},
             {"name": "Bot", "members": [], "player": "ai:beginner"}]
    view = session.handle({"op": "new", "variant": "argentine", "sides": sides, "seed": 7})["view"]
    while view["acting"]["computer"] is None:  # the person plays a turn: roll, then fill a box
        view = session.handle({"op": "roll"} if view["can_roll"] and view["rolls"] == 0 else
                              {"op": "score", "box": view["scorable"][0]})["view"]
    assert view["acting"] == {"side": 1, "computer": "beginner", "bot": None} and not view["can_roll"]
    assert view["can_undo"]  # before the computer starts, the person may take the box back
    while view["acting"]["computer"] is not None:
        view = session.handle({"op": "ai"})["view"]
    assert not view["can_undo"] and not session.game.can_undo  # the computer's box stays
    reply = session.handle({"op": "undo"})
    assert (reply["code"], reply["params"]) == ("undo.computer", {"side": 1, "name": "Bot"})
    assert view["can_roll"] and view["acting"] == {"side": 0, "computer": None, "bot": None}
    assert dump(session.game)["history"][-1].get("score")


def test_undo_before_the_computer_starts_takes_back_the_persons_box():
    session = app.Session()
    sides = [{"name": "Ana", "members": [], "player": "human"},
             {"name": "Bot", "members": [], "player": "ai:beginner"}]
    view = session.handle({"op": "new", "variant": "argentine", "sides": sides, "seed": 7})["view"]
    view = session.handle({"op": "roll"})["view"]
    box = view["scorable"][0]
    dice = view["dice"]
    view = session.handle({"op": "score", "box": box})["view"]
    assert view["acting"]["computer"] == "beginner" and view["can_undo"]
    view = session.handle({"op": "undo"})["view"]
    assert view["acting"] == {"side": 0, "computer": None, "bot": None} and view["dice"] == dice
    assert box in view["scorable"] and view["rolls_left"] == 2 and view["can_roll"]
    # once the computer has rolled, the person's box is its own no more
    view = session.handle({"op": "score", "box": box})["view"]
    view = session.handle({"op": "ai"})["view"]  # the computer's first step: its roll
    assert view["acting"]["computer"] == "beginner" and view["rolls"] == 1 and not view["can_undo"]
    assert not session.handle({"op": "undo"})["ok"]
