"""Box scoring for every box of every variant, written from /work/shared/RULES.md.

Each table row reads: box, dice, roll, expected points[, options][, sheet].
Dice are written "4-4-4-2-6".  ``ANY`` means "the same on rolls 1, 2 and 3",
``LATER`` means rolls 2 and 3.  ``Rules.score`` only prices a box: it never
decides automatic wins (served Generala, Big General are the game's business).
"""
from itertools import combinations

import pytest

import generala

ANY = (1, 2, 3)
LATER = (2, 3)
NUMBER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")


def dice(text):
    return tuple(int(d) for d in text.split("-"))


def rolls_of(roll):
    return roll if isinstance(roll, tuple) else (roll,)


def expand(variant, rows):
    """Turn readable rows into pytest params, one per roll."""
    params = []
    for row in rows:
        box, text, roll, expected, *rest = row
        options = rest[0] if rest else {}
        sheet = rest[1] if len(rest) > 1 else None
        for r in rolls_of(roll):
            opt_id = ",".join(f"{k}={v}" for k, v in options.items())
            sheet_id = "" if sheet is None else "+sheet" + ",".join(
                f"{k}={v}" for k, v in sheet.items()
            )
            pid = (f"{variant}:{box}:{text}:roll{r}" + (f":{opt_id}" if opt_id else "")
                   + sheet_id + f"->{expected}")
            params.append(pytest.param(variant, options, box, text, r, sheet, expected, id=pid))
    return params


def unique(params):
    """Drop repeated rows (the same case listed in two tables)."""
    seen, result = set(), []
    for param in params:
        if param.id not in seen:
            seen.add(param.id)
            result.append(param)
    return result


def full_sheet(rules, filled):
    """A sheet with every box open except the given ones."""
    if filled is None:
        return None
    sheet = {box: None for box in rules.categories}
    sheet.update(filled)
    return sheet


def check(variant, options, box, text, roll, sheet, expected):
    rules = generala.variant(variant, **options)
    got = rules.score(box, dice(text), roll=roll, sheet=full_sheet(rules, sheet))
    assert got == expected, (
        f"{variant} {options} box={box} dice={text} roll={roll} sheet={sheet}: "
        f"RULES.md says {expected}, engine gives {got}"
    )


# =================================================================== argentine

WRAP_OFF = {"straight_wrap": False}
ANY_FIVE = {"straight_wrap": False, "straight_any_five": True}
ANY_FIVE_WRAP = {"straight_any_five": True}
ACE_AS_TWO = {"straight_wrap": False, "ace_as_two": True}
ACE_AS_TWO_WRAP = {"ace_as_two": True}
ALL_STRAIGHT_OPTIONS = {"straight_wrap": True, "straight_any_five": True, "ace_as_two": True}

ARGENTINE_NUMBER_BOXES = [
    # box      dice         roll  points
    ("fours", "4-4-4-2-6", ANY, 12),  # RULES.md example
    ("twos", "4-4-4-2-6", ANY, 2),
    ("sixes", "4-4-4-2-6", ANY, 6),
    ("ones", "4-4-4-2-6", ANY, 0),
    ("threes", "4-4-4-2-6", ANY, 0),
    ("fives", "4-4-4-2-6", ANY, 0),
    ("ones", "1-1-1-2-3", ANY, 3),
    ("threes", "3-3-3-3-3", ANY, 15),  # five alike may go in a number box
    ("sixes", "6-6-6-6-6", 1, 30),  # even served: no bonus, no win in score()
    ("fives", "5-1-5-2-5", ANY, 15),
    ("twos", "1-1-3-4-5", ANY, 0),
    # ace_as_two is for the straight only: a 1 is never a 2 in Twos
    ("twos", "1-2-2-5-5", ANY, 4, ACE_AS_TWO_WRAP),
    ("ones", "1-2-2-5-5", ANY, 1, ACE_AS_TWO_WRAP),
]

ARGENTINE_STRAIGHT_DEFAULTS = [
    # default options: straight_wrap on, straight_any_five off, ace_as_two off, bonus 5
    ("straight", "1-2-3-4-5", 1, 25),
    ("straight", "1-2-3-4-5", LATER, 20),
    ("straight", "5-3-1-4-2", 1, 25),
    ("straight", "2-3-4-5-6", 1, 25),
    ("straight", "2-3-4-5-6", LATER, 20),
    ("straight", "6-5-4-3-2", LATER, 20),
    ("straight", "3-4-5-6-1", 1, 25),  # wrap is on by default
    ("straight", "3-4-5-6-1", LATER, 20),
    ("straight", "1-2-3-4-6", ANY, 0),  # any-five is off by default
    ("straight", "1-2-3-5-6", ANY, 0),
    ("straight", "1-2-4-5-6", ANY, 0),  # 4-5-6-1-2 is not the wrap straight
    ("straight", "1-1-3-4-5", ANY, 0),  # ace_as_two is off by default
    ("straight", "2-2-3-4-5", ANY, 0),
    ("straight", "2-3-4-5-5", ANY, 0),
    ("straight", "1-2-3-4-4", ANY, 0),
    ("straight", "1-1-1-1-1", ANY, 0),
    ("straight", "3-3-3-5-5", ANY, 0),
]

