"""Replays, share links, export files and records.

A finished game is stepped through and the page shows the engine's sheets and dice
at every step; its share link opens the same replay in a fresh browser (no saves);
a damaged or edited link is refused with a message; the download is an export file
the import reads; the records add up the finished games stored in the browser."""
import base64
import binascii
import json
import zlib

import pytest
from e2e_support import STATE_LOG_SCRIPT, Guard, boot, cross_engine, download
from gamepage import Mirror, gp, open_library, play_turn, shared  # noqa: F401
from sheetpage import SheetPage, cells_of

from generala.modes import bundle, share
from generala.catalog import catalog
from generala.modes.records import records
from generala.modes.replay import Replay

# The dice land at once and a computer plays at once (the board's motion switch off: conftest
# STILL_DICE): what is under test here is not the motion (test_table_motion.py).
pytestmark = pytest.mark.still_dice

NAMES = ("Ana", "Beto")
SEED = 3


@pytest.fixture(scope="module")
def finished(shared):
    """A seeded game of Double Generala played to the end on the shared page: its save."""
    page, _ = shared
    sp = SheetPage(page)
    sp.new_game("double", NAMES, seed=SEED, sheet=False)
    m = Mirror("double", NAMES, SEED)
    turn = 0
    while not m.view["over"]:
        play_turn(sp, m, holds=turn % 2 == 0)
        turn += 1
    page.wait_for_selector("#game-share", state="visible")
    return m.session.game.to_json()


def test_replay_shows_the_engines_sheets_at_every_step(gp, finished):
    sp = SheetPage(gp.page)
    p = sp.page
    r = Replay(finished)
    p.click("#replay-this")
    sp.wait_step(0)
    assert p.is_hidden("#board") and p.is_visible("#replay")
    assert int(p.get_attribute("#replay", "data-steps")) == r.steps
    assert "Order of play" in p.inner_text("#replay-event")
    for step in range(r.steps + 1):
        view = r.view_at(step)
        assert sp.replay_cells() == cells_of(view), step
        assert sp.replay_dice() == (view["dice"] or []), step
        held = p.eval_on_selector_all("#replay-dice .mini-die", "els => els.map(e => e.dataset.held === 'true')")
        assert held == (view["held"] if view["dice"] else []), step
        assert sp.replay_totals() == [str(s["total"]) for s in view["sides"]], step
        if step < r.steps:
            sp.replay_click("next", step + 1)
    assert p.is_disabled("#replay-next") and "Game over" in p.inner_text("#replay-event")
    assert p.is_visible("#replay-result")
    # turn by turn, and back to the start
    sp.replay_click("first", 0)
    starts = r.turn_starts()
    sp.replay_click("next_turn", starts[1])
    sp.replay_click("next_turn", starts[2])
    sp.replay_click("prev_turn", starts[1])
    assert "scored" in p.inner_text("#replay-event")
    sp.replay_click("last", r.steps)
    p.keyboard.press("ArrowLeft")
    sp.wait_step(r.steps - 1)
    p.click('#replay [data-replay="back"]')
    p.wait_for_selector("#board", state="visible")
    assert p.is_hidden("#replay")


@pytest.mark.cross_engine
def test_download_is_an_export_file_of_the_game(gp, finished):
    p = gp.page
    name, path = download(p, lambda: p.click("#share-file-btn"))
    assert name.startswith("generala-double-")
    text = path.read_text(encoding="utf-8")
    assert len(text) < 20_000
    games = bundle.read(text)
    assert len(games) == 1 and games[0]["save"]["history"] == finished["history"]


@pytest.fixture
def fresh(browser, base_url):
    """A new browser context (no saves) whose problems fail the test."""
    context = browser.new_context(base_url=base_url, service_workers="block")
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    yield context.new_page(), guard
    guard.collect_error_boxes()
    problems = guard.report()
    context.close()
    if problems:
        pytest.fail("the browser reported problems:\n" + problems, pytrace=False)


