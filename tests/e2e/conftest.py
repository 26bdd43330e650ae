"""End-to-end harness: pytest + pytest-playwright (sync API), Debian Chromium and
Debian Firefox ESR (`--browser chromium` / `--browser firefox`; `make test` runs both).

- `site` (session): builds the site once (tools/build.py, into a temporary folder)
  and serves it with tools/serve.py, i.e. with the production headers of
  netlify.toml. Set E2E_DIST=/path/to/dist to serve an existing build instead.
- `base_url` (session): that server's URL; `page.goto("/")` is relative to it.
- `browser` (session, from pytest-playwright): ONE browser for the whole run:
  /usr/bin/chromium (or $CHROMIUM) with the flags of PLATFORM.md, or
  /usr/bin/firefox-esr (or $FIREFOX) over WebDriver BiDi with prefs that keep it
  off the network; every context starts from a new empty profile.
- `@pytest.mark.only_chromium("why")`: a test that needs Chromium (CDP, its
  installability checks, media emulation, ...) is skipped in other engines with
  that reason.
- `@pytest.mark.cross_engine`: the tests that together cover every screen and major
  flow; `make test-firefox` runs only these (`-m cross_engine`), Chromium runs all
  (docs/testing.md, "What each engine runs", lists which covers what).
- Downloads land in a session folder (`downloads_dir`); `e2e_support.download`
  returns the file written there, in both engines.
- `page` / `app_page`: a page whose `guard` fails the test at teardown on any
  page error, console error (Python traceback, CSP "Refused to ..."), the page's #boot-error
  box, HTTP error, or request leaving localhost. A test that provokes one on
  purpose claims it with `guard.allow(regex)`.
- `app_page`: ONE page per session, booted to <html data-state=ready>, guarded the
  same way per test (`app_guard` is its guard); for tests that leave no state.
- `boot(page, url="/")` (from e2e_support): open and wait up to 90 s for ready.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from e2e_support import STATE_LOG_SCRIPT, STILL_DICE, Guard, boot  # noqa: E402
from tools import build as site_build  # noqa: E402
from tools.serve import start_server  # noqa: E402

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Belt and braces for "nothing leaves localhost": Chromium resolves no other
    # host name at all (Playwright's router still answers routed URLs first).
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
    # Each test's new context compiles Pyodide's WebAssembly again (no code cache is shared
    # between contexts): compiled lazily, function by function as first called, a boot
    # takes ~0.25 s less on the 2-core machine (2.0 against 2.2-2.3 s alone, 3.4-3.6
    # against 3.5-4.0 s two at a time: medians of six boots to data-state=ready). The same
    # code runs; only when it is compiled changes.
    "--js-flags=--wasm-lazy-compilation",
]


# Firefox ESR must reach no other host on its own: no telemetry, health report,
# studies, captive-portal or connectivity checks, safe browsing lists, remote
# settings, add-on/blocklist/GMP updates, search or region look-ups, DNS-over-HTTPS,
# OCSP, prefetching. Belt and braces: every other host goes to a dead proxy
# (localhost is never proxied), like Chromium's --host-resolver-rules above.
DEAD = "http://127.0.0.1:9/"
FIREFOX_PREFS = {
    "app.update.auto": False,
    "app.update.enabled": False,
    "app.normandy.enabled": False,
    "app.normandy.api_url": "",
    "app.shield.optoutstudies.enabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.archive.enabled": False,
    "toolkit.telemetry.server": DEAD,
    "browser.ping-centre.telemetry": False,
    "browser.newtabpage.enabled": False,
    "browser.newtabpage.activity-stream.feeds.telemetry": False,
    "browser.newtabpage.activity-stream.telemetry": False,
    "browser.newtabpage.activity-stream.feeds.snippets": False,
    "browser.newtabpage.activity-stream.feeds.section.topstories": False,
    "browser.startup.homepage": "about:blank",
    "browser.startup.page": 0,
    "browser.shell.checkDefaultBrowser": False,
    "network.captive-portal-service.enabled": False,
    "captivedetect.canonicalURL": "",
    "network.connectivity-service.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.downloads.remote.enabled": False,
    "browser.safebrowsing.provider.google4.updateURL": "",
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "services.settings.server": DEAD,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False,
    "media.gmp-manager.url": "",
    "media.gmp-gmpopenh264.enabled": False,
    "media.gmp-widevinecdm.enabled": False,
    "browser.search.update": False,
    "browser.region.network.url": "",
    "browser.region.update.enabled": False,
    "geo.provider.network.url": "",
    "identity.fxaccounts.enabled": False,
    "network.trr.mode": 5,
    "security.OCSP.enabled": 0,
    "security.remote_settings.crlite_filters.enabled": False,
    "security.remote_settings.intermediates.enabled": False,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0,
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1",
    "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1",
    "network.proxy.ssl_port": 9,
    "network.proxy.share_proxy_settings": True,
    "network.proxy.no_proxies_on": "localhost, 127.0.0.1, [::1], .localhost",
    "network.proxy.allow_hijacking_localhost": False,
}


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


def firefox_path() -> str:
    return os.environ.get("FIREFOX") or "/usr/bin/firefox-esr"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "only_chromium(reason): the test needs Chromium; skipped in other engines with the reason")
    config.addinivalue_line(
        "markers", "cross_engine: one of the tests that together cover every screen and major flow; "
        "`make test-firefox` runs these (-m cross_engine), Chromium runs them all (docs/testing.md)")
    config.addinivalue_line(
        "markers", "still_dice: the `page` fixture's context has the board's motion switch off "
        "(STILL_DICE): for tests that are not about the dice's motion or a computer's pace")


def pytest_runtest_setup(item):
    marker = item.get_closest_marker("only_chromium")
    if marker is None:
        return
    callspec = getattr(item, "callspec", None)
    engine = callspec.params.get("browser_name") if callspec else None
    if engine is None:
        engine = (item.config.getoption("--browser") or ["chromium"])[0]
    if engine != "chromium":
        reason = marker.args[0] if marker.args else marker.kwargs.get("reason", "")
        assert reason, f"{item.nodeid}: only_chromium needs a reason"
        pytest.skip(f"Chromium only: {reason}")


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """(base_url, dist_path) of the built site served with production headers."""
    dist_env = os.environ.get("E2E_DIST")
    if dist_env:
        dist = Path(dist_env).resolve()
    else:
        dist = tmp_path_factory.mktemp("site") / "dist"
        site_build.build(dist, sizes=False)
    base_url, stop = start_server(dist)
    yield base_url, dist
    stop()
    if not dist_env:
        shutil.rmtree(dist, ignore_errors=True)


@pytest.fixture(scope="session")
def base_url(site) -> str:
    return site[0]


@pytest.fixture(scope="session")
def dist_dir(site) -> Path:
    return site[1]


@pytest.fixture(scope="session")
def downloads_dir(tmp_path_factory) -> Path:
    """Where the browser writes downloads (Firefox over BiDi has no download event:
    tests wait for the file here, see e2e_support.download)."""
    folder = tmp_path_factory.mktemp("downloads")
    import e2e_support
    e2e_support.DOWNLOADS_DIR = folder
    return folder


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_name, downloads_dir):
    args = dict(browser_type_launch_args)
    args["downloads_path"] = str(downloads_dir)
    if browser_name == "firefox":
        args["channel"] = "moz-firefox"
        args["executable_path"] = firefox_path()
        args["firefox_user_prefs"] = {**args.get("firefox_user_prefs", {}), **FIREFOX_PREFS}
        return args
    exe = chromium_path()
    if exe:
        args["executable_path"] = exe
    args["args"] = [*args.get("args", []), *CHROMIUM_FLAGS]
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Service workers are blocked in the ordinary fixtures (each fresh context would
    otherwise precache the site's 10 MB); tests of offline behaviour open
    contexts with service_workers="allow" (see test_offline.py)."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture
def guard(context):
    """The problems collected from every page of this test's context."""
    g = Guard()
    g.attach_context(context)
    yield g
    g.collect_error_boxes()
    if g.problems:
        pytest.fail("the browser reported problems:\n" + g.report(), pytrace=False)


