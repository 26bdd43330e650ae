"""The daily challenge (generala/modes/daily.py): the seed of a day, the stream of dice, perfect
play on it, the end's figures, the history and streak, and the share text in four languages
as the page words it (static/ui/screens/daily_share.py)."""
import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tools import ui_modules  # noqa: E402

sys.path[:0] = [str(ui_modules.UI)]

from screens import daily_share  # noqa: E402
from words import words  # noqa: E402
from generala import app  # noqa: E402
from generala.modes import daily  # noqa: E402
from generala.ai import players  # noqa: E402
from generala.catalog import catalog  # noqa: E402
from generala.rules.errors import IllegalAction, InvalidInput, SaveError  # noqa: E402
from generala.rules.game import Game  # noqa: E402
from generala.rules.save import dump  # noqa: E402

DAY = "2026-12-01"
words.use_catalog(catalog())  # as the page does: the games' English titles from the catalog
SHARE = ROOT / "tests" / "data" / "daily"
VARIANTS = ("argentine", "bulgarian", "puerto-rican", "double")

# The seed and first ten dice of the stream of each game on DAY: the same on any machine
# (SHA-256 and splitmix64, no platform's random).
GOLDEN_DICE = {
    "argentine": (8119478722401758669, (5, 3, 4, 4, 1, 6, 2, 3, 4, 5)),
    "bulgarian": (3772761557402969891, (5, 5, 5, 3, 6, 5, 2, 2, 5, 3)),
    "puerto-rican": (1827488919674785984, (6, 2, 1, 1, 6, 1, 4, 5, 6, 1)),
    "double": (6227152002250450189, (2, 5, 1, 4, 3, 2, 6, 1, 5, 6)),
}
# What the optimal player scores on each stream of DAY, and how many rolls it makes.
GOLDEN_PERFECT = {"argentine": (126, 32), "bulgarian": (183, 44), "puerto-rican": (126, 29),
                  "double": (191, 15)}


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_date_and_game_give_the_same_dice_on_any_machine(variant):
    seed, dice = GOLDEN_DICE[variant]
    text = "generala-daily/v1/%s/%s" % (variant, DAY)
    assert daily.seed(variant, DAY) == int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
    assert daily.seed(variant, DAY) == seed
    assert daily.roller(variant, DAY).draw(10, 0) == dice
    game = daily.new_game(variant, DAY, DAY)
    assert game.roll() == dice[:game.rules.dice]


def test_days_and_games_have_their_own_seeds():
    seeds = {daily.seed(v, d) for v in VARIANTS for d in ("2026-12-01", "2026-12-02", "2027-12-01")}
    assert len(seeds) == 12


@pytest.mark.parametrize("bad", ["2026-2-1", "2026-02-30", "01-12-2026", "", None, 20261201, "2026-12-01x"])
def test_a_date_that_is_not_a_day_is_refused(bad):
    with pytest.raises(InvalidInput) as err:
        daily.seed("argentine", bad)
    assert err.value.code == "daily.date"


def test_holds_decide_which_dice_of_the_stream_a_player_sees():
    """The n-th die thrown that day is the same for everyone: two players who hold the
    same see the same dice; one who holds another number of dice sees later dice."""
    stream = daily.roller("argentine", DAY).draw(15, 0)
    a, b, c = (daily.new_game("argentine", DAY, DAY) for _ in range(3))
    for g in (a, b, c):
        assert g.roll() == stream[:5]
    a.hold([0]); b.hold([0]); c.hold([0, 2, 3])
    assert a.roll() == b.roll() == (stream[0],) + stream[5:9]
    assert c.roll() == (stream[0], stream[5], stream[2], stream[3], stream[6])


@pytest.mark.parametrize("variant", VARIANTS)
def test_perfect_play_on_a_days_dice_is_deterministic_and_golden(variant):
    daily._perfect.clear()
    first = daily.perfect(variant, DAY)
    daily._perfect.clear()
    again = daily.perfect(variant, DAY)
    assert first == again
    assert (first["score"], first["rolls"]) == GOLDEN_PERFECT[variant]
    # its history is a legal game of that day's stream: it loads, checked by the seed
    doc = dump(daily.new_game(variant, DAY))
    doc["history"] = first["history"]
    assert Game.from_json(doc).totals() == [first["score"]]


