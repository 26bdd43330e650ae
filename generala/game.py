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
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, takewhile

from .dice import HAND_OF, check_dice
from .errors import IllegalAction, InvalidInput
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
            raise InvalidInput(f"rules come from generala.variant(...), got {rules!r}")
        self.rules = rules
        self.sides: tuple[Side, ...] = make_sides(sides)
        self._last_turn = len(self.sides) * rules.turns
        self.roller = roller
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
            raise InvalidInput(f"an order lists every side 0-{n - 1} once, got {order!r}")
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
    def sheet_mode(self) -> bool:
        """A score-sheet game: its order was given, not rolled (the table throws real dice)."""
        return bool(self.history) and "order" in self.history[0]

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
            raise IllegalAction("this game has no roller: pass one, or give the dice")
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

    def _check_playing(self) -> None:
        if self.over:
            raise IllegalAction("the game is over")

    def hold(self, indices: Iterable[int]) -> frozenset[int]:
        """Keep these dice (positions 0..dice-1) for the next roll; the others are rolled."""
        self._check_playing()
        try:
            held = frozenset(indices)
        except TypeError:
            raise InvalidInput(f"hold takes dice positions, got {indices!r}") from None
        for i in held:
            if type(i) is not int or not 0 <= i < self.rules.dice:
                raise InvalidInput(f"dice positions are 0 to {self.rules.dice - 1}, got {i!r}")
        if self.rolls == 0:
            raise IllegalAction("no dice to hold before the first roll")
        if self.rolls == 3:
            raise IllegalAction("no rolls left: choose a box")
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
                raise IllegalAction(f"held dice cannot change: {result!r} against {self.dice!r}")
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
            raise IllegalAction("the game is over")
        if self.rolls == 3:
            raise IllegalAction("three rolls are the most a turn has: choose a box")
        size, held = self.rules.dice, self.held
        free = [i for i in range(size) if i not in held] if held else range(size)
        if not free:
            raise IllegalAction("every die is held: choose a box instead of rolling")
        return free

    def enter(self, dice: Sequence[int], roll: int = 1) -> tuple[int, ...]:
        """Write down dice thrown at the table: the final dice of a turn, and on which
        roll (1-3) they came, which prices served bonuses and automatic wins."""
        if self.auto_win is not None or self.turn >= self._last_turn:
            raise IllegalAction("the game is over")
        if not self.sheet_mode:
            raise IllegalAction("dice are entered only in a score-sheet game; this game rolls its own")
        result = check_dice(dice, self.rules.dice)
        if type(roll) is not int or roll not in (1, 2, 3):
            raise InvalidInput(f"roll is 1, 2 or 3, got {roll!r}")
        if self.rolls:
            raise IllegalAction("dice are entered once a turn, before choosing a box")
        self.history.append({"enter": list(result), "at": roll})
        self.dice = result
        self.rolls = roll
        self._check_auto_win()
        return result

    def _check_auto_win(self) -> None:
        """All dice alike on the turn's first roll may end the game at once (the rules'
        ``auto_win``, unless the side wrote 0 in its forfeit box)."""
        auto = self.rules.auto_win
        if auto is None or self.rolls != 1 or len(set(self.dice)) != 1:
            return
        side = self.current
        if auto.forfeit is not None and self.sheets[side][auto.forfeit] == 0:
            return  # a scratched box forfeits the win (seed 002)
        self.auto_win = {"side": side, "kind": auto.kind}

    def preview(self) -> dict[str, int]:
        """What the current dice would earn in each open box of the current side (5 dice)."""
        if self.dice is None or self.over:
            return {}
        if self.rules.dice != 5:
            return {}
        sheet = self.sheets[self.current]
        hand = HAND_OF[self.dice]
        served = self.rolls == 1
        prices = self.rules._prices
        result = {b: prices[b][hand][served] for b, v in sheet.items() if v is None}
        for box, needs in self.rules.needs.items():
            if box in result and not sheet.get(needs):
                result[box] = 0  # it needs points in the other box first
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

    def plan_score(self, box, box_b=None, *, split=None, scratch=False) -> tuple[dict, list]:
        """Check a score request without changing the game: ``(history action, [(box, points)])``.
        Raises InvalidInput or IllegalAction as ``score`` would."""
        self._check_playing()
        rules = self.rules
        if rules.boxes_per_turn == 2:
            return self._plan_two(box, box_b, split, scratch)
        if box_b is not None or split is not None:
            raise InvalidInput(f"{rules.name} fills one box a turn")
        if type(scratch) is not bool:
            raise InvalidInput(f"scratch is true or false for one box, got {scratch!r}")
        if not isinstance(box, str):
            raise InvalidInput(f"a box is named by its id, got {box!r}")
        rules.check_box(box)
        if self.dice is None:
            raise IllegalAction("roll before choosing a box")
        sheet = self.sheets[self.current]
        if sheet[box] is not None:
            raise IllegalAction(f"{box} is already filled")
        if scratch and box in rules.mandatory:
            raise IllegalAction(f"{box} is mandatory: it takes what the dice give")
        points = 0 if scratch else rules._price(box, HAND_OF[self.dice], self.rolls == 1, sheet)
        return ({"score": box, "scratch": True} if scratch else {"score": box}), [(box, points)]

    def split_for(self, box_a: str, box_b: str):
        """The best split of the current ten dice for two boxes, with dice positions.

        Returns ``(positions_a, split)``: the positions of the five dice that go
        to ``box_a``, and the :class:`~generala.variants.Split`.
        """
        if self.dice is None:
            raise IllegalAction("roll before choosing boxes")
        if not isinstance(box_a, str) or not isinstance(box_b, str):
            raise InvalidInput(f"boxes are named by their ids, got {box_a!r} and {box_b!r}")
        best = self.rules.best_split(self.dice, box_a, box_b)
        return positions_of(self.dice, best.group_a), best

    def _plan_two(self, box_a, box_b, split, scratch) -> tuple[dict, list]:
        rules = self.rules
        if box_b is None:
            raise InvalidInput("ten dice fill two boxes: name both")
        if not isinstance(box_a, str) or not isinstance(box_b, str):
            raise InvalidInput(f"boxes are named by their ids, got {box_a!r} and {box_b!r}")
        if scratch is False or scratch is None:
            scratch = (False, False)
        if not isinstance(scratch, (list, tuple)) or len(scratch) != 2 or not all(
            type(flag) is bool for flag in scratch
        ):
            raise InvalidInput(f"with two boxes, scratch is a pair of true/false (one a box), got {scratch!r}")
        scratch = (scratch[0], scratch[1])
        rules._check_pair(box_a, box_b)
        if self.dice is None:
            raise IllegalAction("roll before choosing boxes")
        sheet = self.sheets[self.current]
        for box in (box_a, box_b):
            if sheet[box] is not None:
                raise IllegalAction(f"{box} is already filled")
        for box, flag in zip((box_a, box_b), scratch):
            if flag and box in rules.mandatory:
                raise IllegalAction(f"{box} is mandatory: it takes what the dice give")

        def prices(positions) -> tuple[int, int]:
            group_a = tuple(sorted(self.dice[i] for i in positions))
            group_b = tuple(sorted(self.dice[i] for i in range(10) if i not in positions))
            return (0 if scratch[0] else rules._price(box_a, group_a, False, sheet),
                    0 if scratch[1] else rules._price(box_b, group_b, False, sheet))

        if split is None:
            if any(scratch):  # the best split for the box (if any) that is not scratched
                positions = list(max(combinations(range(10), 5), key=lambda p: sum(prices(p))))
            else:
                positions, _ = self.split_for(box_a, box_b)
        else:
            if not isinstance(split, (list, tuple)) or not all(type(i) is int for i in split):
                raise InvalidInput(f"a split lists five dice positions, got {split!r}")
            positions = sorted(set(split))
            if len(positions) != 5 or len(split) != 5 or not all(0 <= i < 10 for i in positions):
                raise IllegalAction(f"a split puts five different dice (0-9) in each box, got {split!r}")
        points_a, points_b = prices(positions)
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
        is over. After any roll, nothing before that roll can be undone."""
        if self.over or not self.started:
            return False
        last = self.history[-1]
        return "hold" in last or "score" in last or "enter" in last

    def undo(self) -> dict:
        """Take back the last action (see ``can_undo``); returns it. The game is exactly as
        before it."""
        if not self.can_undo:
            if self.over:
                raise IllegalAction("the game is over: nothing can be undone")
            if not self.started:
                raise IllegalAction("nothing to undo")
            raise IllegalAction("a roll cannot be undone: its dice are final")
        history = self.history[:-1]
        last = self.history[-1]
        self._reset()
        self.replay(history)
        return last

    def replay(self, actions: Iterable[dict], *, check=None) -> None:
        """Apply recorded actions (the roll-off first) to a game with no history yet.

        With ``check`` (a roller), every recorded die of the roll-off and of every roll
        must be the one that roller gives at that position; IllegalAction names the first
        that is not."""
        actions = list(actions)
        if self.history:
            raise IllegalAction("replay needs a game with no history")
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
                        raise IllegalAction("the roll-off is incomplete")
                    pending.extend(_rolloff_round(entry, count))
                    rounds.append(entry)
                dice = pending.pop(0)
                if check is not None:
                    entry = rounds[-1]
                    side = entry["rolloff"][len(entry["rolloff"]) - len(pending) - 1][0]
                    name = self.sides[side].name if type(side) is int and 0 <= side < len(self.sides) else side
                    self._check_draw(check, dice, self.drawn, range(count), None,
                                     f"the roll-off at action {len(rounds)} (side {name}, "
                                     f"round {len(rounds)})")
                return dice

            history_before = len(self.history)
            self._do_rolloff(roll_for)
            if self.history[history_before:] != rolloff:
                raise IllegalAction("the roll-off in the history does not settle the order")
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
                self._check_draw(check, recorded, self.drawn, self.check_roll(), self.dice,
                                 f"the roll at action {number} (side {self.sides[self.current].name}, "
                                 f"turn {self.round}, roll {self.rolls + 1})")
            self.apply(action)

    @staticmethod
    def _check_draw(roller, recorded, position, free, before, where) -> None:
        """Refuse recorded dice that ``roller`` does not give at ``position`` (only the dice at
        positions ``free`` were drawn; the others are ``before``)."""
        free = list(free)
        try:
            fresh = roller.draw(len(free), position)
        except IllegalAction as err:
            raise IllegalAction(f"{where} cannot be checked: {err}") from None
        expected = list(before) if before is not None else [0] * len(recorded)
        for i, value in zip(free, fresh):
            expected[i] = value
        if list(recorded) != expected:
            raise IllegalAction(f"{where} recorded {list(recorded)} but the seed gives {expected}")

    def apply(self, action: dict) -> None:
        """Apply one recorded turn action (as found in ``history``)."""
        if not isinstance(action, dict) or len(action) not in (1, 2, 3):
            raise InvalidInput(f"an action is an object such as {{'roll': [...]}}, got {action!r}")
        if "hold" in action and len(action) == 1:
            if not isinstance(action["hold"], list):
                raise InvalidInput(f"hold lists dice positions, got {action!r}")
            self.hold(action["hold"])
        elif "roll" in action and len(action) == 1:
            self.roll(action["roll"])
        elif set(action) == {"enter", "at"}:
            self.enter(action["enter"], action["at"])
        elif "score" in action:
            box, extra = action["score"], {k: v for k, v in action.items() if k != "score"}
            if isinstance(box, list) and len(box) == 2 and set(extra) <= {"split", "scratch"} and (
                "scratch" not in extra or extra["scratch"] in ([True, False], [False, True], [True, True])
            ):
                self.score(box[0], box[1], split=extra.get("split"), scratch=extra.get("scratch", False))
            elif isinstance(box, str) and (extra == {} or (extra == {"scratch": True}
                                                          and extra["scratch"] is True)):
                self.score(box, scratch=bool(extra))
            else:
                raise InvalidInput(f"not a score action: {action!r}")
        else:
            raise InvalidInput(f"unknown action {action!r}")

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
        """The versioned save document: rules, sides, roller and history."""
        from .save import dump
        return dump(self)

    @classmethod
    def from_json(cls, doc, roller=None) -> "Game":
        """Load a document made by ``to_json`` (a dict or JSON text) by replaying it."""
        from .save import load
        return load(doc, roller)

    def __repr__(self) -> str:
        names = [s.name for s in self.sides]
        state = "over" if self.over else f"turn {self.turn}, {self.rolls} rolls"
        return f"<Game {self.rules!r} {names!r} {state}>"


def _rolloff_round(entry: dict, count: int) -> list[tuple[int, ...]]:
    pairs = entry.get("rolloff") if isinstance(entry, dict) else None
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise InvalidInput(f"a roll-off round lists [side, dice] pairs, got {entry!r}")
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
        raise InvalidInput(f"{list(group)!r} is not part of {list(dice)!r}")
    return positions
