"""Solve a variant: the optimal expected final score of the solitaire game, and the value table.

The value table holds ``V[state]`` for every state between turns (see
:mod:`generala.ai.model`); players and the coach solve the current turn from it
on demand.
"""
from __future__ import annotations

import json
import math
import sys
import time
import zlib
from array import array
from itertools import accumulate, combinations

from ..rules.variants import variant
from .model import Model

MAGIC = b"GENV1\n"
#: Values as whole multiples of 1/1024 point, differences of neighbours, bytes regrouped
#: by significance (most are 0 or 255), then zlib: 2.3 times smaller than float32.
ENCODING = "q1024-delta-int32-byteplanes"
_Q = 1024


def _pack(values) -> bytes:
    q = [round(v * _Q) for v in values]
    deltas = array("i", [q[0]] + [b - a for a, b in zip(q, q[1:])])
    if sys.byteorder != "little":
        deltas.byteswap()
    raw = deltas.tobytes()
    return zlib.compress(b"".join(raw[k::4] for k in range(4)), 9)


def _unpack(blob: bytes) -> list[float]:
    n = len(blob) // 4
    raw = bytearray(4 * n)
    for k in range(4):
        raw[k::4] = blob[k * n:(k + 1) * n]
    deltas = array("i")
    deltas.frombytes(bytes(raw))
    if sys.byteorder != "little":
        deltas.byteswap()
    scale = 1.0 / _Q
    return [x * scale for x in accumulate(deltas)]


def _unpack_float32(blob: bytes) -> list[float]:
    values = array("f")
    values.frombytes(blob)
    return values.tolist()

def solitaire_rules(rules):
    """The rules the solver uses: no automatic win (its option off, and the options of how it
    is won at their defaults), no stake (its option at its default): neither changes the
    points of a game played alone. An option that does nothing while the win is on
    (``only_without``) is at its default when the game's win is on. So are the options
    that only forbid moves the optimum never makes (Generala scratched while Double
    Generala is open, five alike written 0 in Double Generala while Generala is open: the
    spec's ``scratch_last`` and ``needs_first``): the values are the same with them or
    without (tests/unit/test_house_rules.py solves both and compares every state), and
    the players and the coach leave the refused moves out (``Advisor.choices``)."""
    spec = rules.spec
    opts = rules.options
    for name in (*(r.option for r in spec.scratch_last), spec.needs_first):
        if name is not None:
            opts[name] = spec.option(name).default
    auto = spec.auto_win
    if auto is not None:
        for opt in spec.options:
            if opt.name in (auto.choice, auto.written) or (
                    opt.only_without == auto.option and opts[auto.option]):
                opts[opt.name] = opt.default
        opts[auto.option] = False
    if spec.stake is not None:
        opts[spec.stake.option] = spec.option(spec.stake.option).default
    return variant(rules.name, **opts)


def table_name(rules) -> str:
    """File name of a rules' table: ``<variant>.gvt`` for default options, else with a suffix."""
    rules = solitaire_rules(rules)
    default = solitaire_rules(variant(rules.name))
    if rules == default:
        return f"{rules.name}.gvt"
    changed = [f"{k}={v}" for (k, v), (_, d) in zip(rules.option_values, default.option_values) if v != d]
    slug = "-".join(str(c).replace("=", "_").replace("True", "on").replace("False", "off")
                    for c in changed)
    return f"{rules.name}.{slug}.gvt"


