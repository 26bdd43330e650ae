"""The score-sheet screens' page helpers in CPython: typed dice, the paper sheet of seed 000 built
from the engine's view (on a small fake DOM), and the score chart's points.

The UI modules run in MicroPython in the page; their logic is plain Python, so they
are imported here with stand-ins for `js` and `pyscript` (text-only fake elements)."""
import sys
import tomllib
import types
from pathlib import Path

import pytest

from generala import app

from tools import ui_modules

ROOT = Path(__file__).resolve().parents[2]
UI_PATHS = [str(ui_modules.UI)]
SEED_000 = tomllib.loads((ROOT / "tests" / "data" / "seed_000_sheets.toml").read_text(encoding="utf-8"))


class Node:
    """Just enough of a DOM element: tag, attributes, text, children."""

    def __init__(self, tag):
        self.tag, self.attrs, self.children, self.className, self._text = tag, {}, [], "", None

    def setAttribute(self, name, value):
        self.attrs[name] = value

    def getAttribute(self, name):
        return self.attrs.get(name)

    def appendChild(self, child):
        self.children.append(child)
        return child

    @property
    def textContent(self):
        return self._text if self._text is not None else "".join(c.textContent for c in self.children)

    @textContent.setter
    def textContent(self, value):
        self._text, self.children = value, []

    def find(self, pred):
        found = [self] if pred(self) else []
        for c in self.children:
            found += c.find(pred)
        return found


@pytest.fixture(scope="module")
def ui():
    """The UI modules, imported with stand-ins for js / pyscript; removed afterwards."""
    document = types.SimpleNamespace(createElement=Node, createElementNS=lambda ns, tag: Node(tag))
    stubs = {
        "js": types.SimpleNamespace(generala=types.SimpleNamespace(batch=None), document=document),
        "pyscript": types.SimpleNamespace(document=document),
        "pyscript.ffi": types.SimpleNamespace(create_proxy=lambda f: f),
    }
    saved = {name: sys.modules.get(name) for name in stubs}
    sys.modules.update(stubs)
    sys.path[:0] = UI_PATHS
    try:
        from screens import chart
        from screens import papersheet
        from screens import sheetmode
        yield types.SimpleNamespace(papersheet=papersheet, sheetmode=sheetmode, chart=chart)
    finally:
        for path in UI_PATHS:
            sys.path.remove(path)
        ui_modules.forget()
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


@pytest.mark.parametrize("text,count,dice,error", [
    ("44126", 5, [4, 4, 1, 2, 6], None),
    ("4 4-1,2.6", 5, [4, 4, 1, 2, 6], None),
    ("1122334455", 10, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], None),
    ("1270", 5, [1, 2], "“7” is not a die face"),
    ("123456", 5, [1, 2, 3, 4, 5], "5 dice at most"),
    ("", 5, [], None),
])
def test_typed_dice(ui, text, count, dice, error):
    got, problem = ui.sheetmode.parse_dice(text, count)
    assert got == dice
    assert (problem is None) if error is None else (error in problem)


def seed_000_view():
    players = SEED_000["player"]
    s = app.Session()
    s.handle({"op": "new", "variant": "bulgarian", "sheet": True, "sides": [p["name"] for p in players]})
    view = None
    for turn in range(15):
        for p in players:
            box, _, dice = p["cells"][turn]
            dice = [int(c) for c in dice.split("-")] if dice else [1, 1, 2, 2, 6]
            assert s.handle({"op": "enter", "dice": dice, "at": 3})["ok"]
            view = s.handle({"op": "score", "box": box})["view"]
    return view


def test_the_paper_sheet_of_seed_000(ui):
    table = ui.papersheet.sheet_table(seed_000_view(), "paper-sheet")
    rows = {tr.attrs.get("data-row") or tr.attrs.get("data-sum"): tr
            for tr in table.find(lambda n: n.tag == "tr")}

    def line(key):
        tr = rows[key]
        return [tr.children[0].textContent] + [td.textContent for td in tr.children[1:]]

    # the printed table of /work/shared/seeds/000, column by column
    assert line("ones") == ["1", "O", "O", "O", "O"]
    assert line("twos") == ["2", "O", "+2", "O", "−2"]
    assert line("fours") == ["4", "−4", "+4", "+8", "+4"]
    assert line("sixes") == ["6", "O", "−6", "O", "O"]
    # the −50 is written once the mandatory part is complete and negative (U+2212, not a hyphen)
    assert line("mandatory")[1:] == ["−4 − 50 = −54", "O", "+11", "+2"]
    assert line("small-straight")[1:] == ["—", "15", "15", "15"]
    assert line("general")[1:] == ["—", "—", "60", "80"]
    assert line("combinations")[1:] == ["74", "117", "222", "210"]
    assert line("total")[0] == "Result"
    assert line("total")[1:] == ["74 − 54 = 20", "0 + 117 = 117", "11 + 222 = 233", "2 + 210 = 212"]
    assert line("place")[1:] == ["IV", "III", "I", "II"]
    # row order: 1-6, the mandatory line, then the combinations
    order = [tr.attrs.get("data-row") or tr.attrs.get("data-sum") for tr in table.find(lambda n: n.tag == "tr")][1:]
    assert order[:7] == ["ones", "twos", "threes", "fours", "fives", "sixes", "mandatory"]
    assert order[-3:] == ["combinations", "total", "place"]


def test_other_games_have_numbers_combinations_total_and_place(ui):
    s = app.Session()
    s.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "sheet": True})
    s.handle({"op": "enter", "dice": [6, 6, 6, 6, 6], "at": 1})  # served Generala: over
    table = ui.papersheet.sheet_table(s.handle({"op": "view"})["view"])
    sums = [tr.attrs.get("data-sum") for tr in table.find(lambda n: n.tag == "tr") if "data-sum" in tr.attrs]
    assert sums == ["numbers", "combinations", "total", "place"]
    place = next(tr for tr in table.find(lambda n: n.tag == "tr") if tr.attrs.get("data-sum") == "place")
    assert [td.textContent for td in place.children[1:]] == ["1st", "2nd"]


def test_the_chart_has_a_point_per_game_in_the_box(ui):
    svg = ui.chart.score_chart([("a", 120), ("b", -10), ("c", 233)], "Scores")
    dots = svg.find(lambda n: n.tag == "circle")
    assert [d.attrs["data-score"] for d in dots] == ["120", "-10", "233"]
    for d in dots:
        assert 0 <= float(d.attrs["cx"]) <= ui.chart.W and 0 <= float(d.attrs["cy"]) <= ui.chart.H
    assert float(dots[2].attrs["cy"]) < float(dots[0].attrs["cy"]) < float(dots[1].attrs["cy"])
    assert ui.chart.score_chart([], "none").attrs["data-points"] == "0"
    assert len(ui.chart.score_chart([("x", 5)]).find(lambda n: n.tag == "circle")) == 1
