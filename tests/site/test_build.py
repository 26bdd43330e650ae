"""What tools/build.py publishes, and that it builds the same bytes every time."""
import ast
import gzip
import hashlib
import json
import re
import subprocess
import sys
import tomllib
import zipfile

import pytest

from tools import build as site_build
from tools import serve, ui_modules

REQUIRED = [
    "index.html",
    "pyscript.json",
    "generala.zip",
    "generala.lazy.zip",
    "generala.snapshot.gz",
    "python_stdlib.zip",
    "version.json",
    "static/ui/main.mpy",
    "static/js/engine.mjs",
    "static/js/engine-worker.mjs",
    "static/js/storage.mjs",
]
VENDOR = {
    "pyodide": ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"],
    "micropython": ["micropython.mjs", "micropython.wasm"],
    "pyscript": ["core.js"],
    "qrcode-generator": ["qrcode.mjs"],
}


def published(dist):
    return sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())


def test_publish_folder_holds_the_site_and_only_the_site(dist_dir):
    files = published(dist_dir)
    for f in REQUIRED:
        assert f in files
    manifest = json.loads((dist_dir / "version.json").read_text())
    for runtime, names in VENDOR.items():
        version = manifest["runtimes"][runtime]
        for name in names:
            assert f"vendor/{runtime}/{version}/{name}" in files
    for f in files:
        assert not f.startswith(("node_modules/", "tests/", "tools/", "bench/", "generala/", ".")), f
        assert not f.endswith((".map", ".pyc")) and "__pycache__" not in f, f
    # version.json lists every other published file.
    assert sorted(manifest["files"] + ["version.json"]) == files
    assert len(manifest["version"]) == 16


def test_engine_zip_holds_the_package(dist_dir):
    # Every module as bytecode for Pyodide's Python (unchecked-hash .pyc beside where its
    # source would be), no source; the example bots as text (the Bot lab shows them).
    with zipfile.ZipFile(dist_dir / "generala.zip") as zf:
        names = set(zf.namelist())
    package = site_build.ROOT / "generala"
    modules = {f"generala/{p.relative_to(package).as_posix()}" for p in package.rglob("*.py")
               if "__pycache__" not in p.parts}
    examples = {m for m in modules if m.startswith("generala/" + site_build.ENGINE_TEXTS)}
    assert examples and "generala/app.py" in modules
    assert names == {m[:-3] + ".pyc" for m in modules - examples} | examples | {"generala/BUILD"}


def test_a_restored_worker_downloads_only_what_the_snapshot_has_not_imported(dist_dir):
    # generala.lazy.zip: generala.zip's files less the modules the snapshot holds
    # imported (the app and the rules: the first screen's requests), the same bytes
    with zipfile.ZipFile(dist_dir / "generala.zip") as whole, zipfile.ZipFile(dist_dir / "generala.lazy.zip") as lazy:
        names = lazy.namelist()
        assert set(names) < set(whole.namelist())
        for name in names:
            assert lazy.read(name) == whole.read(name), name
    assert "generala/BUILD" in names and "generala/bot_examples/planner.py" in names
    assert "generala/ai/players.pyc" in names and "generala/modes/bots.pyc" in names
    assert not {"generala/__init__.pyc", "generala/app.pyc", "generala/rules/game.pyc"} & set(names)
    assert (dist_dir / "generala.lazy.zip").stat().st_size < 0.6 * (dist_dir / "generala.zip").stat().st_size


def test_the_engine_bytecode_has_no_docstrings(dist_dir):
    # Compiled from the source with its docstrings taken out (the engine has no assert
    # an optimize level would also drop, and none is dropped): the names are all there.
    with zipfile.ZipFile(dist_dir / "generala.zip") as zf:
        data = zf.read("generala/rules/game.pyc")
    assert int.from_bytes(data[4:8], "little") == 0b01  # hash-based, not checked
    source = (site_build.ROOT / "generala/rules/game.py").read_text(encoding="utf-8")
    docstring = "Whether a hint and the coach may be given now"
    assert docstring in source and docstring.encode() not in data
    assert b"helps" in data and b"daily.no_undo" in data and b"/home/pyodide/engine/generala/rules/game.py" in data


def test_the_engine_zip_names_its_build(dist_dir):
    # BUILD is the hash of every other file of the zip: the snapshot records it.
    with zipfile.ZipFile(dist_dir / "generala.zip") as zf:
        entries = [(n, zf.read(n)) for n in zf.namelist() if n != "generala/BUILD"]
        build = zf.read("generala/BUILD").decode().strip()
    assert build == site_build.engine_build_id(entries)
    assert len(build) == 16


def _leb128(data, i, signed=False):
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, i


