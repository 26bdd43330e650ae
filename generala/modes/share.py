"""Share links: a whole game in a short, checked text that fits in a URL.

A link token is ``g1.`` + base64url(zlib(save document) + CRC-32). The CRC
catches every single-character change (it finds every burst of up to 32 bits,
and one base64 character is 6 bits); the token must also be the canonical
encoding of what it decodes to, so a change in unused padding bits is caught
too. Decoding then replays the game like any save, so a link that was edited
and re-checksummed still has to describe a legal game, rolled by its seed.
"""
from __future__ import annotations

import base64
import binascii
import json
import zlib

from ..rules import nesting
from ..rules.errors import SaveError
from ..rules.game import Game

PREFIX = "g1."
MAX_TOKEN = 64_000       # characters: far above a full eight-side game
#: Bytes once inflated. The largest real game (eight sides of three-member teams with
#: long names, fifteen turns each, every roll and hold recorded) is about 14 kB; a link
#: that inflates to more is refused before it is read (a 2.5 kB token can inflate to
#: megabytes of brackets).
MAX_DOCUMENT = 200_000


def encode(doc: dict) -> str:
    """The link token of a save document, its roller (seed) included: decoding checks every
    recorded die against it, so a link whose dice were edited is refused. The seed tells the
    dice to come, so only a finished rolled game is shared (the app refuses the others)."""
    return pack(doc, PREFIX)


def decode(token: str) -> dict:
    """The save document in a link token; :class:`SaveError` for anything damaged or tampered with."""
    doc = unpack(token, PREFIX)
    Game.from_json(doc)  # refuses a document that is not a legal game
    return doc


def pack(doc: dict, prefix: str) -> str:
    """A token of ``prefix`` + the packed JSON of ``doc`` (share links and link games)."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    packed = zlib.compress(text, 9)
    raw = packed + binascii.crc32(packed).to_bytes(4, "big")
    return prefix + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unpack(token: str, prefix: str):
    """The JSON value packed in a token of ``prefix``, unchecked but for its packing;
    :class:`SaveError` (``link.*``) for a token damaged or not of this kind."""
    if not isinstance(token, str) or not token.startswith(prefix):
        raise SaveError("link.not_link")
    if len(token) > MAX_TOKEN:
        raise SaveError("link.too_long")
    body = token[len(prefix):]
    if len(body) % 4 == 1:  # no base64 text has this length: a link cut short
        raise SaveError("link.altered")
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise SaveError("link.characters") from None
    if len(raw) < 5 or base64.urlsafe_b64encode(raw).decode().rstrip("=") != body:
        raise SaveError("link.altered")
    packed, check = raw[:-4], raw[-4:]
    if binascii.crc32(packed).to_bytes(4, "big") != check:
        raise SaveError("link.check")
    try:
        inflater = zlib.decompressobj()
        text = inflater.decompress(packed, MAX_DOCUMENT + 1)
    except zlib.error:
        raise SaveError("link.unreadable") from None
    if len(text) > MAX_DOCUMENT or inflater.unconsumed_tail:
        raise SaveError("link.too_big", {"max": MAX_DOCUMENT})
    if not inflater.eof:
        raise SaveError("link.cut_short")
    try:
        text = text.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError("link.not_text") from None
    return nesting.loads(text, SaveError, "link")
