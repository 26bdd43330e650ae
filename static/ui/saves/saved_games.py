# The saved games as the page shows and keeps them: which stored game the board shows
# (its id, the rev it shows, and whether this tab follows another tab's moves), the
# autosave after every move, the home screen's lists, and two tabs on one game (a tab
# follows another tab's moves until the player acts in it). saves.py holds the storage
# and its revs.
#
# page_boot.py builds it with the storage (saves.Saves), the clock, the screen
# (navigation.py) and three hooks (web/hooks.py) that the parts built after it answer:
# moved_on(entry) (another tab moved the board's game on: the controller draws it and the
# engine loads it), taken_back() (this tab plays on: the board drawn again) and
# lists_drawn(finished) (the home screen and the other screens follow the lists).

import js

from words import words
from web.dom import byid, clear, el, message
from board.render import sheet_mark as render_sheet_mark
from engine.replies import stored
from saves.save_lists import continue_meta, game_title, result_line
from saves.saves import CONFLICT, FAILED, PREFIX, REV_READ, SAVED, describe, reason_text, rev_of, when, why_aside

storage = js.generala.storage


class SavedGames:
    def __init__(self, saves, clock, screen, moved_on, taken_back, lists_drawn):
        self.saves = saves
        self.screen = screen
        self.moved_on = moved_on
        self.taken_back = taken_back
        self.lists_drawn = lists_drawn
        self.gid = None
        self.created = None
        self.named = {}  # the names the page made in the board's game (saves.py "named")
        self.rev = 0  # the stored rev this board shows (saves.py: two tabs on one game)
        self.watching = False  # following another tab's moves until the player acts here
        self.unsaved = False  # a write failed: told once per game, the game goes on in memory
        self.note = None  # that note, kept up to date while it is shown (kept_words)
        self.kept = None  # what is stored of the board's game: (over, round, turns), False: nothing, None: not known
        self.unwritten = None  # the last write that failed, (gid, view, text, created, named, rev kept): written once room is made
        self.marked = {}  # gid -> rev: the storage's generala.unsaved entries this tab wrote
        self.pending = None
        self.writer = clock.timer(self.save_now)

    # --- the game on the board ------------------------------------------------------

    def new_id(self):
        return self.saves.new_id()

    def open(self, gid, created, named=None):
        """The board shows the stored game ``gid`` from now on (a new game: rev 0), with
        the names the page made in it (stored with it: words.named_view)."""
        self.gid = gid
        self.created = created
        self.named = named or {}
        self.rev = self.saves.rev(gid)
        self.watching = False
        self.unsaved = False
        self.note = None
        self.kept = None if self.rev else False
        self.saves.set_current(gid)
        self.resumed_older(gid)

    def resumed_older(self, gid):
        """A game opened whose last moves could not be written (generala.unsaved): say that
        it goes on from what was stored, and which turn that is."""
        mark = self.saves.unsaved().get(gid)
        if mark is None:
            return
        self.saves.clear_unsaved(gid)
        entry, _ = self.saves.get(gid) if mark == self.rev and mark else (None, None)
        if entry is not None and entry.get("round") is not None:
            message(words.t("msg.resumed_stored", round=entry["round"], turns=entry["turns"]), "warn")

    def close(self):
        """The board is left: what waits is written, and no game is the current one."""
        self.save_now()
        self.gid = None
        self.saves.set_current(None)

    def keep(self, reply):
        """A reply with a save: written right after this task, so the board is drawn first."""
        self.pending = (self.gid, reply["view"], stored(reply), self.created, self.named)
        byid("board").setAttribute("data-save-pending", "")  # until written: tests wait on it
        self.writer.start(0)

    def entry(self, gid):
        """The stored game ``gid``, or None (then set aside, and the player told why)."""
        entry, reason = self.saves.get(gid)
        if entry is None:
            if self.saves.stored(gid):
                self.saves.set_aside(gid, reason)
                message(words.t("msg.load_failed_id", id=gid, reason=reason), "error")
            else:  # deleted meanwhile (another tab): nothing to keep aside
                message(words.t("msg.gone"), "warn")
            self.draw_saves()
        return entry

    def failed(self, entry, reply):
        """The engine refused to load a stored game: it is set aside with its reason (the
        refusal's code and params, worded in the language in use whenever it is shown), and
        the player told why."""
        reason = why_aside(reply)
        self.saves.set_aside(entry["id"], reason)
        message(words.t("msg.load_failed", game=describe(entry), when=when(entry.get("updated") or 0),
                        reason=reason_text(reason)), "error")

    def draw_saves(self):
        unfinished, finished, broken = self.saves.listing()
        self.fill_list("continue", unfinished, self.continue_item)
        self.fill_list("history", finished, self.history_item)
        self.fill_list("aside", broken, self.aside_item)
        self.lists_drawn(len(finished))

    def fill_list(self, name, items, make):
        ul = byid(name + "-list")
        clear(ul)
        for item in items:
            ul.appendChild(make(item))
        byid(name + "-section").hidden = not items

    def continue_item(self, entry):
        li = el("li", "save", None, {"data-save": entry["id"]})
        text = el("span", "save-text")
        text.appendChild(el("span", "save-title", describe(entry)))
        sheet_mark(text, entry)
        text.appendChild(el("span", "save-meta", continue_meta(entry, when(entry.get("updated") or 0))))
        li.appendChild(text)
        li.appendChild(el("button", "btn primary small", words.t("save.continue"),
                          {"type": "button", "data-continue": entry["id"],
                           "aria-label": words.t("save.continue_label", game=describe(entry))}))
        li.appendChild(self.delete_button(entry["id"], describe(entry)))
        return li

    def history_item(self, entry):
        li = el("li", "save", None, {"data-save": entry["id"]})
        text = el("span", "save-text")
        text.appendChild(el("span", "save-title", game_title(entry)))
        sheet_mark(text, entry)
        text.appendChild(el("span", "save-result", result_line(entry)))
        text.appendChild(el("span", "save-meta", when(entry.get("updated") or 0)))
        li.appendChild(text)
        li.appendChild(self.delete_button(entry["id"], describe(entry)))
        return li

    def aside_item(self, item):
        gid, label, reason = item
        li = el("li", "save broken", None, {"data-save": gid})
        text = el("span", "save-text")
        text.appendChild(el("span", "save-title", label))
        text.appendChild(el("span", "save-meta", words.t("save.broken", reason=reason)))
        li.appendChild(text)
        li.appendChild(self.delete_button(gid, label))
        return li

    def delete_button(self, gid, label):
        return el("button", "btn small danger", words.t("save.delete"),
                  {"type": "button", "data-delete": gid, "data-label": label,
                   "aria-label": words.t("save.delete_label", game=label)})

    def delete(self, gid, label):
        def really():
            self.saves.delete(gid)
            if self.unwritten is not None and self.unwritten[0] == gid:
                self.unwritten = None
            self.room_made()
            self.draw_saves()
            byid("announce").textContent = words.t("save.deleted", game=label)
        self.screen.ask(words.t("save.delete_ask", game=label), words.t("save.delete"), really)

    def save_now(self):
        """Write the last reply over the rev this board shows. A failed write keeps the
        previous copy and is told once per game (nearly full storage fails every other
        write, as the save grows and shrinks: no message each time); a write refused
        because another tab played on makes this tab follow that tab."""
        byid("board").removeAttribute("data-save-pending")
        pending, self.pending = self.pending, None
        if not pending:
            return
        gid = pending[0]
        outcome, rev = self.saves.write(*pending[:4], expect=self.rev if gid == self.gid else None,
                                        named=pending[4])
        if outcome == FAILED:
            self.unwritten = pending + (rev,)
            if self.marked.get(gid) != rev and self.saves.mark_unsaved(gid, rev):
                self.marked[gid] = rev
            self.tell_unsaved(gid)
        elif outcome == CONFLICT:
            entry, _ = self.saves.get(gid)
            if gid == self.gid:
                if entry is None:
                    self.gone_elsewhere()
                else:
                    self.follow(entry, lost=True)
        else:
            self.written(gid, rev, pending[1])

    def written(self, gid, rev, view):
        """A write of ``gid`` at ``rev`` succeeded: the board's rev, what is stored of it (the
        note says so while shown), and no mark of moves not written is left."""
        if self.unwritten is not None and self.unwritten[0] == gid:
            self.unwritten = None
        if gid in self.marked:
            del self.marked[gid]
            self.saves.clear_unsaved(gid)
        if gid == self.gid:
            self.rev = rev
            self.kept = (view["over"], view["round"], view["turns"])
            if self.unsaved:
                self.tell_unsaved(gid)

    def kept_words(self, gid):
        """What is stored of the board's game, in words (read once from storage when not known)."""
        if self.kept is None:
            entry, _ = self.saves.get(gid)
            self.kept = (entry.get("over"), entry.get("round"), entry.get("turns")) if entry else False
        if self.kept is False:
            return words.t("msg.stored_none")
        over, round_, turns = self.kept
        if over or round_ is None or turns is None:
            return words.t("msg.stored_over" if over else "msg.stored_some")
        return words.t("msg.stored_turn", round=round_, turns=turns)

    def tell_unsaved(self, gid):
        """The storage is full: say what is stored of the board's game and how to make room.
        One note a game, kept up to date while it is shown (a nearly full storage fails every
        other write as the save grows and shrinks: no note each time)."""
        if gid != self.gid:
            return
        text = words.t("msg.storage_full", stored=self.kept_words(gid), room=words.t("msg.make_room"))
        if self.note is not None and self.note.isConnected:
            self.note.querySelector(".msg-text").textContent = text
        elif not self.unsaved:
            self.note = message(text, "error")
        self.unsaved = True

    def room_made(self):
        """Games were deleted: the last write that failed is tried again (the game's moves
        kept on this page are then stored), and the player told when it is."""
        if self.unwritten is None:
            return
        gid, view, text, created, named, rev = self.unwritten
        outcome, new = self.saves.write(gid, view, text, created, expect=rev, named=named)
        if outcome == FAILED:
            return
        self.unwritten = None
        if outcome == SAVED:
            self.written(gid, new, view)
            if self.note is not None and self.note.isConnected:
                self.note.remove()
            self.note = None
            game = describe({"variant": view["variant"], "title": view["title"],
                             "names": [s["name"] for s in view["sides"]]})
            message(words.t("msg.room_again", game=game), "info")

    def on_storage(self, event):
        """Another tab wrote a save: follow it when it is this board's game, or refresh
        the lists on the home screen."""
        key = event.key
        if key is None:  # storage cleared
            if not self.screen.board_visible():
                self.draw_saves()
            return
        key = str(key)
        if not key.startswith(PREFIX):
            return
        gid = key[len(PREFIX):]
        if gid == self.gid and self.screen.board_visible():
            # Read through the wrapper, not event.newValue: a value of a few MB written
            # there would be copied whole into MicroPython (storage.mjs MAX_VALUE).
            if int(storage.size(key)) < 0:
                self.gone_elsewhere()
            elif rev_of(storage.head(key, REV_READ)) > self.rev:
                entry, _ = self.saves.get(gid)
                if entry is not None:
                    self.follow(entry)
        elif not self.screen.board_visible():
            self.draw_saves()

    def follow(self, entry, lost=False):
        """Show the game as another tab left it; the engine loads that save too. A move
        made here and not yet written (lost) is dropped, and the player is told."""
        self.rev = self.saves.rev(entry["id"])
        self.pending = None
        if lost or not self.watching:
            message(words.t("msg.moved_on_lost" if lost else "msg.moved_on"), "warn")
        self.watching = True
        self.moved_on(entry)

    def gone_elsewhere(self):
        """The game on the board was deleted in another tab."""
        self.pending = None
        message(words.t("msg.deleted_elsewhere"), "warn")
        self.gid = None
        self.screen.show_home()

    def take_over(self, event=None):
        """The player is here (the window focused, a click on the board, a key): this tab
        plays on, computer turns too."""
        if self.watching:
            self.watching = False
            if self.screen.board_visible():
                self.taken_back()


def sheet_mark(node, entry):
    """A score-sheet game says so (render.sheet_mark): the entry's list field, the view's
    sheet stored beside the save (saves.py)."""
    if entry.get("sheet"):
        node.appendChild(render_sheet_mark())
