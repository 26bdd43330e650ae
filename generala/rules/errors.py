"""The engine's exceptions: all are ValueErrors, split by what went wrong.

Like python-chess, we tell apart input that can never be valid (a box that does
not exist, an option out of range) from a move that is valid in general but not
legal now (a fourth roll, a filled box), and from a save that cannot be loaded.

Every one carries a ``code`` (a stable dotted id, listed with its English template
in :mod:`generala.rules.refusals`) and ``params`` (JSON-plain values); its text is the
English of that code and those params::

    >>> err = IllegalAction("box.filled", {"box": "fours"})
    >>> err.code, err.params, str(err)
    ('box.filled', {'box': 'fours'}, 'fours is already filled')
"""
from __future__ import annotations

from .refusals import english


class GeneralaError(ValueError):
    """Base class of every error the engine raises on purpose."""

    def __init__(self, code: str, params: dict | None = None) -> None:
        self.code = code
        self.params = {name: value.as_json() if isinstance(value, GeneralaError) else value
                       for name, value in (params or {}).items()}
        super().__init__(english(code, self.params))

    def as_json(self) -> dict:
        """``{"code", "params"}``: how a refusal is named inside another (``cause``)."""
        return {"code": self.code, "params": self.params}


class InvalidInput(GeneralaError):
    """The input is not valid in any game: unknown variant, option, box, bad dice."""


class IllegalAction(GeneralaError):
    """The action is well formed but not allowed in the game's current state."""


class SaveError(GeneralaError):
    """A saved document cannot be loaded: malformed, from a newer schema, or illegal."""
