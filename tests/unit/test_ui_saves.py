"""The page's save layer (static/ui/saves/saves.py) in CPython, against storage stubs that fail
the way browsers do: a quota exceeded on write, storage missing, a second tab writing.

saves.py runs in MicroPython in the page; its logic is plain Python, imported here with a
stand-in for `js`. The stubs keep the contract of static/js/storage.mjs (never throws;
set() answers False when the browser refused the write); the wrapper itself is tested
in the browser (tests/e2e/test_storage.py)."""
import json
import sys
import types
from pathlib import Path

import pytest

from generala import app

from tools import ui_modules

UI_PATHS = [str(ui_modules.UI)]


class Clock:
    def __init__(self):
        self.ms = 1_700_000_000_000

    def now(self):
        self.ms += 1000
        return self.ms


class LocalStorage:
    """One origin's localStorage, shared by the tabs; `full` makes every write throw."""

    def __init__(self):
        self.items, self.full = {}, False


class Wrapper:
    """storage.mjs for one tab: catches every failure, memory when storage is missing."""

    MAX_VALUE = 1000000  # storage.mjs: a longer value is never handed to the page

    def __init__(self, local, clock=None):
        self.local, self.memory, self.clock = local, {}, clock or Clock()
        self.held = set()

    def now(self):
        return str(self.clock.now())

    @property
    def persistent(self):
        return self.local is not None

    def _store(self):
        return self.local.items if self.local is not None else self.memory

    def get(self, key):
        value = self._store().get(key)
        if value is not None and len(value) > self.MAX_VALUE:
            self.held.add(key)
            return None
        return value

    def size(self, key):
        value = self._store().get(key)
        return -1 if value is None else len(value)

    def release(self, key):
        self.held.discard(key)

    def head(self, key, n):
        value = self._store().get(key)
        return None if value is None else value[:n]

    def set(self, key, value):
        if key in self.held:
            return False
        if self.local is not None and self.local.full:
            return False  # QuotaExceededError, caught
        self._store()[key] = str(value)
        return True

    def remove(self, key):
        if key in self.held:
            return False
        self._store().pop(key, None)
        return True

    def keys(self, prefix=""):
        return sorted(k for k in self._store() if k.startswith(prefix))


@pytest.fixture(scope="module")
def saves():
    stub = types.SimpleNamespace(JSON=types.SimpleNamespace(stringify=json.dumps))
    saved = sys.modules.get("js")
    sys.modules["js"] = stub
    sys.path[:0] = UI_PATHS
    try:
        from saves import saves
        yield saves
    finally:
        for path in UI_PATHS:
            sys.path.remove(path)
        ui_modules.forget()
        if saved is None:
            sys.modules.pop("js", None)
        else:
            sys.modules["js"] = saved


def replies(n, seed=3):
    """The engine's reply texts after each of n actions of one game (as the page stores them)."""
    s = app.Session()
    out = [s.handle({"op": "new", "variant": "argentine", "sides": ["Ana", "Beto"], "seed": seed})]
    while len(out) < n:
        view = out[-1]["view"]
        if view["can_roll"]:
            out.append(s.handle({"op": "roll"}))
        else:
            box = next(r["box"] for r in view["rows"] if r["cells"][view["current"]].get("playable"))
            out.append(s.handle({"op": "score", "box": box}))
    return [(r["view"], json.dumps(r)) for r in out]


def test_writes_count_revs_and_the_rev_is_read_without_parsing(saves):
    tab = saves.Saves(Wrapper(LocalStorage()))
    steps = replies(3)
    for n, (view, text) in enumerate(steps, 1):
        assert tab.write("g1", view, text, expect=n - 1) == (saves.SAVED, n)
    raw = tab.raw("g1")
    assert saves.rev_of(raw) == 3 == json.loads(raw)["rev"]
    entry, reason = tab.get("g1")
    assert reason is None and entry["save"] == json.loads(steps[-1][1])["save"]
    assert saves.rev_of(None) == 0 and saves.rev_of('{"id": "old save without rev"}') == 0


