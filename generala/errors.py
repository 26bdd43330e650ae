"""The engine's exceptions: all are ValueErrors, split by what went wrong.

Like python-chess, we tell apart input that can never be valid (a box that does
not exist, an option out of range) from a move that is valid in general but not
legal now (a fourth roll, a filled box), and from a save that cannot be loaded.
"""


class GeneralaError(ValueError):
    """Base class of every error the engine raises on purpose."""


class InvalidInput(GeneralaError):
    """The input is not valid in any game: unknown variant, option, box, bad dice."""


class IllegalAction(GeneralaError):
    """The action is well formed but not allowed in the game's current state."""


class SaveError(GeneralaError):
    """A saved document cannot be loaded: malformed, from a newer schema, or illegal."""
