"""Saves written by an earlier build load and draw in this one.

tests/e2e/fixtures/golden-saves-*.json hold every `generala.*` localStorage value an
earlier build wrote while real games were played through its page
(fixtures/capture_golden_saves.py; fixtures/README.md says which build and how). Each
file seeds a fresh profile before the page's first load; then:

- the page boots to ready with no error, nothing is set aside as unreadable, the games
  to continue and the finished games are all listed, and the stored language is used;
- every unfinished game opens from its Continue button and its board shows the dice,
  the held dice, the totals and the side to play that the CPython engine computes from
  the stored save; one more move (a roll, or a box in score-sheet mode) gives the
  engine's answer too;
- a stored coach setting is shown switched on.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from e2e_support import boot
from gamepage import GamePage, open_home, open_library

from generala import app
from generala.rules import variants

FIXTURES = sorted((Path(__file__).resolve().parent / "fixtures").glob("golden-saves-*.json"))

# Before any script of the page runs, on the first load of the tab only (sessionStorage
# survives the tab's reloads): the stored values exactly as the earlier build wrote them.
SEED = """(origin, values) => {
  if (location.origin !== origin) return;  // not the blank document a new tab starts with
  if (sessionStorage.getItem('golden-seeded')) return;
  for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v);
  sessionStorage.setItem('golden-seeded', '1');
}"""

SETTLED = "() => { const b = document.getElementById('board'); return !b.hidden && !b.hasAttribute('aria-busy'); }"


def load_fixture(path: Path) -> dict:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["storage"] and doc["games"], f"{path.name} holds no saves"
    return doc


def stored_entry(doc: dict, gid: str) -> dict:
    return json.loads(doc["storage"][f"generala.save.{gid}"])


def engine_save(entry: dict) -> dict:
    """The engine's save document inside a stored entry (under "reply", or at the top)."""
    return (entry.get("reply") or {}).get("save") or entry["save"]


def engine_session(entry: dict) -> tuple[app.Session, dict]:
    """A CPython session with the stored game loaded, and its view."""
    session = app.Session()
    reply = session.handle({"op": "load", "save": engine_save(entry)})
    assert reply["ok"], reply
    return session, reply["view"]


def seeded_page(page, base_url: str, doc: dict):
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
    page.add_init_script(f"({SEED})({json.dumps(origin)}, {json.dumps(doc['storage'])})")
    boot(page)
    return page


def assert_board_is(gp: GamePage, view: dict, what: str):
    page = gp.page
    page.wait_for_function(SETTLED)
    if view["dice"]:
        assert gp.dice() == view["dice"], what
        assert gp.held() == view["held"], what
    assert gp.totals() == [s["total"] for s in view["sides"]], what
    if not view["over"]:
        assert gp.current() == view["current"], what
    names = page.inner_text("#sheet thead")
    for side in view["sides"]:
        assert side["name"] in names, what


params = pytest.mark.parametrize("fixture", FIXTURES, ids=[p.stem for p in FIXTURES])


def test_the_fixtures_cover_what_a_player_stores():
    """The capture played what the page can store: four games, finished and not, a team,
    a computer, real dice, house options, a split, the language and the coach."""
    assert FIXTURES, "no golden-saves-*.json in tests/e2e/fixtures"
    for path in FIXTURES:
        doc = load_fixture(path)
        entries = [stored_entry(doc, g["id"]) for g in doc["games"]]
        saves = [engine_save(e) for e in entries]
        assert {e["variant"] for e in entries} == {"argentine", "puerto-rican", "bulgarian", "double"}
        assert any(e["over"] for e in entries) and any(not e["over"] for e in entries)
        sides = [s for save in saves for s in save["sides"]]
        assert any(len(s.get("members") or []) > 1 for s in sides)
        assert any(str(s.get("player", "human")).startswith("ai:") for s in sides)
        assert any(save.get("roller") is None and any("enter" in h for h in save["history"]) for save in saves)
        assert any(save["options"] != variants.variant(save["variant"]).options for save in saves)
        assert any(save["variant"] == "double" and any("split" in h for h in save["history"]) for save in saves)
        assert doc["storage"].get("generala.lang") == "bg"
        assert doc["storage"].get("generala.coach") == "1"
        assert doc["storage"].get("generala.current") in {g["id"] for g in doc["games"]}


@pytest.mark.cross_engine
@params
def test_golden_saves_are_listed_and_the_language_kept(page, base_url, fixture):
    doc = load_fixture(fixture)
    seeded_page(page, base_url, doc)
    assert page.get_attribute("html", "lang") == "bg"
    assert page.input_value("#lang-pick") == "bg"
    # the game that was on the board is resumed on the board
    current = doc["storage"]["generala.current"]
    _, view = engine_session(stored_entry(doc, current))
    page.wait_for_selector("#board", state="visible")
    assert_board_is(GamePage(page), view, f"resumed game {current}")
    # every stored game is listed: unfinished ones to continue, finished ones in the library
    open_home(page)
    unfinished = {g["id"] for g in doc["games"] if not stored_entry(doc, g["id"])["over"]}
    finished = {g["id"] for g in doc["games"]} - unfinished
    listed = set(page.eval_on_selector_all("#continue-list > li", "els => els.map(e => e.dataset.save)"))
    assert listed == unfinished
    assert page.is_hidden("#aside-section"), page.inner_text("#aside-list")
    if not page.is_visible("#history-list"):
        open_library(page)
    history = set(page.eval_on_selector_all("#history-list > li", "els => els.map(e => e.dataset.save)"))
    assert history == finished
    for gid in finished:
        result = stored_entry(doc, gid)["result"]
        text = page.inner_text(f'#history-list > li[data-save="{gid}"]')
        for name, _place, total in result:
            assert name in text and str(total) in text


@params
def test_each_unfinished_golden_game_draws_and_plays_on(page, base_url, fixture):
    doc = load_fixture(fixture)
    seeded_page(page, base_url, doc)
    gp = GamePage(page)
    for game in doc["games"]:
        entry = stored_entry(doc, game["id"])
        if entry["over"]:
            continue
        what = f"{game['name']} ({game['id']})"
        session, view = engine_session(entry)
        open_home(page)
        gp._after(lambda: page.click(f'#continue-list [data-continue="{game["id"]}"]'))
        page.wait_for_selector("#board", state="visible")
        assert_board_is(gp, view, what)
        # one more move, checked against the engine
        if view.get("sheet") or engine_save(entry).get("sheet"):
            cur = view["current"]
            box = next(r["box"] for r in view["rows"] if r["cells"][cur].get("playable"))
            gp.score(box)
            reply = session.handle({"op": "score", "box": box})
        elif view["rolls_left"] > 0:
            gp.roll()
            reply = session.handle({"op": "roll"})
        else:
            cur = view["current"]
            box = next(r["box"] for r in view["rows"] if r["cells"][cur].get("playable"))
            gp.score(box)
            reply = session.handle({"op": "score", "box": box})
        assert reply["ok"], reply
        assert_board_is(gp, reply["view"], what + " after one more move")


@params
def test_the_stored_coach_setting_is_on(page, base_url, fixture):
    doc = load_fixture(fixture)
    seeded_page(page, base_url, doc)
    coach = next(g for g in doc["games"] if g["name"] == "coach")
    open_home(page)
    page.click(f'#continue-list [data-continue="{coach["id"]}"]')
    page.wait_for_selector("#board", state="visible")
    page.wait_for_function(SETTLED)
    assert page.get_attribute(".coach-toggle", "hidden") is None
    assert page.is_checked("#coach-toggle")
