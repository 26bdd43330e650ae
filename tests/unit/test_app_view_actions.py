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


def level(game, side, sheet):
    player = game.sides[side].player
    return player[3:] if player.startswith("ai:") and not sheet else None


def check(view, game):
    """The view's who-acts and may-do fields against the engine itself."""
    sheet = view["sheet"]
    if game.over:
        assert view["acting"] is None
    else:
        assert view["acting"] == {"side": game.current, "computer": level(game, game.current, sheet),
                                  "bot": None}
    offered = [view["can_roll"], view["can_hold"], view["can_enter"], view["can_undo"],
               view["holdable"], view["scorable"]]
    playable = [r["box"] for r in view["rows"] for i, c in enumerate(r["cells"]) if c.get("playable")]
    if view["acting"] is None or view["acting"]["computer"] is not None:
        # a computer's turn, or the game is over: nothing, but for the Undo of the box the
        # person before the computer just filled (before the computer's first roll)
        assert not any(offered[:3] + offered[4:]) and not playable
        if view["can_undo"] and view["acting"] is None:
            # over: a score-sheet game's last entry may still be undone (RULES.md, Undo)
            assert sheet and game.over and takes(game, lambda g: g.undo())
        elif view["can_undo"]:
            order = game.order
            previous = order[(order.index(game.current) - 1) % len(order)]
            assert view["acting"] is not None and game.rolls == 0 and level(game, previous, sheet) is None
            assert takes(game, lambda g: g.undo())
        else:
            assert not (view["acting"] is not None and game.rolls == 0 and game.can_undo
                        and level(game, game.order[(game.order.index(game.current) - 1) % len(game.order)],
                                  sheet) is None)
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
    if view["can_undo"]:
        assert takes(game, lambda g: g.undo())
    elif game.can_undo:  # the engine would take it back, but it is a computer's move
        order = game.order
        previous = order[(order.index(game.current) - 1) % len(order)]
        assert game.rolls == 0 and level(game, previous, sheet) is not None


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
    for _ in range(STEPS):
        view = reply["view"]
        check(view, session.game)
        if view["over"]:
            break
        move = a_move(view, data)
        reply = session.handle(move)
        if not reply["ok"] and move["op"] == "score" and "boxes" in move:
            continue  # a pair the two-box rules refuse together: each box is still scorable
        assert reply["ok"], (move, reply)
        assert view["acting"]["computer"] is None or move["op"] in ("ai", "undo")


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
    assert session.game.can_undo and not view["can_undo"]  # the engine could; the person may not
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
