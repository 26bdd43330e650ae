"""The end of a game: the result card (static/ui/board/result.py) and the records.

Games are played in CPython (the engine itself, seeded dice) up to the start of their
last turn, stored as the page stores a game, and opened at the next visit; the page
then plays that last turn (Roll, the last box) and the game ends on the board as it
would at a table. Checked: every side's whole name on the card and in the sheet's
headers (the text is the whole name, not clipped, no ellipsis, no word broken across
lines), the places as the engine gives them (a shared first place said so), the
moment that decided the game (the view's decider) in words, the card in sight with
Play again focused at 375x667, Play again starting the same game in one click
(hot-seat, one side, against the computer), and the records fitting a 375 px screen.
axe finds nothing on the card (light and dark) or the records."""
from __future__ import annotations

import copy
import json

import pytest

from e2e_support import STATE_LOG_SCRIPT, Guard, boot, cross_engine, wait_ready
from gamepage import SETTLED, GamePage
from test_a11y import AXE, check, report

from generala import app
from generala.seen.decider import decider
from generala.ai.strategies import chase, step
from generala.seen.view import view as view_of

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

LONG = ("Александра Николаевна", "Maximiliano Rodríguez")
FOUR = ("Александра Николаевна", "Maximiliano Rodríguez", "Ana", "Beto")
PREFIX = "generala.save."
PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}

# Whether an element shows all its text: nothing scrolled away inside it, no ellipsis,
# and no word of it split across two lines (each word's text sits on one line).
SHOWN_WHOLE = """el => {
  const style = getComputedStyle(el);
  const words = [];
  const text = el.firstChild;
  if (text && text.nodeType === 3) {
    let at = 0;
    for (const word of text.data.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at); range.setEnd(text, at + word.length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      words.push([word, lines.size]);
      at += word.length + 1;
    }
  }
  return {text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth,
          ellipsis: style.textOverflow === 'ellipsis', words};
}"""


def near_end(variant, names, seed, players=None):
    """A session whose game is at the start of its last turn (each side's turns played
    by the ``chase`` strategy): the page plays that turn."""
    s = app.Session()
    sides = [{"name": n, "members": [], "player": players[i] if players else "human"}
             for i, n in enumerate(names)]
    s.handle({"op": "new", "variant": variant, "options": {}, "sides": sides, "seed": seed})
    game = s.game
    last = len(names) * game.rules.turns - 1
    while not game.over and not (game.turn == last and game.rolls == 0):
        step(game, chase)
    assert not game.over
    return s


def last_turn(game):
    """The last turn as the page plays it: one roll, then the one box left (0 written by
    choice where it earns nothing); returns that box (None: the roll won at once)."""
    game.roll()
    if game.over:
        return None
    box = next(b for b, v in game.sheets[game.current].items() if v is None)
    game.score(box, scratch=game.preview()[box] == 0 and box not in game.rules.mandatory)
    return box


def entry(gid, game, when=1_700_000_000_000):
    """The game as the page stores it (static/ui/saves/saves.py)."""
    view = view_of(game)
    result = [[s["name"], s["place"], s["total"]] for s in view["sides"]] if view["over"] else None
    return json.dumps({"rev": 1, "id": gid, "created": when, "updated": when, "variant": view["variant"],
                       "title": view["title"], "names": [s["name"] for s in view["sides"]],
                       "over": view["over"], "round": view["round"], "turns": view["turns"],
                       "result": result, "sheet": view["sheet"],
                       "reply": {"view": view, "save": game.to_json()}})


def visit(page, stored: dict, current=None):
    """Only ``stored`` (id -> entry text) among the game's keys, ``current`` the game to
    resume; the page loaded again, ready."""
    page.evaluate("""([stored, current]) => {
        for (const k of Object.keys(localStorage)) if (k.startsWith('generala.')) localStorage.removeItem(k);
        for (const [k, v] of Object.entries(stored)) localStorage.setItem('generala.save.' + k, v);
        if (current) localStorage.setItem('generala.current', current);
    }""", [stored, current])
    page.reload()
    wait_ready(page)


