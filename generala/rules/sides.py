"""Sides: a single player or a team sharing one sheet, human or computer."""
from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidInput
from .refusals import shown

MAX_SIDES = 8
MAX_NAME = 24
#: A saved bot's name (the Bot lab keeps names of up to 40 characters) and its source's
#: hash (hex digits, as the page writes it).
MAX_BOT_NAME = 40
MAX_BOT_HASH = 64
#: A side a computer level plays has this before the level in its ``player``: ``"ai:optimal"``.
#: The one place the prefix is written or read (:func:`computer_player`, :func:`computer_level`).
COMPUTER_PREFIX = "ai:"


def computer_player(level: str) -> str:
    """A side's ``player`` for the computer ``level``: ``"ai:optimal"`` for ``"optimal"``."""
    return COMPUTER_PREFIX + level


def computer_level(player: object) -> str | None:
    """The computer level a side's ``player`` names (``"optimal"`` for ``"ai:optimal"``), None
    for any other player (a person, a saved bot)."""
    if isinstance(player, str) and player.startswith(COMPUTER_PREFIX):
        return player[len(COMPUTER_PREFIX):]
    return None


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

    ``player`` says who decides: ``"human"``, a computer level such as
    ``"ai:optimal"`` (:func:`computer_player`), or ``"bot"``: a saved bot of the player's (docs/bot-api.md), which
    ``bot`` names, ``{"name": ..., "hash": ...}`` (its name in the browser that keeps it
    and a hash of its source, so the page finds it and can tell when it has changed).
    The engine stores them; a bot's code never runs in the engine's game.
    """

    name: str
    members: tuple[str, ...] = ()
    player: str = "human"
    bot: dict | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name))
        members = tuple(clean_name(m) for m in self.members) or (self.name,)
        object.__setattr__(self, "members", members)
        if not isinstance(self.player, str) or not self.player:
            raise InvalidInput("side.player", {"got": shown(self.player)})
        if (self.player == "bot") != (self.bot is not None):
            raise InvalidInput("side.bot", {"got": shown(self.bot)})
        if self.bot is not None:
            object.__setattr__(self, "bot", clean_bot(self.bot))

    @property
    def person(self) -> bool:
        """Whether a person decides for this side: neither a computer level nor a saved bot."""
        return self.player != "bot" and computer_level(self.player) is None

    def to_json(self) -> dict:
        doc = {"name": self.name, "members": list(self.members), "player": self.player}
        if self.bot is not None:
            doc["bot"] = dict(self.bot)
        return doc

    @classmethod
    def from_json(cls, doc: object) -> "Side":
        if isinstance(doc, str):
            return cls(doc)
        if not isinstance(doc, dict) or not isinstance(doc.get("members", []), list):
            raise InvalidInput("side.shape", {"got": shown(doc)})
        unknown = sorted(str(k) for k in doc if k not in ("name", "members", "player", "bot"))
        if unknown:
            raise InvalidInput("side.fields", {"fields": unknown})
        return cls(doc.get("name"), tuple(doc.get("members", [])), doc.get("player", "human"),
                   doc.get("bot"))

    def __hash__(self) -> int:
        return hash((self.name, self.members, self.player,
                     tuple(sorted(self.bot.items())) if self.bot else None))


def clean_bot(bot: object) -> dict:
    """A bot side's ``bot``: ``{"name": 1 to 40 characters, "hash": 1 to 64 hex digits}``."""
    if not isinstance(bot, dict) or set(bot) != {"name", "hash"}:
        raise InvalidInput("side.bot", {"got": shown(bot)})
    name, digest = bot["name"], bot["hash"]
    if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_BOT_NAME:
        raise InvalidInput("side.bot", {"got": shown(bot)})
    if (not isinstance(digest, str) or not 0 < len(digest) <= MAX_BOT_HASH
            or any(c not in "0123456789abcdef" for c in digest)):
        raise InvalidInput("side.bot", {"got": shown(bot)})
    return {"name": name.strip(), "hash": digest}


def make_sides(sides) -> tuple[Side, ...]:
    """Sides from names, ``Side`` objects or their JSON; 1 to 8 of them."""
    try:
        result = tuple(s if isinstance(s, Side) else Side.from_json(s) for s in sides)
    except TypeError:
        raise InvalidInput("sides.type", {"got": shown(sides)}) from None
    if not 1 <= len(result) <= MAX_SIDES:
        raise InvalidInput("sides.count", {"max": MAX_SIDES, "count": len(result)})
    return result
