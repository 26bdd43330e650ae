"""What players see of a game: the board's view model (``view``), the events of an action,
and the moment that decided a finished game (``decider``).

Reads the rules' games (:mod:`generala.rules`) and the computer players' levels; the
modes of play and the adapters above it show what it returns.
"""
