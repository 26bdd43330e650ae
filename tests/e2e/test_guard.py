"""The guard itself: what makes every e2e test fail at teardown."""
import json
import re
from types import SimpleNamespace as NS

import pytest

from e2e_support import Guard, is_local_url, poll


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/",
        "http://localhost:41234/vendor/pyodide/314.0.7/pyodide.asm.wasm",
        "https://localhost/x",
        "http://[::1]:8000/",
        "ws://127.0.0.1:9/",
        "data:text/plain,hi",
        "blob:http://127.0.0.1:8000/abc",
        "about:blank",
    ],
)
def test_local_urls(url):
    assert is_local_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://cdn.jsdelivr.net/npm/pyodide@314.0.7/pyodide.mjs",
        "http://example.com/",
        "https://127.0.0.1.example.com/",
        "http://localhost.example.com/",
        "http://10.0.0.1/",
        "ftp://127.0.0.1/",
        "//evil.test/x",
    ],
)
def test_external_urls(url):
    assert not is_local_url(url)


def test_guard_records_external_requests_console_errors_and_page_errors():
    g = Guard()
    g.on_request(NS(method="GET", url="http://127.0.0.1:8000/index.html"))
    g.on_request(NS(method="GET", url="https://cdn.example.net/pyodide.mjs"))
    g.on_console(NS(type="log", text="fine"))
    g.on_console(NS(type="warning", text="also fine"))
    g.on_console(NS(type="error", text="Traceback (most recent call last): ..."))
    g.on_console(NS(type="error", text="Refused to connect to 'http://x/' because it violates the CSP"))
    g.on_pageerror("Failed to fetch dynamically imported module")
    g.on_response(NS(status=200, url="http://127.0.0.1/a"))
    g.on_response(NS(status=404, url="http://127.0.0.1/missing.py"))
    assert len(g.problems) == 5
    assert "cdn.example.net" in g.problems[0]
    assert "Traceback" in g.problems[1]
    assert "Refused" in g.problems[2]
    assert "dynamically imported" in g.problems[3]
    assert "404" in g.problems[4]


def test_engine_stderr_is_a_problem_and_its_stdout_is_not():
    g = Guard()
    g.on_console(NS(type="log", text="[engine] printed by Python"))
    g.on_console(NS(type="warning", text="[engine] Traceback (most recent call last):"))
    g.on_console(NS(type="warning", text="a warning of the page"))
    assert g.problems == ["engine stderr: Traceback (most recent call last):"]


def test_claimed_problems_are_not_reported():
    g = Guard()
    g.allow(r"expected boom")
    g.on_pageerror("Error: expected boom")
    g.on_pageerror("Error: unexpected")
    assert g.problems == ["page error: Error: unexpected"]


@pytest.mark.cross_engine
def test_guard_catches_a_real_external_request_in_the_browser(context, base_url):
    # A guard of our own (not the fixture's, which would fail this test).
    # The external host is answered by Playwright's router: nothing leaves the machine.
    g = Guard()
    g.attach_context(context)
    context.route("http://external.test/**", lambda route: route.fulfill(body="<p>elsewhere</p>", content_type="text/html"))
    page = context.new_page()
    page.goto("http://external.test/page.html")
    assert any("request to another host: GET http://external.test/page.html" in p for p in g.problems)


@pytest.mark.cross_engine
def test_guard_catches_page_errors_console_errors_and_error_boxes(context, base_url):
    g = Guard()
    g.attach_context(context)
    page = context.new_page()
    page.goto(base_url + "/static/css/site.css")  # any same-origin page will do
    page.evaluate("console.error('deliberate console error')")
    page.evaluate("setTimeout(() => { throw new Error('deliberate page error') }, 0)")
    page.evaluate("document.body.append(Object.assign(document.createElement('div'), {id: 'boot-error', textContent: 'The page could not start: deliberate'}))")
    poll(page, lambda: sum("deliberate" in p for p in g.problems) == 2, 10, "the console error and page error reported")
    g.collect_error_boxes()
    text = "\n".join(g.problems)
    assert "deliberate console error" in text
    assert "deliberate page error" in text
    assert "boot error shown: The page could not start: deliberate" in text


# How each engine words the CSP block of a fetch to another host.
CSP_BLOCK = {
    "chromium": r"^console error: .*http://external\.test/x.*(Refused to connect|violates the following Content Security Policy)",
    "firefox": r"^page error: The page’s settings blocked the loading of a resource \(connect-src\) at http://external\.test/x",
}


