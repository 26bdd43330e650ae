"""The score sheet as a game table shows it: what every open box would earn now (the
engine's numbers, ten dice priced by the best five before two boxes are chosen), the
best boxes marked, names whole and never broken inside a word (four long ones wrap
between words on a phone, eight scroll inside the sheet with the box column fixed), the game-over ranking card with
Play again focused, the re-rolls of a tie under "Who starts", and the Bulgarian paper
sheet's result and minus signs."""
from itertools import combinations

import pytest
from gamepage import GamePage, Mirror, gp, shared  # noqa: F401
from sheetpage import SheetPage

from generala import app

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

MINUS = "\u2212"
SEEDS = {"argentine": 11, "puerto-rican": 7, "bulgarian": 5, "double": 3}


def open_previews(page) -> dict:
    """box -> (text, data-preview, classes, aria-label) of the visible box buttons."""
    rows = page.eval_on_selector_all(
        "#sheet button.box:not([hidden])",
        "els => els.map(e => [e.dataset.box, e.textContent, e.dataset.preview, e.className,"
        " e.getAttribute('aria-label')])")
    return {box: (text, preview, cls.split(), label) for box, text, preview, cls, label in rows}


def best_five_by_price(m: Mirror, box: str) -> int:
    """What the best five of the ten dice earn in ``box``: every split the engine prices."""
    other = next(b for b in m.open_boxes() if b != box)
    return max(m.session.handle({"op": "price", "boxes": [box, other], "split": list(five)})["split"]["points"][0]
               for five in combinations(range(10), 5))


def written(n: int, mandatory: bool) -> str:
    if mandatory:
        return "O" if n == 0 else (f"+{n}" if n > 0 else f"{MINUS}{-n}")
    return str(n)


@pytest.mark.parametrize("variant", list(SEEDS))
def test_every_open_box_shows_the_engines_preview_and_the_best_stand_out(gp: GamePage, variant):
    p = gp.page
    names = ("Ana", "Beto")
    gp.new_game(variant, names, seed=SEEDS[variant])
    m = Mirror(variant, names, SEEDS[variant])
    assert open_previews(p) == {}  # no box is offered before a roll
    for _ in range(2):  # a first roll and the next
        m.do({"op": "roll"})
        gp.roll()
        shown = open_previews(p)
        cur = m.view["current"]
        rows = {r["box"]: r for r in m.view["rows"]}
        assert sorted(shown) == sorted(b for b, r in rows.items() if r["cells"][cur]["value"] is None)
        values = {}
        for box, (text, preview, cls, label) in shown.items():
            cell = rows[box]["cells"][cur]
            values[box] = cell["preview"]
            if variant == "double":  # ten dice: the best five for this box, before two are chosen
                assert cell["preview"] == best_five_by_price(m, box), box
                assert "best five dice earn" in label
            assert preview == str(cell["preview"]), box
            assert text == written(cell["preview"], rows[box]["mandatory"]), box
            assert ("zero" in cls) == (cell["preview"] == 0 and not rows[box]["mandatory"]), box
        top = max(values.values())
        best = {b for b, (_, _, cls, _) in shown.items() if "best" in cls}
        if variant == "double":  # ten dice: every box of the best points (the split is proposed later)
            assert best == ({b for b, v in values.items() if v == top} if top > 0 else set())
        else:  # one best box, the engine's (coach off: the most points now, or the box to give up)
            marked = m.view["best"]
            assert best == {marked["box"]}
            if top > 0:
                assert marked["why"] == "points" and values[marked["box"]] == top
            else:
                assert marked["why"] == "give_up"
        why = {"points": "most points", "give_up": "give up"}
        for box in best:  # marked for the eyes (bold, a star) and in the name read out
            assert shown[box][3].endswith(", best now" if variant == "double" else f", best now ({why[m.view['best']['why']]})")
            weight = p.eval_on_selector(f'#sheet button.box[data-box="{box}"]:not([hidden])', "e => getComputedStyle(e).fontWeight")
            star = p.eval_on_selector(f'#sheet button.box[data-box="{box}"]:not([hidden])',
                                      "e => getComputedStyle(e, '::before').content")
            assert int(weight) >= 700 and "\u2605" in star
        for box in set(shown) - best:
            assert ", best now" not in shown[box][3]
        if m.view["rolls_left"] == 0:
            break
    if variant == "double":  # one box chosen: every preview stays, the chosen one is marked
        box = next(iter(shown))
        gp.pick(box)
        p.wait_for_function("b => document.querySelector(`#sheet button.box[data-box=\"${b}\"]`)"
                            ".getAttribute('aria-pressed') === 'true'", arg=box)
        again = open_previews(p)
        assert {b: v[1] for b, v in again.items()} == {b: v[1] for b, v in shown.items()}
        assert again[box][0].startswith("✓")


