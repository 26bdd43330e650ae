"""Pictures of playing by link for the README and docs/ (not a test).

    python3 docs/take_link_screenshots.py --dist dist [--out DIR]

Serves the build in ``--dist``, plays the start of a game by link between two browser
contexts (Ana hosts, Beto joins; the links passed as text, as tests/e2e/test_link_play.py
does) and writes, for W = 375 (a 375x812 phone) and 1280 (a 1280x800 desktop), light and
dark (-dark):

    link-handover-W[-dark].png   the hand-over: the Link field, Copy, Share, the QR code
                                 where the page draws one, and whose turn it is
    link-join-W[-dark].png       the join screen a friend sees on opening an invitation

Needs Playwright with /usr/bin/chromium.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from playwright.sync_api import sync_playwright  # noqa: E402
from test_link_play import Device  # noqa: E402

from tools.serve import start_server  # noqa: E402

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def shots(browser, base_url, out: Path, width: int, height: int, scheme: str) -> None:
    tail = f"-{width}" + ("-dark" if scheme == "dark" else "")
    guards: list = []
    ana, beto = Device(browser, base_url, guards), Device(browser, base_url, guards)
    for d in (ana, beto):
        d.page.set_viewport_size({"width": width, "height": height})
        d.page.emulate_media(color_scheme=scheme)
    try:
        ana.boot()
        [invitation] = ana.start("argentine", "Ana", ["human"])
        beto.boot(invitation)
        beto.page.wait_for_selector("#linkplay:not([hidden])[data-state=join]")
        beto.page.fill("#link-name", "Beto")
        beto.page.screenshot(path=str(out / f"link-join{tail}.png"))
        beto.page.click("#link-join-btn")
        beto.page.wait_for_selector("#linkplay:not([hidden])[data-state=joined]")
        ana.open(beto.link())
        if ana.state() != "handover":
            ana.play_until_handover()
        ana.page.evaluate("window.scrollTo(0, 0)")
        ana.page.screenshot(path=str(out / f"link-handover{tail}.png"))
    finally:
        ana.context.close()
        beto.context.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dist", required=True)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base_url, stop = start_server(Path(args.dist))
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            for width, height in ((375, 812), (1280, 800)):
                for scheme in ("light", "dark"):
                    shots(browser, base_url, out, width, height, scheme)
            browser.close()
    finally:
        stop()


if __name__ == "__main__":
    main()
