"""The exact solver against brute force on the end of a game, and solved-value sanity.

Brute force here is written independently of generala.ai: holds are subsets of
dice positions, rolls are every ordered outcome (itertools.product), and prices
come from the engine's public ``Rules.score``.
"""
from functools import lru_cache
from itertools import product
from math import factorial

import pytest

from generala import variant
from generala.ai.model import SAFE
from generala.ai.solver import Table, model_for, solitaire_rules, solve


def brute_turn(final, n=5):
    """Expected value of one turn: ``final(sorted_hand, served)`` is the value of stopping."""

    @lru_cache(maxsize=None)
    def after_roll(hand, r):
        best = final(hand, r == 1)
        if r < 3:
            for mask in range(2 ** n - 1):  # every hold except all dice
                kept = tuple(hand[i] for i in range(n) if mask >> i & 1)
                best = max(best, roll(kept, r))
        return best

    @lru_cache(maxsize=None)
    def roll(kept, r):
        m = n - len(kept)
        total = 0.0
        for out in product(range(1, 7), repeat=m):
            total += after_roll(tuple(sorted(kept + out)), r + 1)
        return total / 6 ** m

    return roll((), 0)


def price(rules, box, hand, served, sheet=None):
    return rules.score(box, hand, roll=1 if served else 2, sheet=sheet)


def solved_end(rules, filled):
    """Solve only the states at or after ``filled`` (a list of filled boxes)."""
    return _solved_end(rules, tuple(sorted(filled)))


@lru_cache(maxsize=8)
def _solved_end(rules, filled):
    model = model_for(rules)
    mask = sum(model.bit[b] for b in filled)
    return model, solve(rules, from_mask=mask)


ARG = solitaire_rules(variant("argentine"))
PR = solitaire_rules(variant("puerto-rican"))


@pytest.mark.parametrize("rules,box", [
    (ARG, "straight"), (ARG, "generala"), (ARG, "fours"), (PR, "straight"), (PR, "four-kind"),
    (solitaire_rules(variant("argentine", served_bonus=10, straight_any_five=True)), "straight"),
])
def test_last_turn_matches_brute_force(rules, box):
    model, table = solved_end(rules, [b for b in rules.categories if b != box])
    state = (model.full ^ model.bit[box], 0)
    expected = brute_turn(lambda h, s: price(rules, box, h, s))
    assert table.state_value(state) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("rules,boxes", [
    (ARG, ("straight", "full-house")), (ARG, ("sixes", "four-kind")), (PR, ("straight", "small-general")),
])
def test_two_boxes_left_match_brute_force(rules, boxes):
    model, table = solved_end(rules, [b for b in rules.categories if b not in boxes])
    last = {b: brute_turn(lambda h, s, b=b: price(rules, b, h, s)) for b in boxes}
    a, b = boxes

    def final(h, s):
        return max(price(rules, a, h, s) + last[b], price(rules, b, h, s) + last[a])

    state = (model.full ^ model.bit[a] ^ model.bit[b], 0)
    assert table.state_value(state) == pytest.approx(brute_turn(final), abs=1e-9)


def test_double_generala_needs_points_in_generala():
    rules = ARG
    model, table = solved_end(rules, [b for b in rules.categories
                                      if b not in ("generala", "double-generala")])
    g_pts = {"generala": 50}
    last_double = brute_turn(lambda h, s: price(rules, "double-generala", h, s, g_pts))
    last_generala = brute_turn(lambda h, s: price(rules, "generala", h, s))

    def final(h, s):
        g = price(rules, "generala", h, s)
        # Generala first: Double Generala then pays only if Generala holds points.
        first_g = g + (last_double if g else 0.0)
        # Double Generala first (Generala open): it earns 0 now.
        first_d = 0 + last_generala
        return max(first_g, first_d)

    state = (model.full ^ model.bit["generala"] ^ model.bit["double-generala"], 0)
    assert table.state_value(state) == pytest.approx(brute_turn(final), abs=1e-9)
    mask_d = model.full ^ model.bit["double-generala"]
    assert table.state_value((mask_d, 1)) == pytest.approx(last_double, abs=1e-9)
    assert table.state_value((mask_d, 0)) == 0.0


