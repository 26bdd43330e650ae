"""Sides: a single player or a team sharing one sheet, human or computer."""
from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidInput
from .refusals import shown

MAX_SIDES = 8
MAX_NAME = 24


def clean_name(name: object) -> str:
    """A player's name as text: trimmed, non-empty, at most ``MAX_NAME`` characters."""
    if not isinstance(name, str):
        raise InvalidInput("name.type", {"got": shown(name)})
    text = " ".join(name.split())
    if not text:
        raise InvalidInput("name.empty")
    if len(text) > MAX_NAME:
        raise InvalidInput("name.too_long", {"max": MAX_NAME, "length": len(text), "got": shown(text)})
    return text


@dataclass(frozen=True)
class Side:
    """One column of the score sheet. ``members`` take the side's turns in rotation.

    ``player`` says who decides: ``"human"`` or a computer level such as
    ``"ai:optimal"``; the engine stores it and never reads it.
    """

    name: str
    members: tuple[str, ...] = ()
    player: str = "human"

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name))
        members = tuple(clean_name(m) for m in self.members) or (self.name,)
        object.__setattr__(self, "members", members)
        if not isinstance(self.player, str) or not self.player:
            raise InvalidInput("side.player", {"got": shown(self.player)})

    def to_json(self) -> dict:
        return {"name": self.name, "members": list(self.members), "player": self.player}

    @classmethod
    def from_json(cls, doc: object) -> "Side":
        if isinstance(doc, str):
            return cls(doc)
        if not isinstance(doc, dict) or not isinstance(doc.get("members", []), list):
            raise InvalidInput("side.shape", {"got": shown(doc)})
        unknown = sorted(str(k) for k in doc if k not in ("name", "members", "player"))
        if unknown:
            raise InvalidInput("side.fields", {"fields": unknown})
        return cls(doc.get("name"), tuple(doc.get("members", [])), doc.get("player", "human"))


def make_sides(sides) -> tuple[Side, ...]:
    """Sides from names, ``Side`` objects or their JSON; 1 to 8 of them."""
    try:
        result = tuple(s if isinstance(s, Side) else Side.from_json(s) for s in sides)
    except TypeError:
        raise InvalidInput("sides.type", {"got": shown(sides)}) from None
    if not 1 <= len(result) <= MAX_SIDES:
        raise InvalidInput("sides.count", {"max": MAX_SIDES, "count": len(result)})
    return result
