"""Screenshots of the board for the README (not a test).

    python3 docs/take_screenshots.py        -> docs/screenshots/*.png

Builds the site, plays a few seeded turns of a three-side game (one side a team)
and captures the board at phone (375 px) and desktop (1280 px) widths, light and
dark, plus the ten-dice split and the setup form.
"""
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from gamepage import GamePage, Mirror, play_turn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tools import build  # noqa: E402
from tools.serve import start_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def board(page, names, teams, seed, variant="argentine", turns=4):
    gp = GamePage(page)
    gp.new_game(variant, names, seed=seed, teams=teams)
    m = Mirror(variant, names, seed, teams=teams)
    for t in range(turns):
        play_turn(gp, m, holds=t % 2 == 0)
    m.do({"op": "roll"})
    gp.roll()
    for i in m.keep()[:3]:
        gp.hold(i)
    return gp, m


def main():
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist, sizes=False)
    url, stop = start_server(dist)
    names, teams = ("Ana", "Los Tres", "Dani"), {1: "Beto, Caro"}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            for width, height, scheme in ((375, 812, "light"), (1280, 900, "light"), (375, 812, "dark")):
                ctx = browser.new_context(base_url=url, viewport={"width": width, "height": height},
                                          color_scheme=scheme, device_scale_factor=1)
                page = ctx.new_page()
                page.goto("/")
                page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
                if width == 375 and scheme == "light":
                    page.screenshot(path=OUT / "setup-375.png", full_page=True)
                board(page, names, teams, seed=12)
                suffix = f"{width}" + ("-dark" if scheme == "dark" else "")
                page.screenshot(path=OUT / f"board-{suffix}.png", full_page=True)
                if width == 375 and scheme == "light":
                    gp, m = board(page, ("Ana", "Beto"), None, seed=4, variant="double", turns=1)
                    gp.pick("sixes")
                    gp.pick("full-house")
                    page.wait_for_selector("#split-ok:enabled")
                    page.screenshot(path=OUT / "double-split-375.png", full_page=True)
                ctx.close()
            browser.close()
    finally:
        stop()
    for f in sorted(OUT.glob("*.png")):
        print(f.relative_to(ROOT))


if __name__ == "__main__":
    main()
