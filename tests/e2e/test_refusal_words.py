"""The engine's refusals reach the player in the player's language: a share link whose
dice were edited (its checksum redone, so only the engine's check of the dice against the
seed finds it) is opened in each of the four languages; the replay screen says why in
that language's words of the refusal (static/ui/words/words_LANG.py refusal.*, its params
worded: the player, the turn, the faces), the engine's English is nowhere on the page,
and it is on the developer console (console.info, with the refusal's code and params)."""
from __future__ import annotations

import base64
import binascii
import json
import re
import sys
import zlib
from pathlib import Path

import pytest
from e2e_support import boot

from generala import app
from generala.modes import share

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools import ui_modules  # noqa: E402

sys.path[:0] = [str(ui_modules.UI)]
from words import words_bg, words_en, words_es, words_ru  # noqa: E402  (the tables: data only)

TABLES = {"en": words_en.WORDS, "es": words_es.WORDS, "bg": words_bg.WORDS, "ru": words_ru.WORDS}
NAMES = {"en": ["Ana", "Beto"], "es": ["Lucía", "Tomás"], "bg": ["Петя", "Жоро"], "ru": ["Аня", "Боря"]}


def finished_game(names, seed=11) -> dict:
    """A rolled game played to the end in CPython: its save document."""
    s = app.Session()
    assert s.handle({"op": "new", "variant": "argentine", "sides": names, "seed": seed})["ok"]
    while not s.game.over:
        view = s.handle({"op": "roll"})["view"]
        if view["over"]:
            break
        box = next(r["box"] for r in view["rows"] if r["cells"][view["current"]].get("playable"))
        assert s.handle({"op": "score", "box": box, "scratch": True})["ok"]
    return json.loads(json.dumps(s.game.to_json()))


def edited_link(doc: dict) -> str:
    """The game's link with one die of its first roll changed, its checksum redone."""
    for action in doc["history"]:
        if action.get("roll"):
            action["roll"][0] = action["roll"][0] % 6 + 1
            break
    packed = zlib.compress(json.dumps(doc, separators=(",", ":")).encode(), 9)
    raw = packed + binascii.crc32(packed).to_bytes(4, "big")
    return share.PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def english_phrases(text: str) -> set[str]:
    tokens = re.findall(r"[a-z]+", text.lower())
    return {" ".join(tokens[i:i + 3]) for i in range(len(tokens) - 2)}


def filled(template: str, values: dict[str, str]) -> str:
    """A word table's template with its {placeholders} put in, each exactly once."""
    for name, value in values.items():
        assert template.count("{" + name + "}") == 1, (template, name)
        template = template.replace("{" + name + "}", value)
    assert "{" not in template, template
    return template


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_a_link_with_edited_dice_is_refused_in_the_players_language(page, lang):
    token = edited_link(finished_game(NAMES[lang]))
    refused = app.Session().handle({"op": "replay", "link": token})  # what the browser's engine answers
    assert refused["ok"] is False and refused["code"] == "save.dice_edited", refused
    params = refused["params"]
    # What the page must show, from the language's word table (its texts, filled in here,
    # not by the page's words.py): the refusal's sentence inside the bad link's. A die
    # list is written as its faces with commas.
    table = TABLES[lang]
    faces = ", ".join
    why = filled(table["refusal.save.dice_edited"], {
        "turn": str(params["turn"]), "roll": str(params["roll"]), "name": params["name"],
        "dice": faces(map(str, params["dice"])), "seeded": faces(map(str, params["seeded"]))})
    want = filled(table["replay.bad_link"], {"why": why})
    console = []
    page.on("console", lambda msg: console.append((msg.type, msg.text)))
    boot(page, f"/index.html?lang={lang}#replay={token}")
    page.wait_for_selector("#replay-error", state="visible")
    shown = page.inner_text("#replay-error")
    assert shown == want
    # the refusal's params, worded: the player's name and the faces as the language writes them
    assert params["name"] in shown and ", ".join(map(str, params["dice"])) in shown
    body = page.inner_text("body")
    assert refused["error"] not in body
    if lang != "en":
        mine = english_phrases(json.dumps(params, ensure_ascii=False))
        assert not (english_phrases(refused["error"]) - mine) & english_phrases(shown), shown
    else:
        assert shown.startswith("This game link cannot be opened. The dice were edited: in turn ")
    # for developers: the engine's English with its code, on the console (not as an error)
    logged = [(kind, text) for kind, text in console if "save.dice_edited" in text]
    assert [kind for kind, _ in logged] == ["info"] and refused["error"] in logged[0][1], console
    assert page.locator("#replay-sheet").count() == 0
