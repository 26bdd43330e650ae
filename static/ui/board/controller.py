# The game on the board: a person's actions, each an engine request whose reply is
# drawn. The controller decides only what the page may send now, from the engine's last
# view (what can be done is the view's: can_roll, holdable, the playable cells, whether
# one is a scratch and the request each one sends; with ten dice, the split's sizes, each
# box's points paired with the first box chosen (op pairs) and the request of op split /
# op price); the engine decides the game.
#
# It is built from the parts it is given (page_boot.py assembles the page), so its
# decisions run in CPython with fakes (tests/unit/test_ui_controller.py):
#
#   engine   the engine client (engine_client.py): send(req, callback, quiet),
#            await call(req, quiet), waiting()
#   board    the board's drawing (render.Board): update(view, ui, predicted),
#            rolling(view), scoring(view, box), key
#   keeper   the stored game on the board (saved_games.py): gid, created, open(gid,
#            created), keep(reply), new_id(), set_aside(entry, reason), latest(gid)
#   clock    timers and frames (clock.py)
#   screen   what the person sees around the board (navigation.py): show_board(),
#            show_home(panel), board_visible(), ask(text, ok, callback), announce(text),
#            message(text, kind), focus(id), refocus(view)
#
# and the hooks (web/hooks.py) that the parts built after it answer (page_boot.py joins
# them): stop_computer() (a computer player waiting to play stops: computer.py), said(reply)
# (a move's reply: the coach reads it, coach_panel.py), blocks() (True while a part takes
# the dice from the board: a score-sheet game, sheetmode.py), linked(reply, drawn) (a game
# by link's reply: linkplay.py keeps it), resumed(entry) (a saved game put on the board:
# sheetmode.py). The controller knows none of those parts.
#
# It keeps the last view it drew and the person's transient choices (`ui`: the two
# boxes and the split of ten dice being chosen, and the engine's prices of the pairs the
# first box chosen makes). A reply that is not drawn (a later one
# is on its way) leaves its view's events to the next view drawn, so no moment of the
# game (a roll, five alike, a box filled: render.py) is lost. Only the main thread runs
# it; it touches neither the DOM nor storage itself.
import asyncio
import gc

from words import words