class Table:
    """The solved values of one rules: ``V`` indexed like ``model.states``."""

    def __init__(self, model: Model, V: list[float], seconds: float | None = None) -> None:
        self.model = model
        self.rules = model.rules
        self.V = V
        self.index = model.index
        self.seconds = seconds  # how long the solve took; None for a table read from a file
        self.SD = None  # standard deviation of the points to come, when computed (moments)
        self._turns = {}

    @property
    def value(self) -> float:
        """The optimal expected final score of a whole solitaire game."""
        return self.V[self.index[(0, 0)]]

    def state_value(self, state) -> float:
        return self.V[self.index[state]]

    #: How many solved turns to keep (simulations raise it: a turn is solved once per state).
    cache_size = 256

    def turn(self, state):
        """The solved turn from ``state`` (cached): keep values ``w2``/``w3`` (lists of levels,
        before the second / third roll) and ``v3``, the value of stopping with each hand."""
        got = self._turns.get(state)
        if got is None:
            if len(self._turns) >= self.cache_size:
                self._turns.clear()
            _, plan = self.model.turn(state, self.V, self.index, keep_levels=True)
            got = {
                "w2": [array("d", level) for level in plan["w2"]],
                "w3": [array("d", level) for level in plan["w3"]],
                "v3": array("d", plan["v3"]),
            }
            self._turns[state] = got
        return got

    # --- files ------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The table file: a magic line, a JSON header, then zlib sections. The same
        values give the same bytes (nothing in it depends on when or how fast it was made).

        ``values``: ``V`` as float32 in the model's state order (the start value is
        also in the header, exact). ``pairs`` (ten dice only): for every pair of
        boxes, the best split's points of all 3003 hands, one byte each, so that
        the browser need not compute them.
        """
        sections = [("values", _pack(self.V))]
        if self.SD is not None:
            sections.append(("sd", _pack(self.SD)))
        pairs = []
        if self.model.per_turn == 2:
            raw = bytearray()
            for a, b in combinations(self.model.boxes, 2):
                pairs.append([a, b])
                raw += bytes(self.model.pair_best(a, b))
            sections.append(("pairs", zlib.compress(bytes(raw), 9)))
        header = {
            "variant": self.rules.name,
            "options": {k: v for k, v in self.rules.option_values},
            "states": len(self.V),
            "value": self.value,
            "format": "zlib sections; values (expected points to come) and sd (their "
                      "standard deviation, optional) in model state order, encoded",
            "encoding": ENCODING,
            "sections": [[name, len(data)] for name, data in sections],
            "pairs": pairs,
        }
        head = json.dumps(header, sort_keys=True).encode()
        return MAGIC + len(head).to_bytes(4, "little") + head + b"".join(d for _, d in sections)

    def save(self, path) -> int:
        data = self.to_bytes()
        with open(path, "wb") as fh:
            fh.write(data)
        return len(data)

    @classmethod
    def from_bytes(cls, data: bytes, rules=None) -> "Table":
        if not data.startswith(MAGIC):
            raise ValueError("not a generala value table")
        n = int.from_bytes(data[len(MAGIC):len(MAGIC) + 4], "little")
        start = len(MAGIC) + 4
        header = json.loads(data[start:start + n])
        # A table made before an option existed holds that option at its default.
        made_for = solitaire_rules(variant(header["variant"], **header["options"]))
        rules = solitaire_rules(made_for if rules is None else rules)
        if rules != made_for:
            raise ValueError(f"table is for {header['variant']} {header['options']}, not {rules!r}")
        pos = start + n
        blobs = {}
        for name, size in header.get("sections", [["values", len(data) - pos]]):
            blobs[name] = zlib.decompress(data[pos:pos + size])
            pos += size
        encoding = header.get("encoding", "float32")  # float32: the first tables
        if encoding not in (ENCODING, "float32"):
            raise ValueError(f"unknown table encoding {encoding!r}")
        unpack = _unpack if encoding == ENCODING else _unpack_float32
        values = unpack(blobs["values"])
        model = model_for(rules)
        if len(values) != len(model.states):
            raise ValueError("table does not match the model")
        if "pairs" in blobs:
            raw = blobs["pairs"]
            size = len(model.L.hands)
            for i, (a, b) in enumerate(header["pairs"]):
                key = (a, b) if a < b else (b, a)
                model._pair_best.setdefault(key, list(raw[i * size:(i + 1) * size]))
        V = values
        V[model.index[(0, 0)]] = header["value"]  # the exact solved value
        table = cls(model, V)
        if "sd" in blobs:
            table.SD = unpack(blobs["sd"])
        return table

    @classmethod
    def load(cls, path, rules=None) -> "Table":
        with open(path, "rb") as fh:
            return cls.from_bytes(fh.read(), rules)


_models = {}


def model_for(rules) -> Model:
    rules = solitaire_rules(rules)
    got = _models.get(rules)
    if got is None:
        got = _models[rules] = Model(rules)
    return got


def solving(rules, *, from_mask: int = 0):
    """Backward induction over all states, as a generator: it yields ``(done, total)`` states
    before each group of states (one set of filled boxes; ``done < total``) and returns the
    :class:`Table` (``StopIteration.value``). The one solve: :func:`solve` runs it to the
    end, the app's ``op solve`` a slice at a time.

    ``from_mask`` solves only the states whose filled boxes include it (the rest stay 0):
    the end of a game, for tests.
    """
    rules = solitaire_rules(rules)
    start = time.perf_counter()
    model = model_for(rules)
    index = model.index
    V = [0.0] * len(model.states)
    total = len(model.states)
    done = 0
    for mask in model.masks_desc:
        if mask & from_mask != from_mask:
            continue
        yield done, total
        for x in model.xs_of[mask]:
            state = (mask, x)
            if mask != model.full:
                V[index[state]] = model.turn(state, V, index)
            done += 1
    return Table(model, V, time.perf_counter() - start)


def solve(rules, progress=None, *, from_mask: int = 0) -> Table:
    """The solved :class:`Table` of ``rules`` (:func:`solving` run to the end);
    ``progress(done, total)`` is called as it goes, and with ``(total, total)`` at the end."""
    steps = solving(rules, from_mask=from_mask)
    while True:
        try:
            done, total = next(steps)
        except StopIteration as finished:
            table = finished.value
            break
        if progress:
            progress(done, total)
    if progress:
        progress(len(table.V), len(table.V))
    return table


def moments(table: Table, progress=None) -> list[float]:
    """The standard deviation of the points still to come from every state, under the
    table's (mean-maximising) policy; stored as ``table.SD``. About three solves' time."""
    model = table.model
    index = model.index
    V = table.V
    M2 = [0.0] * len(V)
    done = 0
    for mask in model.masks_desc:
        for x in model.xs_of[mask]:
            state = (mask, x)
            if mask != model.full:
                mean, second = model.turn_moments(state, V, M2, index)
                M2[index[state]] = second
            done += 1
        if progress and mask & 15 == 0:
            progress(done, len(V))
    table.SD = [math.sqrt(max(0.0, m - v * v)) for m, v in zip(M2, V)]
    return table.SD
