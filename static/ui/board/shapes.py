# What the UI relies on in data it did not just receive from the engine: a view kept in
# storage (drawn at boot before the engine answers) and the few words stored beside a
# save for the home lists. Plain Python (no js, no DOM): tested in CPython
# (tests/unit/test_ui_shapes.py).
#
#   view_problem(view)      None when the board can draw ``view``, else what is wrong
#   acting_side(view)       the side whose action the view reports (None if none)
#   list_fields(entry, view, stored)  the stored entry's list fields, each valid or replaced
#   size_text(chars)        "3.1 MB": the size of a stored value, for messages


def _int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _num(x):
    return (isinstance(x, int) or isinstance(x, float)) and not isinstance(x, bool)


def _str(x):
    return isinstance(x, str)


def _bool(x):
    return isinstance(x, bool)


def _list_of(x, check, length=None):
    if not isinstance(x, list) or (length is not None and len(x) != length):
        return False
    for item in x:
        if not check(item):
            return False
    return True


def _opt(check):
    return lambda x: x is None or check(x)


# field -> check of its value (every field the board, the words and the screens read)
VIEW_FIELDS = (
    ("variant", _str), ("title", _str), ("options", lambda x: isinstance(x, dict)),
    ("dice_count", _int), ("boxes_per_turn", _int), ("sides", lambda x: isinstance(x, list)),
    ("order", lambda x: isinstance(x, list)), ("rolloff", lambda x: isinstance(x, list)),
    ("current", _opt(_int)), ("player", _opt(_str)), ("round", _int), ("turns", _int),
    ("dice", _opt(lambda x: _list_of(x, _int))), ("held", lambda x: _list_of(x, _bool)),
    ("rolls", _int), ("rolls_left", _int), ("sheet", _bool), ("can_roll", _bool),
    ("can_hold", _bool), ("can_enter", _bool), ("can_undo", _bool),
    ("rows", lambda x: isinstance(x, list)), ("over", _bool),
    ("auto_win", _opt(lambda x: isinstance(x, dict))), ("settlement", _opt(lambda x: isinstance(x, list))),
    ("last", _opt(lambda x: isinstance(x, dict))),
    # who acts and what a person may do, the split's sizes, what happened: a view stored
    # by an older build lacks them, and is then not drawn (the engine's view of its save is)
    ("acting", _opt(lambda x: isinstance(x, dict))), ("holdable", lambda x: _list_of(x, _int)),
    ("scorable", lambda x: _list_of(x, _str)), ("split_sizes", _opt(lambda x: _list_of(x, _int))),
    ("events", lambda x: _list_of(x, lambda e: isinstance(e, dict))),
)

SIDE_FIELDS = (
    ("name", _str), ("members", lambda x: _list_of(x, _str)), ("player", _opt(_str)),
    ("computer", _opt(_str)), ("total", _num), ("subtotals", lambda x: isinstance(x, dict)),
    ("place", _opt(_int)), ("paper", _opt(lambda x: isinstance(x, dict))),
)

CELL_FIELDS = (("value", _opt(_num)), ("text", _str))


def _fields(obj, fields, where):
    if not isinstance(obj, dict):
        return where + " is not an object"
    for name, check in fields:
        if name not in obj:
            return where + ": no " + name
        if not check(obj[name]):
            return where + ": bad " + name
    return None


