"""Export and import of saved games (static/ui/saves/transfer.py).

One browser (A) plays three games (two unfinished, one finished), keeps an unreadable
save aside, and exports all games and one game from its list item. A fresh browser
(B) imports the file, while its engine is still booting: the games are stored as they
were (same save documents, same boards when continued, the same dice next), a second
import adds nothing, the round trip export -> import -> export gives the identical
games, and every bad file is refused with a message naming the problem while
localStorage stays byte-for-byte as it was; a storage that fills up partway
undoes the import; a file of 500 games (2.5 MB: more than MicroPython takes as one
string) imports and exports again.
"""
from __future__ import annotations

import datetime
import json
import re

import pytest
import e2e_support
from e2e_support import EMPTY_FILLER, FILL_STORAGE, STATE_LOG_SCRIPT, STILL_DICE, Guard, boot, cross_engine, wait_ready, wake
from gamepage import GamePage, Mirror, open_home, open_library, play_turn

from generala import Game, SeededRoller, app, variant
from generala.modes import bundle
from generala.rules.save import dump
from generala.ai.strategies import chase, step

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

GUARDS: list[Guard] = []

SNAPSHOT = "() => Object.fromEntries(Object.keys(localStorage).sort().map(k => [k, localStorage.getItem(k)]))"
IMPORTS = "() => +(document.getElementById('transfer-section').dataset.imports || 0)"
IMPORTED = "n => +(document.getElementById('transfer-section').dataset.imports || 0) > n"
STATUS_KIND = "k => { const s = document.getElementById('transfer-status'); return s && !s.hidden && s.dataset.kind === k; }"
LOCAL_DATE = "() => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1, d.getDate()]; }"
FILL, EMPTY = FILL_STORAGE, EMPTY_FILLER
# A storage that takes the first game of an import and is full for the next ones.
FULL_AFTER_ONE = """() => {
  const original = Storage.prototype.setItem;
  let games = 0;
  Storage.prototype.setItem = function (key, value) {
    if (String(key).startsWith("generala.save.") && ++games > 1) {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    }
    return original.call(this, key, value);
  };
  window.__restoreSetItem = () => { Storage.prototype.setItem = original; };
}"""


def canon(doc) -> str:
    return json.dumps(doc, sort_keys=True)


def stored_saves(page) -> dict:
    """{id: entry} of every readable save in the page's storage."""
    out = {}
    for key, text in page.evaluate(SNAPSHOT).items():
        if key.startswith("generala.save."):
            try:
                out[key[len("generala.save."):]] = json.loads(text)
            except ValueError:
                pass
    return out


def board_state(gp: GamePage):
    return gp.dice(), gp.held(), gp.rolls_left(), gp.turn_line(), gp.current(), gp.totals()


def status(page) -> tuple[str, str]:
    return page.inner_text("#transfer-status"), page.get_attribute("#transfer-status", "data-kind")


def open_page(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900},
                                  service_workers="block", accept_downloads=True)
    guard = Guard()
    guard.attach_context(context)
    GUARDS.append(guard)
    context.add_init_script(STATE_LOG_SCRIPT)
    context.add_init_script(STILL_DICE)  # the module is still_dice
    return context, context.new_page()


def choose_file(page, files):
    """Import through the button (the file chooser it opens); returns when the import ended.
    Firefox over WebDriver BiDi (Playwright 1.64) reports the button's first file
    chooser of a page (the `target` fixture's) but no later one: there the file goes
    straight into the button's <input type=file>, which is what the chooser fills."""
    open_library(page)
    n = page.evaluate(IMPORTS)
    if page.context.browser.browser_type.name == "firefox":
        page.set_input_files("#import-file", files)
    else:
        with page.expect_file_chooser() as chooser:
            page.click("#import-games")
        chooser.value.set_files(files)
    page.wait_for_function(IMPORTED, arg=n, timeout=60_000)
    return status(page)


def as_file(name: str, data) -> dict:
    return {"name": name, "mimeType": "application/json",
            "buffer": data if isinstance(data, bytes) else data.encode("utf-8")}


def download(page, selector):
    """(file name, text) of the file the browser wrote to disk for this click."""
    open_library(page)
    name, path = e2e_support.download(page, lambda: page.click(selector))
    return name, path.read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def no_browser_problems():
    """Fails a test on any problem in either browser since the last test (fixture setup included)."""
    yield
    problems = []
    for guard in GUARDS:
        guard.collect_error_boxes()
        problems += guard.problems
        guard.problems.clear()
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(f"  - {p}" for p in problems), pytrace=False)