def test_a_challenge_has_no_undo_and_no_help_until_it_is_over():
    s = app.Session()
    reply = s.handle({"op": "daily", "variant": "argentine", "date": DAY, "today": DAY, "name": "Tú"})
    assert reply["ok"] and reply["view"]["daily"] == {"date": DAY, "late": False, "again": False}
    assert reply["view"]["sides"][0]["name"] == "Tú"
    assert reply["view"]["sides"][0]["player"] == "human"
    # the standard options, the automatic win off
    assert reply["view"]["options"] == {**daily.variant("argentine").options, "served_generala_wins": False}
    s.handle({"op": "roll"})
    s.handle({"op": "hold", "dice": [0]})
    assert s.handle({"op": "view"})["view"]["can_undo"] is False
    assert s.handle({"op": "undo"})["code"] == "daily.no_undo"
    assert s.handle({"op": "hint"})["code"] == "daily.no_help"
    assert s.handle({"op": "report"})["code"] == "daily.no_help"
    s.handle({"op": "coach", "on": True})
    box = s.handle({"op": "view"})["view"]["rows"][0]["cells"][0]["request"]
    assert "cost" not in s.handle(box)  # the coach says nothing while it is played
    assert s.handle({"op": "daily_result"})["code"] == "daily.unfinished"


def play_out(game, level="heuristic"):
    players.play(game, [players.make_player(level, game.rules)])
    return game


def test_the_end_tells_score_expected_perfect_and_each_turns_loss():
    s = app.Session()
    s.handle({"op": "daily", "variant": "puerto-rican", "date": DAY, "today": DAY})
    play_out(s.game)
    reply = s.handle({"op": "daily_result"})
    assert reply["ok"], reply
    result = reply["result"]
    assert result["score"] == s.game.totals()[0]
    assert result["perfect"] == GOLDEN_PERFECT["puerto-rican"][0]
    assert 150 < result["expected"] < 165
    assert len(result["turns"]) == 10 and [t["turn"] for t in result["turns"]] == list(range(1, 11))
    assert result["skill_loss"] == pytest.approx(sum(t["loss"] for t in result["turns"]), abs=0.06)
    assert [m["box"] for m in result["marks"]] == list(s.game.rules.categories)
    assert s.handle({"op": "again"})["code"] == "daily.again"
    # a finished challenge gives its hints and report
    assert s.handle({"op": "report"})["ok"]


def test_the_optimal_player_loses_nothing_and_fills_well():
    game = play_out(daily.new_game("argentine", DAY, DAY), "optimal")
    result = daily.result(game)
    assert result["score"] == result["perfect"]
    assert result["skill_loss"] == 0
    assert {m["mark"] for m in result["marks"]} <= {"well", "scratched"}


def test_a_saved_challenge_loads_as_one_and_cannot_be_changed_into_another():
    game = daily.new_game("argentine", DAY, "2026-12-03")
    game.roll()
    doc = dump(game)
    assert doc["daily"] == {"date": DAY, "late": True}
    loaded = Game.from_json(json.loads(json.dumps(doc)))
    assert loaded.daily == {"date": DAY, "late": True} and not loaded.can_undo
    for change in ({"daily": {"date": "2026-12-02", "late": True}},  # another day's seed
                   {"daily": {"date": DAY}},
                   {"daily": "yes"},
                   {"daily": {"date": DAY, "late": True, "again": False}},
                   {"options": {**doc["options"], "ace_as_two": True}},
                   {"options": {**doc["options"], "served_generala_wins": True, "ace_as_two": True}},
                   {"sides": [{"name": "You", "members": ["You"], "player": "ai:optimal"}]}):
        with pytest.raises(SaveError) as err:
            Game.from_json({**doc, **change})
        assert err.value.code in ("save.daily", "save.dice_edited"), change


def entry(gid, game):
    return {"id": gid, "save": dump(game), "when": "x"}


def finished(variant, date, today):
    return play_out(daily.new_game(variant, date, today))


