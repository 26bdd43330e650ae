# The engine's replies as the page takes them (no DOM: unit-tested in CPython).
#
# The worker posts a reply in two parts (generala.app.handle_parts): the JSON text of
# the reply without its save, and the save's JSON text (or null). The page parses the
# first and keeps the save as text: it is stored as it came and never parsed on a move.
import json

NO_ANSWER = "NoAnswer"  # the engine did not answer: its worker failed, or it never started
TOLD_ALWAYS = ("InternalError", "InvalidInput")  # refusals the player is always told of


def reply_of(text, save=None):
    """The reply as a dict; with its save's JSON text under "save" when it carries one
    (and the reply's own text under "_text", for the stored copy: ``stored``)."""
    reply = json.loads(text)
    if save is not None:
        reply["save"] = str(save)
        reply["_text"] = text
    return reply


def no_answer(error):
    return {"ok": False, "kind": NO_ANSWER, "error": str(error)}


def stored(reply):
    """The text stored for a reply that carries a save: the reply with its save as a
    field ({"save": ..., "view": ..., ...}), built from the two texts, neither parsed."""
    return '{"save": ' + reply["save"] + ", " + reply["_text"][1:]


def save_doc(reply):
    """The save document of a reply, parsed (a replay needs its history)."""
    save = reply.get("save")
    return json.loads(save) if isinstance(save, str) else save


def answer_of(reply, save, error):
    """The reply dict for one answer of the transport (engine.mjs send/onReply): the
    reply's text and its save's text, or ``error`` (not None) when the engine did not
    answer."""
    if error is not None:
        return no_answer(error)
    return reply_of(str(reply), save)


class Waiting:
    """The requests sent and not yet answered, by the transport's id: an answer reaches
    the callback of its own request, whatever the order answers come in (the worker
    answers in request order, but nothing here relies on it)."""

    def __init__(self):
        self._by_id = {}

    def add(self, rid, callback, quiet=False):
        self._by_id[rid] = (callback, quiet)

    def take(self, rid):
        """(callback, quiet) of the request ``rid``, no longer waiting; None for an id
        this table never had or already answered (a request of another client)."""
        return self._by_id.pop(rid, None)

    def __len__(self):
        return len(self._by_id)
