# Saved games in localStorage, through static/js/storage.mjs (never throws).
#
#   generala.save.<id>   {"id", "created", "updated", "variant", "title", "names",
#                         "over", "round", "turns", "result",
#                         "reply": {"save": <engine save doc>,
#                                   "view": <last view, drawn before the engine has booted>}}
#                        (the engine's reply text is stored as it came: no re-encoding;
#                        top-level "save" and "view" are read too)
#   generala.current     id of the game on the board (resumed on reload)
#   generala.aside       ids of saves that could not be loaded, with the reason;
#                        their entries are never rewritten, only deleted on request
import json

import js

import words

PREFIX = "generala.save."
CURRENT = "generala.current"
ASIDE = "generala.aside"


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
        return "g" + str(int(js.Date.now())) + "-" + str(self.counter)

    def ids(self):
        keys = _json(js.JSON.stringify(self.storage.keys(PREFIX))) or []
        return [k[len(PREFIX):] for k in keys]

    def raw(self, gid):
        return self.storage.get(PREFIX + gid)

    def get(self, gid):
        """(entry, None) or (None, reason)."""
        text = self.raw(gid)
        if text is None:
            return None, words.t("save.gone")
        entry = _json(text)
        if not isinstance(entry, dict):
            return None, words.t("save.corrupt")
        if isinstance(entry.get("reply"), dict):
            entry["save"] = entry["reply"].get("save")
            entry["view"] = entry["reply"].get("view")
        if not isinstance(entry.get("save"), dict) or not isinstance(entry.get("view"), dict):
            return None, words.t("save.empty")
        return entry, None

    def put(self, gid, view, reply_text, created=None):
        """Store the engine's reply (its save and view) with a few words about the game."""
        now = int(js.Date.now())
        result = None
        if view["over"]:
            result = [[s["name"], s["place"], s["total"]] for s in view["sides"]]
        meta = {"id": gid, "created": created or now, "updated": now, "variant": view["variant"],
                "title": view["title"], "names": [s["name"] for s in view["sides"]],
                "over": view["over"], "round": view["round"], "turns": view["turns"], "result": result}
        text = json.dumps(meta)[:-1] + ',"reply":' + reply_text + "}"
        return self.storage.set(PREFIX + gid, text)

    def delete(self, gid):
        self.storage.remove(PREFIX + gid)
        aside = self.aside()
        if gid in aside:
            del aside[gid]
            self.storage.set(ASIDE, json.dumps(aside))
        if self.current() == gid:
            self.set_current(None)

    def aside(self):
        data = _json(self.storage.get(ASIDE) or "{}")
        return data if isinstance(data, dict) else {}

    def set_aside(self, gid, reason):
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
        for gid in self.ids():
            entry, reason = self.get(gid)
            if gid in aside or entry is None:
                label = describe(entry) if entry else words.t("save.unnamed", id=gid)
                broken.append((gid, label, aside.get(gid) or reason))
            elif entry.get("over"):
                finished.append(entry)
            else:
                unfinished.append(entry)
        unfinished.sort(key=lambda e: -(e.get("updated") or 0))
        finished.sort(key=lambda e: -(e.get("updated") or 0))
        return unfinished, finished, broken


def when(ms):
    try:
        return str(js.Date.new(ms).toLocaleString(words.lang()))
    except Exception:
        return ""


def describe(entry):
    """A game in a few words: "Generala — Ana, Beto"."""
    names = entry.get("names") or []
    title = words.title(entry.get("variant"), entry.get("title") or words.t("save.game"))
    return str(title) + " — " + ", ".join(str(n) for n in names)