# dice, options -> is it a straight?  Straights score 20 later, 20 + bonus served.
ARGENTINE_STRAIGHT_OPTIONS = [
    ("1-2-3-4-5", WRAP_OFF, True),
    ("2-3-4-5-6", WRAP_OFF, True),
    ("3-4-5-6-1", WRAP_OFF, False),
    ("1-3-4-5-6", WRAP_OFF, False),
    ("1-2-4-5-6", {"straight_wrap": True}, False),
    # straight_any_five: any five different faces
    ("1-2-4-5-6", ANY_FIVE, True),
    ("1-2-3-4-6", ANY_FIVE, True),
    ("1-2-3-5-6", ANY_FIVE, True),
    ("1-3-4-5-6", ANY_FIVE, True),
    ("6-4-2-1-3", ANY_FIVE, True),
    ("1-2-3-4-5", ANY_FIVE, True),
    ("2-3-4-5-6", ANY_FIVE, True),
    ("1-2-4-5-6", ANY_FIVE_WRAP, True),
    ("1-1-3-4-5", ANY_FIVE, False),  # four different faces only
    ("2-2-3-4-5", ANY_FIVE, False),
    ("1-2-3-4-4", ANY_FIVE, False),
    ("6-6-5-4-3", ANY_FIVE_WRAP, False),
    # ace_as_two: a 1 may stand in for a 2
    ("1-1-3-4-5", ACE_AS_TWO, True),
    ("1-3-4-5-1", ACE_AS_TWO, True),
    ("5-1-4-1-3", ACE_AS_TWO, True),
    ("1-3-4-5-6", ACE_AS_TWO, True),
    ("1-2-3-4-5", ACE_AS_TWO, True),
    ("2-3-4-5-6", ACE_AS_TWO, True),
    ("1-1-3-4-5", ACE_AS_TWO_WRAP, True),
    ("1-1-4-5-6", ACE_AS_TWO_WRAP, False),  # a 1 for the 2 still leaves no 3
    ("1-1-2-3-4", ACE_AS_TWO_WRAP, False),  # a 1 stands in only for a 2, never a 5
    ("1-2-3-4-6", ACE_AS_TWO, False),
    ("1-1-1-3-4", ACE_AS_TWO, False),
    ("1-2-2-4-5", ACE_AS_TWO, False),
    # everything on
    ("1-2-3-4-5", ALL_STRAIGHT_OPTIONS, True),
    ("3-4-5-6-1", ALL_STRAIGHT_OPTIONS, True),
    ("1-2-3-4-4", ALL_STRAIGHT_OPTIONS, False),
    ("2-3-4-5-5", ALL_STRAIGHT_OPTIONS, False),
    ("1-1-1-1-1", ALL_STRAIGHT_OPTIONS, False),
]


def straight_option_rows():
    rows = []
    for text, options, is_straight in ARGENTINE_STRAIGHT_OPTIONS:
        rows.append(("straight", text, 1, 25 if is_straight else 0, options))
        rows.append(("straight", text, LATER, 20 if is_straight else 0, options))
    return rows


ARGENTINE_FULL_HOUSE = [
    ("full-house", "3-3-3-5-5", 1, 35),
    ("full-house", "3-3-3-5-5", LATER, 30),
    ("full-house", "5-5-5-3-3", LATER, 30),  # seed 002 example
    ("full-house", "1-6-1-6-1", LATER, 30),
    ("full-house", "6-6-6-1-1", 1, 35),
    ("full-house", "2-2-2-2-2", ANY, 0),  # five alike is not a full house
    ("full-house", "2-2-2-2-3", ANY, 0),
    ("full-house", "2-2-2-3-4", ANY, 0),
    ("full-house", "2-2-3-3-4", ANY, 0),
    ("full-house", "1-2-3-4-5", ANY, 0),
    # ace_as_two is for the straight only
    ("full-house", "1-2-2-5-5", ANY, 0, ACE_AS_TWO_WRAP),
]

ARGENTINE_FOUR_KIND = [
    ("four-kind", "2-2-2-2-6", 1, 45),
    ("four-kind", "2-2-2-2-6", LATER, 40),  # seed 002 example
    ("four-kind", "6-2-2-2-2", LATER, 40),
    ("four-kind", "6-6-6-6-6", 1, 45),  # five alike satisfies four of a kind
    ("four-kind", "6-6-6-6-6", LATER, 40),
    ("four-kind", "3-3-3-3-3", LATER, 40),  # seed 002: 3-3-3-3-3 may go in four of a kind
    ("four-kind", "2-2-2-6-6", ANY, 0),
    ("four-kind", "3-3-3-1-2", ANY, 0),
    ("four-kind", "1-2-3-4-5", ANY, 0),
    ("four-kind", "1-2-2-2-6", ANY, 0, ACE_AS_TWO_WRAP),
]

ARGENTINE_GENERALA = [
    ("generala", "4-4-4-4-4", ANY, 50),  # served too: no bonus, win is not score()'s business
    ("generala", "1-1-1-1-1", ANY, 50),
    ("generala", "6-6-6-6-6", ANY, 60, {"generala_points": 60}),
    ("generala", "6-6-6-6-6", ANY, 50, {"generala_points": 50}),
    ("generala", "4-4-4-4-4", 1, 50, {"served_generala_wins": False}),
    ("generala", "4-4-4-4-4", 1, 60, {"served_generala_wins": False, "generala_points": 60}),
    ("generala", "4-4-4-4-1", ANY, 0),
    ("generala", "1-2-3-4-5", ANY, 0),
    ("generala", "3-3-3-5-5", ANY, 0),
    ("generala", "4-4-4-4-4", ANY, 50, {"served_bonus": 10}),
]

HELD = {"generala": 50}
HELD_60 = {"generala": 60}
SCRATCHED = {"generala": 0}

ARGENTINE_DOUBLE_GENERALA = [
    # box               dice         roll points options sheet (boxes not listed are open)
    ("double-generala", "5-5-5-5-5", ANY, 100, {}, HELD),
    ("double-generala", "2-2-2-2-2", ANY, 100, {}, HELD),
    ("double-generala", "5-5-5-5-5", ANY, 120, {"double_points": 120}, HELD),
    ("double-generala", "5-5-5-5-5", ANY, 100, {"generala_points": 60}, HELD_60),
    ("double-generala", "5-5-5-5-5", ANY, 120,
     {"generala_points": 60, "double_points": 120}, HELD_60),
    ("double-generala", "5-5-5-5-5", 1, 100, {"served_generala_wins": False}, HELD),
    ("double-generala", "5-5-5-5-5", ANY, 100, {"served_bonus": 10}, HELD),
    # Generala box open or scratched: five alike earns 0 there
    ("double-generala", "5-5-5-5-5", ANY, 0, {}, {}),
    ("double-generala", "5-5-5-5-5", ANY, 0, {}, SCRATCHED),
    ("double-generala", "5-5-5-5-5", ANY, 0, {"double_points": 120}, SCRATCHED),
    # other boxes filled do not matter, only the Generala box does
    ("double-generala", "5-5-5-5-5", ANY, 0, {}, {"fives": 25, "four-kind": 40}),
    ("double-generala", "5-5-5-5-5", ANY, 100, {}, {"fives": 0, "generala": 50}),
    # not five alike
    ("double-generala", "5-5-5-5-1", ANY, 0, {}, HELD),
    ("double-generala", "1-2-3-4-5", ANY, 0, {}, HELD),
    ("double-generala", "3-3-3-5-5", ANY, 0, {}, HELD),
]