@pytest.mark.cross_engine
def test_a_csp_violation_in_the_app_is_caught(app_page, app_guard, browser_name):
    # The production CSP blocks a fetch to another host before any request is made;
    # Chromium reports it as a console error, Firefox as a page error: both recorded.
    guard = app_guard
    before = len(guard.problems)
    app_page.evaluate("fetch('http://external.test/x').catch(() => {})")
    poll(app_page, lambda: any(re.search(CSP_BLOCK[browser_name], p) for p in guard.problems[before:]), 10,
         "the CSP block reported")
    guard.problems[before:] = []  # claimed: this test provoked it


@pytest.mark.cross_engine
def test_an_inline_style_blocked_by_the_csp_is_caught_but_a_screenshot_is_not(app_page, app_guard, browser_name):
    guard = app_guard
    before = len(guard.problems)
    shot = guard.screenshot(app_page)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    assert guard.problems[before:] == []  # Playwright's own <style> (Firefox) is claimed
    app_page.evaluate("""() => { const s = document.createElement('style');
        s.textContent = '#nothing { color: red }'; document.head.append(s); s.remove(); }""")
    wording = {"chromium": "Applying inline style violates the following Content Security Policy", "firefox": "blocked an inline style (style-src-elem)"}
    poll(app_page, lambda: any(wording[browser_name] in p for p in guard.problems[before:]), 10,
         "the inline style's CSP block reported")
    guard.problems[before:] = []  # claimed: this test provoked it


@pytest.mark.cross_engine
def test_an_internal_error_reply_of_the_engine_is_caught(context, base_url):
    # The engine answers every bad request with InvalidInput (tests/unit/test_app_input.py),
    # so an InternalError reply is crafted: a worker of the engine's name posts one the
    # way engine-worker.mjs posts its replies, and the guard's watch must report it.
    g = Guard()
    g.attach_context(context)
    page = context.new_page()
    page.goto(base_url + "/static/css/site.css")
    crafted = '{"ok": false, "error": "deliberate", "kind": "InternalError"}'
    refusal = '{"ok": false, "error": "unknown op", "kind": "InvalidInput"}'
    # The crafted worker is a same-origin script (the CSP allows no blob: worker).
    src = "".join(f"postMessage({{id: 1, reply: {json.dumps(r)}, ok: false, kind: {json.dumps(json.loads(r)['kind'])}}});"
                  for r in (crafted, refusal))
    page.route("**/__test__/crafted-engine.js",
               lambda route: route.fulfill(status=200, content_type="text/javascript", body=src + "postMessage({done: true});"))
    page.evaluate("""() => new Promise((resolve) => {
        const w = new Worker("/__test__/crafted-engine.js", {name: "generala-engine"});
        w.onmessage = (e) => { if (e.data && e.data.done) resolve(); };
    })""")
    # The watch saw both replies before "done"; the one console error it logged arrives
    # here in order, before anything logged after it.
    poll(page, lambda: any("engine InternalError reply:" in p for p in g.problems), 10, "the InternalError reported")
    internal = [p for p in g.problems if "engine InternalError reply:" in p]
    assert internal == [f"console error: engine InternalError reply: {crafted}"], g.problems
    # An ordinary refusal is not a problem.
    assert g.problems == internal, g.problems


@pytest.mark.cross_engine
def test_the_engine_workers_console_error_and_stderr_are_caught(context, base_url):
    # The engine worker's console is the worker's own: an error it logs, or a line
    # Python writes to stderr, reaches the guard in each engine. A worker of the same
    # name runs the two calls the engine worker makes for them.
    g = Guard()
    g.attach_context(context)
    page = context.new_page()
    page.goto(base_url + "/static/css/site.css")
    src = "console.error('deliberate worker error'); console.warn('[engine] deliberate stderr line'); postMessage(1)"
    page.route("**/__test__/logging-engine.js",
               lambda route: route.fulfill(status=200, content_type="text/javascript", body=src))
    page.evaluate("""() => new Promise((resolve) => {
        const w = new Worker("/__test__/logging-engine.js", {name: "generala-engine"});
        w.onmessage = () => resolve();
    })""")
    poll(page, lambda: len(g.problems) >= 2, 10, "the worker's two lines reported")
    text = "\n".join(g.problems)
    assert "console error: deliberate worker error" in text, g.problems
    assert "engine stderr: deliberate stderr line" in text, g.problems
