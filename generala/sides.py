"""Sides: a single player or a team sharing one sheet, human or computer."""
from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidInput

MAX_SIDES = 8
MAX_NAME = 24


def clean_name(name: object) -> str:
    """A player's name as text: trimmed, non-empty, at most ``MAX_NAME`` characters."""
    if not isinstance(name, str):
        raise InvalidInput(f"a name is text, got {name!r}")
    text = " ".join(name.split())
    if not text:
        raise InvalidInput("a name cannot be empty")
    if len(text) > MAX_NAME:
        raise InvalidInput(f"a name has at most {MAX_NAME} characters, got {len(text)}: {text!r}")
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
            raise InvalidInput(f"player is 'human' or a computer level, got {self.player!r}")

    def to_json(self) -> dict:
        return {"name": self.name, "members": list(self.members), "player": self.player}

    @classmethod
    def from_json(cls, doc: object) -> "Side":
        if isinstance(doc, str):
            return cls(doc)
        if not isinstance(doc, dict) or not isinstance(doc.get("members", []), list):
            raise InvalidInput(f"a side is a name or an object with a name, got {doc!r}")
        unknown = sorted(str(k) for k in doc if k not in ("name", "members", "player"))
        if unknown:
            raise InvalidInput(f"a side has a name, members and a player; not {', '.join(unknown)}")
        return cls(doc.get("name"), tuple(doc.get("members", [])), doc.get("player", "human"))


def make_sides(sides) -> tuple[Side, ...]:
    """Sides from names, ``Side`` objects or their JSON; 1 to 8 of them."""
    try:
        result = tuple(s if isinstance(s, Side) else Side.from_json(s) for s in sides)
    except TypeError:
        raise InvalidInput(f"sides are a list of names or Side objects, got {sides!r}") from None
    if not 1 <= len(result) <= MAX_SIDES:
        raise InvalidInput(f"a game has 1 to {MAX_SIDES} sides, got {len(result)}")
    return result
