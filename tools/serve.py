#!/usr/bin/env python3
"""Serve dist/ locally with the production headers (standard library only).

    python3 tools/serve.py [PORT] [--dir DIST] [--host 127.0.0.1] [--quiet]

Every response carries the headers that `netlify.toml` declares for its path
([[headers]] tables; `for` globs as Netlify reads them: `*` matches anything
including `/`, `:name` one path segment; every matching rule applies, in file
order, a later rule overriding an earlier one's header of the same name), so
local runs and the e2e tests see the same Content-Security-Policy, caching and
MIME types as the deployed site.

Responses are compressed as a CDN like Netlify's compresses them: text, scripts,
JSON, SVG and wasm are sent with `Content-Encoding: br` when the client accepts it
and the `brotli` module is importable (quality 5), else gzip (level 6); files that
are compressed already (zip, .gz, images, bytecode) go as they are. So local
byte counts and Lighthouse figures mean what deployed ones mean. `--no-compress`
(or `compress=False`) serves every body raw.

From tests:

    from tools.serve import start_server
    base_url, stop = start_server("dist")   # free port, background thread
    ...
    stop()
"""
from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import mimetypes
import os
import re
import sys
import threading
import tomllib
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIST = ROOT / "dist"
DEFAULT_NETLIFY_TOML = ROOT / "netlify.toml"

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".mpy": "application/octet-stream",
    ".toml": "application/toml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".gz": "application/gzip",
    ".bin": "application/octet-stream",
    ".gvt": "application/octet-stream",
}


def content_type(path: str) -> str:
    """The Content-Type this server sends for a file, by its name: MIME_TYPES, else the
    standard library's guess, else application/octet-stream."""
    ext = os.path.splitext(str(path))[1].lower()
    return MIME_TYPES.get(ext) or mimetypes.guess_type(str(path))[0] or "application/octet-stream"


# Types a CDN compresses on the fly (by Content-Type, parameters ignored).
COMPRESSIBLE = {
    "text/html", "text/javascript", "text/css", "text/plain", "text/x-python",
    "application/json", "application/manifest+json", "application/toml",
    "application/wasm", "image/svg+xml",
}
BROTLI_QUALITY = 5
GZIP_LEVEL = 6

try:  # optional (requirements-test.txt); gzip alone otherwise
    import brotli  # type: ignore
except ImportError:  # pragma: no cover - depends on the machine
    brotli = None


def accepted_encoding(accept_encoding: str) -> str | None:
    """The encoding to send for an Accept-Encoding header: br, gzip or None.
    A coding listed with q=0 is refused."""
    offered = {}
    for item in accept_encoding.split(","):
        name, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name:
            offered[name.strip().lower()] = q
    if brotli is not None and offered.get("br", 0) > 0:
        return "br"
    if offered.get("gzip", 0) > 0:
        return "gzip"
    return None


_compressed_cache: dict[tuple, bytes] = {}
_cache_lock = threading.Lock()


def compressed_body(path: str, stat: os.stat_result, encoding: str) -> bytes:
    """The file's bytes in `encoding`, made once per file version and kept."""
    key = (path, stat.st_mtime_ns, stat.st_size, encoding)
    with _cache_lock:
        body = _compressed_cache.get(key)
    if body is None:
        data = Path(path).read_bytes()
        if encoding == "br":
            body = brotli.compress(data, quality=BROTLI_QUALITY)
        else:
            body = gzip.compress(data, GZIP_LEVEL, mtime=0)
        with _cache_lock:
            _compressed_cache[key] = body
    return body


def glob_to_regex(pattern: str) -> re.Pattern:
    """A Netlify `for` path as a regex: `*` matches anything (slashes included),
    a `:name` segment one segment; a trailing slash is optional; case-insensitive."""
    parts = [p for p in pattern.split("/") if p]
    out = []
    for part in parts:
        if re.fullmatch(r":\w+", part):
            out.append("[^/]+")
        else:
            out.append(".*".join(re.escape(chunk) for chunk in part.split("*")))
    return re.compile("^/" + "/".join(out) + "/?$", re.IGNORECASE)


def load_header_rules(netlify_toml: Path | str = DEFAULT_NETLIFY_TOML) -> list[tuple[re.Pattern, dict[str, str]]]:
    with open(netlify_toml, "rb") as f:
        config = tomllib.load(f)
    rules = []
    for rule in config.get("headers", []):
        values = {str(k): " ".join(str(v).split()) for k, v in rule.get("values", {}).items()}
        rules.append((glob_to_regex(rule["for"]), values))
    return rules


def headers_for_path(rules, path: str) -> dict[str, str]:
    """Headers for a URL path; later matching rules override earlier ones (by
    case-insensitive name), as Netlify does."""
    merged: dict[str, tuple[str, str]] = {}
    for regex, values in rules:
        if regex.match(path):
            for name, value in values.items():
                merged[name.lower()] = (name, value)
    return dict(merged.values())


