"""Hypothesis properties of Rules.score (and of the double's best split), from RULES.md."""
from functools import lru_cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

import generala

NUMBER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")

# Every option value RULES.md allows: the same table the variant tests pin.
from test_variants import ALLOWED_OPTIONS as OPTION_VALUES  # noqa: E402


@lru_cache(maxsize=None)
def rules_for(name, options):
    return generala.variant(name, **dict(options))


@st.composite
def any_rules(draw, names=tuple(OPTION_VALUES)):
    name = draw(st.sampled_from(names))
    options = draw(
        st.fixed_dictionaries(
            {opt: st.sampled_from(values) for opt, values in OPTION_VALUES[name].items()}
        )
    )
    return rules_for(name, tuple(sorted(options.items())))


five_dice = st.lists(st.integers(1, 6), min_size=5, max_size=5)
rolls = st.sampled_from((1, 2, 3))


@st.composite
def sheets(draw, rules):
    """None, or a full sheet; for argentine the Generala box may be open, held or scratched."""
    if draw(st.booleans()):
        return None
    sheet = {box: None for box in rules.categories}
    if "generala" in sheet:
        sheet["generala"] = draw(st.sampled_from((None, 0, 50, 60)))
    return sheet


@st.composite
def scoring_case(draw, names=tuple(OPTION_VALUES)):
    rules = draw(any_rules(names))
    box = draw(st.sampled_from(rules.categories))
    dice = draw(five_dice)
    roll = draw(rolls)
    sheet = draw(sheets(rules))
    return rules, box, dice, roll, sheet


@settings(max_examples=300, deadline=None)
@given(case=scoring_case(), data=st.data())
def test_score_does_not_depend_on_dice_order(case, data):
    rules, box, dice, roll, sheet = case
    shuffled = data.draw(st.permutations(dice), label="shuffled")
    assert rules.score(box, dice, roll=roll, sheet=sheet) == rules.score(
        box, shuffled, roll=roll, sheet=sheet
    )
    assert rules.score(box, tuple(dice), roll=roll, sheet=sheet) == rules.score(
        box, sorted(dice), roll=roll, sheet=sheet
    )


@settings(max_examples=300, deadline=None)
@given(case=scoring_case())
def test_scores_are_never_negative_except_bulgarian_mandatory_boxes(case):
    rules, box, dice, roll, sheet = case
    points = rules.score(box, dice, roll=roll, sheet=sheet)
    assert isinstance(points, int)
    if rules.name == "bulgarian" and box in NUMBER_BOXES:
        face = NUMBER_BOXES.index(box) + 1
        assert points == (dice.count(face) - 3) * face
        assert -3 * face <= points <= 2 * face
    else:
        assert points >= 0


@settings(max_examples=300, deadline=None)
@given(case=scoring_case())
def test_roll_2_and_roll_3_always_score_the_same(case):
    rules, box, dice, _, sheet = case
    assert rules.score(box, dice, roll=2, sheet=sheet) == rules.score(box, dice, roll=3, sheet=sheet)


@settings(max_examples=200, deadline=None)
@given(case=scoring_case())
def test_the_first_roll_never_scores_less_than_a_later_roll(case):
    rules, box, dice, _, sheet = case
    assert rules.score(box, dice, roll=1, sheet=sheet) >= rules.score(
        box, dice, roll=2, sheet=sheet
    )


@settings(max_examples=200, deadline=None)
@given(case=scoring_case(("double", "bulgarian")))
def test_double_and_bulgarian_scores_do_not_depend_on_the_roll(case):
    rules, box, dice, _, sheet = case
    scores = {rules.score(box, dice, roll=r, sheet=sheet) for r in (1, 2, 3)}
    assert len(scores) == 1


@settings(max_examples=200, deadline=None)
@given(case=scoring_case(("argentine", "puerto-rican", "double")))
def test_number_boxes_score_the_sum_of_that_face(case):
    rules, _, dice, roll, sheet = case
    for index, box in enumerate(NUMBER_BOXES):
        face = index + 1
        assert rules.score(box, dice, roll=roll, sheet=sheet) == face * dice.count(face)


@settings(max_examples=300, deadline=None)
@given(case=scoring_case(("bulgarian",)))
def test_bulgarian_chance_is_the_sum_of_the_dice(case):
    rules, _, dice, roll, sheet = case
    assert rules.score("chance", dice, roll=roll, sheet=sheet) == sum(dice)


@settings(max_examples=200, deadline=None)
@given(case=scoring_case(), data=st.data())
def test_only_double_generala_depends_on_the_sheet(case, data):
    rules, box, dice, roll, _ = case
    filled = data.draw(
        st.fixed_dictionaries(
            {}, optional={b: st.sampled_from((0, 5, 20, 50)) for b in rules.categories}
        ),
        label="filled boxes",
    )
    sheet = {b: filled.get(b) for b in rules.categories}
    if box == "double-generala":
        return
    assert rules.score(box, dice, roll=roll, sheet=sheet) == rules.score(box, dice, roll=roll)


# ---------------------------------------------------------------- double: splits

ten_dice = st.lists(st.integers(1, 6), min_size=10, max_size=10)
DOUBLE_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes",
                "full-house", "small-general", "big-general", "five-kind")
box_pairs = st.lists(st.sampled_from(DOUBLE_BOXES), min_size=2, max_size=2, unique=True)


def brute_force_best(rules, dice10, box_a, box_b):
    best = 0
    for idx in combinations(range(10), 5):
        group_a = [dice10[i] for i in idx]
        group_b = [dice10[i] for i in range(10) if i not in idx]
        best = max(best, rules.score(box_a, group_a, roll=3) + rules.score(box_b, group_b, roll=3))
    return best


@settings(max_examples=100, deadline=None)
@given(dice10=ten_dice, boxes=box_pairs)
def test_best_split_is_a_real_split_with_the_brute_force_maximum(dice10, boxes):
    rules = rules_for("double", ())
    box_a, box_b = boxes
    split = rules.best_split(dice10, box_a, box_b)
    assert sorted(tuple(split.group_a) + tuple(split.group_b)) == sorted(dice10)
    assert tuple(split.group_a) == tuple(sorted(split.group_a)) and len(split.group_a) == 5
    assert tuple(split.group_b) == tuple(sorted(split.group_b)) and len(split.group_b) == 5
    assert split.points_a == rules.score(box_a, split.group_a, roll=3)
    assert split.points_b == rules.score(box_b, split.group_b, roll=3)
    assert split.total == split.points_a + split.points_b
    assert split.total == brute_force_best(rules, dice10, box_a, box_b)


@settings(max_examples=25, deadline=None)
@given(
    dice10=ten_dice,
    filled=st.lists(st.sampled_from(DOUBLE_BOXES), max_size=8, unique=True),
)
def test_best_play_is_the_best_split_over_all_pairs_of_open_boxes(dice10, filled):
    rules = rules_for("double", ())
    sheet = {box: (0 if box in filled else None) for box in DOUBLE_BOXES}
    open_boxes = [box for box in DOUBLE_BOXES if box not in filled]
    box_a, box_b, split = rules.best_play(dice10, sheet)
    assert box_a in open_boxes and box_b in open_boxes and box_a != box_b
    best = max(
        rules.best_split(dice10, a, b).total for a, b in combinations(open_boxes, 2)
    )
    assert split.total == best
    assert split.points_a == rules.score(box_a, split.group_a, roll=3)
    assert split.points_b == rules.score(box_b, split.group_b, roll=3)
