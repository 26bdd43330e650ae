# Small DOM helpers for the MicroPython UI. Text only ever reaches the DOM as
# text (textContent / createTextNode): never innerHTML, so a name or a saved text
# is never read as markup.
import json

import js
from pyscript import document
from pyscript.ffi import create_proxy

from words import words

_proxies = []  # keep event handlers alive for the page's lifetime
LINK_MAX = 70_000  # characters of a link, in the address or pasted: above the engine's longest token (64,000)


def byid(name):
    return document.getElementById(name)


def saved_items():
    """(li, game id) for each game in the home screen's lists (Continue, then Finished):
    the screens that add a button to every saved game (replay, export) walk these."""
    out = []
    for list_id in ("continue-list", "history-list"):
        ul = byid(list_id)
        if ul is None:
            continue
        items = ul.children
        for k in range(items.length):
            li = items.item(k)
            gid = li.getAttribute("data-save")
            if gid:
                out.append((li, gid))
    return out


def address_link(prefix):
    """The link in the address after ``prefix`` ("#play=", "#replay="): (token, length),
    token None when there is none or when it is longer than any link (LINK_MAX). The
    length is read before any of it is copied here (static/js/link-secrets.mjs): an
    address of megabytes never reaches MicroPython."""
    found = js.generala.linkSecrets.addressToken(prefix, LINK_MAX)
    token = found.token
    return (None if token is None else str(token)), int(found.length)


def el(tag, cls=None, text=None, attrs=None):
    node = document.createElement(tag)
    if cls:
        node.className = cls
    if text is not None:
        node.textContent = str(text)
    if attrs:
        for key, value in attrs.items():
            node.setAttribute(key, str(value))
    return node


def clear(node):
    node.replaceChildren()


def on(node, event, handler):
    """``handler(event)`` for each ``event`` on ``node`` (a listener for the page's lifetime:
    the parts' own controls; the page's input is wired with pyscript.when, page_input.py)."""
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    node.addEventListener(event, proxy)
    return proxy


def message(text, kind="info"):
    """A visible note the player can dismiss (text only). Returns its node (its words are
    in its ".msg-text")."""
    box = byid("messages")
    p = el("p", "msg msg-" + kind)
    p.appendChild(el("span", "msg-text", text))
    p.appendChild(el("button", "btn small dismiss", words.t("msg.dismiss"), {"type": "button", "data-dismiss": "1"}))
    box.appendChild(p)
    return p


class Cache:
    """Remembers what was last written to each node so an update touches only what changed,
    and sends all the changes of one update to the DOM in ONE call (static/js/batch.mjs).

    Nodes are registered once (reg -> index). This caches the DOM's contents, not the
    game: the game lives in the engine.
    """

    def __init__(self):
        self.seen = {}
        self.ops = []
        js.generala.batch.reset()

    def reg(self, node):
        return js.generala.batch.register(node)

    def text(self, i, value):
        k = (i, "t")
        if self.seen.get(k) != value:
            self.seen[k] = value
            self.ops.append([i, "t", value])

    def attr(self, i, name, value):
        k = (i, name)
        if self.seen.get(k) != value:
            self.seen[k] = value
            self.ops.append([i, "a", name, value])

    def flag(self, i, name, value):
        """A boolean property such as hidden or disabled."""
        k = (i, name)
        if self.seen.get(k) != value:
            self.seen[k] = value
            self.ops.append([i, "p", name, value])

    def flush(self):
        if self.ops:
            js.generala.batch.apply(json.dumps(self.ops))
            self.ops = []


def each(collection):
    """The items of a NodeList / HTMLCollection as a Python list."""
    return [collection.item(i) for i in range(collection.length)]


def open_at_top(dialog, title):
    """Open a dialog that shows something (the rules, the hint) at its top: its title has
    the keyboard (Close sits beside it, at the top) and nothing is scrolled."""
    dialog.showModal()
    title.focus()
    dialog.scrollTop = 0
