"""Generala family dice games: a pure-Python rules engine (standard library only).

>>> import generala
>>> rules = generala.variant("puerto-rican")
>>> rules.score("full-house", [2, 2, 5, 5, 5], roll=1)
35
"""
from .dice import parse as parse_dice
from .errors import GeneralaError, IllegalAction, InvalidInput, SaveError
from .game import Game, ranking
from .roller import ScriptedRoller, SeededRoller
from .sides import Side
from .variants import VARIANTS, Rules, Split, variant

__version__ = "0.1.0"

__all__ = [
    "Game", "GeneralaError", "IllegalAction", "InvalidInput", "Rules", "SaveError",
    "ScriptedRoller", "SeededRoller", "Side", "Split", "VARIANTS", "parse_dice",
    "ranking", "variant",
]
