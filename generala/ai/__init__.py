"""Computer players, the exact solitaire solver and the coach.

- :mod:`generala.ai.solver`: ``solve(rules)`` -> :class:`Table` (optimal expected
  final score of the solitaire game, automatic wins off) and table files;
- :mod:`generala.ai.players`: computer levels, ``choose(game) -> action``;
- :mod:`generala.ai.coach`: hints, the cost of a choice, post-game reports.

Standard library only (runs in Pyodide).
"""
