"""The page's controller (static/ui/board/controller.py) in CPython: its decisions, with
fakes for the parts it is built from (the engine client, the board, the saved games,
the clock, the screen) and the real engine's views (generala.app), so what the page may
send at each moment is checked without a browser."""
import asyncio
import json
import sys

import pytest

from generala import app
from tools import ui_modules


@pytest.fixture(scope="module")
def controller_module():
    paths = [str(ui_modules.UI)]
    sys.path[:0] = paths
    try:
        from board import controller
        from words import words
        words.set_lang("en")
        yield controller
    finally:
        for path in paths:
            sys.path.remove(path)
        ui_modules.forget()


class Engine:
    """The real engine behind the client's interface; what the page sent is logged."""

    def __init__(self):
        self.session = app.Session()
        self.sent = []
        self.callbacks = []  # send()'s replies, delivered when the test says (deliver)

    def answer(self, req):
        reply = self.session.handle(json.loads(json.dumps(req)))
        if "save" in reply:
            reply["save"] = json.dumps(reply["save"])
        return reply

    def send(self, req, callback, quiet=False):
        self.sent.append(req)
        self.callbacks.append((callback, self.answer(req)))

    def waiting(self):
        return len(self.callbacks)

    def deliver(self):
        while self.callbacks:
            callback, reply = self.callbacks.pop(0)
            callback(reply)

    async def call(self, req, quiet=False):
        self.sent.append(req)
        return self.answer(req)


class Board:
    def __init__(self):
        self.updates = []
        self.rolled = []
        self.scored = []
        self.key = None

    def update(self, view, ui, predicted=False):
        self.updates.append((view, dict(ui), predicted))

    def rolling(self, view):
        self.rolled.append(view)

    def scoring(self, view, box):
        self.scored.append(box)


class Keeper:
    def __init__(self):
        self.gid = None
        self.kept = []
        self.failures = []

    def open(self, gid, created, named=None):
        self.gid = gid

    def new_id(self):
        return "g1"

    def keep(self, reply):
        self.kept.append(reply)

    def failed(self, entry, reply):
        self.failures.append((entry["id"], reply["kind"]))


class Clock:
    class Timer:
        def __init__(self, fn):
            self.fn = fn

        def start(self, ms=0):
            pass

        def stop(self):
            pass

        def waiting(self):
            return False

    class Frame:
        def __init__(self, fn):
            pass

        def request(self):
            pass

    def timer(self, fn):
        return self.Timer(fn)

    def frame(self, fn):
        return self.Frame(fn)


class Screen:
    def __init__(self):
        self.visible = True
        self.asked = []  # (text, callback): the confirm dialog
        self.said = []
        self.homes = 0
        self.focused = []

    def board_visible(self):
        return self.visible

    def show_board(self):
        self.visible = True

    def show_home(self, panel=None):
        self.visible = False
        self.homes += 1

    def ask(self, text, ok, callback):
        self.asked.append((text, callback))

    def announce(self, text):
        self.said.append(text)

    def message(self, text, kind="info"):
        pass

    def status(self, text):
        pass

    def focus(self, ident):
        self.focused.append(ident)

    def refocus(self, view):
        pass


class Features:
    def __init__(self):
        self.sheet = False

    def blocks(self):
        return self.sheet

    def resumed(self, entry):
        pass


class Computer:
    def __init__(self):
        self.cancelled = 0

    def cancel(self):
        self.cancelled += 1


class Coach:
    def said(self, reply):
        pass


def start(controller_module, variant="argentine", seed=7, **extra):
    """A controller with a new one-person game on its board, engine ready."""
    features, computer = Features(), Computer()
    parts = dict(engine=Engine(), board=Board(), keeper=Keeper(), clock=Clock(), screen=Screen())
    game = controller_module.Controller(**parts, stop_computer=computer.cancel, said=Coach().said,
                                        blocks=features.blocks, linked=lambda reply, drawn: None,
                                        resumed=features.resumed)
    game.ui["ready"] = True
    asyncio.run(game.start_game({"op": "new", "variant": variant, "sides": ["Ana"], "seed": seed, **extra}))
    return game, parts, features, computer