ARGENTINE_SERVED_BONUS = [
    # box         dice         base points
    ("straight", "1-2-3-4-5", 20),
    ("straight", "2-3-4-5-6", 20),
    ("full-house", "3-3-3-5-5", 30),
    ("four-kind", "2-2-2-2-6", 40),
    ("four-kind", "6-6-6-6-6", 40),
]


def served_bonus_rows():
    rows = []
    for bonus in (5, 10, 0):
        for box, text, base in ARGENTINE_SERVED_BONUS:
            rows.append((box, text, 1, base + bonus, {"served_bonus": bonus}))
            rows.append((box, text, LATER, base, {"served_bonus": bonus}))
        # the bonus is only for straight, full house and four of a kind
        rows.append(("generala", "6-6-6-6-6", 1, 50, {"served_bonus": bonus}))
        rows.append(("sixes", "6-6-6-6-1", 1, 24, {"served_bonus": bonus}))
        rows.append(("double-generala", "6-6-6-6-6", 1, 100, {"served_bonus": bonus}, HELD))
        # with no straight/full/four, the bonus never turns 0 into points
        rows.append(("straight", "1-1-3-4-5", 1, 0, {"served_bonus": bonus}))
        rows.append(("full-house", "6-6-6-6-6", 1, 0, {"served_bonus": bonus}))
        rows.append(("four-kind", "6-6-6-5-5", 1, 0, {"served_bonus": bonus}))
    return rows


ARGENTINE_CASES = unique(
    expand("argentine", ARGENTINE_NUMBER_BOXES)
    + expand("argentine", ARGENTINE_STRAIGHT_DEFAULTS)
    + expand("argentine", straight_option_rows())
    + expand("argentine", ARGENTINE_FULL_HOUSE)
    + expand("argentine", ARGENTINE_FOUR_KIND)
    + expand("argentine", ARGENTINE_GENERALA)
    + expand("argentine", ARGENTINE_DOUBLE_GENERALA)
    + expand("argentine", served_bonus_rows())
)


@pytest.mark.parametrize("variant, options, box, text, roll, sheet, expected", ARGENTINE_CASES)
def test_argentine_box_scores_as_rules_md_says(variant, options, box, text, roll, sheet, expected):
    check(variant, options, box, text, roll, sheet, expected)


def test_argentine_double_generala_is_zero_when_sheet_is_none():
    rules = generala.variant("argentine")
    assert rules.score("double-generala", dice("5-5-5-5-5"), roll=2, sheet=None) == 0
    assert rules.score("double-generala", dice("5-5-5-5-5"), roll=2) == 0


def test_argentine_double_generala_box_is_unknown_when_option_is_off():
    rules = generala.variant("argentine", double_generala=False)
    with pytest.raises(generala.InvalidInput):
        rules.score("double-generala", dice("5-5-5-5-5"), roll=2, sheet={"generala": 50})


# =================================================================== puerto-rican

ACES_TAME = {"aces_wild": False}

PUERTO_RICAN_NUMBER_BOXES = [
    ("fours", "4-4-4-2-6", ANY, 12),
    ("twos", "4-4-4-2-6", ANY, 2),
    ("sixes", "4-4-4-2-6", ANY, 6),
    ("ones", "1-1-3-4-5", ANY, 2),
    # aces are wild only in the straight: a 1 is never a 2 or 6 elsewhere
    ("twos", "1-1-3-4-5", ANY, 0),
    ("sixes", "1-3-4-5-6", ANY, 6),
    ("twos", "1-2-3-4-5", ANY, 2),
    ("fives", "5-5-5-5-5", ANY, 25),
    ("threes", "1-2-4-5-6", ANY, 0),
]

PUERTO_RICAN_STRAIGHT = [
    # aces_wild on (default): each 1 may be a 2 or a 6
    ("straight", "1-2-3-4-5", 1, 25),
    ("straight", "1-2-3-4-5", LATER, 20),
    ("straight", "2-3-4-5-6", 1, 25),
    ("straight", "2-3-4-5-6", LATER, 20),
    ("straight", "1-3-4-5-6", 1, 25),  # 1 as 2
    ("straight", "1-3-4-5-6", LATER, 20),
    ("straight", "1-1-3-4-5", 1, 25),  # one 1 as 2
    ("straight", "1-1-3-4-5", LATER, 20),
    ("straight", "1-3-4-5-1", LATER, 20),
    ("straight", "1-3-4-5-1", 1, 25),
    ("straight", "2-3-4-5-1", 1, 25),
    ("straight", "2-3-4-5-1", LATER, 20),
    ("straight", "6-5-1-3-4", LATER, 20),
    ("straight", "1-2-3-4-6", ANY, 0),  # no 5, and a 1 is never a 5
    ("straight", "1-2-4-5-6", ANY, 0),  # no 3
    ("straight", "1-2-3-5-6", ANY, 0),
    ("straight", "1-1-4-5-6", ANY, 0),
    ("straight", "1-1-2-3-4", ANY, 0),
    ("straight", "1-1-3-4-6", ANY, 0),
    ("straight", "1-1-1-3-4", ANY, 0),
    ("straight", "2-2-3-4-5", ANY, 0),
    ("straight", "2-3-4-5-5", ANY, 0),
    ("straight", "1-1-1-1-1", ANY, 0),
    # aces_wild off: only 1-2-3-4-5 and 2-3-4-5-6, no wrap in this game
    ("straight", "1-2-3-4-5", 1, 25, ACES_TAME),
    ("straight", "1-2-3-4-5", LATER, 20, ACES_TAME),
    ("straight", "2-3-4-5-6", 1, 25, ACES_TAME),
    ("straight", "2-3-4-5-6", LATER, 20, ACES_TAME),
    ("straight", "2-3-4-5-1", LATER, 20, ACES_TAME),
    ("straight", "1-3-4-5-6", ANY, 0, ACES_TAME),
    ("straight", "3-4-5-6-1", ANY, 0, ACES_TAME),
    ("straight", "1-1-3-4-5", ANY, 0, ACES_TAME),
    ("straight", "1-3-4-5-1", ANY, 0, ACES_TAME),
    ("straight", "1-2-3-4-6", ANY, 0, ACES_TAME),
]

