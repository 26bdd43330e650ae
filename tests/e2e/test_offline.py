"""Offline and install: the service worker precaches the site, the game
boots offline after one online visit, a new build is offered and replaces the old
cache only when the player asks, and Chromium finds the site installable.

Updates (two builds on one origin: `release`): a value table fetched on demand is
kept across an update that leaves its bytes as they are, so the optimal player still
plays offline, and dropped when its bytes changed; a tab left on the old build while
another takes the new one goes on loading the old build's files, until its player
takes the new one too.

Each test serves its own copy of the site on its own port (it stops that server
to go offline: Chromium's offline mode does not cover the service worker's own
fetches), in a context where service workers are allowed.
"""
from __future__ import annotations

import json
import os
import shutil
import time

import pytest
from gamepage import GamePage, open_botlab, open_setup

from e2e_support import Guard, emulate_a_3g_link, first_game_prepared, wait_ready
from tools import build as site_build
from tools.serve import start_server

CONTROLLED = "() => navigator.serviceWorker.controller !== null"


@pytest.fixture
def own_site(dist_dir, tmp_path):
    """A copy of the built site served on a port of its own: (dist, base_url, servers)."""
    dist = tmp_path / "dist"
    shutil.copytree(dist_dir, dist)
    servers = {}
    base_url, servers["stop"] = start_server(dist)
    yield dist, base_url, servers
    if servers.get("stop"):
        servers["stop"]()


@pytest.fixture
def sw_context(browser):
    """A context with service workers allowed, and a guard checked at teardown."""
    context = browser.new_context(service_workers="allow")
    guard = Guard()
    guard.attach_context(context)
    yield context, guard
    guard.collect_error_boxes()
    problems = guard.report()
    context.close()
    if problems:
        pytest.fail("the browser reported problems:\n" + problems, pytrace=False)


def first_visit(context, base_url):
    page = context.new_page()
    page.goto(base_url + "/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=90_000)
    return page


def cache_names(page):
    return page.evaluate("caches.keys()")


def ping(page):
    return json.loads(page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))"))


@pytest.mark.cross_engine
def test_boots_offline_after_one_visit_in_the_same_tab_and_a_new_one(own_site, sw_context):
    dist, base_url, servers = own_site
    context, guard = sw_context
    version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    assert cache_names(page) == [f"generala-{version}"]
    cached = page.evaluate(
        "caches.open(`generala-${%s}`).then(c => c.keys()).then(ks => ks.map(r => new URL(r.url).pathname))"
        % json.dumps(version)
    )
    for path in ["/index.html", "/generala.lazy.zip", "/generala.snapshot.gz", "/catalog.json",
                 "/static/tables/argentine.gvt", "/static/tables/double.gvt"]:
        assert path in cached
    assert [p for p in cached if p.endswith("/pyodide.asm.wasm")], "the 9.6 MB wasm is precached"
    # The large table (1.3 MB) is fetched when a game first needs it, not precached;
    # the library a boot in full needs, when a boot in full needs it.
    assert "/static/tables/bulgarian.gvt" not in cached
    assert "/python_stdlib.zip" not in cached and "/python_stdlib.empty.zip" in cached
    assert "/generala.zip" not in cached

    # Network gone: the server stopped, and in Chromium the browser offline too.
    # (Firefox's offline mode refuses a reload with NS_ERROR_OFFLINE before the
    # service worker can answer it: the stopped server is the network gone there.)
    go_offline(context, servers)
    page.reload()
    wait_ready(page)
    assert ping(page)["ok"] is True
    assert page.evaluate("generala.engine.timings.worker.boot") == "snapshot"

    tab = context.new_page()
    tab.goto(base_url + "/?variant=argentine")
    wait_ready(tab)
    assert ping(tab)["ok"] is True