@pytest.mark.cross_engine
def test_share_link_opens_the_replay_in_a_fresh_browser(gp, finished, fresh):
    p = gp.page
    p.click("#share-link-btn")
    p.wait_for_selector("#share-url-b", state="visible")
    url = p.input_value("#share-url-b")
    assert url.startswith(p.url.split("#")[0].rstrip("/") + "/index.html#replay=g1."), url
    token = url.split("#replay=")[1]
    assert share.decode(token)["history"] == finished["history"]
    other, _ = fresh
    assert other.evaluate("() => 1") == 1
    boot(other, url)
    other.wait_for_selector("#replay", state="visible")
    sp = SheetPage(other)
    sp.wait_step(0)
    assert other.evaluate("() => generala.storage.keys('generala.save.').length") == 0
    r = Replay(finished)
    assert "Ana, Beto" in other.inner_text("#replay")
    sp.replay_click("last", r.steps)
    assert sp.replay_cells() == cells_of(r.view_at(r.steps))
    assert sp.replay_totals() == [str(t) for t in Replay(finished).final.totals()]
    # a link is also offered from the replay itself, and Back leaves for the home screen
    other.click('#replay [data-share="link"]')
    other.wait_for_selector("#share-url-r", state="visible")
    assert other.input_value("#share-url-r").split("#replay=")[1] == token
    other.click('#replay [data-replay="back"]')
    other.wait_for_selector("#home", state="visible")
    assert "#replay" not in other.url


@pytest.mark.cross_engine
def test_a_downloaded_file_opens_as_a_replay(gp, finished):
    p = gp.page
    _, path = download(p, lambda: p.click("#share-file-btn"))
    # the file opens as a replay from the home screen (here, or on another device)
    sp = SheetPage(p)
    sp.home()
    p.set_input_files("#open-file", path)
    sp.wait_step(0)
    r = Replay(finished)
    sp.replay_click("last", r.steps)
    assert sp.replay_cells() == cells_of(r.view_at(r.steps))
    assert p.locator('#replay [data-share="link"]').count() == 1
    p.click('#replay [data-replay="back"]')
    p.wait_for_selector("#home", state="visible")
    # a file that is not a game is refused with a message
    p.set_input_files("#open-file", files=[{"name": "notes.json", "mimeType": "application/json",
                                            "buffer": b'{"hello": 1}'}])
    p.wait_for_selector("#messages .msg-error", state="visible")
    assert "The file “notes.json” cannot be opened. The file is not an export of Generala games." \
        in p.inner_text("#messages")
    p.click("#messages .msg-error [data-dismiss]")
    assert p.is_visible("#home") and p.is_hidden("#replay")


def test_a_file_of_a_few_megabytes_opens_its_first_game(gp, finished):
    """The file is read and checked in JS (static/js/transfer.mjs): as one MicroPython
    string, 2 MB failed with MemoryError and left the page broken."""
    p = gp.page
    n = 3_000_000 // len(json.dumps(finished)) + 1  # about 3 MB
    text = json.dumps(bundle.export([{"save": finished, "id": f"g{i}"} for i in range(n)]))
    assert 2_000_000 < len(text) < 5_000_000
    sp = SheetPage(p)
    sp.home()
    p.set_input_files("#open-file", files=[{"name": "many.json", "mimeType": "application/json",
                                            "buffer": text.encode()}])
    sp.wait_step(0)
    assert f"The file holds {n} games: the first one is shown." in p.inner_text("#messages")
    r = Replay(finished)
    sp.replay_click("last", r.steps)
    assert sp.replay_cells() == cells_of(r.view_at(r.steps))
    p.click('#replay [data-replay="back"]')
    p.wait_for_selector("#home", state="visible")


