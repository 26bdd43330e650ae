"""The local server applies netlify.toml's production headers, and the page runs
under them (the guard fails any test on a CSP violation)."""
import urllib.request

import pytest


def directives(csp: str) -> dict[str, list[str]]:
    out = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.cross_engine
def test_the_page_is_served_with_the_production_headers(app_page, base_url):
    response = app_page.request.get(base_url + "/")
    h = response.headers
    csp = directives(h["content-security-policy"])
    assert csp["default-src"] == ["'none'"]
    assert set(csp["script-src"]) == {"'self'", "'wasm-unsafe-eval'"}  # no 'unsafe-eval'
    assert "'unsafe-inline'" not in " ".join(sum(csp.values(), []))
    assert csp["worker-src"] == ["'self'"]
    assert csp["frame-src"] == ["'self'"]  # the bots' sandbox (below)
    assert csp["connect-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["*"]
    assert csp["base-uri"] == ["'none'"] and csp["object-src"] == ["'none'"]
    assert "x-frame-options" not in h
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "strict-origin-when-cross-origin"
    assert h["cache-control"] == "no-cache"
    assert h["content-type"].startswith("text/html")


def test_the_bots_sandbox_has_a_policy_of_its_own(site):
    # static/bot-sandbox.html: an opaque origin (sandbox), no URL to reach, scripts by hash
    # and from blob: only (netlify.toml says why, tests/site/test_build.py checks the hash).
    base_url, _ = site
    with urllib.request.urlopen(f"{base_url}/static/bot-sandbox.html") as r:
        csp = directives(r.headers["Content-Security-Policy"])
        assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert csp["sandbox"] == ["allow-scripts"] and csp["default-src"] == ["'none'"]
    assert csp["worker-src"] == ["blob:"] and csp["frame-ancestors"] == ["*"]
    assert csp["script-src"][0].startswith("'sha256-") and csp["script-src"][1:] == ["blob:", "'wasm-unsafe-eval'"]
    assert "connect-src" not in csp and "'unsafe-eval'" not in csp["script-src"]


def test_vendor_files_are_immutable_with_the_right_types(site):
    base_url, dist = site
    wasm = next(dist.glob("vendor/pyodide/*/pyodide.asm.wasm")).relative_to(dist).as_posix()
    mjs = next(dist.glob("vendor/pyodide/*/pyodide.mjs")).relative_to(dist).as_posix()
    for path, ctype in [(wasm, "application/wasm"), (mjs, "text/javascript")]:
        req = urllib.request.Request(f"{base_url}/{path}", method="HEAD")
        with urllib.request.urlopen(req) as r:
            assert r.headers["Content-Type"].startswith(ctype), path
            assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert r.headers["X-Content-Type-Options"] == "nosniff"
    with urllib.request.urlopen(f"{base_url}/static/js/engine.mjs") as r:
        assert r.headers["Content-Type"].startswith("text/javascript")
        assert r.headers["Cache-Control"] == "public, max-age=0, must-revalidate"


def test_no_directory_listing_and_404_for_missing_files(site):
    base_url, _ = site
    for path in ["/vendor/", "/nope.txt", "/../netlify.toml"]:
        try:
            urllib.request.urlopen(base_url + path)
        except urllib.error.HTTPError as e:
            assert e.code == 404
            assert e.headers["Content-Security-Policy"]
        else:
            raise AssertionError(f"{path} was served")
