# The page's boot: the language, the catalog, the controller and its screens, the
# first screen (the saved game in progress or home), then the engine's readiness.
#
# Boot contract: <html data-state> goes loading -> ui-ready (the page answers
# input: setup form, saved games, the saved board drawn from its last view) ->
# ready (the engine can roll) or error (with a visible message).
import json

import js

import engine_client
import words
from dom import byid, message
from shapes import size_text
from controller import MAX_SEED, Controller, parse_seed
from navigation import LANG_KEY, set_state, status, translate_page

storage = js.generalaStorage


def choose_lang():
    """?lang= (validated), else the saved choice, else navigator.languages, else English.
    Returns a rejected ?lang= value (shown once the words are in place) or None."""
    search = js.URLSearchParams.new(js.location.search)
    url = search.get("lang")
    saved = storage.get(LANG_KEY)
    try:
        browser = json.loads(str(js.JSON.stringify(js.navigator.languages or [])))
    except Exception:
        browser = []
    code, bad = words.pick_lang(None if url is None else str(url), str(saved) if saved else None, browser)
    words.set_lang(code)
    return bad


def first_screen(game):
    """Draw the saved game in progress, or the home screen. Returns the entry to load.
    A stored view that cannot be drawn is not: the home screen is, and the game
    opens with the engine's view once the engine has loaded its save."""
    too_big()
    gid = game.saves.current()
    if gid:
        entry, reason = game.saves.get(gid)
        if entry is None:
            game.saves.set_aside(gid, reason)
            message(words.t("msg.load_failed_id", id=gid, reason=reason), "error")
        elif not entry.get("over") and gid not in game.saves.aside():
            if not game.resume_view(entry):
                game.show_home()
                game.saves.set_current(gid)  # still the game to resume after a reload
                game.later = entry
            return entry
    game.show_home()
    return None


def too_big():
    """Name the stored values too long to read (storage.mjs MAX_VALUE): left as they
    are, never copied into this heap. A save among them is listed aside."""
    big = json.loads(str(js.JSON.stringify(storage.oversized("generala."))))
    if big:
        items = ", ".join(str(k) + " (" + size_text(n) + ")" for k, n in big)
        message(words.t("msg.too_big", items=items), "error")


async def engine_ready(game, entry):
    game.ui["ready"] = True
    later, game.later = game.later, None
    if entry is not None and game.gid == entry["id"]:
        latest, _ = game.saves.get(game.gid)  # another tab may have played on meanwhile
        await game.load(latest or entry)
    elif later is not None and game.gid is None:
        await game.load(later, shown=False)
    elif game.view is not None:
        game.draw(game.view)


def url_params(catalog):
    """?variant= and ?seed=, validated: a bad value gets a visible message and the default."""
    params = {}
    search = js.URLSearchParams.new(js.location.search)
    variant = search.get("variant")
    if variant is not None:
        variant = str(variant)
        if variant in catalog:
            params["variant"] = variant
        else:
            message(words.t("msg.unknown_game", name=variant[:40], known=", ".join(sorted(catalog))), "warn")
    seed = search.get("seed")
    if seed is not None:
        n = parse_seed(seed)
        if n is None:
            message(words.t("msg.bad_url_seed", seed=str(seed)[:40], max=MAX_SEED), "warn")
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
    bad_lang = choose_lang()
    translate_page()
    if bad_lang is not None:
        message(words.t("msg.bad_lang", lang=bad_lang, known=", ".join(words.LANGS)), "warn")
    if not storage.persistent:
        byid("storage-note").hidden = False
    await pause()
    try:
        catalog = await load_catalog()
        words.use_catalog(catalog)  # the engine's English: titles, summaries, options' help
        game = Controller(catalog["variants"], url_params(catalog["variants"]))
        await game.assemble(pause)
        await pause()
        entry = first_screen(game)
        game.features.opened()
        if entry is None:
            game.home.first_tap()  # a play choice tapped while the page loaded
    except Exception as err:
        engine_client.boot_failed(words.t("msg.page_failed", error=err))
        raise
    set_state("ui-ready")
    status(words.t("msg.starting_engine"))
    version = await engine_client.started()
    if version is None:  # the boot failed, shown by engine.mjs
        return
    byid("engine-version").textContent = str(version)
    await engine_ready(game, entry)
    status("")
    byid("engine-status").hidden = True
    set_state("ready")
    js.window.generalaUI = True
