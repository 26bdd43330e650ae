"""Save documents: versioned JSON; loading replays the history.

A document::

    {"schema": 1, "game": "generala", "variant": "argentine",
     "options": {...}, "sides": [{"name": ..., "members": [...], "player": ...,
                                  "bot": {"name": ..., "hash": ...} (a bot's side only)}],
     "roller": {"kind": "seeded", "seed": 7} | null, "history": [...],
     "daily": {"date": "2026-12-01", "late": false}}     (a daily challenge only)

A mode of play that adds a field to the document (the daily challenge's ``daily``) registers
it here with the check that reads it back (:func:`register_field`): this format knows no
mode, and a mode's field is checked wherever a game is opened, since every game is opened
by :func:`load`. The package registers its modes when it is imported
(``generala/__init__.py``).

Loading checks the shape, rebuilds the rules and replays every action, so a
document that describes an illegal game is refused; in a rolled game every
recorded die (roll-off and rolls) must be the one its roller gives at that
position, so a document whose dice were edited is refused too, naming the
first wrong roll (a document that records rolls without its roller cannot be
checked and is refused). Whatever is wrong, the
loader raises only :class:`~generala.rules.errors.SaveError`, saying why: edited dice
as ``save.dice_edited`` (or ``save.rolloff_edited``, ``..._unchecked``), any
other refused action as ``save.illegal`` with that refusal as its ``cause``.

A document that loads saves back to itself in its normal form: ``schema`` and
``game`` as this version writes them, and only the keys above; every option of
the variant (the defaults of those not given); each side as ``{"name",
"members", "player"}``, and ``"bot": {"name", "hash"}`` for a saved bot's side (spaces in names trimmed and collapsed, a side without
members has its name as its one member, ``player`` "human" when not given); the
roller as its kind and seed (or values); and in the history each hold's
positions sorted, each once. Everything else is kept as it was.
"""
from __future__ import annotations

import json

from typing import Callable

from . import nesting
from .errors import GeneralaError, SaveError
from .refusals import shown
from .roller import roller_from_json
from .variants import variant

SCHEMA = 1
#: Older schemas and the function that lifts a document one version up.
MIGRATIONS: dict[int, callable] = {}
#: Refusals of a replayed history that mean its dice are not the ones its roller gives.
DICE_EDITED = frozenset({"save.dice_edited", "save.rolloff_edited", "save.dice_unchecked",
                         "save.rolloff_unchecked"})
#: The fields modes of play add to a document: name -> ``check(doc, game)``, which returns the
#: game's attribute of that name, checked against the game the document loads as (a
#: SaveError when it is not what the mode made).
FIELDS: dict[str, Callable] = {}


def register_field(name: str, check: Callable) -> None:
    """A mode's own field of the document: saved from the game's attribute ``name`` when it is
    set, and read back through ``check(doc, game)`` when a document carrying it loads."""
    FIELDS[name] = check


def dump(game) -> dict:
    """The save document of a game (``Game.to_json``)."""
    roller = game.roller
    doc = {
        "schema": SCHEMA,
        "game": "generala",
        "variant": game.rules.name,
        "options": game.rules.options,
        "sides": [side.to_json() for side in game.sides],
        "roller": roller.to_json() if hasattr(roller, "to_json") else None,
        "history": [dict(action) for action in game.history],
    }
    for name in FIELDS:
        value = getattr(game, name, None)
        if value:
            doc[name] = dict(value)
    return doc


def dumps(game) -> str:
    """The save document as compact JSON text."""
    return json.dumps(dump(game), ensure_ascii=False, separators=(",", ":"))


def load(doc, new_game, roller=None):
    """Rebuild a game from a document (dict or JSON text): ``Game.from_json`` calls this with
    ``new_game(rules, sides)``, which makes an empty game to replay the history into (this
    module sits below :mod:`generala.rules.game` and never imports it). ``roller`` replaces a
    saved one."""
    if isinstance(doc, (bytes, bytearray)):
        try:
            doc = bytes(doc).decode("utf-8")
        except UnicodeDecodeError:
            raise SaveError("save.not_text") from None
    if isinstance(doc, str):
        doc = nesting.loads(doc, SaveError, "save")
    elif nesting.too_deep(doc):
        raise SaveError("save.too_deep", {"depth": nesting.MAX_DEPTH})
    try:
        doc = migrate(doc)
        rules = variant(doc["variant"], **_options(doc["options"]))
        game = new_game(rules, doc["sides"])
        history = doc["history"]
        saved = roller_from_json(doc.get("roller"))
        rolled = any(isinstance(a, dict) and ("roll" in a or "rolloff" in a) for a in history)
        if rolled and saved is None:
            raise SaveError("save.unchecked")
        for name, check in FIELDS.items():
            if name in doc:
                setattr(game, name, check(doc, game))
        game.replay(history, check=saved if rolled else None)
        game.roller = roller if roller is not None else saved
        return game
    except SaveError:
        raise
    except GeneralaError as err:
        if err.code in DICE_EDITED:
            raise SaveError(err.code, err.params) from None
        raise SaveError("save.illegal", {"cause": err}) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as err:
        raise SaveError("save.malformed", {"error": type(err).__name__}) from None


def migrate(doc) -> dict:
    """Bring a document to the current schema, or refuse it with a reason."""
    if not isinstance(doc, dict):
        raise SaveError("save.not_object", {"got": shown(doc)})
    version = doc.get("schema")
    if type(version) is not int:
        raise SaveError("save.no_schema", {"got": shown(version)})
    if version > SCHEMA:
        raise SaveError("save.newer", {"schema": version, "max": SCHEMA})
    while version < SCHEMA:
        if version not in MIGRATIONS:
            raise SaveError("save.schema_unknown", {"schema": version})
        doc = MIGRATIONS[version](doc)
        version = doc["schema"]
    if doc.get("game", "generala") != "generala":
        raise SaveError("save.not_generala", {"got": shown(doc.get("game"))})
    for key, kind, expected in (("variant", str, "text"), ("options", dict, "object"),
                                ("sides", list, "list"), ("history", list, "list")):
        if not isinstance(doc.get(key), kind):
            raise SaveError("save.field", {"field": key, "expected": expected})
    return doc


def _options(options: dict) -> dict:
    if not all(isinstance(k, str) for k in options):
        raise SaveError("save.option_names")
    return options
