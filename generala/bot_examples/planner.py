"""A planner: each turn it picks a box to aim at, keeps the dice that box wants and
rolls for it; it stops early when a box pays well, and scratches the cheapest box.

It plays every game; with ten dice it aims at the two boxes its dice suit best.
"""
from collections import Counter

NUMBERS = ["ones", "twos", "threes", "fours", "fives", "sixes"]
# What a box should pay before the planner stops rolling for it (a share of its best).
GOOD_ENOUGH = 0.6


class Bot:
    def __init__(self):
        self.best_seen = {}  # box -> the most it ever scored in this game's turns

    def play(self, turn):
        counts = Counter(turn.dice)
        if turn.rolls_left == 0:
            return self.fill(turn)
        # Stop when a combination box pays well now.
        for box, points in turn.scores.items():
            if box not in NUMBERS and points >= self.worth(box, turn) * GOOD_ENOUGH and points > 0:
                return self.fill(turn)
        face = self.target_face(turn, counts)
        keep = [face] * counts[face]
        # A straight draw: four different faces in a row are worth keeping.
        straight = self.straight_draw(turn)
        if straight and counts[face] < 3:
            keep = straight
        if len(keep) == len(turn.dice):
            return self.fill(turn)
        return keep

    def worth(self, box, turn):
        """The most a box has shown in this game, or what five dice could earn there."""
        return max(self.best_seen.get(box, 0), 20)

    def target_face(self, turn, counts):
        """The face to collect: the most common face whose box (or five-alike box) is open,
        higher faces first among equals."""
        def value(face):
            open_number = NUMBERS[face - 1] in turn.open_boxes
            return (counts[face] + (1 if open_number else 0), face)
        return max(counts, key=value)

    def straight_draw(self, turn):
        if len(turn.dice) != 5 or not any("straight" in b for b in turn.open_boxes):
            return None
        faces = sorted(set(turn.dice))
        for run in ([1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]):
            if all(f in faces for f in run):
                return run
        return None

    def fill(self, turn):
        move = turn.best()
        boxes = [move] if isinstance(move, str) else list(move[:2])
        for box in boxes:
            self.best_seen[box] = max(self.best_seen.get(box, 0), turn.scores.get(box, 0))
        if len(turn.dice) == 5 and turn.scores[move] == 0:
            # Nothing pays: give up the box that is least likely to pay later.
            for box in ("generala", "double-generala", "general", "small-general",
                        "five-kind", "ones", "large-straight", "four-kind"):
                if box in turn.open_boxes:
                    return box
        return move
