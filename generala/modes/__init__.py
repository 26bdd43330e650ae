"""The modes of play built on a game: the daily challenge, games by link, saved bots and
the Bot lab's count, replays, records, share links, export files and simulations.

Each builds on the rules (:mod:`generala.rules`), the computer players and the coach
(:mod:`generala.ai`) and the view (:mod:`generala.seen`); the adapters (``app``, ``cli``)
sit above.
"""
