# The page's one client of the engine. Every request of the page goes through here,
# to the worker's transport (static/js/engine.mjs, `js.generala.engine`), and every
# reply comes back as a dict, with one policy for what goes wrong:
#
#   the engine did not answer   (its worker failed, or the engine failed to start):
#                               the player is told ("The game engine failed: ...");
#                               the reply is {"ok": False, "kind": "NoAnswer", "error": ...}
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
#
# A reply that carries a save has it as the save's JSON text under "save": the worker
# posts it apart from the rest of the reply (generala.app.handle_parts), and the page
# stores it as it came, never parsing it on a move (saves.stored_reply).
#
#   send(req, callback, quiet)  the hot path (roll, hold, score, the computer's steps):
#                               callback(reply) for the answer of that very request (by
#                               its id), no asyncio hop; the board is aria-busy while
#                               replies are awaited
#   await call(req, quiet)      any other request
#   waiting()                   how many sent requests still wait for their reply
#   await ready()               True once the engine has booted, False if it failed
#   await import_file(f, max)   an export file checked by the engine (read in JS: see
#                               engine.mjs importFile); the engine's failures as above
#   refusal_of(js_reply)        the refusal in import_file's reply, as a dict (to word it)
import json

import js
from pyscript.ffi import create_proxy

import words
from dom import byid, message
from replies import NO_ANSWER, TOLD_ALWAYS, Waiting, answer_of, no_answer, reply_of

transport = js.generala.engine


def tell(reply, quiet=False):
    """The one error policy: say what went wrong, unless the caller words it itself
    (``quiet``: True for every refusal, or the kinds it words). A refusal the player
    was told of is marked "told": the caller adds nothing."""
    if reply.get("ok"):
        return reply
    kind = reply.get("kind")
    if kind == NO_ANSWER:
        message(words.t("msg.engine_failed", error=reply.get("error")), "error")
        reply["told"] = True
        return reply
    log(reply)
    if kind in TOLD_ALWAYS or not (quiet is True or (quiet and kind in quiet)):
        message(words.refusal(reply), "error")
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
        byid("board").removeAttribute("aria-busy")
    callback(tell(answer_of(answer.reply, answer.save, answer.error), quiet))


def _restarted(info):
    """The engine's worker stopped and a new one took its place with the game: say so
    once (the details are on the console)."""
    message(words.t("msg.engine_restarted"), "warn")


_answered_proxy = create_proxy(_answered)
_restarted_proxy = create_proxy(_restarted)
transport.onReply(_answered_proxy)
transport.onRestart(_restarted_proxy)


def send(req, callback, quiet=False):
    """Send ``req``; ``callback(reply)`` runs when its answer comes. While answers are
    awaited the board is aria-busy (tests wait for it to clear)."""
    if not len(_waiting):
        byid("board").setAttribute("aria-busy", "true")
    _waiting.add(int(transport.send(json.dumps(req))), callback, quiet)


def waiting():
    return len(_waiting)


async def call(req, quiet=False):
    """The engine's reply to ``req`` as a dict (see the policy above)."""
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
    """import_file's reply (a JS object) that is not ok, as a dict: a refusal's kind, code,
    params and error (small: no games), or NoAnswer's."""
    return json.loads(str(js.JSON.stringify(reply)))


async def started():
    """The engine's version once it has booted; None when it failed to start (then the
    page says so: engine.mjs shows the boot error)."""
    try:
        return str(await transport.ready())
    except Exception as err:
        transport.showBootError(str(err))
        return None


def boot_failed(text):
    """The page itself failed to start: shown as the engine's boot errors are."""
    transport.showBootError(text)
