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
- `app_page`: `page` already booted to <html data-state=ready>.
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


@pytest.fixture
def app_page(page):
    """A guarded page already booted to data-state=ready."""
    boot(page)
    return page
