"""Export files: one game, or all games and the history, as a JSON file a player keeps.

An export is ``{"format": "generala-export", "version": 1, "exported": "...",
"games": [{"id": ..., "save": {...}, "when": ..., "finished": bool}, ...]}``; a game by
link is ``{"id", "when", "finished", "link": {...}}``, its device's local record (the
secret with it: it is needed to play on; docs/link-play.md).
Importing checks everything before anything is kept: the size, the format and
every game's history (replayed like any save), and names the first problem.
"""
from __future__ import annotations

from . import linkgame
from ..rules import nesting
from ..rules.errors import SaveError
from ..rules.refusals import shown
from ..rules.game import Game
from ..rules.save import dump

FORMAT = "generala-export"
VERSION = 1
MAX_BYTES = 5_000_000  # far above hundreds of finished games; localStorage holds ~5 MB in all
MAX_GAMES = 2000


def export(entries: list[dict], exported: str = "") -> dict:
    """An export document from stored entries ``{"id", "save", "when"}``."""
    return {"format": FORMAT, "version": VERSION, "exported": exported,
            "games": [dict(entry) for entry in entries]}


def read(text) -> list[dict]:
    """The games in an export file, each re-saved in the current schema; SaveError names the problem."""
    return [entry for entry, _game in read_games(text)]


def read_games(text) -> list[tuple[dict, Game]]:
    """As ``read``, each entry with the game it loads as (so a caller can describe it)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_BYTES:
            raise SaveError("import.too_large", {"size": len(text), "max": MAX_BYTES})
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveError("import.not_text") from None
    if not isinstance(text, str):
        raise SaveError("import.type")
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise SaveError("import.too_large", {"size": size, "max": MAX_BYTES})
    doc = nesting.loads(text, SaveError, "import")
    if isinstance(doc, dict) and "schema" in doc and "history" in doc:
        doc = export([{"save": doc}])  # a single game's save document
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError("import.not_export")
    version = doc.get("version")
    if type(version) is not int or version > VERSION:
        raise SaveError("import.newer", {"got": shown(version), "max": VERSION})
    games = doc.get("games")
    if not isinstance(games, list) or not games:
        raise SaveError("import.empty")
    if len(games) > MAX_GAMES:
        raise SaveError("import.too_many", {"count": len(games), "max": MAX_GAMES})
    result = []
    for number, entry in enumerate(games, 1):
        if isinstance(entry, dict) and "link" in entry and "save" not in entry:
            result.append(_link_entry(entry, number))  # a game by link: this device's record
            continue
        if not isinstance(entry, dict) or "save" not in entry:
            raise SaveError("import.no_save", {"game": number})
        try:
            game = Game.from_json(entry["save"])
        except SaveError as err:
            raise SaveError("import.game", {"game": number, "cause": err}) from None
        ident = entry.get("id")
        when = entry.get("when")
        result.append(({
            "id": ident if isinstance(ident, str) and 0 < len(ident) <= 64 else None,
            "when": when if isinstance(when, str) and len(when) <= 40 else None,
            "finished": game.over,
            "save": dump(game),
        }, game))
    return result


def _link_entry(entry: dict, number: int) -> tuple[dict, Game | None]:
    """A game by link in an export: the device's local record (docs/link-play.md), checked
    whole as a link is (its chains, every die); ``(entry, its game or None before the start)``."""
    try:
        record = linkgame.LinkGame.from_local(entry["link"])
    except SaveError as err:
        raise SaveError("import.game", {"game": number, "cause": err}) from None
    ident, when = entry.get("id"), entry.get("when")
    game = record.game
    return ({
        "id": ident if isinstance(ident, str) and 0 < len(ident) <= 64 else None,
        "when": when if isinstance(when, str) and len(when) <= 40 else None,
        "finished": bool(game is not None and game.over),
        "link": record.local(),
    }, game)