class Controller:
    def __init__(self, engine, board, keeper, clock, screen, stop_computer, said, blocks, linked, resumed):
        self.engine = engine
        self.board = board
        self.keeper = keeper
        self.clock = clock
        self.screen = screen
        self.stop_computer = stop_computer
        self.said = said
        self.blocks = blocks
        self.linked = linked
        self.resumed = resumed
        self.view = None
        self.named = {}  # the names the page made on the board's game (words.named_view)
        self.answered = None  # the last view drawn that is the engine's (not predicted)
        self.ui = {"ready": False, "picked": [], "split": None, "pairs": None, "scoring": False}
        self.later = None  # a saved game to open with the engine's view once it is ready
        self.missed = []  # the events of replies not drawn (a later reply was on its way)
        # Collect garbage once a frame is painted, not in the middle of the next click.
        self.collect = clock.timer(gc.collect)
        self.painted = clock.frame(lambda: self.collect.start(0))

    # --- drawing the engine's replies ------------------------------------------------

    def draw(self, view, predicted=False):
        """Draw a view: the engine's, or one predicted at a click (a hold) until its reply.
        The board draws it and then its parts (render.Board.update, board_parts.py); the
        names the page made are worded in the language in use (words.named_view)."""
        view = words.named_view(view, self.named)
        self.view = view
        if not predicted:
            self.answered = view
        self.board.update(view, self.ui, predicted)
        self.painted.request()

    def redraw(self):
        """Draw the last view again (another tab's moves are no longer followed)."""
        if self.view is not None:
            self.draw(self.view)

    def relabel(self):
        """After a language change: the board drawn afresh in the new words."""
        self.board.key = None
        self.redraw()

    def engine_failed(self):
        """The engine failed for good (engine_client.when_failed): the board takes no move
        any more and shows the engine's last answer (not a hold drawn ahead of its reply);
        a reload plays on from the stored game."""
        self.ui["ready"] = False
        self.ui["failed"] = True
        self.ui["scoring"] = False
        self.forget_boxes()
        self.later = None
        self.stop_computer()
        if self.answered is not None and self.screen.board_visible():
            view = dict(self.answered)
            view["events"] = []  # drawn again: nothing happens anew (no dice thrown, no sound)
            self.draw(view)

    async def call(self, req, quiet=False):
        """Send a request (engine_client.call); a refused one draws the view it came with."""
        reply = await self.engine.call(req, quiet)
        if not reply.get("ok") and reply.get("view") and self.view is not None:
            self.draw(reply["view"])
        return reply

    def act(self, req, reset=True):
        """An action on the game: the reply is drawn and saved when it comes."""
        if reset:
            self.forget_boxes()
        self.engine.send(req, self.acted)

    def acted(self, reply):
        self.ui["scoring"] = False
        if not reply.get("ok"):
            if reply.get("view"):
                self.draw(reply["view"])
        else:
            self.changed(reply, draw=not self.engine.waiting())

    def changed(self, reply, draw=True):
        """After an action: draw, announce, keep the save (its text as it came). With more
        replies on their way, only the save is kept (the last one draws)."""
        view = reply["view"]
        if not draw:
            self.missed.extend(view.get("events") or ())
        else:
            if self.missed:  # what the replies not drawn made happen comes first
                view = dict(view)
                view["events"] = self.missed + list(view.get("events") or ())
                self.missed = []
            # what the move cost, and whether that is the best move: the coach's part shows it
            # a game by link is handed over by its link (linkplay.py), not across the table
            self.ui["linked"] = reply.get("local") is not None
            # with an opponent, in the chance to win: chance_cost, chance_best
            self.ui["cost"] = ({"points": reply["cost"], "best": reply["cost_best"],
                                "better": reply.get("cost_better"), "chance": reply.get("chance_cost"),
                                "chance_best": reply.get("chance_best")}
                               if reply.get("cost") is not None else None)
            self.ui["chances"] = reply.get("chances")  # every side's, after a box (win_chances.py)
            self.draw(view)
            self.screen.announce(words.announce(view))
            self.said(reply)
            if self.screen.board_visible():
                self.screen.refocus(view)
        if reply.get("local") is not None:
            self.linked(reply, draw)  # a game by link: its record, not a save (linkplay.py)
        elif reply.get("save") and self.keeper.gid:
            self.keeper.keep(reply)

    # --- what a person may do now --------------------------------------------------

    def playing(self):
        return (self.view is not None and self.ui["ready"] and not self.view["over"]
                and self.screen.board_visible())

    def blocked(self):
        return bool(self.blocks())

    def dice_count(self):
        return self.view["dice_count"] if self.view else 0

    def roll(self):
        if self.playing() and self.view["can_roll"] and not self.ui["split"] and not self.blocked():
            self.act({"op": "roll"})
            self.board.rolling(self.view)  # the dice start shaking now; the faces land with the reply

    def take_win(self):
        """Take the win the dice offer (a house rule makes a served five alike a choice)."""
        if self.playing() and self.view.get("can_take_win"):  # a score-sheet game's too
            self.act({"op": "win"})

    def undo(self):
        # a score-sheet game's last entry may be undone even once it ended the game (the view)
        ended = (self.view is not None and self.view["over"] and self.ui["ready"]
                 and self.screen.board_visible())
        if (self.playing() or ended) and self.view["can_undo"]:
            self.stop_computer()  # a computer waiting to start its turn does not start it
            self.act({"op": "undo"})

    def toggle(self, i):
        if not self.playing():
            return
        if self.ui["split"]:
            self.move_split(i)
        elif i in self.view["holdable"] and not self.blocked():
            # Drawn at once from the last view (a hold only flips one flag); the engine's
            # reply, drawn when no later request is pending, confirms or corrects it.
            view = dict(self.view)
            view["held"] = list(view["held"])
            view["held"][i] = not view["held"][i]
            view["last"] = None
            # the one thing foreseen: this die changes rows (the reply's events say the rest)
            view["events"] = [{"kind": "hold", "side": view["current"], "held": [j for j, h in enumerate(view["held"]) if h],
                               "changed": [i]}]
            self.draw(view, predicted=True)
            self.act({"op": "toggle", "die": i}, reset=False)

    def cell(self, box):
        """The current side's playable cell of ``box`` and its row, or (None, None)."""
        view = self.view
        for row in view["rows"]:
            if row["box"] == box:
                cell = row["cells"][view["current"]]
                return (cell, row) if cell.get("playable") else (None, None)
        return None, None

    def refused(self, box):
        """Why the engine's view says the current side may not fill ``box`` with these dice
        (a house rule: ``{"code", "params"}``), or None."""
        view = self.view
        for row in view["rows"]:
            if row["box"] == box and view["current"] is not None:
                return row["cells"][view["current"]].get("refused")
        return None

    def forget_boxes(self):
        """No box chosen (ten dice): the picked boxes, their pairs' prices and the split go."""
        self.ui["picked"] = []
        self.ui["split"] = None
        self.ui["pairs"] = None

    def pick_box(self, box):
        """A playable box chosen: one box sends the cell's own request (asked first when
        the cell says choosing it is a scratch: 0 by choice); with two boxes a turn, the
        first box chosen asks the engine what every other box earns paired with it (op
        pairs: the sheet shows those points) and the second one asks for the split."""
        view = self.view
        if not self.playing() or view["dice"] is None:
            return
        cell, _ = self.cell(box)
        if cell is None:
            refused = self.refused(box)
            if refused is not None:  # a house rule refuses the dice there: say why
                self.screen.message(words.refusal(refused), "error")
            return
        if view["split_sizes"]:
            picked = self.ui["picked"]
            if box in picked:
                picked.remove(box)
                self.ui["pairs"] = None
            else:
                picked.append(box)
            self.draw(view)
            if len(picked) == len(view["split_sizes"]):
                asyncio.create_task(self.propose(picked[0], picked[1]))
            elif len(picked) == 1 and self.ui["pairs"] is None:
                asyncio.create_task(self.pair_up(picked[0]))
            return
        req = cell["request"]
        if cell.get("throws_away"):  # the dice would score here, but the box it needs is empty
            self.screen.ask(words.t("ask.throws_away", box=words.box(box), needs=words.box(cell["throws_away"])),
                            words.t("ask.throws_away_ok"), lambda: self.score(box, req))
            return
        if cell["scratch"]:
            self.screen.ask(words.t("ask.scratch", box=words.box(box)),
                            words.t("ask.scratch_ok"), lambda: self.score(box, req))
            return
        self.score(box, req)

    def score(self, box, req):
        """Score one box with the cell's request: drawn filled at once, the reply then
        moves the turn on."""
        if self.ui.get("scoring"):
            return  # a second click before the reply: the box is already scored
        self.ui["scoring"] = True
        self.act(req)
        self.board.scoring(self.view, box)

    # --- ten dice: two boxes and a split ----------------------------------------------

    async def pair_up(self, box):
        """The first box chosen: what each other open box earns paired with it, in the best
        split of the dice between the two (the engine's op pairs), drawn on the sheet while
        ``box`` is still the one box chosen on this view."""
        view = self.view
        reply = await self.call({"op": "pairs", "box": box}, quiet=True)
        if reply and reply.get("ok") and self.view is view and self.ui["picked"] == [box]:
            self.ui["pairs"] = reply["pairs"]
            self.draw(view)

    async def propose(self, a, b):
        """The engine's best split of the dice for boxes ``a`` and ``b``: its positions,
        points, scratch flags and the request that scores it (ui["split"])."""
        reply = await self.call({"op": "split", "boxes": [a, b]})
        if reply and reply.get("ok"):
            self.ui["split"] = reply["split"]
        else:
            self.forget_boxes()
        self.draw(self.view)
        if self.ui["split"]:
            pts = self.ui["split"]["points"]
            self.screen.announce(words.t("split.proposed", a=words.box(a), pa=words.points(pts[0]),
                                         b=words.box(b), pb=words.points(pts[1])))
            self.screen.focus("split-ok")

    def move_split(self, i):
        """A die moved to the other box: the split is priced by the engine once the first
        box has its share of the dice (the view's split_sizes)."""
        split = self.ui["split"]
        positions = list(split["positions"])
        if i in positions:
            positions.remove(i)
        else:
            positions.append(i)
        positions.sort()
        split = {"boxes": split["boxes"], "positions": positions, "points": None, "scratch": None,
                 "request": None}
        self.ui["split"] = split
        self.draw(self.view)
        if len(positions) == self.view["split_sizes"][0]:
            asyncio.create_task(self.price(split))

    async def price(self, split):
        reply = await self.call({"op": "price", "boxes": split["boxes"], "split": split["positions"]})
        if reply and reply.get("ok") and self.ui["split"] is split:
            self.ui["split"] = reply["split"]
            self.draw(self.view)

    def score_split(self):
        """Score the split with the request the engine gave for it (op split / op price),
        asked first when it writes 0 by choice in a box (its scratch flags)."""
        split = self.ui["split"]
        if not split or not split.get("request"):
            return
        req = split["request"]
        zero = [b for b, scratch in zip(split["boxes"], split["scratch"]) if scratch]
        if zero:
            text = (words.t("ask.scratch", box=words.box(zero[0])) if len(zero) == 1 else
                    words.t("ask.scratch_two", boxes=words.and_list(words.box(b) for b in zero)))
            self.screen.ask(text, words.t("ask.scratch_ok"), lambda: self.act(req))
        else:
            self.act(req)

    def cancel_split(self):
        self.forget_boxes()
        self.draw(self.view)

    # --- games opened on the board ----------------------------------------------------

    async def start_game(self, req, named=None):
        """Send a `new` request (the setup form's, or the home screen's one-tap game).
        ``named``: the names the page made in it, by side (words.clean_named)."""
        self.screen.status(words.t("msg.starting_game" if self.ui["ready"] else "msg.starting_engine"))
        reply = await self.call(req)
        if reply and reply.get("ok"):
            self.begin(reply, named)

    def open_board(self, gid, created, named=None):
        """Put the game ``gid`` on the board (built afresh), as stored now, with the names
        the page made in it."""
        self.named = words.clean_named(named)
        self.keeper.open(gid, created, self.named)
        self.forget_boxes()
        self.missed = []
        self.screen.show_board()
        self.board.key = None

    def begin(self, reply, named=None):
        self.open_board(self.keeper.new_id(), None, named)
        self.changed(reply)
        v = self.view
        self.screen.announce(words.t("say.begin", title=words.title(v["variant"], v["title"]),
                                     who=words.whose_turn(v),
                                     names=", ".join(v["sides"][i]["name"] for i in v["order"])))
        self.screen.focus("roll")

    async def again(self):
        named = self.named  # the same sides again
        reply = await self.call({"op": "again"})
        if reply and reply.get("ok"):
            self.begin(reply, named)

    def resume_view(self, entry):
        """Draw a saved game at once, from its last view (the engine may still be booting).
        False when the stored view cannot be drawn: the engine's view is drawn instead
        once it has loaded the save (load, shown=False)."""
        if entry["view"] is None:
            return False
        self.open_board(entry["id"], entry.get("created"), entry.get("named"))
        self.resumed(entry)
        self.draw(entry["view"])
        return True

    async def load(self, entry, shown=True):
        """The engine loads the save. ``shown``: its board is drawn already (from the stored
        view); else it is opened with the engine's view, unless the player went elsewhere."""
        reply = await self.call({"op": "load", "save": entry["save"]}, quiet=True)
        if reply.get("ok"):
            if self.keeper.gid == entry["id"]:
                self.draw(reply["view"])
            elif not shown and self.keeper.gid is None:
                self.open_board(entry["id"], entry.get("created"), entry.get("named"))
                self.resumed(entry)
                self.draw(reply["view"])
            return True
        self.keeper.failed(entry, reply)
        if self.keeper.gid is None or self.keeper.gid == entry["id"]:
            self.screen.show_home()
        return False

    def follow(self, entry):
        """Another tab moved this game on (saved_games.py): draw it as that tab left it;
        the engine loads that save too."""
        self.forget_boxes()
        self.resumed(entry)
        if entry["view"] is not None:  # else drawn from the engine's reply (followed)
            self.draw(entry["view"])
        self.screen.announce(words.t("msg.moved_on"))
        if self.ui["ready"]:
            self.engine.send({"op": "load", "save": entry["save"]}, self.followed)

    def followed(self, reply):
        if reply.get("ok") and not self.engine.waiting() and self.screen.board_visible():
            self.draw(reply["view"])

    def closed(self):
        """The board was left for the home screen."""
        self.view = None

    async def resume(self, gid):
        entry = self.keeper.entry(gid)
        if entry is None:
            return
        if self.resume_view(entry):
            if self.ui["ready"]:
                await self.load(entry)
        elif self.ui["ready"]:
            await self.load(entry, shown=False)
        else:
            self.later = entry  # opened when the engine is ready (page_boot.engine_ready)