def _initial_memory(wasm: bytes, length: int) -> bytes:
    """The first `length` bytes of a new instance's memory: zeros and the module's active
    data segments (read here from the binary, independently of the site's JavaScript)."""
    memory = bytearray(length)
    i = 8
    while i < len(wasm):
        section, i = wasm[i], i + 1
        size, i = _leb128(wasm, i)
        end = i + size
        if section == 11:  # data
            count, j = _leb128(wasm, i)
            for _ in range(count):
                flag, j = _leb128(wasm, j)
                assert flag == 0 and wasm[j] == 0x41, "an active segment at a constant offset"
                offset, j = _leb128(wasm, j + 1, signed=True)
                assert wasm[j] == 0x0B
                n, j = _leb128(wasm, j + 1)
                memory[offset:offset + n] = wasm[j:j + n][:max(0, length - offset)]
                j += n
        i = end
    return bytes(memory)


def _pyodide_snapshot(dist_dir) -> tuple[bytes, bytes]:
    """(the published snapshot, unzipped; Pyodide's snapshot it holds: its memory XOR-ed
    back with the initial memory of pyodide.asm.wasm, static/js/snapshot-memory.mjs)."""
    published = gzip.decompress((dist_dir / "generala.snapshot.gz").read_bytes())
    assert published[:4] == b"GMS1"
    length = int.from_bytes(published[4:8], "little")
    image = _initial_memory((dist_dir / "vendor/pyodide/314.0.7/pyodide.asm.wasm").read_bytes(), length)
    assert hashlib.sha256(image).digest() == published[8:40], "the image is this Pyodide's initial memory"
    snapshot = bytearray(published[48:])
    start = int.from_bytes(snapshot[4:8], "little")
    memory = int.from_bytes(snapshot[start:start + length], "little") ^ int.from_bytes(image, "little")
    snapshot[start:start + length] = memory.to_bytes(length, "little")
    return published, bytes(snapshot)


def test_the_snapshot_is_published_without_pyodides_initial_memory(dist_dir):
    published, snapshot = _pyodide_snapshot(dist_dir)
    assert snapshot[:4] == bytes.fromhex("00736e70")  # Pyodide's own snapshot, put back together
    length = int.from_bytes(published[4:8], "little")
    assert length > 3_000_000  # Pyodide's static data
    start = 48 + int.from_bytes(snapshot[4:8], "little")
    # What is the same as in a new instance is published as zeros: most of it.
    assert published[start:start + length].count(0) > 0.95 * length
    assert len(gzip.compress(published, 6)) < len(gzip.compress(snapshot, 6)) - 1_000_000


def test_the_snapshot_holds_the_engine_build_of_the_zip(dist_dir):
    with zipfile.ZipFile(dist_dir / "generala.zip") as zf:
        build = zf.read("generala/BUILD").strip()
    memory = _pyodide_snapshot(dist_dir)[1]
    assert len(memory) > 16_000_000  # Pyodide's whole memory, booted
    assert build in memory  # generala.SNAPSHOT_BUILD, compared by the worker with the zip's


def test_the_snapshot_keeps_nothing_of_the_machine_that_built_it(dist_dir, tmp_path, monkeypatch):
    # The environment, the checkout's path, the program's path: none of it is published.
    monkeypatch.setenv("GENERALA_SENTINEL", "sentinel-7f3a9c")
    out = tmp_path / "snapshot.gz"
    site_build.make_snapshot(dist_dir / "generala.zip", out, dist_dir / "python_stdlib.zip")
    memory = gzip.decompress(out.read_bytes()) + _pyodide_snapshot(dist_dir)[1]
    for secret in [b"sentinel-7f3a9c", str(site_build.ROOT).encode(), b"make_snapshot.mjs"]:
        assert secret not in memory, secret
    # Made again, later, with another environment: the same bytes.
    assert out.read_bytes() == (dist_dir / "generala.snapshot.gz").read_bytes()


def test_the_standard_library_holds_only_what_is_imported(dist_dir):
    # Pyodide's whole python_stdlib.zip is not published; the trimmed one is, at the
    # root (it changes with the engine: no immutable vendor path).
    assert not list((dist_dir / "vendor" / "pyodide").rglob("python_stdlib.zip"))
    with zipfile.ZipFile(dist_dir / "python_stdlib.zip") as zf:
        names = set(zf.namelist())
    for needed in ["json/__init__.py", "random.py", "statistics.py", "_pyodide/_base.py",
                   "pyodide/__init__.py", "encodings/utf_8.py", "dataclasses.py"]:
        assert needed in names, needed
    for unused in ["unittest/__init__.py", "email/__init__.py", "xml/__init__.py",
                   "http/client.py", "sqlite3/__init__.py", "pydoc.py", "doctest.py"]:
        assert unused not in names, unused
    full = (site_build.NODE_MODULES / "pyodide" / "python_stdlib.zip").stat().st_size
    assert (dist_dir / "python_stdlib.zip").stat().st_size < 0.4 * full