LONG = ["Aleksandrina Dimitrova", "Bartholomew", "Cristóbal Hernández", "Dobromira"]


def layout(page):
    return page.evaluate("""() => {
        const wrap = document.querySelector('#sheet').parentElement;
        const heads = [...document.querySelectorAll('#sheet thead th.side-h')].map(th => {
            const span = th.querySelector('.side-title');
            const range = document.createRange();
            range.selectNodeContents(span);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            const cs = getComputedStyle(span);
            // each word's lines: a word broken across two lines would have two
            const text = span.firstChild, words = [];
            let at = 0;
            for (const word of text.data.split(' ')) {
                const r = document.createRange();
                r.setStart(text, at); r.setEnd(text, at + word.length);
                words.push(new Set([...r.getClientRects()].map(x => Math.round(x.top))).size);
                at += word.length + 1;
            }
            return {lines: tops.size, words, title: th.getAttribute('title'), text: span.textContent,
                    cut: span.scrollWidth > span.clientWidth, ellipsis: cs.textOverflow, wrap: cs.whiteSpace};
        });
        return {heads, wrapScroll: wrap.scrollWidth, wrapClient: wrap.clientWidth,
                pageScroll: document.scrollingElement.scrollWidth, pageWidth: window.innerWidth};
    }""")


@pytest.fixture
def phone(gp: GamePage):
    gp.page.set_viewport_size({"width": 375, "height": 800})
    yield gp
    gp.page.set_viewport_size({"width": 1280, "height": 900})


def test_four_long_names_are_whole_on_a_phone_wrapped_between_words(phone: GamePage):
    p = phone.page
    phone.new_game("argentine", LONG, seed=4)
    got = layout(p)
    assert got["pageScroll"] <= got["pageWidth"]  # the page does not scroll sideways (the sheet may, inside)
    for head, name in zip(got["heads"], LONG):
        assert head["text"] == name and head["title"] == name  # whole, for the eyes and on hover
        assert not head["cut"] and head["ellipsis"] != "ellipsis", head  # never cut
        assert all(lines == 1 for lines in head["words"]), head  # never broken inside a word
    assert got["heads"][0]["lines"] == 2  # the longest wraps between its words
    assert p.get_by_role("columnheader", name=LONG[0]).count() == 1


def test_eight_sides_scroll_inside_the_sheet_with_the_box_column_fixed(phone: GamePage):
    p = phone.page
    names = ["Ana", "Beto", "Carla", "Dmitri", "Elena", "Fyodor", "Galina", "Hristo"]
    phone.new_game("argentine", names, seed=2)
    got = layout(p)
    assert got["pageScroll"] <= got["pageWidth"]
    assert got["wrapScroll"] > got["wrapClient"]  # the sheet's own box scrolls
    assert all(h["lines"] == 1 and not h["cut"] for h in got["heads"])
    before = p.eval_on_selector('#sheet tr[data-row="ones"] th', "e => e.getBoundingClientRect().left")
    p.eval_on_selector("#sheet", "t => { t.parentElement.scrollLeft = t.parentElement.scrollWidth; }")
    p.wait_for_function("() => document.querySelector('#sheet').parentElement.scrollLeft > 0")
    after = p.evaluate("""() => {
        const wrap = document.querySelector('#sheet').parentElement.getBoundingClientRect();
        const box = document.querySelector('#sheet tr[data-row="ones"] th').getBoundingClientRect();
        const corner = document.querySelector('#sheet th.box-h').getBoundingClientRect();
        const last = document.querySelector('#sheet thead th[data-side="7"]').getBoundingClientRect();
        return {box: box.left, corner: corner.left, wrapLeft: wrap.left, boxRight: box.right,
                lastLeft: last.left, wrapRight: wrap.right,
                position: getComputedStyle(document.querySelector('#sheet tr[data-row="ones"] th')).position};
    }""")
    assert after["position"] == "sticky"
    assert abs(after["box"] - before) < 1.5 and abs(after["corner"] - after["box"]) < 1.5  # stayed put
    assert after["lastLeft"] >= after["boxRight"] - 1 and after["lastLeft"] < after["wrapRight"]  # last side in view