def test_roll_is_sent_only_when_the_view_offers_it(controller_module):
    game, parts, features, _ = start(controller_module)
    engine, board = parts["engine"], parts["board"]
    assert game.view["can_roll"] and parts["keeper"].gid == "g1"
    game.roll()
    assert engine.sent[-1] == {"op": "roll"} and len(board.rolled) == 1
    engine.deliver()
    for _ in range(2):
        game.roll()
        engine.deliver()
    assert game.view["rolls"] == 3 and not game.view["can_roll"]
    before = len(engine.sent)
    game.roll()  # no fourth roll: the view does not offer it
    assert len(engine.sent) == before and len(board.rolled) == 3
    # Nothing is sent while the board is hidden, or in a score-sheet game (the table rolls).
    game2, parts2, features2, _ = start(controller_module)
    parts2["screen"].visible = False
    game2.roll()
    features2.sheet = True
    parts2["screen"].visible = True
    game2.roll()
    assert parts2["engine"].sent == [{"op": "new", "variant": "argentine", "sides": ["Ana"], "seed": 7}]


def test_a_hold_is_drawn_at_once_then_the_reply_confirms_it(controller_module):
    game, parts, _, _ = start(controller_module)
    engine, board = parts["engine"], parts["board"]
    game.toggle(2)  # before the first roll nothing is holdable
    assert engine.sent[-1]["op"] == "new"
    game.roll()
    engine.deliver()
    assert game.view["holdable"] == [0, 1, 2, 3, 4]
    game.toggle(2)
    predicted, _, flag = board.updates[-1]
    assert flag is True and predicted["held"] == [False, False, True, False, False]
    assert engine.sent[-1] == {"op": "toggle", "die": 2}
    engine.deliver()
    drawn, _, flag = board.updates[-1]
    assert flag is False and drawn["held"][2] is True and parts["keeper"].kept[-1]["view"] is drawn


def test_an_engine_that_failed_for_good_takes_no_move_and_undraws_a_predicted_hold(controller_module):
    """A hold drawn ahead of its reply that never comes (the engine failed for good): the
    board goes back to the engine's last answer, disabled, and nothing more is sent."""
    game, parts, _, computer = start(controller_module)
    engine, board = parts["engine"], parts["board"]
    game.roll()
    engine.deliver()
    answered = game.view
    game.toggle(1)
    assert board.updates[-1][2] is True and game.view["held"][1] is True
    engine.callbacks.clear()  # its answer never comes
    sent = len(engine.sent)
    game.engine_failed()
    drawn, ui, predicted = board.updates[-1]
    assert drawn == dict(answered, events=[]) and not predicted and drawn["held"][1] is False
    assert answered["events"], "the roll's events are not played again"
    assert ui["ready"] is False and ui["failed"] is True and computer.cancelled == 1
    game.toggle(2)
    game.roll()
    game.pick_box(next(r["box"] for r in answered["rows"] if r["cells"][0].get("playable")))
    assert len(engine.sent) == sent and board.updates[-1][0] is drawn


def test_a_zero_asks_before_it_scratches_and_a_second_click_scores_once(controller_module):
    game, parts, _, _ = start(controller_module, seed=7)
    engine, screen = parts["engine"], parts["screen"]
    game.roll()
    engine.deliver()
    cur = game.view["current"]
    cells = {row["box"]: row["cells"][cur] for row in game.view["rows"]}
    zero = next(box for box, cell in cells.items() if cell.get("playable") and cell["scratch"])
    paying = next(box for box, cell in cells.items() if cell.get("playable") and not cell["scratch"])
    sent = len(engine.sent)
    game.pick_box(zero)
    assert len(engine.sent) == sent and len(screen.asked) == 1  # asked first, nothing sent
    game.pick_box(paying)
    game.pick_box(paying)  # a second click before the reply
    # what is sent is the cell's own request, as the engine wrote it
    assert [r for r in engine.sent[sent:]] == [cells[paying]["request"]] == [{"op": "score", "box": paying}]
    assert parts["board"].scored == [paying]
    engine.deliver()
    assert game.view["rolls"] == 0 and game.view["rows"][[r["box"] for r in game.view["rows"]].index(paying)]["cells"][cur]["value"] > 0
    game.pick_box("no-such-box")  # not a playable cell: nothing
    assert len(engine.sent) == sent + 1


