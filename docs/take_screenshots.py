"""Pictures of the game table for the README and docs/ (not a test).

    python3 docs/take_screenshots.py [--dist DIST] [--out DIR] [--only 375 375-dark 1280 1280-dark]

Without --dist it builds the site into a temporary folder first (tools/build.py);
with --dist it serves that build. It plays seeded games through the page in
Chromium (real clicks, the real engine) and writes into docs/screenshots/ (or DIR):

    home-W[-dark].png          the home screen of a first visit
    roll-W[-dark].png          dice in the air, ~200 ms after Roll (motion on)
    board-W[-dark].png         the same turn, the dice landed and some held (three sides, one a team)
    board-bulgarian-W[-dark].png, board-puerto-rican-W[-dark].png
                               the other games' boards, two sides, a few turns in, dice held
    double-split-W[-dark].png  Double General: two boxes chosen, the ten dice split
    celebration-W[-dark].png   five alike on the first roll (Bulgarian Generala, seed 106)
    game-over-W[-dark].png     the end of a game: the ranking card, the winner celebrated
    story-W[-dark].png         under that card, the game in win chances: the turning point,
                               the costliest choices, the chart
    setup-375.png              the Custom game panel (the full setup form)
    daily-home-W.png           the home screen's Today's challenge block, one game played
    daily-result-W.png         a daily challenge's end: against perfect play, the share text
                               (--daily: only these, light scheme)
    turn-375.gif               an animated turn: roll, hold, roll again, fill a box
    hotseat-first-W[-dark].png hot-seat for three: the first turn, who starts and why on the table
    rules-W[-dark].png         the Rules, open at their top
    hint-W[-dark].png          the Hint (the coach on), open at its top
    coach-W[-dark].png         the coach's line after a costly box: its cost and the better choice

W is 375 (a 375x667 phone) or 1280 (a 1280x800 desktop); -dark is the dark scheme.
Needs Playwright with /usr/bin/chromium and Pillow (pip install pillow) for the clip.
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from gamepage import GamePage, Mirror, board_menu, open_botlab, open_setup, play_turn, set_coach  # noqa: E402
from e2e_support import wake  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tools import build  # noqa: E402
from tools.serve import start_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
SIZES = ((375, 667), (1280, 800))
# Every animation of the page has finished (the dice have landed).
LANDED = "() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null))).then(() => true)"
IN_THE_AIR_MS = 200


def motion(page, on: bool):
    """The board menu's Dice motion switch (checked = moving); the menu closed after."""
    want = "true" if on else "false"
    if page.get_attribute("#motion", "aria-checked") != want:
        page.click("#board-menu-btn")
        page.click("#motion")
        page.keyboard.press("Escape")


def dismiss_moment(page):
    """End a celebration card (any key does), or confirm a hot-seat hand-over."""
    if page.is_visible("#board .moment"):
        page.keyboard.press("Shift")
        page.wait_for_selector("#board .moment", state="hidden")
    if page.is_visible("#handover"):  # hot-seat: the next person takes the device
        page.click("#handover-ok")
        page.wait_for_selector("#handover", state="hidden")


def land(page):
    page.evaluate(LANDED)


def shoot(page, name, full=False):
    page.screenshot(path=OUT / name, full_page=full, animations="allow")
    print(OUT / name)


def board_on_top(page):
    """Scroll the board's title to the top (a phone shows the dice and the sheet below)."""
    page.eval_on_selector("#board", "b => b.scrollIntoView()")


def table_turn(gp: GamePage, suffix: str):
    """Three sides (one a team), two turns each; then a roll caught in the air and the
    same dice landed with three held."""
    page = gp.page
    names, teams = ("Ana", "Los Tres", "Dani"), {1: "Beto, Caro"}
    gp.new_game("argentine", names, seed=12, teams=teams)
    m = Mirror("argentine", names, 12, teams=teams)
    motion(page, False)
    for t in range(6):
        play_turn(gp, m, holds=t % 2 == 0)
        dismiss_moment(page)
    motion(page, True)
    board_on_top(page)
    m.do({"op": "roll"})
    page.click("#roll")
    page.wait_for_timeout(IN_THE_AIR_MS)
    shoot(page, f"roll-{suffix}.png")
    page.wait_for_function("() => !document.getElementById('board').hasAttribute('aria-busy')")
    land(page)
    for i in m.keep()[:3]:
        m.do({"op": "toggle", "die": i})
        gp.hold(i)
    land(page)
    page.wait_for_timeout(150)
    board_on_top(page)
    shoot(page, f"board-{suffix}.png")


