# Keyboard play, the DOM side: one keydown listener for the whole page reads the
# event and runs the command keymap.py names (the key map itself is there).
from js import document

from dom import each
from keymap import command

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


def handle(event, game, screen):
    """``game`` is the controller: its actions, and the screens that take keys."""
    target = event.target
    replay = game.features.replay
    where = ("board" if screen.board_visible() else
             "replay" if not replay.root.hidden and replay.view is not None else "")
    computer = game.computer
    found = command(str(event.key), where, focus=str(target.tagName or "").lower() if target else "",
                    modified=bool(event.ctrlKey or event.metaKey or event.altKey),
                    dialog=document.querySelector("dialog[open]") is not None,
                    dice_count=game.dice_count(), entering=game.features.sheet.entering(),
                    computer=computer.computer_turn())
    if found is None:
        return
    event.preventDefault()
    name, arg = found
    sheet = game.features.sheet
    if name == "roll":
        game.roll()
    elif name == "undo":
        game.undo()
    elif name == "die":
        game.toggle(arg)
    elif name == "focus":
        move_focus(arg)
    elif name == "skip":
        computer.skip()
    elif name == "hint":
        game.coach.hint()
    elif name == "face":
        sheet.add(arg)
    elif name == "unface":
        sheet.remove(len(sheet.dice) - 1)
    elif name == "enter":
        sheet.submit()
    elif name == "replay":
        replay.key(arg)
