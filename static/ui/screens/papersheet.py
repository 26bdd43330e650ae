# A read-only score sheet drawn from one view: the replay screen and the paper
# sheet of score-sheet mode use it. Bulgarian follows the paper sheet of seed 000
# (rows 1-6 with O/+n/-n marks, the mandatory line, the combinations, their sum,
# "Result" as mandatory + combinations = total, and "Ranking" in Roman numerals).
# Built with DOM calls, text only (names come from players).
from words import words
from web.dom import el

FACES = {"ones": "1", "twos": "2", "threes": "3", "fours": "4", "fives": "5", "sixes": "6"}
ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII"]
SUMS = ["numbers", "combinations", "total"]


def roman(n):
    if n is None:
        return ""
    return ROMAN[n] if 0 < n < len(ROMAN) else str(n)


MINUS = "\u2212"  # negative numbers are written with the minus sign, never a hyphen


def signed(n):
    """A mandatory-part figure as written on the paper: O, +11, −54."""
    if n == 0:
        return "O"
    return ("+" if n > 0 else MINUS) + str(abs(n))


def plain(n):
    return MINUS + str(-n) if n < 0 else str(n)


def mandatory_text(paper):
    """The mandatory line: the part's sum, and the −50 once the view says it is certain
    (the part is complete, or can no longer end non-negative): "−4 − 50 = −54"."""
    m = paper["mandatory"]
    if not paper["penalty"]:
        return signed(m)
    return signed(m) + " " + MINUS + " " + str(-paper["penalty"]) + " = " + signed(m + paper["penalty"])


def result_text(paper):
    """Bulgarian "Резултат" cell as written by hand: "4 + 22 = 26", "74 − 54 = 20"
    (the mandatory part with its −50 when certain, the combinations, the result).
    The figures are the view's (``side["paper"]``)."""
    m = paper["mandatory"] + paper["penalty"]
    c = paper["combinations"]
    if m < 0:
        return str(c) + " " + MINUS + " " + str(-m) + " = "
    return str(m) + " + " + str(c) + " = "


def _row(cls, label, cells, attrs=None):
    tr = el("tr", cls, None, attrs)
    tr.appendChild(el("th", None, label, {"scope": "row"}))
    for td in cells:
        tr.appendChild(td)
    return tr


def has_paper(view):
    """The game keeps a paper sheet of its own (a mandatory part, a result, places in
    roman numerals: the Bulgarian sheet): its sides carry the paper's figures."""
    return any(side.get("paper") is not None for side in view["sides"])


def sheet_table(view, ident=None, changed=None):
    """A <table class="paper"> of every side's sheet in ``view``. ``changed``: boxes of
    the side that just scored, marked (the replay's last action)."""
    sides = view["sides"]
    paper_sheet = has_paper(view)
    attrs = {"data-variant": view["variant"]}
    if ident:
        attrs["id"] = ident
    table = el("table", "paper sheet", None, attrs)
    table.appendChild(el("caption", "sr-only", words.t("papersheet.caption")))
    thead = el("thead")
    tr = el("tr")
    tr.appendChild(el("th", "box-h", words.t("papersheet.name" if paper_sheet else "papersheet.box"), {"scope": "col"}))
    for i, side in enumerate(sides):
        cls = "side-h current" if view["current"] == i and not view["over"] else "side-h"
        tr.appendChild(el("th", cls, side["name"], {"scope": "col", "data-side": i}))
    thead.appendChild(tr)
    table.appendChild(thead)
    tbody = el("tbody")
    marked = changed or {}
    rows = view["rows"]
    for k, row in enumerate(rows):
        box = row["box"]
        label = FACES.get(box, words.box(box)) if paper_sheet else words.box(box)
        cells = []
        for i, cell in enumerate(row["cells"]):
            cls = "just" if marked.get(i) and box in marked[i] else None
            cells.append(el("td", cls, cell["text"], {"data-side": i}))
        tr = _row("mandatory" if row["mandatory"] else None, label, cells, {"data-row": box})
        tbody.appendChild(tr)
        last_mandatory = row["mandatory"] and (k + 1 == len(rows) or not rows[k + 1]["mandatory"])
        if paper_sheet and last_mandatory:
            cells = [el("td", None, mandatory_text(s["paper"]), {"data-side": i}) for i, s in enumerate(sides)]
            tbody.appendChild(_row("sum", words.t("papersheet.mandatory_line"), cells, {"data-sum": "mandatory"}))
    table.appendChild(tbody)
    tfoot = el("tfoot")
    if paper_sheet:
        cells = [el("td", None, plain(s["subtotals"]["combinations"]), {"data-side": i})
                 for i, s in enumerate(sides)]
        tfoot.appendChild(_row("sum", words.t("papersheet.combinations_line"), cells, {"data-sum": "combinations"}))
        cells = []
        for i, s in enumerate(sides):
            td = el("td", None, None, {"data-side": i})
            td.appendChild(el("span", "result-sum", result_text(s["paper"])))
            td.appendChild(el("strong", "result-total", plain(s["paper"]["total"])))
            cells.append(td)
        tfoot.appendChild(_row("sum result", words.t("papersheet.result"), cells, {"data-sum": "total"}))
    else:
        for key in SUMS:
            cells = [el("td", None, plain(s["subtotals"].get(key, 0)), {"data-side": i})
                     for i, s in enumerate(sides)]
            tfoot.appendChild(_row("sum", words.SUBTOTALS.get(key, key), cells, {"data-sum": key}))
    if view["over"]:
        name = words.t("papersheet.ranking") if paper_sheet else words.t("papersheet.place")
        cells = [el("td", None, roman(s["place"]) if paper_sheet else words.ordinal(s["place"]),
                    {"data-side": i}) for i, s in enumerate(sides)]
        tfoot.appendChild(_row("sum place", name, cells, {"data-sum": "place"}))
    table.appendChild(tfoot)
    return table
