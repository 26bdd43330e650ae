# The page's boot: the language, the catalog, the page's parts built (assemble: each is
# given, when it is built, the parts and the hooks it uses; a part never reaches through
# another into a third), the first screen (the saved game in progress or home), then the
# engine's readiness.
#
# Two parts that need each other get a hook (web/hooks.py) instead: the part built first
# is given the hook and says when something happens; the part built later answers it
# (hook.to(part.method), joined here). Who gets what:
#
#   Navigation    the catalog; hooks leaving, home_shown(panel), relabelled
#   SavedGames    the storage (Saves), the clock, the screen; hooks moved_on(entry),
#                 taken_back, lists_drawn(finished)
#   Controller    the engine client, the board, the keeper, the clock, the screen; hooks
#                 stop_computer, said(reply), blocks, linked(reply, drawn), resumed(entry)
#   Setup         the catalog
#   Features      the controller, the board, the keeper, the storage, the screen, the
#                 engine client, the catalog; hook engine_taken (each screen it builds
#                 gets its share of those)
#   Home          the catalog, the setup form, the controller, the board, the features
#   Computer      the controller, the board, the keeper, the screen, the bar, the clock,
#                 the setup form, the catalog
#   Coach         the controller, the board, the keeper, the screen, the bar
#   PageInput     the controller, the screen, the keeper, the setup form, home, the
#                 score sheet's entry, the replay screen (once built), the computer, the coach
#
# Boot contract: <html data-state> goes loading -> ui-ready (the page answers
# input: setup form, saved games, the saved board drawn from its last view) ->
# ready (the engine can roll) or error (with a visible message).
import json

import js

from engine import engine_client
from screens import features
from words import words
from players.bar import Bar
from web.clock import Clock
from web.hooks import Hook
from players.coach_panel import Coach
from players.win_chances import WinChances
from players.computer import Computer
from board.controller import Controller
from web.dom import byid, message
from screens.home_screen import Home
from page import engine_notes
from page.navigation import LANG_KEY, Navigation, set_state, status, translate_page
from page.page_input import PageInput
from board.render import Board
from saves.saved_games import SavedGames
from saves.saves import Saves
from screens.setup import Setup, parse_seed
from board.shapes import size_text

storage = js.generala.storage


def choose_lang():
    """?lang= (validated), else the saved choice, else navigator.languages, else English.
    Returns the language's code and a rejected ?lang= value (shown once the words are in
    place) or None."""
    search = js.URLSearchParams.new(js.location.search)
    url = search.get("lang")
    saved = storage.get(LANG_KEY)
    try:
        browser = json.loads(str(js.JSON.stringify(js.navigator.languages or [])))
    except Exception:
        browser = []
    return words.pick_lang(None if url is None else str(url), str(saved) if saved else None, browser)


class Page:
    """The page's parts, each built with the parts it works with."""


async def assemble(catalog, params, pause):
    """Build the page's parts and join them, one browser task for each big one (no long
    task at boot). ``catalog``: the engine's (variants, levels, limits); each part is
    given what it reads of it."""
    page = Page()
    page.catalog = catalog
    page.saves = saves = Saves(storage)
    page.board = board = Board(byid("board"))
    engine_client.hear(busy=board.busy)
    clock = Clock()
    await pause()
    leaving, home_shown, relabelled = Hook(), Hook(), Hook()
    page.screen = screen = Navigation(catalog["variants"], leaving, home_shown, relabelled)
    await pause()
    moved_on, taken_back, lists_drawn = Hook(), Hook(), Hook()
    page.keeper = keeper = SavedGames(saves, clock, screen, moved_on, taken_back, lists_drawn)
    await pause()
    stop_computer, said, blocks, linked, resumed = Hook(), Hook(), Hook(), Hook(), Hook()
    page.controller = game = Controller(engine_client, board, keeper, clock, screen,
                                        stop_computer, said, blocks, linked, resumed)
    engine_client.when_failed(game.engine_failed)
    moved_on.to(game.follow)
    taken_back.to(game.redraw)
    leaving.to(keeper.close)  # the board left for home: its stored game closed, the lists drawn
    leaving.to(game.closed)
    leaving.to(keeper.draw_saves)
    await pause()
    page.setup = setup = Setup(catalog, params.get("variant"))
    await pause()
    engine_taken = Hook()
    page.features = feats = features.Features(game, board, keeper, saves, screen, engine_client, catalog,
                                              pause, engine_taken)  # score sheet; the other screens: build()
    blocks.to(feats.blocks)
    linked.to(feats.linked)
    resumed.to(feats.resumed)
    await pause()
    page.home = home = Home(catalog, setup, game, board, feats)
    home_shown.to(home.show)
    engine_taken.to(home.engine_taken)
    lists_drawn.to(home.saves_drawn)
    lists_drawn.to(lambda finished: feats.saves_drawn())
    await pause()
    bar = Bar()
    await pause()
    page.computer = computer = Computer(game, board, keeper, screen, bar, clock, setup, catalog)
    await pause()
    page.coach = coach = Coach(game, board, keeper, screen, bar)
    await pause()
    page.chances = chances = WinChances(game, board, keeper, screen)
    stop_computer.to(computer.cancel)
    said.to(coach.said)
    for relabel in (setup.relabel, home.relabel, keeper.draw_saves, game.relabel, feats.relabel,
                    computer.relabel, coach.relabel, chances.relabel):
        relabelled.to(relabel)  # in the page's new language
    if params.get("seed") is not None:
        byid("seed").value = str(params["seed"])
    await pause()
    for _ in PageInput(game, screen, keeper, setup, home, feats.sheet, lambda: feats.replay, computer, coach,
                       chances).wiring():
        await pause()
    await pause()
    home.listen()
    return page