PUERTO_RICAN_FULL_HOUSE = [
    ("full-house", "3-3-3-5-5", 1, 35),
    ("full-house", "3-3-3-5-5", LATER, 30),
    ("full-house", "1-1-6-6-6", 1, 35),  # a pair of ones is a real pair
    ("full-house", "1-1-6-6-6", LATER, 30),
    ("full-house", "1-1-1-2-2", LATER, 30),
    ("full-house", "1-2-6-6-6", ANY, 0),  # a 1 is not a 2 outside the straight
    ("full-house", "1-6-6-6-6", ANY, 0),
    ("full-house", "4-4-4-4-4", ANY, 0),  # five alike is not a full house
    ("full-house", "4-4-4-4-2", ANY, 0),
    ("full-house", "4-4-2-2-3", ANY, 0),
    ("full-house", "1-2-3-4-5", ANY, 0),
    ("full-house", "3-3-3-5-5", 1, 35, ACES_TAME),
    ("full-house", "3-3-3-5-5", LATER, 30, ACES_TAME),
]

PUERTO_RICAN_FOUR_KIND = [
    ("four-kind", "2-2-2-2-6", 1, 45),
    ("four-kind", "2-2-2-2-6", LATER, 40),
    ("four-kind", "1-6-6-6-6", 1, 45),
    ("four-kind", "6-6-6-6-6", 1, 45),  # five alike satisfies four of a kind
    ("four-kind", "6-6-6-6-6", LATER, 40),
    ("four-kind", "1-6-6-6-2", ANY, 0),  # a 1 is not a 6 outside the straight
    ("four-kind", "1-1-6-6-6", ANY, 0),
    ("four-kind", "3-3-3-5-5", ANY, 0),
    ("four-kind", "2-2-2-2-6", 1, 45, ACES_TAME),
    ("four-kind", "2-2-2-2-6", LATER, 40, ACES_TAME),
]

PUERTO_RICAN_SMALL_GENERAL = [
    ("small-general", "4-4-4-4-4", LATER, 60),
    # five alike on roll 1 is the Big General (a win decided by the game);
    # score() still prices Small General at 60 on any roll
    ("small-general", "4-4-4-4-4", 1, 60),
    ("small-general", "1-1-1-1-1", ANY, 60),
    ("small-general", "4-4-4-4-4", ANY, 60, {"big_general_wins": False}),
    ("small-general", "4-4-4-4-4", ANY, 60, ACES_TAME),
    ("small-general", "4-4-4-4-1", ANY, 0),  # a 1 is not wild here
    ("small-general", "6-6-6-6-1", ANY, 0),
    ("small-general", "4-4-4-4-2", ANY, 0),
    ("small-general", "1-2-3-4-5", ANY, 0),
    ("small-general", "3-3-3-5-5", ANY, 0),
]

PUERTO_RICAN_CASES = unique(
    expand("puerto-rican", PUERTO_RICAN_NUMBER_BOXES)
    + expand("puerto-rican", PUERTO_RICAN_STRAIGHT)
    + expand("puerto-rican", PUERTO_RICAN_FULL_HOUSE)
    + expand("puerto-rican", PUERTO_RICAN_FOUR_KIND)
    + expand("puerto-rican", PUERTO_RICAN_SMALL_GENERAL)
)


@pytest.mark.parametrize("variant, options, box, text, roll, sheet, expected", PUERTO_RICAN_CASES)
def test_puerto_rican_box_scores_as_rules_md_says(
    variant, options, box, text, roll, sheet, expected
):
    check(variant, options, box, text, roll, sheet, expected)


# =================================================================== double

DOUBLE_GROUP_SCORES = [
    # one group of five dice; any roll, no reduction, no served bonus
    ("fours", "4-4-4-2-6", ANY, 12),
    ("twos", "4-4-4-2-6", ANY, 2),
    ("sixes", "4-4-4-2-6", ANY, 6),
    ("ones", "1-1-1-1-1", ANY, 5),
    ("sixes", "6-6-6-6-6", ANY, 30),
    ("threes", "1-2-4-5-6", ANY, 0),
    ("fives", "5-5-1-2-3", ANY, 10),
    # full house: three + two of different faces, worth the sum of the dice
    ("full-house", "2-2-3-3-3", ANY, 13),
    ("full-house", "6-6-6-5-5", ANY, 28),
    ("full-house", "1-1-1-2-2", ANY, 7),
    ("full-house", "5-6-5-6-6", ANY, 28),
    ("full-house", "5-5-5-5-5", ANY, 0),  # five alike is not a full house
    ("full-house", "3-3-3-3-2", ANY, 0),
    ("full-house", "2-2-3-3-4", ANY, 0),
    ("full-house", "1-2-3-4-5", ANY, 0),
    # small general: exactly 1-2-3-4-5, 21 points
    ("small-general", "1-2-3-4-5", ANY, 21),
    ("small-general", "5-4-3-2-1", ANY, 21),
    ("small-general", "2-3-4-5-6", ANY, 0),
    ("small-general", "1-3-4-5-6", ANY, 0),  # no aces wild in this game
    ("small-general", "1-1-3-4-5", ANY, 0),
    ("small-general", "1-2-3-4-4", ANY, 0),
    ("small-general", "1-1-1-1-1", ANY, 0),
    # big general: exactly 2-3-4-5-6, 30 points
    ("big-general", "2-3-4-5-6", ANY, 30),
    ("big-general", "6-2-5-3-4", ANY, 30),
    ("big-general", "1-2-3-4-5", ANY, 0),
    ("big-general", "1-3-4-5-6", ANY, 0),  # no aces wild, no wrap
    ("big-general", "2-3-4-5-5", ANY, 0),
    ("big-general", "6-6-6-6-6", ANY, 0),
    # five alike: 50 on any roll
    ("five-kind", "5-5-5-5-5", ANY, 50),
    ("five-kind", "1-1-1-1-1", ANY, 50),
    ("five-kind", "6-6-6-6-6", ANY, 50),
    ("five-kind", "5-5-5-5-1", ANY, 0),
    ("five-kind", "1-2-3-4-5", ANY, 0),
]


@pytest.mark.parametrize(
    "variant, options, box, text, roll, sheet, expected", expand("double", DOUBLE_GROUP_SCORES)
)
def test_double_group_of_five_scores_as_rules_md_says(
    variant, options, box, text, roll, sheet, expected
):
    check(variant, options, box, text, roll, sheet, expected)


# =================================================================== bulgarian

# Mandatory box for face f with n dice showing f: (n - 3) * f, negative included.
# dice with n copies of the face, filled up with other faces
def mandatory_rows():
    rows = []
    for index, box in enumerate(NUMBER_BOXES):
        face = index + 1
        others = [f for f in range(1, 7) if f != face]
        for n in range(6):
            group = [face] * n + others[: 5 - n]
            text = "-".join(str(d) for d in group)
            rows.append((box, text, ANY, (n - 3) * face))
    return rows