@pytest.mark.parametrize("how", [cross_engine("one character changed"), "cut short", "not a link"])
def test_a_tampered_link_is_refused_with_a_message(finished, fresh, how):
    token = share.encode(finished)
    if how == "one character changed":
        i = len(token) // 2
        token = token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1:]
    elif how == "cut short":
        token = token[:-5]
    else:
        token = "hello"
    page, _ = fresh
    boot(page, "/index.html#replay=" + token)
    page.wait_for_selector("#replay-error", state="visible")
    text = page.inner_text("#replay-error")
    assert "This game link cannot be opened" in text
    assert ("damaged" in text) or ("not a Generala game link" in text)
    assert page.locator("#replay-sheet").count() == 0


def _token_of(raw_text: bytes) -> str:
    """A well-formed link token (checksum right) around any bytes."""
    packed = zlib.compress(raw_text, 9)
    raw = packed + binascii.crc32(packed).to_bytes(4, "big")
    return share.PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _edited_die(doc: dict) -> dict:
    doc = json.loads(json.dumps(doc))
    for i, action in enumerate(doc["history"]):
        if "roll" in action:
            action["roll"][0] = action["roll"][0] % 6 + 1
            return doc
    raise AssertionError("no roll in the game")


@pytest.mark.parametrize("how", ["a die edited, checksum redone", "megabytes of brackets", "nested 100,000 deep"])
def test_a_forged_or_hostile_link_is_refused_and_the_engine_goes_on(finished, fresh, how):
    # Each link is well formed (its checksum matches): the engine in the browser's
    # worker must refuse it with a reason, never fail, and answer the next request.
    if how == "a die edited, checksum redone":
        token = _token_of(json.dumps(_edited_die(finished), separators=(",", ":")).encode())
        reason = "The dice were edited: in turn"
    elif how == "megabytes of brackets":
        token = _token_of(b"[" * 1_900_000)
        assert len(token) < 4000  # a small link that inflates to 1.9 MB
        reason = "far more than any real game"
    else:
        token = _token_of(b"[" * 100_000 + b"]" * 100_000)
        reason = "nests more than 32 levels"
    page, _ = fresh
    boot(page, "/index.html#replay=" + token)
    page.wait_for_selector("#replay-error", state="visible")
    text = page.inner_text("#replay-error")
    assert "This game link cannot be opened" in text and reason in text, text
    assert page.locator("#replay-sheet").count() == 0
    assert json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))"))["ok"] is True


def test_deep_requests_saves_and_files_get_a_clean_refusal_from_the_browsers_engine(app_page):
    deep = "[" * 100_000 + "]" * 100_000
    requests = {
        "request": deep,
        "save": '{"op": "load", "save": ' + deep + "}",
        "export file": json.dumps({"op": "import", "text": deep}),
        "share of a save": '{"op": "share", "save": {"history": ' + deep + "}}",
    }
    for what, text in requests.items():
        reply = json.loads(app_page.evaluate("(t) => generala.engine.call(t)", text))
        assert reply["ok"] is False and reply["kind"] in ("InvalidInput", "SaveError"), (what, reply)
        assert "nests more than 32 levels" in reply["error"], (what, reply)
    assert json.loads(app_page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))"))["ok"] is True


def test_a_saved_score_sheet_game_is_replayed_from_the_home_screen(gp, finished):
    sp = SheetPage(gp.page)
    p = sp.page
    dani = "<b>Dani</b>"  # a name is only ever text
    sp.new_game("puerto-rican", ("Caro", dani), options={"stake_per_point": 1})
    sp.enter([3, 3, 3, 5, 5], at=3)
    sp.score("full-house")
    sp.enter([5, 5, 5, 5, 5], at=1)
    p.wait_for_selector("#over", state="visible")
    sp.home()
    open_library(p)
    item = p.locator("#history-list li", has_text="Caro")
    item.locator("[data-replay-save]").click()
    sp.wait_step(0)
    sp.replay_click("next", 1)
    assert p.inner_text("#replay-event") == "Caro entered 3 3 3 5 5 on roll 3."
    sp.replay_click("last", 3)
    assert f"{dani} entered 5 5 5 5 5 on roll 1 (first roll). {dani} wins with a Big General" \
        in p.inner_text("#replay-event")
    assert f"Caro pays {dani}" in p.inner_text("#replay-result")
    assert p.locator("#replay b, #replay script").count() == 0
    assert dani in p.inner_text("#replay-sheet thead")
    p.click('#replay [data-replay="back"]')
    p.wait_for_selector("#home", state="visible")


