# The page's entry point: index.html's <script type="mpy"> (run by PyScript with
# pyscript.toml's config) imports this module and awaits run(). Every UI module is
# published as bytecode (.mpy, tools/build.py), this one too, and PyScript writes them
# into MicroPython's file system before the script runs: nothing of ours is compiled on
# the page. run() waits for static/js/ui-start.mjs to say the UI may start (the page is
# idle and the engine ready, or a person's first input), then the UI
# boots in slices, one browser task each: imports until SLICE_MS have passed, then the
# next slice, so the page answers input between them (a long task blocks taps and keys
# for its whole length; the target is under 300 ms of blocking in all). A slice per
# import would make forty tasks of a millisecond or two each, every one of them a
# chance for a busy machine to stretch it into a long task.
import asyncio
import sys

import js

# The modules to import, in order (a module's own imports are already loaded when its
# turn comes): the `{BOOT}` files of pyscript.toml's [files], by package ("board.render"),
# page.page_boot last. No language's
# words are among them: page_boot.py imports the page's own in a task of their own, and
# words.py the others when one is chosen (English also if a table lacked a key).
MODULES = ()  # written by tools/build.py
SLICE_MS = 4  # a slice of imports ends once this long has passed since it began


async def pause():
    """Let the browser run what waits (input, paint), then go on: scheduler.yield()
    where the browser has it (no 4 ms timer clamp), else a zero-delay asyncio sleep."""
    try:
        await js.scheduler["yield"]()
    except Exception:
        await asyncio.sleep(0)


def pyscript_from():
    """Where PyScript's own package was imported from: "bytecode" (pyscript.toml's
    {PYSCRIPT} files, their folder first on sys.path: static/js/ui-start.mjs) or "source"
    (what PyScript wrote, compiled on the page). That folder then leaves sys.path: the
    package is imported (its modules are found by its own path), and every other import
    looks in one folder less."""
    import pyscript  # PyScript imported it before this script ran

    where = getattr(pyscript, "__file__", "")
    if not where.endswith(".mpy"):
        return "source"
    folder = where.rsplit("/pyscript/", 1)[0]
    if folder in sys.path:
        sys.path.remove(folder)
    return "bytecode"


async def run():
    try:
        await pause()  # PyScript's bootstrap and this import ran in the task before
        js.document.documentElement.dataset.pyscript = pyscript_from()
        await js.generala.ui.go
        await boot()
    except Exception as e:  # the page cannot start: said on it, the traceback to the console
        sys.print_exception(e)
        js.generala.ui.failed(repr(e))


async def boot():
    now = js.performance.now
    await pause()
    began = now()
    for name in MODULES:
        __import__(name)
        if now() - began > SLICE_MS:
            await pause()
            began = now()
    await pause()
    from page import page_boot  # imported above: the last of MODULES

    await page_boot.boot(pause)
