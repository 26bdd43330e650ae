"""How deep a JSON text or a JSON-plain value nests, found without recursion.

In the browser the engine runs in WebAssembly, where a deeply nested text
(a request, a save, an export, an inflated share link) can exhaust the stack in
``json.loads`` or in any recursive walk before Python can raise RecursionError.
So nothing deep is ever parsed: the depth is measured first by a linear scan
that skips strings (and the escapes in them), and anything deeper than a real
document could be is refused with a reason.

The deepest document the engine writes is an export file: file, games list,
entry, save, history, roll-off round, [side, dice] pair, dice: 8 levels; a
request around it adds one or two. ``MAX_DEPTH`` leaves a wide margin.
"""
from __future__ import annotations

import json
import re

MAX_DEPTH = 32

# A JSON string (with any escapes), or one bracket. Everything else is skipped.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


def text_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of a JSON text (0 for a scalar), scanning no further than ``limit + 1``
    levels: a text deeper than ``limit`` returns ``limit + 1``."""
    depth = deepest = 0
    for match in _TOKEN.finditer(text):
        ch = match.group()[0]
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def value_depth(value, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of a parsed value (lists and dicts), found with an explicit stack;
    stops at ``limit + 1``."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def too_deep(value, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` (a JSON text or a parsed value) is refused for its nesting: it nests
    more than ``limit`` levels deep (no real document nests more than 10)."""
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", "replace")
    depth = text_depth(value, limit) if isinstance(value, str) else value_depth(value, limit)
    return depth > limit


def loads(text: str, error, what: str):
    """``json.loads`` of a text known to nest at most ``MAX_DEPTH`` levels. A text too deep or
    not JSON raises ``error`` (an error class) with the code ``<what>.too_deep`` (params
    ``depth``) or ``<what>.not_json`` (``line``, ``column``): ``what`` is ``request``,
    ``save``, ``import`` or ``link``."""
    if too_deep(text):
        raise error(CODES[what][0], {"depth": MAX_DEPTH})
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise error(CODES[what][1], {"line": err.lineno, "column": err.colno}) from None
    except (ValueError, RecursionError):
        raise error(CODES[what][1], {"line": 0, "column": 0}) from None


#: Each kind of text: its refusals when too deep and when not JSON.
CODES = {
    "request": ("request.too_deep", "request.not_json"),
    "save": ("save.too_deep", "save.not_json"),
    "import": ("import.too_deep", "import.not_json"),
    "link": ("link.too_deep", "link.not_json"),
}