@pytest.fixture(scope="module")
def source(browser, base_url, tmp_path_factory):
    """Browser A: three games played, an unreadable save kept aside, two export files."""
    context, page = open_page(browser, base_url)
    boot(page)
    gp = GamePage(page)
    # an unfinished game, mid-turn with two dice held
    gp.new_game("argentine", ("Ana", "Beto"), seed=11)
    m1 = Mirror("argentine", ("Ana", "Beto"), 11)
    play_turn(gp, m1, holds=True)
    gp.roll()
    m1.do({"op": "roll"})
    for i in (0, 2):
        gp.hold(i)
        m1.do({"op": "toggle", "die": i})
    state1 = board_state(gp)
    # a finished game (a Big General on the first roll ends it at once)
    gp.new_game("puerto-rican", ("Ana", "Beto"), seed=2422, options={"stake_per_point": 2})
    m2 = Mirror("puerto-rican", ("Ana", "Beto"), 2422, {"stake_per_point": 2})
    gp.roll()
    m2.do({"op": "roll"})
    assert m2.view["over"]
    page.wait_for_selector("#over", state="visible")
    # another unfinished game, after one scored turn
    gp.new_game("bulgarian", ("Eva",), seed=5)
    m3 = Mirror("bulgarian", ("Eva",), 5)
    play_turn(gp, m3, holds=False)
    gp.roll()
    m3.do({"op": "roll"})
    state3 = board_state(gp)
    gp.home()
    page.evaluate("() => generala.storage.set('generala.save.gjunk', '{\"id\": \"gjunk\", \"save\": {trunc')")
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#aside-list > li", state="attached")
    folder = tmp_path_factory.mktemp("exports")
    all_name, all_text = download(page, "#export-all")
    all_status = status(page), page.text_content("#announce")
    (folder / all_name).write_text(all_text, encoding="utf-8")
    one_btn = page.get_by_role("button", name="Export General — Ana, Beto", exact=True)
    one_gid = one_btn.get_attribute("data-export-save")
    one_name, one_path = e2e_support.download(page, one_btn.click)
    one_text = one_path.read_text(encoding="utf-8")
    one_status = status(page)
    (folder / one_name).write_text(one_text, encoding="utf-8")
    yield {"page": page, "gp": gp, "mirrors": (m1, m2, m3), "states": (state1, state3),
           "all": (folder / all_name, all_text, all_status), "one": (folder / one_name, one_text, one_status, one_gid)}
    context.close()


@pytest.fixture(scope="module")
def target(browser, base_url, source):
    """Browser B, fresh: the export file of A chosen while B's engine is still booting."""
    context, page = open_page(browser, base_url)
    held = []
    context.route("**/generala.lazy.zip", lambda route: held.append(route))  # the engine waits until released
    page.goto("/", wait_until="commit")
    wake(page)
    page.wait_for_selector("html[data-state=ui-ready]", state="attached", timeout=90_000)
    seen = {"before": {"export_hidden": page.is_hidden("#export-all"), "safari_hidden": page.is_hidden("#transfer-safari"),
                       "import_enabled": page.is_enabled("#import-games"), "storage": page.evaluate(SNAPSHOT)}}
    path = source["all"][0]
    n = page.evaluate(IMPORTS)
    open_library(page)
    with page.expect_file_chooser() as chooser:
        page.click("#import-games")
    chooser.value.set_files(path)
    page.wait_for_function(STATUS_KIND, arg="progress", timeout=30_000)
    seen["progress"] = (status(page), page.evaluate("document.documentElement.dataset.state"),
                        page.is_disabled("#import-games"), page.evaluate(SNAPSHOT))
    for route in held:
        route.continue_()
    context.unroute("**/generala.lazy.zip")
    page.wait_for_function(IMPORTED, arg=n, timeout=90_000)
    seen["result"] = status(page), page.text_content("#announce")
    wait_ready(page)
    yield {"page": page, "gp": GamePage(page), "seen": seen, "held": len(held)}
    context.close()


# --- export ------------------------------------------------------------------------------------