def test_history_gives_todays_status_of_each_game_and_the_streak():
    day1, day2, day3 = "2026-12-01", "2026-12-02", "2026-12-03"
    started = daily.new_game("double", day3, day3)
    started.roll()
    entries = [entry("a", finished("argentine", day1, day1)),
               entry("b", finished("puerto-rican", day2, day2)),
               entry("c", finished("argentine", day3, day3)),
               entry("d", started),
               {"id": "junk", "save": {"daily": 1}},
               entry("e", Game(daily.variant("argentine"), ["Ana"]))]  # not a challenge
    got = daily.history(entries, day3)
    assert got["streak"] == 3 and got["best_streak"] == 3
    assert got["games"]["argentine"]["status"] == "done"
    assert got["games"]["argentine"]["score"] == Game.from_json(entries[2]["save"]).totals()[0]
    assert got["games"]["double"] == {"status": "playing", "id": "d", "score": None, "again": False}
    assert got["games"]["bulgarian"]["status"] == "new"
    assert [d["id"] for d in got["days"]] == ["d", "c", "b", "a"]
    # today not played yet: the streak still stands on yesterday
    assert daily.history(entries[:3], "2026-12-04")["streak"] == 3
    # a missed day breaks it
    assert daily.history(entries[:3], "2026-12-05")["streak"] == 0
    assert daily.history(entries[:3], "2026-12-05")["best_streak"] == 3
    # a late challenge does not count
    late = [entries[0], entry("l", finished("argentine", day2, day3)), entries[2]]
    assert daily.history(late, day3)["streak"] == 1


def share_of(lang):
    game = play_out(daily.new_game("bulgarian", DAY, DAY))
    words.set_lang(lang)
    try:
        return daily_share.share_text(daily.share(daily.result(game)))
    finally:
        words.set_lang("en")


@pytest.mark.parametrize("lang", ["en", "es", "bg", "ru"])
def test_the_share_text_is_exactly_as_the_golden_file(lang):
    text = share_of(lang)
    golden = SHARE / ("share_%s.txt" % lang)
    assert text == golden.read_text(encoding="utf-8").rstrip("\n")


def test_the_share_text_tells_no_die():
    game = play_out(daily.new_game("argentine", DAY, "2026-12-02"))
    data = daily.share(daily.result(game))
    assert set(data) == {"variant", "date", "late", "again", "score", "perfect", "marks", "row"}
    text = daily_share.share_text(data)
    assert text.splitlines()[0] == "Generala · daily challenge 2026-12-01 (late)"
    assert not any(ch in "123456" for ch in "".join(text.splitlines()[2:]))


def test_a_challenge_is_exported_and_imported_with_the_other_games():
    from generala.modes import bundle
    game = finished("double", DAY, DAY)
    text = json.dumps(bundle.export([{"id": "d1", "save": dump(game), "when": "x"}]))
    [entry] = bundle.read(text)
    assert entry["save"]["daily"] == {"date": DAY, "late": False}
    assert daily.history([entry], DAY)["games"]["double"]["status"] == "done"


# --- a score attack: the automatic win is off ---------------------------------------------

OLDER = ROOT / "tests" / "data" / "daily"


def test_the_automatic_win_is_off_and_a_served_hand_scores_its_points():
    """General, 2026-07-12: the day's first roll is 4-4-4-4-4. With the automatic win on,
    everyone "won" with 0 points at once; now the hand is scored like any other, and
    perfect play is scored the same way."""
    day = "2026-07-12"
    game = daily.new_game("puerto-rican", day, day)
    assert game.rules.options["big_general_wins"] is False
    assert game.roll() == (4, 4, 4, 4, 4)
    assert not game.over and game.auto_win is None
    game.score("small-general")
    assert game.totals() == [60]
    best = daily.perfect("puerto-rican", day)
    assert best["history"][0] == {"roll": [4, 4, 4, 4, 4]}
    assert len([a for a in best["history"] if "score" in a]) == 10  # ten boxes filled, no win at once
    assert best["score"] > 60
    played = play_out(daily.new_game("puerto-rican", day, day))
    result = daily.result(played)
    assert result["perfect"] == best["score"] and "open" not in {m["mark"] for m in result["marks"]}
    # Generala's served Generala too
    assert daily.new_game("argentine", DAY, DAY).rules.options["served_generala_wins"] is False


