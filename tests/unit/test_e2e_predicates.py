"""The e2e tests and the benchmarks wait on the page with functions, never with
expression strings.

The site's Content-Security-Policy has no 'unsafe-eval' (netlify.toml). Playwright runs a
`wait_for_function` predicate once by the debugger, but when the first answer is false it
polls it in the page, and an expression string is then compiled there with eval: the CSP
refuses it ("EvalError: Evaluating a string as JavaScript violates the following Content
Security Policy directive"). A function ("() => …", "n => …") is polled without eval.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CALL = re.compile(r"wait_for_function\(\s*(?:[rf]?(\"\"\"|'''|\"|'))?")
FUNCTION = re.compile(r"\s*(\(\s*[\w\s,{}\[\]=]*\)\s*=>|\w+\s*=>|function\b|async\b)")
NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


def expression_predicates(text: str) -> list[str]:
    """The predicates in ``text`` given as expression strings (constants in the same file
    are looked up by name)."""
    found = []
    for m in CALL.finditer(text):
        rest = text[m.end():]
        if m.group(1):
            body = rest
        else:
            name = NAME.match(rest)
            if not name:
                continue  # a variable or a call: checked where it is built
            defined = re.search(rf"^{name.group(0)} = \(?[rf]?(\"\"\"|'''|\"|')", text, re.M)
            if not defined:
                continue  # imported: checked in its own file
            body = text[defined.end():]
        if not FUNCTION.match(body):
            found.append(body[:60])
    return found


def test_the_checker_finds_an_expression_and_passes_a_function():
    assert expression_predicates('page.wait_for_function("window.x === 1")') == ["window.x === 1\")"]
    assert expression_predicates('X = "a.b !== null"\npage.wait_for_function(X, timeout=5)') == ['a.b !== null"\npage.wait_for_function(X, timeout=5)']
    assert expression_predicates('page.wait_for_function("() => window.x === 1")') == []
    assert expression_predicates('page.wait_for_function("n => +b.dataset.n > n", arg=1)') == []
    assert expression_predicates('Y = ("() => { return 1; }")\np.wait_for_function(Y)') == []


def test_every_wait_for_function_is_given_a_function():
    offenders = []
    for path in sorted([*ROOT.joinpath("tests").rglob("*.py"), *ROOT.joinpath("bench").rglob("*.py")]):
        if path.name == Path(__file__).name:
            continue
        for body in expression_predicates(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(ROOT)}: {body!r}")
    assert offenders == [], "wait_for_function needs a function under the site's CSP:\n" + "\n".join(offenders)