def test_export_all_is_every_readable_game_in_the_bundle_format(source):
    page = source["page"]
    path, text, ((said, kind), announced) = source["all"]
    y, mo, d = page.evaluate(LOCAL_DATE)
    assert path.name == f"generala-games-{y:04d}-{mo:02d}-{d:02d}.json"
    assert said == f"Exported 3 games to {path.name}." and kind == "info" and announced == said
    doc = json.loads(text)
    assert sorted(doc) == ["exported", "format", "games", "version"]
    assert doc["format"] == "generala-export" and doc["version"] == 1
    exported = datetime.datetime.fromisoformat(doc["exported"].replace("Z", "+00:00"))
    assert abs(exported - datetime.datetime.now(datetime.timezone.utc)) < datetime.timedelta(minutes=10)
    # the stored games, and nothing of the save set aside
    stored = stored_saves(page)
    assert "gjunk" not in stored and page.evaluate("generala.storage.get('generala.save.gjunk')") is not None
    assert "gjunk" in page.inner_text("#aside-list")
    assert sorted(g["id"] for g in doc["games"]) == sorted(stored)
    for g in doc["games"]:
        entry = stored[g["id"]]
        assert sorted(g) == ["finished", "id", "save", "when"]
        assert g["save"] == entry["reply"]["save"]
        assert g["finished"] is entry["over"]
        assert abs(datetime.datetime.fromisoformat(g["when"].replace("Z", "+00:00")).timestamp() * 1000
                   - entry["updated"]) < 1
    # the very games the engine played (CPython mirrors of every action)
    assert sorted(canon(g["save"]) for g in doc["games"]) == sorted(canon(dump(m.session.game))
                                                                    for m in source["mirrors"])
    assert [g["finished"] for g in bundle.read(text)] == [g["finished"] for g in doc["games"]]
    # Safari's note beside the button, which names it
    assert page.inner_text("#transfer-safari") == ("Safari may delete games saved by a site you have not "
                                                   "opened for 7 days: export them to keep a copy.")
    assert page.get_attribute("#export-all", "aria-describedby") == "transfer-safari"


def test_one_game_is_exported_from_its_list_item(source):
    page = source["page"]
    path, text, (said, kind), gid = source["one"]
    y, mo, d = page.evaluate(LOCAL_DATE)
    assert path.name == f"generala-game-puerto-rican-{y:04d}-{mo:02d}-{d:02d}.json"
    assert said == f"Exported General — Ana, Beto to {path.name}." and kind == "info"
    doc = json.loads(text)
    assert doc["format"] == "generala-export" and doc["version"] == 1
    assert len(doc["games"]) == 1
    game = doc["games"][0]
    assert game["id"] == gid and game["finished"] is True
    assert game["save"] == stored_saves(page)[gid]["reply"]["save"] == dump(source["mirrors"][1].session.game)
    # the button is in the finished game's item, named after its game; every readable item has one
    assert page.locator(f'#history-list > li[data-save="{gid}"] [data-export-save="{gid}"]').count() == 1
    names = page.eval_on_selector_all("#continue-list [data-export-save], #history-list [data-export-save]",
                                      "els => els.map(e => e.getAttribute('aria-label'))")
    assert sorted(names) == ["Export General — Ana, Beto", "Export Generala — Ana, Beto", "Export Генерал — Eva"]
    assert page.locator("#aside-list [data-export-save]").count() == 0
    sizes = """sel => [...document.querySelectorAll(sel)]
        .map(b => [b.id || b.getAttribute('aria-label'), b.offsetWidth, b.offsetHeight])"""
    open_library(page)
    in_library = page.evaluate(sizes, "#export-all, #import-games, #history-list [data-export-save]")
    open_home(page)
    in_main = page.evaluate(sizes, "#continue-list [data-export-save]")
    assert len(in_library) == 3 and len(in_main) == 2
    assert [b for b in in_library + in_main if b[1] < 44 or b[2] < 44] == []


# --- import --------------------------------------------------------------------------------------


@pytest.mark.cross_engine
def test_import_in_a_fresh_browser_waits_for_the_engine_and_stores_the_games(source, target):
    page, seen = target["page"], target["seen"]
    name = source["all"][0].name
    before = seen["before"]
    assert before["export_hidden"] and before["safari_hidden"] and before["import_enabled"]
    assert not any(k.startswith("generala.save.") for k in before["storage"])
    (checking, kind), state, busy, storage = seen["progress"]
    assert target["held"] >= 1 and state == "ui-ready"  # the engine had not booted yet
    assert checking == f"Checking “{name}”…" and kind == "progress" and busy
    assert storage == before["storage"]  # nothing stored before the engine checked the file
    assert seen["result"] == (("Imported 3 games.", "info"), "Imported 3 games.")
    assert page.is_enabled("#import-games")
    # the same save documents, each with the view its game draws, and the same words about it
    a_stored = {canon(e["reply"]["save"]): e for e in stored_saves(source["page"]).values()}
    b_stored = stored_saves(page)
    assert sorted(canon(e["reply"]["save"]) for e in b_stored.values()) == sorted(a_stored)
    for entry in b_stored.values():
        original = a_stored[canon(entry["reply"]["save"])]
        for key in ("variant", "title", "names", "over", "round", "turns", "result", "updated"):
            assert entry[key] == original[key], key  # "updated": when it was last played, not imported
        assert entry["reply"]["view"] == app.Session().handle({"op": "load", "save": entry["reply"]["save"]})["view"]
    # the lists of B show what A's showed
    a_page = source["page"]
    for sel in ("#continue-list .save-title", "#history-list .save-title", "#history-list .save-result"):
        assert sorted(page.eval_on_selector_all(sel, "els => els.map(e => e.textContent)")) == \
            sorted(a_page.eval_on_selector_all(sel, "els => els.map(e => e.textContent)")), sel
    open_library(page)
    assert page.is_visible("#export-all") and page.is_visible("#transfer-safari")