@pytest.mark.parametrize("name,over,totals", [
    ("before-automatic-win-off-puerto-rican-2026-07-12.json", True, [0]),
    ("before-automatic-win-off-argentine-2026-12-01.json", False, [30]),
])
def test_a_challenge_saved_by_an_older_version_loads_as_it_was_played(name, over, totals):
    """Written by the version before the automatic win was off (its rules are in the save):
    it loads with those rules, plays on with them, and its end is measured against perfect
    play under the same rules."""
    doc = json.loads((OLDER / name).read_text(encoding="utf-8"))
    game = Game.from_json(doc)
    assert game.rules.options == daily.variant(doc["variant"]).options  # the win on, as played
    assert game.daily == {"date": doc["daily"]["date"], "late": False}
    assert game.over is over and game.totals() == totals
    assert dump(game) == doc  # saved back as it was
    s = app.Session()
    assert s.handle({"op": "load", "save": doc})["ok"]
    if over:  # won at once with 0 points, as then; perfect play under those rules did too
        assert game.auto_win == {"side": 0, "kind": "big-general"}
        result = s.handle({"op": "daily_result"})["result"]
        assert result["score"] == 0 and result["perfect"] == 0
        assert daily.history([{"id": "o", "save": doc}], "2026-07-12")["games"]["puerto-rican"]["status"] == "done"
    else:
        play_out(s.game)
        assert s.game.rules.options["served_generala_wins"] is True
        assert s.handle({"op": "daily_result"})["ok"]


# --- no future days -------------------------------------------------------------------

def test_a_day_after_today_is_refused_by_the_engine():
    s = app.Session()
    reply = s.handle({"op": "daily", "variant": "argentine", "date": "2026-12-02", "today": DAY})
    assert not reply["ok"] and reply["kind"] == "IllegalAction"
    assert reply["code"] == "daily.future" and reply["params"] == {"date": "2026-12-02", "today": DAY}
    assert s.game is None
    reply = s.handle({"op": "daily_history", "today": DAY, "date": "2027-01-01", "entries": []})
    assert reply["code"] == "daily.future" and reply["params"] == {"date": "2027-01-01", "today": DAY}
    with pytest.raises(IllegalAction):
        daily.new_game("bulgarian", "2026-12-02", DAY)
    # today and the days before are played (late)
    assert s.handle({"op": "daily", "variant": "argentine", "date": DAY, "today": DAY})["ok"]
    assert s.handle({"op": "daily", "variant": "argentine", "date": "2026-11-30", "today": DAY})["view"]["daily"]["late"]
    assert s.handle({"op": "daily_history", "today": DAY, "date": DAY, "entries": []})["ok"]


# --- played again after its first game was deleted ----------------------------------------

def test_a_challenge_played_again_is_marked_everywhere_and_counts_for_nothing():
    s = app.Session()
    reply = s.handle({"op": "daily", "variant": "argentine", "date": DAY, "today": DAY, "again": True})
    assert reply["view"]["daily"] == {"date": DAY, "late": False, "again": True}
    assert reply["save"]["daily"] == {"date": DAY, "late": False, "again": True}
    assert Game.from_json(json.loads(json.dumps(reply["save"]))).daily["again"] is True
    play_out(s.game)
    result = s.handle({"op": "daily_result"})
    assert result["result"]["again"] is True and result["share"]["again"] is True
    entries = [{"id": "a", "save": dump(s.game)}]
    got = daily.history(entries, DAY)
    assert got["games"]["argentine"]["again"] is True and got["days"][0]["again"] is True
    assert got["streak"] == 0  # started on its day and finished, but played again
    first = finished("argentine", DAY, DAY)
    assert daily.history(entries + [entry("b", first)], DAY)["streak"] == 1
    # the page's share text says so
    words.set_lang("en")
    assert daily_share.share_text(result["share"]).splitlines()[0] == \
        "Generala · daily challenge 2026-12-01 (played again)"
    # a challenge without the mark is as before (its save has no "again")
    assert "again" not in dump(daily.new_game("argentine", DAY, DAY))["daily"]


def test_a_challenge_counts_for_the_day_it_was_started_on():
    """Started on its day (the page sends that day as today) it counts for that day, however
    late it is finished: the save knows when it was started, not when it ended; one of
    that day started the next day is late and counts for nothing."""
    day1, day2 = "2026-12-01", "2026-12-02"
    on_its_day = finished("argentine", day1, day1)
    assert daily.history([entry("a", on_its_day)], day2)["streak"] == 1  # finished "after midnight"
    next_day = finished("argentine", day1, day2)
    assert next_day.daily["late"] is True
    assert daily.history([entry("b", next_day)], day2)["streak"] == 0