def test_quota_exceeded_keeps_the_previous_save_readable(saves):
    local = LocalStorage()
    tab = saves.Saves(Wrapper(local))
    (v1, t1), (v2, t2) = replies(2)
    assert tab.write("g1", v1, t1, expect=0) == (saves.SAVED, 1)
    before = dict(local.items)
    local.full = True
    assert tab.write("g1", v2, t2, expect=1) == (saves.FAILED, 1)
    assert local.items == before
    entry, reason = tab.get("g1")
    assert reason is None and entry["save"] == json.loads(t1)["save"]
    local.full = False  # space freed: the game written from memory, over the same rev
    assert tab.write("g1", v2, t2, expect=1) == (saves.SAVED, 2)


def test_a_second_tab_writing_first_is_never_overwritten(saves):
    local = LocalStorage()
    a, b = saves.Saves(Wrapper(local)), saves.Saves(Wrapper(local))
    steps = replies(3)
    assert a.write("g1", *steps[0], expect=0) == (saves.SAVED, 1)
    assert b.write("g1", *steps[1], expect=1) == (saves.SAVED, 2)  # tab B played on
    kept = local.items["generala.save.g1"]
    # Tab A still believes rev 1: its move is refused, B's save stays as it was.
    assert a.write("g1", *steps[2], expect=1) == (saves.CONFLICT, 2)
    assert local.items["generala.save.g1"] == kept
    # Following B (rev 2), A may write again.
    assert a.rev("g1") == 2 and a.write("g1", *steps[2], expect=2) == (saves.SAVED, 3)


def test_a_game_deleted_in_another_tab_is_not_brought_back(saves):
    local = LocalStorage()
    a, b = saves.Saves(Wrapper(local)), saves.Saves(Wrapper(local))
    (v1, t1), (v2, t2) = replies(2)
    a.write("g1", v1, t1, expect=0)
    b.delete("g1")
    assert a.write("g1", v2, t2, expect=1) == (saves.CONFLICT, 0)
    assert "generala.save.g1" not in local.items


def test_without_storage_games_live_in_memory_and_nothing_fails(saves):
    wrapper = Wrapper(None)
    tab = saves.Saves(wrapper)
    (v1, t1), (v2, t2) = replies(2)
    assert not wrapper.persistent
    assert tab.write("g1", v1, t1, expect=0) == (saves.SAVED, 1)
    assert tab.write("g1", v2, t2, expect=1) == (saves.SAVED, 2)
    unfinished, finished, broken = tab.listing()
    assert [e["id"] for e in unfinished] == ["g1"] and not finished and not broken


def test_times_are_whole_milliseconds_since_1970(saves):
    """The wrapper hands the time as text: MicroPython's FFI cuts JS integers to 32 bits."""
    tab = saves.Saves(Wrapper(LocalStorage()))
    (v1, t1), = replies(1)
    tab.put("g1", v1, t1)
    entry, _ = tab.get("g1")
    assert entry["updated"] > 2 ** 40 and tab.new_id().startswith("g17")


def test_put_writes_whatever_is_stored(saves):
    """An import or a new game: no rev to compare, the write counts on from what is there."""
    tab = saves.Saves(Wrapper(LocalStorage()))
    (v1, t1), (v2, t2) = replies(2)
    assert tab.put("g1", v1, t1) and tab.put("g1", v2, t2)
    assert tab.rev("g1") == 2


def stored(tab, local, gid, change):
    """Write a good save of ``gid``, then change its stored JSON with ``change(doc)``."""
    (view, text), = replies(1)
    tab.put(gid, view, text)
    doc = json.loads(local.items["generala.save." + gid])
    change(doc)
    local.items["generala.save." + gid] = json.dumps(doc)
    return local.items["generala.save." + gid]


def test_a_view_that_cannot_be_drawn_is_not_handed_on_the_save_is(saves):
    local = LocalStorage()
    tab = saves.Saves(Wrapper(local))
    for gid, change in (("g1", lambda d: d["reply"].update(view={})),
                        ("g2", lambda d: d["reply"]["view"].update(sides=5)),
                        ("g3", lambda d: d["reply"]["view"].pop("auto_win")),
                        ("g4", lambda d: d["reply"]["view"].pop("rolloff"))):
        text = stored(tab, local, gid, change)
        entry, reason = tab.get(gid)
        assert reason is None and entry["view"] is None and entry["save"]["schema"]
        assert entry["names"] == ["Ana", "Beto"]
        assert local.items["generala.save." + gid] == text  # nothing rewritten
    unfinished, _, broken = tab.listing()
    assert sorted(e["id"] for e in unfinished) == ["g1", "g2", "g3", "g4"] and not broken


