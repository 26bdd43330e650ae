"""The README and docs/ tell the truth about the repository: their examples run and
print what they show, their links and pictures resolve, and the commands, files and
options they name exist. Docstring examples run too."""
import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import generala

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
MODULES = sorted(m.name for m in pkgutil.walk_packages(generala.__path__, "generala.")
                 if m.name != "generala.__main__")

# Pages written on another branch that these docs already link: the link is expected
# to be broken until that branch is merged, and must be taken off this list then
# (strict: a link here that resolves fails).
PENDING: set[str] = set()

FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"`([^`\n]+(?:\n[^`\n]+)?)`")
LINK = re.compile(r"!?\[(?:[^\]\n]|\n(?!\n))*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HTML_REF = re.compile(r"<(?:img|a|source)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$", re.M)
# A path of the repository named in code: under one of its folders, or a file at its root.
# A path may stand for several: ``*`` (``tests/unit/test_ui_*.py``), a ``<placeholder>``
# (``static/tables/<variant>.gvt``) or a trailing ``…`` (``tests/e2e/…``) stand for any name.
REPO_PATH = re.compile(r"(?<![\w./<-])((?:generala|static|tools|bench|tests|docs|\.ci)/(?:[\w./*…-]|<\w+>)*(?:[\w/*…]|<\w+>)"
                       r"|(?:Makefile|netlify\.toml|pyscript\.toml|index\.html|package(?:-lock)?\.json"
                       r"|requirements-(?:build|test)\.txt))(?![\w<*…])")
MAKE = re.compile(r"(?<![\w-])make ([a-z][\w-]*)")
OPTION = re.compile(r"(?<![\w-])(--?[a-zA-Z][\w-]*)")


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def text_of(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def prose(text: str) -> str:
    """The page without its code: fenced blocks and inline code are not links."""
    return INLINE.sub("", FENCE.sub("", text))


def code(text: str) -> list[str]:
    """Inline code spans and the lines of fenced blocks, each as one piece of text.
    A block tagged ```text is a program's output (the build's own files): left out."""
    pieces = [m.group(1).replace("\n", " ") for m in INLINE.finditer(FENCE.sub("", text))]
    for m in FENCE.finditer(text):
        if m.group(1) != "text":
            pieces.extend(m.group(2).splitlines())
    return pieces


def commands(text: str) -> list[str]:
    """Shell commands shown: the lines of ```sh blocks and inline code that runs something."""
    shown = [line for m in FENCE.finditer(text) if m.group(1) in ("sh", "bash", "console")
             for line in m.group(2).splitlines()]
    inline = [m.group(1).replace("\n", " ") for m in INLINE.finditer(FENCE.sub("", text))]
    shown += [c for c in inline if c.startswith(("python3 ", "make ", "bench/"))]
    return [c.split("#", 1)[0].strip() for c in shown if c.strip()]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    plain = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")


def links():
    for page in PAGES:
        body = prose(text_of(page))
        for target in [*LINK.findall(body), *HTML_REF.findall(body)]:
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
                continue
            path = target.split("#", 1)[0]
            resolved = (page.parent / path).resolve() if path else page
            marks = ()
            if resolved.is_relative_to(ROOT) and rel(resolved) in PENDING:
                marks = pytest.mark.xfail(strict=True, reason=f"{rel(resolved)} is written on another branch")
            yield pytest.param(page, target, marks=marks, id=f"{rel(page)}->{target}")


def test_the_readme_is_a_short_path_for_a_newcomer():
    text = text_of(README)
    assert len(text.encode("utf-8")) < 8000
    setup = commands(text)
    assert "make serve" in setup and "make test" in setup
    assert re.search(r"!\[[^\]]+\]\(docs/screenshots/[\w-]+\.png\)|<img src=\"docs/screenshots/[\w-]+\.png\" [^>]*alt=\"[^\"]+\"",
                     text), "a picture of the game (with its alt text)"
    # Every page of docs/ is reachable from the README, directly or through another page.
    reached, todo = set(), [README]
    while todo:
        page = todo.pop()
        for target in LINK.findall(prose(text_of(page))):
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if path.suffix == ".md" and path.is_file() and path not in reached:
                reached.add(path)
                todo.append(path)
    assert not [rel(p) for p in PAGES[1:] if p not in reached]


@pytest.mark.parametrize("page, target", list(links()))
def test_every_relative_link_and_picture_resolves(page, target):
    path, _, anchor = target.partition("#")
    resolved = (page.parent / path).resolve() if path else page
    assert resolved.is_relative_to(ROOT), f"{target} leaves the repository"
    assert resolved.exists(), f"{rel(page)}: {target} does not exist"
    if anchor:
        assert resolved.suffix == ".md", target
        anchors = {slug(h) for h in HEADING.findall(FENCE.sub("", text_of(resolved)))}
        assert anchor in anchors, f"{rel(page)}: no heading #{anchor} in {rel(resolved)}"


def makefile_targets() -> set[str]:
    makefile = text_of(ROOT / "Makefile")
    return {name for line in re.findall(r"^([\w][\w .-]*):(?!=)", makefile, re.M) for name in line.split()}


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_make_targets_shown_exist(page):
    targets = makefile_targets()
    shown = {m for piece in code(text_of(page)) for m in MAKE.findall(piece)}
    assert not shown - targets, f"{rel(page)} shows make targets the Makefile lacks"


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_files_named_exist(page):
    named = {m for piece in code(text_of(page)) for m in REPO_PATH.findall(piece)}
    missing = sorted(p for p in named if not exists(p))
    assert not missing, f"{rel(page)} names files that do not exist"


def exists(named: str) -> bool:
    """Whether the path exists; one with wildcards, when at least one path matches it."""
    pattern = re.sub(r"<\w+>", "*", named).replace("…", "*")
    if "*" not in pattern:
        return (ROOT / named).exists()
    return next(ROOT.glob(pattern.rstrip("/")), None) is not None


@pytest.mark.parametrize("named, found", [
    ("tests/unit/test_ui_*.py", True), ("static/tables/<variant>.gvt", True), ("tests/e2e/…", True),
    ("generala/rules/game.py", True), ("static/ui/words_*.py", False), ("generala/<x>/view.py", True),
    ("generala/<x>/nowhere.py", False)])
def test_a_path_with_wildcards_is_checked_against_the_files(named, found):
    assert REPO_PATH.fullmatch(named) and exists(named) is found


def program_sources(command: str) -> list[Path] | None:
    """The sources that define a shown command's options (None: not a program of this repository)."""
    words = command.split()
    if words[:3] == ["python3", "-m", "generala"]:
        return [ROOT / "generala" / "cli.py", ROOT / "generala" / "ai" / "cli_solve.py"]
    script = words[1] if words[0] == "python3" and len(words) > 1 else words[0]
    if REPO_PATH.fullmatch(script) and (ROOT / script).is_file():
        return [ROOT / script]
    return None


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_options_shown_are_options_of_their_program(page):
    wrong = []
    for command in commands(text_of(page)):
        sources = program_sources(command)
        if sources is None:
            continue
        text = "".join(text_of(s) for s in sources)
        args = command.split(None, 3 if command.startswith("python3 -m") else 2)[-1]
        wrong += [f"{command}: {opt}" for opt in OPTION.findall(args)
                  if f'"{opt}"' not in text and f"'{opt}'" not in text]
    assert not wrong


def test_the_checks_see_what_the_docs_show():
    # The extraction above finds the commands, files and links these pages hold.
    engine = text_of(ROOT / "docs" / "engine.md")
    assert "python3 -m generala simulate puerto-rican -n 2000 -s chase -s first-roll" in commands(engine)
    build = text_of(ROOT / "docs" / "build.md")
    assert {"tools/make_snapshot.mjs", "static/js/engine-worker.mjs"} <= {
        m for piece in code(build) for m in REPO_PATH.findall(piece)}
    assert {"serve", "test"} <= {m for piece in code(text_of(README)) for m in MAKE.findall(piece)}
    assert len(list(links())) > 40


@pytest.mark.parametrize("page", [p for p in PAGES if ">>> " in text_of(p)], ids=rel)
def test_examples_in_the_docs_run(page):
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_engine_page_shows_the_engine_at_work():
    result = doctest.testfile(str(ROOT / "docs" / "engine.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 5 and result.failed == 0


@pytest.mark.parametrize("name", ["generala", *MODULES])
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
