# Saved games in localStorage, through static/js/storage.mjs (never throws).
#
#   generala.save.<id>   {"rev", "id", "created", "updated", "variant", "title", "names",
#                         "over", "round", "turns", "result", "sheet", "named" (the
#                         names the page made, as words: words.clean_named; absent: none),
#                         "reply": {"save": <engine save doc>,
#                                   "view": <last view, drawn before the engine has booted>}}
#                        (the engine's reply text is stored as it came: no re-encoding;
#                        top-level "save" and "view" are read too)
#   generala.current     id of the game on the board (resumed on reload)
#   generala.aside       ids of saves that could not be loaded, with the reason: the
#                        engine's refusal as {"code", "params"} (worded in the language
#                        in use when the list is drawn: reason_text), {"words": key} for
#                        the page's own, or a text (stored by older versions);
#                        their entries are never rewritten, only deleted on request (or
#                        when the save they name is no longer stored: nothing is listed
#                        that does not exist)
#   generala.daily_deleted  ["<variant>/<date>", ...]: the daily challenges whose saved game
#                        was deleted: played again, they are marked so (screens/daily_screen.py)
#   generala.unsaved     {id: rev}: games whose last moves could not be written (storage
#                        full), with the rev that is stored (0: nothing); a reload says so
#                        when it opens such a game (saved_games.py), and the entry goes
#                        once the game is written again, told or deleted
#
# Two tabs on one game: "rev" (first in the text, so it is read without parsing the
# whole save) counts the writes of a game. A tab remembers the rev its board shows and
# writes only over that rev (compare and set): when another tab wrote in between, the
# write is refused (CONFLICT) and the tab follows the stored game instead of
# overwriting it. The `storage` event tells a tab at once (saved_games.py `on_storage`).
#
# What is stored is not trusted: the engine's save document is the game; the stored view
# is a cache (drawn at boot only when shapes.view_problem finds nothing wrong, else None:
# the engine is asked for it) and the list fields are a copy of the view (each one not
# valid is taken from the view, else left blank: shapes.list_fields; "sheet", the mark
# of a score-sheet game, of an entry stored before it was a list field is its stored
# view's, drawable or not). A value too long to
# read (storage.mjs MAX_VALUE) never reaches MicroPython: its game is listed aside.
import json

import js

from words import words
from saves.save_lists import game_title
from board.shapes import list_fields, size_text, view_problem

PREFIX = "generala.save."
REV_HEAD = '{"rev": '
REV_READ = 32  # characters enough for the rev at the head of a save
SAVED, FAILED, CONFLICT = "saved", "failed", "conflict"  # what Saves.write did
CURRENT = "generala.current"
ASIDE = "generala.aside"
UNSAVED = "generala.unsaved"
DAILY_DELETED = "generala.daily_deleted"


def _json(text):
    try:
        return json.loads(text)
    except Exception:
        return None


