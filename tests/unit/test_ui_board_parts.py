"""static/ui/board/board_parts.py in CPython: the board's drawing pipeline (render.Board.update
runs it; the parts are score-sheet mode, the share panel, the computer players, the coach)."""
import importlib.util
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location(
    "board_parts", Path(__file__).resolve().parents[2] / "static" / "ui" / "board" / "board_parts.py")
board_parts = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(board_parts)  # a plain module: it imports nothing of the page


def logger(log, name):
    return lambda *args: log.append((name,) + args)


def test_the_board_then_its_parts_in_order_whatever_the_registration_order():
    parts = board_parts.Parts()
    log = []
    # registered as the page builds them: the features, then the computer and its coach
    parts.add("coach", logger(log, "coach"))
    parts.add("share", logger(log, "share"))
    parts.add("computer", logger(log, "computer"), prepare=logger(log, "computer:prepare"))
    parts.add("sheet", logger(log, "sheet"))
    parts.add("challenge", logger(log, "challenge"))
    parts.add("link", logger(log, "link"))
    parts.add("story", logger(log, "story"))
    parts.add("chances", logger(log, "chances"))
    view, ui, board = {"round": 1}, {"ready": True}, object()
    parts.run(view, ui, board, logger(log, "board"))
    assert [entry[0] for entry in log] == ["computer:prepare", "board", "sheet", "share", "challenge",
                                           "computer", "coach", "chances", "link", "story"]
    assert log[0] == ("computer:prepare", view, ui)
    assert log[1] == ("board", view, ui)
    assert all(entry[1:] == (view, ui, board) for entry in log[2:])
    assert parts.names() == list(board_parts.ORDER)


def test_prepare_writes_what_the_board_reads():
    """The computer's part names who plays before the board draws its hint line."""
    parts = board_parts.Parts()
    parts.add("computer", prepare=lambda view, ui: ui.update(computer="The computer plays"))
    seen = []
    parts.run({}, {}, None, lambda view, ui: seen.append(ui.get("computer")))
    assert seen == ["The computer plays"]


def test_a_board_without_parts_draws_itself():
    parts = board_parts.Parts()
    seen = []
    parts.run({"v": 1}, {}, None, lambda view, ui: seen.append(view))
    assert seen == [{"v": 1}] and parts.names() == []


def test_a_part_registers_once_and_only_in_a_known_place():
    parts = board_parts.Parts()
    parts.add("sheet", lambda *a: None)
    with pytest.raises(ValueError):
        parts.add("sheet", lambda *a: None)
    with pytest.raises(ValueError):
        parts.add("daily", lambda *a: None)


def test_a_new_screen_plugs_in_by_its_place_in_the_order():
    """A new screen names its place in the order; the board's own code is not touched."""
    parts = board_parts.Parts(board_parts.ORDER[:2] + ("daily",) + board_parts.ORDER[2:])
    log = []
    for name in ("computer", "daily", "sheet"):
        parts.add(name, logger(log, name))
    parts.run({}, {}, None, lambda view, ui: None)
    assert [entry[0] for entry in log] == ["sheet", "daily", "computer"]