def test_a_scratch_chosen_on_the_page_is_recorded_as_one(controller_module):
    """The cell says whether choosing it is a scratch and what it sends: confirmed, the
    page sends that request, and the game records a scratch (as the coach's moves do)."""
    game, parts, _, _ = start(controller_module, seed=7)
    engine, screen = parts["engine"], parts["screen"]
    game.roll()
    engine.deliver()
    cur = game.view["current"]
    row = next(r for r in game.view["rows"] if r["cells"][cur].get("playable") and r["cells"][cur]["scratch"])
    cell, box = row["cells"][cur], row["box"]
    assert cell["request"] == {"op": "score", "box": box, "scratch": True}
    game.pick_box(box)
    text, confirm = screen.asked[-1]
    assert "Cross out" in text and engine.sent[-1] == {"op": "roll"}
    confirm()
    assert engine.sent[-1] == cell["request"] and parts["board"].scored == [box]
    engine.deliver()
    history = json.loads(parts["keeper"].kept[-1]["save"])["history"]
    assert history[-1] == {"score": box, "scratch": True}
    filled = next(e for e in game.view["events"] if e["kind"] == "box_filled")
    assert filled["boxes"] == [box] and filled["scratch"] == [True] and filled["points"] == [0]


def test_a_zero_that_is_no_scratch_is_not_asked_about(controller_module):
    """Bulgarian: a mandatory box takes what the dice give, 0 included: the cell says it is
    no scratch, and the page sends its request at once."""
    for seed in range(1, 60):
        game, parts, _, _ = start(controller_module, variant="bulgarian", seed=seed)
        engine = parts["engine"]
        game.roll()
        engine.deliver()
        cur = game.view["current"]
        rows = [r for r in game.view["rows"] if r["mandatory"] and r["cells"][cur].get("playable")
                and r["cells"][cur]["preview"] == 0]
        if rows:
            break
    else:
        pytest.fail("no seed gives a mandatory box worth 0")
    row = rows[0]
    assert row["cells"][cur]["scratch"] is False
    game.pick_box(row["box"])
    assert parts["screen"].asked == [] and engine.sent[-1] == row["cells"][cur]["request"] == {
        "op": "score", "box": row["box"]}


def test_a_refused_reply_draws_the_view_it_came_with(controller_module):
    game, parts, _, _ = start(controller_module)
    engine, board = parts["engine"], parts["board"]
    game.act({"op": "score", "box": "ones"})  # before any roll: refused by the engine
    engine.deliver()
    assert board.updates[-1][0]["rolls"] == 0 and len(parts["keeper"].kept) == 1  # only new's save


def test_undo_stops_a_waiting_computer_and_is_sent_only_when_offered(controller_module):
    game, parts, _, computer = start(controller_module)
    engine = parts["engine"]
    game.undo()
    assert computer.cancelled == 0 and engine.sent[-1]["op"] == "new"
    game.roll()
    engine.deliver()
    game.toggle(0)
    engine.deliver()
    assert game.view["can_undo"]
    game.undo()
    assert computer.cancelled == 1 and engine.sent[-1] == {"op": "undo"}
    engine.deliver()
    assert game.view["held"][0] is False


def settled(game, action):
    """Run ``action`` in an event loop until the tasks it started are done (the page's
    tasks: asking the engine for a split, pricing one)."""
    async def run():
        action()
        for _ in range(10):
            await asyncio.sleep(0)
    asyncio.run(run())


