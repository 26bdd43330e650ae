"""Embed mode: ?embed=1 in a cross-site iframe on a blog-like host page.

The host page ("localhost", a server of its own) frames the game ("127.0.0.1")
with the README's snippet and its height listener. Playwright's Chromium denies
storage to that cross-site frame, so the game plays from memory and says so;
Firefox gives the frame storage partitioned by the embedding site, so saves persist
there and no notice shows.
"""
import urllib.parse

import pytest
from gamepage import GamePage, board_menu

from e2e_support import host_page, wait_ready

# The README's host-page script: size the iframe from the game's messages.
LISTENER = """
<script>
  const frame = document.getElementById("generala");
  window.heights = [];
  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const data = event.data;
    if (!data || data.type !== "generala:height" || !Number.isFinite(data.height)) return;
    frame.style.height = Math.max(200, Math.ceil(data.height)) + "px";
    window.heights.push(data.height);
    document.body.dataset.gameHeight = String(data.height);
  });
</script>
"""


@pytest.fixture
def blog(base_url):
    port = urllib.parse.urlsplit(base_url).port
    game_url = f"http://127.0.0.1:{port}/?embed=1&variant=argentine&lang=es&seed=7"
    body = (
        '<!doctype html><html lang="en"><title>blog</title>'
        '<main style="width:320px"><p>A post about dice.</p>'
        f'<iframe id="generala" src="{game_url}" title="Generala" loading="lazy"'
        ' sandbox="allow-scripts allow-same-origin"'
        ' style="width:100%;max-width:480px;height:720px;border:0"></iframe>'
        f'</main>{LISTENER}'
    ).encode()

    with host_page(body) as url:
        yield url, game_url


def game_frame(page, game_url):
    page.frame_locator("#generala").locator("html").wait_for(state="attached")
    frames = [f for f in page.frames if f.url.startswith(game_url.split("?")[0])]
    assert frames, [f.url for f in page.frames]
    return frames[0]


# Whether each engine lets the cross-site frame keep its saves.
FRAME_STORAGE_PERSISTS = {"chromium": False, "firefox": True}


@pytest.mark.cross_engine
def test_embedded_game_is_compact_and_reports_its_height(page, blog, browser_name):
    open_embed(page, blog, browser_name)


def open_embed(page, blog, browser_name):
    """The blog page with the game booted in its frame, checked in embed mode, its
    storage as the engine gives it, its height heard. Returns (game frame, heights)."""
    host_url, game_url = blog
    page.set_viewport_size({"width": 400, "height": 900})
    page.goto(host_url)
    game = game_frame(page, game_url)
    wait_ready(game)

    # Embed mode: compact, no site chrome, a link to the full game (same URL without embed=1).
    assert game.evaluate("document.documentElement.classList.contains('embed')")
    assert game.evaluate("document.documentElement.lang") == "es"
    assert not game.is_visible(".site-title") and not game.is_visible(".site-footer")
    assert not game.is_visible("#lang-pick")
    link = game.locator("#embed-open")
    assert link.is_visible()
    assert link.inner_text() == "Abrir el juego completo"
    assert link.get_attribute("target") == "_blank" and link.get_attribute("rel") == "noopener"
    href = urllib.parse.urlsplit(link.evaluate("a => a.href"))
    assert dict(urllib.parse.parse_qsl(href.query)) == {"variant": "argentine", "lang": "es", "seed": "7"}
    # ?variant= still preselects the game.
    assert game.is_checked('input[data-variant="argentine"]')

    # Playwright's Chromium denies storage to the cross-site frame: the notice shows,
    # and play goes on from memory. Firefox partitions it: saves persist, no notice.
    persists = FRAME_STORAGE_PERSISTS[browser_name]
    assert game.evaluate("generala.storage.persistent") is persists
    assert game.is_visible("#storage-note") is (not persists)

    # The host page hears the height and sizes the frame to it.
    page.wait_for_function("() => document.body.dataset.gameHeight > 0")
    first = page.evaluate("window.heights.slice()")
    height, frame_px = page.evaluate(
        "[+document.body.dataset.gameHeight, document.getElementById('generala').getBoundingClientRect().height]")
    assert abs(frame_px - max(200, height)) <= 1
    return game, first