@pytest.mark.only_chromium("CDP network emulation and navigator.connection (Chromium only)")
def test_on_a_slow_link_the_cached_snapshot_is_used(own_site, sw_context):
    # A first visit on a 3G link boots in full (test_boot.py); once the service
    # worker holds the snapshot, it costs no download and the engine boots from it.
    _, base_url, _ = own_site
    context, _ = sw_context
    first_visit(context, base_url).close()
    tab = context.new_page()
    emulate_a_3g_link(tab)
    tab.goto(base_url + "/")
    wait_ready(tab)
    assert tab.evaluate("navigator.connection.effectiveType") == "3g"
    assert tab.evaluate("generala.engine.timings.worker.boot") == "snapshot"


@pytest.mark.only_chromium("CDP network emulation and navigator.connection (Chromium only)")
def test_a_first_visit_booted_in_full_keeps_its_library_for_offline(own_site, sw_context):
    # On a 3G link the first visit boots in full: the library it fetched is cached
    # (on demand), and offline the game boots (from the precached snapshot) and plays.
    _, base_url, servers = own_site
    context, _ = sw_context
    page = context.new_page()
    emulate_a_3g_link(page)
    page.goto(base_url + "/")
    wait_ready(page)
    assert page.evaluate("generala.engine.timings.worker.boot") == "full"
    page.wait_for_function(CONTROLLED, timeout=90_000)
    servers.pop("stop")()
    context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert ping(page)["ok"] is True
    computer_moves(page, "argentine")


@pytest.mark.cross_engine
def test_a_new_version_is_offered_and_replaces_the_old_cache_on_request(own_site, sw_context):
    dist, base_url, servers = own_site
    context, guard = sw_context
    old_version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    assert cache_names(page) == [f"generala-{old_version}"]

    # Release a new build on the same origin.
    new_version = release(dist, new_style)
    assert new_version != old_version

    page.evaluate("generala.serviceWorker.update()")
    # It installs beside the old one and waits: the page offers a reload, and the
    # page keeps running the old version until the player asks.
    page.wait_for_selector("#update-banner:not([hidden])", timeout=90_000)
    assert "new version" in page.text_content("#update-banner")
    assert page.evaluate("caches.keys()").count(f"generala-{old_version}") == 1
    assert page.evaluate("navigator.serviceWorker.controller !== null")

    with page.expect_navigation(timeout=90_000):
        page.click("#update-reload")
    wait_ready(page)
    only_cache(page, new_version)  # the old build's went with its last page
    # The new build is what runs now.
    assert page.evaluate(
        "fetch('./version.json').then(r => r.json()).then(j => j.version)"
    ) == new_version


@pytest.mark.only_chromium("CDP: Page.getInstallabilityErrors and Page.getAppManifest")
def test_chromium_finds_the_site_installable(own_site, sw_context):
    dist, base_url, servers = own_site
    context, guard = sw_context
    page = first_visit(context, base_url)
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    errors = [e for e in errors if e["errorId"] != "in-incognito"]
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest.get("errors")
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes


def call(page, request):
    return json.loads(page.evaluate("(r) => generala.engine.call(r)", json.dumps(request)))


def computer_moves(page, variant, steps=6):
    """A game of `variant` with one computer player: `steps` of its moves (they need the table)."""
    first_game_prepared(page)  # the page's own `new` done: the engine's game is the test's now
    reply = call(page, {"op": "new", "variant": variant, "sides": [{"name": "Bot", "player": "ai:optimal"}], "seed": 3})
    assert reply["ok"], reply
    for _ in range(steps):
        reply = call(page, {"op": "ai"})
        assert reply["ok"], reply
    return reply


def go_offline(context, servers):
    """The network gone: the site's server stopped, and the browser offline but in
    Firefox (its offline mode refuses a load before the service worker can answer it:
    the stopped server is the network gone there)."""
    servers.pop("stop")()
    if context.browser.browser_type.name != "firefox":
        context.set_offline(True)


def offline_tab(context, base_url, servers):
    """Offline (go_offline), a new tab of the site, ready."""
    go_offline(context, servers)
    tab = context.new_page()
    tab.goto(base_url + "/")
    wait_ready(tab)
    return tab


def cached_paths(page):
    return page.evaluate(
        "caches.keys().then(ns => Promise.all(ns.map(n => caches.open(n).then(c => c.keys()))))"
        ".then(all => all.flat().map(r => new URL(r.url).pathname))"
    )