BULGARIAN_MANDATORY_EXAMPLES = [
    ("fours", "4-4-4-1-2", ANY, 0),  # three alike: "O", done
    ("fours", "4-4-4-4-2", ANY, 4),  # seed 000 §2.1: four 4s = +4
    ("fours", "4-4-4-4-4", ANY, 8),  # five 4s = +8
    ("fours", "4-4-1-2-3", ANY, -4),  # two 4s = -4 (Петя's sheet)
    ("fours", "4-1-2-3-5", ANY, -8),  # Decision: one = -2f
    ("fours", "1-2-3-5-6", ANY, -12),  # Decision: none = -3f
    ("twos", "2-2-2-2-6", ANY, 2),  # Румен
    ("sixes", "6-6-1-2-3", ANY, -6),  # Румен
    ("threes", "3-3-3-3-1", ANY, 3),  # Вера
    ("twos", "2-2-5-5-6", ANY, -2),  # Жоро
    ("ones", "1-1-1-1-1", ANY, 2),
    ("sixes", "1-1-1-1-1", ANY, -18),
]

BULGARIAN_COMBINATIONS = [
    # one pair: 2 x face of the highest pair
    ("pair", "5-5-1-2-3", ANY, 10),  # seed: 2 fives = 10
    ("pair", "4-4-1-2-3", ANY, 8),  # seed: 2 fours = 8
    ("pair", "3-3-5-5-1", ANY, 10),  # highest pair
    ("pair", "1-1-2-3-4", ANY, 2),
    ("pair", "6-6-6-1-2", ANY, 12),  # three alike holds a pair
    ("pair", "2-2-2-5-5", ANY, 10),  # highest pair of a full house
    ("pair", "6-6-6-5-5", ANY, 12),
    ("pair", "6-6-6-6-1", ANY, 12),
    ("pair", "2-2-2-2-2", ANY, 4),  # five alike counts as a pair
    ("pair", "1-2-3-4-6", ANY, 0),
    ("pair", "2-3-4-5-6", ANY, 0),
    # two pairs: sum of the four dice; a full house counts, four/five alike does not
    ("two-pairs", "3-3-5-5-1", ANY, 16),  # seed: 3+3+5+5 = 16
    ("two-pairs", "1-1-2-2-6", ANY, 6),
    ("two-pairs", "6-6-6-5-5", ANY, 22),  # Вера's sheet
    ("two-pairs", "6-6-5-5-5", ANY, 22),
    ("two-pairs", "2-2-2-5-5", ANY, 14),
    ("two-pairs", "4-4-4-4-2", ANY, 0),  # four alike is not two pairs
    ("two-pairs", "3-3-3-3-3", ANY, 0),  # five alike is not two pairs
    ("two-pairs", "3-3-3-1-2", ANY, 0),
    ("two-pairs", "3-3-1-2-4", ANY, 0),
    ("two-pairs", "1-2-3-4-5", ANY, 0),
    # three of a kind: 3 x face
    ("three-kind", "6-6-6-1-2", ANY, 18),  # seed: three sixes = 18
    ("three-kind", "5-5-5-3-3", ANY, 15),
    ("three-kind", "4-4-4-4-1", ANY, 12),  # four alike holds three alike
    ("three-kind", "2-2-2-2-2", ANY, 6),  # five alike counts as three of a kind
    ("three-kind", "2-2-1-3-4", ANY, 0),
    ("three-kind", "2-2-3-3-4", ANY, 0),
    # four of a kind (Каре): 4 x face
    ("four-kind", "3-3-3-3-1", ANY, 12),  # seed: four threes = 12
    ("four-kind", "5-5-5-5-5", ANY, 20),  # five alike counts as four of a kind
    ("four-kind", "6-6-6-6-2", ANY, 24),
    ("four-kind", "6-6-6-5-5", ANY, 0),
    ("four-kind", "1-2-3-4-5", ANY, 0),
    # full house (Фул): sum of the five dice
    ("full-house", "4-4-6-6-6", ANY, 26),  # seed: 4+4+6+6+6 = 26
    ("full-house", "6-6-6-5-5", ANY, 28),
    ("full-house", "1-1-1-2-2", ANY, 7),
    ("full-house", "2-2-2-2-2", ANY, 0),  # five alike is not a full house
    ("full-house", "2-2-2-2-3", ANY, 0),
    ("full-house", "2-2-3-3-4", ANY, 0),
    # small straight: exactly 1-2-3-4-5
    ("small-straight", "1-2-3-4-5", ANY, 15),
    ("small-straight", "5-4-3-2-1", ANY, 15),
    ("small-straight", "2-3-4-5-6", ANY, 0),
    ("small-straight", "1-3-4-5-6", ANY, 0),
    ("small-straight", "1-1-3-4-5", ANY, 0),
    ("small-straight", "1-2-3-4-6", ANY, 0),
    ("small-straight", "1-2-3-4-4", ANY, 0),
    # large straight: exactly 2-3-4-5-6
    ("large-straight", "2-3-4-5-6", ANY, 20),
    ("large-straight", "6-5-4-3-2", ANY, 20),
    ("large-straight", "1-2-3-4-5", ANY, 0),
    ("large-straight", "1-3-4-5-6", ANY, 0),
    ("large-straight", "2-3-4-5-5", ANY, 0),
    # chance: sum of the five dice
    ("chance", "6-3-5-2-2", ANY, 18),  # seed: 6+3+5+2+2 = 18
    ("chance", "1-1-1-1-1", ANY, 5),
    ("chance", "6-6-6-6-6", ANY, 30),
    ("chance", "1-2-3-4-5", ANY, 15),
    # general: five alike, 5 x face + 50
    ("general", "2-2-2-2-2", ANY, 60),  # seed: 10 + 50 = 60
    ("general", "6-6-6-6-6", ANY, 80),  # Жоро's 80
    ("general", "1-1-1-1-1", ANY, 55),
    ("general", "6-6-6-6-5", ANY, 0),
    ("general", "1-2-3-4-5", ANY, 0),
]