def play_to_the_end(gp: GamePage, variant, names, seed, players=None):
    """Open the game at its last turn and play that turn through the page; returns the
    finished game as the engine has it (CPython, the same dice)."""
    s = near_end(variant, names, seed, players)
    finished = copy.deepcopy(s.game)
    box = last_turn(finished)
    assert finished.over
    visit(gp.page, {"g1700000000009-1": entry("g1700000000009-1", s.game)}, "g1700000000009-1")
    p = gp.page
    p.wait_for_selector("#board", state="visible")
    gp.settled()
    if players is None or players[s.game.current] == "human":
        gp.roll()
        if box is not None:
            gp.score(box)
    p.wait_for_selector("#over", state="visible", timeout=60_000)
    return finished


def stored_view(page):
    """The view of the game on the board, as stored."""
    return page.evaluate("""() => {
        const e = JSON.parse(localStorage.getItem('generala.save.' + localStorage.getItem('generala.current')));
        return e.reply.view; }""")


def assert_whole(page, selector, name):
    shown = page.eval_on_selector(selector, SHOWN_WHOLE)
    assert shown["text"] == name, (selector, shown)
    assert shown["scroll"] <= shown["client"], (selector, shown)
    assert not shown["ellipsis"], (selector, shown)
    assert shown["words"] and all(lines == 1 for _, lines in shown["words"]), (selector, shown)


def assert_names_whole(page, names):
    """Each side's whole name in the ranking and in the sheet's header."""
    for i, name in enumerate(names):
        assert_whole(page, f'#ranking li[data-side="{i}"] .rank-name', name)
        assert_whole(page, f'#sheet th.side-h[data-side="{i}"] .side-title', name)