def first_visit_recorded(context, base_url):
    """A first visit, with the URLs the context requests from then on (a list that grows)."""
    requests = []
    context.on("request", lambda r: requests.append(r.url))
    return first_visit(context, base_url), requests


def test_a_table_fetched_once_is_cached_and_works_offline(own_site, sw_context):
    _, base_url, servers = own_site
    context, _ = sw_context
    page, requests = first_visit_recorded(context, base_url)
    assert "/static/tables/bulgarian.gvt" not in cached_paths(page)
    assert not [u for u in requests if u.endswith("bulgarian.gvt")], "precached although no game needed it"
    computer_moves(page, "bulgarian")
    assert [u for u in requests if u.endswith("bulgarian.gvt")]
    page.wait_for_function(
        "() => caches.keys().then(ns => caches.open(ns[0])).then(c => c.match('./static/tables/bulgarian.gvt'))"
        ".then(r => r !== undefined)", timeout=30_000)

    tab = offline_tab(context, base_url, servers)
    reply = computer_moves(tab, "bulgarian")
    assert reply["view"]["variant"] == "bulgarian"
    # A precached small table works offline without having been fetched before.
    computer_moves(tab, "argentine")


LAB_FILES = ("/code-editor.mjs", "/static/js/bot-worker.js", "/static/bot-sandbox.html")


def test_the_bot_lab_is_fetched_when_first_opened_and_then_works_offline(own_site, sw_context):
    # A first game never opens the Bot lab: its editor (~150 kB gzipped), its sandbox's
    # frame and worker are not precached, but kept once the lab has been opened.
    _, base_url, servers = own_site
    context, _ = sw_context
    page, requests = first_visit_recorded(context, base_url)
    page.wait_for_function("() => caches.keys().then(ns => ns.length === 1)")
    assert not [p for p in cached_paths(page) if p.endswith(LAB_FILES)]
    assert not [u for u in requests if u.endswith(LAB_FILES)], "precached although no one opened the lab"
    open_botlab(page)
    page.wait_for_function(
        "files => caches.keys().then(ns => caches.open(ns[0])).then(c => c.keys())"
        ".then(ks => files.every(f => ks.some(r => new URL(r.url).pathname.endsWith(f))))",
        arg=list(LAB_FILES), timeout=30_000)

    tab = offline_tab(context, base_url, servers)
    open_botlab(tab)  # its editor loaded and its sandbox booted, offline


@pytest.mark.cross_engine
def test_embed_mode_registers_no_service_worker(own_site, sw_context):
    _, base_url, _ = own_site
    context, _ = sw_context
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    # Every call to register (sw-register.mjs makes it, when it does, in the task that
    # sets data-state=ready: the state's observer, then a microtask).
    page.add_init_script("""
      window.__swCalls = 0;
      if (navigator.serviceWorker) {
        const reg = navigator.serviceWorker.register.bind(navigator.serviceWorker);
        navigator.serviceWorker.register = (...args) => { window.__swCalls++; return reg(...args); };
      }
    """)
    page.goto(base_url + "/?embed=1")
    wait_ready(page)
    assert page.evaluate("window.__swCalls") == 0
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    assert page.evaluate("caches.keys()") == []
    assert not [u for u in requests if u.endswith(("/sw.js", ".gvt"))]