def test_ten_dice_two_boxes_the_engine_proposes_the_split_and_a_zero_asks(controller_module):
    game, parts, _, _ = start(controller_module, variant="double", seed=3)
    engine, screen = parts["engine"], parts["screen"]
    game.roll()
    engine.deliver()
    assert game.view["split_sizes"] == [5, 5]
    cur = game.view["current"]
    open_boxes = [row["box"] for row in game.view["rows"] if row["cells"][cur].get("playable")]
    a, b = open_boxes[0], open_boxes[-1]
    settled(game, lambda: game.pick_box(a))  # the first box: the engine prices its pairs
    assert game.ui["picked"] == [a] and engine.sent[-1] == {"op": "pairs", "box": a}
    settled(game, lambda: game.pick_box(b))  # the second box: the engine proposes a split
    split = game.ui["split"]
    assert engine.sent[-1] == {"op": "split", "boxes": [a, b]}
    assert len(split["positions"]) == 5 and len(split["points"]) == 2 and screen.focused[-1] == "split-ok"
    # A die moved out leaves four: nothing priced or scored until five are chosen again.
    moved = split["positions"][0]
    game.move_split(moved)
    assert game.ui["split"]["points"] is None and len(game.ui["split"]["positions"]) == 4
    game.score_split()
    assert engine.sent[-1]["op"] == "split"
    settled(game, lambda: game.move_split(moved))
    assert engine.sent[-1] == {"op": "price", "boxes": [a, b], "split": split["positions"]}
    points = game.ui["split"]["points"]
    assert points == split["points"]  # the same five dice: the same points
    priced = game.ui["split"]
    assert priced["request"] == split["request"] and priced["scratch"] == split["scratch"]
    asked = len(screen.asked)
    game.score_split()
    if any(priced["scratch"]):  # a box written 0 by choice is asked about first
        assert len(screen.asked) == asked + 1 and engine.sent[-1]["op"] == "price"
        screen.asked[-1][1]()  # confirmed
    # the request the engine gave for this split (its scratch flags with it) is what is sent
    assert engine.sent[-1] == priced["request"]
    assert priced["request"] == {"op": "score", "boxes": [a, b], "split": split["positions"],
                                 **({"scratch": priced["scratch"]} if any(priced["scratch"]) else {})}
    engine.deliver()
    filled = {row["box"]: row["cells"][cur]["value"] for row in game.view["rows"]}
    assert filled[a] == points[0] and filled[b] == points[1]
    event = next(e for e in game.view["events"] if e["kind"] == "box_filled")
    assert event["boxes"] == [a, b] and event["scratch"] == priced["scratch"]


def ten_dice_split(controller_module, seed):
    """A double game with two boxes chosen and the engine's split proposed."""
    game, parts, _, _ = start(controller_module, variant="double", seed=seed)
    engine = parts["engine"]
    game.roll()
    engine.deliver()
    cur = game.view["current"]
    open_boxes = [row["box"] for row in game.view["rows"] if row["cells"][cur].get("playable")]
    settled(game, lambda: game.pick_box(open_boxes[0]))
    settled(game, lambda: game.pick_box(open_boxes[-1]))
    return game, parts


def test_ten_dice_the_first_box_shows_each_other_box_paired_with_it(controller_module):
    """The first box chosen: the engine's op pairs prices every other open box with it and
    the board draws those points (ui["pairs"]); the box taken back, or a reply that comes
    when another box is the one chosen, leaves the sheet to the view's own previews; the
    split proposed for a pair has the points its pair showed."""
    game, parts, _, _ = start(controller_module, variant="double", seed=5)
    engine, board = parts["engine"], parts["board"]
    game.roll()
    engine.deliver()
    cur = game.view["current"]
    open_boxes = [row["box"] for row in game.view["rows"] if row["cells"][cur].get("playable")]
    a = open_boxes[2]
    settled(game, lambda: game.pick_box(a))
    pairs = game.ui["pairs"]
    assert engine.sent[-1] == {"op": "pairs", "box": a}
    assert pairs["box"] == a and sorted(pairs["with"]) == sorted(b for b in open_boxes if b != a)
    assert board.updates[-1][1]["pairs"] == pairs  # drawn with the view
    settled(game, lambda: game.pick_box(a))  # taken back
    assert game.ui["picked"] == [] and game.ui["pairs"] is None and board.updates[-1][1]["pairs"] is None
    # a reply for a box no longer the one chosen is not drawn
    game.ui["picked"] = [open_boxes[0]]
    asyncio.run(game.pair_up(a))
    assert game.ui["pairs"] is None
    game.ui["picked"] = []
    settled(game, lambda: game.pick_box(a))
    b = pairs["best"] or open_boxes[-1]
    settled(game, lambda: game.pick_box(b))
    assert engine.sent[-1] == {"op": "split", "boxes": [a, b]}
    assert game.ui["split"]["points"] == pairs["with"][b]["points"]
    assert game.ui["split"]["scratch"] == pairs["with"][b]["scratch"]
    game.cancel_split()
    assert game.ui["picked"] == [] and game.ui["pairs"] is None and game.ui["split"] is None


