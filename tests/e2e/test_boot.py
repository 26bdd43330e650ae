"""The boot contract: <html data-state> goes loading -> ui-ready -> ready, and the
engine (Pyodide in a plain module worker) answers."""
import json

from e2e_support import boot, engine_version


def test_boots_to_ready_with_the_engine_answering(page):
    response = boot(page)
    assert "frame-ancestors *" in response.headers["content-security-policy"]
    assert page.evaluate("window.__stateLog") == ["loading", "ui-ready", "ready"]
    # The engine version is shown as text.
    version = engine_version()
    assert page.text_content("#engine-version") == version
    # The engine answers more calls after boot, through the page's engine module.
    reply = page.evaluate("generalaEngine.call(JSON.stringify({op: 'ping'}))")
    assert json.loads(reply) == {"ok": True, "version": version}
    assert page.evaluate("generalaEngine.state") == "ready"


def test_the_engine_runs_in_a_worker_not_on_the_main_thread(app_page):
    # Pyodide is never loaded on the main thread: no pyodide global, and the
    # main thread's Python is MicroPython.
    assert app_page.evaluate("typeof globalThis.loadPyodide") == "undefined"
    assert app_page.evaluate("typeof globalThis.pyodide") == "undefined"
    entries = app_page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in entries if "pyodide.asm" in u], "the page itself fetched Pyodide"
    assert [u for u in entries if u.endswith("micropython.wasm")]


def test_an_engine_error_is_a_rejected_promise_not_a_crash(app_page):
    # A request the engine cannot parse: the call rejects, the page stays ready.
    # (The worker logs nothing as an error; the rejection is handled here.)
    outcome = app_page.evaluate(
        """generalaEngine.call("not json").then(r => "reply:" + r, e => "error:" + e.message)"""
    )
    assert outcome.startswith(("error:", "reply:"))
    assert app_page.evaluate("document.documentElement.dataset.state") == "ready"


def test_boot_failure_is_reported_visibly(page, guard):
    # Break the engine download: the page must end in data-state=error with a message.
    guard.allow(r"generala\.zip|could not start|Failed to load resource")
    page.context.route("**/generala.zip", lambda route: route.fulfill(status=404, body="gone"))
    page.goto("/")
    page.wait_for_selector("html[data-state=error]", state="attached", timeout=90_000)
    message = page.text_content("#boot-error")
    assert message and "could not start" in message
    assert page.is_visible("#boot-error")
