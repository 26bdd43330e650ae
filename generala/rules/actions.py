"""Actions as values: what a player does, one small frozen dataclass per kind.

``Game.legal_actions()`` lists them, ``Game.play(action)`` takes one, and each
converts to and from the dicts of a game's history (``to_json``/``from_json``;
the formats are listed in :mod:`generala.rules.game`) and to the page's request
(``to_request``). Their ``repr`` is Python that builds them again::

    >>> Score("fours")
    Score(box='fours', scratch=False)
    >>> action_from_json({"score": ["ones", "fives"], "split": [0, 2, 4, 6, 8]})
    ScoreTwo(boxes=('ones', 'fives'), split=(0, 2, 4, 6, 8), scratch=(False, False))
    >>> Score("generala", scratch=True).to_json()
    {'score': 'generala', 'scratch': True}
    >>> Toggle(2).to_request()
    {'op': 'toggle', 'die': 2}

``Roll(None)`` asks the game's roller for the dice (``{"roll": None}``, how
computer players and strategies ask for a roll); a roll in a history records
its dice. ``Toggle`` and ``Undo`` are requests, not history entries: the history
records the hold a toggle makes, and an undo removes an entry. ``RollOff`` and
``Order`` are the history's setup entries (the game makes them, no player does).

Nothing here checks a value against a game: ``Game.play`` refuses what is not
legal, with the same refusals as the game's methods.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidInput
from .refusals import shown


class Action:
    """Base of every action."""

    def to_json(self) -> dict:  # pragma: no cover - every kind defines it
        raise NotImplementedError

    @staticmethod
    def from_json(doc) -> "Action":
        """The action of a history entry: :func:`action_from_json`."""
        return action_from_json(doc)

    def to_request(self) -> dict:
        """The page's request for this action (``{"op": ...}``)."""
        raise InvalidInput("action.unknown", {"got": shown(self.to_json())})


@dataclass(frozen=True)
class Roll(Action):
    """Roll the dice that are not held; ``dice``: all dice after the roll (None: the roller's)."""

    dice: tuple | None = None

    def to_json(self) -> dict:
        return {"roll": None if self.dice is None else list(self.dice)}

    def to_request(self) -> dict:
        return {"op": "roll"}


@dataclass(frozen=True)
class Hold(Action):
    """Keep exactly the dice at these positions for the next roll."""

    dice: tuple = ()

    def to_json(self) -> dict:
        return {"hold": sorted(self.dice)}

    def to_request(self) -> dict:
        return {"op": "hold", "dice": self.to_json()["hold"]}


@dataclass(frozen=True)
class Toggle(Action):
    """Hold the die at position ``die`` if it is free, free it if it is held (a request:
    the history records the hold it makes)."""

    die: int

    def to_json(self) -> dict:
        return {"toggle": self.die}

    def to_request(self) -> dict:
        return {"op": "toggle", "die": self.die}


@dataclass(frozen=True)
class Score(Action):
    """Fill one box with the dice; ``scratch``: write 0 in it by choice."""

    box: str
    scratch: bool = False

    def to_json(self) -> dict:
        return {"score": self.box, "scratch": True} if self.scratch else {"score": self.box}

    def to_request(self) -> dict:
        doc = self.to_json()
        return {"op": "score", "box": doc.pop("score"), **doc}


@dataclass(frozen=True)
class ScoreTwo(Action):
    """Ten dice: fill two boxes, the dice at the ``split`` positions (five) in the first,
    the rest in the second (None: the best split); ``scratch``: one flag a box."""

    boxes: tuple
    split: tuple | None = None
    scratch: tuple = (False, False)

    def to_json(self) -> dict:
        doc = {"score": list(self.boxes)}
        if self.split is not None:
            doc["split"] = list(self.split)
        if any(self.scratch):
            doc["scratch"] = list(self.scratch)
        return doc

    def to_request(self) -> dict:
        doc = self.to_json()
        return {"op": "score", "boxes": doc.pop("score"), **doc}


