"""End-to-end harness: pytest + pytest-playwright (sync API), Debian Chromium.

- `site` (session): builds the site once (tools/build.py, into a temporary folder)
  and serves it with tools/serve.py, i.e. with the production headers of
  netlify.toml. Set E2E_DIST=/path/to/dist to serve an existing build instead.
- `base_url` (session): that server's URL; `page.goto("/")` is relative to it.
- `browser` (session, from pytest-playwright): ONE Chromium for the whole run,
  /usr/bin/chromium (or $CHROMIUM) with the flags of PLATFORM.md; every
  context starts from a new empty profile.
- `page` / `app_page`: a page whose `guard` fails the test at teardown on any
  page error, console error (Python traceback, CSP "Refused to ..."), `.py-error`
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

from e2e_support import STATE_LOG_SCRIPT, Guard, boot  # noqa: E402
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
]


def chromium_path() -> str | None:
    path = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return path if Path(path).exists() else None


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
def browser_type_launch_args(browser_type_launch_args):
    args = dict(browser_type_launch_args)
    exe = chromium_path()
    if exe:
        args["executable_path"] = exe
    args["args"] = [*args.get("args", []), *CHROMIUM_FLAGS]
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Service workers are blocked in the ordinary fixtures (each fresh context would
    otherwise precache the whole 14 MB site); tests of offline behaviour open
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
def page(context, guard):
    """A guarded page (see the module docstring) that logs <html data-state> values
    in `window.__stateLog`."""
    context.add_init_script(STATE_LOG_SCRIPT)
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
