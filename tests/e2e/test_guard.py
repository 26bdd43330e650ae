"""The guard itself: what makes every e2e test fail at teardown."""
from types import SimpleNamespace as NS

import pytest

from e2e_support import Guard, is_local_url


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


def test_claimed_problems_are_not_reported():
    g = Guard()
    g.allow(r"expected boom")
    g.on_pageerror("Error: expected boom")
    g.on_pageerror("Error: unexpected")
    assert g.problems == ["page error: Error: unexpected"]


def test_guard_catches_a_real_external_request_in_the_browser(context, base_url):
    # A guard of our own (not the fixture's, which would fail this test).
    # The external host is answered by Playwright's router: nothing leaves the machine.
    g = Guard()
    g.attach_context(context)
    context.route("http://external.test/**", lambda route: route.fulfill(body="<p>elsewhere</p>", content_type="text/html"))
    page = context.new_page()
    page.goto("http://external.test/page.html")
    assert any("request to another host: GET http://external.test/page.html" in p for p in g.problems)


def test_guard_catches_page_errors_console_errors_and_error_boxes(context, base_url):
    g = Guard()
    g.attach_context(context)
    page = context.new_page()
    page.goto(base_url + "/static/css/site.css")  # any same-origin page will do
    page.evaluate("console.error('deliberate console error')")
    page.evaluate("setTimeout(() => { throw new Error('deliberate page error') }, 0)")
    page.evaluate("document.body.append(Object.assign(document.createElement('div'), {className: 'py-error', textContent: 'Traceback: deliberate'}))")
    page.wait_for_timeout(200)
    g.collect_error_boxes()
    text = "\n".join(g.problems)
    assert "deliberate console error" in text
    assert "deliberate page error" in text
    assert ".py-error box: Traceback: deliberate" in text


def test_a_csp_violation_in_the_app_is_caught(app_page, app_guard):
    # The production CSP blocks a fetch to another host before any request is made;
    # Chromium reports it as a console error, which the guard records.
    guard = app_guard
    before = len(guard.problems)
    app_page.evaluate("fetch('http://external.test/x').catch(() => {})")
    app_page.wait_for_timeout(300)
    new = guard.problems[before:]
    assert any("Refused to connect" in p for p in new), new
    guard.problems[before:] = []  # claimed: this test provoked it