def pyscript_files(config):
    """[(url, path)] of a PyScript [files] table, resolved as PyScript resolves it
    (polyscript's calculateFilesPaths): a "{NAME}" key sets a template (its value may use
    the ones set before it), any other key is a file's URL, and a destination ending in
    "/" keeps the file's own name."""
    templates = {}

    def fill(text):
        for name, value in templates.items():
            text = text.replace(name, value)
        assert "{" not in text, text
        return text

    found = []
    for src, dst in config["files"].items():
        if src.startswith("{") and src.endswith("}"):
            templates[src] = fill(dst)
        else:
            url, path = fill(src), fill(dst or "./")
            found.append((url, path + url.rsplit("/", 1)[1] if path.endswith("/") else path))
    return found


def ui_modules_published(dist_dir):
    """{path: bytes} of the UI's files as PyScript writes them into MicroPython's file
    system (pyscript.json's [files])."""
    config = json.loads((dist_dir / "pyscript.json").read_text(encoding="utf-8"))
    found = {}
    for url, path in pyscript_files(config):
        if not url.startswith("./static/ui/"):
            continue  # PyScript's own package
        assert path.startswith("./") and path[2:] not in found, (url, path)
        found[path[2:]] = (dist_dir / url).read_bytes()
    return found


def test_pyscript_files_are_packed_in_one_download(dist_dir):
    # pyscript-files.gz: a line of JSON {path: [offset, length]}, then the bytes, gzipped
    # (static/js/ui-start.mjs answers PyScript's requests for its [files] from it)
    data = gzip.decompress((dist_dir / "pyscript-files.gz").read_bytes())
    end = data.index(b"\n")
    index = json.loads(data[:end])
    config = json.loads((dist_dir / "pyscript.json").read_text(encoding="utf-8"))
    assert sorted(index) == sorted({url[2:] for url, _ in pyscript_files(config)})
    assert "static/ui/main.mpy" in index and [p for p in index if "/mpy/pyscript/" in p]
    for path, (offset, length) in index.items():
        assert data[end + 1 + offset:end + 1 + offset + length] == (dist_dir / path).read_bytes(), path
    assert end + 1 + sum(length for _, length in index.values()) == len(data)


def test_the_ui_modules_are_published_as_bytecode(dist_dir):
    ui = dist_dir / "static" / "ui"
    config = json.loads((dist_dir / "pyscript.json").read_text(encoding="utf-8"))
    urls = sorted(url[len("./static/ui/"):] for url, _ in pyscript_files(config) if url.startswith("./static/ui/"))
    # no source: exactly the files [files] names, each requested by PyScript by itself
    # (and answered from their pack, pyscript-files.gz)
    assert sorted(p.relative_to(ui).as_posix() for p in ui.rglob("*") if p.is_file()) == urls
    modules = ui_modules_published(dist_dir)
    # the UI's modules, each package's __init__ and main.py, in static/ui's tree (where
    # PyScript writes them: board/render.mpy), as bytecode (.mpy format version 6)
    assert sorted(modules) == sorted(f"{m}.mpy" for m in ui_modules.published()) == urls
    assert "main.mpy" in modules and "board/render.mpy" in modules and "board/__init__.mpy" in modules
    assert max(name.count("/") for name in modules) == 1  # packages one level deep
    for name, data in modules.items():
        assert data[:2] == b"M\x06", name
    # the large words tables too, whole (an archive's unpacking once cut them at 64 kB)
    for lang in ("bg", "ru"):
        assert modules[f"words/words_{lang}.mpy"] == (ui / "words" / f"words_{lang}.mpy").read_bytes()
        assert len(modules[f"words/words_{lang}.mpy"]) > 65_536


def test_a_published_ui_file_the_config_does_not_name_stops_the_build(tmp_path, monkeypatch):
    (tmp_path / "static" / "ui" / "board").mkdir(parents=True)
    (tmp_path / "static" / "ui" / "board" / "render.mpy").write_bytes(b"M\x06")
    (tmp_path / "static" / "ui" / "board" / "stray.mpy").write_bytes(b"M\x06")
    (tmp_path / "micropython.mjs").write_text("", encoding="utf-8")
    named = {"{UI}": "./static/ui", "{BOOT}": "{UI}", "{BOOT}/board/render.mpy": "./board/"}
    monkeypatch.setattr(site_build, "pyscript_config", lambda: {"interpreter": "./micropython.mjs", "files": named})
    with pytest.raises(site_build.BuildError, match="static/ui/board/stray.mpy: published for MicroPython but not in"):
        site_build.write_pyscript_config(tmp_path)
    (tmp_path / "static" / "ui" / "board" / "stray.mpy").unlink()
    named["{BOOT}/board/gone.mpy"] = "./board/"
    with pytest.raises(site_build.BuildError, match="names files the build did not publish: .*board/gone.mpy"):
        site_build.write_pyscript_config(tmp_path)
    del named["{BOOT}/board/gone.mpy"]
    site_build.write_pyscript_config(tmp_path)
    assert json.loads((tmp_path / "pyscript.json").read_text(encoding="utf-8"))["files"] == named


