"""The dice of a game played by link: hash chains, per-turn values and the dice stream.

No side rolls alone. Each device that plays (the host, and each friend who joins) holds
a secret of 256 bits from the system's cryptographic source, which it never sends, and
commits to it when it creates or joins the game. The design, its threat model and what
it cannot prevent: docs/link-play.md. In short:

- a device's secret is the top of a **hash chain**: ``x[N] = H(secret)`` and
  ``x[k - 1] = step(x[k], k)``; ``x[0]`` is its **commitment**. Chain element ``k`` is the
  device's contribution to **unit** ``k``: unit 1 is the roll-off, unit ``t + 2`` the
  game's turn ``t`` (all sides' turns counted together). Revealing ``x[k]`` shows every
  lower element (anyone can hash down) and none above it, and anyone can check it
  against the commitment at once;
- the **value** a device gives for unit ``k`` played by device ``X`` is
  ``HMAC(x[k], label(k, X))``; the dice of unit ``k`` come from the values of every device
  (:func:`turn_key`) as a stream (:func:`faces`);
- a device reveals its raw element ``x[k]`` once it knows who plays unit ``k``; before the
  order is settled (when it joins) it gives for each early turn and each device that may
  play it only the value for that device, checked once the raw element comes.

The engine draws no random number here: the secret comes from the caller (``secrets``
on the command line, ``crypto.getRandomValues`` in the page, passed in by the worker).
"""
from __future__ import annotations

import hashlib
import hmac

#: Bytes of a secret, a chain element and a commitment (256 bits).
SIZE = 32
#: Bytes of a value (128 bits): a value is checked against a known key, never collided.
VALUE_SIZE = 16
#: The device label of the roll-off: every device rolls in it.
ALL = 255
#: A die is a byte below 252 (42 x 6), taken modulo 6: no face is favoured.
_CUT = 252

_TOP = b"generala-link/top/1"
_CHAIN = b"generala-link/chain/1"
_VALUE = b"generala-link/value/1"
_DICE = b"generala-link/dice/1"
_SEAL = b"generala-link/seal/1"
_SEAT = b"generala-link/seat/1"
#: Bytes of a seat's ticket (the invitation's proof that a join took its own seat).
TICKET_SIZE = 16


def _u16(n: int) -> bytes:
    return n.to_bytes(2, "big")


def top(secret: bytes, game_id: bytes, length: int) -> bytes:
    """The chain's top element ``x[length]``, from a device's secret (never revealed itself)."""
    if not isinstance(secret, (bytes, bytearray)) or len(secret) < 16:
        raise ValueError("a secret has at least 128 bits")
    return hmac.new(bytes(secret), _TOP + game_id + _u16(length), hashlib.sha256).digest()


def down(element: bytes, game_id: bytes, index: int) -> bytes:
    """``x[index - 1]`` from ``x[index]``: one step down the chain."""
    return hashlib.sha256(_CHAIN + game_id + _u16(index) + element).digest()


def walk(element: bytes, game_id: bytes, index: int, to: int) -> bytes:
    """``x[to]`` from ``x[index]`` (``to <= index``)."""
    for k in range(index, to, -1):
        element = down(element, game_id, k)
    return element


def element(secret: bytes, game_id: bytes, length: int, index: int) -> bytes:
    """A device's own chain element ``x[index]``; ``index`` 0 is its commitment."""
    return walk(top(secret, game_id, length), game_id, length, index)


def value(chain_element: bytes, game_id: bytes, unit: int, device: int) -> bytes:
    """The value a chain element ``x[unit]`` gives for unit ``unit`` played by ``device``."""
    msg = _VALUE + game_id + _u16(unit) + bytes([device])
    return hmac.new(chain_element, msg, hashlib.sha256).digest()[:VALUE_SIZE]


def turn_key(game_id: bytes, unit: int, device: int, values: list[bytes]) -> bytes:
    """The key of a unit's dice: every device's value for it, in the devices' order."""
    return hashlib.sha256(_DICE + game_id + _u16(unit) + bytes([device]) + b"".join(values)).digest()


def seal(game_id: bytes, device: int, values: list[bytes]) -> bytes:
    """What a friend commits to when it joins a game of three or more devices: the hash of
    the early values it will give (in the order of :func:`generala.modes.linkgame.early_keys`),
    sent with its commitment before any device has revealed anything."""
    return hashlib.sha256(_SEAL + game_id + _u16(device) + b"".join(values)).digest()


def ticket(secret: bytes, game_id: bytes, side: int) -> bytes:
    """The host's ticket for the seat of ``side``: its invitation carries it, the join echoes
    it; only the host (who holds ``secret``) can make or check it."""
    return hmac.new(bytes(secret), _SEAT + game_id + _u16(side), hashlib.sha256).digest()[:TICKET_SIZE]


def faces(key: bytes, start: int, count: int) -> tuple[int, ...]:
    """Dice ``start`` to ``start + count - 1`` of the stream of ``key``: HMAC-SHA-256 of a
    block counter, bytes below 252 taken modulo 6 (the others skipped)."""
    wanted, out, block = start + count, [], 0
    while len(out) < wanted:
        for byte in hmac.new(key, block.to_bytes(4, "big"), hashlib.sha256).digest():
            if byte < _CUT:
                out.append(byte % 6 + 1)
        block += 1
    return tuple(out[start:wanted])