@pytest.fixture
def page(request, context, guard):
    """A guarded page (see the module docstring) that logs <html data-state> values
    in `window.__stateLog`; with the `still_dice` marker, the board's motion is off."""
    context.add_init_script(STATE_LOG_SCRIPT)
    if request.node.get_closest_marker("still_dice"):
        context.add_init_script(STILL_DICE)
    return context.new_page()


@pytest.fixture(scope="session")
def _shared_app(browser, browser_context_args):
    """One context and page booted once per session for the tests that only read or
    call the engine (a cold boot costs 5-20 s on a busy 2-core machine)."""
    context = browser.new_context(**browser_context_args)
    guard = Guard()
    guard.attach_context(context)
    context.add_init_script(STATE_LOG_SCRIPT)
    page = context.new_page()
    try:
        boot(page)
        error = None
    except Exception as e:  # reported by every test that uses it
        error = e
    yield page, guard, error
    context.close()


@pytest.fixture
def app_guard(_shared_app) -> Guard:
    """The guard of the shared `app_page` (to claim a problem a test provokes)."""
    return _shared_app[1]


@pytest.fixture
def app_page(_shared_app):
    """The shared page, booted to data-state=ready. Leave it as you found it. The test
    fails at teardown on any problem not yet reported (the boot's included)."""
    page, guard, error = _shared_app
    if error is not None:
        pytest.fail(f"the shared app page did not boot: {error}", pytrace=False)
    pending = list(guard.problems)
    guard.problems.clear()
    yield page
    guard.collect_error_boxes()
    problems = pending + guard.problems
    guard.problems.clear()
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(f"  - {p}" for p in problems), pytrace=False)