def test_the_service_worker_registers_only_once_the_first_roll_is_possible(own_site, sw_context):
    _, base_url, _ = own_site
    context, _ = sw_context
    page = context.new_page()
    page.add_init_script("""
      // (Firefox also runs this in the first about:blank, which has no serviceWorker.)
      window.__swAt = null;
      if (navigator.serviceWorker) {
        const reg = navigator.serviceWorker.register.bind(navigator.serviceWorker);
        navigator.serviceWorker.register = (...args) => {
          window.__swAt = document.documentElement.dataset.state;
          return reg(...args);
        };
      }
    """)
    page.goto(base_url + "/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=90_000)
    assert page.evaluate("window.__swAt") == "ready"


def test_a_first_visit_without_input_registers_it_once_the_page_is_ready(own_site, sw_context):
    # Nothing saved, no input at all: the page's UI starts by itself once the page is idle
    # (ui-start.mjs), and the service worker registers once the page is ready, its UI and
    # its engine; its precache is in place before the first tap.
    _, base_url, _ = own_site
    context, _ = sw_context
    page = context.new_page()
    page.add_init_script("""
      window.__swAt = null;
      if (navigator.serviceWorker) {
        const reg = navigator.serviceWorker.register.bind(navigator.serviceWorker);
        navigator.serviceWorker.register = (...args) => {
          window.__swAt = [document.documentElement.dataset.state, globalThis.generala.engine.state];
          return reg(...args);
        };
      }
    """)
    page.goto(base_url + "/")
    page.wait_for_function(CONTROLLED, timeout=90_000)
    assert page.evaluate("window.__swAt") == ["ready", "ready"]
    assert page.evaluate("document.documentElement.getAttribute('data-ui-start')") == "idle"
    page.click("#play-computer")
    page.wait_for_selector("#board:not([hidden]) [data-die]")


# --- updates: the tables fetched on demand, and one build per page --------------------

TABLE = "/static/tables/bulgarian.gvt"  # fetched on demand (the build lists it in sw.js)


def release(dist, change):
    """A new build on the same origin: `change(dist)` edits the copy of the site and
    returns the paths it changed; the service worker and version.json are made again
    (site_build.finalize). Every file the release wrote gets a time later than any the
    old build served (the test server answers If-Modified-Since by time: PLATFORM.md).
    Returns the new version."""
    runtimes = json.loads((dist / "version.json").read_text())["runtimes"]
    changed = change(dist)
    version = site_build.finalize(dist, runtimes)["version"]
    later = time.time() + 10
    for path in [*changed, dist / "sw.js", dist / "version.json"]:
        os.utime(path, (later, later))
    return version


def new_style(dist):
    with open(dist / "static" / "css" / "site.css", "a", encoding="utf-8") as f:
        f.write("\n/* a new release */\n")
    return [dist / "static" / "css" / "site.css"]


def take_update(page):
    """Look for a new build, and take it with the page's own offer (the banner's Reload)."""
    page.evaluate("generala.serviceWorker.update()")
    page.wait_for_selector("#update-banner:not([hidden])", timeout=90_000)
    with page.expect_navigation(timeout=90_000):
        page.click("#update-reload")
    wait_ready(page)


def only_cache(page, version, timeout=60_000):
    """Wait until the cache of `version` is the only one: the older build's went with its
    last page (the pages that start tell the service worker, static/js/sw-register.mjs)."""
    page.wait_for_function(
        "v => caches.keys().then(k => k.length === 1 && k[0] === 'generala-' + v)", arg=version, timeout=timeout)


def cached_in(page, version, path):
    """The bytes' length of `path` in the cache of `version`, or None."""
    return page.evaluate(
        """([v, p]) => caches.open('generala-' + v).then(c => c.match(p))
             .then(r => r ? r.arrayBuffer().then(b => b.byteLength) : null)""", [version, path])


def builds_of(page):
    """What the service worker says of this page: {"version": the build it serves this
    page, "worker": its own build}."""
    return page.evaluate("""() => new Promise((resolve) => {
      const heard = (e) => {
        if (!e.data || e.data.type !== "VERSION") return;
        navigator.serviceWorker.removeEventListener("message", heard);
        resolve(e.data);
      };
      navigator.serviceWorker.addEventListener("message", heard);
      navigator.serviceWorker.controller.postMessage({ type: "VERSION" });
    })""")


def stop_service_workers(page):
    """Stop the service worker, as the browser does whenever it likes (Chromium's DevTools
    protocol): it starts again at the next request, its memory empty."""
    cdp = page.context.new_cdp_session(page)
    states = []
    cdp.on("ServiceWorker.workerVersionUpdated",
           lambda e: states.extend(v["runningStatus"] for v in e["versions"]))
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.stopAllWorkers")
    deadline = time.monotonic() + 10
    while "stopped" not in states:
        assert time.monotonic() < deadline, f"the service worker did not stop: {states}"
        page.evaluate("() => new Promise(requestAnimationFrame)")  # lets the events arrive
    cdp.detach()


PERSON_PLAYS = """() => {
  const roll = document.getElementById('roll'), skip = document.getElementById('ai-skip');
  return roll && !roll.disabled && !(skip && skip.checkVisibility())
    && !document.getElementById('board').hasAttribute('aria-busy');
}"""

COMPUTER_BOXES = """() => {
  const id = generala.storage.get('generala.current');
  const view = id && JSON.parse(generala.storage.get('generala.save.' + id)).reply.view;
  return view ? view.rows.filter(r => r.cells[1].value !== null).length : 0;
}"""


def play_the_optimal(page, variant, seed, turns):
    """A new game of `variant` through the setup form: Ana (a person) against Bot at the
    optimal level; Ana rolls once and fills her best box, then the computer plays its
    turn, `turns` times. Returns the boxes Bot has filled."""
    gp = GamePage(page)
    gp.home()
    open_setup(page)
    page.check(f'input[data-variant="{variant}"]')
    rows = page.locator("#sides > li")
    while rows.count() < 2:
        page.click("#add-side")
    while rows.count() > 2:
        rows.last.locator(".remove").click()
    for i, (name, player) in enumerate([("Ana", "human"), ("Bot", "ai:optimal")]):
        rows.nth(i).locator(".side-name").fill(name)
        if rows.nth(i).locator("[data-team]").is_checked():
            rows.nth(i).locator("[data-team]").uncheck()
        rows.nth(i).locator(".player").select_option(player)
    if not page.is_visible("#seed"):
        page.click(".seed summary")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board", state="visible")
    for _ in range(turns):
        page.wait_for_function(PERSON_PLAYS, timeout=120_000)  # the computer's turn (its table) first
        gp.roll()
        boxes = page.eval_on_selector_all(
            "#sheet button.box:not([hidden]):not(:disabled)", "els => els.map(e => [e.dataset.box, e.textContent])")
        gp.score(max(boxes, key=lambda b: int(b[1]) if b[1].lstrip("-").isdigit() else -1)[0])
    page.wait_for_function(PERSON_PLAYS, timeout=120_000)
    return page.evaluate(COMPUTER_BOXES)


def test_an_update_keeps_a_fetched_table_for_offline_play(own_site, sw_context):
    # A player plays against the optimal level online (its 1.3 MB table is fetched and
    # kept), takes a new build in which that table did not change, and goes offline:
    # the optimal level still plays, its table answered by the new build's cache.
    dist, base_url, servers = own_site
    context, _ = sw_context
    old_version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    assert cached_in(page, old_version, "." + TABLE) is None  # on demand: not precached
    assert play_the_optimal(page, "bulgarian", seed=5, turns=1) >= 1
    page.wait_for_function(
        "([v, p]) => caches.open('generala-' + v).then(c => c.match(p)).then(r => r !== undefined)",
        arg=[old_version, "." + TABLE], timeout=30_000)

    new_version = release(dist, new_style)
    assert new_version != old_version
    take_update(page)
    only_cache(page, new_version)  # the old build's cache is gone...
    assert cached_in(page, new_version, "." + TABLE) == (dist / TABLE[1:]).stat().st_size  # ...its table is not

    # Network gone: the server stopped, and in Chromium the browser offline too (see the
    # first test for Firefox).
    go_offline(context, servers)
    asked, failed = [], []
    context.on("request", lambda r: asked.append(r) if r.url.endswith(TABLE) else None)
    context.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
    tab = context.new_page()
    tab.goto(base_url + "/")
    wait_ready(tab)
    assert builds_of(tab) == {"type": "VERSION", "version": new_version, "worker": new_version}
    assert play_the_optimal(tab, "bulgarian", seed=8, turns=2) >= 2
    assert asked, "the optimal player's table was never asked for"
    for request in asked:
        response = request.response()
        assert response is not None and response.ok, request.url
    assert failed == []


def new_table(dist):
    """A release whose large table changed (its bytes: the engine never reads it here)."""
    with open(dist / TABLE[1:], "ab") as f:
        f.write(b"\0")
    return [dist / TABLE[1:]]


def test_an_update_drops_a_table_whose_bytes_changed(own_site, sw_context):
    dist, base_url, _ = own_site
    context, _ = sw_context
    old_version = json.loads((dist / "version.json").read_text())["version"]
    old_size = (dist / TABLE[1:]).stat().st_size
    page = first_visit(context, base_url)
    assert page.evaluate("p => fetch(p).then(r => r.ok)", "." + TABLE)
    page.wait_for_function(
        "([v, p]) => caches.open('generala-' + v).then(c => c.match(p)).then(r => r !== undefined)",
        arg=[old_version, "." + TABLE], timeout=30_000)
    assert cached_in(page, old_version, "." + TABLE) == old_size

    new_version = release(dist, new_table)
    take_update(page)
    only_cache(page, new_version)
    assert cached_in(page, new_version, "." + TABLE) is None  # the old bytes went with the old cache
    # Fetched again when needed: the new build's bytes (their hash is the build's) are kept.
    assert page.evaluate("p => fetch(p).then(r => r.arrayBuffer()).then(b => b.byteLength)", "." + TABLE) == old_size + 1
    page.wait_for_function(
        "([v, p]) => caches.open('generala-' + v).then(c => c.match(p)).then(r => r !== undefined)",
        arg=[new_version, "." + TABLE], timeout=30_000)
    assert cached_in(page, new_version, "." + TABLE) == old_size + 1


def catalog_summary(dist, variant="argentine"):
    return json.loads((dist / "catalog.json").read_text(encoding="utf-8"))["variants"][variant]["summary"]


def new_summary(dist):
    """A release whose catalog (read by the page's UI when it starts) says something new."""
    path = dist / "catalog.json"
    catalog = json.loads(path.read_text(encoding="utf-8"))
    catalog["variants"]["argentine"]["summary"] += " (the new release)"
    path.write_text(json.dumps(catalog), encoding="utf-8")
    return [path]


SUMMARY = 'label.game:has(input[data-variant="argentine"]) .game-summary'


def test_a_tab_left_on_the_old_build_goes_on_loading_that_build(own_site, sw_context):
    # Two tabs of build 1; the player takes build 2 in one. The browser makes the new
    # worker the other tab's controller too, but that tab still runs build 1's page: what
    # it loads later must be build 1's. The load here is one the page really does late:
    # a value table, at a computer's first move.
    dist, base_url, _ = own_site
    context, _ = sw_context
    old_version = json.loads((dist / "version.json").read_text())["version"]
    old_summary = catalog_summary(dist)
    a = first_visit(context, base_url)
    b = context.new_page()
    b.goto(base_url + "/")
    # B registers the service worker once it is ready (its UI started by itself).
    b.wait_for_function("() => globalThis.generala.serviceWorker !== undefined && navigator.serviceWorker.controller !== null",
                        timeout=90_000)

    new_version = release(dist, new_summary)
    assert catalog_summary(dist) != old_summary
    b_banner = b.locator("#update-banner")
    take_update(a)
    a.wait_for_function(CONTROLLED)
    assert builds_of(a) == {"type": "VERSION", "version": new_version, "worker": new_version}
    open_setup(a)
    assert a.text_content(SUMMARY) == catalog_summary(dist)  # A runs build 2

    # B: the new worker controls it now, and serves it build 1.
    assert builds_of(b) == {"type": "VERSION", "version": old_version, "worker": new_version}
    assert sorted(b.evaluate("caches.keys()")) == sorted([f"generala-{old_version}", f"generala-{new_version}"])
    b_banner.wait_for(state="visible")  # and it is offered the new build
    if context.browser.browser_type.name == "chromium":
        stop_service_workers(b)  # what it knows of B comes back from Cache Storage
    wait_ready(b)
    open_setup(b)
    assert b.text_content(SUMMARY) == old_summary
    # B's engine (a worker of build 1) fetches a table for the first time: kept in build
    # 1's cache, for B's offline play (its bytes are build 1's: that table did not change).
    bot_boxes = play_the_optimal(b, "bulgarian", seed=4, turns=1)
    assert bot_boxes >= 1
    b.wait_for_function(
        "([v, p]) => caches.open('generala-' + v).then(c => c.match(p)).then(r => r !== undefined)",
        arg=[old_version, "." + TABLE], timeout=30_000)

    # B takes the new build when its player asks: a reload into build 2 with its game as
    # it was; the old cache goes with B's last page of build 1, its table taken over.
    with b.expect_navigation(timeout=90_000):
        b.click("#update-reload")
    wait_ready(b)
    b.wait_for_selector("#board", state="visible")
    assert b.evaluate(COMPUTER_BOXES) == bot_boxes
    assert builds_of(b) == {"type": "VERSION", "version": new_version, "worker": new_version}
    open_setup(b)
    assert b.text_content(SUMMARY) == catalog_summary(dist)
    only_cache(b, new_version)
    assert cached_in(b, new_version, "." + TABLE) == (dist / TABLE[1:]).stat().st_size


# --- what the service worker serves: the build's bytes, with the site's headers ---------

# Cache Storage is the whole origin's: a script of the site (a worker too) can put any
# response in the service worker's cache. These put forged files there, as such a script
# would: a page with no Content-Security-Policy whose inline script marks localStorage,
# and a module that marks it too.
FORGED_PAGE = ('<!doctype html><html><head><title>forged</title></head><body><p id="forged">forged</p>'
               '<script>localStorage.setItem("generala.forged", "page")</script></body></html>')
FORGED_MODULE = 'localStorage.setItem("generala.forged", "module");\nexport {};\n'
PUT = """async ([name, entries]) => {
  const cache = await caches.open(name);
  for (const [path, body, headers] of entries) await cache.put(path, new Response(body, { headers }));
}"""
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy", "permissions-policy")


def site_headers(dist, path):
    """The headers tools/serve.py sends with the file at `path` (netlify.toml's), by name in
    lower case."""
    from tools.serve import load_header_rules, response_headers
    rules = load_header_rules(site_build.NETLIFY_TOML)
    return {k.lower(): v for k, v in response_headers(rules, path).items()}


def cached_bytes(page, version, path):
    """The bytes that the cache of `version` holds for `path` (None when it holds none)."""
    body = page.evaluate(
        """([v, p]) => caches.open('generala-' + v).then(c => c.match(p))
             .then(r => r ? r.arrayBuffer().then(b => Array.from(new Uint8Array(b))) : null)""", [version, path])
    return None if body is None else bytes(body)


def cached_headers(page, version, path):
    return page.evaluate(
        "([v, p]) => caches.open('generala-' + v).then(c => c.match(p)).then(r => Object.fromEntries(r.headers))",
        [version, path])


@pytest.mark.cross_engine
def test_forged_files_in_the_cache_are_never_served(own_site, sw_context):
    # A forged index.html (no CSP) and a forged module in the site's cache, and a copy of a
    # file the service worker does not serve: the next load gets the genuine files with the site's headers,
    # nothing forged runs, and the cache holds the genuine files again.
    dist, base_url, _ = own_site
    context, _ = sw_context
    version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    page.evaluate(PUT, [f"generala-{version}", [
        ["./index.html", FORGED_PAGE, {"Content-Type": "text/html"}],
        ["./static/js/storage.mjs", FORGED_MODULE, {"Content-Type": "text/javascript"}],
        ["./sw.js", FORGED_MODULE, {"Content-Type": "text/javascript"}],
    ]])
    assert cached_bytes(page, version, "./index.html") == FORGED_PAGE.encode()
    page.close()

    tab = context.new_page()
    response = tab.goto(base_url + "/?variant=argentine")
    headers = response.all_headers()
    want = site_headers(dist, "/index.html")
    for name in SECURITY_HEADERS + ("content-type",):
        assert headers.get(name) == want[name], name
    assert response.body() == (dist / "index.html").read_bytes()
    wait_ready(tab)
    assert ping(tab)["ok"] is True
    assert tab.locator("#forged").count() == 0
    assert tab.evaluate("localStorage.getItem('generala.forged')") is None
    module = tab.evaluate("fetch('./static/js/storage.mjs').then(r => r.text())")
    assert module == (dist / "static/js/storage.mjs").read_text(encoding="utf-8")

    # The forged copies are gone: the genuine files (fetched again) are in their place.
    assert cached_bytes(tab, version, "./index.html") == (dist / "index.html").read_bytes()
    assert cached_bytes(tab, version, "./static/js/storage.mjs") == (dist / "static/js/storage.mjs").read_bytes()
    # A file the service worker does not serve (itself: the browser fetches it): the
    # server answers it, not the cache, and the copy there is dropped.
    assert tab.evaluate("fetch('./sw.js').then(r => r.text())") == (dist / "sw.js").read_text(encoding="utf-8")
    assert cached_bytes(tab, version, "./sw.js") is None
    assert tab.evaluate("localStorage.getItem('generala.forged')") is None


@pytest.mark.cross_engine
def test_a_genuine_file_put_back_without_headers_is_served_with_them_offline(own_site, sw_context):
    # The genuine bytes of the page and of a module, put back in the cache with no headers
    # at all: offline, the next load gets them with the site's headers (Content-Type
    # included: the module runs), and the cache holds them with those headers again.
    dist, base_url, servers = own_site
    context, _ = sw_context
    version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    page.evaluate("""async (name) => {
      const cache = await caches.open(name);
      for (const path of ["./index.html", "./static/js/engine.mjs", "./catalog.json"]) {
        const body = await (await cache.match(path)).arrayBuffer();
        await cache.put(path, new Response(body));
      }
    }""", f"generala-{version}")
    assert cached_headers(page, version, "./index.html").get("content-security-policy") is None

    go_offline(context, servers)
    response = page.reload()
    headers = response.all_headers()
    want = site_headers(dist, "/index.html")
    for name in SECURITY_HEADERS + ("content-type",):
        assert headers.get(name) == want[name], name
    wait_ready(page)
    assert ping(page)["ok"] is True
    catalog = page.evaluate("fetch('./catalog.json').then(r => Object.fromEntries(r.headers))")
    want = site_headers(dist, "/catalog.json")
    for name in SECURITY_HEADERS + ("content-type",):
        assert catalog.get(name) == want[name], name
    for path in ["./index.html", "./static/js/engine.mjs", "./catalog.json"]:
        assert cached_bytes(page, version, path) == (dist / path[2:]).read_bytes()
        kept = cached_headers(page, version, path)
        assert kept.get("content-security-policy") == want["content-security-policy"], path
        assert kept.get("content-type") == site_headers(dist, path[1:])["content-type"], path


UPDATE_ENDS = """async () => {
  // Look for a new build; the state its worker's install ends in.
  const reg = await navigator.serviceWorker.getRegistration();
  const found = new Promise((resolve) => reg.addEventListener("updatefound", () => resolve(reg.installing), { once: true }));
  await reg.update().catch(() => {});
  const worker = await found;
  const ended = () => ["installed", "activated", "redundant"].includes(worker.state);
  if (ended()) return worker.state;
  return new Promise((resolve) => worker.addEventListener("statechange", () => ended() && resolve(worker.state)));
}"""


@pytest.mark.cross_engine
def test_a_new_build_whose_files_are_not_its_bytes_does_not_install(own_site, sw_context):
    # The server sends a file whose bytes are not the ones the new build's sw.js lists (it
    # changed after the build): that worker's install fails, its cache goes with it, and
    # the page keeps its build, offered nothing.
    dist, base_url, _ = own_site
    context, _ = sw_context
    old_version = json.loads((dist / "version.json").read_text())["version"]
    page = first_visit(context, base_url)
    new_version = release(dist, new_style)
    css = dist / "static" / "css" / "site.css"
    with open(css, "a", encoding="utf-8") as f:
        f.write("/* changed after the build */\n")
    later = time.time() + 20
    os.utime(css, (later, later))

    assert page.evaluate(UPDATE_ENDS) == "redundant"
    assert page.evaluate("caches.keys()") == [f"generala-{old_version}"]
    assert f"generala-{new_version}" not in page.evaluate("caches.keys()")
    assert builds_of(page) == {"type": "VERSION", "version": old_version, "worker": old_version}
    assert page.locator("#update-banner").is_hidden()
