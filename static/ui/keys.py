# Keyboard play: R roll, U undo, 1-5 (ten dice: 1-9 and 0) toggle a die,
# arrow keys move between the boxes you can fill, Enter/Space press the focused box.
from pyscript import document

from dom import each


def die_index(key, count):
    if len(key) == 1 and "0" <= key <= "9":
        i = 9 if key == "0" else int(key) - 1
        if i < count:
            return i
    return None


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


def handle(event, game):
    """``game`` is the controller: roll(), undo(), toggle(i), board_visible(), dice_count()."""
    if event.ctrlKey or event.metaKey or event.altKey:
        return
    if not game.board_visible() or document.querySelector("dialog[open]"):
        return
    target = event.target
    tag = str(target.tagName or "").lower() if target else ""
    if tag in ("input", "select", "textarea"):
        return
    key = str(event.key)
    if key in ("r", "R"):
        event.preventDefault()
        game.roll()
    elif key in ("u", "U"):
        event.preventDefault()
        game.undo()
    elif key in ("ArrowDown", "ArrowRight"):
        event.preventDefault()
        move_focus(1)
    elif key in ("ArrowUp", "ArrowLeft"):
        event.preventDefault()
        move_focus(-1)
    else:
        i = die_index(key, game.dice_count())
        if i is not None:
            event.preventDefault()
            game.toggle(i)
