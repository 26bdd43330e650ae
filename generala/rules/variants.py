"""The four games as data: options with defaults, boxes, and the frozen ``Rules``.

Each game is one :class:`VariantSpec` in ``SPECS``: its sheet, what each house
option does to it, its automatic win, stake and mandatory boxes. Game, solver and
coach read these fields; no rule is decided by a variant's or an option's name.
``variant(name, **options)`` is the one way in. A ``Rules`` object is immutable
and hashable; it prices boxes (``score``), totals sheets and, for the ten-dice
game, splits a roll. What the dice earn is precomputed per box for all 252
hands, so pricing is a dictionary look-up.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from . import scoring
from .dice import HAND_OF, check_dice, counts
from .errors import InvalidInput
from .refusals import shown
from .scoring import NUMBER_BOXES, Box

Sheet = Mapping[str, "int | None"]


Effect = Callable[[tuple[Box, ...], Any], tuple[Box, ...]]


@dataclass(frozen=True)
class Option:
    """A house option: its allowed values (the first is the default), what it does, and
    its ``effect`` on the sheet: ``effect(boxes, value)`` gives the boxes under this value
    (see the effect makers below). An option without an effect is read elsewhere in the
    spec (the automatic win's switch, the stake)."""

    name: str
    values: tuple
    help: str
    number: bool = False  # any number from 0 upward; ``values`` holds just the default
    effect: Effect | None = field(default=None, compare=False, repr=False)
    #: The name of an on/off option of the same game while which this one does nothing
    #: (its effect is applied only while that option is off).
    only_without: str | None = None

    @property
    def default(self) -> Any:
        return self.values[0]

    @property
    def is_bool(self) -> bool:
        return self.values in ((True, False), (False, True))

    def check(self, value: Any) -> Any:
        if self.number:
            if type(value) not in (int, float) or not 0 <= value < float("inf"):
                raise InvalidInput("option.number", {"option": self.name, "got": shown(value)})
            return value
        if any(type(value) is type(v) and value == v for v in self.values):
            return value
        raise InvalidInput("option.value", {"option": self.name, "got": shown(value),
                                            "values": list(self.values)})


# --- what an option does to the sheet ----------------------------------------

def _edit(boxes: tuple[Box, ...], ids: tuple[str, ...], change) -> tuple[Box, ...]:
    """The sheet with ``change(box)`` in place of each box named in ``ids`` (absent ones skipped)."""
    return tuple(change(b) if b.id in ids else b for b in boxes)


def sets_points(*ids: str) -> Effect:
    """The option's value is what these boxes are worth."""
    return lambda boxes, value: _edit(boxes, ids, lambda b: replace(b, points=value))


def served_bonus(*ids: str) -> Effect:
    """The option's value is what these boxes earn more when served (first roll)."""
    return lambda boxes, value: _edit(boxes, ids, lambda b: replace(b, bonus=value))


def adds_box(box: Box) -> Effect:
    """On, the sheet has ``box`` at its end."""
    return lambda boxes, value: boxes + (box,) if value else boxes


def adds_runs(box_id: str, *runs: str) -> Effect:
    """On, the pattern box also accepts these runs (``"13456"``)."""
    return lambda boxes, value: _edit(
        boxes, (box_id,), lambda b: replace(b, runs=b.runs | _runs(*runs))) if value else boxes


def wild_ace(box_id: str, *faces: int) -> Effect:
    """On, a 1 may stand for any of ``faces`` in the pattern box."""
    return lambda boxes, value: _edit(
        boxes, (box_id,), lambda b: replace(b, wild=b.wild + faces)) if value else boxes


def sets_kind(box_id: str, kind: str, when: Any) -> Effect:
    """While the option's value is ``when``, the box is priced as a box of ``kind``."""
    return lambda boxes, value: _edit(
        boxes, (box_id,), lambda b: replace(b, kind=kind)) if value == when else boxes


def point_sets(sets: Mapping[Any, tuple[Mapping[str, int], int | None]]) -> Effect:
    """The option names a set of points: ``value -> ({box: points}, served bonus or None)``;
    the boxes of the set get its points, and its bonus (when it has one) goes to the boxes
    that earn a served bonus."""
    def effect(boxes, value):
        points, bonus = sets[value]
        boxes = tuple(replace(b, points=points[b.id]) if b.id in points else b for b in boxes)
        if bonus is not None:
            boxes = tuple(replace(b, bonus=bonus) if b.bonus else b for b in boxes)
        return boxes
    return effect


def bonus_like(source: str, *ids: str) -> Effect:
    """On, these boxes earn the served bonus the ``source`` box earns."""
    def effect(boxes, value):
        if not value:
            return boxes
        bonus = next((b.bonus for b in boxes if b.id == source), 0)
        return _edit(boxes, ids, lambda b: replace(b, bonus=bonus))
    return effect


def _runs(*runs: str) -> frozenset:
    return frozenset(tuple(int(ch) for ch in run) for run in runs)


@dataclass(frozen=True)
class AutoWin:
    """Five alike on a turn's first roll wins the game at once, while the on/off ``option``
    is on; a 0 written in the ``forfeit`` box (scratched) forfeits it. ``kind`` names the
    win in the game's ``auto_win`` and the view."""

    kind: str
    option: str
    forfeit: str | None = None
    #: An on/off option: on, the win is offered (``TakeWin``), not forced; the player may
    #: write the dice in a box instead and play on.
    choice: str | None = None
    #: An on/off option: on, the winning hand is written in the ``forfeit`` box (or, that
    #: one filled, the first open box that needs it), with the served bonus of ``bonus_from``.
    written: str | None = None
    bonus_from: str | None = None


@dataclass(frozen=True)
class ScratchLast:
    """While the on/off ``option`` is on, ``box`` may be written 0 only once ``after`` is
    filled (a sheet without ``after`` has no such rule)."""

    option: str
    box: str
    after: str


@dataclass(frozen=True)
class Stake:
    """Played for money: the number ``option`` is paid per point of difference; after an
    automatic win the winner gets at least ``auto_win_minimum`` points' worth."""

    option: str
    auto_win_minimum: int = 100


@dataclass(frozen=True)
class VariantSpec:
    """What one game is: its dice, options, boxes, turn structure and roll-off.

    ``boxes`` is the sheet with every option at a value that changes nothing; each
    option's effect then edits it. ``mandatory`` boxes can never be scratched, and a
    negative total of them costs ``penalty`` points.
    """

    name: str
    title: str
    summary: str
    dice: int
    options: tuple[Option, ...]
    boxes: tuple[Box, ...] = ()
    boxes_per_turn: int = 1
    rolloff: str = "lowest-sum"  # or "highest-die"
    mandatory: tuple[str, ...] = ()
    penalty: int = 0
    auto_win: AutoWin | None = None
    stake: Stake | None = None
    scratch_last: tuple[ScratchLast, ...] = ()
    #: An on/off option: on, a box that needs another (``Box.needs``) refuses a hand that
    #: would score there while that other box is still open (instead of taking it for 0).
    needs_first: str | None = None

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise InvalidInput("option.unknown", {"variant": self.name, "got": shown(name),
                                              "options": [o.name for o in self.options]})


#: The sets of points of Generala's combinations: ``value -> ({box: points}, served bonus)``
#: (a served bonus of None keeps the ``served_bonus`` option's).
COMBINATION_POINTS = {
    "20-30-40": ({"straight": 20, "full-house": 30, "four-kind": 40}, None),
    "25-35-45": ({"straight": 25, "full-house": 35, "four-kind": 45}, None),
    "30-50-80-100-200": ({"straight": 30, "full-house": 50, "four-kind": 80, "generala": 100,
                          "double-generala": 200}, 10),
}

_BOOL = (True, False)
_BOOL_OFF = (False, True)
_NUMBERS = tuple(Box(b, "number", face=f) for f, b in enumerate(NUMBER_BOXES, 1))
_STRAIGHTS = _runs("12345", "23456")

SPECS: dict[str, VariantSpec] = {
    spec.name: spec
    for spec in (
        VariantSpec(
            "argentine", "Generala",
            "Latin-American Generala: five dice, eleven boxes, a Generala on the first roll wins at once.",
            5,
            (
                Option("served_bonus", (5, 10, 0),
                       "Extra points for a straight, full house or four of a kind on the first roll.",
                       effect=served_bonus("straight", "full-house", "four-kind")),
                Option("generala_points", (50, 60), "What a Generala (five alike) is worth.",
                       effect=sets_points("generala")),
                Option("double_generala", _BOOL,
                       "Adds a Double Generala box for a second five alike.",
                       effect=adds_box(Box("double-generala", "five-kind", needs="generala"))),
                Option("double_points", (100, 120), "What a Double Generala is worth.",
                       effect=sets_points("double-generala")),
                Option("straight_wrap", _BOOL, "3-4-5-6-1 also counts as a straight.",
                       effect=adds_runs("straight", "13456")),
                Option("straight_any_five", _BOOL_OFF,
                       "Any five different faces (one number missing) count as a straight.",
                       effect=adds_runs("straight", "12346", "12356", "12456", "13456")),
                Option("ace_as_two", _BOOL_OFF, "A 1 may stand in for a 2 in a straight.",
                       effect=wild_ace("straight", 2)),
                Option("served_generala_wins", _BOOL,
                       "Five alike on the first roll wins the game (unless Generala was crossed out)."),
                Option("combination_points", tuple(COMBINATION_POINTS),
                       "Points of straight, full house and four of a kind; the family set "
                       "30-50-80-100-200 also makes Generala 100, Double Generala 200 and the "
                       "first-roll bonus 10.",
                       effect=point_sets(COMBINATION_POINTS)),
                Option("five_alike_four_kind", _BOOL, "Five alike also counts as four of a kind.",
                       effect=sets_kind("four-kind", "four-kind-exact", False)),
                Option("served_generala_bonus", _BOOL_OFF,
                       "When a Generala on the first roll does not win, it earns the first-roll bonus too "
                       "(55 with the usual bonus).",
                       effect=bonus_like("straight", "generala", "double-generala"),
                       only_without="served_generala_wins"),
                Option("served_win_choice", _BOOL_OFF,
                       "A Generala on the first roll wins only when the player takes the win; the dice may "
                       "be written in a box instead."),
                Option("served_generala_written", _BOOL_OFF,
                       "A winning Generala on the first roll is written in the Generala box, with the "
                       "first-roll bonus."),
                Option("generala_scratch_last", _BOOL_OFF,
                       "Generala can be crossed out only once Double Generala is filled."),
                Option("double_after_generala", _BOOL_OFF,
                       "Five alike cannot go into Double Generala while Generala is open "
                       "(else it is written there as 0)."),
            ),
            boxes=(
                *_NUMBERS,
                Box("straight", "pattern", points=20, runs=_STRAIGHTS),
                Box("full-house", "full-house", points=30),
                Box("four-kind", "four-kind", points=40),
                Box("generala", "five-kind"),
            ),
            auto_win=AutoWin("served-generala", "served_generala_wins", forfeit="generala",
                             choice="served_win_choice", written="served_generala_written",
                             bonus_from="straight"),
            scratch_last=(ScratchLast("generala_scratch_last", "generala", "double-generala"),),
            needs_first="double_after_generala",
        ),
        VariantSpec(
            "bulgarian", "Генерал",
            "Bulgarian General: fifteen boxes, three of each number is par, a negative top costs 50.",
            5, (),
            boxes=(
                *(Box(b, "mandatory", face=f) for f, b in enumerate(NUMBER_BOXES, 1)),
                Box("pair", "pair"),
                Box("two-pairs", "two-pairs"),
                Box("three-kind", "three-kind"),
                Box("four-kind", "four-kind-sum"),
                Box("full-house", "full-house"),
                Box("small-straight", "pattern", points=15, runs=_runs("12345")),
                Box("large-straight", "pattern", points=20, runs=_runs("23456")),
                Box("chance", "chance"),
                Box("general", "general", points=50),
            ),
            rolloff="highest-die", mandatory=NUMBER_BOXES, penalty=50,
        ),
        VariantSpec(
            "puerto-rican", "General",
            "Puerto Rican General: ten frames, first-roll combinations are worth more, "
            "a Big General wins at once.",
            5,
            (
                Option("big_general_wins", _BOOL, "Five alike on the first roll wins the game."),
                Option("aces_wild", _BOOL, "In a straight a 1 may count as a 2 or a 6.",
                       effect=wild_ace("straight", 2, 6)),
                Option("stake_per_point", (0,),
                       "Money per point of difference paid to the winner (0: not played for money).",
                       number=True),
                Option("five_alike_full_house", _BOOL_OFF, "Five alike also counts as a full house.",
                       effect=sets_kind("full-house", "full-house-or-five", True)),
            ),
            boxes=(
                *_NUMBERS,
                Box("straight", "pattern", points=20, bonus=5, runs=_STRAIGHTS),
                Box("full-house", "full-house", points=30, bonus=5),
                Box("four-kind", "four-kind", points=40, bonus=5),
                Box("small-general", "five-kind", points=60),
            ),
            auto_win=AutoWin("big-general", "big_general_wins"),
            stake=Stake("stake_per_point"),
        ),
        VariantSpec(
            "double", "Double General",
            "Double General: ten dice, five turns, each turn splits the dice into two boxes.",
            10, (),
            boxes=(
                *_NUMBERS,
                Box("full-house", "full-house"),
                Box("small-general", "pattern", points=21, runs=_runs("12345")),
                Box("big-general", "pattern", points=30, runs=_runs("23456")),
                Box("five-kind", "five-kind", points=50),
            ),
            boxes_per_turn=2,
        ),
    )
}

VARIANTS = tuple(SPECS)


def _boxes(spec: VariantSpec, options: tuple[tuple[str, Any], ...]) -> tuple[Box, ...]:
    """The sheet of a variant under its options, in sheet order: each option's effect in turn."""
    boxes = spec.boxes
    values = dict(options)
    for (name, value), opt in zip(options, spec.options):
        if opt.effect is not None and not (opt.only_without and values.get(opt.only_without)):
            boxes = opt.effect(boxes, value)
    return boxes


class Split(NamedTuple):
    """Ten dice split into two groups of five, and what each group earns in its box."""

    group_a: tuple[int, ...]
    group_b: tuple[int, ...]
    points_a: int
    points_b: int

    @property
    def total(self) -> int:
        return self.points_a + self.points_b


@dataclass(frozen=True)
class Rules:
    """One variant under one set of options. Build it with :func:`variant`."""

    name: str
    #: Every option of the variant as ``(name, value)`` pairs in the spec's order (defaults
    #: filled in): with ``name``, what tells one set of rules from another.
    option_values: tuple[tuple[str, Any], ...]

    @cached_property
    def spec(self) -> VariantSpec:
        return SPECS[self.name]

    @property
    def options(self) -> dict[str, Any]:
        """Every option of the variant, defaults filled in (a fresh dict)."""
        return dict(self.option_values)

    @cached_property
    def dice(self) -> int:
        return self.spec.dice

    @cached_property
    def boxes(self) -> tuple[Box, ...]:
        return _tables(self.name, self.option_values)[0]

    @cached_property
    def categories(self) -> tuple[str, ...]:
        """The box ids in sheet order."""
        return tuple(box.id for box in self.boxes)

    @cached_property
    def best_hand(self) -> str | None:
        """The box of the game's best hand, five alike: ``generala``, ``general``,
        ``small-general`` (Puerto Rican), ``five-kind`` (ten dice)."""
        return next((b.id for b in self.boxes if b.kind in ("five-kind", "general")), None)

    @cached_property
    def turns(self) -> int:
        """How many turns each side plays in a full game."""
        return len(self.boxes) // self.spec.boxes_per_turn

    @cached_property
    def boxes_per_turn(self) -> int:
        return self.spec.boxes_per_turn

    @cached_property
    def mandatory(self) -> tuple[str, ...]:
        """Boxes that can never be scratched (Bulgarian numbers): they take what the dice give."""
        return self.spec.mandatory

    @cached_property
    def needs(self) -> dict[str, str]:
        """Boxes that earn points only once another box holds points: ``box -> that box``."""
        return {box.id: box.needs for box in self.boxes if box.needs}

    @cached_property
    def auto_win(self) -> AutoWin | None:
        """The variant's automatic win when its option is on, else None."""
        auto = self.spec.auto_win
        return auto if auto is not None and self.options[auto.option] else None

    @cached_property
    def win_choice(self) -> bool:
        """Whether the automatic win is offered (taken by ``TakeWin``), not forced."""
        auto = self.auto_win
        return auto is not None and bool(auto.choice and self.options[auto.choice])

    @cached_property
    def win_written(self) -> bool:
        """Whether the automatic win's hand is written on the sheet (``win_entry``)."""
        auto = self.auto_win
        return auto is not None and bool(auto.written and self.options[auto.written])

    def win_entry(self, hand: tuple[int, ...], sheet: Sheet) -> tuple[str, int] | None:
        """Where a winning served hand is written, and for how much, when ``win_written``:
        the forfeit box when open, else the first open box that needs it (None: none open).
        The box's points with the served bonus of ``bonus_from``."""
        auto = self.auto_win
        if not self.win_written or auto.forfeit is None:
            return None
        bonus = next((b.bonus for b in self.boxes if b.id == auto.bonus_from), 0)
        for box in (auto.forfeit, *(b for b, n in self.needs.items() if n == auto.forfeit)):
            if sheet.get(box) is None:
                points = self.prices[box][hand][0]
                if box != auto.forfeit and not sheet.get(auto.forfeit):
                    points = 0
                return box, points + bonus if points else 0
        return None

    @cached_property
    def scratch_last(self) -> dict[str, str]:
        """Boxes that may be written 0 only once another is filled: ``box -> that box``."""
        return {rule.box: rule.after for rule in self.spec.scratch_last
                if self.options[rule.option] and rule.box in self.categories
                and rule.after in self.categories}

    @cached_property
    def needs_first(self) -> dict[str, str]:
        """Boxes that need another (``needs``) and refuse a hand that would score there while
        that other box is open: ``box -> that box`` (empty unless the option is on)."""
        option = self.spec.needs_first
        return dict(self.needs) if option and self.options[option] else {}

    def fill_refusal(self, box: str, hand: tuple[int, ...], served: bool, sheet: Sheet,
                     scratch: bool = False) -> tuple[str, dict] | None:
        """Why this house rule refuses ``hand`` in the open ``box`` now (``(code, params)``),
        or None: a box that may be scratched only after another (``scratch_last``), a box
        that refuses what would score there while the box it needs is open (``needs_first``)."""
        after = self.scratch_last.get(box)
        if after is not None and sheet.get(after) is None and (
                scratch or self.price(box, hand, served, sheet) == 0):
            return "box.scratch_last", {"box": box, "after": after}
        needs = self.needs_first.get(box)
        if needs is not None and sheet.get(needs) is None and self.prices[box][hand][served]:
            return "box.needs_first", {"box": box, "needs": needs}
        return None

    def throws_away(self, box: str, hand: tuple[int, ...], served: bool, sheet: Sheet) -> str | None:
        """The box a hand needs first when writing it in ``box`` would throw away what it
        would earn there (it scores there, but the box it needs holds no points yet), else None."""
        needs = self.needs.get(box)
        if needs is None or sheet.get(needs) or not self.prices[box][hand][served]:
            return None
        return needs

    @property
    def stake(self) -> float:
        """Money per point of difference (0: not played for money)."""
        stake = self.spec.stake
        return self.options[stake.option] if stake is not None else 0

    def __repr__(self) -> str:
        changed = [
            f", {k}={v!r}" for (k, v), opt in zip(self.option_values, self.spec.options)
            if v != opt.default
        ]
        return f"generala.variant({self.name!r}{''.join(changed)})"

    # --- pricing -------------------------------------------------------

    def score(self, box: str, dice: Sequence[int], *, roll: int = 1,
              sheet: Sheet | None = None) -> int:
        """Points that five dice earn in ``box`` on ``roll`` (1-3), given the player's sheet."""
        dice = dice if type(dice) is tuple else tuple(check_dice(dice, 5))
        hand = HAND_OF.get(dice)
        if hand is None or not all(type(d) is int for d in dice):
            hand = tuple(sorted(check_dice(dice, 5)))  # raises: bad dice of some kind
        if roll not in (1, 2, 3) or type(roll) is not int:
            raise InvalidInput("roll.range", {"got": shown(roll)})
        return self.price(box, hand, roll == 1, sheet)

    def price(self, box: str, hand: tuple[int, ...], served: bool, sheet: Sheet | None = None) -> int:
        """What a sorted ``hand`` of five dice earns in ``box``, ``served`` (on the turn's first
        roll) or not, given the side's ``sheet`` (a box that needs another earns nothing
        until that one holds points). ``score`` without its input checks: the hot path of
        games, players and solvers. InvalidInput for a box these rules do not have."""
        try:
            points = self.prices[box][hand][served]
        except KeyError:
            self.check_box(box)
            raise
        needs = self.needs.get(box)
        if needs is not None and not (sheet and sheet.get(needs)):
            return 0
        return points

    @cached_property
    def prices(self) -> dict:
        """Every box's price list: ``box -> sorted hand -> (later roll, first roll)`` points
        (before a box's ``needs`` is looked at: see ``price``)."""
        return _tables(self.name, self.option_values)[1]

    def scratches(self, box: str, points: int) -> bool:
        """Whether writing ``points`` in ``box`` is a scratch (0 written by choice): 0 in a box
        that is not mandatory (a mandatory box takes what the dice give, 0 included)."""
        return points == 0 and box not in self.mandatory

    def check_box(self, box: str) -> str:
        """``box`` when these rules have it; InvalidInput naming their boxes when not."""
        if box not in self.prices:
            raise InvalidInput("box.unknown", {"variant": self.name, "got": shown(box),
                                               "boxes": list(self.categories)})
        return box

    # --- totals --------------------------------------------------------

    def subtotals(self, sheet: Sheet) -> dict[str, int]:
        """The sheet's sums: for Bulgarian the mandatory part, its penalty and the rest."""
        values = {box: sheet.get(box) or 0 for box in self.categories}
        if not self.mandatory:
            upper = sum(values[b] for b in NUMBER_BOXES)
            total = sum(values.values())
            return {"numbers": upper, "combinations": total - upper, "total": total}
        mandatory = sum(values[b] for b in self.mandatory)
        penalty = -self.spec.penalty if mandatory < 0 else 0
        combos = sum(v for b, v in values.items() if b not in self.mandatory)
        return {"mandatory": mandatory, "penalty": penalty, "combinations": combos,
                "total": mandatory + penalty + combos}

    def total(self, sheet: Sheet) -> int:
        return self.subtotals(sheet)["total"]

    # --- ten dice --------------------------------------------------------

    def price_group(self, box: str, group: tuple[int, ...], sheet: Sheet | None = None) -> int:
        """What five of ten dice (a sorted ``group``) earn in ``box``: one half of a split.
        Ten dice are never served. The one pricing of splits: ``price_split``, a game's
        ``plan_score`` and ``price_split``, the view's best fives and the coach use it."""
        return self.price(box, group, False, sheet)

    def price_split(self, dice10: Sequence[int], positions, box_a: str, box_b: str,
                    sheet: Sheet | None = None, scratch=(False, False)) -> tuple[int, int]:
        """What a split of ten dice earns: the dice at ``positions`` (five of them) in
        ``box_a``, the others in ``box_b``; a box whose ``scratch`` flag is true gets 0."""
        chosen = set(positions)
        group_a = tuple(sorted(dice10[i] for i in chosen))
        group_b = tuple(sorted(d for i, d in enumerate(dice10) if i not in chosen))
        return (0 if scratch[0] else self.price_group(box_a, group_a, sheet),
                0 if scratch[1] else self.price_group(box_b, group_b, sheet))

    def best_split(self, dice10: Sequence[int], box_a: str, box_b: str) -> Split:
        """The split of ten dice into 5 + 5 that earns most in ``box_a`` plus ``box_b``."""
        values = check_dice(dice10, 10)
        self.check_pair(box_a, box_b)
        return _best_split(self.name, self.option_values, tuple(sorted(values)), box_a, box_b)

    def best_play(self, dice10: Sequence[int], sheet: Sheet | None = None) -> tuple[str, str, Split]:
        """The pair of open boxes and split that earn the most now: ``(box_a, box_b, split)``."""
        values = tuple(sorted(check_dice(dice10, 10)))
        open_boxes = [b for b in self.categories if not sheet or sheet.get(b) is None]
        if len(open_boxes) < 2:
            raise InvalidInput("split.open_boxes")
        best = None
        for a, b in combinations(open_boxes, 2):
            split = _best_split(self.name, self.option_values, values, a, b)
            if best is None or split.total > best[2].total:
                best = (a, b, split)
        return best

    def check_pair(self, box_a: str, box_b: str) -> None:
        """InvalidInput unless these rules fill two boxes a turn and ``box_a``, ``box_b``
        are two different boxes of theirs."""
        if self.boxes_per_turn != 2:
            raise InvalidInput("split.ten_dice", {"variant": self.name})
        self.check_box(box_a)
        self.check_box(box_b)
        if box_a == box_b:
            raise InvalidInput("split.same_box", {"box": box_a})


@lru_cache(maxsize=None)
def _tables(name: str, options: tuple) -> tuple[tuple[Box, ...], dict]:
    boxes = _boxes(SPECS[name], options)
    return boxes, {box.id: scoring.table(box) for box in boxes}


@lru_cache(maxsize=4096)
def _groups(hand10: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every distinct way to split a sorted ten-dice hand into two sorted fives."""
    c = counts(hand10)
    result = []

    def pick(face: int, left: int, chosen: list[int]) -> None:
        if face == 7:
            if left == 0:
                rest = list(c)
                for v in chosen:
                    rest[v] -= 1
                group_b = tuple(f for f in range(1, 7) for _ in range(rest[f]))
                result.append((tuple(chosen), group_b))
            return
        for n in range(min(c[face], left), -1, -1):
            pick(face + 1, left - n, chosen + [face] * n)

    pick(1, 5, [])
    return tuple(result)


@lru_cache(maxsize=65536)
def _best_split(name: str, options: tuple, hand10: tuple[int, ...], a: str, b: str) -> Split:
    prices = _tables(name, options)[1]
    price_a, price_b = prices[a], prices[b]
    best = None
    for group_a, group_b in _groups(hand10):
        pa, pb = price_a[group_a][0], price_b[group_b][0]
        if best is None or pa + pb > best.total:
            best = Split(group_a, group_b, pa, pb)
    return best


@lru_cache(maxsize=None)
def _make(name: str, options: tuple) -> Rules:
    return Rules(name, options)


def variant(name: str, **options: Any) -> Rules:
    """The rules of game ``name`` with house ``options`` (unnamed options take their defaults).

    >>> variant("argentine", served_bonus=10).score("straight", [3, 4, 5, 6, 2], roll=1)
    30
    """
    spec = SPECS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise InvalidInput("variant.unknown", {"got": shown(name), "variants": list(VARIANTS)})
    for key in options:
        spec.option(key)
    chosen = tuple(
        (opt.name, opt.check(options[opt.name]) if opt.name in options else opt.default)
        for opt in spec.options
    )
    return _make(name, chosen)


def parse_option(rules_name: str, name: str, text: str) -> Any:
    """Read an option's value from text (command line, URL): ``on``/``off`` or a number."""
    opt = SPECS[rules_name].option(name) if rules_name in SPECS else None
    if opt is None:
        raise InvalidInput("variant.unknown", {"got": shown(rules_name), "variants": list(VARIANTS)})
    lowered = text.strip().lower()
    if opt.number:
        try:
            number = float(lowered)
        except ValueError:
            raise InvalidInput("option.number", {"option": name, "got": shown(text)}) from None
        return opt.check(int(number) if number.is_integer() else number)
    if opt.is_bool:
        if lowered in ("on", "true", "yes", "1"):
            return True
        if lowered in ("off", "false", "no", "0"):
            return False
        raise InvalidInput("option.on_off", {"option": name, "got": shown(text)})
    for value in opt.values:
        if str(value) == lowered:
            return value
    raise InvalidInput("option.value", {"option": name, "got": shown(text), "values": list(opt.values)})
