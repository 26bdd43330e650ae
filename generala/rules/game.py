"""The state machine of a whole match: roll-off, turns, holds, filling boxes, the end.

A game is its rules, its sides and its history: a list of JSON-plain actions in
which every roll carries the dice it produced (a chance action). Dice are drawn
from a roller the caller passes in; replaying the history needs no roller at
all, which is how undo works (it takes back a hold or a box, never a roll). A
save loads by replaying it with ``check=`` its roller, so every recorded die must
be the one the roller gives.

Actions in the history::

    {"rolloff": [[side, [dice...]], ...]}   one round of the roll-off
    {"hold": [i, ...]}                       the dice kept for the next roll
    {"roll": [d1, ..., dn]}                  all dice after a roll
    {"score": "fours"}                       fill a box (``"scratch": true`` to sacrifice it)
    {"score": ["fours", "full-house"], "split": [i, ...]}   ten dice: two boxes
    {"score": [a, b], "split": [...], "scratch": [false, true]}   ten dice, box b sacrificed
    {"order": [2, 0, 1]}                     the order of play, when no roll-off was thrown
    {"enter": [d1, ..., dn], "at": 2}        dice thrown at a real table, on roll 2
    {"win": true}                            the automatic win taken, where the rules offer it
                                             (``served_win_choice``) rather than force it

Each entry is an :class:`~generala.rules.actions.Action` as JSON (``Action.to_json``,
``action_from_json``); ``legal_actions()`` lists the actions legal now and
``play(action)`` takes one, refused (unchanged game) with the same errors as the
methods below.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, takewhile

from . import save
from .actions import (TURN_ACTIONS, Action, Enter, Hold, Roll, Score, ScoreTwo, TakeWin, Toggle, Undo,
                      action_from_json)
from .dice import HAND_OF, check_dice
from .errors import GeneralaError, IllegalAction, InvalidInput
from .refusals import shown
from .sides import Side, make_sides
from .variants import Rules


def ranking(totals: Sequence[int]) -> list[int]:
    """Places for the given totals: highest first, equal totals share a place (1, 1, 3)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