@pytest.mark.parametrize(
    "variant, options, box, text, roll, sheet, expected",
    unique(
        expand("bulgarian", mandatory_rows())
        + expand("bulgarian", BULGARIAN_MANDATORY_EXAMPLES)
        + expand("bulgarian", BULGARIAN_COMBINATIONS)
    ),
)
def test_bulgarian_box_scores_as_rules_md_says(variant, options, box, text, roll, sheet, expected):
    check(variant, options, box, text, roll, sheet, expected)


# =================================================================== options that never change score()

# (variant, option, values): these options steer the game, not the price of a box
NON_SCORING_OPTIONS = [
    ("argentine", "served_generala_wins", (True, False)),
    ("puerto-rican", "big_general_wins", (True, False)),
    ("puerto-rican", "stake_per_point", (0, 1, 2.5)),
]

SAMPLE_DICE = [
    "1-2-3-4-5", "2-3-4-5-6", "1-3-4-5-6", "1-1-3-4-5", "3-3-3-5-5",
    "2-2-2-2-6", "6-6-6-6-6", "1-1-1-1-1", "4-4-4-2-6", "1-2-2-5-6",
]
SAMPLE_SHEETS = [None, {"generala": 50}, {"generala": 0}]


@pytest.mark.parametrize("variant, option, values", NON_SCORING_OPTIONS)
def test_game_steering_options_do_not_change_any_box_score(variant, option, values):
    base = generala.variant(variant)
    for value in values:
        rules = generala.variant(variant, **{option: value})
        for box in base.categories:
            for text in SAMPLE_DICE:
                for roll in ANY:
                    for filled in SAMPLE_SHEETS:
                        if variant != "argentine" and filled is not None:
                            continue
                        sheet = full_sheet(base, filled)
                        assert rules.score(box, dice(text), roll=roll, sheet=sheet) == base.score(
                            box, dice(text), roll=roll, sheet=sheet
                        ), (option, value, box, text, roll, filled)


def test_score_accepts_a_list_as_well_as_a_tuple():
    rules = generala.variant("argentine")
    assert rules.score("fours", [4, 4, 4, 2, 6], roll=2) == 12


# =================================================================== invalid input

UNKNOWN_BOXES = [
    ("argentine", "yahtzee"),
    ("argentine", "Ones"),
    ("argentine", "general"),
    ("argentine", "small-general"),
    ("argentine", "chance"),
    ("argentine", ""),
    ("puerto-rican", "generala"),
    ("puerto-rican", "big-general"),  # the Big General is a win, not a box
    ("puerto-rican", "double-generala"),
    ("puerto-rican", "chance"),
    ("double", "straight"),
    ("double", "four-kind"),
    ("double", "generala"),
    ("bulgarian", "generala"),
    ("bulgarian", "straight"),
    ("bulgarian", "five-kind"),
    ("bulgarian", "small-general"),
]


@pytest.mark.parametrize("variant, box", UNKNOWN_BOXES)
def test_unknown_box_is_invalid_input_naming_the_box(variant, box):
    rules = generala.variant(variant)
    with pytest.raises(generala.InvalidInput) as err:
        rules.score(box, dice("1-2-3-4-5"), roll=2)
    if box:
        assert box in str(err.value)


BAD_DICE = [
    pytest.param((1, 2, 3, 4), id="four-dice"),
    pytest.param((1, 2, 3, 4, 5, 6), id="six-dice"),
    pytest.param((), id="no-dice"),
    pytest.param((0, 1, 2, 3, 4), id="face-0"),
    pytest.param((1, 2, 3, 4, 7), id="face-7"),
    pytest.param((-1, 2, 3, 4, 5), id="face-minus-1"),
    pytest.param((1, 2, 3, 4, 5) * 2, id="ten-dice"),
    pytest.param((1, 2, 3, 4, 5.5), id="face-5.5"),
]


@pytest.mark.parametrize("variant", ["argentine", "puerto-rican", "double", "bulgarian"])
@pytest.mark.parametrize("bad", BAD_DICE)
def test_dice_that_are_not_five_faces_1_to_6_are_invalid_input(variant, bad):
    rules = generala.variant(variant)
    with pytest.raises(generala.InvalidInput):
        rules.score("chance" if variant == "bulgarian" else "ones", bad, roll=2)


@pytest.mark.parametrize("variant", ["argentine", "puerto-rican", "double", "bulgarian"])
@pytest.mark.parametrize("roll", [0, 4, -1, 10])
def test_roll_outside_1_to_3_is_invalid_input(variant, roll):
    rules = generala.variant(variant)
    with pytest.raises(generala.InvalidInput):
        rules.score("ones", dice("1-2-3-4-5"), roll=roll)


# =================================================================== totals and ranking


def test_total_of_argentine_sheet_is_the_sum_and_open_boxes_count_zero():
    rules = generala.variant("argentine")
    sheet = full_sheet(rules, {"ones": 3, "sixes": 24, "straight": 25, "generala": 50,
                               "full-house": 0})
    assert rules.total(sheet) == 102
    assert rules.subtotals(sheet)["total"] == 102


@pytest.mark.parametrize("variant", ["argentine", "puerto-rican", "double", "bulgarian"])
def test_total_of_an_all_open_sheet_is_zero(variant):
    rules = generala.variant(variant)
    sheet = full_sheet(rules, {})
    assert rules.total(sheet) == 0
    assert rules.subtotals(sheet)["total"] == 0


def test_total_of_puerto_rican_and_double_sheets_is_the_sum():
    pr = generala.variant("puerto-rican")
    sheet = full_sheet(pr, {"fours": 12, "straight": 25, "full-house": 30,
                            "four-kind": 45, "small-general": 60})
    assert pr.total(sheet) == 172
    assert pr.subtotals(sheet)["total"] == 172
    double = generala.variant("double")
    sheet = full_sheet(double, {"small-general": 21, "big-general": 30, "five-kind": 50,
                                "full-house": 28, "sixes": 0})
    assert double.total(sheet) == 129
    assert double.subtotals(sheet)["total"] == 129


#  mandatory boxes (ones..sixes), combinations -> mandatory, penalty, combinations, total
BULGARIAN_TOTALS = [
    ((0, 0, 0, -4, 0, 0), {"pair": 8, "chance": 19}, -4, -50, 27, -27),
    ((0, 0, 0, 0, 0, -1), {}, -1, -50, 0, -51),
    ((0, 2, 0, 4, 0, -6), {"general": 80}, 0, 0, 80, 80),  # exactly 0: no penalty
    ((0, 0, 3, 8, 0, 0), {"pair": 12, "two-pairs": 22}, 11, 0, 34, 45),
    ((-3, -6, -9, -12, -15, -18), {}, -63, -50, 0, -113),
    ((2, 4, 6, 8, 10, 12), {"chance": 30}, 42, 0, 30, 72),
]


