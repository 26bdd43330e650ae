"""The QR code of a link (static/js/qr-code.mjs, `generala.qr`) on the built page, read
back with a decoder: every link the hand-over screen may show is drawn and decodes to
exactly its text; past what version 40-L holds the figure says `too-long` and draws
nothing; the encoder loads only with the first QR code, and a failed load says `failed`
and is tried again by the next call; offline, the service worker serves it once a QR code
was shown or a game was played (it is not precached: a first game never needs it); offline
and never kept, the figure says `offline` and its caption why, with no request made.

The decoder is jsQR (a devDependency, never published): this test serves
node_modules/jsqr/dist/jsQR.js at a same-origin URL of its own (a Playwright route) and
adds it as a script tag, so the page keeps its strict CSP (no inline script). The pixels
are read back with getImageData and decoded in the page. The page runs in the dark theme:
the symbol must still be black on white.
"""
from __future__ import annotations

import random
import statistics
import string
from pathlib import Path

import pytest
from e2e_support import STATE_LOG_SCRIPT, Guard, boot, cross_engine, wait_ready
from test_offline import first_visit, own_site, sw_context  # noqa: F401 (fixtures)

JSQR = Path(__file__).resolve().parents[2] / "node_modules" / "jsqr" / "dist" / "jsQR.js"
JSQR_URL = "/__test__/jsQR.js"
LIBRARY = "vendor/qrcode-generator/"
BASE64URL = string.ascii_letters + string.digits + "-_"
LABEL = "The link as a QR code"
CAPACITY_40L = 2953  # bytes, byte mode, error correction L

# Shows `text` in the figure `id` (made on first use), then reads the canvas back (with
# `again` false: only reads what the figure shows, compared with `text`).
SHOW_AND_READ = """async ([id, text, label, again = true]) => {
  let figure = document.getElementById(id);
  if (!figure) {
    figure = document.createElement("figure");
    figure.id = id;
    document.body.append(figure);
  }
  if (label) figure.dataset.qrLabel = label;
  const t0 = performance.now();
  const result = again ? await generala.qr.show(figure, text) : undefined;
  const out = { state: figure.dataset.qr, ms: performance.now() - t0, returned: result === undefined,
                canvases: figure.querySelectorAll("canvas").length };
  const canvas = figure.querySelector("canvas");
  if (!canvas) return out;
  Object.assign(out, { hidden: canvas.hidden, role: canvas.getAttribute("role"),
    label: canvas.getAttribute("aria-label"), width: canvas.width, height: canvas.height,
    cssWidth: canvas.getBoundingClientRect().width, version: Number(canvas.dataset.version),
    dpr: devicePixelRatio, shown: canvas.getBoundingClientRect().height > 0 });
  if (canvas.hidden || !canvas.width) return out;
  const img = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  const px = (x, y) => Array.from(img.data.subarray(4 * (y * img.width + x), 4 * (y * img.width + x) + 4));
  let grey = 0;  // pixels neither black nor white (blur, a theme's colour)
  for (let i = 0; i < img.data.length; i += 4) {
    const [r, g, b, a] = img.data.subarray(i, i + 4);
    if (a !== 255 || !((r === 0 && g === 0 && b === 0) || (r === 255 && g === 255 && b === 255))) grey++;
  }
  const side = out.version * 4 + 17 + 8;
  const unit = img.width / side;
  let quietDark = 0;  // dark pixels in the 4-module border
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const inside = x >= 4 * unit && y >= 4 * unit && x < img.width - 4 * unit && y < img.height - 4 * unit;
      if (!inside && px(x, y)[0] !== 255) quietDark++;
    }
  }
  const code = jsQR(img.data, img.width, img.height, { inversionAttempts: "dontInvert" });
  Object.assign(out, { unit, grey, quietDark, finderCorner: px(4 * unit, 4 * unit),
    decoded: code ? code.data : null,
    bytes: code ? Array.from(code.binaryData).join(",") === Array.from(new TextEncoder().encode(text)).join(",") : false });
  return out;
}"""

LOADED = "performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('%s'))" % LIBRARY


def link(base: str, size: int, seed: int = 7) -> str:
    """`base` + a hand-over token of base64url characters, `size` bytes in all."""
    rng = random.Random(seed)
    head = f"{base}/#play=p1."
    return head + "".join(rng.choice(BASE64URL) for _ in range(size - len(head)))


