"""Keep the most common face and roll until five alike (or no rolls left), then fill the best box."""
from collections import Counter


def play(turn):
    face, count = max(Counter(turn.dice).items(), key=lambda fc: (fc[1], fc[0]))
    if turn.rolls_left == 0 or count == len(turn.dice):
        return turn.best()
    return [face] * count
