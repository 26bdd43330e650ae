# The page's entry point, the <script type="mpy"> of index.html. PyScript compiles
# this file from source; every other UI module is published as bytecode (.mpy,
# tools/build.py). The UI boots in slices, one browser task each: an import, then
# the next, so the page answers input between them (a long task blocks
# taps and keys for its whole length; the target is under 300 ms of blocking in all).
import asyncio

import js

# In import order: a module's own imports are already loaded when its turn comes.
# The words of the other languages (words_es, words_bg, words_ru) are imported by
# words.set_lang when one is chosen: the page loads only English and the one in use.
MODULES = ("words_en", "words", "dom", "replies", "engine_client", "keymap", "keys", "board_parts", "render", "shapes",
           "save_lists", "saves", "setup", "quickplay", "home_screen",
           "screens", "coach", "computer", "chart", "papersheet", "sheetmode",
           "replayview", "records", "transfer", "features", "navigation", "saved_games", "page_input",
           "controller")


async def pause():
    """Let the browser run what waits (input, paint), then go on: scheduler.yield()
    where the browser has it (no 4 ms timer clamp), else a zero-delay asyncio sleep."""
    try:
        await js.scheduler["yield"]()
    except Exception:
        await asyncio.sleep(0)


for name in MODULES:
    await pause()
    __import__(name)
await pause()
import page_boot  # noqa: E402

await page_boot.boot(pause)