def qr_context(browser, base_url, guards, **args):
    context = browser.new_context(base_url=base_url, service_workers="block", color_scheme="dark",
                                  viewport={"width": 1280, "height": 800}, **args)
    guard = Guard()
    guard.attach_context(context)
    guards.append(guard)
    context.add_init_script(STATE_LOG_SCRIPT)
    context.route(f"**{JSQR_URL}", lambda route: route.fulfill(
        path=str(JSQR), content_type="text/javascript; charset=utf-8"))
    page = context.new_page()
    boot(page)
    return context, page


@pytest.fixture(scope="module")
def qr(browser, base_url):
    """One booted page for the module (1x, dark theme) with jsQR added, the encoder's
    resource entries before any QR code, and the times of the first show() of a two-side
    hand-over link (the encoder's import included) and of later ones."""
    guards: list[Guard] = []
    context, page = qr_context(browser, base_url, guards)
    facts = {"loaded_before": page.evaluate(LOADED)}
    page.add_script_tag(url=JSQR_URL)
    hand_over = link(base_url, 1320)
    facts["first"] = page.evaluate(SHOW_AND_READ, ["qr-time", hand_over, LABEL])
    facts["later_ms"] = [page.evaluate(SHOW_AND_READ, ["qr-time", hand_over, LABEL])["ms"] for _ in range(9)]
    facts["loaded_after"] = page.evaluate(LOADED)
    yield page, guards[0], facts
    context.close()


@pytest.fixture
def qr_page(qr):
    page, guard, _ = qr
    pending = list(guard.problems)
    guard.problems.clear()
    yield page
    guard.collect_error_boxes()
    problems = pending + guard.problems
    guard.problems.clear()
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(f"  - {p}" for p in problems), pytrace=False)


def assert_read_back(seen: dict, text: str) -> None:
    assert seen["state"] == "drawn", seen
    assert seen["returned"] and seen["canvases"] == 1 and not seen["hidden"] and seen["shown"]
    assert seen["decoded"] == text and seen["bytes"], f"decoded {seen['decoded']!r:.80}, not {text!r:.80}"
    assert seen["role"] == "img" and seen["label"] == LABEL
    # Crisp: whole device pixels a module, one canvas pixel on one device pixel, nothing grey.
    assert seen["unit"] == int(seen["unit"]) and seen["unit"] >= 2, seen
    assert abs(seen["cssWidth"] * seen["dpr"] - seen["width"]) < 0.01 and seen["width"] == seen["height"]
    assert seen["grey"] == 0
    # The quiet zone: 4 white modules all round, then the finder pattern's dark corner.
    assert seen["quietDark"] == 0 and seen["finderCorner"] == [0, 0, 0, 255]
    # About 240-300 CSS px: at most 300 unless its modules would be under 2 device px.
    assert seen["cssWidth"] <= 300 or seen["unit"] == 2, seen
    assert seen["cssWidth"] >= 200, seen


def test_the_encoder_loads_with_the_first_qr_code_only(qr):
    _, _, facts = qr
    assert facts["loaded_before"] == []
    assert len(facts["loaded_after"]) == 1 and facts["loaded_after"][0].endswith("/qrcode.mjs")


@pytest.mark.parametrize("size, version", [
    cross_engine(60, None, id="short link"),
    cross_engine(1320, 26, id="two-side hand-over, 1320 bytes"),
    cross_engine(2900, 40, id="2900 bytes"),
    cross_engine(CAPACITY_40L, 40, id="2953 bytes, all that 40-L holds"),
])
def test_a_link_is_drawn_and_reads_back_exactly(qr_page, base_url, size, version):
    text = link(base_url, size, seed=size)
    assert len(text.encode()) == size
    seen = qr_page.evaluate(SHOW_AND_READ, [f"qr-{size}", text, LABEL])
    assert_read_back(seen, text)
    if version:
        assert seen["version"] == version  # the smallest that holds it
    else:
        assert seen["version"] <= 5


@pytest.mark.cross_engine
def test_text_beyond_ascii_is_encoded_as_utf8(qr_page, base_url):
    text = f"{base_url}/#play=p1.abc Ана и Бето, ¡Generala! ✓"
    seen = qr_page.evaluate(SHOW_AND_READ, ["qr-utf8", text, LABEL])
    assert_read_back(seen, text)