def response_headers(rules, path: str) -> dict[str, str]:
    """Every header this server sends with the file at the URL `path` because of what it
    is and where it lies: its Content-Type (content_type), then the rules' headers for the
    path (netlify.toml's, which may set another Content-Type). tools/build.py gives the
    service worker these, for the responses it makes from its cache."""
    headers = headers_for_path(rules, path)
    if not any(name.lower() == "content-type" for name in headers):
        headers = {"Content-Type": content_type(path), **headers}
    return headers


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go in separate writes: with Nagle's algorithm the body waited for
    # the client's delayed ACK of the headers (~40 ms on Linux) on every response, and
    # 70 small files over six connections took half a second. A CDN sets TCP_NODELAY.
    disable_nagle_algorithm = True
    rules: list = []
    overlays: dict[str, str] = {}  # URL prefix -> directory, e.g. {"/bench/": ".../bench"}
    quiet = False
    compress = True
    on_response = None  # optional callback(path, status, body_bytes), e.g. for benchmarks

    def send_response(self, code, message=None):
        self._status = code
        self._body_bytes = 0
        super().send_response(code, message)

    def copyfile(self, source, outputfile):
        n = 0
        while chunk := source.read(64 * 1024):
            outputfile.write(chunk)
            n += len(chunk)
        self._body_bytes = n

    def do_GET(self):
        super().do_GET()
        if self.on_response is not None:
            self.on_response(self.path, getattr(self, "_status", 0), getattr(self, "_body_bytes", 0))

    def send_head(self):
        """As the standard handler, but a compressible file goes compressed when the
        client accepts it (with Vary: Accept-Encoding, as a CDN answers)."""
        path = self.translate_path(self.path)
        if os.path.isdir(path) and urllib.parse.urlsplit(self.path).path.endswith("/"):
            path = os.path.join(path, "index.html")
        if not self.compress or not os.path.isfile(path):
            return super().send_head()
        ctype = self.guess_type(path)
        encoding = accepted_encoding(self.headers.get("Accept-Encoding", ""))
        if encoding is None or ctype.split(";")[0].strip().lower() not in COMPRESSIBLE:
            return super().send_head()
        stat = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and not self.headers.get("If-None-Match"):
            try:
                when = email.utils.parsedate_to_datetime(since)
            except (TypeError, ValueError, IndexError, OverflowError):
                when = None
            if when is not None and when.tzinfo is not None and int(stat.st_mtime) <= when.timestamp():
                self.send_response(304)
                self.send_header("Vary", "Accept-Encoding")
                self.end_headers()
                return None
        body = compressed_body(path, stat, encoding)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return io.BytesIO(body)

    def translate_path(self, path: str) -> str:
        url_path = urllib.parse.unquote(urllib.parse.urlsplit(path).path)
        for prefix, directory in self.overlays.items():
            if url_path.startswith(prefix):
                rel = url_path[len(prefix):]
                target = os.path.realpath(os.path.join(directory, rel))
                if target == os.path.realpath(directory) or target.startswith(os.path.realpath(directory) + os.sep):
                    return target
                return os.path.join(directory, "__forbidden__")
        return super().translate_path(path)

    def guess_type(self, path) -> str:
        return content_type(path)

    def list_directory(self, path):
        # Like Netlify: no directory listings.
        self.send_error(404, "Not Found")
        return None

    def end_headers(self) -> None:
        url_path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        for name, value in headers_for_path(self.rules, url_path).items():
            # Replace a default of the same name (e.g. Content-Type) rather than duplicate it.
            self._headers_buffer = [
                line for line in self._headers_buffer
                if not line.decode("latin-1").lower().startswith(name.lower() + ":")
            ]
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(
    directory: Path | str = DEFAULT_DIST,
    port: int = 8000,
    host: str = "127.0.0.1",
    netlify_toml: Path | str = DEFAULT_NETLIFY_TOML,
    overlays: dict[str, str] | None = None,
    quiet: bool = False,
    on_response=None,
    compress: bool = True,
) -> Server:
    directory = Path(directory).resolve()
    if not (directory / "index.html").is_file():
        raise FileNotFoundError(f"{directory}/index.html not found: build first (python3 tools/build.py)")
    handler = type(
        "SiteHandler",
        (Handler,),
        {
            "rules": load_header_rules(netlify_toml),
            "overlays": {k: str(Path(v).resolve()) for k, v in (overlays or {}).items()},
            "quiet": quiet,
            "compress": compress,
            "on_response": staticmethod(on_response) if on_response else None,
        },
    )
    return Server((host, port), functools.partial(handler, directory=str(directory)))


def start_server(
    directory: Path | str = DEFAULT_DIST,
    port: int = 0,
    host: str = "127.0.0.1",
    netlify_toml: Path | str = DEFAULT_NETLIFY_TOML,
    overlays: dict[str, str] | None = None,
    quiet: bool = True,
    on_response=None,
    compress: bool = True,
):
    """Start serving in a daemon thread (port 0: a free one). Returns (base_url, stop).
    `overlays` maps URL prefixes to other folders; `on_response(path, status, body_bytes)`
    is called after each GET with the bytes of the body as sent (compressed or not)."""
    server = make_server(directory, port, host, netlify_toml, overlays, quiet, on_response, compress)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    base_url = f"http://{host}:{server.server_address[1]}"

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

    return base_url, stop


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Serve dist/ with the headers of netlify.toml.")
    ap.add_argument("port", nargs="?", type=int, default=8000)
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIST)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--no-compress", action="store_true", help="send every body raw")
    args = ap.parse_args(argv)
    try:
        server = make_server(args.dir, args.port, args.host, quiet=args.quiet, compress=not args.no_compress)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 1
    host, port = server.server_address[:2]
    print(f"serving {args.dir} at http://{'localhost' if host == '127.0.0.1' else host}:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
