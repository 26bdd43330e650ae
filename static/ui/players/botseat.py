# The player's saved bots (the Bot lab's, kept in this browser under STORE: a list of
# {"name", "code"}) and what a game needs of them: the setup form offers each one for a
# seat, and a seat a bot plays names it in the game ({"name", "hash"}, the view's
# sides[i].bot); the computer's part (computer.py) finds its code by that name and hash
# to ask the bot's own worker for its moves (static/js/bot-lab.mjs choose). The hash is
# FNV-1a (64 bits) of the code's UTF-8 bytes, in hex: it tells a renamed bot, and a
# bot whose code changed since the game began.
import json

import js

STORE = "generala.bots"
_listeners = []
_hashes = {}  # code -> its hash (the board looks its bots up at every drawing)


def load_bots():
    """The saved bots, in the order they were saved: [{"name", "code"}]."""
    try:
        raw = js.generala.storage.get(STORE)
        items = json.loads(str(raw)) if raw else []
        return [b for b in items if isinstance(b, dict) and "name" in b and "code" in b]
    except Exception:
        return []


def save_bots(items):
    """Store the saved bots; the parts that offer them (the setup form) hear of it."""
    js.generala.storage.set(STORE, json.dumps(items))
    for fn in _listeners:
        fn()


def listen(fn):
    """Call ``fn()`` whenever the saved bots change in this page."""
    _listeners.append(fn)


def source_hash(text):
    """FNV-1a (64 bits) of the code's UTF-8 bytes, 16 hex digits."""
    text = str(text)
    known = _hashes.get(text)
    if known is not None:
        return known
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    if len(_hashes) > 32:
        _hashes.clear()
    _hashes[text] = "%016x" % h
    return _hashes[text]


def seat_of(name):
    """A seat's ``bot`` for the saved bot called ``name``: {"name", "hash"}, or None."""
    for b in load_bots():
        if b["name"] == name:
            return {"name": b["name"], "hash": source_hash(b["code"])}
    return None


def find(bot):
    """The saved bot a seat names (``bot``: the view's {"name", "hash"}): ``(code, changed)``,
    the same code found by its hash first (a renamed bot too), else the bot of that name
    (``changed``: its code is not the one the game began with); ``(None, False)`` when this
    browser no longer keeps it."""
    bots = load_bots()
    for b in bots:
        if source_hash(b["code"]) == bot["hash"]:
            return b["code"], False
    for b in bots:
        if b["name"] == bot["name"]:
            return b["code"], True
    return None, False
