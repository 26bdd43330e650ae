"""static/js/storage.mjs never throws, and the app boots in a cross-site iframe
whose storage the browser denies (Playwright's Chromium denies it by default) or
partitions (Firefox)."""
import urllib.parse

import pytest

from e2e_support import host_page, wait_ready


@pytest.mark.cross_engine
def test_storage_wrapper_round_trip(app_page):
    result = app_page.evaluate(
        """() => {
        const s = generala.storage;
        const out = {persistent: s.persistent};
        out.set = s.set("generala:test:a", "1");
        s.set("generala:test:b", 2);
        s.set("other", "x");
        out.get = s.get("generala:test:a");
        out.num = s.get("generala:test:b");
        out.missing = s.get("generala:test:none");
        s.set("generala:test:c", '{"rev": 12, "id": "g1"}');
        out.head = s.head("generala:test:c", 11);
        out.head_missing = s.head("generala:test:none", 11);
        s.remove("generala:test:c");
        out.keys = s.keys("generala:test:");
        out.removed = s.remove("generala:test:a");
        out.after = s.get("generala:test:a");
        out.keys2 = s.keys("generala:test:");
        return out;
    }"""
    )
    assert result == {
        "persistent": True,
        "set": True,
        "get": "1",
        "num": "2",
        "missing": None,
        "head": '{"rev": 12,',
        "head_missing": None,
        "keys": ["generala:test:a", "generala:test:b"],
        "removed": True,
        "after": None,
        "keys2": ["generala:test:b"],
    }
    # The storage-denied notice stays hidden when storage works.
    assert app_page.is_hidden("#storage-note")


@pytest.mark.cross_engine
def test_storage_set_reports_quota_failure_instead_of_throwing(app_page):
    result = app_page.evaluate(
        """() => {
        const big = "x".repeat(1024 * 1024);
        let ok = true, i = 0, threw = false;
        try {
            for (; i < 64 && ok; i++) ok = generala.storage.set("generala:fill:" + i, big);
        } catch (e) { threw = true; }
        for (const k of generala.storage.keys("generala:fill:")) generala.storage.remove(k);
        return {ok, threw, i};
    }"""
    )
    assert result["threw"] is False
    assert result["ok"] is False  # localStorage holds ~5-10 MB: some set() reported failure


@pytest.fixture
def embed_host(base_url):
    """A blog-like page on another site ("localhost") framing the game ("127.0.0.1"),
    served by a server of its own (a real loopback server: Chromium's local network
    access checks block a routed page from framing a loopback URL)."""
    port = urllib.parse.urlsplit(base_url).port
    game_url = f"http://127.0.0.1:{port}/"
    body = (
        f'<!doctype html><title>blog</title><p>A post.</p>'
        f'<iframe src="{game_url}" title="Generala" width="400" height="600"></iframe>'
    ).encode()

    with host_page(body) as url:
        yield url, game_url


@pytest.mark.cross_engine
def test_boots_in_a_cross_site_iframe_with_storage_denied_or_partitioned(page, embed_host, browser_name):
    host_url, game_url = embed_host
    page.goto(host_url)
    page.frame_locator("iframe").locator("html").wait_for(state="attached")
    frames = [f for f in page.frames if f.url.startswith(game_url)]
    assert frames, [f.url for f in page.frames]
    game = frames[0]
    wait_ready(game)
    if browser_name == "firefox":
        # Partitioned storage of the frame's own: it persists, and no notice shows.
        assert game.evaluate("generala.storage.persistent") is True
        assert game.evaluate("generala.storage.set('k', 'v') && generala.storage.get('k')") == "v"
        assert game.evaluate("localStorage.getItem('k')") == "v"
        assert game.is_hidden("#storage-note")
        return
    assert game.evaluate("generala.storage.persistent") is False
    # The wrapper works from memory without throwing.
    assert game.evaluate("generala.storage.set('k', 'v') && generala.storage.get('k')") == "v"
    assert game.evaluate("generala.storage.keys('')") == ["k"]
    assert game.is_visible("#storage-note")