def test_main_imports_the_boot_list_in_its_order(dist_dir, tmp_path):
    source = (site_build.ROOT / "static" / "ui" / "main.py").read_text(encoding="utf-8")
    assert "MODULES = ()  # written by tools/build.py" in source
    main = tmp_path / "main.py"
    main.write_text(source, encoding="utf-8")
    site_build.write_main(main)
    boot = tuple(ui_modules.dotted(m) for m in ui_modules.modules()["boot"])
    assert f"MODULES = {boot!r}" in main.read_text(encoding="utf-8")
    assert boot[-1] == "page.page_boot" and boot[0] == "words.words"
    # every language's words are imported on first use (page_boot.py: the page's own)
    later = ui_modules.modules()["later"]
    assert later[:5] == ["words/words_en", "words/words_es", "words/words_bg", "words/words_ru", "page/first_game"]
    # the screens the board does not need: features.py's build() imports them (with what
    # they import): exactly the rest of `later`, none of them imported at boot
    from tools import layers
    tree = layers.TREES["static/ui"]
    graph, _ = layers.check(tree)
    source = (site_build.ROOT / "static" / "ui" / "screens" / "features.py").read_text(encoding="utf-8")
    [build] = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.AsyncFunctionDef) and n.name == "build"]
    reached = {n.module for n in ast.walk(build) if isinstance(n, ast.ImportFrom)}
    todo = list(reached)
    while todo:
        for target, _ in graph[todo.pop()]:
            if target not in reached:
                reached.add(target)
                todo.append(target)
    assert reached - set(boot) == {ui_modules.dotted(m) for m in later[5:]}
    # The published main.mpy holds that list: the modules' names are in its bytecode.
    published = ui_modules_published(dist_dir)["main.mpy"]
    assert all(name.encode() in published for name in boot)


def ui_problems(tmp_path, monkeypatch, files, boot, own=None):
    """ui_modules.problems() of a static/ui made of ``files`` (empty) and a pyscript.toml
    whose [files] names ``boot`` as {BOOT} modules and ``own`` (by default main and each
    package's __init__ found among ``files``) as {UI} files."""
    ui = tmp_path / "ui"
    for name in files + ["main.py"]:
        (ui / name).parent.mkdir(parents=True, exist_ok=True)
        (ui / name).write_text("", encoding="utf-8")
    if own is None:
        own = ["main"] + sorted(f[:-3] for f in files if f.endswith("/__init__.py"))
    lines = ["[files]", '"{UI}" = "./static/ui"', '"{BOOT}" = "{UI}"', '"{LATER}" = "{UI}"']
    for module in own:
        lines.append(f'"{{UI}}/{module}.mpy" = "./{module.rsplit("/", 1)[0] + "/" if "/" in module else ""}"')
    for module in boot:
        lines.append(f'"{{BOOT}}/{module}.mpy" = "./{module.rsplit("/", 1)[0]}/"')
    (tmp_path / "pyscript.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(ui_modules, "UI", ui)
    monkeypatch.setattr(ui_modules, "CONFIG", tmp_path / "pyscript.toml")
    return ui_modules.problems()


def test_a_ui_module_missing_from_the_list_stops_the_build(tmp_path, monkeypatch):
    found = ui_problems(tmp_path, monkeypatch, ["board/render.py", "board/stray.py"], ["board/render", "page/gone"])
    assert any("static/ui/page/gone.py does not exist" in p for p in found)
    assert any("static/ui/board/stray.py is not named in pyscript.toml" in p for p in found)
    with pytest.raises(site_build.BuildError, match="stray.py is not named in pyscript.toml"):
        site_build.compile_ui(tmp_path / "out", "1.28.0-6")


def test_the_ui_list_keeps_packages_one_level_deep_with_their_init_and_their_own_names(tmp_path, monkeypatch):
    found = ui_problems(tmp_path, monkeypatch,
                        ["board/__init__.py", "board/render.py", "screens/daily.py", "page/deep/x.py"],
                        ["board/render", "screens/daily", "page/deep/x"])
    assert any("static/ui/screens/ has no __init__.py" in p for p in found)
    assert any("screens/daily.py is named like an engine module" in p for p in found)
    assert any("'page/deep/x': a module sits in a package one level deep" in p for p in found)
    assert not any("board" in p for p in found)


def test_each_ui_file_is_named_once_at_its_packages_path(tmp_path, monkeypatch):
    files = ["board/__init__.py", "board/render.py", "page/__init__.py", "page/keys.py"]
    assert ui_problems(tmp_path, monkeypatch, files, ["board/render", "page/keys"]) == []
    # a package's __init__ not named: PyScript would not write it
    found = ui_problems(tmp_path, monkeypatch, files, ["board/render", "page/keys"], own=["main", "board/__init__"])
    assert found == ['pyscript.toml does not name "{UI}/page/__init__.mpy": main and each package\'s __init__ '
                     "are published with the modules"]
    # a module written where its package is not
    ui_problems(tmp_path, monkeypatch, files, ["board/render", "page/keys"])
    toml = tmp_path / "pyscript.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"{BOOT}/page/keys.mpy" = "./page/"',
                                                              '"{BOOT}/page/keys.mpy" = "./"'), encoding="utf-8")
    assert ui_modules.problems() == ["pyscript.toml writes {BOOT}/page/keys.mpy to './': it belongs at its "
                                     "package's path, './page/'"]


