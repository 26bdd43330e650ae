"""The boot contract: <html data-state> goes loading -> ui-ready -> ready, and the
engine (Pyodide in a plain module worker) answers."""
import gzip
import io
import json
import zipfile

import pytest

from e2e_support import boot, emulate_a_3g_link, engine_version


@pytest.mark.cross_engine
def test_boots_to_ready_with_the_engine_answering(page):
    response = boot(page)
    assert "frame-ancestors *" in response.headers["content-security-policy"]
    assert page.evaluate("window.__stateLog") == ["loading", "ui-ready", "ready"]
    # The engine version is shown as text.
    version = engine_version()
    assert page.text_content("#engine-version") == version
    # The engine answers more calls after boot, through the page's engine module.
    reply = page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))")
    assert json.loads(reply) == {"ok": True, "version": version}
    assert page.evaluate("generala.engine.state") == "ready"


@pytest.mark.cross_engine
def test_the_engine_runs_in_a_worker_not_on_the_main_thread(app_page):
    # Pyodide is never loaded on the main thread: no pyodide global, and the
    # main thread's Python is MicroPython.
    assert app_page.evaluate("typeof globalThis.loadPyodide") == "undefined"
    assert app_page.evaluate("typeof globalThis.pyodide") == "undefined"
    entries = app_page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in entries if "pyodide.asm" in u], "the page itself fetched Pyodide"
    assert [u for u in entries if u.endswith("micropython.wasm")]


def test_a_request_the_engine_cannot_read_is_answered_not_a_crash(app_page):
    # Text that is not JSON: the engine answers InvalidInput, saying why; the call's
    # promise resolves (only a call the worker cannot answer rejects), the page stays
    # ready and the engine answers the next request.
    outcome = app_page.evaluate(
        """generala.engine.call("not json").then(r => "reply:" + r, e => "error:" + e.message)"""
    )
    kind, _, text = outcome.partition(":")
    assert kind == "reply", outcome
    reply = json.loads(text)
    assert reply["ok"] is False and reply["kind"] == "InvalidInput", reply
    assert "not JSON" in reply["error"], reply
    assert app_page.evaluate("document.documentElement.dataset.state") == "ready"
    ping = app_page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))")
    assert json.loads(ping)["ok"] is True


@pytest.mark.cross_engine
def test_boot_failure_is_reported_visibly_and_calls_reject(page, guard):
    # Break the engine download: the page must end in data-state=error with a message,
    # and a call to the engine rejects with the boot's error instead of waiting forever.
    guard.allow(r"generala\.zip|could not start|Failed to load resource")
    page.context.route("**/generala.zip", lambda route: route.fulfill(status=404, body="gone"))
    page.goto("/")
    page.wait_for_selector("html[data-state=error]", state="attached", timeout=90_000)
    message = page.text_content("#boot-error")
    assert message and "could not start" in message
    assert page.is_visible("#boot-error")
    outcome = page.evaluate(
        """generala.engine.call(JSON.stringify({op: 'ping'})).then(r => "reply:" + r, e => "error:" + e.message)"""
    )
    assert outcome == "error:" + page.evaluate("generala.engine.error"), outcome
    assert "cannot fetch the engine (404" in outcome


@pytest.mark.cross_engine
def test_the_engine_boots_from_its_snapshot(app_page):
    # The build's memory snapshot (Pyodide started, the engine imported) is restored
    # instead of booting Python: tools/make_snapshot.mjs, static/js/engine-worker.mjs.
    worker = app_page.evaluate("generala.engine.timings.worker")
    assert worker["boot"] == "snapshot"
    entries = app_page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in entries if "snapshot" in u], "the page itself fetched the snapshot"


def _zip_of_another_build(dist_dir) -> bytes:
    """generala.zip with another BUILD: the snapshot no longer matches it."""
    out = io.BytesIO()
    with zipfile.ZipFile(dist_dir / "generala.zip") as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, b"0000000000000000\n" if name == "generala/BUILD" else src.read(name))
    return out.getvalue()


@pytest.mark.parametrize("broken", ["missing", "not a snapshot", "another engine build"])
def test_without_a_usable_snapshot_the_engine_boots_pyodide_in_full(page, guard, dist_dir, broken):
    guard.allow(r"generala\.snapshot\.gz|Failed to load resource|engine stderr: booting Pyodide in full")
    warnings = []
    page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    if broken == "missing":
        page.context.route("**/generala.snapshot.gz", lambda route: route.fulfill(status=404, body="gone"))
    elif broken == "not a snapshot":
        garbage = gzip.compress(b"\x00" * 4096)
        page.context.route("**/generala.snapshot.gz", lambda route: route.fulfill(status=200, body=garbage))
    else:
        other = _zip_of_another_build(dist_dir)
        page.context.route("**/generala.zip", lambda route: route.fulfill(status=200, body=other))
    boot(page)
    assert page.evaluate("generala.engine.timings.worker.boot") == "full"
    assert [w for w in warnings if "booting Pyodide in full" in w], warnings
    reply = page.evaluate("generala.engine.call(JSON.stringify({op: 'ping'}))")
    assert json.loads(reply)["ok"] is True


@pytest.mark.only_chromium("CDP network emulation and navigator.connection (Chromium only)")
def test_on_a_slow_link_a_first_visit_boots_in_full_without_the_snapshot(page):
    # ~6 MB more to download costs more than restoring it saves at 3G speeds.
    asked = []
    page.context.route("**/generala.snapshot.gz", lambda route: (asked.append(route.request.url), route.continue_()))
    emulate_a_3g_link(page)
    boot(page)
    assert page.evaluate("navigator.connection.effectiveType") == "3g"
    assert page.evaluate("generala.engine.timings.worker.boot") == "full"
    assert asked == []
