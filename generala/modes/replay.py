"""Step through a recorded game: the board as it stood after each action."""
from __future__ import annotations

from ..rules.errors import InvalidInput
from ..rules.game import Game
from ..rules.refusals import shown
from ..seen.view import describe, events, moment, view


class Replay:
    """A saved game, replayable action by action (the roll-off counts as step 0)."""

    def __init__(self, doc) -> None:
        self._take(Game.from_json(doc))

    @classmethod
    def of_game(cls, game: Game) -> "Replay":
        """The replay of a game held in memory whose dice were checked another way (a game
        by link: every die derived from the devices' chains, generala/modes/linkgame.py)."""
        replay = cls.__new__(cls)
        replay._take(game)
        return replay

    def _take(self, game: Game) -> None:
        self.final = game
        self.doc = self.final.to_json()
        history = self.final.history
        self.setup = [a for a in history if "rolloff" in a or "order" in a]
        self.actions = history[len(self.setup):]
        # whose turn each action belongs to: {"side", "round", "player"}
        game = self._start()
        self._owners = []
        for action in self.actions:
            self._owners.append({"side": game.current, "round": game.round, "player": game.player})
            game.apply(action)

    @property
    def steps(self) -> int:
        return len(self.actions)

    def _start(self) -> Game:
        game = Game(self.final.rules, self.final.sides, None, rolloff=False)
        game.replay(self.setup)
        return game

    def _check(self, step) -> None:
        if type(step) is not int or not 0 <= step <= self.steps:
            raise InvalidInput("replay.step", {"max": self.steps, "got": shown(step)})

    def game_at(self, step: int) -> Game:
        """The game after the first ``step`` actions."""
        self._check(step)
        game = self._start()
        for action in self.actions[:step]:
            game.apply(action)
        return game

    def view_at(self, step: int) -> dict:
        """The board after ``step`` actions, with what the last of them made happen; its
        ``replay``: the step, the steps, the turns (``turn_starts``) and whose turn this
        step's action belongs to (``side``, ``round``, ``player``; None at step 0)."""
        self._check(step)
        if step == 0:
            game, last, happened = self.game_at(0), None, []
        else:
            game = self.game_at(step - 1)
            before = moment(game)
            action = self.actions[step - 1]
            game.apply(action)
            last, happened = describe(game, action), events(game, action, before)
        result = view(game, last=last, events=happened)
        owner = self._owners[step - 1] if step else {"side": None, "round": None, "player": None}
        result["replay"] = {"step": step, "steps": self.steps, "turn_starts": self.turns(), **owner}
        return result

    def turn_starts(self) -> list[int]:
        """The steps at which a turn begins (for 'next turn' navigation): the board at such a
        step is the one just before the turn's first action."""
        starts, fresh = [], True
        for i, action in enumerate(self.actions):
            if fresh:
                starts.append(i)
            fresh = "score" in action
        return starts

    def turns(self) -> list[dict]:
        """Each turn of the game: ``{"step", "side", "round", "player"}``, ``step`` being where
        it begins (``turn_starts``)."""
        return [{"step": i, **self._owners[i]} for i in self.turn_starts()]