@pytest.mark.parametrize("mandatory, combos, m_sum, penalty, c_sum, total", BULGARIAN_TOTALS)
def test_bulgarian_total_adds_minus_50_only_when_mandatory_sum_is_negative(
    mandatory, combos, m_sum, penalty, c_sum, total
):
    rules = generala.variant("bulgarian")
    filled = dict(zip(NUMBER_BOXES, mandatory))
    filled.update(combos)
    sheet = full_sheet(rules, filled)
    sub = rules.subtotals(sheet)
    assert (sub["mandatory"], sub["penalty"], sub["combinations"], sub["total"]) == (
        m_sum, penalty, c_sum, total
    )
    assert rules.total(sheet) == total


def test_bulgarian_open_mandatory_boxes_count_zero_and_bring_no_penalty():
    rules = generala.variant("bulgarian")
    sheet = full_sheet(rules, {"pair": 10})
    sub = rules.subtotals(sheet)
    assert (sub["mandatory"], sub["penalty"], sub["combinations"], sub["total"]) == (0, 0, 10, 10)


RANKINGS = [
    ([10, 30, 30, 5], [3, 1, 1, 4]),
    ([20, 117, 233, 212], [4, 3, 1, 2]),  # seed 000
    ([5], [1]),
    ([], []),
    ([7, 7, 7], [1, 1, 1]),
    ([1, 2, 3], [3, 2, 1]),
    ([3, 3, 1], [1, 1, 3]),  # RULES.md: equal totals share a place (1, 1, 3)
    ([9, 5, 5, 5, 1], [1, 2, 2, 2, 5]),
    ([-54, 0, -113], [2, 1, 3]),
    ([0, 0], [1, 1]),
]


@pytest.mark.parametrize("totals, places", RANKINGS)
def test_ranking_places_highest_first_and_ties_share_a_place(totals, places):
    assert list(generala.ranking(totals)) == places


def test_ranking_accepts_a_tuple():
    assert list(generala.ranking((10, 30, 30, 5))) == [3, 1, 1, 4]


# =================================================================== double: best split / best play


def ten(text):
    return dice(text)


def check_split(rules, dice10, box_a, box_b, split):
    assert len(split.group_a) == 5 and len(split.group_b) == 5
    assert tuple(split.group_a) == tuple(sorted(split.group_a))
    assert tuple(split.group_b) == tuple(sorted(split.group_b))
    assert sorted(split.group_a + split.group_b) == sorted(dice10)
    assert split.points_a == rules.score(box_a, split.group_a, roll=3)
    assert split.points_b == rules.score(box_b, split.group_b, roll=3)
    assert split.total == split.points_a + split.points_b


BEST_SPLITS = [
    # ten dice,                box_a,          box_b,          group_a,       group_b,     a,  b
    ("1-2-3-4-5-2-3-4-5-6", "small-general", "big-general", "1-2-3-4-5", "2-3-4-5-6", 21, 30),
    ("6-5-4-3-2-5-4-3-2-1", "big-general", "small-general", "2-3-4-5-6", "1-2-3-4-5", 30, 21),
    # five 5s in five-kind and five 6s in sixes (80) beats the other way round (50)
    ("6-6-6-6-6-5-5-5-5-5", "five-kind", "sixes", "5-5-5-5-5", "6-6-6-6-6", 50, 30),
    # 5-5-5-2-2 = 19 in full house + 30 in sixes (49) beats 6-6-6-5-5 + 6-6-5-2-2 (28 + 12)
    ("6-6-6-6-6-5-5-5-2-2", "full-house", "sixes", "2-2-5-5-5", "6-6-6-6-6", 19, 30),
    # small general needs the only 1..4: the rest 6-6-6-5-5 is a full house of 28
    ("1-2-3-4-5-6-6-6-5-5", "small-general", "full-house", "1-2-3-4-5", "5-5-6-6-6", 21, 28),
    ("6-6-6-6-6-6-1-1-1-1", "sixes", "ones", "6-6-6-6-6", "1-1-1-1-6", 30, 4),
    ("1-1-1-1-1-2-2-2-2-2", "twos", "ones", "2-2-2-2-2", "1-1-1-1-1", 10, 5),
]


@pytest.mark.parametrize("text, box_a, box_b, group_a, group_b, points_a, points_b", BEST_SPLITS)
def test_best_split_finds_the_hand_computed_optimum(
    text, box_a, box_b, group_a, group_b, points_a, points_b
):
    rules = generala.variant("double")
    split = rules.best_split(ten(text), box_a, box_b)
    check_split(rules, ten(text), box_a, box_b, split)
    assert (split.points_a, split.points_b, split.total) == (points_a, points_b, points_a + points_b)
    assert tuple(split.group_a) == dice(group_a)
    assert tuple(split.group_b) == dice(group_b)


def test_best_split_is_a_named_tuple_with_total():
    rules = generala.variant("double")
    split = rules.best_split(ten("1-2-3-4-5-2-3-4-5-6"), "small-general", "big-general")
    group_a, group_b, points_a, points_b = split
    assert (points_a, points_b) == (21, 30)
    assert split._fields == ("group_a", "group_b", "points_a", "points_b")
    assert split.total == 51


def test_best_split_with_nothing_to_earn_is_zero_and_keeps_the_dice():
    rules = generala.variant("double")
    dice10 = ten("1-1-2-2-3-3-4-4-6-6")
    split = rules.best_split(dice10, "five-kind", "big-general")
    check_split(rules, dice10, "five-kind", "big-general", split)
    assert split.total == 0


@pytest.mark.parametrize(
    "box_a, box_b",
    [("full-house", "fives"), ("threes", "sixes"), ("fives", "full-house"),
     ("full-house", "twos"), ("five-kind", "full-house")],
)
def test_best_split_matches_brute_force_on_a_mixed_roll(box_a, box_b):
    rules = generala.variant("double")
    dice10 = ten("3-3-3-2-2-5-5-5-6-6")
    best = max(
        rules.score(box_a, [dice10[i] for i in idx], roll=3)
        + rules.score(box_b, [dice10[i] for i in range(10) if i not in idx], roll=3)
        for idx in combinations(range(10), 5)
    )
    split = rules.best_split(dice10, box_a, box_b)
    check_split(rules, dice10, box_a, box_b, split)
    assert split.total == best


