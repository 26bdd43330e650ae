"""Score-sheet mode: the table throws real dice and the page keeps the sheet.

The four players of seed 000 (Bulgarian) are entered turn by turn with dice that earn
each printed value (tests/data/seed_000_sheets.toml), ending with the printed totals
and places; a served Generala entered by hand wins at once; entries are corrected
with Undo; ten dice are entered and split; the Puerto Rican settlement is shown."""
import tomllib
from pathlib import Path

import pytest

from gamepage import pick_lang, gp, shared  # noqa: F401
from sheetpage import SheetPage

from generala import app

SEED_000 = tomllib.loads((Path(__file__).resolve().parents[1] / "data" / "seed_000_sheets.toml")
                         .read_text(encoding="utf-8"))
ZERO_DICE = [1, 1, 2, 2, 6]  # earns nothing in the straights and the General: a scratch


def digits(text):
    return [int(c) for c in text.split("-")] if text else []


def mirror(variant, names, options=None):
    s = app.Session()
    reply = s.handle({"op": "new", "variant": variant, "options": options or {}, "sheet": True,
                      "sides": [{"name": n, "members": [], "player": "human"} for n in names]})
    assert reply["ok"], reply
    return s


def test_seed_000_sheets_entered_by_hand(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    players = SEED_000["player"]
    names = [pl["name"] for pl in players]
    sp.new_game("bulgarian", names)
    assert p.is_hidden("#roll")
    m = mirror("bulgarian", names)
    for turn in range(15):
        for side, pl in enumerate(players):
            box, printed, dice = pl["cells"][turn]
            dice = digits(dice) or ZERO_DICE
            assert sp.current() == side
            sp.enter(dice, at=3, tap=turn == 0)  # the first round taps the faces
            assert sp.dice() == dice
            m.handle({"op": "enter", "dice": dice, "at": 3})
            sp.score(box)
            view = m.handle({"op": "score", "box": box})["view"]
            expected = "—" if printed == "-" else printed.replace("-", "\u2212")  # the minus sign
            assert sp.cell(box, side) == expected, (pl["name"], box)
            assert sp.paper(box, side) == expected, (pl["name"], box)
            assert sp.totals() == [s["total"] for s in view["sides"]]
    p.wait_for_selector("#over", state="visible")
    assert sp.totals() == [20, 117, 233, 212] == [pl["total"] for pl in players]
    # the paper sheet of seed 000: mandatory line, combinations, result, ranking
    assert sp.paper_sum("mandatory") == ["−4 − 50 = −54", "O", "+11", "+2"]
    assert sp.paper_sum("combinations") == ["74", "117", "222", "210"]
    assert p.eval_on_selector_all("#paper-sheet .result-total", "els => els.map(e => e.textContent)") \
        == ["20", "117", "233", "212"]
    assert sp.paper_sum("total")[0] == "74 − 54 = 20"
    assert sp.paper_sum("place") == ["IV", "III", "I", "II"]
    assert "Вера" in p.inner_text("#ranking li:first-child")
    assert p.is_hidden("#entry")


def test_served_generala_entered_by_hand_wins_and_entries_are_corrected(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    names = ("Ana", "Beto")
    sp.new_game("argentine", names)
    # a typo: corrected with Undo before choosing a box
    sp.enter([6, 6, 6, 2, 1], at=2)
    assert "Entered 6 6 6 2 1 on roll 2" in p.inner_text("#entry-note")
    assert "Entered 6 6 6 2 1 on roll 2" in p.text_content("#announce")
    sp.undo()
    assert p.is_visible("#entry") and p.is_hidden("#entry-note")
    sp.enter([6, 6, 6, 2, 2], at=2)
    assert sp.box("full-house").inner_text() == "30"
    sp.score("sixes")
    # the wrong box: Undo takes the box back, the dice stay entered
    sp.undo()
    assert sp.box("sixes").is_visible() and sp.dice() == [6, 6, 6, 2, 2]  # open again
    sp.score("full-house")
    assert sp.cell("full-house", 0) == "30" and sp.current() == 1
    # the served bonus comes from the roll number
    sp.enter([2, 3, 4, 5, 6], at=1)
    assert "(first roll)" in p.inner_text("#entry-note")
    m = mirror("argentine", names)
    m.handle({"op": "enter", "dice": [6, 6, 6, 2, 2], "at": 2})
    m.handle({"op": "score", "box": "full-house"})
    served = m.handle({"op": "enter", "dice": [2, 3, 4, 5, 6], "at": 1})["view"]
    assert sp.box("straight").inner_text() == str(next(
        r["cells"][1]["preview"] for r in served["rows"] if r["box"] == "straight"))
    sp.score("straight")
    # bad input is refused with a message, nothing is sent
    p.fill("#entry-text", "1234")
    p.click("#entry-ok")
    assert "Enter 5 dice (now 4)" in p.inner_text("#entry-error")
    p.fill("#entry-text", "12347")
    assert "“7” is not a die face" in p.inner_text("#entry-error")
    # Ana's served Generala: five alike on the first roll wins at once
    sp.enter([4, 4, 4, 4, 4], at=1)
    p.wait_for_selector("#over", state="visible")
    assert "Ana wins with a Generala on the first roll" in p.inner_text("#banner")
    assert "Ana entered 4 4 4 4 4 on roll 1: Ana wins with a Generala on the first roll" in p.text_content("#announce")
    assert "Ana" in p.inner_text("#ranking li:first-child")
    assert p.is_hidden("#entry")


@pytest.mark.cross_engine
def test_ten_dice_are_entered_and_split(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    sp.new_game("double", ("Ana",))
    assert p.locator("#entry-text").get_attribute("placeholder") == "1122334455"
    sp.enter([1, 1, 1, 1, 1, 2, 3, 4, 5, 6], at=2)
    assert sp.dice() == [1, 1, 1, 1, 1, 2, 3, 4, 5, 6]
    m = mirror("double", ("Ana",))
    m.handle({"op": "enter", "dice": [1, 1, 1, 1, 1, 2, 3, 4, 5, 6], "at": 2})
    proposal = m.handle({"op": "split", "boxes": ["five-kind", "big-general"]})["split"]
    sp.pick("five-kind")
    sp.pick("big-general")
    p.wait_for_selector("#split-ok:enabled")
    assert sp.split_groups()[0] == proposal["positions"]
    sp._after(lambda: p.click("#split-ok"))
    assert sp.cell("five-kind", 0) == "50" and sp.cell("big-general", 0) == "30"
    assert sp.totals() == [80]
    assert p.is_visible("#entry")


def test_puerto_rican_big_general_entered_is_settled(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    names = ("Caro", "Dani")
    sp.new_game("puerto-rican", names, options={"stake_per_point": 2})
    sp.enter([3, 3, 3, 5, 5], at=3)
    sp.score("full-house")
    sp.enter([5, 5, 5, 5, 5], at=1)
    p.wait_for_selector("#settlement", state="visible")
    assert "Dani wins with a Big General" in p.inner_text("#banner")
    m = mirror("puerto-rican", names, {"stake_per_point": 2})
    m.handle({"op": "enter", "dice": [3, 3, 3, 5, 5], "at": 3})
    m.handle({"op": "score", "box": "full-house"})
    view = m.handle({"op": "enter", "dice": [5, 5, 5, 5, 5], "at": 1})["view"]
    pay = view["settlement"][0]
    assert f"Caro pays Dani {pay['amount']:g}" in p.inner_text("#settlement")


@pytest.mark.cross_engine
def test_a_score_sheet_game_is_saved_and_resumed(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    sp.new_game("bulgarian", ("Ana", "Beto"))
    sp.enter([4, 4, 4, 4, 1], at=2)
    sp.score("fours")
    p.reload()
    from e2e_support import wait_ready
    wait_ready(p)
    assert p.is_visible("#board") and p.is_visible("#entry")
    assert sp.cell("fours", 0) == "+4" and sp.current() == 1
    assert p.is_hidden("#roll")
    sp.enter([2, 2, 2, 1, 3], at=3)
    sp.score("twos")
    assert sp.cell("twos", 1) == "O"


def test_dice_are_entered_from_the_keyboard(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    sp.new_game("argentine", ("Ana",))
    # the dice field has the focus at the start of a turn: type and press Enter
    assert p.evaluate("document.activeElement.id") == "entry-text"
    sp._after(lambda: (p.keyboard.type("66655"), p.keyboard.press("Enter")))
    assert sp.dice() == [6, 6, 6, 5, 5]
    assert "on roll 3" in p.inner_text("#entry-note")
    sp._after(lambda: p.keyboard.press("u"))  # U undoes the entry
    assert p.is_visible("#entry")
    # with the focus outside the field, digit keys add faces and Backspace removes one
    p.click("#turn-line")
    for key in "12345":
        p.keyboard.press(key)
    p.keyboard.press("Backspace")
    assert p.input_value("#entry-text") == "1234"
    assert p.locator("#entry-chosen [data-entry-remove]").count() == 4
    p.click('#entry-chosen [data-entry-remove="0"]')  # a tapped die is removed by tapping it
    assert p.input_value("#entry-text") == "234"
    p.keyboard.press("5")
    p.keyboard.press("6")
    sp._after(lambda: p.keyboard.press("Enter"))
    assert sp.dice() == [2, 3, 4, 5, 6]
    sp.score("straight")
    assert sp.cell("straight", 0) == "20"


def test_the_paper_sheet_in_bulgarian_keeps_what_was_typed(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    sp.new_game("bulgarian", ("Петя", "Румен"))
    p.fill("#entry-text", "444")
    try:
        pick_lang(p, "bg")
        p.wait_for_function("() => document.getElementById('entry-title').textContent.startsWith('Заровете')")
        assert p.input_value("#entry-text") == "444"  # nothing typed is lost
        assert p.locator("#entry-chosen [data-entry-remove]").count() == 3
        assert "Игра с истински зарове" in p.text_content("#sheet-choice")
        assert p.inner_text("#nav-records") == "Рекорди"
        p.fill("#entry-text", "44412")
        sp._after(lambda: p.click("#entry-ok"))
        sp.score("fours")
        assert sp.paper("fours", 0) == "O"
        assert p.inner_text('#paper-sheet tr[data-sum="total"] th') == "Резултат"
    finally:
        pick_lang(p, "en")
        p.wait_for_function("() => document.getElementById('nav-records').textContent === 'Records'")


def test_a_shared_first_place_on_the_ranking_card(gp):
    # Ana and Beto enter the same dice into the same boxes all game: they share first
    # place, and Carla is third (1, 1, 3: the places as the engine gives them).
    sp = SheetPage(gp.page)
    p = sp.page
    names = ("Ana", "Beto", "Carla")
    sp.new_game("argentine", names)
    m = mirror("argentine", names)
    boxes = [row["box"] for row in m.handle({"op": "view"})["view"]["rows"]]
    for box in boxes:
        for side in range(3):
            dice = [5, 5, 5, 3, 3] if side < 2 else ZERO_DICE
            m.handle({"op": "enter", "dice": dice, "at": 3})
            view = m.handle({"op": "score", "box": box})["view"]
            sp.enter(dice)
            sp.score(box)
    assert view["over"] and [s["place"] for s in view["sides"]] == [1, 1, 3]
    p.wait_for_selector("#over", state="visible")
    assert p.inner_text("#over-winner") == "Ana and Beto share first place!"
    items = p.locator("#ranking li")
    assert items.count() == 3
    for k, (side, place) in enumerate([(0, 1), (1, 1), (2, 3)]):
        li = items.nth(k)
        assert li.get_attribute("data-side") == str(side) and li.get_attribute("data-place") == str(place)
        assert names[side] in li.inner_text()
        assert f"{view['sides'][side]['total']} point" in li.inner_text()
        assert li.locator(".medal").inner_text() == str(place)
        assert li.locator(".rank-tie").count() == (1 if place == 1 else 0)
    assert items.nth(0).locator(".rank-tie").inner_text() == "shared"
    # the two winners stand equally high on the podium, the third lower
    heights = p.eval_on_selector_all("#ranking li", "els => els.map(e => e.getBoundingClientRect().height)")
    sizes = p.eval_on_selector_all("#ranking li", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert heights[0] == heights[1] and sizes[0] == sizes[1] > sizes[2]
