# The page's one client of the engine. Every request of the page goes through here,
# to the worker's transport (static/js/engine.mjs, `js.generala.engine`), and every
# reply comes back as a dict, with one policy for what goes wrong. Transport only: it
# touches no DOM and words nothing; it decides WHEN the player is told, and the page
# tells (page/engine_notes.py: the notes, in the player's language; the board: aria-busy),
# through the hooks it gives at start (hear()):
#
#   the engine did not answer   (its worker failed, or the engine failed to start):
#                               the reply is {"ok": False, "kind": "NoAnswer", "error": ...}
#                               (the English to the console); the player is told once what
#                               happened: by the one note of an engine that failed for good
#                               (below, shown again if it was dismissed), by the error box
#                               of an engine that never started, else "The game engine did
#                               not answer."
#   InternalError, InvalidInput (a bug in the engine, a request the page should never
#                               have sent): the player is always told, in the player's
#                               language (words.refusal: from the refusal's code and
#                               params); the reply is returned as it came
#   any other refusal           (IllegalAction, SaveError, NeedTable, ...): told the same
#                               way, unless the caller words it itself (quiet=True, or
#                               the kinds it words: with words.refusal too); the reply is
#                               returned as it came
#   A reply the player was told of is marked "told": True (the caller adds nothing).
#   Every refusal's English (its "error"), code and params go to the developer console
#   only (console.warn for a bug, InternalError and InvalidInput; console.info for the
#   others), never on screen. Not console.error: a refusal is an answer, not a fault of
#   the page (an InternalError still fails the e2e guard, which watches the replies).
#   the engine's worker stopped (engine.mjs starts a new one with the game and sends the
#                               unanswered requests again): the player is told once
#                               ("The game engine stopped and started again ...")
#   the engine failed for good  (workers keep dying: engine.mjs onFailure): ONE note, in the
#                               player's language, replaces the restart's: what happened, and
#                               that a reload plays on from the stored game (a Reload button);
#                               the parts registered with when_failed disable the board
#
# A reply that carries a save has it as the save's JSON text under "save": the worker
# posts it apart from the rest of the reply (generala.app.handle_parts), and the page
# stores it as it came, never parsing it on a move (saves.stored_reply).
#
#   hear(say=, stopped=, restarted=, busy=)  the page's hooks: say(reply) tells the player
#                               of a refusal or NoAnswer; stopped() shows (again) the note
#                               of an engine that failed for good; restarted() the note of
#                               a worker replaced; busy(on) while replies are awaited
#   send(req, callback, quiet)  the hot path (roll, hold, score, the computer's steps):
#                               callback(reply) for the answer of that very request (by
#                               its id), no asyncio hop; busy(True) while replies are
#                               awaited
#   await call(req, quiet)      any other request
#   waiting()                   how many sent requests still wait for their reply
#   games_asked()               how many requests that put a game in the engine (GAME_OPS)
#                               the page has sent: the one-tap game prepared while idle
#                               (page/first_game.py, which asks the transport itself) is
#                               prepared only while none was, answered or not
#   await ready()               True once the engine has booted, False if it failed
#   await import_file(f, max)   an export file checked by the engine (read in JS: see
#                               engine.mjs importFile; each game's documents come as JSON
#                               texts); the engine's failures as above
#   refusal_of(js_reply)        the refusal in import_file's reply, as a dict (to word it)
#
# JSON crosses JavaScript as text only, parsed here by MicroPython's json (which keeps
# every integer exact; JavaScript's numbers round one above 2**53, such as a 64-bit seed,
# and MicroPython's FFI cuts a JS number to 32 bits).
import json

import js
from pyscript.ffi import create_proxy

from engine.replies import NO_ANSWER, TOLD_ALWAYS, Waiting, answer_of, no_answer, reply_of

transport = js.generala.engine


def _unheard(*args):
    """Before the page gives its hooks: the console has the details (log, warn)."""


_hooks = {"say": _unheard, "stopped": _unheard, "restarted": _unheard, "busy": _unheard}


def hear(**hooks):
    """The page's hooks (say, stopped, restarted, busy: see above), given at start."""
    for name, hook in hooks.items():
        if name not in _hooks:
            raise KeyError(name)
        _hooks[name] = hook


def tell(reply, quiet=False):
    """The one error policy: say what went wrong, unless the caller words it itself
    (``quiet``: True for every refusal, or the kinds it words). A refusal the player
    was told of is marked "told": the caller adds nothing."""
    if reply.get("ok"):
        return reply
    kind = reply.get("kind")
    if kind == NO_ANSWER:
        js.console.warn("the engine did not answer: " + str(reply.get("error")))
        if str(transport.state) != "error":
            _hooks["say"](reply)
        elif _failure["seen"]:
            _hooks["stopped"]()  # again, if the player dismissed it
        reply["told"] = True
        return reply
    log(reply)
    if kind in TOLD_ALWAYS or not (quiet is True or (quiet and kind in quiet)):
        _hooks["say"](reply)
        reply["told"] = True
    return reply