def test_ten_dice_a_split_scratching_a_box_sends_the_engines_scratch_flags(controller_module):
    """A split that writes 0 in a box: the engine's flags say so (asked first), and the
    request it gave records the scratch."""
    for seed in range(1, 80):
        game, parts = ten_dice_split(controller_module, seed)
        if any(game.ui["split"]["scratch"]):
            break
    else:
        pytest.fail("no seed gives a split that writes 0 in a box")
    engine, screen = parts["engine"], parts["screen"]
    split = game.ui["split"]
    game.score_split()
    assert engine.sent[-1]["op"] == "split" and len(screen.asked) == 1
    screen.asked[-1][1]()
    assert engine.sent[-1] == split["request"] and engine.sent[-1]["scratch"] == split["scratch"]
    engine.deliver()
    history = json.loads(parts["keeper"].kept[-1]["save"])["history"]
    assert history[-1]["scratch"] == split["scratch"]


def test_ten_dice_the_split_is_priced_at_the_views_split_size(controller_module):
    """The page prices a split once the first box has the dice the view's split_sizes
    gives it: it never counts to five itself."""
    game, parts = ten_dice_split(controller_module, 3)
    engine = parts["engine"]
    game.view = dict(game.view, split_sizes=[4, 6])  # a view with other sizes
    split = game.ui["split"]
    moved = split["positions"][0]
    sent = len(engine.sent)
    settled(game, lambda: game.move_split(moved))  # four dice left in the first box: priced
    assert engine.sent[sent:] == [{"op": "price", "boxes": split["boxes"], "split": split["positions"][1:]}]
    assert game.ui["split"]["request"] is None  # refused by the engine (five a box): nothing to score
    game.score_split()
    assert len(engine.sent) == sent + 1


def test_the_events_of_a_reply_not_drawn_come_with_the_next_one(controller_module):
    """With a later reply on its way, a reply is not drawn: what it made happen (a roll,
    five alike...) is drawn with the next view, first. A hold drawn at the click carries
    the one event it foresees (that die changes rows): the reply's events say the rest."""
    game, parts, _, _ = start(controller_module)
    engine, board = parts["engine"], parts["board"]
    assert board.updates[-1][0]["events"] == []
    game.roll()
    engine.deliver()
    rolled = [e["kind"] for e in board.updates[-1][0]["events"]]
    assert rolled[0] == "roll"
    game.toggle(1)
    predicted = board.updates[-1]
    assert predicted[2] is True and [(e["kind"], e["changed"]) for e in predicted[0]["events"]] == [("hold", [1])]
    engine.deliver()
    assert [e["kind"] for e in board.updates[-1][0]["events"]] == ["hold"]
    game.roll()  # the roll, then a hold sent before its reply: only the last reply is drawn
    game.toggle(1)
    drawn = len(board.updates)
    engine.deliver()
    kinds = [e["kind"] for e in board.updates[-1][0]["events"]]
    assert len(board.updates) == drawn + 1 and kinds[0] == "roll" and kinds[-1] == "hold"
    kept = parts["keeper"].kept[-1]["view"]
    assert [e["kind"] for e in kept["events"]] == ["hold"]  # what is stored is the engine's view
    engine.deliver()
    game.toggle(2)
    engine.deliver()
    assert [e["kind"] for e in board.updates[-1][0]["events"]] == ["hold"]  # told once


def test_a_save_the_engine_refuses_is_set_aside_and_home_is_shown(controller_module):
    game, parts, _, _ = start(controller_module)
    entry = {"id": "g9", "save": {"schema": 1, "game": "generala", "variant": "argentine", "options": {},
                                  "sides": ["Ana"], "roller": None, "history": [{"roll": [1, 1, 1, 1, 1]}]},
             "view": None}
    ok = asyncio.run(game.load(entry, shown=False))
    assert ok is False and parts["keeper"].failures == [("g9", "SaveError")]
