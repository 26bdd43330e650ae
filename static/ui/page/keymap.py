# The page's one key map: which command a key press is, from the key and where the
# page is (no DOM: unit-tested in CPython; keys.py reads the event and runs the command).
#
#   board    R roll, U undo, 1-5 (ten dice: 1-9 and 0) hold or free a die, arrows move
#            between the boxes to fill, Enter scores the focused box (the button's own
#            click) or, from Roll or nowhere in particular, the box marked best: Enter
#            never rolls; S skip a computer's turn, H the coach's hint, W the win
#            chances said; while a computer plays, R and a die's number hurry its turn
#            as S does
#   score-sheet dice being entered: 1-6 add a face, Backspace takes the last one
#            back, Enter enters them (unless a button or a field has the focus)
#   replay   Left/Right a step, PageUp/PageDown a turn, Home/End the first/last step
#
# Nothing is a command with Ctrl, Alt or Meta held, or while the focus is in a text
# field or a menu (the key is typed there). A dialog that asks something (the confirm
# dialog) takes no game key; one that only shows something (LIGHT: the hint, the rules)
# is closed by a game key, which then plays on the board ("dialog", the command): no
# key is swallowed there, and H closes the hint it opened. Arrows, Enter, Space and
# Esc stay the dialog's own.

REPLAY = {"ArrowRight": "next", "ArrowLeft": "prev", "Home": "first", "End": "last",
          "PageDown": "next_turn", "PageUp": "prev_turn"}
FIELDS = ("input", "select", "textarea")
LIGHT = ("hint-dialog", "rules")  # the ids of the dialogs that only show something


def die_index(key, count):
    """The die a digit key names: 1 is the first, 0 the tenth; None past ``count``."""
    if len(key) == 1 and "0" <= key <= "9":
        i = 9 if key == "0" else int(key) - 1
        if i < count:
            return i
    return None


def command(key, where, focus="", modified=False, dialog=None, dice_count=0,
            entering=False, computer=False, control=""):
    """``(name, argument)`` for a key press, or None when the key is not a command.

    ``where``: "board", "replay" or another screen; ``focus``: the focused element's
    tag name in lower case; ``dialog``: the id of the open dialog (True: one that is not
    LIGHT), None when none is open; ``entering``: score-sheet dice are being entered;
    ``computer``: a computer side is playing; ``control``: the focused button, when it is
    Roll ("roll") or a box to fill ("box")."""
    if modified or focus in FIELDS:
        return None
    if dialog:
        if dialog not in LIGHT or where != "board":
            return None
        found = command(key, where, "button", dice_count=dice_count, entering=entering, computer=computer)
        if found is None or found[0] in ("focus", "enter", "unface", "best"):
            return None  # arrows, Enter and Backspace are the dialog's (its buttons, its text)
        if found[0] == "hint" and dialog == "hint-dialog":
            return ("dialog", None)  # H again: the hint closes
        return ("dialog", found)
    if where == "replay":
        return ("replay", REPLAY[key]) if key in REPLAY else None
    if where != "board":
        return None
    if entering:
        if len(key) == 1 and key in "123456":
            return ("face", int(key))
        if key == "Backspace":
            return ("unface", None)
        if key == "Enter" and focus != "button":
            return ("enter", None)
    if key in ("w", "W"):
        return ("chances", None)  # said, whoever plays
    if computer:
        if key in ("s", "S"):
            return ("skip", None)
        if key in ("r", "R") or die_index(key, dice_count) is not None:
            return ("hurry", None)
    elif key == "Enter" and (focus != "button" or control == "roll"):
        return ("best", None)  # a box's own Enter is its click; another button's is its own
    if key in ("r", "R"):
        return ("roll", None)
    if key in ("u", "U"):
        return ("undo", None)
    if key in ("ArrowDown", "ArrowRight"):
        return ("focus", 1)
    if key in ("ArrowUp", "ArrowLeft"):
        return ("focus", -1)
    if key in ("h", "H"):
        return ("hint", None)
    if not entering:
        i = die_index(key, dice_count)
        if i is not None:
            return ("die", i)
    return None