@pytest.mark.only_chromium(
    "Playwright 1.64 over WebDriver BiDi hangs, with no timeout, on the first action inside the"
    " cross-site iframe in Firefox 153 (GamePage.new_game); the WebKit suite plays a turn in the embed too")
def test_embedded_game_plays_a_turn_and_follows_its_height(page, blog, browser_name):
    game, first = open_embed(page, blog, browser_name)
    # Play a turn inside the frame: roll, then score a box.
    gp = GamePage(game)
    gp.new_game(variant="argentine", names=("Ana",), seed=7)
    gp.roll()
    assert len(gp.dice()) == 5
    box = game.locator("#sheet button.box:visible").first.get_attribute("data-box")
    gp.score(box)
    assert gp.cell(box, 0) != ""

    # The board is not as tall as the setup form: a new height was posted, and the
    # iframe follows it (no inner scroll bar needed).
    page.wait_for_function("h => window.heights.length > h", arg=len(first))
    height, frame_px = page.evaluate(
        "[+document.body.dataset.gameHeight, document.getElementById('generala').getBoundingClientRect().height]")
    assert height > 0
    assert abs(frame_px - max(200, height)) <= 1
    # Compact: no horizontal overflow in a 320 px column.
    assert game.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")

    # Dialogs close inside the sandbox (no allow-forms): the rules, opened and closed.
    board_menu(game, "rules")
    game.wait_for_selector("#rules[open]")
    game.click("#rules .dialog-close")
    game.wait_for_selector("#rules:not([open])", state="attached")


@pytest.mark.cross_engine
def test_bad_embed_value_is_ignored(page, base_url):
    page.goto(base_url + "/?embed=yes")
    wait_ready(page)
    assert not page.evaluate("document.documentElement.classList.contains('embed')")
    assert page.is_visible(".site-title")
    assert not page.is_visible("#embed-open")


def test_an_embedded_game_off_screen_fetches_the_uis_files_ahead(page, base_url, dist_dir):
    # A game framed far down a post: the UI does not start until it is on screen, but once
    # the engine is ready its files (PyScript's core, MicroPython, the pack of every file
    # of the config's [files]) are fetched into the HTTP cache, each one found.
    import json
    port = urllib.parse.urlsplit(base_url).port
    game_url = f"http://127.0.0.1:{port}/?embed=1&lang=en"
    body = ('<!doctype html><html lang="en"><title>blog</title><main style="width:320px">'
            '<p style="height:3000px">A long post about dice.</p>'
            f'<iframe id="generala" src="{game_url}" title="Generala"'
            ' sandbox="allow-scripts allow-same-origin" style="width:100%;height:720px;border:0"></iframe>'
            '</main>').encode()
    config = json.loads((dist_dir / "pyscript.json").read_text(encoding="utf-8"))
    site = f"http://127.0.0.1:{port}/"
    interpreter = urllib.parse.urljoin(site, config["interpreter"])
    wanted = {urllib.parse.urljoin(site, "pyscript-files.gz"), interpreter, interpreter.replace(".mjs", ".wasm"),
              urllib.parse.urljoin(site, "catalog.json")}
    answered = {}
    page.on("response", lambda response: answered.__setitem__(response.url, response.status))
    with host_page(body) as url:
        page.goto(url)
        frame = game_frame(page, game_url)
        # (polled on a timer: an off-screen frame draws no animation frames)
        frame.wait_for_function("() => globalThis.generala?.engine?.state === 'ready'", timeout=60_000, polling=100)
        frame.wait_for_function(
            """(urls) => urls.every((url) => performance.getEntriesByName(url).length > 0)""",
            arg=sorted(wanted), timeout=60_000, polling=100)
        assert frame.get_attribute("html", "data-ui") is None  # the UI has not started
    assert {url: answered.get(url) for url in wanted} == {url: 200 for url in wanted}
    assert [url for url in answered if "/vendor/pyscript/" in url and url.endswith("/core.js")]
    assert not [url for url in answered if url.endswith(".mpy")]  # each in the pack
