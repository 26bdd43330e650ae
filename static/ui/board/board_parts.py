# The board's drawing pipeline (plain Python: unit-tested in CPython, tests/unit).
# render.Board.update(view, ui) draws the board from the engine's view in this order:
#   1. every part's prepare(view, ui): what the board's own lines need from a part
#      (the hint line names the computer that plays: computer.py);
#   2. the board itself (render.py: dice, actions, sheet, split, game over);
#   3. every part's draw(view, ui, board), in ORDER: each draws its own region,
#      placed by the board's anchors (board.root, .tray, .actions, .menu, .wrap, .over).
# A feature registers its part once, at start (board.parts.add); a new screen adds its
# name to ORDER and registers, without touching render.py.

# The parts in drawing order: score-sheet mode's entry panel and paper sheet under the
# tray (sheetmode.py), the share panel in the game-over card (replayview.py), the
# daily challenge's badge and its end in that card (daily_screen.py), the
# computer's bar under the tray (computer.py), the coach's controls in that bar (coach_panel.py),
# the win chances' row under the sheet's sums (win_chances.py), a game by link's
# verification in the game-over card (linkplay.py), the game's story in win chances
# last in that card (game_story.py).
ORDER = ("sheet", "share", "challenge", "computer", "coach", "chances", "link", "story")


class Parts:
    """The board's registered parts, drawn in a fixed order."""

    def __init__(self, order=ORDER):
        self.order = tuple(order)
        self.parts = {}  # name -> (prepare or None, draw or None)

    def add(self, name, draw=None, prepare=None):
        """Register the part ``name`` (one of the order's names, once)."""
        if name not in self.order:
            raise ValueError("no place for the board part " + repr(name))
        if name in self.parts:
            raise ValueError("board part registered twice: " + repr(name))
        self.parts[name] = (prepare, draw)

    def names(self):
        """The registered parts' names, in drawing order."""
        return [n for n in self.order if n in self.parts]

    def run(self, view, ui, board, core):
        """Draw ``view``: the parts' prepare, then ``core(view, ui)`` (the board itself),
        then the parts' draw."""
        names = self.names()
        for name in names:
            prepare = self.parts[name][0]
            if prepare is not None:
                prepare(view, ui)
        core(view, ui)
        for name in names:
            draw = self.parts[name][1]
            if draw is not None:
                draw(view, ui, board)