def test_the_pages_pyscript_config_is_the_top_level_pyscript_toml(dist_dir):
    # PyScript reads pyscript.json, which is pyscript.toml (one source) as JSON: MicroPython
    # and the UI's files from the site itself (never a CDN), PyScript's plugins off.
    config = tomllib.loads((site_build.ROOT / "pyscript.toml").read_text(encoding="utf-8"))
    assert json.loads((dist_dir / "pyscript.json").read_text(encoding="utf-8")) == config
    version = json.loads((dist_dir / "version.json").read_text())["runtimes"]["micropython"]
    assert config["interpreter"] == f"./vendor/micropython/{version}/micropython.mjs"
    assert config["files"]["{UI}"] == "./static/ui"
    for path in [config["interpreter"], *(url for url, _ in pyscript_files(config))]:
        assert (dist_dir / path).is_file(), path
    assert {p.lstrip("!") for p in config["plugins"] if p.startswith("!")} >= {
        "error", "deprecations-manager", "codemirror", "donkey", "py-editor", "py-game", "py-terminal"}


def test_pyscript_starts_the_page(dist_dir):
    # PyScript, pinned in package.json and vendored (only the chunks this config loads),
    # runs index.html's <script type="mpy"> with the page's config; static/js/ui-start.mjs
    # imports its core; the page's input is wired with PyScript's handlers.
    package = json.loads((site_build.ROOT / "package.json").read_text(encoding="utf-8"))
    pinned = package["dependencies"]["@pyscript/core"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned)
    assert json.loads((dist_dir / "version.json").read_text())["runtimes"]["pyscript"] == pinned
    vendored = sorted(p.name for p in (dist_dir / "vendor" / "pyscript" / pinned).iterdir())
    assert "core.js" in vendored and "LICENSE" in vendored
    assert not [n for n in vendored if re.match(r"(codemirror|xterm|zip|toml|py-editor|py-terminal|py-game)", n)]
    html = (dist_dir / "index.html").read_text(encoding="utf-8")
    script = re.search(r'<script type="mpy" config="\./pyscript\.json">(.*?)</script>', html, re.S)
    assert script and "import main" in script.group(1) and "await main.run()" in script.group(1)
    assert '<py-config src="./pyscript.json"></py-config>' in html
    start = (dist_dir / "static" / "js" / "ui-start.mjs").read_text(encoding="utf-8")
    assert f"vendor/pyscript/{pinned}/core.js" in start
    page_input = (site_build.ROOT / "static" / "ui" / "page" / "page_input.py").read_text(encoding="utf-8")
    assert re.search(r"^from pyscript import .*\bwhen\b", page_input, re.M)
    assert page_input.count("@when(") >= 10