class Game:
    """One match between 1 to 8 sides under one set of rules.

    >>> from generala import variant, ScriptedRoller
    >>> g = Game(variant("argentine"), ["Ana"], ScriptedRoller([3, 3, 3, 4, 5]))
    >>> g.roll()
    (3, 3, 3, 4, 5)
    >>> g.score("threes")
    9
    """

    def __init__(self, rules: Rules, sides: Iterable, roller=None, *, rolloff: bool = True,
                 order: Sequence[int] | None = None):
        """Start a match. The roll-off draws from ``roller`` unless ``order`` is given
        (a table playing with real dice settles its own order) or ``rolloff`` is False
        (a game about to be replayed from a history)."""
        if not isinstance(rules, Rules):
            raise InvalidInput("rules.type", {"got": shown(rules)})
        self.rules = rules
        self.sides: tuple[Side, ...] = make_sides(sides)
        self._last_turn = len(self.sides) * rules.turns
        self.roller = roller
        #: A daily challenge: ``{"date", "late"}`` (:mod:`generala.modes.daily`), else None.
        self.daily: dict | None = None
        #: Every side plays on this one device (hot-seat, solo, against the computer): a box
        #: filled is no longer undone once another person's turn has begun. False in a game
        #: by link, whose devices decide their own undo (:mod:`generala.modes.linkgame`).
        self.one_device = True
        self._reset()
        if order is not None:
            self._set_order(order)
        elif rolloff:
            self._do_rolloff(self._draw)

    def _set_order(self, order) -> None:
        n = len(self.sides)
        if not isinstance(order, (list, tuple)) or sorted(order) != list(range(n)) or not all(
            type(i) is int for i in order
        ):
            raise InvalidInput("order.invalid", {"last": n - 1, "got": shown(order)})
        self.order = tuple(order)
        self.history.append({"order": list(order)})

    # --- state --------------------------------------------------------

    def _reset(self) -> None:
        n = len(self.sides)
        self.history: list[dict] = []
        self.order: tuple[int, ...] = tuple(range(n))
        self.sheets: list[dict[str, int | None]] = [
            dict.fromkeys(self.rules.categories) for _ in range(n)
        ]
        self.turn = 0  # turns played by all sides together
        self.dice: tuple[int, ...] | None = None
        self.held: frozenset[int] = frozenset()
        self.rolls = 0
        self.drawn = 0  # dice drawn from the roller so far: the roller's position
        self.auto_win: dict | None = None

    @property
    def current(self) -> int | None:
        """Index (in ``sides``) of the side to act, or None once the game is over."""
        return None if self.over else self.order[self.turn % len(self.sides)]

    @property
    def player(self) -> str | None:
        """The member of the current side who plays this turn (teams rotate)."""
        side = self.current
        if side is None:
            return None
        members = self.sides[side].members
        return members[(self.turn // len(self.sides)) % len(members)]

    @property
    def round(self) -> int:
        """The current side's turn number, 1 to ``rules.turns``."""
        return min(self.turn // len(self.sides) + 1, self.rules.turns)

    @property
    def rolls_left(self) -> int:
        return 3 - self.rolls

    @property
    def over(self) -> bool:
        return self.auto_win is not None or self.turn >= self._last_turn

    @property
    def helps(self) -> bool:
        """Whether a hint and the coach may be given now: not in a daily challenge in play
        (the engine refuses them there, ``daily.no_help``; the view offers none)."""
        return not (self.daily and not self.over)

    @property
    def sheet_mode(self) -> bool:
        """A score-sheet game: its order was given, not rolled (the table throws real dice)."""
        return bool(self.history) and "order" in self.history[0]

    @property
    def throws_at_table(self) -> bool:
        """A score-sheet game with no roller: its dice are thrown at the table and entered
        (``enter``), never rolled or held here."""
        return self.roller is None and self.sheet_mode

    @property
    def started(self) -> bool:
        """Whether any turn action has been taken (beyond the roll-off or order)."""
        return any("rolloff" not in a and "order" not in a for a in self.history)

    def sheet(self, side: int | None = None) -> dict[str, int | None]:
        """A copy of a side's sheet (the current side's by default)."""
        return dict(self.sheets[self.current if side is None else side])

    # --- the roll-off --------------------------------------------------

    def _draw(self, count: int) -> tuple[int, ...]:
        if self.roller is None:
            raise IllegalAction("roll.no_roller")
        dice = self.roller.draw(count, self.drawn)
        if type(dice) is not tuple or len(dice) != count:
            dice = check_dice(dice, count)
        return dice

    def _do_rolloff(self, roll_for) -> None:
        """Settle the playing order; ``roll_for(count)`` gives each contender's dice."""
        n = len(self.sides)
        if n == 1:
            return
        by_die = self.rules.spec.rolloff == "highest-die"
        count = 1 if by_die else self.rules.dice

        def round_of(group: list[int]) -> list[tuple[int, int]]:
            rolls = []
            for side in group:
                rolls.append((side, roll_for(count)))
                self.drawn += count
            self.history.append({"rolloff": [[s, list(d)] for s, d in rolls]})
            return [(side, sum(d)) for side, d in rolls]

        def settle(group: list[int]) -> list[int]:
            """Order ``group`` by roll, lowest sum first; ties roll again among themselves."""
            results = round_of(group)
            ordered: list[int] = []
            for value in sorted({v for _, v in results}):
                tied = [s for s, v in results if v == value]
                ordered += tied if len(tied) == 1 else settle(tied)
            return ordered

        if by_die:
            # Highest die starts; ties for the top roll again; then seating order.
            group = list(range(n))
            while len(group) > 1:
                results = round_of(group)
                top = max(v for _, v in results)
                group = [s for s, v in results if v == top]
            first = group[0]
            self.order = tuple((first + i) % n for i in range(n))
        else:
            self.order = tuple(settle(list(range(n))))

    # --- actions -------------------------------------------------------

    def check_playing(self) -> None:
        """IllegalAction (``game.over``) once the game is over: every action checks it first."""
        if self.over:
            raise IllegalAction("game.over")

    def check_hold(self) -> None:
        """IllegalAction unless dice may be held now: after a roll with rolls left, in a game
        that rolls its own dice (not ``throws_at_table``)."""
        self.check_playing()
        if self.throws_at_table:
            raise IllegalAction("hold.score_sheet")
        if self.rolls == 0:
            raise IllegalAction("hold.before_roll")
        if self.rolls == 3:
            raise IllegalAction("hold.none_left")

    def check_positions(self, indices: Iterable[int]) -> frozenset[int]:
        """The dice positions ``indices`` as a set; InvalidInput for anything but positions
        0..dice-1."""
        try:
            held = frozenset(indices)
        except TypeError:
            raise InvalidInput("hold.type", {"got": shown(indices)}) from None
        for i in held:
            if type(i) is not int or not 0 <= i < self.rules.dice:
                raise InvalidInput("hold.position", {"max": self.rules.dice - 1, "got": shown(i)})
        return held

    def hold(self, indices: Iterable[int]) -> frozenset[int]:
        """Keep these dice (positions 0..dice-1) for the next roll; the others are rolled."""
        self.check_playing()
        held = self.check_positions(indices)
        self.check_hold()
        self.history.append({"hold": sorted(held)})
        self.held = held
        return held

    def toggle(self, index: int) -> frozenset[int]:
        """Hold a die if it was free, free it if it was held."""
        return self.hold(self.held ^ {index})

    def roll(self, dice: Sequence[int] | None = None) -> tuple[int, ...]:
        """Roll the dice that are not held. ``dice`` gives the outcome instead of the roller."""
        free = self.check_roll()
        size = self.rules.dice
        if dice is None:
            fresh = self._draw(len(free))
            if len(free) == size:
                result = fresh
            else:
                new = list(self.dice)
                for i, value in zip(free, fresh):
                    new[i] = value
                result = tuple(new)
        else:
            result = check_dice(dice, size)
            if self.dice is not None and any(result[i] != self.dice[i] for i in self.held):
                raise IllegalAction("roll.held_changed", {"dice": list(result), "before": list(self.dice)})
        self.history.append({"roll": list(result)})
        self.drawn += len(free)
        self.dice = result
        self.rolls += 1
        if self.rolls == 1:
            self._check_auto_win()
        return result

    def check_roll(self) -> list[int] | range:
        """The positions of the dice a roll now would roll; IllegalAction when no roll is allowed."""
        if self.auto_win is not None or self.turn >= self._last_turn:
            raise IllegalAction("game.over")
        if self.throws_at_table:
            raise IllegalAction("roll.score_sheet")
        if self.rolls == 3:
            raise IllegalAction("roll.none_left")
        size, held = self.rules.dice, self.held
        free = [i for i in range(size) if i not in held] if held else range(size)
        if not free:
            raise IllegalAction("roll.all_held")
        return free

    def check_enter(self) -> None:
        """IllegalAction unless dice may be entered now: a score-sheet game, before this turn's box."""
        self.check_playing()
        if not self.sheet_mode:
            raise IllegalAction("enter.rolled_game")
        if self.rolls:
            raise IllegalAction("enter.twice")

    def enter(self, dice: Sequence[int], roll: int = 1) -> tuple[int, ...]:
        """Write down dice thrown at the table: the final dice of a turn, and on which roll
        (1-3) they came, which prices served bonuses and automatic wins."""
        self.check_playing()
        if not self.sheet_mode:
            raise IllegalAction("enter.rolled_game")
        result = check_dice(dice, self.rules.dice)
        if type(roll) is not int or roll not in (1, 2, 3):
            raise InvalidInput("roll.range", {"got": shown(roll)})
        self.check_enter()
        self.history.append({"enter": list(result), "at": roll})
        self.dice = result
        self.rolls = roll
        self._check_auto_win()
        return result

    def _wins(self) -> bool:
        """Whether the dice now make the automatic win: all alike on the turn's first roll
        (the rules' ``auto_win``), unless the side wrote 0 in its forfeit box."""
        auto = self.rules.auto_win
        if auto is None or self.rolls != 1 or self.dice is None or len(set(self.dice)) != 1:
            return False
        # a scratched box forfeits the win (seed 002)
        return auto.forfeit is None or self.sheets[self.current][auto.forfeit] != 0

    def _check_auto_win(self) -> None:
        """All dice alike on the turn's first roll may end the game at once; where the rules
        make the win a choice (``win_choice``) it is only offered (``check_take_win``)."""
        if self._wins() and not self.rules.win_choice:
            self._win()

    def _win(self) -> None:
        side = self.current
        self.auto_win = {"side": side, "kind": self.rules.auto_win.kind}
        entry = self.rules.win_entry(HAND_OF[self.dice], self.sheets[side]) if self.rules.dice == 5 else None
        if entry is not None:
            box, points = entry
            self.sheets[side][box] = points
            self.auto_win.update(box=box, points=points)

    def check_take_win(self) -> None:
        """IllegalAction unless the dice offer the automatic win to take now: the rules make it
        a choice (``served_win_choice``) and the turn's first roll made it."""
        self.check_playing()
        if not (self.rules.win_choice and self._wins()):
            raise IllegalAction("win.not_offered")

    @property
    def win_offered(self) -> bool:
        """Whether the side to play may take the automatic win now (``take_win``)."""
        return _allows(self.check_take_win)

    def take_win(self) -> dict:
        """Take the automatic win the dice offer: the game ends, this side first."""
        self.check_take_win()
        self.history.append({"win": True})
        self._win()
        return self.auto_win

    def preview(self) -> dict[str, int]:
        """What the current dice would earn in each open box of the current side (5 dice)
        that the house rules let them go into now."""
        if self.dice is None or self.over:
            return {}
        if self.rules.dice != 5:
            return {}
        sheet = self.sheets[self.current]
        hand = HAND_OF[self.dice]
        served = self.rolls == 1
        prices = self.rules.prices
        result = {b: prices[b][hand][served] for b, v in sheet.items() if v is None}
        for box, needs in self.rules.needs.items():
            if box in result and not sheet.get(needs):
                result[box] = 0  # it needs points in the other box first
        rules = self.rules
        if rules.scratch_last or rules.needs_first:
            for box in list(result):
                if rules.fill_refusal(box, hand, served, sheet) is not None:
                    del result[box]
        return result

    def score(self, box: str, box_b: str | None = None, *, split: Sequence[int] | None = None,
              scratch=False) -> int:
        """Fill ``box`` with the dice (or 0 when ``scratch``); ends the turn.

        Ten dice fill two boxes: ``box`` gets the dice at positions ``split`` (five
        of them) and ``box_b`` the rest; without ``split`` the best split is taken.
        There ``scratch`` is a pair of flags, one a box: a box whose flag is true is
        written 0 by the player's choice (``[False, True]`` sacrifices ``box_b``).
        Returns the points written.
        """
        action, writes = self.plan_score(box, box_b, split=split, scratch=scratch)
        self.history.append(action)
        sheet = self.sheets[self.current]
        for name, points in writes:
            sheet[name] = points
        self._next_turn()
        return sum(points for _, points in writes)

    def check_fill(self, box: str, scratch: bool = False) -> None:
        """IllegalAction unless ``box`` (a box of these rules) may be filled now, written 0 by
        choice when ``scratch``: the dice are thrown, the box is open, a mandatory box is
        never scratched."""
        if self.dice is None:
            raise IllegalAction("score.before_roll")
        if self.sheets[self.current][box] is not None:
            raise IllegalAction("box.filled", {"box": box})
        if scratch and box in self.rules.mandatory:
            raise IllegalAction("box.mandatory", {"box": box})
        rules = self.rules
        if rules.dice == 5 and (rules.scratch_last or rules.needs_first):
            refused = rules.fill_refusal(box, HAND_OF[self.dice], self.rolls == 1,
                                         self.sheets[self.current], scratch)
            if refused is not None:  # (code, params): the house rule's refusal
                raise IllegalAction(refused[0], refused[1])

    def plan_score(self, box, box_b=None, *, split=None, scratch=False) -> tuple[dict, list]:
        """Check a score request without changing the game: ``(history action, [(box, points)])``.
        Raises InvalidInput or IllegalAction as ``score`` would."""
        self.check_playing()
        rules = self.rules
        if rules.boxes_per_turn == 2:
            return self._plan_two(box, box_b, split, scratch)
        if box_b is not None or split is not None:
            raise InvalidInput("score.one_box", {"variant": rules.name})
        if type(scratch) is not bool:
            raise InvalidInput("score.scratch_type", {"got": shown(scratch)})
        if not isinstance(box, str):
            raise InvalidInput("box.type", {"got": shown(box)})
        rules.check_box(box)
        self.check_fill(box, scratch)
        sheet = self.sheets[self.current]
        points = 0 if scratch else rules.price(box, HAND_OF[self.dice], self.rolls == 1, sheet)
        return ({"score": box, "scratch": True} if scratch else {"score": box}), [(box, points)]

    def fill_action(self, box: str, box_b: str | None = None, split=None) -> Score | ScoreTwo:
        """The action that fills ``box`` with the dice now (with ten dice ``box`` and ``box_b``,
        the dice at ``split`` going to ``box``: the best split when None), each box that
        would earn nothing written 0 by choice (``rules.scratches``): how the page's
        choices and the coach's moves are recorded alike. Refused as ``score`` would."""
        rules = self.rules
        action, writes = self.plan_score(box, box_b, split=split)
        if rules.boxes_per_turn == 2:
            return ScoreTwo((box, box_b), tuple(action["split"]),
                            tuple(rules.scratches(b, p) for b, p in writes))
        return Score(box, scratch=rules.scratches(box, writes[0][1]))

    def split_for(self, box_a: str, box_b: str):
        """The best split of the current ten dice for two boxes, with dice positions.

        Returns ``(positions_a, split)``: the positions of the five dice that go
        to ``box_a``, and the :class:`~generala.rules.variants.Split`.
        """
        self._check_boxes(box_a, box_b)
        best = self.rules.best_split(self.dice, box_a, box_b)
        return positions_of(self.dice, best.group_a), best

    def price_split(self, box_a: str, box_b: str, split, scratch=(False, False)) -> tuple[list[int], tuple[int, int]]:
        """A chosen split of the current ten dice, checked and priced: ``(positions, (points_a,
        points_b))``, the dice at ``split`` (five positions) going to ``box_a``, the others to
        ``box_b`` (a box whose ``scratch`` flag is true gets 0). The boxes may be filled:
        this prices, ``score`` fills."""
        self._check_boxes(box_a, box_b)
        self.rules.check_pair(box_a, box_b)
        positions = self._check_split(split)
        return positions, self.rules.price_split(self.dice, positions, box_a, box_b,
                                                 self.sheets[self.current], scratch)

    def _check_boxes(self, box_a, box_b) -> None:
        if self.dice is None:
            raise IllegalAction("score.before_roll")
        if not isinstance(box_a, str) or not isinstance(box_b, str):
            raise InvalidInput("boxes.type", {"got": shown([box_a, box_b])})

    @staticmethod
    def _check_split(split) -> list[int]:
        """The positions of a split, sorted; refused unless five different dice of ten."""
        if not isinstance(split, (list, tuple)) or not all(type(i) is int for i in split):
            raise InvalidInput("split.type", {"got": shown(split)})
        positions = sorted(set(split))
        if len(positions) != 5 or len(split) != 5 or not all(0 <= i < 10 for i in positions):
            raise IllegalAction("split.positions", {"got": shown(split)})
        return positions

    def _plan_two(self, box_a, box_b, split, scratch) -> tuple[dict, list]:
        rules = self.rules
        if box_b is None:
            raise InvalidInput("score.two_boxes")
        if not isinstance(box_a, str) or not isinstance(box_b, str):
            raise InvalidInput("boxes.type", {"got": shown([box_a, box_b])})
        if scratch is False or scratch is None:
            scratch = (False, False)
        if not isinstance(scratch, (list, tuple)) or len(scratch) != 2 or not all(
            type(flag) is bool for flag in scratch
        ):
            raise InvalidInput("score.scratch_pair", {"got": shown(scratch)})
        scratch = (scratch[0], scratch[1])
        rules.check_pair(box_a, box_b)
        for box, flag in zip((box_a, box_b), scratch):
            self.check_fill(box, flag)
        dice, sheet = self.dice, self.sheets[self.current]
        if split is None:
            if any(scratch):  # the best split for the box (if any) that is not scratched
                positions = list(max(combinations(range(10), 5), key=lambda p: sum(
                    rules.price_split(dice, p, box_a, box_b, sheet, scratch))))
            else:
                positions, _ = self.split_for(box_a, box_b)
        else:
            positions = self._check_split(split)
        points_a, points_b = rules.price_split(dice, positions, box_a, box_b, sheet, scratch)
        action = {"score": [box_a, box_b], "split": list(positions)}
        if any(scratch):
            action["scratch"] = list(scratch)
        return action, [(box_a, points_a), (box_b, points_b)]

    def _next_turn(self) -> None:
        self.turn += 1
        self.dice = None
        self.held = frozenset()
        self.rolls = 0

    # --- undo and replay -------------------------------------------------

    @property
    def can_undo(self) -> bool:
        """Whether the last action may be taken back: a hold, or the box just filled (or, in a
        score-sheet game, dice entered by hand). Never a roll or the roll-off: a roll's dice are
        final, so an undo can never show a die before it is rolled; and nothing once the game
        is over, but in a score-sheet game, whose last entry (a slip at the table, not a peek
        at dice to come) can be undone even when it ended the game. After any roll, nothing
        before that roll can be undone. A daily challenge has no undo. Only a person's action
        is taken back: never the hold or the box of a side a computer plays (a computer
        level or a saved bot; in a score-sheet game people play every side at the table).
        On one device (``one_device``), a box filled is not taken back once the turn has
        passed to another person's side: that side's Undo reaches only into its own turn
        (solo, the same side plays on; against the computer, the person's box may be taken
        back before the computer's turn)."""
        if not self.started or self.daily:
            return False
        last = self.history[-1]
        if self.over:
            return self.sheet_mode and ("score" in last or "enter" in last or "win" in last)
        if not ("hold" in last or "score" in last or "enter" in last or "win" in last):
            return False
        if self.sheet_mode:
            return True
        mover = self._last_mover()
        return self.sides[mover].person and not self._turn_passed(mover)

    def _turn_passed(self, mover: int) -> bool:
        """Whether the last entry, ``mover``'s, passed the turn to another person's side on
        this one device (a hot-seat game): that person's turn has begun."""
        current = self.current
        return (self.one_device and current is not None and current != mover
                and self.sides[current].person)

    def _last_mover(self) -> int:
        """The side that made the last entry of a game in play: a hold is the side to play's;
        a box filled passed the turn on, so it is the side before it in the order."""
        if "hold" in self.history[-1]:
            return self.current
        order = self.order
        return order[(order.index(self.current) - 1) % len(order)]

    def undo(self) -> dict:
        """Take back the last action (see ``can_undo``); returns it. The game is exactly as
        before it."""
        if not self.can_undo:
            if self.over:
                raise IllegalAction("undo.over")
            if self.daily:
                raise IllegalAction("daily.no_undo")
            if not self.started:
                raise IllegalAction("undo.nothing")
            last = self.history[-1]
            if "roll" in last or "rolloff" in last or "order" in last:
                raise IllegalAction("undo.roll")
            side = self._last_mover()
            if self.sides[side].person:  # the turn has passed to another person (one device)
                current = self.current
                raise IllegalAction("undo.turn_passed", {"side": side, "name": self.sides[side].name,
                                                         "next_name": self.sides[current].name})
            raise IllegalAction("undo.computer", {"side": side, "name": self.sides[side].name})
        history = self.history[:-1]
        last = self.history[-1]
        self._reset()
        self.replay(history)
        return last

    def replay(self, actions: Iterable[dict], *, check=None) -> None:
        """Apply recorded actions (the roll-off first) to a game with no history yet.

        With ``check`` (a roller), every recorded die of the roll-off and of every roll
        must be the one that roller gives at that position; IllegalAction names the first
        that is not (``save.dice_edited``, ``save.rolloff_edited``; ``..._unchecked`` when
        the roller cannot give them)."""
        actions = list(actions)
        if self.history:
            raise IllegalAction("replay.not_fresh")
        if actions and isinstance(actions[0], dict) and set(actions[0]) == {"order"}:
            self._set_order(actions[0]["order"])
            actions = actions[1:]
            rolloff = []
        else:
            rolloff = list(takewhile(lambda a: isinstance(a, dict) and "rolloff" in a, actions))
        if rolloff or (len(self.sides) > 1 and "order" not in (self.history or [{}])[0]):
            recorded = iter(rolloff)
            pending: list[tuple[int, ...]] = []
            rounds: list[dict] = []

            def roll_for(count: int) -> tuple[int, ...]:
                # Each round's entry lists [side, dice] pairs in the order asked.
                if not pending:
                    entry = next(recorded, None)
                    if entry is None:
                        raise IllegalAction("rolloff.incomplete")
                    pending.extend(_rolloff_round(entry, count))
                    rounds.append(entry)
                dice = pending.pop(0)
                if check is not None:
                    entry = rounds[-1]
                    side = entry["rolloff"][len(entry["rolloff"]) - len(pending) - 1][0]
                    known = type(side) is int and 0 <= side < len(self.sides)
                    self._check_draw(check, dice, self.drawn, range(count), None, "rolloff", {
                        "action": len(rounds), "side": side if known else None,
                        "name": self.sides[side].name if known else shown(side), "round": len(rounds)})
                return dice

            history_before = len(self.history)
            self._do_rolloff(roll_for)
            if self.history[history_before:] != rolloff:
                raise IllegalAction("rolloff.unsettled")
        for number, action in enumerate(actions[len(rolloff):], len(self.history) + 1):
            if check is None or not (isinstance(action, dict) and "roll" in action):
                self.apply(action)
                continue
            recorded = action["roll"]
            if len(action) == 1 and isinstance(recorded, list) and len(recorded) == self.rules.dice and all(
                type(v) is int and 1 <= v <= 6 for v in recorded
            ) and (self.dice is None or all(recorded[i] == self.dice[i] for i in self.held)):
                # (no dice, or a changed held die, is refused as such by the roll itself)
                # Checked before it is applied, so the first wrong die is the one named.
                side = self.current
                self._check_draw(check, recorded, self.drawn, self.check_roll(), self.dice, "dice", {
                    "action": number, "side": side, "name": self.sides[side].name,
                    "turn": self.round, "roll": self.rolls + 1})
            self.apply(action)

    @staticmethod
    def _check_draw(roller, recorded, position, free, before, what: str, where: dict) -> None:
        """Refuse recorded dice that ``roller`` does not give at ``position`` (only the dice at
        positions ``free`` were drawn; the others are ``before``). ``what`` is ``"dice"`` (a
        roll) or ``"rolloff"``; ``where`` names the action (the refusal's params)."""
        free = list(free)
        try:
            fresh = roller.draw(len(free), position)
        except IllegalAction as err:
            if what == "rolloff":
                raise IllegalAction("save.rolloff_unchecked", {**where, "cause": err}) from None
            raise IllegalAction("save.dice_unchecked", {**where, "cause": err}) from None
        expected = list(before) if before is not None else [0] * len(recorded)
        for i, value in zip(free, fresh):
            expected[i] = value
        if list(recorded) == expected:
            return
        if what == "rolloff":
            raise IllegalAction("save.rolloff_edited", {**where, "dice": list(recorded), "seeded": expected})
        raise IllegalAction("save.dice_edited", {**where, "dice": list(recorded), "seeded": expected})

    def apply(self, action: dict) -> None:
        """Apply one recorded turn action (as found in ``history``)."""
        played = action_from_json(action)
        if not isinstance(played, TURN_ACTIONS):
            raise InvalidInput("action.unknown", {"got": shown(action)})
        self.play(played)

    def play(self, action: Action):
        """Take ``action`` (one of ``legal_actions()``, or any other, which is refused with
        the game unchanged); returns what the method it stands for returns."""
        if isinstance(action, Roll):
            return self.roll(action.dice)
        if isinstance(action, Hold):
            return self.hold(action.dice)
        if isinstance(action, Toggle):
            return self.toggle(action.die)
        if isinstance(action, Score):
            return self.score(action.box, scratch=action.scratch)
        if isinstance(action, ScoreTwo):
            boxes = action.boxes
            if not isinstance(boxes, tuple) or len(boxes) != 2:
                raise InvalidInput("action.score", {"got": shown(action.to_json())})
            return self.score(boxes[0], boxes[1], split=action.split, scratch=action.scratch)
        if isinstance(action, Enter):
            return self.enter(action.dice, action.at)
        if isinstance(action, Undo):
            return self.undo()
        if isinstance(action, TakeWin):
            return self.take_win()
        raise InvalidInput("action.unknown", {"got": shown(action.to_json() if isinstance(action, Action)
                                                          else action)})

    def legal_actions(self) -> list[Action]:
        """Every action the side to play may take now, by the same checks that refuse the
        others: ``Roll()``; one ``Toggle(i)`` a die (holds are listed die by die: any set of
        dice may be held, one toggle at a time); ``Score(box)`` for each open box, and
        ``Score(box, scratch=True)`` where a box may be written 0 by choice; with ten dice
        ``ScoreTwo((a, b))`` for each pair of open boxes (in sheet order: any split of the
        dice, and a scratch of either box, may go with it); ``Enter()`` in a score-sheet game
        (any dice, on roll 1-3); ``TakeWin()`` where the rules offer the automatic win;
        ``Undo()``. Once the game is over, only ``Undo()`` in a score-sheet game (its last
        entry), else nothing."""
        if self.over:
            return [Undo()] if self.can_undo else []
        legal: list[Action] = []
        if _allows(self.check_take_win):
            legal.append(TakeWin())
        if _allows(self.check_enter):
            legal.append(Enter())
        if _allows(self.check_roll):
            legal.append(Roll())
        if _allows(self.check_hold):
            legal.extend(Toggle(i) for i in range(self.rules.dice))
        if self.dice is not None:
            fillable = [box for box in self.rules.categories if _allows(self.check_fill, box)]
            if self.rules.boxes_per_turn == 2:
                legal.extend(ScoreTwo(pair) for pair in combinations(fillable, 2))
            else:
                for box in fillable:
                    legal.append(Score(box))
                    if _allows(self.check_fill, box, True):
                        legal.append(Score(box, scratch=True))
        if self.can_undo:
            legal.append(Undo())
        return legal

    # --- results ---------------------------------------------------------

    def totals(self) -> list[int]:
        return [self.rules.total(s) for s in self.sheets]

    def ranking(self) -> list[int]:
        """Each side's place; an automatic winner is first and the rest rank below."""
        totals = self.totals()
        if self.auto_win is None:
            return ranking(totals)
        winner = self.auto_win["side"]
        others = [t for i, t in enumerate(totals) if i != winner]
        return [1 if i == winner else 2 + sum(o > t for o in others)
                for i, t in enumerate(totals)]

    def settlement(self) -> list[dict]:
        """Money: who pays whom, once the game is over (empty without a stake).

        The winner receives (difference in totals) × stake from every other side;
        after an automatic win at least the stake's minimum (100 points) worth. Sides
        tied for first share what each loser pays.
        """
        stake = self.rules.stake
        if not stake or not self.over:
            return []
        totals = self.totals()
        places = self.ranking()
        winners = [i for i, p in enumerate(places) if p == 1]
        payments = []
        for loser in (i for i, p in enumerate(places) if p != 1):
            for winner in winners:
                points = totals[winner] - totals[loser]
                if self.auto_win is not None:
                    points = max(points, self.rules.spec.stake.auto_win_minimum)
                amount = round(points * stake / len(winners), 2)
                payments.append({"from": loser, "to": winner, "amount": amount})
        return payments

    # --- saving ------------------------------------------------------------

    def to_json(self) -> dict:
        """The versioned save document: rules, sides, roller and history (:mod:`generala.rules.save`)."""
        return save.dump(self)

    @classmethod
    def from_json(cls, doc, roller=None) -> "Game":
        """Load a document made by ``to_json`` (a dict or JSON text) by replaying it;
        ``roller`` replaces the saved one. SaveError says why a document is refused."""
        return save.load(doc, lambda rules, sides: cls(rules, sides, None, rolloff=False), roller)

    def __repr__(self) -> str:
        names = [s.name for s in self.sides]
        state = "over" if self.over else f"turn {self.turn}, {self.rolls} rolls"
        return f"<Game {self.rules!r} {names!r} {state}>"


def _rolloff_round(entry: dict, count: int) -> list[tuple[int, ...]]:
    pairs = entry.get("rolloff") if isinstance(entry, dict) else None
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise InvalidInput("rolloff.shape", {"got": shown(entry)})
    return [check_dice(dice, count) for _, dice in pairs]


def positions_of(dice: Sequence[int], group: Sequence[int]) -> list[int]:
    """Positions in ``dice`` of the values in ``group`` (each position used once)."""
    wanted = list(group)
    positions = []
    for i, value in enumerate(dice):
        if value in wanted:
            wanted.remove(value)
            positions.append(i)
    if wanted:
        raise InvalidInput("dice.not_part", {"group": list(group), "dice": list(dice)})
    return positions


def _allows(check, *args) -> bool:
    """Whether ``check(*args)`` passes (it raises a GeneralaError when not)."""
    try:
        check(*args)
    except GeneralaError:
        return False
    return True
