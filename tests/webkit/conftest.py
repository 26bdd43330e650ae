"""The WebKit suite: Debian's WebKitGTK (MiniBrowser under WebKitWebDriver, Selenium 4)
on an Xvfb display this session starts itself, against the site built by
tools/build.py and served by tools/serve.py with the production headers (as the
e2e suite; E2E_DIST=/path/to/dist serves an existing build).

Every test fails at teardown on: an error the page collected (webkit_support's
COLLECT_ERRORS), a request that reached the refusing proxy (anything not for
localhost), a resource of another host in the page's Resource Timing, or
<html data-state=error>.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, Path(__file__).resolve().parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from tools import build as site_build  # noqa: E402
from tools.serve import start_server  # noqa: E402
from webkit_support import RefusingProxy, WebKitPage, non_local_resources  # noqa: E402

MINIBROWSER = os.environ.get("WEBKIT_MINIBROWSER") or "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER") or "/usr/bin/WebKitWebDriver"


@pytest.fixture(scope="session")
def display():
    """A display of our own: Xvfb picks a free number and writes it to a pipe."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    assert number, "Xvfb did not start"
    yield f":{number}"
    xvfb.terminate()
    xvfb.wait(timeout=10)


@pytest.fixture(scope="session")
def dist_dir(tmp_path_factory) -> Path:
    dist_env = os.environ.get("E2E_DIST")
    if dist_env:
        yield Path(dist_env).resolve()
        return
    dist = tmp_path_factory.mktemp("site") / "dist"
    site_build.build(dist, sizes=False)
    yield dist
    shutil.rmtree(dist, ignore_errors=True)


@pytest.fixture(scope="session")
def served():
    """Every path the site server answered, with its status (the server's log)."""
    return []


@pytest.fixture(scope="session")
def base_url(dist_dir, served):
    url, stop = start_server(dist_dir, on_response=lambda path, status, n: served.append((path, status)))
    yield url
    stop()


@pytest.fixture(scope="session")
def proxy():
    p = RefusingProxy()
    yield p
    p.close()


def make_driver(display: str, proxy: RefusingProxy):
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    options.add_argument(f"--proxy={proxy.url}")
    for host in ("localhost", "127.0.0.1", "::1"):  # never proxied (one option per host)
        options.add_argument(f"--ignore-host={host}")
    env = {**os.environ, "DISPLAY": display}
    service = Service(executable_path=WEBKIT_DRIVER, env=env)
    driver = webdriver.WebKitGTK(options=options, service=service)
    driver.set_script_timeout(90)
    driver.set_page_load_timeout(90)
    return driver


@pytest.fixture(scope="session")
def driver(display, proxy):
    """ONE MiniBrowser for the session (a start costs ~10 s here)."""
    d = make_driver(display, proxy)
    yield d
    d.quit()


@pytest.fixture
def wk(driver, base_url, proxy, served):
    """A guarded WebKitPage on a clean origin (storage, caches and service workers of
    the last test removed)."""
    page = WebKitPage(driver, base_url)
    driver.get(base_url + "/version.json")
    page.async_js("""
        localStorage.clear();
        for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
        for (const k of await caches.keys()) await caches.delete(k);
    """)
    proxy.requests.clear()
    served.clear()
    yield page
    page.harvest()
    problems = list(page.errors)
    problems += [f"request to another host (refused by the proxy): {r}" for r in proxy.requests]
    try:
        problems += [f"resource of another host: {u}" for u in non_local_resources(page)]
        if page.js("return document.documentElement.dataset.state") == "error":
            problems.append("page in data-state=error: " + " ".join(page.js(
                "return (document.getElementById('boot-error') || document.body).textContent").split()))
    except Exception as e:  # the page may be gone (server stopped)
        problems.append(f"cannot read the page at teardown: {e}")
    # WebKit asks for /favicon.ico for a document that names no icon (the clean-up
    # visit of /version.json above; the game's pages name theirs): not the site's 404.
    problems += [f"HTTP {status}: {path}" for path, status in served if status >= 400 and path != "/favicon.ico"]
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(f"  - {p}" for p in problems), pytrace=False)
