# What the player is told about the engine, in the player's language: the page's side of
# engine/engine_client.py's one error policy (the client decides when; this says it).
# page_boot.py gives these to engine_client.hear() at start.
#
#   say(reply)     a refusal, or NoAnswer ("The game engine did not answer."): a note
#   restarted()    the engine's worker was replaced with the game: a note, once
#   stopped()      the engine failed for good: ONE note, in place of any earlier note
#                  about the engine, with a Reload button (shown again if dismissed)
import js

from web.dom import byid, each, el, message, on
from words import words

ABOUT_ENGINE = "engine"  # the data-about of the notes about the engine's workers


def say(reply):
    message(words.refusal(reply), "error")


def restarted():
    message(words.t("msg.engine_restarted"), "warn").setAttribute("data-about", ABOUT_ENGINE)


def stopped():
    notes = byid("messages")
    if notes.querySelector('[data-about="' + ABOUT_ENGINE + '"].stacked') is not None:
        return  # shown, not dismissed
    for node in each(notes.querySelectorAll('[data-about="' + ABOUT_ENGINE + '"]')):
        node.remove()  # the restart's note: this one says more
    note = message(words.t("msg.engine_stopped"), "error")
    note.setAttribute("data-about", ABOUT_ENGINE)
    note.classList.add("stacked")  # its text, then its two buttons under it
    reload = el("button", "btn small primary", words.t("update.reload"), {"type": "button", "id": "engine-reload"})
    on(reload, "click", lambda e: js.location.reload())
    note.insertBefore(reload, note.querySelector(".dismiss"))