def view_problem(view):
    """None when ``view`` has every field the board draws, of the right type and in
    range (sides, rows, dice, the side to play); else a few words on what is wrong."""
    bad = _fields(view, VIEW_FIELDS, "view")
    if bad:
        return bad
    n = len(view["sides"])
    if n < 1:
        return "view: no sides"
    for i, side in enumerate(view["sides"]):
        bad = _fields(side, SIDE_FIELDS, "side " + str(i))
        if bad:
            return bad
    if not _list_of(view["order"], lambda i: _int(i) and 0 <= i < n):
        return "view: bad order"
    cur = view["current"]
    if cur is None:
        if not view["over"]:
            return "view: no side to play"
    elif not 0 <= cur < n:
        return "view: bad current"
    count = view["dice_count"]
    if len(view["held"]) != count or (view["dice"] is not None and len(view["dice"]) != count):
        return "view: bad dice"
    if view["boxes_per_turn"] not in (1, 2):
        return "view: bad boxes_per_turn"
    for r, row in enumerate(view["rows"]):
        if not isinstance(row, dict) or not _str(row.get("box")) or not _bool(row.get("mandatory")):
            return "row " + str(r) + " is bad"
        cells = row.get("cells")
        if not isinstance(cells, list) or len(cells) != n:
            return "row " + str(r) + ": bad cells"
        for cell in cells:
            bad = _fields(cell, CELL_FIELDS, "row " + str(r))
            if bad:
                return bad
            # a playable cell says whether choosing it is a scratch, and what it sends
            if cell.get("playable") and not (_bool(cell.get("scratch")) and "request" in cell and
                                             _opt(lambda x: isinstance(x, dict))(cell["request"])):
                return "row " + str(r) + ": bad playable cell"
    sizes = view["split_sizes"]
    if (sizes is None) != (view["boxes_per_turn"] == 1) or (sizes is not None and (
            len(sizes) != view["boxes_per_turn"] or sum(sizes) != count)):
        return "view: bad split_sizes"
    win = view["auto_win"]
    if win is not None and not (_int(win.get("side")) and 0 <= win["side"] < n and _str(win.get("kind"))):
        return "view: bad auto_win"
    return None


def acting_side(view):
    """The side whose action ``view`` reports: the one named by its last action, else
    the side that won at once (five alike served: the game is over, no side is to
    play), else the side to play."""
    n = len(view["sides"])
    for holder in (view.get("last"), view.get("auto_win")):
        side = holder.get("side") if isinstance(holder, dict) else None
        if _int(side) and 0 <= side < n:
            return side
    cur = view.get("current")
    return cur if _int(cur) and 0 <= cur < n else None


def _result_row(r):
    return (isinstance(r, list) and len(r) == 3 and _str(r[0]) and _opt(_int)(r[1]) and _num(r[2]))


# list field -> (check, what the view says, the value when neither is usable)
def _from_view(view, stored=None):
    """The list fields a drawable ``view`` says; ``stored``, the view stored with the entry
    even when it cannot be drawn (an older build's), still says whether the game is a
    score-sheet game (its ``sheet``, in every stored view since score-sheet games exist)."""
    found = {}
    if isinstance(stored, dict) and _bool(stored.get("sheet")):
        found["sheet"] = stored["sheet"]
    if view is None:
        return found
    sides = view["sides"]
    found.update({
        "variant": view["variant"], "title": view["title"], "names": [s["name"] for s in sides],
        "over": view["over"], "round": view["round"], "turns": view["turns"],
        "result": [[s["name"], s["place"], s["total"]] for s in sides] if view["over"] else None,
        "sheet": view["sheet"],
    })
    return found


LIST_FIELDS = (
    ("created", _opt(_num), None), ("updated", _opt(_num), None), ("variant", _str, ""),
    ("title", _str, ""), ("names", lambda x: _list_of(x, _str), []), ("over", _bool, False),
    ("round", _opt(_int), None), ("turns", _opt(_int), None),
    ("result", _opt(lambda x: _list_of(x, _result_row)), None),
    ("sheet", _bool, False),  # a score-sheet game (the view's sheet, stored beside the save)
)


def list_fields(entry, view=None, stored=None):
    """(fields, bad): the entry's list fields, each as stored when valid, else as the
    drawable ``view`` says (the view is the game's own word; the list fields are a copy
    of it), else a neutral value; ``bad`` names the fields that were not valid.
    ``stored``: the view stored with the entry, drawable or not (the sheet mark of an
    entry stored before the list field was: its view's ``sheet``)."""
    derived = _from_view(view, stored)
    fields, bad = {}, []
    for name, check, neutral in LIST_FIELDS:
        value = entry.get(name)
        if check(value):
            fields[name] = value
            continue
        bad.append(name)
        fields[name] = derived.get(name, neutral)
    if fields["over"] and fields["result"] is None and derived.get("result"):
        bad.append("result")  # a finished game has a result
        fields["result"] = derived["result"]
    return fields, bad


def size_text(chars):
    """A stored value's size in MB, one decimal (a character of text taken as a byte)."""
    tenths = (int(chars) * 10 + 500000) // 1000000
    return str(tenths // 10) + "." + str(tenths % 10) + " MB"
