"""Pure box scoring: one small function per kind of box.

Each function takes a sorted hand of five dice, its face counts and the box (for
its points and face) and returns what the hand earns there on a later roll; the
served (first-roll) value is applied by :func:`table` from the box's data.
Nothing here knows about sheets, turns or automatic wins (a box's ``needs`` is
checked against the sheet by :class:`generala.rules.variants.Rules`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .dice import ALL_HANDS, counts

NUMBER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")


@dataclass(frozen=True)
class Box:
    """One row of a score sheet, as data.

    ``points`` is the fixed value of a pattern box (0 when the value comes from
    the dice), ``bonus`` what a scoring hand earns more on the turn's first roll.
    A pattern box accepts the sorted hands of its ``runs`` (tuples of five
    faces), where a 1 may also stand for any face in ``wild``. ``needs`` names
    another box: this one earns points only once that box holds points (Double
    Generala needs Generala).
    """

    id: str
    kind: str
    face: int = 0
    points: int = 0
    bonus: int = 0
    runs: frozenset = frozenset()
    wild: tuple[int, ...] = ()
    needs: str | None = None

    @property
    def hands(self) -> frozenset:
        """The sorted hands a pattern box accepts."""
        return straights(self.runs, self.wild) if self.runs else frozenset()


def _number(hand, c, box):
    return c[box.face] * box.face


def _mandatory(hand, c, box):
    return (c[box.face] - 3) * box.face


def _chance(hand, c, box):
    return sum(hand)


def _pair(hand, c, box):
    return next((2 * f for f in range(6, 0, -1) if c[f] >= 2), 0)


def _two_pairs(hand, c, box):
    faces = [f for f in range(6, 0, -1) if c[f] >= 2]
    return 2 * (faces[0] + faces[1]) if len(faces) >= 2 else 0


def _three_kind(hand, c, box):
    return next((3 * f for f in range(1, 7) if c[f] >= 3), 0)


def _four_kind_sum(hand, c, box):
    return next((4 * f for f in range(1, 7) if c[f] >= 4), 0)


def _four_kind(hand, c, box):
    return box.points if max(c) >= 4 else 0


def _four_kind_exact(hand, c, box):
    return box.points if max(c) == 4 else 0


def _full_house_or_five(hand, c, box):
    return box.points or sum(hand) if max(c) == 5 else _full_house(hand, c, box)


def _full_house(hand, c, box):
    if sorted(n for n in c if n) != [2, 3]:
        return 0
    return box.points or sum(hand)


def _five_kind(hand, c, box):
    return box.points if max(c) == 5 else 0


def _general(hand, c, box):
    return 5 * hand[0] + box.points if max(c) == 5 else 0


def _pattern(hand, c, box):
    return box.points if hand in box.hands else 0


KINDS = {
    "number": _number,
    "mandatory": _mandatory,
    "chance": _chance,
    "pair": _pair,
    "two-pairs": _two_pairs,
    "three-kind": _three_kind,
    "four-kind-sum": _four_kind_sum,
    "four-kind": _four_kind,
    "four-kind-exact": _four_kind_exact,
    "full-house-or-five": _full_house_or_five,
    "full-house": _full_house,
    "five-kind": _five_kind,
    "general": _general,
    "pattern": _pattern,
}


def table(box: Box) -> dict[tuple[int, ...], tuple[int, int]]:
    """Points of every sorted hand in ``box``: ``hand -> (later roll, first roll)``."""
    price = KINDS[box.kind]
    result = {}
    for hand in ALL_HANDS:
        later = price(hand, counts(hand), box)
        served = later + box.bonus if later else later
        result[hand] = (later, served)
    return result


@lru_cache(maxsize=None)
def straights(base: frozenset, wild_as: tuple[int, ...] = ()) -> frozenset:
    """The sorted hands that make a straight, given the base runs and what a 1 may stand for.

    ``wild_as`` lists the faces a 1 may count as (each 1 independently), e.g.
    ``(2, 6)`` for Puerto Rican aces. A hand qualifies if some reading of its
    ones turns it into one of the ``base`` runs.
    """
    result = set()
    for hand in ALL_HANDS:
        readings = [()]
        for value in hand:
            options = (value, *wild_as) if value == 1 else (value,)
            readings = [r + (o,) for r in readings for o in options]
        if any(tuple(sorted(r)) in base for r in readings):
            result.add(hand)
    return frozenset(result)