def log(reply):
    """A refusal's English, code and params, for developers: on the console only (a value
    table asked for, NeedTable, is the transport's business: not logged)."""
    kind = reply.get("kind")
    if kind == "NeedTable":
        return
    text = "engine refusal " + str(kind) + " " + str(reply.get("code")) + " " \
        + json.dumps(reply.get("params")) + ": " + str(reply.get("error"))
    if kind in TOLD_ALWAYS:
        js.console.warn(text)
    else:
        js.console.info(text)


# The hot path's answers: the transport gives each request an id at once and sends
# every answer, with that id, to ONE callback registered here (MicroPython's
# create_proxy takes plain functions, and one proxy per request would leak); the
# callbacks wait in a table by id, so an answer always reaches its own request's.
_waiting = Waiting()


def _answered(answer):
    entry = _waiting.take(int(answer.id))
    if entry is None:
        return
    callback, quiet = entry
    if not len(_waiting):
        _hooks["busy"](False)
    callback(tell(answer_of(answer.reply, answer.save, answer.error), quiet))


def _restarted(info):
    """The engine's worker stopped and a new one took its place with the game: the page
    says so once (the details are on the console)."""
    _hooks["restarted"]()


_failure = {"seen": False, "hooks": []}


def when_failed(hook):
    """``hook()`` once the engine has failed for good (the board stops taking moves)."""
    _failure["hooks"].append(hook)


def _failed(info):
    """The engine failed for good (engine.mjs: its English reason is on the console): the
    page's one note says so (stopped), and the parts stop taking moves."""
    _failure["seen"] = True
    _hooks["stopped"]()
    for hook in _failure["hooks"]:
        hook()


_answered_proxy = create_proxy(_answered)
_restarted_proxy = create_proxy(_restarted)
_failed_proxy = create_proxy(_failed)
transport.onReply(_answered_proxy)
transport.onRestart(_restarted_proxy)
transport.onFailure(_failed_proxy)


# The requests that put another game in the engine (its one current game).
GAME_OPS = ("new", "load", "again", "daily", "link_new", "link_join", "link_open", "link_load")
_games = {"asked": 0}


def _asked(req):
    if req.get("op") in GAME_OPS:
        _games["asked"] += 1


def games_asked():
    return _games["asked"]


def send(req, callback, quiet=False):
    """Send ``req``; ``callback(reply)`` runs when its answer comes. While answers are
    awaited the page is told busy(True) (the board is aria-busy: tests wait for it to clear)."""
    _asked(req)
    if not len(_waiting):
        _hooks["busy"](True)
    _waiting.add(int(transport.send(json.dumps(req))), callback, quiet)


def waiting():
    return len(_waiting)


async def call(req, quiet=False):
    """The engine's reply to ``req`` as a dict (see the policy above)."""
    _asked(req)
    try:
        parts = await transport.request(json.dumps(req))
    except Exception as err:
        return tell(no_answer(err), quiet)
    return tell(reply_of(str(parts.reply), parts.save), quiet)


async def ready():
    try:
        await transport.ready()
        return True
    except Exception:
        return False


async def import_file(f, max_bytes):
    """The engine's reply to op import for the file ``f``, a JS object (its games are
    taken one at a time); a failure of the engine is told as above."""
    reply = await transport.importFile(f, max_bytes)  # never rejects
    if not reply.ok and str(reply.kind) not in PAGE_FAILURES:
        tell(refusal_of(reply), True)  # the engine's answer: on the console (a bug: told)
    return reply


# import_file's failures that are not the engine's: no code, the caller words them.
PAGE_FAILURES = ("TooLarge", "ReadError")


def refusal_of(reply):
    """import_file's reply (a JS object) that is not ok, as a dict: the engine's refusal
    (its JSON text, ``refusal``: kind, code, params, error), or the page's own failure
    (kind and error)."""
    if js.Reflect.has(reply, "refusal"):
        return json.loads(str(reply.refusal))
    return {"ok": False, "kind": str(reply.kind), "error": str(reply.error or "")}


async def started():
    """The engine's version once it has booted; None when it failed to start (then the
    page says so: engine.mjs shows the boot error)."""
    try:
        return str(await transport.ready())
    except Exception as err:
        transport.showBootError(str(err))
        return None

