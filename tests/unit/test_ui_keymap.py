"""static/ui/page/keymap.py in CPython: the page's one key map (the DOM side is keys.py)."""
import sys
from pathlib import Path

import pytest

from tools import ui_modules

UI_PATHS = [str(ui_modules.UI)]


@pytest.fixture(scope="module")
def keymap():
    sys.path[:0] = UI_PATHS
    try:
        from page import keymap
        yield keymap
    finally:
        for path in UI_PATHS:
            sys.path.remove(path)
        ui_modules.forget()


def test_board_keys(keymap):
    board = lambda key, **kw: keymap.command(key, "board", dice_count=5, **kw)  # noqa: E731
    assert board("r") == board("R") == ("roll", None)
    assert board("u") == ("undo", None)
    assert [board(k) for k in "12345"] == [("die", i) for i in range(5)]
    assert board("6") is None and board("0") is None  # five dice: no sixth, no tenth
    assert board("ArrowDown") == board("ArrowRight") == ("focus", 1)
    assert board("ArrowUp") == board("ArrowLeft") == ("focus", -1)
    assert board("h") == ("hint", None)
    assert board("w") == board("W") == board("w", computer=True) == ("chances", None)
    assert board("s") is None and board("s", computer=True) == ("skip", None)
    assert board("x") is None
    assert keymap.command("w", "replay") is None and keymap.command("w", "board", focus="input") is None


def test_enter_scores_and_never_rolls(keymap):
    """Enter on Roll, or with no button focused, chooses the box marked best; on a box it is
    that box's own click; on another button (Undo, Hint, Menu) that button's own; while a
    computer plays it is nothing."""
    board = lambda key, **kw: keymap.command(key, "board", dice_count=5, **kw)  # noqa: E731
    assert board("Enter") == board("Enter", focus="body") == ("best", None)
    assert board("Enter", focus="button", control="roll") == ("best", None)
    assert board("Enter", focus="button", control="box") is None
    assert board("Enter", focus="button") is None
    assert board("Enter", computer=True) is None
    assert keymap.command("Enter", "board", focus="button", control="roll", dialog="hint-dialog") is None


def test_a_game_key_hurries_a_computers_turn(keymap):
    """While a computer plays, R and a die's number hurry its turn (as S skips it); Undo
    stays Undo (the moment before its first roll is the person's)."""
    computer = lambda key: keymap.command(key, "board", dice_count=5, computer=True)  # noqa: E731
    assert computer("r") == computer("R") == computer("1") == computer("5") == ("hurry", None)
    assert computer("6") is None  # no sixth die
    assert computer("u") == ("undo", None) and computer("h") == ("hint", None)
    assert computer("ArrowDown") == ("focus", 1)


def test_a_dialog_that_only_shows_something_is_closed_by_a_game_key_that_then_plays(keymap):
    """The hint and the rules: R, U, a die's number close the dialog and act on the board;
    H closes the hint it opened (and opens it from the rules); arrows, Enter, Backspace
    and other keys are the dialog's. The confirm dialog (it asks) takes no game key."""
    light = lambda key, dialog="hint-dialog", **kw: keymap.command(  # noqa: E731
        key, "board", focus="button", dialog=dialog, dice_count=5, **kw)
    assert light("r") == ("dialog", ("roll", None))
    assert light("u", dialog="rules") == ("dialog", ("undo", None))
    assert light("3") == ("dialog", ("die", 2))
    assert light("h") == ("dialog", None)
    assert light("h", dialog="rules") == ("dialog", ("hint", None))
    assert light("r", computer=True) == ("dialog", ("hurry", None))
    assert light("s", computer=True) == ("dialog", ("skip", None))
    assert light("4", entering=True) == ("dialog", ("face", 4))
    for key in ("ArrowDown", "ArrowUp", "Enter", " ", "Escape", "Tab", "x"):
        assert light(key) is None, key
    assert light("Backspace", entering=True) is None
    assert light("r", modified=True) is None
    assert light("r", dialog="confirm") is None and light("r", dialog=True) is None
    assert keymap.command("ArrowRight", "replay", dialog="rules") is None


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
