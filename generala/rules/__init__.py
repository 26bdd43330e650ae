"""The rules of the games: dice, boxes and their prices, variants and their options, sides,
rollers, actions, a game played by them, and its save document.

The bottom layer of the engine: it imports nothing of the engine above it (computer
players, what a board shows, the modes of play, the adapters). Standard library only.
"""
