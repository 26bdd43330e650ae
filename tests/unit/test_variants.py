"""Variant construction: names, options, defaults, categories, turns, dice.

Written from /work/shared/RULES.md (the spec) independently of the engine:
options are listed there with their default first.
"""
import math

import pytest

import generala
from generala.rules.refusals import shown

NUMBER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")

# variant -> {option: (default, *other allowed values)}; the first value is the default.
ALLOWED_OPTIONS = {
    "argentine": {
        "served_bonus": (5, 10, 0),
        "generala_points": (50, 60),
        "double_generala": (True, False),
        "double_points": (100, 120),
        "straight_wrap": (True, False),
        "straight_any_five": (False, True),
        "ace_as_two": (False, True),
        "served_generala_wins": (True, False),
        # house rules beyond the seeds (docs/house-rules.md): defaults keep RULES.md's rules
        "combination_points": ("20-30-40", "25-35-45", "30-50-80-100-200"),
        "five_alike_four_kind": (True, False),
        "served_generala_bonus": (False, True),
        "served_win_choice": (False, True),
        "served_generala_written": (False, True),
        "generala_scratch_last": (False, True),
        "double_after_generala": (False, True),
    },
    "puerto-rican": {
        "big_general_wins": (True, False),
        "aces_wild": (True, False),
        # stake_per_point: any non-negative number; default 0 (settlement off).
        "stake_per_point": (0, 1, 0.5, 2.25, 10, 1000),
        "five_alike_full_house": (False, True),
    },
    "double": {},
    "bulgarian": {},
}

BOOLEAN_OPTIONS = {
    ("argentine", "double_generala"),
    ("argentine", "straight_wrap"),
    ("argentine", "straight_any_five"),
    ("argentine", "ace_as_two"),
    ("argentine", "served_generala_wins"),
    ("argentine", "five_alike_four_kind"),
    ("argentine", "served_generala_bonus"),
    ("argentine", "served_win_choice"),
    ("argentine", "served_generala_written"),
    ("argentine", "generala_scratch_last"),
    ("argentine", "double_after_generala"),
    ("puerto-rican", "big_general_wins"),
    ("puerto-rican", "aces_wild"),
    ("puerto-rican", "five_alike_full_house"),
}

DEFAULTS = {
    name: {option: values[0] for option, values in options.items()}
    for name, options in ALLOWED_OPTIONS.items()
}

CATEGORIES = {
    "argentine": NUMBER_BOXES
    + ("straight", "full-house", "four-kind", "generala", "double-generala"),
    "puerto-rican": NUMBER_BOXES + ("straight", "full-house", "four-kind", "small-general"),
    "double": NUMBER_BOXES + ("full-house", "small-general", "big-general", "five-kind"),
    "bulgarian": NUMBER_BOXES
    + (
        "pair",
        "two-pairs",
        "three-kind",
        "four-kind",
        "full-house",
        "small-straight",
        "large-straight",
        "chance",
        "general",
    ),
}

#           name:            dice, turns per side
SHAPE = {
    "argentine": (5, 11),
    "puerto-rican": (5, 10),
    "double": (10, 5),
    "bulgarian": (5, 15),
}

VARIANT_NAMES = tuple(ALLOWED_OPTIONS)


def allowed_option_values():
    for name, options in ALLOWED_OPTIONS.items():
        for option, values in options.items():
            for value in values:
                yield pytest.param(name, option, value, id=f"{name}-{option}={value!r}")


# ---------------------------------------------------------------- names, defaults


BAD_CONSTRUCTIONS = [
    ("an unknown variant", "yacht", {}),
    ("an unknown option", "argentine", {"served_bonuss": 5}),
    ("a value out of range", "argentine", {"served_bonus": 7}),
    ("a boolean given as a number", "argentine", {"straight_wrap": 1}),
    ("an option where there are none", "bulgarian", {"anything": 1}),
]