def test_bad_list_fields_are_taken_from_the_view_or_left_blank(saves):
    local = LocalStorage()
    tab = saves.Saves(Wrapper(local))

    def bad(doc):
        doc.update(updated="yesterday", names=5, result=[[1]], over="no", round="one", title=7)

    text = stored(tab, local, "g1", bad)
    entry, reason = tab.get("g1")
    assert reason is None
    assert entry["names"] == ["Ana", "Beto"] and entry["over"] is False and entry["round"] == 1
    assert entry["updated"] is None and entry["result"] is None and entry["title"] == "Generala"
    assert saves.describe(entry).endswith("Ana, Beto")
    # with no drawable view either: neutral values, the list still draws
    stored(tab, local, "g2", lambda d: (bad(d), d["reply"].update(view=[])))
    entry, _ = tab.get("g2")
    assert entry["names"] == [] and entry["round"] is None and entry["title"] == ""
    unfinished, finished, broken = tab.listing()
    assert {e["id"] for e in unfinished} == {"g1", "g2"} and not finished and not broken
    assert local.items["generala.save.g1"] == text


def test_a_value_too_long_to_read_is_listed_aside_and_never_changed(saves):
    local = LocalStorage()
    wrapper = Wrapper(local)
    tab = saves.Saves(wrapper)
    (view, text), = replies(1)
    tab.put("g1", view, text)
    big = "x" * (Wrapper.MAX_VALUE + 1)
    local.items["generala.save.g2"] = big
    entry, reason = tab.get("g2")
    assert entry is None and "too big" in reason and "1.0 MB" in reason
    unfinished, _, broken = tab.listing()
    assert [e["id"] for e in unfinished] == ["g1"] and [b[0] for b in broken] == ["g2"]
    # the page cannot write over it by mistake; deleting it on request works
    assert tab.write("g2", view, text)[0] == saves.FAILED and local.items["generala.save.g2"] == big
    tab.delete("g2")
    assert "generala.save.g2" not in local.items
    # an aside list too long to read: taken as empty, left as it is
    local.items[saves.ASIDE] = big
    assert tab.aside() == {}
    tab.set_aside("g1", "why")
    assert local.items[saves.ASIDE] == big


def test_a_save_set_aside_keeps_the_refusal_and_the_list_words_it_in_the_language_in_use(saves):
    """The engine's refusal is stored as its code and params, not as words: after a
    language switch the list says why in the new language; the page's own reason (the
    engine did not answer) by its key too, and a text stored by an older version as it is."""
    from words import words
    local = LocalStorage()
    tab = saves.Saves(Wrapper(local))
    (view, text), = replies(1)
    for gid in ("g1", "g2", "g3"):
        tab.put(gid, view, text)
    doc = json.loads(text)["save"]
    refused = app.Session().handle({"op": "load", "save": dict(doc, schema=99)})
    assert refused["code"] == "save.newer"
    tab.set_aside("g1", saves.why_aside(refused))
    tab.set_aside("g2", saves.why_aside({"ok": False, "kind": "NoAnswer", "error": "worker lost"}))
    tab.set_aside("g3", "an older version's words")
    stored = json.loads(local.items[saves.ASIDE])
    assert stored["g1"] == {"code": "save.newer", "params": {"schema": 99, "max": 1}}
    assert stored["g2"] == {"words": "msg.no_answer"}
    try:
        for lang in ("en", "ru"):
            words.set_lang(lang)
            _, _, broken = tab.listing()
            why = {gid: reason for gid, _, reason in broken}
            assert why == {"g1": words.refusal(refused), "g2": words.t("msg.no_answer"),
                           "g3": "an older version's words"}, lang
        assert why["g1"].startswith("Сохранённая партия сделана более новой версией")
    finally:
        words.set_lang("en")
    # a save no longer readable says why it cannot be read now, in the language in use
    local.items["generala.save.g1"] = "{not json"
    _, _, broken = tab.listing()
    assert dict((gid, reason) for gid, _, reason in broken)["g1"] == words.t("save.corrupt")
