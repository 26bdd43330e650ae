"""Generala family dice games: a pure-Python rules engine (standard library only).

>>> import generala
>>> rules = generala.variant("puerto-rican")
>>> rules.score("full-house", [2, 2, 5, 5, 5], roll=1)
35
"""
from .rules.dice import parse as parse_dice
from .rules.errors import GeneralaError, IllegalAction, InvalidInput, SaveError
from .rules.game import Game, ranking
from .rules.roller import ScriptedRoller, SeededRoller
from .rules.sides import Side
from .rules.variants import VARIANTS, Rules, Split, variant
# The modes that add a field to a save document register its check with the loader:
# whoever opens a game through this package has them checked.
from .modes import daily as _daily  # noqa: F401

__version__ = "0.1.0"

__all__ = [
    "Game", "GeneralaError", "IllegalAction", "InvalidInput", "Rules", "SaveError",
    "ScriptedRoller", "SeededRoller", "Side", "Split", "VARIANTS", "parse_dice",
    "ranking", "variant",
]
