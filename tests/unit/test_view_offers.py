"""What the engine says the page may offer around the board, so that the page decides none
of it: the hint and the coach (the view's ``help``: not in a daily challenge in play), the
report (``can_report``: a finished game, not a score-sheet one), whether a move was made
(``moves``), whether the dice are served (``served``, the ``enter`` event's), the rolls a
score-sheet entry may name (``entry_rolls``), which choice is the best (``is_best`` of a
hint's choice and of a report's decision, a move's ``cost_best``: under ``BEST_LOSS``), and
the fewest sides each computer level is offered in (the catalog's ``min_sides``)."""
from generala import app
from generala.ai.players import LEVELS, ExpertPlayer, WinningPlayer
from generala.catalog import catalog
from generala.modes import daily

DAY = "2026-12-01"


def play_to_the_end(s):
    """Roll once and fill the last open box, until the game is over: each reply kept."""
    replies = []
    while not s.game.over:
        replies.append(s.handle({"op": "roll"}))
        view = s.handle({"op": "view"})["view"]
        cell = next(r["cells"][view["current"]] for r in view["rows"] if r["box"] == view["scorable"][-1])
        replies.append(s.handle(cell["request"]))
    return replies


def test_a_daily_challenge_offers_no_help_until_it_is_over_as_its_refusals_say():
    s = app.Session()
    view = s.handle({"op": "daily", "variant": "argentine", "date": DAY, "today": DAY})["view"]
    assert view["help"] is False and view["can_report"] is False
    assert s.handle({"op": "hint"})["code"] == "daily.no_help"  # what the view says, the engine does
    play_to_the_end(s)
    view = s.handle({"op": "view"})["view"]
    assert view["over"] and view["help"] is True and view["can_report"] is True
    daily.refuse_help(s.game)  # no refusal once it is over
    assert s.handle({"op": "report"})["ok"]


def test_a_game_offers_help_always_and_its_report_once_over():
    s = app.Session()
    view = s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 3})["view"]
    assert view["help"] is True and view["can_report"] is False and view["moves"] == 0
    assert view["entry_rolls"] == []  # dice rolled here: nothing is entered
    replies = play_to_the_end(s)
    assert [r["view"]["moves"] for r in replies[:3]] == [1, 2, 3]
    assert replies[-1]["view"]["can_report"] is True


def test_a_score_sheet_game_enters_rolls_one_to_three_says_served_and_has_no_report():
    s = app.Session()
    view = s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "sheet": True})["view"]
    assert view["entry_rolls"] == [1, 2, 3] and view["served"] is False and view["moves"] == 0
    reply = s.handle({"op": "enter", "dice": [2, 2, 3, 5, 6], "at": 1})
    assert reply["view"]["served"] is True
    assert [e["served"] for e in reply["view"]["events"] if e["kind"] == "enter"] == [True]
    view = s.handle({"op": "view"})["view"]
    cell = next(r["cells"][0] for r in view["rows"] if r["box"] == view["scorable"][-1])
    s.handle(cell["request"])
    reply = s.handle({"op": "enter", "dice": [2, 2, 3, 5, 6], "at": 3})
    assert reply["view"]["served"] is False
    assert [e["served"] for e in reply["view"]["events"] if e["kind"] == "enter"] == [False]
    while not s.game.over:
        view = s.handle({"op": "view"})["view"]
        if view["can_enter"]:
            s.handle({"op": "enter", "dice": [1, 2, 3, 4, 6], "at": 2})
            continue
        cell = next(r["cells"][0] for r in view["rows"] if r["box"] == view["scorable"][-1])
        s.handle(cell["request"])
    view = s.handle({"op": "view"})["view"]
    assert view["over"] and view["can_report"] is False and view["help"] is True


def test_the_best_choices_are_marked_by_the_engine():
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 7})
    s.handle({"op": "roll"})
    hint = s.handle({"op": "hint", "top": 5})["hint"]
    assert hint[0]["is_best"] is True
    assert [c["is_best"] for c in hint] == [c["loss"] < app.BEST_LOSS for c in hint]
    assert not all(c["is_best"] for c in hint)  # a worse choice is not marked
    s.handle({"op": "coach", "on": True})
    worst = s.handle(hint[-1]["request"])
    assert worst["cost"] >= app.BEST_LOSS and worst["cost_best"] is False
    while not s.game.over:  # the rest played as the hint says: best decisions
        if s.handle({"op": "view"})["view"]["can_roll"] and s.game.rolls == 0:
            s.handle({"op": "roll"})
        s.handle(s.handle({"op": "hint", "top": 1})["hint"][0]["request"])
    decisions = s.handle({"op": "report"})["report"]["sides"][0]["decisions"]
    assert {d["is_best"] for d in decisions} == {True, False}
    assert all(d["is_best"] == (d["loss"] < app.BEST_LOSS) for d in decisions)


def test_a_best_move_costs_nothing_and_says_so():
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 7})
    s.handle({"op": "coach", "on": True})
    s.handle({"op": "roll"})
    best = s.handle({"op": "hint", "top": 1})["hint"][0]
    reply = s.handle(best["request"])
    assert reply["cost"] < app.BEST_LOSS and reply["cost_best"] is True


def test_the_catalog_says_the_fewest_sides_of_each_level():
    levels = {level["id"]: level["min_sides"] for level in catalog()["levels"]}
    to_win = (ExpertPlayer, WinningPlayer)
    assert levels == {name: 2 if issubclass(cls, to_win) else 1 for name, cls in LEVELS.items()}
    # the ones that play to win need a side to beat
    assert levels["expert"] == levels["champion"] == 2 and levels["heuristic"] == 1