@pytest.mark.cross_engine
@pytest.mark.parametrize("size", [CAPACITY_40L + 1, 4470])
def test_a_link_longer_than_version_40_l_holds_draws_nothing(qr_page, base_url, size):
    figure = f"qr-long-{size}"
    assert_read_back(qr_page.evaluate(SHOW_AND_READ, [figure, link(base_url, 100), LABEL]), link(base_url, 100))
    seen = qr_page.evaluate(SHOW_AND_READ, [figure, link(base_url, size), LABEL])
    assert seen["state"] == "too-long" and seen["hidden"] and not seen["shown"] and seen["canvases"] == 1, seen
    # The next link that fits is drawn in the same figure again.
    short = link(base_url, 80, seed=3)
    assert_read_back(qr_page.evaluate(SHOW_AND_READ, [figure, short, LABEL]), short)


@pytest.mark.cross_engine
def test_show_again_replaces_the_drawing_and_clear_removes_it(qr_page, base_url):
    first, second = link(base_url, 900, seed=1), link(base_url, 300, seed=2)
    # Two calls at once: the later one's text is what the figure shows, in one canvas.
    qr_page.evaluate("""([a, b]) => {
      const figure = document.createElement("figure");
      figure.id = "qr-twice";
      figure.dataset.qrLabel = "The link as a QR code";
      document.body.append(figure);
      generala.qr.show(figure, a);
      return generala.qr.show(figure, b);
    }""", [first, second])
    assert_read_back(qr_page.evaluate(SHOW_AND_READ, ["qr-twice", second, LABEL, False]), second)
    gone = qr_page.evaluate("""() => {
      const figure = document.getElementById("qr-twice");
      generala.qr.clear(figure);
      return [figure.querySelectorAll("canvas").length, "qr" in figure.dataset];
    }""")
    assert gone == [0, False]
    # Nothing it is given makes it throw.
    assert qr_page.evaluate("""async () => {
      for (const bad of [null, undefined, 7, "text", {}]) { await generala.qr.show(bad, "x"); generala.qr.clear(bad); }
      const figure = document.createElement("div");
      await generala.qr.show(figure, null);
      return figure.dataset.qr;
    }""") == "drawn"


def test_the_label_falls_back_to_the_pages_language(qr_page, base_url):
    label = qr_page.evaluate("""async () => {
      const figure = document.createElement("figure");
      await generala.qr.show(figure, "x");
      return figure.querySelector("canvas").getAttribute("aria-label");
    }""")
    assert label == {"en": "QR code", "es": "Código QR", "bg": "QR код", "ru": "QR-код"}[
        qr_page.evaluate("document.documentElement.lang")[:2]]


@pytest.mark.cross_engine
def test_two_side_hand_over_time_and_size(qr, dist_dir):
    # The figures of docs/link-play.md: printed with -s; bounds a slow CI machine meets.
    _, _, facts = qr
    assert_read_back(facts["first"], facts["first"]["decoded"] or "")
    later = statistics.median(facts["later_ms"])
    size = sum(p.stat().st_size for p in (dist_dir / LIBRARY).rglob("*") if p.is_file())
    print(f"\nQR of a 1320-byte link at 1x: first show {facts['first']['ms']:.1f} ms (encoder import "
          f"included), later {later:.1f} ms (median of 9, fastest {min(facts['later_ms']):.1f}); "
          f"encoder {size:,} bytes")
    assert facts["first"]["ms"] < 3000 and later < 500


@pytest.mark.cross_engine
def test_at_2x_each_module_is_whole_device_pixels(browser, base_url):
    guards: list[Guard] = []
    context, page = qr_context(browser, base_url, guards, device_scale_factor=2)
    try:
        page.add_script_tag(url=JSQR_URL)
        text = link(base_url, 1320)
        seen = page.evaluate(SHOW_AND_READ, ["qr-2x", text, LABEL])
        assert seen["dpr"] == 2
        assert_read_back(seen, text)
        assert seen["unit"] == 4 and seen["width"] == 129 * 4 and seen["cssWidth"] == 258
        guards[0].collect_error_boxes()
        assert not guards[0].problems, guards[0].report()
    finally:
        context.close()


