# The first game, prepared while the page is idle: the game the home screen's one-tap
# choice ("Play against the computer") would start, and a rehearsal of its board.
#
# A first visit's first tap on that choice opens a board, and the first board a page
# draws costs several times what the next ones do: the engine runs the code of a new
# game for the first time, the UI's code draws a board for the first time (the browser
# compiles MicroPython's WebAssembly function by function, at first use) and the
# browser loads the fonts of the board's text, one size and weight at a time (on Linux
# each is asked of the browser's process). So once the page is ready, with the home
# screen up and no board drawn yet, one idle browser task at a time:
# 1. the engine is asked for that game (the one-tap choice's own request,
#    home_screen.Home.quick_request) and its reply is offered to the home screen: a tap
#    on the choice with the same request begins that game at once (Home.choose), with no
#    round trip to the engine. Not taken, it is never shown: the player's own `new` or
#    `load` replaces the engine's game;
# 2. a board is drawn from that reply's view off screen (invisible, inert, without
#    ids: .rehearsal in static/css/home.css), laid out one part per task (never
#    painted), then dropped.
# <html data-first-game> says how far it went: "prepared" (1), then "rehearsed" (2).
# Nothing of it is stored. It runs only while no board was ever drawn on the page
# (render.Board's node list, static/js/batch.mjs, is one for the page), the one-tap
# choice was not made, and the page sent the engine no game of its own (a setup form's,
# a save's, a link's: engine_client.games_asked), answered or still on its way: this
# request would follow it and take the engine's game from the player's.
import json

import js
from pyscript import document

from web.dom import byid, each, el
from board.render import Board
from engine import engine_client
from engine.replies import reply_of

UI = {"ready": True, "picked": [], "split": None, "scoring": False}  # controller.py's ui, at rest
html = document.documentElement


def untouched(page):
    """No board was drawn on this page, the one-tap choice was not made and the page asked
    the engine for no game of its own."""
    return page.board.renders == 0 and page.home.prepared is None and engine_client.games_asked() == 0


async def prepare(page):
    idle = js.generala.idle  # static/js/ui-start.mjs: resolves when the browser is idle
    await idle()
    if not untouched(page):
        return
    req = page.home.quick_request()
    try:
        parts = await js.generala.engine.request(json.dumps(req))
    except Exception:
        return  # the engine failed: the page says so elsewhere
    reply = reply_of(str(parts.reply), parts.save)
    if not reply.get("ok") or not untouched(page):
        return
    page.home.prepared = (req, reply)
    html.dataset.firstGame = "prepared"
    await idle()
    if page.board.renders:
        return
    # the board only reads the view (render.py)
    if await rehearse(reply["view"], idle, lambda: page.board.renders == 0):
        html.dataset.firstGame = "rehearsed"


async def rehearse(view, idle, alone):
    """Draw a board from ``view`` off screen and lay it out a part per idle task: each
    part is put on the stage, laid out (its fonts loaded) and taken off again in the same
    task, so the browser never paints it. The board is built a part per idle task
    (Board.building) and drawn from the view in the next: the first run of that code is
    the longest work of the page's start, and would be one long task.
    ``alone()`` says that no board was drawn on the page meanwhile: the nodes a board
    writes to are one list for the page (batch.mjs), which the page's own board resets
    when it is built, so the rehearsal stops at once then (False: not rehearsed)."""
    root = el("section")
    board = Board(root)
    for _ in board.building(view):
        await idle()
        if not alone():
            return False
    await idle()
    if not alone():
        return False
    board.update(view, dict(UI))  # the shape built above: draws only
    for node in each(root.querySelectorAll("[id]")):
        node.removeAttribute("id")
    app = byid("app")
    stage = el("div", "rehearsal")
    stage.inert = True
    stage.style.width = str(app.clientWidth) + "px"  # the board's width (CSSOM: the CSP allows it)
    app.appendChild(stage)
    for part in each(root.children):
        await idle()
        stage.appendChild(part)
        stage.offsetHeight  # laid out now
        part.remove()
    stage.remove()
    return True
