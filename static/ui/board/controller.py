# The main-thread UI (PyScript MicroPython): events -> engine requests -> draw the view.
# main.py imports the modules one browser task at a time (static/ui/modules.toml), then
# page_boot.py builds this controller. Its parts, one module each: navigation.py (home, board, dialogs,
# language, focus), saved_games.py (the lists, the autosave, two tabs on one game),
# page_input.py (clicks and keys); here, the game on the board: its actions, each an
# engine request (engine_client.py) whose reply is drawn (render.py).
#
# Only this thread touches the DOM and storage; storage goes through
# js.generala.storage (never throws). The game lives in the engine worker: this side
# keeps the last view it drew and the player's transient choices (the two boxes and
# the split of the ten dice).
import gc

import js
from jsffi import create_proxy

import computer
import engine_client
import features
import words
from dom import byid, message
from render import Board
from saves import Saves, describe, when
from setup import Setup
from home_screen import Home
from screens import spawn
from navigation import Navigation, status
from page_input import PageInput
from saved_games import SavedGames

storage = js.generala.storage
MAX_SEED = 2 ** 63 - 1


class Controller(Navigation, SavedGames, PageInput):
    """The controller: one per page."""

    def __init__(self, catalog, params):
        """The state; assemble() then builds the screens."""
        self.catalog = catalog
        self.params = params
        self.saves = Saves(storage)
        self.board = Board(byid("board"))
        self.view = None
        self.gid = None
        self.created = None
        self.rev = 0  # the stored rev this board shows (saves.py: two tabs on one game)
        self.watching = False  # following another tab's moves until the player acts here
        self.unsaved = False  # a write failed: told once per game, the game goes on in memory
        self.pending = None
        self.save_proxy = create_proxy(lambda: self.save_now())
        self.gc_proxy = create_proxy(lambda: gc.collect())
        self.frame_proxy = create_proxy(lambda t: js.setTimeout(self.gc_proxy, 0))
        self.ui = {"ready": False, "picked": [], "split": None, "scoring": False}
        self.later = None  # a saved game to open with the engine's view once it is ready
        self.confirm_cb = None

    async def assemble(self, pause):
        """Build the screens, one browser task each (page_boot.py: no long task at boot)."""
        self.setup = Setup(self.catalog, self.params.get("variant"))
        await pause()
        self.home = Home(self, self.catalog)  # the play choices and the home screen's panels
        await pause()
        self.features = features.Features(self, self.catalog)  # score sheet, replay, records
        await pause()
        self.computer = computer.Computer(self, message)  # computer players, coach
        self.seed = self.params.get("seed")
        if self.seed is not None:
            byid("seed").value = str(self.seed)
        self.wire()

    def draw(self, view, predicted=False):
        """Draw a view: the engine's, or one predicted at a click (a hold) until its reply.
        The board draws it and then its parts (render.Board.update, board_parts.py)."""
        self.view = view
        self.board.update(view, self.ui, predicted)
        # Collect garbage once the frame is painted, not in the middle of the next click.
        js.requestAnimationFrame(self.frame_proxy)

    async def call(self, req, quiet=False):
        """Send a request (engine_client.call); a refused one draws the view it came with."""
        reply = await engine_client.call(req, quiet)
        if not reply.get("ok") and reply.get("view") and self.view is not None:
            self.draw(reply["view"])
        return reply

    def act(self, req, reset=True):
        """An action on the game: the reply is drawn and saved when it comes."""
        if reset:
            self.ui["picked"] = []
            self.ui["split"] = None
        engine_client.send(req, self.acted)

    def acted(self, reply):
        self.ui["scoring"] = False
        if not reply.get("ok"):
            if reply.get("view"):
                self.draw(reply["view"])
        else:
            self.changed(reply, draw=not engine_client.waiting())

    def playing(self):
        return self.view is not None and self.ui["ready"] and not self.view["over"] and self.board_visible()

    def roll(self):
        if self.playing() and self.view["can_roll"] and not self.ui["split"] and not self.features.blocks():
            self.act({"op": "roll"})
            self.board.rolling(self.view)  # the dice start shaking now; the faces land with the reply

    def undo(self):
        if self.playing() and self.view["can_undo"]:
            self.computer.cancel()  # a computer waiting to start its turn does not start it
            self.act({"op": "undo"})

    def dice_count(self):
        return self.view["dice_count"] if self.view else 0

    def toggle(self, i):
        if not self.playing():
            return
        if self.ui["split"]:
            self.move_split(i)
        elif self.view["can_hold"] and not self.features.blocks():
            # Drawn at once from the last view (a hold only flips one flag); the engine's
            # reply, drawn when no later request is pending, confirms or corrects it.
            view = dict(self.view)
            view["held"] = list(view["held"])
            view["held"][i] = not view["held"][i]
            view["last"] = None
            self.draw(view, predicted=True)
            self.act({"op": "toggle", "die": i}, reset=False)

    def pick_box(self, box):
        view = self.view
        if not self.playing() or view["dice"] is None:
            return
        row = None
        for r in view["rows"]:
            if r["box"] == box:
                row = r
        cell = row["cells"][view["current"]] if row else None
        if not cell or not cell.get("playable"):
            return
        if view["boxes_per_turn"] == 2:
            picked = self.ui["picked"]
            if box in picked:
                picked.remove(box)
                self.draw(view)
                return
            picked.append(box)
            self.draw(view)
            if len(picked) == 2:
                spawn(self.propose(picked[0], picked[1]))
            return
        if cell["preview"] == 0 and not row["mandatory"]:
            self.ask(words.t("ask.scratch", box=words.box(box)),
                     words.t("ask.scratch_ok"), lambda: self.score(box))
            return
        self.score(box)

    def score(self, box):
        """Score one box: drawn filled at once, the reply then moves the turn on."""
        if self.ui.get("scoring"):
            return  # a second click before the reply: the box is already scored
        self.ui["scoring"] = True
        self.act({"op": "score", "box": box})
        self.board.scoring(self.view, box)

    async def propose(self, a, b):
        reply = await self.call({"op": "split", "boxes": [a, b]})
        if reply and reply.get("ok"):
            self.ui["split"] = reply["split"]
        else:
            self.ui["picked"] = []
        self.draw(self.view)
        if self.ui["split"]:
            pts = self.ui["split"]["points"]
            byid("announce").textContent = words.t("split.proposed", a=words.box(a), pa=words.points(pts[0]),
                                                   b=words.box(b), pb=words.points(pts[1]))
            ok = byid("split-ok")
            if ok:
                ok.focus()

    def move_split(self, i):
        split = self.ui["split"]
        positions = list(split["positions"])
        if i in positions:
            positions.remove(i)
        else:
            positions.append(i)
        positions.sort()
        split = {"boxes": split["boxes"], "positions": positions, "points": None}
        self.ui["split"] = split
        self.draw(self.view)
        if len(positions) == 5:
            spawn(self.price(split))

    async def price(self, split):
        reply = await self.call({"op": "price", "boxes": split["boxes"], "split": split["positions"]})
        if reply and reply.get("ok") and self.ui["split"] is split:
            split["points"] = reply["split"]["points"]
            self.ui["split"] = dict(split)
            self.draw(self.view)

    def score_split(self):
        split = self.ui["split"]
        if not split or split.get("points") is None:
            return
        req = {"op": "score", "boxes": split["boxes"], "split": split["positions"]}
        zero = [b for b, p in zip(split["boxes"], split["points"]) if p == 0]
        if zero:
            text = (words.t("ask.scratch", box=words.box(zero[0])) if len(zero) == 1 else
                    words.t("ask.scratch_two", boxes=words.and_list(words.box(b) for b in zero)))
            self.ask(text, words.t("ask.scratch_ok"), lambda: self.act(req))
        else:
            self.act(req)

    def cancel_split(self):
        self.ui["picked"] = []
        self.ui["split"] = None
        self.draw(self.view)

    async def start(self):
        req, notes = self.setup.read()
        self.features.amend(req)
        for n in notes:
            message(n, "warn")
        seed_text = str(byid("seed").value).strip()
        if seed_text:
            seed = parse_seed(seed_text)
            if seed is None:
                err = byid("setup-error")
                err.textContent = words.t("msg.bad_seed", max=MAX_SEED)
                err.hidden = False
                return
            req["seed"] = seed
        byid("setup-error").hidden = True
        req["op"] = "new"
        await self.start_game(req)

    async def start_game(self, req):
        """Send a `new` request (the setup form's, or the home screen's one-tap game)."""
        status(words.t("msg.starting_game" if self.ui["ready"] else "msg.starting_engine"))
        reply = await self.call(req)
        if reply and reply.get("ok"):
            self.begin(reply)

    def open_board(self, gid, created):
        """Put the game ``gid`` on the board (built afresh), as stored now."""
        self.gid = gid
        self.created = created
        self.rev = self.saves.rev(gid)  # 0 for a new game
        self.watching = False
        self.unsaved = False
        self.saves.set_current(gid)
        self.ui["picked"] = []
        self.ui["split"] = None
        self.show_board()
        self.board.key = None

    def begin(self, reply):
        self.open_board(self.saves.new_id(), None)
        self.changed(reply)
        v = reply["view"]
        byid("announce").textContent = words.t("say.begin", title=words.title(v["variant"], v["title"]),
                                               who=words.whose_turn(v),
                                               names=", ".join(v["sides"][i]["name"] for i in v["order"]))
        byid("roll").focus()

    async def again(self):
        reply = await self.call({"op": "again"})
        if reply and reply.get("ok"):
            self.begin(reply)

    def resume_view(self, entry):
        """Draw a saved game at once, from its last view (the engine may still be booting).
        False when the stored view cannot be drawn: the engine's view is drawn instead
        once it has loaded the save (load, shown=False)."""
        if entry["view"] is None:
            return False
        self.open_board(entry["id"], entry.get("created"))
        self.features.resumed(entry)
        self.draw(entry["view"])
        return True

    async def load(self, entry, shown=True):
        """The engine loads the save. ``shown``: its board is drawn already (from the stored
        view); else it is opened with the engine's view, unless the player went elsewhere."""
        reply = await self.call({"op": "load", "save": entry["save"]}, quiet=True)
        if reply.get("ok"):
            if self.gid == entry["id"]:
                self.draw(reply["view"])
            elif not shown and self.gid is None:
                self.open_board(entry["id"], entry.get("created"))
                self.features.resumed(entry)
                self.draw(reply["view"])
            return True
        reason = reply.get("error") if reply.get("kind") != engine_client.NO_ANSWER else words.t("msg.no_answer")
        self.saves.set_aside(entry["id"], reason)
        message(words.t("msg.load_failed", game=describe(entry), when=when(entry.get("updated") or 0),
                        reason=reason), "error")
        if self.gid is None or self.gid == entry["id"]:
            self.show_home()
        return False

    async def resume(self, gid):
        entry, reason = self.saves.get(gid)
        if entry is None:
            self.saves.set_aside(gid, reason)
            message(words.t("msg.load_failed_id", id=gid, reason=reason), "error")
            self.draw_saves()
            return
        if self.resume_view(entry):
            if self.ui["ready"]:
                await self.load(entry)
        elif self.ui["ready"]:
            await self.load(entry, shown=False)
        else:
            self.later = entry  # opened when the engine is ready (engine_ready)


def parse_seed(text):
    text = str(text).strip()
    if not text or len(text) > 19 or not all("0" <= ch <= "9" for ch in text):
        return None
    n = int(text)
    return n if n <= MAX_SEED else None