def game_board(gp: GamePage, suffix: str, variant: str):
    """Two sides of ``variant``, three turns played, then a roll with dice held."""
    page = gp.page
    names = ("Ana", "Beto")
    gp.new_game(variant, names, seed=21)
    m = Mirror(variant, names, 21)
    motion(page, False)
    for _ in range(3):
        play_turn(gp, m, holds=True)
        dismiss_moment(page)
    m.do({"op": "roll"})
    gp.roll()
    for i in m.keep()[:3]:
        m.do({"op": "toggle", "die": i})
        gp.hold(i)
    dismiss_moment(page)
    shoot(page, f"board-{variant}-{suffix}.png")


def double_split(gp: GamePage, suffix: str):
    page = gp.page
    gp.new_game("double", ("Ana", "Beto"), seed=4)
    m = Mirror("double", ("Ana", "Beto"), 4)
    motion(page, False)
    play_turn(gp, m, holds=True)
    dismiss_moment(page)
    m.do({"op": "roll"})
    gp.roll()
    for i in m.keep()[:4]:
        m.do({"op": "toggle", "die": i})
        gp.hold(i)
    a, b = m.best_pair()["boxes"]
    gp.pick(a)
    gp.pick(b)
    page.wait_for_selector("#split-ok:enabled")
    shoot(page, f"double-split-{suffix}.png")


def celebration(gp: GamePage, suffix: str):
    """Bulgarian Generala, seed 106: five alike on the first roll."""
    page = gp.page
    gp.new_game("bulgarian", ("Ana", "Beto"), seed=106)
    m = Mirror("bulgarian", ("Ana", "Beto"), 106)
    m.do({"op": "roll"})
    assert max(m.view["dice"].count(f) for f in range(1, 7)) == 5, m.view["dice"]
    motion(page, True)
    board_on_top(page)
    page.click("#roll")
    page.wait_for_selector("#board .moment.celebrate", state="visible", timeout=10_000)
    page.wait_for_timeout(500)  # the card has popped, the confetti is flying
    shoot(page, f"celebration-{suffix}.png")
    dismiss_moment(page)


def game_over(gp: GamePage, suffix: str):
    """Puerto Rican General for three to its end, the last round with motion on."""
    page = gp.page
    names = ("Ana", "Beto", "Caro")
    gp.new_game("puerto-rican", names, seed=7)
    m = Mirror("puerto-rican", names, 7)
    motion(page, False)
    while not m.view["over"]:
        if m.view["round"] == m.view["turns"] and m.view["current"] == len(names) - 1:
            motion(page, True)
        play_turn(gp, m, holds=True)
        if not m.view["over"]:
            dismiss_moment(page)
    page.wait_for_selector("#over", state="visible")
    page.wait_for_timeout(700)
    shoot(page, f"game-over-{suffix}.png")
    dismiss_moment(page)
    page.wait_for_selector("#game-story[data-told]", timeout=60_000)
    page.eval_on_selector("#game-story", "s => s.scrollIntoView({block: 'end'})")
    shoot(page, f"story-{suffix}.png")


def hotseat_first(gp: GamePage, suffix: str):
    """Hot-seat for three: the first turn, who starts and why said on the table."""
    page = gp.page
    gp.new_game("argentine", ("Ana", "Beto", "Caro"), seed=9)
    dismiss_moment(page)
    page.wait_for_selector("#starts", state="visible")
    board_on_top(page)
    shoot(page, f"hotseat-first-{suffix}.png")


