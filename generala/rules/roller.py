"""Where dice come from. The engine never draws a random number itself.

A roller answers ``draw(count, position)``: the values of ``count`` dice, where
``position`` is how many dice the game has drawn before. Because the seeded
roller is a pure function of (seed, position), a game's dice are fixed by its
seed and its history: a reloaded game never re-rolls, and every recorded die can
be checked against the roller (which is why a roll is never undone: rolling
again would show the same dice). The scripted roller serves tests and replays.
"""
from __future__ import annotations

import random
from collections.abc import Iterable

from .errors import IllegalAction, InvalidInput
from .refusals import shown

_MASK = (1 << 64) - 1
#: The largest seed: a seed is a whole number from 0 to 2**63 - 1.
MAX_SEED = 2**63 - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class SeededRoller:
    """Reproducible dice: die number ``position`` depends only on the seed."""

    kind = "seeded"

    def __init__(self, seed: int) -> None:
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise InvalidInput("seed.range", {"max": MAX_SEED, "got": shown(seed)})
        self.seed = seed
        self._base = _splitmix64(seed)

    def draw(self, count: int, position: int) -> tuple[int, ...]:
        base, mask, faces = self._base, _MASK, []
        for i in range(position, position + count):
            # splitmix64 of (base ^ i), inlined: this is the simulations' hot loop.
            x = ((base ^ i) + 0x9E3779B97F4A7C15) & mask
            x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
            # The modulo bias of a 64-bit value over six faces is below 1e-18.
            faces.append((x ^ (x >> 31)) % 6 + 1)
        return tuple(faces)

    def to_json(self) -> dict:
        return {"kind": self.kind, "seed": self.seed}

    def __repr__(self) -> str:
        return f"SeededRoller({self.seed})"

    @classmethod
    def random(cls) -> "SeededRoller":
        """A roller with a fresh seed from the system's entropy (for interactive play)."""
        return cls(random.SystemRandom().randrange(2**53))


class ScriptedRoller:
    """Dice given in advance, served in order (by position): for tests and replays."""

    kind = "scripted"

    def __init__(self, values: Iterable[int]) -> None:
        self.values = tuple(values)
        for value in self.values:
            if type(value) is not int or not 1 <= value <= 6:
                raise InvalidInput("roller.face", {"got": shown(value)})

    def draw(self, count: int, position: int) -> tuple[int, ...]:
        if position + count > len(self.values):
            raise IllegalAction("roller.exhausted", {"have": len(self.values), "asked": position + count})
        return self.values[position:position + count]

    def to_json(self) -> dict:
        return {"kind": self.kind, "values": list(self.values)}

    def __repr__(self) -> str:
        return f"ScriptedRoller({list(self.values)!r})"


def roller_from_json(doc: object):
    """Rebuild a roller saved by ``to_json`` (``None`` stays ``None``)."""
    if doc is None:
        return None
    if not isinstance(doc, dict):
        raise InvalidInput("roller.shape", {"got": shown(doc)})
    if doc.get("kind") == "seeded":
        return SeededRoller(doc.get("seed"))
    if doc.get("kind") == "scripted" and isinstance(doc.get("values"), list):
        return ScriptedRoller(doc["values"])
    raise InvalidInput("roller.kind", {"got": shown(doc), "kinds": ["seeded", "scripted"]})