def test_an_unfinished_saved_game_is_replayed_too(gp, finished):
    sp = SheetPage(gp.page)
    p = sp.page
    sp.new_game("argentine", ("Eva",), seed=5, sheet=False)
    m = Mirror("argentine", ("Eva",), 5)
    play_turn(sp, m, holds=False)
    sp.roll()
    m.do({"op": "roll"})
    sp.hold(0)
    m.do({"op": "toggle", "die": 0})
    sp.home()
    p.locator("#continue-list li", has_text="Eva").locator("[data-replay-save]").click()
    sp.wait_step(0)
    r = Replay(m.session.game.to_json())
    sp.replay_click("last", r.steps)
    assert sp.replay_cells() == cells_of(r.view_at(r.steps))
    assert sp.replay_dice() == m.view["dice"]
    assert "Eva held dice 1" in p.inner_text("#replay-event")
    assert p.locator("#replay [data-share]").count() == 0  # only a finished game is shared
    p.click('#replay [data-replay="back"]')
    p.wait_for_selector("#home", state="visible")


@pytest.mark.cross_engine
def test_records_add_up_the_finished_games(gp, finished):
    sp = SheetPage(gp.page)
    p = sp.page
    # two Puerto Rican games for Ana: won with a Big General at once, then lost to one
    sp.new_game("puerto-rican", ("Ana", "Caro"))
    sp.enter([2, 2, 2, 2, 2], at=1)
    p.wait_for_selector("#over", state="visible")
    sp._after(lambda: p.click("#again"))
    sp.enter([3, 3, 3, 5, 5], at=3)
    sp.score("full-house")
    sp.enter([6, 6, 6, 6, 6], at=1)
    p.wait_for_selector("#over", state="visible")
    sp.home()
    entries = p.evaluate("""() => generala.storage.keys('generala.save.').map(k => JSON.parse(generala.storage.get(k)))""")
    done = sorted((e for e in entries if e["over"]), key=lambda e: e["updated"])
    expected = records([{"save": e["reply"]["save"], "when": None} for e in done])["players"]
    p.click("#nav-records")
    p.wait_for_selector("#records[data-ready]", state="attached")
    rows = p.locator("#records-table tbody tr")
    assert rows.count() == len(expected) >= 3
    for k, rec in enumerate(expected):
        row = rows.nth(k)
        assert row.get_attribute("data-name") == rec["name"]
        values = {key: row.locator(f'[data-key="{key}"]').inner_text() for key in
                  ("games", "wins", "best", "mean", "five_alike")}
        assert values == {key: f"{rec[key]:g}" for key in values}, rec["name"]
    # one player's detail: the chart has a point per game, and the scratches
    ana = next(k for k, rec in enumerate(expected) if rec["name"] == "Ana" and rec["variant"] == "puerto-rican")
    assert expected[ana]["games"] == 2 and expected[ana]["wins"] == 1 and expected[ana]["five_alike"] == 1
    rows.nth(ana).click()
    assert p.get_attribute("#record-detail", "data-record") == str(ana)
    assert p.inner_text("#record-detail h3") == "Ana — " + catalog()["variants"]["puerto-rican"]["title"]
    dots = p.eval_on_selector_all("#record-detail svg.chart circle", "els => els.map(e => +e.dataset.score)")
    assert dots == [s["score"] for s in expected[ana]["scores"]]
    scratches = expected[ana]["scratches"]
    if scratches:
        assert p.locator("#record-scratches li").count() == len(scratches)
    p.click('#records [data-records="back"]')
    p.wait_for_selector("#home", state="visible")