@dataclass(frozen=True)
class Enter(Action):
    """A score-sheet game: the final dice of a turn thrown at the table, and on which roll
    (1-3) they came. ``Game.legal_actions`` lists ``Enter()`` (no dice): any dice may be
    entered then."""

    dice: tuple | None = None
    at: int = 1

    def to_json(self) -> dict:
        return {"enter": None if self.dice is None else list(self.dice), "at": self.at}

    def to_request(self) -> dict:
        return {"op": "enter", "dice": self.to_json()["enter"], "at": self.at}


@dataclass(frozen=True)
class TakeWin(Action):
    """Take the automatic win the dice offer (a house rule may make a served five alike a
    choice: take the win, or write the dice in a box and play on)."""

    def to_json(self) -> dict:
        return {"win": True}

    def to_request(self) -> dict:
        return {"op": "win"}


@dataclass(frozen=True)
class Undo(Action):
    """Take back the last hold, or the box just filled (a request: it removes an entry)."""

    def to_json(self) -> dict:
        return {"undo": True}

    def to_request(self) -> dict:
        return {"op": "undo"}


@dataclass(frozen=True)
class RollOff(Action):
    """One round of the roll-off: ``((side, dice), ...)`` in the order thrown."""

    rolls: tuple

    def to_json(self) -> dict:
        return {"rolloff": [[side, list(dice)] for side, dice in self.rolls]}


@dataclass(frozen=True)
class Order(Action):
    """The order of play given by a table that throws real dice (no roll-off)."""

    sides: tuple

    def to_json(self) -> dict:
        return {"order": list(self.sides)}


#: The actions a game's turns record (``Game.apply`` takes these and only these).
TURN_ACTIONS = (Roll, Hold, Score, ScoreTwo, Enter, TakeWin)

_PAIRS_OF_FLAGS = ([True, False], [False, True], [True, True])


def action_from_json(doc) -> Action:
    """The action of one history entry (or a ``toggle``/``undo`` dict); InvalidInput for a
    dict that is none. The entry's values are kept as given (a list as a tuple): the
    game checks them when it plays the action."""
    if not isinstance(doc, dict) or len(doc) not in (1, 2, 3):
        raise InvalidInput("action.shape", {"got": shown(doc)})
    if "hold" in doc and len(doc) == 1:
        if not isinstance(doc["hold"], list):
            raise InvalidInput("action.hold", {"got": shown(doc)})
        return Hold(tuple(doc["hold"]))
    if "roll" in doc and len(doc) == 1:
        return Roll(_tuple(doc["roll"]))
    if set(doc) == {"enter", "at"}:
        return Enter(_tuple(doc["enter"]), doc["at"])
    if "score" in doc:
        box, extra = doc["score"], {k: v for k, v in doc.items() if k != "score"}
        if isinstance(box, list) and len(box) == 2 and set(extra) <= {"split", "scratch"} and (
            "scratch" not in extra or extra["scratch"] in _PAIRS_OF_FLAGS
        ):
            return ScoreTwo(tuple(box), _tuple(extra.get("split")),
                            tuple(extra.get("scratch", (False, False))))
        if isinstance(box, str) and (extra == {} or (extra == {"scratch": True} and extra["scratch"] is True)):
            return Score(box, bool(extra))
        raise InvalidInput("action.score", {"got": shown(doc)})
    if set(doc) == {"toggle"}:
        return Toggle(doc["toggle"])
    if doc == {"undo": True}:
        return Undo()
    if doc == {"win": True}:
        return TakeWin()
    if set(doc) == {"rolloff"} and isinstance(doc["rolloff"], list) and all(
            isinstance(pair, list) and len(pair) == 2 for pair in doc["rolloff"]):
        return RollOff(tuple((side, _tuple(dice)) for side, dice in doc["rolloff"]))
    if set(doc) == {"order"} and isinstance(doc["order"], list):
        return Order(tuple(doc["order"]))
    raise InvalidInput("action.unknown", {"got": shown(doc)})


def _tuple(value):
    return tuple(value) if isinstance(value, list) else value
