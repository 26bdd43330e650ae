# Keyboard play, the DOM side: one keydown listener for the whole page reads the
# event and runs the command keymap.py names (the key map itself is there).
from pyscript import document

from web.dom import each
from page.keymap import command


def move_focus(step):
    """Focus the next/previous visible score box of the current side."""
    boxes = [b for b in each(document.querySelectorAll("#sheet button.box")) if not b.hidden and not b.disabled]
    if not boxes:
        return
    active = document.activeElement
    idx = -1
    for i, b in enumerate(boxes):
        if b == active or b.isSameNode(active):
            idx = i
            break
    if idx < 0:
        nxt = 0 if step > 0 else len(boxes) - 1
    else:
        nxt = (idx + step) % len(boxes)
    boxes[nxt].focus()


def score_best(game):
    """Enter away from the boxes: the box the view marks best is chosen (as its click);
    with none marked, the keyboard goes to the first box to fill. Never a roll."""
    best = document.querySelector("#sheet button.box.best:not([hidden]):not(:disabled)")
    if best is not None:
        best.focus()
        game.pick_box(str(best.getAttribute("data-box")))
        return
    first = document.querySelector("#sheet button.box:not([hidden]):not(:disabled):not(.refused)")
    if first is not None:
        first.focus()


def focused_control(target):
    """What keymap.command calls the focused element: "roll", "box" or ""."""
    if target is None or str(target.tagName or "").lower() != "button":
        return ""
    if str(target.id or "") == "roll":
        return "roll"
    return "box" if target.classList.contains("box") else ""


def open_dialog():
    """The open dialog's id (True for one without an id), None when none is open."""
    dialog = document.querySelector("dialog[open]")
    if dialog is None:
        return None
    return str(dialog.id or "") or True


def handle(event, game, screen, sheet, replay, computer, coach, chances):
    """``game`` is the controller (its actions); ``sheet`` score-sheet mode's entry;
    ``replay`` the replay screen (None until built); ``computer`` the computer players
    (skip, hurry); ``coach`` the hint; ``chances`` the win chances (said on request)."""
    target = event.target
    where = ("board" if screen.board_visible() else
             "replay" if replay is not None and not replay.root.hidden and replay.view is not None else "")
    found = command(str(event.key), where, focus=str(target.tagName or "").lower() if target else "",
                    modified=bool(event.ctrlKey or event.metaKey or event.altKey),
                    dialog=open_dialog(),
                    dice_count=game.dice_count(), entering=sheet.entering(),
                    computer=computer.computer_turn(), control=focused_control(target))
    if found is None:
        return
    event.preventDefault()
    name, arg = found
    if name == "dialog":
        # A dialog that only shows something (the hint, the rules) is closed by a game
        # key, which then plays. The focus it gives back stays on the board; one given to
        # a control off the board (the Rules button) is let go, and the board's reply
        # then focuses the next thing to do (navigation.refocus).
        document.querySelector("dialog[open]").close()
        active = document.activeElement
        if active is not None and active != document.body and active.closest("#board") is None:
            active.blur()
        if arg is None:
            return
        name, arg = arg
    if name == "roll":
        game.roll()
    elif name == "undo":
        game.undo()
    elif name == "die":
        game.toggle(arg)
    elif name == "focus":
        move_focus(arg)
    elif name == "best":
        score_best(game)
    elif name == "skip":
        computer.skip()
    elif name == "hurry":
        computer.hurry()
    elif name == "hint":
        coach.hint()
    elif name == "chances":
        chances.say()
    elif name == "face":
        sheet.add(arg)
    elif name == "unface":
        sheet.remove(len(sheet.dice) - 1)
    elif name == "enter":
        sheet.submit()
    elif name == "replay":
        replay.key(arg)