@pytest.mark.parametrize("what, name, options", BAD_CONSTRUCTIONS, ids=[c[0] for c in BAD_CONSTRUCTIONS])
def test_a_bad_variant_or_option_raises_invalid_input_that_a_value_error_handler_catches(what, name, options):
    # A caller that knows only the standard library catches ValueError; one that knows
    # the engine tells the kind apart: exactly InvalidInput (never valid), not an
    # illegal move or a bad save, with a message.
    try:
        generala.variant(name, **options)
    except ValueError as err:
        caught = err
    else:
        pytest.fail(f"{what} was accepted")
    assert type(caught) is generala.InvalidInput, type(caught)
    assert str(caught).strip()


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_variant_keeps_its_name(name):
    assert generala.variant(name).name == name


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_default_options_are_filled_in_as_rules_md_lists_them(name):
    rules = generala.variant(name)
    assert dict(rules.options) == DEFAULTS[name]


def test_double_and_bulgarian_have_no_options():
    assert dict(generala.variant("double").options) == {}
    assert dict(generala.variant("bulgarian").options) == {}


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_categories_are_the_box_ids_in_sheet_order(name):
    rules = generala.variant(name)
    assert isinstance(rules.categories, tuple)
    assert rules.categories == CATEGORIES[name]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_dice_count_and_turns_per_side(name):
    rules = generala.variant(name)
    assert (rules.dice, rules.turns) == SHAPE[name]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_variant_has_one_turn_per_box_except_double_which_fills_two(name):
    rules = generala.variant(name)
    per_turn = 2 if name == "double" else 1
    assert rules.turns * per_turn == len(rules.categories)


def test_argentine_without_double_generala_drops_the_box_and_a_turn():
    rules = generala.variant("argentine", double_generala=False)
    assert rules.categories == CATEGORIES["argentine"][:-1]
    assert "double-generala" not in rules.categories
    assert rules.turns == 10
    assert rules.dice == 5
    assert rules.options["double_generala"] is False


def test_argentine_with_double_generala_explicitly_on_keeps_eleven_boxes():
    rules = generala.variant("argentine", double_generala=True)
    assert rules.categories == CATEGORIES["argentine"]
    assert rules.turns == 11


# ---------------------------------------------------------------- allowed values


@pytest.mark.parametrize("name, option, value", allowed_option_values())
def test_every_allowed_option_value_is_accepted_and_reported(name, option, value):
    rules = generala.variant(name, **{option: value})
    expected = dict(DEFAULTS[name], **{option: value})
    assert dict(rules.options) == expected
    assert rules.options[option] == value


def test_all_argentine_options_given_together_are_all_reported():
    chosen = {
        "served_bonus": 10,
        "generala_points": 60,
        "double_generala": False,
        "double_points": 120,
        "straight_wrap": False,
        "straight_any_five": True,
        "ace_as_two": True,
        "served_generala_wins": False,
        "combination_points": "25-35-45",
        "five_alike_four_kind": False,
        "served_generala_bonus": True,
        "served_win_choice": True,
        "served_generala_written": True,
        "generala_scratch_last": True,
        "double_after_generala": True,
    }
    rules = generala.variant("argentine", **chosen)
    assert dict(rules.options) == chosen


def test_all_puerto_rican_options_given_together_are_all_reported():
    chosen = {"big_general_wins": False, "aces_wild": False, "stake_per_point": 3,
              "five_alike_full_house": True}
    rules = generala.variant("puerto-rican", **chosen)
    assert dict(rules.options) == chosen


def test_options_of_one_variant_do_not_leak_into_another():
    generala.variant("argentine", served_bonus=10)
    assert dict(generala.variant("argentine").options) == DEFAULTS["argentine"]


# ---------------------------------------------------------------- rejections


@pytest.mark.parametrize("bad_name", ["yahtzee", "generala", "", "argentina", "puerto rican"])
def test_unknown_variant_is_rejected_naming_it_and_the_four_variants(bad_name):
    with pytest.raises(generala.InvalidInput) as err:
        generala.variant(bad_name)
    message = str(err.value)
    if bad_name:
        assert bad_name in message
    for name in VARIANT_NAMES:
        assert name in message


@pytest.mark.parametrize("bad_name", [None, 3, ("argentine",)], ids=repr)
def test_variant_name_that_is_not_a_string_is_invalid_input(bad_name):
    with pytest.raises(generala.InvalidInput):
        generala.variant(bad_name)


