# The main-thread UI boot (PyScript MicroPython).
#
# Skeleton only: the board UI is built on top of this later. What it does now:
#   1. marks the page usable: <html data-state="ui-ready">
#   2. gets the engine (static/js/engine.mjs, started by index.html already)
#   3. pings it and marks <html data-state="ready"> with the engine version shown
# On failure: <html data-state="error"> and a visible message (text, never markup).
#
# Rules for this side: only this thread touches the DOM and storage; storage goes
# through js.generalaStorage (never throws); JS calls that may fail are awaited
# promises (MicroPython can catch a rejected promise, not a synchronous throw).
import json

import js
from pyscript import document

html = document.documentElement


def set_state(state):
    # Never overwrite an error reported earlier (e.g. by engine.mjs).
    if html.dataset.state != "error":
        html.dataset.state = state


def show_status(text):
    el = document.getElementById("engine-status")
    if el:
        el.textContent = text


def show_error(message):
    js.generalaEngine.showBootError(message)


set_state("ui-ready")

engine = js.generalaEngine
storage = js.generalaStorage
if not storage.persistent:
    note = document.getElementById("storage-note")
    if note:
        note.hidden = False

show_status("Starting the game engine…")


async def boot():
    try:
        await engine.ready()
        reply = json.loads(await engine.call(json.dumps({"op": "ping"})))
    except Exception as e:  # a rejected promise: boot failed, already shown by engine.mjs
        show_error(str(e))
        return
    if not reply.get("ok"):
        show_error("engine did not answer the ping: " + str(reply))
        return
    version = str(reply.get("version", "?"))
    show_status("Engine " + version + " ready.")
    el = document.getElementById("engine-version")
    if el:
        el.textContent = version
    set_state("ready")


await boot()
