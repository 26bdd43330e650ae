"""Step through a recorded game: the board as it stood after each action."""
from __future__ import annotations

from .errors import InvalidInput
from .game import Game
from .save import load
from .view import describe, view


class Replay:
    """A saved game, replayable action by action (the roll-off counts as step 0)."""

    def __init__(self, doc) -> None:
        self.final = load(doc)
        self.doc = self.final.to_json()
        history = self.final.history
        self.setup = [a for a in history if "rolloff" in a or "order" in a]
        self.actions = history[len(self.setup):]

    @property
    def steps(self) -> int:
        return len(self.actions)

    def game_at(self, step: int) -> Game:
        """The game after the first ``step`` actions."""
        if type(step) is not int or not 0 <= step <= self.steps:
            raise InvalidInput(f"a step is 0 to {self.steps}, got {step!r}")
        game = Game(self.final.rules, self.final.sides, None, rolloff=False)
        game.replay(self.setup + self.actions[:step])
        return game

    def view_at(self, step: int) -> dict:
        game = self.game_at(step)
        last = describe(game, self.actions[step - 1]) if step else None
        result = view(game, last=last)
        result["replay"] = {"step": step, "steps": self.steps,
                            "turn_starts": self.turn_starts()}
        return result

    def turn_starts(self) -> list[int]:
        """The steps at which a turn begins (for 'next turn' navigation)."""
        starts, fresh = [], True
        for i, action in enumerate(self.actions):
            if fresh:
                starts.append(i)
            fresh = "score" in action
        return starts