def rules_hint_coach(gp: GamePage, suffix: str):
    """Generala, seed 5, the coach on: the Rules open, then Ana's third roll with the Hint
    open, then Sixes scored where the coach would score Twos: the coach's line."""
    page = gp.page
    gp.new_game("argentine", ("Ana", "Beto"), seed=5)
    motion(page, False)
    board_menu(page, "rules")
    page.wait_for_selector("#rules[open]")
    shoot(page, f"rules-{suffix}.png")
    page.keyboard.press("Escape")
    set_coach(page, True)
    page.wait_for_selector("#coach-toggle:not([aria-busy])", state="attached")
    for _ in range(3):
        gp.roll()
    page.keyboard.press("h")
    page.wait_for_selector("#hint-dialog[open] #hint-table, #hint-dialog[open] .hint-body p")
    shoot(page, f"hint-{suffix}.png")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('hint-dialog').open")
    gp.score("sixes")
    dismiss_moment(page)
    page.wait_for_selector("#coach-cost:not([hidden])")
    board_on_top(page)
    shoot(page, f"coach-{suffix}.png")
    set_coach(page, False)


def clip(page, gp: GamePage, path: Path):
    """A turn as an animated GIF: frames of the dice table taken as fast as the
    browser gives them, each shown for the time it really lasted."""
    from PIL import Image

    gp.new_game("argentine", ("Ana", "Beto"), seed=3)
    m = Mirror("argentine", ("Ana", "Beto"), 3)
    motion(page, True)
    dismiss_moment(page)
    page.evaluate("window.scrollTo(0, 0)")
    top = page.eval_on_selector("#board", "b => b.getBoundingClientRect().top + window.scrollY")
    bottom = page.eval_on_selector("#roll", "b => b.getBoundingClientRect().bottom + window.scrollY")
    area = {"x": 0, "y": max(0, top - 8), "width": 375, "height": min(812, bottom - top + 24)}
    frames = []

    def grab(seconds):
        end = time.monotonic() + seconds
        while True:
            now = time.monotonic()
            frames.append((now, page.screenshot(clip=area, animations="allow")))
            if now >= end:
                break

    grab(0.4)
    m.do({"op": "roll"})
    page.click("#roll")
    grab(1.3)
    for i in m.keep()[:3]:
        m.do({"op": "toggle", "die": i})
        page.click(f'#board .dice [data-die="{i}"]')
        grab(0.35)
    grab(0.4)
    m.do({"op": "roll"})
    page.click("#roll")
    grab(1.3)
    box = m.best_box()
    gp.box(box).scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    page.locator(f'#sheet button.box[data-box="{box}"]:visible').click()
    if page.is_visible("#confirm"):
        page.click("#confirm-ok")
    page.evaluate("window.scrollTo(0, 0)")
    grab(1.2)
    times = [t for t, _ in frames] + [frames[-1][0] + 1.5]
    images = [Image.open(io.BytesIO(png)).convert("RGB") for _, png in frames]
    palette = images[len(images) // 2].quantize(colors=96, method=Image.Quantize.MEDIANCUT)
    shown = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    durations = [max(20, int((b - a) * 1000)) for a, b in zip(times, times[1:])]
    shown[0].save(path, save_all=True, append_images=shown[1:], duration=durations, loop=0,
                  optimize=True, disposal=1)
    print(f"{path} ({len(shown)} frames, {path.stat().st_size // 1024} KB)")


DAILY_DAY = "2026-12-01"


def daily_pictures(browser, url):
    """Today's challenge (Generala, DAILY_DAY) played by the heuristic player's choices
    through the page's clicks, the same stream in CPython telling which; its end and the
    home block after it."""
    from generala.modes import daily
    from generala.ai import strategies
    from generala.ai import players
    for width, height in SIZES:
        ctx = browser.new_context(base_url=url, viewport={"width": width, "height": height},
                                  device_scale_factor=1, service_workers="block")
        ctx.clock.install(time=DAILY_DAY + "T10:00:00")
        page = ctx.new_page()
        page.goto("/")
        wake(page)
        page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
        gp = GamePage(page)
        page.wait_for_selector("#daily-picker[data-ready]")
        gp._after(lambda: page.click("#daily-argentine"))
        mirror = daily.new_game("argentine", DAILY_DAY, DAILY_DAY)
        bot = players.make_player("heuristic", mirror.rules)
        while not mirror.over:
            action = bot.choose(mirror)
            if "hold" in action:
                for i in sorted(set(action["hold"]) ^ set(mirror.held)):
                    gp.hold(i)
            elif "roll" in action:
                gp.roll()
            else:
                gp.score(action["score"])
            strategies.step(mirror, lambda g, action=action: action)
            if mirror.dice is not None:
                assert gp.dice() == list(mirror.dice)
        page.wait_for_selector("#daily-result[data-state=ready]", timeout=60_000)
        dismiss_moment(page)
        land(page)
        page.locator("#daily-result").screenshot(path=OUT / f"daily-result-{width}.png", animations="disabled")
        print(OUT / f"daily-result-{width}.png")
        board_menu(page, "home")
        page.wait_for_selector('#daily-argentine[data-status="done"]')
        page.locator("#daily-section").screenshot(path=OUT / f"daily-home-{width}.png", animations="disabled")
        print(OUT / f"daily-home-{width}.png")
        ctx.close()
def bot_lab(page, suffix: str):
    """The Bot lab after a finished run of the planner example (1,000 games)."""
    open_botlab(page)
    page.select_option("#lab-example", "planner")
    page.click("#lab-use-example")
    page.select_option("#lab-game", "argentine")
    page.fill("#lab-games", "1000")
    page.click("#lab-run")
    page.wait_for_selector("#botlab[data-state=done]", timeout=300_000)
    page.eval_on_selector("#lab-run", "r => r.scrollIntoView()")
    shoot(page, f"botlab-{suffix}.png")


def main(argv=None):
    global OUT
    ap = argparse.ArgumentParser(description="Pictures of the game table for the README and docs/.")
    ap.add_argument("--dist", type=Path, help="a built site (default: build one into a temporary folder)")
    ap.add_argument("--out", type=Path, default=OUT, help="where the pictures go (default: docs/screenshots)")
    ap.add_argument("--daily", action="store_true", help="only the daily challenge's pictures")
    ap.add_argument("--only", nargs="*", metavar="SET", help="some of 375 375-dark 1280 1280-dark (default: all)")
    ap.add_argument("--lab-only", action="store_true", help="only the Bot lab's pictures")
    args = ap.parse_args(argv)
    OUT = args.out.resolve()
    OUT.mkdir(parents=True, exist_ok=True)
    if args.dist:
        dist = args.dist.resolve()
    else:
        dist = Path(tempfile.mkdtemp()) / "dist"
        build.build(dist, sizes=False)
    url, stop = start_server(dist)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            if args.daily:
                daily_pictures(browser, url)
                browser.close()
                return
            for width, height in SIZES:
                for scheme in ("light", "dark"):
                    suffix = f"{width}" + ("-dark" if scheme == "dark" else "")
                    if args.only and suffix not in args.only:
                        continue
                    ctx = browser.new_context(base_url=url, viewport={"width": width, "height": height},
                                              color_scheme=scheme, reduced_motion="no-preference",
                                              device_scale_factor=1, service_workers="block")
                    page = ctx.new_page()
                    page.goto("/")
                    wake(page)  # a person arrives: the UI starts at once
                    page.wait_for_selector("html[data-state=ready]", state="attached", timeout=90_000)
                    page.wait_for_selector("#play-computer", state="visible")
                    if args.lab_only:
                        if scheme == "light":
                            bot_lab(page, suffix)
                        ctx.close()
                        continue
                    shoot(page, f"home-{suffix}.png")
                    if suffix == "375":
                        open_setup(page, "custom")
                        shoot(page, "setup-375.png", full=True)
                    gp = GamePage(page)
                    table_turn(gp, suffix)
                    for variant in ("bulgarian", "puerto-rican"):
                        game_board(gp, suffix, variant)
                    double_split(gp, suffix)
                    celebration(gp, suffix)
                    game_over(gp, suffix)
                    hotseat_first(gp, suffix)
                    rules_hint_coach(gp, suffix)
                    if scheme == "light":
                        bot_lab(page, suffix)
                    if suffix == "375":
                        clip(page, gp, OUT / "turn-375.gif")
                    ctx.close()
            browser.close()
    finally:
        stop()


if __name__ == "__main__":
    main()
