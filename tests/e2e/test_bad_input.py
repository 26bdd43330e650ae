"""Bad input: hostile names are shown as text and run nothing; long names are
shortened with a message; bad URL parameters get a visible message and defaults."""
import pytest
from e2e_support import wait_ready
from gamepage import GamePage, gp, open_setup, shared  # noqa: F401

HOSTILE = '<img src=x onerror=alert(1)><script type="py">print(1)</script>'
SCRIPT = '<script type="py">print(1)</script>'


@pytest.mark.cross_engine
def test_hostile_names_are_shown_literally_and_run_nothing(gp: GamePage):
    p = gp.page
    dialogs, printed, images = [], [], []
    p.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    p.on("console", lambda msg: printed.append(msg.text) if msg.text.strip() == "1" else None)
    # An <img src=x> made from a name, even one never put in the document, is fetched
    # at once; its onerror would run only after that fetch.
    p.on("request", lambda r: images.append(r.url) if r.url.rstrip("/").endswith("/x") else None)
    gp.home()
    open_setup(p)
    name = p.locator("#sides .side-name").first
    name.fill(HOSTILE)
    msg = p.locator("#sides .field-error").first
    assert msg.is_visible() and "at most 24 characters" in msg.inner_text()
    gp.new_game("argentine", (HOSTILE, "Ana", SCRIPT[:24]), seed=1, teams={1: SCRIPT + ", <b>bold</b>"})
    notes = p.inner_text("#messages")
    assert "Name shortened to 24 characters" in notes
    heads = p.locator("#sheet thead th[data-side]")
    assert heads.nth(0).inner_text().lstrip("▸ ").strip() == HOSTILE[:24]
    assert SCRIPT[:24] in heads.nth(1).inner_text() and "<b>bold</b>" in heads.nth(1).inner_text()
    assert heads.nth(2).inner_text().lstrip("▸ ").strip() == SCRIPT[:24]
    gp.roll()
    gp.home()
    assert HOSTILE[:24] in p.inner_text("#continue-list")
    # nothing became markup anywhere
    counts = p.evaluate("""() => ({
        img: document.querySelectorAll('#app img, #app b').length,
        scripts: document.querySelectorAll('body script').length,
    })""")
    assert counts == {"img": 0, "scripts": 0}  # the page's body has no script of its own
    assert images == [] and dialogs == [] and printed == []


@pytest.mark.cross_engine
def test_bad_url_parameters_get_a_message_and_defaults(gp: GamePage):
    p = gp.page
    p.goto("/?variant=%3Cb%3Eyacht%3C/b%3E&seed=-4x")
    wait_ready(p)
    gp.home()
    open_setup(p)
    text = p.inner_text("#messages")
    assert "Unknown game “<b>yacht</b>”" in text
    assert "seed “-4x”" in text and "random" in text
    assert p.is_checked('input[data-variant="argentine"]')
    assert p.input_value("#seed") == ""


def test_good_url_parameters_choose_the_game_and_seed(gp: GamePage):
    p = gp.page
    p.goto("/?variant=bulgarian&seed=77")
    wait_ready(p)
    gp.home()
    open_setup(p)
    assert p.inner_text("#messages").strip() == ""
    assert p.is_checked('input[data-variant="bulgarian"]')
    assert p.input_value("#seed") == "77"
    assert "no house options" in p.inner_text("#house-options")


def test_a_bad_seed_in_the_form_is_refused_with_a_message(gp: GamePage):
    p = gp.page
    gp.home()
    open_setup(p)
    if not p.is_visible("#seed"):
        p.click(".seed summary")
    p.fill("#seed", "12abc")
    p.click("#start")
    p.wait_for_selector("#setup-error", state="visible")
    assert "whole number" in p.inner_text("#setup-error")
    assert p.is_visible("#home")


@pytest.mark.parametrize("prefix", ["#play=", "#replay="])
def test_an_address_of_megabytes_is_refused_unread_and_the_page_starts(gp: GamePage, prefix):
    # A link 1.9 MB long in the address (the longest Chromium keeps is 2 MB): its length
    # is read in JavaScript and nothing of it is copied into MicroPython; the page boots
    # to ready and says the link is too long, in the page's words, as the engine would.
    p = gp.page
    p.goto("/" + prefix + "A" * 1_900_000)
    wait_ready(p)
    if prefix == "#play=":
        p.wait_for_selector("#linkplay:not([hidden])[data-state=refused]")
        assert "The game link is too long." in p.inner_text("#link-error")
        assert p.evaluate("location.hash") == ""  # not read again by a reload
        assert p.get_attribute("#linkplay", "data-opened") == "1"
    else:
        p.wait_for_selector("#replay-error")
        assert "The game link is too long." in p.inner_text("#replay-error")
    # and the page plays: a new game from the home screen
    p.goto("/")
    wait_ready(p)
    gp.new_game("argentine", names=("Ana",))
    gp.roll()
    assert len(gp.dice()) == 5