class Saves:
    def __init__(self, storage):
        self.storage = storage
        self.counter = 0

    def new_id(self):
        self.counter += 1
        return "g" + str(self.now()) + "-" + str(self.counter)

    def now(self):
        """Milliseconds since 1970 (through the wrapper: see storage.mjs `now`)."""
        return int(str(self.storage.now()))

    def ids(self):
        keys = _json(js.JSON.stringify(self.storage.keys(PREFIX))) or []
        return [k[len(PREFIX):] for k in keys]

    def raw(self, gid):
        return self.storage.get(PREFIX + gid)

    def stored(self, gid):
        """Whether anything is stored under the game's key (readable or not)."""
        return int(self.storage.size(PREFIX + gid)) >= 0

    def get(self, gid):
        """(entry, None) or (None, reason). The entry's "view" is None when the stored one
        cannot be drawn (ask the engine: op load); its list fields are valid (shapes)."""
        text = self.raw(gid)
        if text is None:
            size = int(self.storage.size(PREFIX + gid))
            if size > 0:  # there, but too long to read (storage.mjs MAX_VALUE)
                return None, words.t("save.too_big", size=size_text(size))
            return None, words.t("save.gone")
        entry = _json(text)
        text = None
        if not isinstance(entry, dict):
            return None, words.t("save.corrupt")
        if isinstance(entry.get("reply"), dict):
            entry["save"] = entry["reply"].get("save")
            entry["view"] = entry["reply"].get("view")
            del entry["reply"]
        if not isinstance(entry.get("save"), dict):
            return None, words.t("save.empty")
        stored = view = entry.get("view")
        if view_problem(view) is not None:
            view = entry["view"] = None
        fields, _bad = list_fields(entry, view, stored)
        entry.update(fields)
        entry["named"] = words.clean_named(entry.get("named"))
        entry["id"] = gid
        return entry, None

    def rev(self, gid):
        """The stored rev of a game: 0 when absent or written before revs existed. Read
        from the text's head: the whole save is not copied into MicroPython at each move."""
        return rev_of(self.storage.head(PREFIX + gid, REV_READ))

    def put(self, gid, view, reply_text, created=None, updated=None):
        """Store the engine's reply (its save and view) with a few words about the game,
        whatever is stored (a new game, an import: ``updated`` then keeps the time the
        game was last played). True when stored."""
        return self.write(gid, view, reply_text, created, updated=updated)[0] == SAVED

    def write(self, gid, view, reply_text, created=None, expect=None, updated=None, named=None):
        """Like put, but when ``expect`` is a rev, only over that rev (compare and set).
        Returns (SAVED, new rev), (FAILED, rev kept: storage full or gone, the previous
        copy untouched) or (CONFLICT, the stored rev: another tab wrote first)."""
        stored = self.rev(gid)
        if expect is not None and stored != expect:
            return CONFLICT, stored
        now = updated or self.now()
        result = None
        if view["over"]:
            result = [[s["name"], s["place"], s["total"]] for s in view["sides"]]
        meta = {"id": gid, "created": created or now, "updated": now, "variant": view["variant"],
                "title": view["title"], "names": [s["name"] for s in view["sides"]],
                "over": view["over"], "round": view["round"], "turns": view["turns"], "result": result,
                "sheet": view["sheet"]}
        if named:
            meta["named"] = named
        rev = stored + 1
        text = REV_HEAD + str(rev) + ", " + json.dumps(meta)[1:-1] + ',"reply":' + reply_text + "}"
        if self.storage.set(PREFIX + gid, text):
            return SAVED, rev
        return FAILED, stored

    def delete(self, gid):
        entry, _ = self.get(gid)
        doc = entry.get("save") if entry else None
        if isinstance(doc, dict) and isinstance(doc.get("daily"), dict):
            self.daily_deleted_add(str(doc.get("variant")) + "/" + str(doc["daily"].get("date")))
        self.storage.release(PREFIX + gid)  # the player's choice, even for a value too long to read
        self.storage.remove(PREFIX + gid)
        aside = self.aside()
        if gid in aside:
            del aside[gid]
            self.storage.set(ASIDE, json.dumps(aside))
        self.clear_unsaved(gid)
        if self.current() == gid:
            self.set_current(None)

    def daily_deleted(self):
        """The daily challenges ("<variant>/<date>") whose saved game was deleted here."""
        data = _json(self.storage.get(DAILY_DELETED) or "[]")
        return [str(k) for k in data] if isinstance(data, list) else []

    def daily_deleted_add(self, key):
        known = self.daily_deleted()
        if key not in known:
            self.storage.set(DAILY_DELETED, json.dumps(known + [key]))

    def unsaved(self):
        """{id: the rev stored} of the games whose last moves could not be written."""
        data = _json(self.storage.get(UNSAVED) or "{}")
        return data if isinstance(data, dict) else {}

    def mark_unsaved(self, gid, rev):
        """The game's moves after ``rev`` (0: all of it) could not be written. True when
        the mark is stored (it is a few dozen characters: it may fit where the save did not)."""
        marks = self.unsaved()
        marks[gid] = rev
        return bool(self.storage.set(UNSAVED, json.dumps(marks)))

    def clear_unsaved(self, gid):
        marks = self.unsaved()
        if gid in marks:
            del marks[gid]
            if marks:
                self.storage.set(UNSAVED, json.dumps(marks))
            else:
                self.storage.remove(UNSAVED)

    def aside(self):
        data = _json(self.storage.get(ASIDE) or "{}")
        return data if isinstance(data, dict) else {}

    def set_aside(self, gid, reason):
        """Keep a stored save aside (listed with its reason); one no longer stored is not."""
        if not self.stored(gid):
            if self.current() == gid:
                self.set_current(None)
            return
        aside = self.aside()
        aside[gid] = reason
        self.storage.set(ASIDE, json.dumps(aside))
        if self.current() == gid:
            self.set_current(None)

    def current(self):
        return self.storage.get(CURRENT)

    def set_current(self, gid):
        if gid is None:
            self.storage.remove(CURRENT)
        else:
            self.storage.set(CURRENT, gid)

    def listing(self):
        """(unfinished, finished, aside): entries newest first; aside as (id, label, reason)."""
        aside = self.aside()
        unfinished, finished, broken = [], [], []
        ids = self.ids()
        gone = [gid for gid in aside if gid not in ids]
        if gone:  # its save was deleted (another tab, an older version): nothing to list
            for gid in gone:
                del aside[gid]
            self.storage.set(ASIDE, json.dumps(aside))
        for gid in ids:
            entry, reason = self.get(gid)
            if gid in aside or entry is None:
                label = describe(entry) if entry else words.t("save.unnamed", id=gid)
                kept = aside.get(gid)
                # why it cannot be read now (in the language in use), else why it was set aside
                broken.append((gid, label, reason if entry is None else reason_text(kept) or reason))
            elif entry.get("over"):
                finished.append(entry)
            else:
                unfinished.append(entry)
        unfinished.sort(key=lambda e: -(e.get("updated") or 0))
        finished.sort(key=lambda e: -(e.get("updated") or 0))
        return unfinished, finished, broken


def rev_of(text):
    """The rev at the head of a stored save's text (0 if none), read without parsing the save."""
    if text is None:
        return 0
    text = str(text)
    if text.startswith(REV_HEAD):
        end = text.find(",", len(REV_HEAD))
        digits = text[len(REV_HEAD):end].strip() if end > 0 else ""
        if digits and all("0" <= ch <= "9" for ch in digits):
            return int(digits)
    return 0


def why_aside(reply):
    """What is stored as the reason a save the engine refused is set aside: the refusal's
    code and params (to be worded in the language of the day), or the page's own words' key
    when the engine did not answer."""
    if reply.get("code"):
        return {"code": reply["code"], "params": reply.get("params") or {}}
    return {"words": "msg.no_answer"}


def reason_text(reason):
    """A stored reason (why_aside, or the text of an older version) in the language in use."""
    if isinstance(reason, dict):
        if reason.get("code"):
            return words.refusal(reason)
        return words.t(str(reason.get("words")))
    return str(reason) if reason else ""


def when(ms):
    if not ms:  # not known (a list field that was not valid)
        return ""
    try:
        return str(js.Date.new(float(ms)).toLocaleString(words.lang()))  # a float: no 32-bit cut
    except Exception:
        return ""


def describe(entry):
    """A game in a few words: "Generala — Ana, Beto"."""
    names = entry.get("names") or []
    return str(game_title(entry)) + " — " + ", ".join(str(n) for n in names)