def first_screen(page):
    """Draw the saved game in progress, or the home screen. Returns the entry to load.
    A stored view that cannot be drawn is not: the home screen is, and the game
    opens with the engine's view once the engine has loaded its save."""
    too_big()
    saves, game = page.saves, page.controller
    gid = saves.current()
    if gid:
        entry, reason = saves.get(gid)
        if entry is None and not saves.stored(gid):
            # Nothing under its key: never written (the storage was full: generala.unsaved
            # says so), or deleted. Nothing is set aside: there is nothing to keep.
            never = gid in saves.unsaved()
            saves.clear_unsaved(gid)
            saves.set_current(None)
            message(words.t("msg.never_stored") + " " + words.t("msg.make_room") if never
                    else words.t("msg.gone"), "warn")
        elif entry is None:
            saves.set_aside(gid, reason)
            message(words.t("msg.load_failed_id", id=gid, reason=reason), "error")
        elif not entry.get("over") and gid not in saves.aside():
            if not game.resume_view(entry):
                page.screen.show_home()
                saves.set_current(gid)  # still the game to resume after a reload
                game.later = entry
            return entry
    page.screen.show_home()
    return None


def too_big():
    """Name the stored values too long to read (storage.mjs MAX_VALUE): left as they
    are, never copied into this heap. A save among them is listed aside."""
    big = json.loads(str(js.JSON.stringify(storage.oversized("generala."))))
    if big:
        items = ", ".join(str(k) + " (" + size_text(n) + ")" for k, n in big)
        message(words.t("msg.too_big", items=items), "error")


async def engine_ready(page, entry):
    game, gid = page.controller, page.keeper.gid
    game.ui["ready"] = True
    later, game.later = game.later, None
    if entry is not None and gid == entry["id"]:
        latest, _ = page.saves.get(gid)  # another tab may have played on meanwhile
        await game.load(latest or entry)
    elif later is not None and gid is None:
        await game.load(later, shown=False)
    elif game.view is not None:
        game.draw(game.view)


def url_params(catalog):
    """?variant= and ?seed=, validated against the catalog (its variants, its largest
    seed): a bad value gets a visible message and the default."""
    params = {}
    variants, most = catalog["variants"], catalog["limits"]["seed"]
    search = js.URLSearchParams.new(js.location.search)
    variant = search.get("variant")
    if variant is not None:
        variant = str(variant)
        if variant in variants:
            params["variant"] = variant
        else:
            # said wherever the page opens (a saved game's board, the home screen): it points nowhere
            known = ", ".join(words.title(v, variants[v].get("title")) for v in variants)
            message(words.t("msg.unknown_game", name=variant[:40], known=known), "warn")
    seed = search.get("seed")
    if seed is not None:
        n = parse_seed(seed, most)
        if n is None:
            message(words.t("msg.bad_url_seed", seed=str(seed)[:40], max=most), "warn")
        else:
            params["seed"] = n
    return params


async def load_catalog():
    """catalog.json (written by the build) so the form works before the engine boots."""
    try:
        resp = await js.fetch("./catalog.json")
        if resp.ok:
            return json.loads(await resp.text())
    except Exception:
        pass
    reply = await engine_client.call({"op": "catalog"})
    return reply["catalog"]


async def boot(pause):
    """Boot in slices: pause() ends the browser task, so no slice blocks input for long."""
    code, bad_lang = choose_lang()
    words.table(code)  # a language's words (30-55 kB of bytecode) imported: a slice of their own
    await pause()
    for _ in words.switching(code):  # set_lang, a few hundred keys a slice
        await pause()
    await pause()
    translate_page()
    engine_client.hear(say=engine_notes.say, stopped=engine_notes.stopped, restarted=engine_notes.restarted)
    if bad_lang is not None:
        message(words.t("msg.bad_lang", lang=bad_lang, known=", ".join(words.LANGS)), "warn")
    if not storage.persistent:
        byid("storage-note").hidden = False
    await pause()
    try:
        catalog = await load_catalog()
        await pause()
        words.use_catalog(catalog)  # the engine's English: titles, summaries, options' help
        await pause()
        page = await assemble(catalog, url_params(catalog), pause)
        await pause()
        # The setup form and the other screens: now when the page opens with something of
        # theirs to show (ui-start.mjs: something saved, a game or a link in the address),
        # else when first opened and once the page is ready (setup.py, features.py).
        eager = bool(js.generala.uiNeeded)
        if eager:
            page.setup.build()
            await pause()
            await page.features.build()
        entry = first_screen(page)
        page.features.opened()
        if entry is None:
            page.home.first_tap()  # a play choice tapped while the page loaded
    except Exception as err:
        # index.html's error box says so in the player's language; the reason, in English,
        # goes to the console (engine.mjs showBootError)
        js.generala.engine.showBootError(repr(err), "page")
        raise
    set_state("ui-ready")
    if str(js.generala.engine.state) != "ready":
        status(words.t("msg.starting_engine"))
    version = await engine_client.started()
    if version is None:  # the boot failed, shown by engine.mjs
        return
    byid("engine-version").textContent = str(version)
    await engine_ready(page, entry)
    status("")
    byid("engine-status").hidden = True
    set_state("ready")
    if entry is None:
        from page import first_game  # the one-tap game, prepared while the page is idle

        try:
            await first_game.prepare(page)
        except Exception as err:  # a preparation only: the page works without it
            js.console.warn("first game: " + str(err))
    if not eager:
        await page.features.build()
        page.features.opened()  # a link that came meanwhile
