"""Win chances against oracles worked out by hand, the laws against the solved table, the
play-to-win level, and the chances through the app and the command line."""
import json
import math
import random
import statistics

import pytest

from generala import Game, SeededRoller, app, cli, variant
from generala.ai import chances as win
from generala.ai import coach
from generala.ai.players import OptimalPlayer, WinningPlayer, play, step
from generala.ai.tables import table_for


def binomial(n, p):
    return [math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def beats(a_base, a_law, b_base, b_law):
    """A's share of the first place, by brute force over both laws (a tie shared)."""
    got = 0.0
    for i, pa in enumerate(a_law):
        for j, pb in enumerate(b_law):
            a, b = a_base + i, b_base + j
            got += pa * pb * (1.0 if a > b else 0.5 if a == b else 0.0)
    return got


def ones_left(rules, a_points, b_points):
    """Two sides with only Ones open, side a to play its last turn."""
    game = Game(rules, ["a", "b"], SeededRoller(0), rolloff=False)
    for side, points in ((0, a_points), (1, b_points)):
        for box in rules.categories:
            if box != "ones":
                game.sheets[side][box] = 0
        game.sheets[side]["sixes"] = points
    game.turn = 0
    assert game.current == 0
    return game


# Keeping every 1 (the only way to play Ones for points): each die shows 1 after three
# rolls with probability 1 - (5/6)^3 = 91/216, after two with 11/36.
@pytest.mark.parametrize("a,b", [(0, 0), (6, 0), (0, 6), (12, 18), (3, 2)])
def test_one_box_left_is_exact_against_the_binomial_oracle(a, b):
    rules = variant("argentine", double_generala=False, served_generala_wins=False)
    game = ones_left(rules, a, b)
    law = binomial(5, 91 / 216)
    want = beats(a, law, b, law)
    got = win.chances(game)
    assert got[0] == pytest.approx(want, abs=1e-4)
    assert sum(got) == pytest.approx(1.0, abs=1e-9)
    assert win.for_rules(rules).exact(game)


def test_the_side_in_its_turn_keeps_its_dice_exactly():
    rules = variant("argentine", double_generala=False, served_generala_wins=False)
    game = ones_left(rules, 6, 12)
    game.roll([1, 1, 4, 5, 6])  # two ones kept, three dice with two rolls left
    want = beats(6 + 2, binomial(3, 11 / 36), 12, binomial(5, 91 / 216))
    assert win.chances(game)[0] == pytest.approx(want, abs=1e-4)


def test_automatic_wins_come_first_in_the_order_of_play():
    rules = variant("argentine", double_generala=False)  # served Generala wins
    game = ones_left(rules, 6, 6)
    for sheet in game.sheets:
        sheet["generala"] = 50  # Generala holds points: a served five alike still wins
    q = 6 / 6 ** 5
    no_auto = ones_left(variant("argentine", double_generala=False, served_generala_wins=False), 56, 56)
    base = win.chances(no_auto)
    # a first roll of five alike is also a Ones hand of 5 or 0: the laws keep it, the
    # automatic win takes its probability first (a to play first, then b)
    got = win.chances(game)
    assert got[0] == pytest.approx(q + (1 - q) ** 2 * base[0], abs=1e-9)
    assert got[1] == pytest.approx((1 - q) * q + (1 - q) ** 2 * base[1], abs=1e-9)
    game.sheets[0]["generala"] = 0  # scratched: a's served five alike no longer wins
    game.sheets[0]["sixes"] = 56
    got = win.chances(game)
    assert got[0] == pytest.approx((1 - q) * base[0], abs=1e-9)


def test_ties_are_shared_among_three_sides():
    laws = [(10, [1.0]), (10, [1.0]), (10, [1.0])]
    assert win.shares(laws) == pytest.approx([1 / 3] * 3)
    laws = [(10, [0.5, 0.5]), (11, [1.0]), (0, [1.0])]  # a: 10 or 11, b: 11
    assert win.shares(laws) == pytest.approx([0.25, 0.75, 0.0])


@pytest.mark.parametrize("name", ["argentine", "puerto-rican", "double"])
def test_exact_laws_have_the_tables_mean_and_standard_deviation(name):
    table = table_for(variant(name))
    ch = win.Chances(table, use_laws=False)  # every turn played out
    model = table.model
    rng = random.Random(5)
    for left in (1, 2):
        states = [s for s in model.states if model.nbox - bin(s[0]).count("1") == left * model.per_turn]
        for s in rng.sample(states, min(4, len(states))):
            law = ch.remaining(s, left)
            mean = win.mean_of(law)
            sd = math.sqrt(sum((law[0] + i - mean) ** 2 * p for i, p in enumerate(law[1])))
            assert sum(law[1]) == pytest.approx(1.0, abs=1e-9)
            assert mean == pytest.approx(table.state_value(s), abs=2e-3)
            # the solver breaks ties of the mean by the larger second moment; the law, by
            # stopping first: a few thousandths apart where two choices tie
            assert sd == pytest.approx(table.SD[table.index[s]], abs=1e-2)


def test_a_turns_law_matches_the_optimal_players_games():
    """The turn law the chances follow is the optimal player's: a few hundred played turns
    from one state fall where the law says (chi-square on its likeliest outcomes)."""
    rules = variant("argentine", served_generala_wins=False)
    table = table_for(rules)
    ch = win.for_table(table)
    player = OptimalPlayer(rules, table)
    model = table.model
    keep_open = {"fours", "full", "generala"}
    counts = {}
    games = 600
    for seed in range(games):
        game = Game(rules, ["a"], SeededRoller(seed), rolloff=False)
        for box in rules.categories:
            if box not in keep_open:
                game.sheets[0][box] = 0
        state, _ = model.state_of(game.sheets[0])
        before = dict(game.sheets[0])
        while game.rolls != 0 or game.turn == 0:
            step(game, player)
            if game.turn:
                break
        after_state, _ = model.state_of(game.sheets[0])
        points = sum(v or 0 for v in game.sheets[0].values()) - sum(v or 0 for v in before.values())
        key = (points, table.index[after_state])
        counts[key] = counts.get(key, 0) + 1
    law = ch.outcomes(state)
    likely = [k for k, p in law.items() if p * games >= 10]
    chi = sum((counts.get(k, 0) - law[k] * games) ** 2 / (law[k] * games) for k in likely)
    assert set(counts) <= set(law)
    assert chi < 3 * len(likely) + 10


def test_the_play_to_win_level_goes_for_the_points_it_needs():
    """Last box Generala open, 30 behind a finished side: only five alike wins."""
    rules = variant("argentine", served_generala_wins=False)
    champion = WinningPlayer(rules)
    game = Game(rules, ["a", "b"], SeededRoller(0), rolloff=False)
    for box in rules.categories:
        game.sheets[0][box] = 0
        if box != "generala":
            game.sheets[1][box] = 0
    game.sheets[0]["sixes"] = 30
    game.turn = 1
    game.roll([2, 2, 5, 5, 5])
    assert champion.choose(game) == {"hold": [2, 3, 4]}
    hint = coach.hint(game, top=3)
    assert hint[0]["action"] == {"hold": [2, 3, 4]}
    assert hint[0]["chance"] == pytest.approx(1 - (5 / 6) ** 2 + (5 / 6) ** 2 * 0, abs=0.35)
    assert hint[0]["chance_loss"] == 0.0 and all(h["chance_loss"] >= 0 for h in hint)


def test_the_play_to_win_level_plays_whole_games_with_others():
    rules = variant("puerto-rican")
    players = [WinningPlayer(rules), OptimalPlayer(rules), WinningPlayer(rules)]
    game = Game(rules, ["w", "o", "w2"], SeededRoller(3))
    play(game, players)
    assert game.over


def test_the_app_answers_chances_and_carries_them_with_every_box():
    session = app.Session()
    session.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 4})
    reply = session.handle({"op": "chances", "on": True})
    assert reply["ok"] and reply["on"] is True
    sides = reply["chances"]["sides"]
    assert len(sides) == 2 and sum(sides) == pytest.approx(1.0, abs=2e-4)
    assert reply["chances"]["exact"] is True  # argentine.gvl: every state's exact law
    rolled = session.handle({"op": "roll"})
    assert "chances" not in rolled  # a roll leaves them as they were
    box = rolled["view"]["scorable"][0]
    moved = session.handle({"op": "score", "box": box})
    assert sum(moved["chances"]["sides"]) == pytest.approx(1.0, abs=2e-4)
    assert moved["chances"] == session.handle({"op": "chances"})["chances"]
    session.handle({"op": "chances", "on": False})
    assert "chances" not in session.handle({"op": "roll"})
    off = session.handle({"op": "score", "box": session.game.rules.categories[-1]})
    assert off["ok"] and "chances" not in off
    # a box undone: the chances of the turn taken back
    versus = app.Session()
    versus.handle({"op": "new", "variant": "argentine", "seed": 4,
                   "sides": ["Ana", {"name": "Beto", "player": "ai:optimal"}]})
    versus.handle({"op": "chances", "on": True})
    while versus.game.current != 0:
        versus.handle({"op": "ai"})
    scored = versus.handle({"op": "score", "box": versus.handle({"op": "roll"})["view"]["scorable"][0]})
    undone = versus.handle({"op": "undo"})
    assert undone["ok"] and undone["chances"] == versus.handle({"op": "chances"})["chances"]
    assert undone["chances"] != scored["chances"]
    solo = app.Session()
    solo.handle({"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 4})
    assert solo.handle({"op": "chances"})["chances"] == {"sides": [1.0], "exact": True}
    solo.handle({"op": "roll"})
    assert all("chance" not in h for h in solo.handle({"op": "hint"})["hint"])
    refused = session.handle({"op": "chances", "on": "yes"})
    assert refused["ok"] is False and refused["code"] == "request.field_type"


def test_the_coach_prices_a_move_in_chances_where_there_is_an_opponent():
    session = app.Session()
    session.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": 4})
    session.handle({"op": "coach", "on": True})
    session.handle({"op": "roll"})
    hint = session.handle({"op": "hint"})["hint"]
    assert all(0.0 <= h["chance"] <= 1.0 for h in hint)
    assert [h["chance"] for h in hint] == sorted((h["chance"] for h in hint), reverse=True)
    worst = session.handle({"op": "hint", "top": 100})["hint"][-1]
    reply = session.handle(worst["request"])
    assert reply["chance_cost"] == pytest.approx(worst["chance_loss"], abs=2e-4)
    assert reply["cost"] >= 0


def test_the_command_line_shows_a_saved_games_chances(tmp_path, capsys):
    rules = variant("argentine")
    game = Game(rules, ["Ana", "Beto"], SeededRoller(9))
    player = OptimalPlayer(rules)
    while game.turn < 12:
        step(game, player)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_json()))
    assert cli.main(["chances", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    shown = [float(line.split()[-1].rstrip("%")) for line in out[:2]]
    assert [line.split()[0] for line in out[:2]] == ["Ana", "Beto"]
    assert shown == pytest.approx([c * 100 for c in win.chances(game)], abs=0.06)


def test_simulate_seats_the_play_to_win_level():
    from generala.modes.simulate import simulate
    summary = simulate(variant("puerto-rican"), ["champion", "optimal"], 2, seed=1)
    assert [s["strategy"] for s in summary["sides"]] == ["champion", "optimal"]
    assert sum(s["wins"] for s in summary["sides"]) == pytest.approx(1.0)


# --- the stored laws (static/tables/<game>.gvl, generala.ai.laws) ---------------------------

@pytest.mark.parametrize("name", ["puerto-rican", "argentine"])
def test_the_shipped_laws_are_a_fresh_builds(name):
    from generala.ai import laws
    table = table_for(variant(name))
    path = laws.path_of(table, laws_dir())
    assert laws.build(win.Chances(table, use_laws=False)).to_bytes() == path.read_bytes()


def laws_dir():
    from generala.ai import tables
    return tables.TABLES_DIR


@pytest.mark.parametrize("name", ["argentine", "puerto-rican", "double", "bulgarian"])
def test_every_stored_law_sums_to_1_with_the_tables_mean(name):
    table = table_for(variant(name))
    store = win.for_table(table).stored
    assert store is not None and store.exact == (name != "bulgarian")
    model = table.model
    picks = range(len(model.states)) if store.exact else random.Random(2).sample(range(len(model.states)), 3000)
    for i in picks:
        law = store.law(i)
        assert sum(law[1]) == pytest.approx(1.0, abs=1e-9)
        # exact: 128 quantiles reach the far tails within half a point of the mean;
        # shape: moved to the table's mean
        assert win.mean_of(law) == pytest.approx(table.V[i], abs=0.5 if store.exact else 1e-6)
        assert min(law[1]) >= 0.0


@pytest.mark.parametrize("name", ["argentine", "double"])
def test_stored_laws_match_the_laws_played_out(name):
    """States with two turns left: the stored law (128 quantiles) against the law with both
    turns played out, in the chance to beat a side on the same state a few points apart."""
    table = table_for(variant(name))
    store = win.for_table(table).stored
    played = win.Chances(table, use_laws=False)
    model = table.model
    rng = random.Random(7)
    states = [s for s in model.states if model.nbox - bin(s[0]).count("1") == 2 * model.per_turn]
    for s in rng.sample(states, 4):
        exact = played.remaining(s, 2)
        mine = store.law(table.index[s])
        sd = math.sqrt(sum((exact[0] + i - win.mean_of(exact)) ** 2 * p for i, p in enumerate(exact[1])))
        got_sd = math.sqrt(sum((mine[0] + i - win.mean_of(mine)) ** 2 * p for i, p in enumerate(mine[1])))
        assert got_sd == pytest.approx(sd, rel=0.03, abs=0.3)
        for gap in (-15, -5, 0, 5, 15):
            want = win.shares([win.shift(exact, gap), exact])[0]
            got = win.shares([win.shift(mine, gap), mine])[0]
            assert got == pytest.approx(want, abs=0.01)


def test_bulgarian_penalty_in_the_stored_laws_against_the_laws_played_out():
    """Генерал's shape laws with the mandatory total's sign open: the chance of the −50
    penalty in the stored law (the state's own) against the law with both turns played
    out, on states two turns from the end; and every law keeps the table's mean."""
    from generala.ai.laws import SAFE_X as safe
    table = table_for(variant("bulgarian"))
    store = win.for_table(table).stored
    played = win.Chances(table, use_laws=False)
    model = table.model
    states = [s for s in model.states if model.nbox - bin(s[0]).count("1") == 2
              and s[1] != safe and (s[0], safe) in table.index]
    misses, risky = [], 0
    for s in random.Random(7).sample(states, 40):
        v = table.V[table.index[s]]
        exact = played.remaining(s, 2)
        mine = store.law(table.index[s])
        assert win.mean_of(mine) == pytest.approx(v, abs=1e-6)
        below = [sum(p for k, p in enumerate(law[1]) if law[0] + k < v - 30) for law in (exact, mine)]
        risky += below[0] > 0.1
        misses.append(abs(below[0] - below[1]))
    assert risky >= 5  # the sample has states where the penalty matters
    assert statistics.fmean(misses) < 0.015 and max(misses) < 0.1


def test_bulgarian_stored_laws_have_each_states_own_spread():
    """Генерал's shape laws: the key's shape stretched to the state's own spread (stored
    per state in half points) against the law with both turns played out, on states two
    turns from the end, the sign open or settled."""
    table = table_for(variant("bulgarian"))
    store = win.for_table(table).stored
    played = win.Chances(table, use_laws=False)
    model = table.model

    def sd(law):
        m = win.mean_of(law)
        return math.sqrt(sum((law[0] + k - m) ** 2 * p for k, p in enumerate(law[1])))

    states = [s for s in model.states if model.nbox - bin(s[0]).count("1") == 2]
    misses = [abs(sd(played.remaining(s, 2)) - sd(store.law(table.index[s])))
              for s in random.Random(7).sample(states, 40)]
    assert statistics.fmean(misses) < 0.25 and max(misses) < 0.6, misses


def test_one_turn_left_against_brute_force():
    """Each side with one box left, the first in its turn: the chances (stored laws) against
    every outcome of both turns enumerated (the first side's from its dice)."""
    rules = variant("argentine")
    table = table_for(rules)
    played = win.Chances(table, use_laws=False)
    game = Game(rules, ["a", "b"], SeededRoller(0), rolloff=False)
    for box in rules.categories:
        game.sheets[0][box] = 0 if box != "generala" else None
        game.sheets[1][box] = 0 if box != "straight" else None
    game.sheets[0]["fours"] = 12
    game.sheets[1]["sixes"] = 24
    game.turn = 0
    game.roll([4, 4, 4, 2, 6])
    model = table.model
    a_state, a_base = model.state_of(game.sheets[0])
    b_state, b_base = model.state_of(game.sheets[1])
    a = played.outcomes(a_state, (2, 4, 4, 4, 6), 1)
    b = played.outcomes(b_state)
    want = 0.0
    for (ra, _), pa in a.items():
        for (rb, _), pb in b.items():
            x, y = a_base + ra, b_base + rb
            want += pa * pb * (1.0 if x > y else 0.5 if x == y else 0.0)
    q = 6 / 6 ** 5  # b's turn may start with a served Generala (it wins)
    got = win.chances(game, table)
    assert win.for_table(table).stored is not None
    assert got[0] == pytest.approx((1 - q) * want, abs=0.005)
    assert sum(got) == pytest.approx(1.0, abs=1e-9)


def test_the_laws_file_is_asked_for_and_house_options_do_without(tmp_path, monkeypatch):
    import shutil
    from generala.ai import laws, solver, tables
    shipped = tables.TABLES_DIR
    shutil.copy(shipped / "puerto-rican.gvt", tmp_path / "puerto-rican.gvt")
    monkeypatch.setattr(tables, "TABLES_DIR", tmp_path)
    monkeypatch.setattr(tables, "_tables", {})
    monkeypatch.setattr(tables, "_by_rules", {})
    monkeypatch.setattr(win, "_chances", {})
    session = app.Session()
    session.handle({"op": "new", "variant": "puerto-rican", "sides": ["Ana", "Beto"], "seed": 4})
    reply = session.handle({"op": "chances"})
    assert reply["ok"] is False and reply["kind"] == "NeedTable"
    assert reply["table"] == "puerto-rican.gvl" and reply["path"] == str(tmp_path / "puerto-rican.gvl")
    rolled = session.handle({"op": "roll"})
    moved = session.handle({"op": "score", "box": rolled["view"]["scorable"][0]})
    assert moved["ok"]  # a move never waits for the laws
    shutil.copy(shipped / "puerto-rican.gvl", tmp_path / "puerto-rican.gvl")  # the worker's fetch
    got = session.handle({"op": "chances"})
    assert got["ok"] and got["chances"]["exact"] is True
    # house options: no laws ship, none is asked for, the chances do without (normal law)
    house = variant("puerto-rican", aces_wild=False)
    ch = win.Chances(tables.register(solver.solve(house)))
    assert not laws.shipped(ch.table)
    ch.need_laws()
    assert ch.stored is None
    game = Game(house, ["a", "b"], SeededRoller(1))
    assert sum(win.chances(game, ch.table)) == pytest.approx(1.0, abs=1e-9)
    assert ch.exact(game) is False