IN_SIGHT = """() => { const r = document.getElementById('over').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


def assert_card_in_sight(page):
    """The whole card inside the window (brought there at the frame after the end), Play
    again focused."""
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'again'")
    try:
        page.wait_for_function(IN_SIGHT, timeout=5_000)
    except Exception:
        box = page.eval_on_selector("#over", "e => JSON.stringify(e.getBoundingClientRect())")
        raise AssertionError(f"the card is not all in sight: {box}, window {page.viewport_size}") from None


def moment_words(game, names):
    """The deciding moment as the card words it in English."""
    moment = decider(game)
    boxes = {"generala": "Generala", "double-generala": "Double Generala", "ones": "Ones", "twos": "Twos",
             "threes": "Threes", "fours": "Fours", "fives": "Fives", "sixes": "Sixes", "straight": "Straight",
             "full-house": "Full house", "four-kind": "Four of a kind"}
    what = " + ".join(boxes[b] for b in moment["boxes"])
    points = f"{moment['points']} point" + ("" if moment["points"] == 1 else "s")
    name = names[moment["side"]]
    return moment["kind"], {
        "lead": f"Turn {moment['round']}: {points} in {what} put {name} ahead for good.",
        "level": f"Turn {moment['round']}: {points} in {what} brought {name} level at the top for good.",
        "best": f"Best box: {points} in {what} (turn {moment['round']})." if len(names) == 1
        else f"{name}'s best: {points} in {what} (turn {moment['round']}).",
    }.get(moment["kind"])


@pytest.fixture(scope="module")
def shared(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport=PHONE, service_workers="block")
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    boot(page)
    yield page, guard
    context.close()


@pytest.fixture
def gp(shared):
    page, guard = shared
    guard.problems.clear()
    guard.allowed.clear()
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme="light")
    yield GamePage(page)
    guard.collect_error_boxes()
    if guard.problems:
        pytest.fail("the browser reported problems:\n" + guard.report(), pytrace=False)


@pytest.mark.cross_engine
def test_hot_seat_long_names_whole_the_deciding_moment_and_play_again(gp: GamePage):
    p = gp.page
    finished = play_to_the_end(gp, "argentine", LONG, 0)
    # at 375x667 the card is in sight, whole, Play again focused
    assert_card_in_sight(p)
    assert_names_whole(p, LONG)
    winner = LONG[finished.ranking().index(1)]
    assert p.inner_text("#over-winner") == f"{winner} wins!"
    kind, said = moment_words(finished, LONG)
    assert kind == "lead"
    assert p.get_attribute("#over-decider", "data-kind") == "lead"
    assert p.inner_text("#over-decider .decider-text") == said
    assert p.is_visible("#over-decider")
    for i, total in enumerate(finished.totals()):
        assert p.inner_text(f'#ranking li[data-side="{i}"] .rank-total') == f"{total} points"
    # and on a desktop
    p.set_viewport_size(DESKTOP)
    assert_names_whole(p, LONG)
    # Play again: one click, the same game again (variant, sides, options), a new deal
    before = stored_view(p)
    n = gp.renders()
    p.click("#again")
    p.wait_for_function("n => +document.getElementById('board').dataset.rendered > n"
                        " && document.getElementById('over').hidden", arg=n)
    gp.settled()
    after = stored_view(p)
    assert not after["over"] and after["round"] == 1
    assert all(c["value"] is None for r in after["rows"] for c in r["cells"])
    assert after["variant"] == before["variant"] and after["options"] == before["options"]
    assert [(s["name"], s["members"], s["player"]) for s in after["sides"]] == \
        [(s["name"], s["members"], s["player"]) for s in before["sides"]]
    assert not p.evaluate("[...document.querySelectorAll('dialog')].some(d => d.open)")
    assert p.is_enabled("#roll")
    for i, name in enumerate(LONG):
        assert_whole(p, f'#sheet th.side-h[data-side="{i}"] .side-title', name)


def test_four_sides_sharing_first_place(gp: GamePage):
    p = gp.page
    finished = play_to_the_end(gp, "argentine", FOUR, 313)
    places = finished.ranking()
    assert places.count(1) == 2  # the engine's places: first place shared
    assert_card_in_sight(p)
    assert_names_whole(p, FOUR)
    first = [FOUR[i] for i, place in enumerate(places) if place == 1]
    assert p.inner_text("#over-winner") == f"{first[0]} and {first[1]} share first place!"
    items = p.locator("#ranking li")
    order = sorted(range(4), key=lambda i: (places[i], i))
    for k, i in enumerate(order):
        li = items.nth(k)
        assert li.get_attribute("data-side") == str(i) and li.get_attribute("data-place") == str(places[i])
        assert li.locator(".rank-tie").count() == (1 if places.count(places[i]) > 1 else 0)
        if places[i] <= 3:
            assert li.locator(".medal").inner_text() == str(places[i])
    kind, said = moment_words(finished, FOUR)
    assert kind == "level"
    assert p.inner_text("#over-decider .decider-text") == said
    # the podium: the first places stand higher than the third, on a desktop too
    p.set_viewport_size(DESKTOP)
    assert_names_whole(p, FOUR)
    steps = p.eval_on_selector_all("#ranking li.step .rank", "els => els.map(e => e.getBoundingClientRect().height)")
    assert steps[0] == steps[1] > steps[2]


def test_one_side_best_box_and_play_again(gp: GamePage):
    p = gp.page
    names = (LONG[1],)
    finished = play_to_the_end(gp, "argentine", names, 1)
    assert_card_in_sight(p)
    assert_whole(p, '#ranking li[data-side="0"] .rank-name', names[0])
    assert p.inner_text("#over-winner") == f"Final score: {finished.totals()[0]} points"
    kind, said = moment_words(finished, names)
    assert kind == "best"
    assert p.inner_text("#over-decider .decider-text") == said
    n = gp.renders()
    p.click("#again")
    p.wait_for_function("n => +document.getElementById('board').dataset.rendered > n"
                        " && document.getElementById('over').hidden", arg=n)
    gp.settled()
    after = stored_view(p)
    assert not after["over"] and [s["name"] for s in after["sides"]] == list(names)
    assert p.is_enabled("#roll")


def test_against_the_computer_play_again_in_one_click(gp: GamePage):
    p = gp.page
    players = ["human", "ai:heuristic"]
    play_to_the_end(gp, "puerto-rican", ("Ana", "Computer"), 4, players)
    assert_card_in_sight(p)
    n = gp.renders()
    p.click("#again")
    p.wait_for_function("n => +document.getElementById('board').dataset.rendered > n"
                        " && document.getElementById('over').hidden", arg=n)
    gp.settled()
    after = stored_view(p)
    assert after["variant"] == "puerto-rican" and not after["over"]
    assert [s["player"] for s in after["sides"]] == players
    assert [s["computer"] for s in after["sides"]] == [None, "heuristic"]
    assert not p.evaluate("[...document.querySelectorAll('dialog')].some(d => d.open)")


def test_axe_finds_nothing_on_the_card_light_and_dark(gp: GamePage):
    if not AXE.exists():
        pytest.skip("npm install (devDependency axe-core) first")
    p = gp.page
    play_to_the_end(gp, "argentine", FOUR, 313)
    found: dict = {}
    for size in (PHONE, DESKTOP):
        for scheme in ("light", "dark"):
            p.set_viewport_size(size)
            p.emulate_media(color_scheme=scheme)
            check(p, f"result card {size['width']} {scheme}", found)
    assert not found, report(found)


def finished_entries():
    """Finished games of long names in the four variants, for the records."""
    stored = {}
    games = [("argentine", LONG, 0), ("double", LONG, 3), ("bulgarian", FOUR[:3], 5),
             ("puerto-rican", (LONG[0], "Ana"), 7)]
    for k, (variant_name, names, seed) in enumerate(games):
        s = near_end(variant_name, names, seed)
        while not s.game.over:
            step(s.game, chase)
        gid = f"g17000000000{k + 10}-1"
        stored[gid] = entry(gid, s.game, 1_700_000_000_000 + k * 1000)
    return stored


# Every cell of the records table inside the window and showing all of itself.
CELLS_FIT = """() => {
  const out = [];
  for (const c of document.querySelectorAll('#records-table th, #records-table td')) {
    if (!c.offsetParent) continue;  // a header row laid out of sight (the cards carry labels)
    const r = c.getBoundingClientRect();
    out.push({text: c.textContent, left: r.left, right: r.right, scroll: c.scrollWidth, client: c.clientWidth,
              ellipsis: getComputedStyle(c).textOverflow === 'ellipsis'});
  }
  const wrap = document.getElementById('records-table').parentElement;
  return {cells: out, wrap: [wrap.scrollWidth, wrap.clientWidth], page: [document.documentElement.scrollWidth, innerWidth]};
}"""


@pytest.mark.parametrize("lang", ["en", cross_engine("ru")])
def test_records_fit_a_phone(gp: GamePage, lang):
    p = gp.page
    visit(p, finished_entries())
    if lang != "en":
        p.select_option("#lang-pick", lang)
        p.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    try:
        p.click("#nav-records")
        p.wait_for_selector("#records[data-ready]", state="attached")
        assert p.locator("#records-table tbody tr").count() >= 8
        fit = p.evaluate(CELLS_FIT)
        assert fit["cells"]
        for cell in fit["cells"]:
            assert cell["left"] >= 0 and cell["right"] <= PHONE["width"], cell
            assert cell["scroll"] <= cell["client"] and not cell["ellipsis"], cell
        assert fit["wrap"][0] <= fit["wrap"][1], fit["wrap"]
        assert fit["page"][0] <= fit["page"][1], fit["page"]
        # every figure is there with what it counts
        first = p.locator("#records-table tbody tr").first
        for key in ("games", "wins", "best", "mean", "five_alike"):
            assert first.locator(f'[data-key="{key}"]').is_visible()
        if AXE.exists():
            found: dict = {}
            for scheme in ("light", "dark"):
                p.emulate_media(color_scheme=scheme)
                check(p, f"records {lang} {scheme}", found)
            assert not found, report(found)
    finally:
        if lang != "en":
            p.select_option("#lang-pick", "en")
            p.wait_for_function("() => document.documentElement.lang === 'en'")