def test_pyscripts_own_package_is_published_as_the_bytecode_of_its_sources(dist_dir):
    # PyScript's package (the sources its core writes at start) as .mpy, each module of the
    # npm package's artifact, written by [files] into the folder ui-start.mjs puts first
    # on sys.path
    pinned = json.loads((dist_dir / "version.json").read_text())["runtimes"]["pyscript"]
    artifact = (site_build.NODE_MODULES / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js").read_text(encoding="utf-8")
    sources = json.loads(artifact.split("export default", 1)[1].strip().rstrip(";"))["pyscript"]
    assert {"__init__.py", "events.py", "ffi.py", "context.py"} <= set(sources)
    folder = dist_dir / "vendor" / "pyscript" / pinned / "mpy" / "pyscript"
    assert sorted(p.name for p in folder.iterdir()) == sorted(n[:-3] + ".mpy" for n in sources)
    assert all(p.read_bytes()[:2] == b"M\x06" for p in folder.iterdir())
    config = json.loads((dist_dir / "pyscript.json").read_text(encoding="utf-8"))
    written = {url: path for url, path in pyscript_files(config) if "/vendor/pyscript/" in url}
    assert written == {f"./vendor/pyscript/{pinned}/mpy/pyscript/{n[:-3]}.mpy": f"/pyscript-mpy/pyscript/{n[:-3]}.mpy"
                       for n in sources}
    start = (dist_dir / "static" / "js" / "ui-start.mjs").read_text(encoding="utf-8")
    assert 'const PYSCRIPT_BYTECODE = "/pyscript-mpy";' in start and "sys.path.insert(0, " in start
    assert "core.hooks.main.onReady.add(" in start


def test_a_pyscript_whose_core_writes_other_sources_stops_the_build(tmp_path):
    # the bytecode is of the package PyScript's core carries: another core, another package
    (tmp_path / "core-x.js").write_text('const x = {"pyscript": {"__init__.py": "other"}};', encoding="utf-8")
    with pytest.raises(site_build.BuildError, match="pyscript/__init__.py of src/stdlib/pyscript.js is not the one its core writes"):
        site_build.compile_pyscript_package(tmp_path, ["core-x.js"])


def test_the_build_is_reproducible_and_reports_its_sizes(tmp_path, dist_dir):
    # A second build of the same sources gives the same bytes, so the same version hash:
    # the build under test (`make test` has just built it) against one made here, which
    # prints the size report (brotli at quality 1, as the report's figures are not under
    # test). A dist/ built from other sources than the checkout's fails here: build again.
    run = subprocess.run([sys.executable, "tools/build.py", "--out", str(tmp_path / "again"), "--brotli-quality", "1"],
                         cwd=site_build.ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert run.returncode == 0, run.stdout
    one, two = (sorted(p.relative_to(d) for p in d.rglob("*") if p.is_file()) for d in (dist_dir, tmp_path / "again"))
    assert one == two, f"{dist_dir} and a fresh build publish other files: was it built from these sources?"
    differ = [str(f) for f in one if (dist_dir / f).read_bytes() != (tmp_path / "again" / f).read_bytes()]
    assert differ == [], f"{dist_dir} and a fresh build differ (was it built from these sources?): {differ}"
    report = run.stdout
    for name in ["index.html", "pyodide.asm.wasm", "micropython.wasm", "generala.zip"]:
        assert name in report
    assert "total:" in report and "gzip" in report


def sw_constant(sw: str, name: str):
    """The value the build wrote into sw.js for `const NAME = ...;` (JSON)."""
    return json.loads(re.search(rf"^const {name} = (.*?);$", sw, re.S | re.M).group(1))


SECURITY_HEADERS = {"content-security-policy", "x-content-type-options", "referrer-policy", "permissions-policy",
                    "content-type"}


def test_the_service_worker_names_every_file_it_serves_with_its_hash_and_headers(dist_dir):
    # sw.js (static/js/sw.js with the build's values): every published file but sw.js
    # itself, with the SHA-256 of its bytes (the service worker serves only those bytes)
    # and the headers the site's server sends with it (netlify.toml's, as tools/serve.py
    # sends them); the files fetched on demand and those read ahead are among them.
    sw = (dist_dir / "sw.js").read_text(encoding="utf-8")
    assert "__GENERALA_" not in sw
    version = json.loads((dist_dir / "version.json").read_text())["version"]
    assert f'const VERSION = "{version}";' in sw
    files = sw_constant(sw, "FILES")
    headers = sw_constant(sw, "HEADERS")
    assert set(files) == {f"./{f}" for f in published(dist_dir)} - {"./sw.js"}
    rules = serve.load_header_rules(site_build.NETLIFY_TOML)
    for path, (digest, index) in files.items():
        assert hashlib.sha256((dist_dir / path[2:]).read_bytes()).hexdigest() == digest, path
        assert headers[index] == serve.response_headers(rules, path[1:]), path
        assert SECURITY_HEADERS <= {name.lower() for name in headers[index]}, path
    by_name = {path: {k.lower(): v for k, v in headers[index].items()} for path, (_, index) in files.items()}
    assert by_name["./index.html"]["content-type"] == "text/html; charset=utf-8"
    assert "default-src 'none'" in by_name["./index.html"]["content-security-policy"]
    assert by_name["./static/js/engine-worker.mjs"]["content-type"] == "text/javascript; charset=utf-8"
    wasm = next(p for p in files if p.endswith("/pyodide.asm.wasm"))
    assert by_name[wasm]["content-type"] == "application/wasm"
    assert by_name[wasm]["cache-control"] == "public, max-age=31536000, immutable"
    on_demand = sw_constant(sw, "ON_DEMAND")
    # a boot in full's library and engine (a restored worker reads neither)
    assert {"./python_stdlib.zip", "./generala.zip", "./static/bot-sandbox.html"} <= set(on_demand)
    assert "./generala.lazy.zip" not in on_demand
    assert {"./static/js/bot-worker.js", "./static/tables/bulgarian.gvt"} <= set(on_demand)
    # What a first game never loads: the Bot lab's editor, the QR encoder.
    assert [p for p in on_demand if p.startswith("./vendor/codemirror/")]
    assert [p for p in on_demand if p.startswith("./vendor/qrcode-generator/")]
    # The win chances' laws, small as some are: a first visit never downloads them.
    laws = sorted(f"./static/tables/{p.name}" for p in (dist_dir / "static" / "tables").glob("*.gvl"))
    assert len(laws) == 4 and set(laws) <= set(on_demand)
    # PyScript's [files] one by one: the page reads them from their pack, which is precached
    config = json.loads((dist_dir / "pyscript.json").read_text(encoding="utf-8"))
    packed = sorted({url for url, _ in pyscript_files(config)})
    assert len(packed) > 60 and set(packed) <= set(on_demand) and "./pyscript-files.gz" in files
    assert "./pyscript-files.gz" not in on_demand
    assert len(on_demand) == 7 + len(laws) + len(packed)
    read_ahead = sw_constant(sw, "READ_AHEAD")
    assert {wasm, "./generala.snapshot.gz"} <= set(read_ahead) <= set(files)
    for path in read_ahead:
        assert (dist_dir / path[2:]).stat().st_size >= site_build.READ_AHEAD_MIN_BYTES
        assert path not in sw_constant(sw, "ON_DEMAND")
    # A file of an older build that this one does not publish: the headers of its type.
    other = sw_constant(sw, "HEADERS_OTHER")
    assert headers[other[".mjs"]] == serve.response_headers(rules, "/__sw/other.mjs")
    assert SECURITY_HEADERS <= {name.lower() for name in headers[other[""]]}


def small_site(out):
    """A publish folder of three files, for finalize()."""
    for rel, text in [("index.html", "<!doctype html>"), ("static/js/a.mjs", "export {};"),
                      ("static/frame/frame.html", "<!doctype html>")]:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text, encoding="utf-8")


def test_a_header_rule_added_to_netlify_toml_reaches_the_service_worker(tmp_path):
    # A rule for a new path in netlify.toml (a frame with a policy of its own): the next
    # build's service worker sends that path's files with it, and no other file.
    toml = tmp_path / "netlify.toml"
    toml.write_text(site_build.NETLIFY_TOML.read_text(encoding="utf-8") + """
[[headers]]
  for = "/static/frame/*"
  [headers.values]
    Content-Security-Policy = "default-src 'none'; script-src 'self'; sandbox allow-scripts"
    Access-Control-Allow-Origin = "*"
""", encoding="utf-8")
    out = tmp_path / "out"
    small_site(out)
    site_build.finalize(out, {}, netlify_toml=toml)
    sw = (out / "sw.js").read_text(encoding="utf-8")
    files, headers = sw_constant(sw, "FILES"), sw_constant(sw, "HEADERS")
    frame = headers[files["./static/frame/frame.html"][1]]
    assert frame["Content-Security-Policy"] == "default-src 'none'; script-src 'self'; sandbox allow-scripts"
    assert frame["Access-Control-Allow-Origin"] == "*"
    assert frame["Content-Type"] == "text/html; charset=utf-8"
    for path in ["./index.html", "./static/js/a.mjs"]:
        assert "Access-Control-Allow-Origin" not in headers[files[path][1]]
        assert "sandbox" not in headers[files[path][1]]["Content-Security-Policy"]
    # Without the rule, the same folder's frame gets the site's policy.
    site_build.finalize(out, {})
    sw = (out / "sw.js").read_text(encoding="utf-8")
    frame = sw_constant(sw, "HEADERS")[sw_constant(sw, "FILES")["./static/frame/frame.html"][1]]
    assert "Access-Control-Allow-Origin" not in frame and "sandbox" not in frame["Content-Security-Policy"]


def test_the_build_publishes_nothing_where_the_service_worker_keeps_its_records(tmp_path):
    small_site(tmp_path)
    (tmp_path / "__sw").mkdir()
    (tmp_path / "__sw" / "build.json").write_text("{}", encoding="utf-8")
    with pytest.raises(site_build.BuildError, match="__sw/"):
        site_build.finalize(tmp_path, {})


def test_the_qr_encoder_is_published_as_npm_ships_it_and_kept_once_used(dist_dir):
    # qrcode-generator's ES module, byte for byte (its MIT licence header with it), under
    # its npm version; static/js/qr-code.mjs imports it from there on its first QR code,
    # the page itself never does, and the service worker keeps it once fetched (on demand:
    # a first game never needs it; an offline hand-over once a QR code was shown).
    version = json.loads((dist_dir / "version.json").read_text())["runtimes"]["qrcode-generator"]
    assert version == site_build.package_version("qrcode-generator")
    path = f"vendor/qrcode-generator/{version}/qrcode.mjs"
    published_bytes = (dist_dir / path).read_bytes()
    assert published_bytes == (site_build.ROOT / site_build.QR_LIBRARY).read_bytes()
    assert b"Licensed under the MIT license" in published_bytes[:1000]
    assert not re.search(rb"\beval\s*\(|\bnew\s+Function\s*\(", published_bytes)  # no string code
    module = (dist_dir / "static/js/qr-code.mjs").read_text(encoding="utf-8")
    assert f'"../../{path}"' in module
    html = (dist_dir / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="./static/js/qr-code.mjs"></script>' in html
    assert "qrcode-generator" not in html
    sw = (dist_dir / "sw.js").read_text(encoding="utf-8")
    files, on_demand = sw_constant(sw, "FILES"), sw_constant(sw, "ON_DEMAND")
    assert f"./{path}" in files and f"./{path}" in on_demand
    assert "./static/js/qr-code.mjs" in files and "./static/js/qr-code.mjs" not in on_demand  # the page's


def test_the_bots_sandbox_is_published_kept_once_used_and_its_policy_allows_its_one_script(dist_dir, tmp_path, monkeypatch):
    # static/bot-sandbox.html (the frame a bot's worker runs in: static/js/bot-lab.mjs) and
    # the worker's code are served by the service worker and kept once fetched (on demand:
    # a first game never opens the lab; it works offline once opened); netlify.toml's rule for the
    # frame sandboxes it and allows its one inline script by the SHA-256 the build checks,
    # and the build stops when the two disagree.
    sw = (dist_dir / "sw.js").read_text(encoding="utf-8")
    files, on_demand, headers = sw_constant(sw, "FILES"), sw_constant(sw, "ON_DEMAND"), sw_constant(sw, "HEADERS")
    for kept in ["./static/bot-sandbox.html", "./static/js/bot-worker.js"]:
        assert kept in files and kept in on_demand
    # the service worker serves the frame with its own policy (the sandbox), not the page's
    served = {k.lower(): v for k, v in headers[files["./static/bot-sandbox.html"][1]].items()}
    assert " ".join(served["content-security-policy"].split()) == site_build.sandbox_policy()
    html = (dist_dir / "static/bot-sandbox.html").read_text(encoding="utf-8")
    policy = site_build.sandbox_policy()
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";")}
    assert directives["sandbox"] == ["allow-scripts"] and directives["default-src"] == ["'none'"]
    assert directives["script-src"] == [site_build.inline_script_hash(html), "blob:", "'wasm-unsafe-eval'"]
    assert directives["worker-src"] == ["blob:"] and directives["frame-ancestors"] == ["*"]
    assert "'self'" not in directives["script-src"] and "connect-src" not in directives
    # the worker imports no script by URL and the frame loads none: nothing for 'self' to allow
    worker = (dist_dir / "static/js/bot-worker.js").read_text(encoding="utf-8")
    assert not re.search(r"^\s*import\b.*\bfrom\s*[\"']", worker, re.M) and "<script src" not in html
    edited = tmp_path / "bot-sandbox.html"
    edited.write_text(html.replace('"use strict";', '"use strict"; // edited'), encoding="utf-8")
    monkeypatch.setattr(site_build, "SANDBOX_PAGE", "bot-sandbox.html")
    monkeypatch.setattr(site_build, "ROOT", tmp_path)
    toml = tmp_path / "netlify.toml"
    toml.write_text(site_build.NETLIFY_TOML.read_text(encoding="utf-8").replace(
        "/static/bot-sandbox.html", "/bot-sandbox.html"), encoding="utf-8")
    monkeypatch.setattr(site_build, "NETLIFY_TOML", toml)
    with pytest.raises(site_build.BuildError, match=re.escape(site_build.inline_script_hash(edited.read_text()))):
        site_build.check_sandbox_policy()


def test_the_published_lists_of_games_are_the_catalogs(dist_dir):
    """dist/index.html's one-tap game picker and daily challenge buttons (drawn before any
    script runs) list the published catalog's games in its order, each titled, in every
    language (data-words-LANG on the options), and no template is left."""
    html = (dist_dir / "index.html").read_text(encoding="utf-8")
    cat = json.loads((dist_dir / "catalog.json").read_text(encoding="utf-8"))
    picker = re.search(r'<select id="quick-game">(.*?)</select>', html, re.S).group(1)
    assert re.findall(r'<option value="([^"]+)"', picker) == cat["games"]
    assert re.findall(r'data-daily="([^"]+)"', html) == cat["games"]
    assert len(re.findall(r'data-words-ru="[^"]+"', picker)) == len(cat["games"])
    assert "{game}" not in html and "{title}" not in html and "each game" not in html

