"""The seed 000 score table (Bulgarian "Генерал"), rebuilt through Rules.score.

Data: tests/data/seed_000_sheets.toml — every printed cell with dice that earn it.
Check against RULES.md: Петя 74 − 54 = 20; Румен 0 + 117 = 117; Вера 11 + 222 = 233;
Жоро 2 + 210 = 212; places Вера I, Жоро II, Румен III, Петя IV.
"""
import tomllib
from pathlib import Path

import pytest

import generala

DATA = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "data" / "seed_000_sheets.toml").read_text("utf-8")
)
PLAYERS = DATA["player"]
EXAMPLES = DATA["examples"]
COLUMNS = PLAYERS + [EXAMPLES]


def printed_points(cell):
    """'O' (done) and '-' (scratched) are 0; '+4', '-4', '12' are numbers."""
    if cell in ("O", "-"):
        return 0
    return int(cell)


def dice(text):
    return tuple(int(d) for d in text.split("-"))


def build_sheet(rules, column):
    """Fill each box with what its dice earn; a '-' cell is a scratch (0)."""
    sheet = {}
    for box, cell, text in column["cells"]:
        if cell == "-":
            sheet[box] = 0
        else:
            sheet[box] = rules.score(box, dice(text), roll=1, sheet=sheet)
    return sheet


def cell_params():
    for column in COLUMNS:
        for box, cell, text in column["cells"]:
            if cell != "-":
                yield pytest.param(box, cell, text, id=f"{column['name']}-{box}-{cell}")


@pytest.mark.parametrize("box, cell, text", cell_params())
@pytest.mark.parametrize("roll", [1, 2, 3])
def test_each_printed_cell_is_earned_by_its_dice(box, cell, text, roll):
    rules = generala.variant("bulgarian")
    assert rules.score(box, dice(text), roll=roll) == printed_points(cell)


@pytest.mark.parametrize("column", COLUMNS, ids=lambda c: c["name"])
def test_each_sheet_fills_every_bulgarian_box_once(column):
    rules = generala.variant("bulgarian")
    boxes = [box for box, _, _ in column["cells"]]
    assert tuple(boxes) == rules.categories


@pytest.mark.parametrize("column", COLUMNS, ids=lambda c: c["name"])
def test_rebuilt_sheet_matches_every_printed_cell(column):
    rules = generala.variant("bulgarian")
    sheet = build_sheet(rules, column)
    assert sheet == {box: printed_points(cell) for box, cell, _ in column["cells"]}


@pytest.mark.parametrize("column", COLUMNS, ids=lambda c: c["name"])
def test_seed_sheet_subtotals_and_total(column):
    rules = generala.variant("bulgarian")
    sheet = build_sheet(rules, column)
    sub = rules.subtotals(sheet)
    got = (sub["mandatory"], sub["penalty"], sub["combinations"], sub["total"])
    want = (column["mandatory"], column["penalty"], column["combinations"], column["total"])
    assert got == want
    assert rules.total(sheet) == column["total"]


@pytest.mark.parametrize("player", PLAYERS, ids=lambda c: c["name"])
def test_printed_mandatory_row_is_the_sum_with_the_minus_50_penalty(player):
    # The row under the mandatory part prints Петя's -4 as -54.
    rules = generala.variant("bulgarian")
    sub = rules.subtotals(build_sheet(rules, player))
    assert sub["mandatory"] + sub["penalty"] == player["printed_mandatory"]
    assert sub["total"] == player["printed_mandatory"] + player["combinations"]


def test_seed_totals_are_20_117_233_212():
    rules = generala.variant("bulgarian")
    totals = [rules.total(build_sheet(rules, p)) for p in PLAYERS]
    assert [p["name"] for p in PLAYERS] == ["Петя", "Румен", "Вера", "Жоро"]
    assert totals == [20, 117, 233, 212]


def test_seed_ranking_is_IV_III_I_II():
    rules = generala.variant("bulgarian")
    totals = [rules.total(build_sheet(rules, p)) for p in PLAYERS]
    places = list(generala.ranking(totals))
    assert places == [p["place"] for p in PLAYERS] == [4, 3, 1, 2]