@pytest.mark.parametrize("t", [-30, -9, -4, 0, 3, 12])
def test_bulgarian_two_mandatory_boxes_and_the_penalty(t):
    rules = variant("bulgarian")
    open_boxes = ("twos", "fives")
    model, table = solved_end(rules, [b for b in rules.categories if b not in open_boxes])
    faces = {"twos": 2, "fives": 5}

    def pts(b, h):
        return price(rules, b, h, False)

    @lru_cache(maxsize=None)
    def last(b, total):
        return brute_turn(lambda h, s: pts(b, h) + (-50 if total + pts(b, h) < 0 else 0))

    def final(h, s):
        a, b = open_boxes
        return max(pts(a, h) + last(b, t + pts(a, h)), pts(b, h) + last(a, t + pts(b, h)))

    mask = model.full ^ model.bit["twos"] ^ model.bit["fives"]
    rsum = sum(faces.values())
    x, penalty = (t, 0) if -2 * rsum <= t < 3 * rsum else (SAFE, -50 if t < 0 else 0)
    if (mask, x) not in model.index:
        pytest.skip("total not reachable with these boxes filled")
    got = table.state_value((mask, x)) + penalty
    assert got == pytest.approx(brute_turn(final), abs=1e-9)


def test_double_last_turn_matches_enumeration():
    """Ten dice, two boxes left: keeps and multinomial roll outcomes, the engine's best split."""
    rules = variant("double")
    a, b = "full-house", "big-general"
    model, table = solved_end(rules, [x for x in rules.categories if x not in (a, b)])
    L = model.L

    def outcomes(m):
        res = []
        for hand in L.levels[m]:
            ways = factorial(m)
            for f in range(1, 7):
                ways //= factorial(hand.count(f))
            res.append((hand, ways / 6 ** m))
        return res

    outs = {m: outcomes(m) for m in range(11)}

    @lru_cache(maxsize=None)
    def stop(hand):
        return rules.best_split(hand, a, b).total

    def values_after(r, nxt):
        table_r = {}
        for hand in L.hands:
            best = nxt(hand) if r == 3 else stop(hand)
            if r < 3:
                for keep in L.keeps_of(hand):
                    if len(keep) < 10:
                        best = max(best, expect[keep])
            table_r[hand] = best
        return table_r

    # roll 3 values, then the keeps' expectations before roll 3, and so on
    v = {h: stop(h) for h in L.hands}
    for r in (2, 1):
        expect = {}
        for level in L.levels[:10]:
            for keep in level:
                expect[keep] = sum(p * v[tuple(sorted(keep + o))] for o, p in outs[10 - len(keep)])
        v = values_after(r, stop)
    value = sum(p * v[h] for h, p in outs[10])
    assert table.state_value((model.full ^ model.bit[a] ^ model.bit[b], 0)) == pytest.approx(value, abs=1e-9)


SOLVED = {"argentine": 162.469468, "puerto-rican": 156.188548, "double": 197.731836}


@pytest.mark.parametrize("name", sorted(SOLVED))
def test_shipped_tables_hold_the_solved_values(name):
    from generala.ai.tables import TABLES_DIR
    table = Table.load(TABLES_DIR / f"{name}.gvt")
    assert table.value == pytest.approx(SOLVED[name], abs=1e-6)
    # Points still to come: never negative without a penalty; nothing after the last box.
    assert min(table.V) >= 0.0
    assert table.state_value((table.model.full, 0)) == 0.0


def test_solve_puerto_rican_and_table_round_trip():
    table = solve(PR)
    assert table.value == pytest.approx(SOLVED["puerto-rican"], abs=1e-6)
    again = Table.from_bytes(table.to_bytes())
    assert again.value == table.value
    assert max(abs(x - y) for x, y in zip(again.V, table.V)) <= 1 / 2048 + 1e-9


def test_solitaire_rules_switch_automatic_wins_off():
    assert solitaire_rules(variant("argentine")).options["served_generala_wins"] is False
    assert solitaire_rules(variant("puerto-rican", stake_per_point=3)) == PR


def test_moments_agree_with_the_values():
    from generala.ai.solver import moments
    rules = solitaire_rules(variant("argentine", double_generala=False))
    table = solve(rules)
    model = table.model
    sd = moments(table)
    assert min(sd) >= 0 and sd[model.index[(model.full, 0)]] == 0
    for state in model.states[::97]:
        if state[0] != model.full:
            mean, second = model.turn_moments(state, table.V, [s * s + v * v for s, v in zip(sd, table.V)], model.index)
            assert mean == pytest.approx(table.state_value(state), abs=1e-9)
    # one box left: the spread of a single turn's points in that box
    box = "full-house"
    state = (model.full ^ model.bit[box], 0)
    assert 0 < sd[model.index[state]] < 20


def test_solve_command(tmp_path, capsys):
    from generala.ai.cli_solve import main
    out = tmp_path / "t.gvt"
    assert main(["puerto-rican", "--option", "aces_wild=off", "--out", str(out), "-q",
                 "--moments", "off"]) == 0
    text = capsys.readouterr().out
    assert "optimal expected final score: 151.93" in text and out.stat().st_size > 1000
    table = Table.load(out)
    assert table.rules.options["aces_wild"] is False
    assert main(["puerto-rican", "--option", "aces_wild=maybe", "-q"]) == 2