@pytest.mark.cross_engine
def test_game_over_ranking_card_names_the_winner_and_focuses_play_again(gp: GamePage):
    p = gp.page
    names = ("Ana", "Beto")
    seed = 2422  # the first roll of the game is five alike: an automatic win
    gp.new_game("puerto-rican", names, seed=seed, options={"stake_per_point": 2})
    m = Mirror("puerto-rican", names, seed, {"stake_per_point": 2})
    m.do({"op": "roll"})
    gp.roll()
    assert m.view["over"]
    p.wait_for_selector("#over", state="visible")
    sides = m.view["sides"]
    order = sorted(range(2), key=lambda i: (sides[i]["place"], i))
    winner = names[order[0]]
    assert p.inner_text("#over-winner") == f"{winner} wins!"
    items = p.locator("#ranking li")
    assert [items.nth(k).get_attribute("data-side") for k in range(2)] == [str(i) for i in order]
    for k, i in enumerate(order):
        li = items.nth(k)
        assert li.get_attribute("data-place") == str(sides[i]["place"])
        assert names[i] in li.inner_text() and f"{sides[i]['total']} point" in li.inner_text()
        assert li.locator(".medal").inner_text() == str(sides[i]["place"])  # a mark, not colour alone
    assert "place-1" in items.nth(0).get_attribute("class")
    sizes = p.eval_on_selector_all("#ranking li", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes[0] > sizes[1]  # the winner stands out in size too
    buttons = p.eval_on_selector_all("#over button", "els => els.map(e => e.id || e.dataset.action)")
    assert buttons[0] == "again"
    p.wait_for_function("() => document.activeElement && document.activeElement.id === 'again'")


def test_who_starts_labels_the_re_rolls_of_a_tie(gp: GamePage):
    p = gp.page
    names = ("Ana", "Beto", "Carla", "Dmitri")
    seed = 0
    view = app.Session().handle({"op": "new", "variant": "argentine", "seed": seed, "sides": [
        {"name": n, "members": [], "player": "human"} for n in names]})["view"]
    assert len(view["rolloff"]) == 2  # a tie in the first round, rolled again (CPython engine)
    gp.new_game("argentine", names, seed=seed)
    p.click("#board-menu-btn")  # who starts: in the board's menu
    p.click("#rolloff summary")
    assert p.eval_on_selector("#rolloff", "d => d.open")
    first = p.locator('#rolloff ul[data-round="0"] li')
    assert first.count() == 4 and p.locator('#rolloff ul[data-round="0"] li.reroll').count() == 0
    again = p.locator('#rolloff ul[data-round="1"] li')
    tied = [names[side] for side, _ in view["rolloff"][1]]
    assert again.count() == len(tied)
    for k, name in enumerate(tied):
        assert again.nth(k).inner_text().startswith("re-roll") and name in again.nth(k).inner_text()
    head = p.inner_text("#rolloff-h1")
    assert head.startswith("Re-roll 1 of a tie") and all(n in head for n in tied)
    assert p.get_by_role("list", name=head).count() == 1  # the list is named by its heading
    p.keyboard.press("Escape")


def test_bulgarian_paper_sheet_writes_the_result_and_the_minus_sign(gp):
    sp = SheetPage(gp.page)
    p = sp.page
    sp.new_game("bulgarian", ("Vera",))
    s = app.Session()
    s.handle({"op": "new", "variant": "bulgarian", "sheet": True, "options": {},
              "sides": [{"name": "Vera", "members": [], "player": "human"}]})
    none = {"ones": [2, 2, 3, 3, 4], "twos": [1, 1, 3, 3, 4], "threes": [1, 1, 2, 2, 4], "fours": [1, 1, 2, 2, 3]}
    for k, (box, dice) in enumerate(none.items()):
        sp.enter(dice, at=3)
        sp.score(box)
        s.handle({"op": "enter", "dice": dice, "at": 3})
        view = s.handle({"op": "score", "box": box})["view"]
        side = view["sides"][0]
        m = side["subtotals"]["mandatory"]
        assert m < 0 and sp.paper(box, 0) == f"{MINUS}{-view['rows'][k]['cells'][0]['value']}"
        line = sp.paper_sum("mandatory")[0]
        total = sp.paper_sum("total")[0]
        if side["paper"]["penalty"]:  # no finish of the part can end non-negative: the −50 is written
            assert k == 3 and line == f"{MINUS}{-m} {MINUS} 50 = {MINUS}{-m + 50}"
        else:  # the part may still end non-negative: no −50 yet
            assert line == f"{MINUS}{-m}" and "50" not in line
        t = side["paper"]["total"]
        assert total == f"0 {MINUS} {-(m + side['paper']['penalty'])} = {MINUS}{-t}"
    assert side["paper"]["penalty"] == -50  # −30 with fives and sixes to come (at most +22)
    board = p.inner_text("#board")
    assert "-" + str(-side["total"]) not in board and f"{MINUS}{-side['total']}" in board
    assert f"{MINUS}{-side['total']}" == p.inner_text('#sheet tfoot tr[data-sum="total"] td')
