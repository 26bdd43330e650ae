"""static/ui/page/keymap.py in CPython: the page's one key map (the DOM side is keys.py)."""
import sys
from pathlib import Path

import pytest

from tools import ui_modules

UI_PATHS = [str(p) for p in ui_modules.folders()]


@pytest.fixture(scope="module")
def keymap():
    sys.path[:0] = UI_PATHS
    try:
        import keymap
        yield keymap
    finally:
        for path in UI_PATHS:
            sys.path.remove(path)
        sys.modules.pop("keymap", None)


def test_board_keys(keymap):
    board = lambda key, **kw: keymap.command(key, "board", dice_count=5, **kw)  # noqa: E731
    assert board("r") == board("R") == ("roll", None)
    assert board("u") == ("undo", None)
    assert [board(k) for k in "12345"] == [("die", i) for i in range(5)]
    assert board("6") is None and board("0") is None  # five dice: no sixth, no tenth
    assert board("ArrowDown") == board("ArrowRight") == ("focus", 1)
    assert board("ArrowUp") == board("ArrowLeft") == ("focus", -1)
    assert board("h") == ("hint", None)
    assert board("s") is None and board("s", computer=True) == ("skip", None)
    assert board("x") is None and board("Enter") is None


def test_ten_dice_take_zero_for_the_tenth(keymap):
    assert keymap.command("0", "board", dice_count=10) == ("die", 9)
    assert keymap.command("9", "board", dice_count=10) == ("die", 8)


@pytest.mark.parametrize("how", [{"modified": True}, {"dialog": True}, {"focus": "input"},
                                 {"focus": "select"}, {"focus": "textarea"}])
def test_nothing_is_a_command_while_typing_or_in_a_dialog(keymap, how):
    for key in ("r", "u", "1", "ArrowDown", "h", "Enter", "ArrowRight"):
        assert keymap.command(key, "board", dice_count=5, entering=True, computer=True, **how) is None
        assert keymap.command(key, "replay", **how) is None


def test_entering_table_dice(keymap):
    entering = lambda key, **kw: keymap.command(key, "board", dice_count=5, entering=True, **kw)  # noqa: E731
    assert [entering(k) for k in "123456"] == [("face", n) for n in range(1, 7)]
    assert entering("Backspace") == ("unface", None)
    assert entering("Enter") == ("enter", None)
    assert entering("Enter", focus="button") is None  # the button's own Enter
    assert entering("7") is None and entering("0") is None
    assert entering("u") == ("undo", None)


def test_replay_keys_and_other_screens(keymap):
    assert keymap.command("ArrowRight", "replay") == ("replay", "next")
    assert keymap.command("PageUp", "replay") == ("replay", "prev_turn")
    assert keymap.command("End", "replay") == ("replay", "last")
    assert keymap.command("r", "replay") is None
    assert keymap.command("r", "") is None and keymap.command("ArrowRight", "records") is None
