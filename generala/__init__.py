"""Generala family dice games: a pure-Python rules engine (standard library only)."""
__version__ = "0.1.0"