def test_importing_the_same_games_again_adds_nothing(source, target):
    page = target["page"]
    before = page.evaluate(SNAPSHOT)
    assert choose_file(page, source["all"][0]) == (
        "Nothing imported: the 3 games in this file are already here.", "info")
    assert choose_file(page, source["one"][0]) == (
        "Nothing imported: the game in this file is already here.", "info")
    assert page.text_content("#announce") == "Nothing imported: the game in this file is already here."
    assert page.evaluate(SNAPSHOT) == before
    # in Russian too (plural forms), with the buttons renamed
    page.select_option("#lang-pick", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    try:
        before = page.evaluate(SNAPSHOT)
        assert page.inner_text("#import-games") == "Импортировать партии"
        labels = page.eval_on_selector_all("[data-export-save]", "els => els.map(e => e.getAttribute('aria-label'))")
        assert len(labels) == 3 and all(label.startswith("Экспортировать ") for label in labels)
        assert choose_file(page, source["all"][0]) == (
            "Ничего не импортировано: все 3 партии из этого файла уже здесь.", "info")
        assert page.evaluate(SNAPSHOT) == before
    finally:
        page.select_option("#lang-pick", "en")
        page.wait_for_function("() => document.documentElement.lang === 'en'")


@pytest.mark.cross_engine
def test_export_import_export_gives_the_identical_games(source, target):
    page = target["page"]
    name, text = download(page, "#export-all")
    again = json.loads(text)["games"]
    first = json.loads(source["all"][1])["games"]
    assert sorted(canon(g["save"]) for g in again) == sorted(canon(g["save"]) for g in first)  # B holds these only
    by_save = {canon(g["save"]): g for g in again}
    for g in first:
        assert by_save[canon(g["save"])]["finished"] is g["finished"]


def edited(text: str, how: str) -> bytes:
    doc = json.loads(text)
    if how == "newer":
        doc["version"] = 2
    elif how == "format":
        doc["format"] = "chess-export"
    elif how == "illegal":
        for number, game in enumerate(doc["games"], 1):
            if game["save"]["variant"] == "argentine":
                hold = next(a for a in game["save"]["history"] if "hold" in a)
                hold["hold"] = [0, 9]  # a die that does not exist
                return json.dumps(doc).encode(), number
    return json.dumps(doc).encode()


# What the player reads (the engine's refusal in the page's words: words_en.py refusal.*).
BAD = {
    "not-json": lambda text: (b"Generala!\n", "The file is damaged: it is not JSON (line 1, column 1)."),
    "truncated": lambda text: (text[: len(text) // 2].encode(), "The file is damaged: it is not JSON"),
    "wrong-format": lambda text: (edited(text, "format"), "The file is not an export of Generala games."),
    "newer-version": lambda text: (edited(text, "newer"),
                                   "The file was made by a newer version of this app (format 2; this version reads 1)."),
    "illegal-history": lambda text: (
        edited(text, "illegal")[0],
        f"Game {edited(text, 'illegal')[1]} of the file cannot be loaded. The saved game is not a valid game. "
        "Dice are numbered 0 to 4, not 9."),
    "oversized": lambda text: ((text + " " * (5_000_001 - len(text.encode()))).encode(),
                               "The file is too large (more than 5 MB)."),
}


@pytest.mark.parametrize("case", [cross_engine(c) if c == "illegal-history" else c for c in BAD])
def test_a_bad_file_is_refused_naming_the_problem_and_changes_nothing(source, target, case):
    page = target["page"]
    data, problem = BAD[case](source["all"][1])
    before = page.evaluate(SNAPSHOT)
    lists = page.inner_text("#continue-list"), page.inner_text("#history-list")
    said, kind = choose_file(page, as_file(f"{case}.json", data))
    assert kind == "error" and page.is_visible("#transfer-status")
    assert said.startswith(f"The file “{case}.json” was not imported. {problem}"), said
    assert said.endswith(". Nothing was changed.")
    assert page.text_content("#announce") == said
    assert page.evaluate(SNAPSHOT) == before
    assert (page.inner_text("#continue-list"), page.inner_text("#history-list")) == lists


def new_games_file(source) -> bytes:
    """Two games A never saw, and one it exported."""
    docs = []
    for variant, names, seed in (("argentine", ["Zoe"], 40), ("double", ["Yann", "Xena"], 41)):
        s = app.Session()
        s.handle({"op": "new", "variant": variant, "sides": names, "seed": seed})
        docs.append(s.handle({"op": "roll"})["save"])
    docs.append(json.loads(source["all"][1])["games"][0]["save"])
    return json.dumps(bundle.export([{"save": d, "when": "2026-11-30T10:00:00.000Z"} for d in docs])).encode()


@pytest.mark.cross_engine
def test_a_full_storage_undoes_the_import_then_it_works(source, target):
    page = target["page"]
    data = new_games_file(source)
    # really full: not even the first game fits
    assert page.evaluate(FILL) > 0
    try:
        before = page.evaluate(SNAPSHOT)
        said, kind = choose_file(page, as_file("more.json", data))
        assert kind == "error" and "the browser's storage is full" in said and "The import was undone" in said
        assert page.evaluate(SNAPSHOT) == before
    finally:
        page.evaluate(EMPTY)
    # full after the first game: what this import wrote is removed again
    before = page.evaluate(SNAPSHOT)
    page.evaluate(FULL_AFTER_ONE)
    try:
        said, kind = choose_file(page, as_file("more.json", data))
    finally:
        page.evaluate("() => window.__restoreSetItem()")
    assert said == ("The games of “more.json” could not all be stored: the browser's storage is full. "
                    "The import was undone; nothing was changed. Delete some saved games and try again.")
    assert kind == "error"
    assert page.evaluate(SNAPSHOT) == before
    # with room again
    assert choose_file(page, as_file("more.json", data)) == ("Imported 2 games (1 already here).", "info")
    after = stored_saves(page)
    assert len(after) == len([k for k in before if k.startswith("generala.save.")]) + 2
    assert sum(e["names"] == ["Zoe"] for e in after.values()) == 1
    assert page.locator("#continue-list > li", has_text="Double General — Yann, Xena").count() == 1


def test_imported_games_continue_exactly_where_they_were(source, target):
    gp, page = target["gp"], target["page"]
    (m1, _m2, m3), (state1, state3) = source["mirrors"], source["states"]
    for label, mirror, state in (("Generala — Ana, Beto", m1, state1), ("Генерал — Eva", m3, state3)):
        gp.home()
        item = page.locator("#continue-list > li", has_text=label)
        gp._after(lambda: item.locator("[data-continue]").click())
        page.wait_for_selector("html[data-state=ready]", state="attached")
        assert board_state(gp) == state, label
        # the dice generator came along: the next roll is the engine's next roll
        gp.roll()
        mirror.do({"op": "roll"})
        assert gp.dice() == mirror.view["dice"], label
        assert gp.totals() == [s["total"] for s in mirror.view["sides"]]
    gp.home()
    assert page.locator("#history-list > li", has_text="General").count() == 1


def test_a_file_of_hundreds_of_games_imports_and_exports_again(target):
    page = target["page"]
    docs = []
    for i in range(500):
        game = Game(variant(["argentine", "bulgarian", "puerto-rican", "double"][i % 4]), ["Ana", "Beto", "Caro"],
                    SeededRoller(1000 + i))
        while not game.over:
            step(game, chase)
        docs.append(game.to_json())
    text = json.dumps(bundle.export([{"save": d, "id": f"big{i}"} for i, d in enumerate(docs)]))
    assert 2_000_000 < len(text) < 5_000_000
    had = len(stored_saves(page))
    assert choose_file(page, as_file("big.json", text)) == ("Imported 500 games.", "info")
    stored = stored_saves(page)
    assert len(stored) == had + 500
    assert {canon(d) for d in docs} <= {canon(e["reply"]["save"]) for e in stored.values()}
    assert page.locator("#history-list > li").count() >= 500
    name, exported = download(page, "#export-all")
    games = json.loads(exported)["games"]
    assert len(games) == had + 500
    assert choose_file(page, as_file(name, exported)) == (
        f"Nothing imported: the {had + 500} games in this file are already here.", "info")