@pytest.mark.cross_engine
def test_an_encoder_that_fails_to_load_says_failed_and_is_tried_again(page, guard, base_url):
    blocked = []

    def refuse(route):
        blocked.append(route.request.url)
        route.abort()

    page.route(f"**/{LIBRARY}**", refuse)
    guard.allow(r"qrcode-generator|dynamically imported module|net::ERR_FAILED")
    boot(page)
    state = page.evaluate("""async () => {
      const figure = document.createElement("figure");
      figure.id = "qr-failed";
      document.body.append(figure);
      await generala.qr.show(figure, "http://localhost/#play=p1.x");
      return [figure.dataset.qr, figure.querySelector("canvas").hidden];
    }""")
    assert state == ["failed", True] and blocked
    page.unroute(f"**/{LIBRARY}**")
    assert page.evaluate("""async () => {
      const figure = document.getElementById("qr-failed");
      await generala.qr.show(figure, "http://localhost/#play=p1.x");
      return [figure.dataset.qr, figure.querySelector("canvas").hidden];
    }""") == ["drawn", False]


SHOW = """async () => {
  const figure = document.createElement("figure");
  document.body.append(figure);
  await generala.qr.show(figure, location.href + "#play=p1.offline");
  return figure.dataset.qr;
}"""


# Whether the service worker's cache holds the encoder.
IN_CACHE = ("() => caches.keys().then(ns => caches.open(ns[0])).then(c => c.keys())"
            ".then(ks => ks.some(r => r.url.includes('/%s')))" % LIBRARY)


def drawn_offline_after_a_reload(page, context, servers) -> bool:
    """The server stopped and the network gone, a reload: a QR code is drawn (the service
    worker serves the encoder)."""
    servers.pop("stop")()
    if context.browser.browser_type.name != "firefox":  # see test_offline.py
        context.set_offline(True)
    page.reload()
    wait_ready(page)
    return page.evaluate(SHOW) == "drawn"


@pytest.mark.cross_engine
def test_offline_the_encoder_comes_from_the_service_workers_cache(own_site, sw_context):
    # One visit: the encoder is not precached (a first game never needs it); a QR code
    # shown, it is kept. The network gone, a reload: the service worker serves it.
    _, base_url, servers = own_site
    context, _ = sw_context
    page = first_visit(context, base_url)
    assert page.evaluate(LOADED) == []
    page.wait_for_function("() => caches.keys().then(ns => ns.length === 1)")
    assert page.evaluate(IN_CACHE) is False
    assert page.evaluate(SHOW) == "drawn"
    page.wait_for_function(IN_CACHE, timeout=30_000)
    assert drawn_offline_after_a_reload(page, context, servers)


@pytest.mark.cross_engine
def test_a_game_played_keeps_the_encoder_for_offline(own_site, sw_context):
    # No QR code shown, but a game played: the encoder is fetched at idle (not run) and
    # kept, so a hand-over made offline later still draws its QR code.
    from gamepage import GamePage

    _, base_url, servers = own_site
    context, _ = sw_context
    page = first_visit(context, base_url)
    page.wait_for_function("() => caches.keys().then(ns => ns.length === 1)")
    assert page.evaluate(IN_CACHE) is False
    GamePage(page).new_game("argentine", names=("Ana",))
    page.wait_for_function(IN_CACHE, timeout=30_000)
    assert drawn_offline_after_a_reload(page, context, servers)


def test_offline_and_never_kept_the_figure_says_so_and_requests_nothing(own_site, sw_context):
    _, base_url, servers = own_site
    context, _ = sw_context
    page = first_visit(context, base_url)
    requests = []
    context.on("request", lambda r: requests.append(r.url))
    context.set_offline(True)
    seen = page.evaluate("""async () => {
      const figure = document.createElement("figure");
      figure.dataset.qrMissing = "offline: send the link as text";
      document.body.append(figure);
      await generala.qr.show(figure, location.href + "#play=p1.offline");
      const caption = figure.querySelector("figcaption");
      return [figure.dataset.qr, figure.querySelector("canvas").hidden, caption && caption.textContent];
    }""")
    assert seen == ["offline", True, "offline: send the link as text"]
    assert not [u for u in requests if LIBRARY in u]
    context.set_offline(False)
    assert page.evaluate(SHOW) == "drawn"