UNKNOWN_OPTIONS = [
    ("argentine", "served_bonuss", 5),
    ("argentine", "aces_wild", True),  # a puerto-rican option
    ("argentine", "stake_per_point", 1),
    ("puerto-rican", "served_bonus", 5),  # an argentine option
    ("puerto-rican", "double_generala", True),
    ("double", "aces_wild", True),
    ("double", "served_bonus", 5),
    ("bulgarian", "generala_points", 50),
    ("bulgarian", "penalty", 50),
]


@pytest.mark.parametrize("name, option, value", UNKNOWN_OPTIONS)
def test_unknown_option_is_rejected_naming_it_and_the_allowed_options(name, option, value):
    with pytest.raises(generala.InvalidInput) as err:
        generala.variant(name, **{option: value})
    message = str(err.value)
    assert option in message
    for allowed in ALLOWED_OPTIONS[name]:
        assert allowed in message


BAD_ENUM_VALUES = [
    ("argentine", "served_bonus", 7),
    ("argentine", "served_bonus", 15),
    ("argentine", "served_bonus", -5),
    ("argentine", "served_bonus", "5"),
    ("argentine", "served_bonus", None),
    ("argentine", "generala_points", 55),
    ("argentine", "generala_points", 100),
    ("argentine", "generala_points", "50"),
    ("argentine", "double_points", 110),
    ("argentine", "double_points", 50),
]


@pytest.mark.parametrize("name, option, value", BAD_ENUM_VALUES)
def test_out_of_range_value_is_rejected_naming_option_value_and_allowed_values(
    name, option, value
):
    with pytest.raises(generala.InvalidInput) as err:
        generala.variant(name, **{option: value})
    message = str(err.value)
    assert option in message
    assert shown(value) in message  # the value refused, written as JSON
    assert (err.value.code, err.value.params["option"]) == ("option.value", option)
    for allowed in ALLOWED_OPTIONS[name][option]:
        assert str(allowed) in message


@pytest.mark.parametrize("value", [True, False])
def test_numeric_option_served_bonus_rejects_booleans(value):
    # False == 0 and True == 1 in Python, but a boolean is not one of 5 | 10 | 0.
    with pytest.raises(generala.InvalidInput):
        generala.variant("argentine", served_bonus=value)


BAD_BOOLEAN_VALUES = [1, 0, "on", "off", "true", "yes", None, 2]


@pytest.mark.parametrize("name, option", sorted(BOOLEAN_OPTIONS))
@pytest.mark.parametrize("value", BAD_BOOLEAN_VALUES, ids=repr)
def test_boolean_option_accepts_only_true_or_false(name, option, value):
    with pytest.raises(generala.InvalidInput) as err:
        generala.variant(name, **{option: value})
    message = str(err.value)
    assert option in message
    assert shown(value) in message
    assert "true" in message.lower() and "false" in message.lower()


@pytest.mark.parametrize("value", [-1, -0.01, -100, "1", None, math.nan], ids=repr)
def test_stake_per_point_must_be_a_non_negative_number(value):
    with pytest.raises(generala.InvalidInput) as err:
        generala.variant("puerto-rican", stake_per_point=value)
    message = str(err.value)
    assert "stake_per_point" in message
    assert shown(value) in message
    assert err.value.code == "option.number" and err.value.params == {"option": "stake_per_point", "got": shown(value)}


@pytest.mark.parametrize("value", [10**9, 10**12, 1e9 + 0.5], ids=repr)
def test_stake_per_point_has_no_upper_limit(value):
    # RULES.md: a non-negative number; it names no maximum.
    assert generala.variant("puerto-rican", stake_per_point=value).options["stake_per_point"] == value


@pytest.mark.parametrize("value", [True, False])
def test_stake_per_point_rejects_booleans(value):
    # A stake is an amount per point, not an on/off switch (0 is "off").
    with pytest.raises(generala.InvalidInput):
        generala.variant("puerto-rican", stake_per_point=value)


@pytest.mark.parametrize("name", ["double", "bulgarian"])
def test_variants_without_options_reject_any_option(name):
    with pytest.raises(generala.InvalidInput) as err:
        generala.variant(name, anything=1)
    assert "anything" in str(err.value)