BAD_SPLIT_CALLS = [
    pytest.param("1-2-3-4-5-2-3-4-5-6", "sixes", "sixes", id="same-box"),
    pytest.param("1-2-3-4-5-2-3-4-5", "sixes", "fives", id="nine-dice"),
    pytest.param("1-2-3-4-5-2-3-4-5-6-6", "sixes", "fives", id="eleven-dice"),
    pytest.param("1-2-3-4-5", "sixes", "fives", id="five-dice"),
    pytest.param("1-2-3-4-5-2-3-4-5-7", "sixes", "fives", id="face-7"),
    pytest.param("1-2-3-4-5-2-3-4-5-6", "sixes", "straight", id="unknown-box"),
]


@pytest.mark.parametrize("text, box_a, box_b", BAD_SPLIT_CALLS)
def test_best_split_rejects_bad_calls(text, box_a, box_b):
    rules = generala.variant("double")
    with pytest.raises(generala.InvalidInput):
        rules.best_split(dice(text), box_a, box_b)


BEST_PLAYS = [
    # ten dice, filled boxes (others open), the best box pair, best total
    ("1-2-3-4-5-2-3-4-5-6", {}, {"small-general", "big-general"}, 51),
    ("6-6-6-6-6-6-6-6-6-6", {}, {"five-kind", "sixes"}, 80),
    # five-kind filled: the best left is 30 in sixes (+0 elsewhere)
    ("6-6-6-6-6-6-6-6-6-6", {"five-kind": 50}, None, 30),
    # big general scratched: small general + full house of 5-5-6-6-6
    ("1-2-3-4-5-6-6-6-5-5", {"big-general": 0}, {"small-general", "full-house"}, 49),
]


@pytest.mark.parametrize("text, filled, pair, total", BEST_PLAYS)
def test_best_play_picks_the_best_pair_of_open_boxes(text, filled, pair, total):
    rules = generala.variant("double")
    dice10 = ten(text)
    box_a, box_b, split = rules.best_play(dice10, full_sheet(rules, filled))
    assert box_a != box_b
    assert box_a not in filled and box_b not in filled
    if pair is not None:
        assert {box_a, box_b} == pair
    check_split(rules, dice10, box_a, box_b, split)
    assert split.total == total


def test_best_play_with_no_sheet_treats_every_box_as_open():
    rules = generala.variant("double")
    box_a, box_b, split = rules.best_play(ten("1-2-3-4-5-2-3-4-5-6"), None)
    assert {box_a, box_b} == {"small-general", "big-general"}
    assert split.total == 51


def test_best_play_uses_only_the_two_open_boxes_left():
    rules = generala.variant("double")
    filled = {box: 0 for box in rules.categories if box not in ("ones", "twos")}
    dice10 = ten("1-1-1-1-1-2-2-2-2-2")
    box_a, box_b, split = rules.best_play(dice10, full_sheet(rules, filled))
    assert {box_a, box_b} == {"ones", "twos"}
    check_split(rules, dice10, box_a, box_b, split)
    assert split.total == 15


def test_best_play_rejects_a_roll_that_is_not_ten_dice():
    rules = generala.variant("double")
    with pytest.raises(generala.InvalidInput):
        rules.best_play(dice("1-2-3-4-5"), None)


# =================================================================== straights over every hand

ALL_HANDS = sorted(
    {tuple(sorted((a, b, c, d, e))) for a in range(1, 7) for b in range(1, 7)
     for c in range(1, 7) for d in range(1, 7) for e in range(1, 7)}
)
RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def ace_readings(hand, ace_as):
    """Every way of reading the hand when each 1 may also count as one of ``ace_as``."""
    readings = [()]
    for die in hand:
        options = (die, *ace_as) if die == 1 else (die,)
        readings = [r + (o,) for r in readings for o in options]
    return readings


def is_run(reading):
    return len(set(reading)) == 5 and set(reading) in RUNS


def argentine_straight(hand, wrap, any_five, ace_as_two):
    """RULES.md, argentine Straight: 1-2-3-4-5, 2-3-4-5-6, [3-4-5-6-1], [five different], [1 for 2]."""
    faces = set(hand)
    if len(faces) == 5 and faces in RUNS:
        return True
    if wrap and faces == {3, 4, 5, 6, 1}:
        return True
    if any_five and len(faces) == 5:
        return True
    if ace_as_two and any(is_run(r) for r in ace_readings(hand, (2,))):
        return True
    return False


# With both straight_any_five and ace_as_two on, RULES.md does not say whether a 1
# standing in for a 2 may complete an "any five" straight: these hands are left out.
AMBIGUOUS_ANY_FIVE_ACE = {(1, 1, 3, 4, 6), (1, 1, 3, 5, 6), (1, 1, 4, 5, 6)}


@pytest.mark.parametrize("wrap", [True, False])
@pytest.mark.parametrize("any_five", [False, True])
@pytest.mark.parametrize("ace_as_two", [False, True])
def test_argentine_straight_on_every_hand_under_every_straight_option(wrap, any_five, ace_as_two):
    rules = generala.variant(
        "argentine", straight_wrap=wrap, straight_any_five=any_five, ace_as_two=ace_as_two
    )
    wrong = []
    for hand in ALL_HANDS:
        if any_five and ace_as_two and hand in AMBIGUOUS_ANY_FIVE_ACE:
            continue
        want = 20 if argentine_straight(hand, wrap, any_five, ace_as_two) else 0
        for roll in (1, 2):
            expected = want + 5 if roll == 1 and want else want
            got = rules.score("straight", hand, roll=roll)
            if got != expected:
                wrong.append((hand, roll, expected, got))
    assert not wrong, f"(hand, roll, RULES.md, engine): {wrong}"


@pytest.mark.parametrize("aces_wild", [True, False])
def test_puerto_rican_straight_on_every_hand(aces_wild):
    rules = generala.variant("puerto-rican", aces_wild=aces_wild)
    ace_as = (2, 6) if aces_wild else ()
    wrong = []
    for hand in ALL_HANDS:
        straight = any(is_run(r) for r in ace_readings(hand, ace_as))
        for roll, points in ((1, 25), (2, 20), (3, 20)):
            expected = points if straight else 0
            got = rules.score("straight", hand, roll=roll)
            if got != expected:
                wrong.append((hand, roll, expected, got))
    assert not wrong, f"(hand, roll, RULES.md, engine): {wrong}"
