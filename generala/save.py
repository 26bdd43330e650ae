"""Save documents: versioned JSON; loading replays the history.

A document::

    {"schema": 1, "game": "generala", "variant": "argentine",
     "options": {...}, "sides": [{"name": ..., "members": [...], "player": ...}],
     "roller": {"kind": "seeded", "seed": 7} | null, "history": [...]}

Loading checks the shape, rebuilds the rules and replays every action, so a
document that describes an illegal game is refused; in a rolled game every
recorded die (roll-off and rolls) must be the one its roller gives at that
position, so a document whose dice were edited is refused too, naming the
first wrong roll (a document that records rolls without its roller cannot be
checked and is refused). Whatever is wrong, the
loader raises only :class:`~generala.errors.SaveError`, saying why.

A document that loads saves back to itself in its normal form: ``schema`` and
``game`` as this version writes them, and only the keys above; every option of
the variant (the defaults of those not given); each side as ``{"name",
"members", "player"}`` (spaces in names trimmed and collapsed, a side without
members has its name as its one member, ``player`` "human" when not given); the
roller as its kind and seed (or values); and in the history each hold's
positions sorted, each once. Everything else is kept as it was.
"""
from __future__ import annotations

import json

from . import nesting
from .errors import GeneralaError, IllegalAction, SaveError
from .roller import roller_from_json
from .variants import variant

SCHEMA = 1
#: Older schemas and the function that lifts a document one version up.
MIGRATIONS: dict[int, callable] = {}


def dump(game) -> dict:
    roller = game.roller
    return {
        "schema": SCHEMA,
        "game": "generala",
        "variant": game.rules.name,
        "options": game.rules.options,
        "sides": [side.to_json() for side in game.sides],
        "roller": roller.to_json() if hasattr(roller, "to_json") else None,
        "history": [dict(action) for action in game.history],
    }


def dumps(game) -> str:
    """The save document as compact JSON text."""
    return json.dumps(dump(game), ensure_ascii=False, separators=(",", ":"))


def load(doc, roller=None):
    """Rebuild a game from a document (dict or JSON text); ``roller`` replaces a saved one."""
    from .game import Game

    if isinstance(doc, (bytes, bytearray)):
        try:
            doc = bytes(doc).decode("utf-8")
        except UnicodeDecodeError:
            raise SaveError("the save document is not text (UTF-8)") from None
    if isinstance(doc, str):
        doc = nesting.loads(doc, SaveError, "the save document")
    else:
        reason = nesting.too_deep(doc)
        if reason:
            raise SaveError(f"the save document is refused: {reason}")
    try:
        doc = migrate(doc)
        rules = variant(doc["variant"], **_options(doc["options"]))
        game = Game(rules, doc["sides"], None, rolloff=False)
        history = doc["history"]
        if not isinstance(history, list):
            raise SaveError("history is not a list")
        saved = roller_from_json(doc.get("roller"))
        rolled = any(isinstance(a, dict) and ("roll" in a or "rolloff" in a) for a in history)
        if rolled and saved is None:
            raise SaveError("the game's dice cannot be checked: it records rolls but not the roller "
                            "(seed) that rolled them")
        try:
            game.replay(history, check=saved if rolled else None)
        except IllegalAction as err:
            if "but the seed gives" in str(err) or "cannot be checked" in str(err):
                raise SaveError(f"the dice were edited: {err}") from None
            raise
        game.roller = roller if roller is not None else saved
        return game
    except SaveError:
        raise
    except GeneralaError as err:
        raise SaveError(f"the saved game is not legal: {err}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as err:
        raise SaveError(f"the save document is malformed: {type(err).__name__}: {err}") from None


def migrate(doc) -> dict:
    """Bring a document to the current schema, or refuse it with a reason."""
    if not isinstance(doc, dict):
        raise SaveError(f"a save document is a JSON object, got {type(doc).__name__}")
    version = doc.get("schema")
    if type(version) is not int:
        raise SaveError(f"the document has no schema version (got {version!r})")
    if version > SCHEMA:
        raise SaveError(f"the document is from a newer version (schema {version}; "
                        f"this app reads up to {SCHEMA})")
    while version < SCHEMA:
        if version not in MIGRATIONS:
            raise SaveError(f"schema {version} is not known")
        doc = MIGRATIONS[version](doc)
        version = doc["schema"]
    if doc.get("game", "generala") != "generala":
        raise SaveError(f"this is not a Generala save (game {doc.get('game')!r})")
    for key, kind in (("variant", str), ("options", dict), ("sides", list), ("history", list)):
        if not isinstance(doc.get(key), kind):
            raise SaveError(f"the document's {key!r} is missing or not a {kind.__name__}")
    return doc


def _options(options: dict) -> dict:
    if not all(isinstance(k, str) for k in options):
        raise SaveError("option names are text")
    return options
