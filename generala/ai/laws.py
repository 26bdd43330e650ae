"""The laws of the points still to come: every state's, under the table's policy (``.gvl`` files).

A side's points still to come from a state between turns have a law under the table's
(mean-maximising) policy. One backward pass over the states finds it: a state's law is
the mixture, over the outcomes of its turn (``(points, next state)`` with their
probabilities: :meth:`generala.ai.chances.Chances.outcomes`, the table's holds and boxes
roll by roll), of the next states' laws shifted by the points.

- ``exact`` (``argentine``, ``puerto-rican``, ``double``): the law of every state, exact;
  stored as its ``QUANTILES`` quantiles (the points at probabilities ``(k + ½) / 128``),
  each standing for 1/128 of the mass;
- ``shape`` (``bulgarian``: 958,464 states, too many to ship or to build one by one): one
  law per *coarse key*, the open boxes that are not mandatory and how many mandatory ones
  are open (3,584 keys). The law of a mask is found exactly for its state with the
  mandatory total's sign settled (or its only state), the next states of other masks
  taken at their mask's law moved to their table mean; a key's law is its masks' laws
  mixed, each moved to a whole-point mean near 0. A state reads its key's shape stretched
  to its own spread and moved to its table mean; while its mandatory total's sign is open,
  the points to come are two copies of that shape: one with the −50 penalty (its chance
  ``q``), one without it, their means a *gap* apart (the penalty and the points a bad
  mandatory box costs with it), and the stretch is what is left of the state's spread
  once the two copies' gap is counted. The three figures come from a second backward pass
  (exact, per state, under the table's policy: the penalty's chance, the mean of the
  points to come with it, their second moment) and are stored per state; the two means
  are set so that the law's mean is the state's table value. The shape of the points to
  come is approximated, the mean and the spread are the table's.

Either way a law read back is its quantiles, each a mass of 1/128 at a whole point; a
``shape`` law is then moved by the fraction of a point that makes its mean the state's
table value ``V`` (split between the two whole points either side); an ``exact`` law is
not (its mean is ``V``'s within the quantiles' reach of the tails: about a point).

File: ``GENL1\\n``, 4 bytes of header length, a JSON header, one zlib section: per entry,
its first quantile (+32768) then the 127 steps to the next, all as 16-bit unsigned
integers, the low bytes of every entry first, then the high bytes (most are 0). A
``shape`` file has a second zlib section (header ``states_figures``): per state its
spread (× 2), then per state ``q`` (× 255), then per state the gap (× 2, +32768; ``q``
and the gap 0 where the sign is settled), 16-bit unsigned, in byte planes. The same
table gives the same bytes.
"""
from __future__ import annotations

import json
import math
import sys
import zlib
from array import array
from bisect import bisect_left
from itertools import accumulate
from pathlib import Path

MAGIC = b"GENL1\n"
QUANTILES = 128
ENCODING = "quantiles128-u16-byteplanes"
#: The games whose laws ship with the site (default options): ``static/tables/<name>.gvl``.
SHIPPED = ("argentine", "puerto-rican", "double", "bulgarian")
_BIAS = 32768
SAFE_X = 1000  # generala.ai.model.SAFE: the mandatory total's sign settled
# ``shape`` laws' figures per state, stored as 16-bit integers: the spread in half
# points, the penalty's chance in 255ths, the gap in half points (+32768).
SD_SCALE, Q_SCALE, GAP_SCALE = 2, 255, 2
STATES_ENCODING = f"sd{SD_SCALE}-q{Q_SCALE}-gap{GAP_SCALE}-u16-byteplanes"
_TINY = 1e-13


def laws_name(table_name: str) -> str:
    """The laws file's name of a value table's file name (``argentine.gvt`` -> ``argentine.gvl``)."""
    return table_name[:-4] + ".gvl" if table_name.endswith(".gvt") else table_name + ".gvl"


def kind_of(model) -> str:
    return "shape" if model.mandatory else "exact"


# --- laws as (lowest point, probabilities) ----------------------------------------------


def _mix(parts):
    """``parts``: ``[(weight, points, (lo, probs)), ...]`` -> the mixture's ``(lo, probs)``."""
    lo = min(pts + law[0] for _, pts, law in parts)
    hi = max(pts + law[0] + len(law[1]) for _, pts, law in parts)
    out = [0.0] * (hi - lo)
    for w, pts, (llo, probs) in parts:
        a = pts + llo - lo
        b = a + len(probs)
        out[a:b] = [x + w * q for x, q in zip(out[a:b], probs)]
    return lo, out


def _mean(law) -> float:
    lo, probs = law
    return sum((lo + i) * p for i, p in enumerate(probs)) / sum(probs)


def _moved(law, d: float):
    """``law`` moved by ``d`` points (a fraction split between the whole points either side)."""
    whole = int(d // 1)
    frac = d - whole
    lo, probs = law
    if frac < 1e-12:
        return lo + whole, list(probs)
    out = [0.0] * (len(probs) + 1)
    keep = 1.0 - frac
    for k, p in enumerate(probs):
        out[k] += keep * p
        out[k + 1] += frac * p
    return lo + whole, out


def _with_penalty(law, value: float, settled: float, penalty: int):
    """``shape`` laws: ``law`` with the lump of the mandatory total's penalty, for a state
    whose sign is still open, moved to its mean ``value``. The penalty's chance is taken
    as what ``value`` loses against ``settled`` (the same boxes with the sign settled, no
    penalty to fear) in penalties: an upper bound (playing for the sign costs points too)."""
    risk = min(1.0, max(0.0, (settled - value) / penalty))
    if risk > 1e-6:
        law = _mix([(1.0 - risk, 0, law), (risk, -penalty, law)])
    return _moved(law, value - _mean(law))


def quantiles(law, k: int = QUANTILES) -> list[int]:
    """The points at probabilities ``(j + ½) / k`` of ``law`` (the smallest point whose
    probability of being reached or not passed is at least that)."""
    lo, probs = law
    total = sum(probs)
    cum = list(accumulate(p / total for p in probs))
    last = len(probs) - 1
    return [lo + min(last, bisect_left(cum, (j + 0.5) / k - 1e-12)) for j in range(k)]


def from_quantiles(qs, mean: float | None = None):
    """The law of ``qs`` (a mass of ``1 / len(qs)`` at each), moved to ``mean`` if given."""
    lo = qs[0]
    out = [0.0] * (qs[-1] - lo + 1)
    w = 1.0 / len(qs)
    for q in qs:
        out[q - lo] += w
    return (lo, out) if mean is None else _moved((lo, out), mean - sum(qs) * w)


# --- building -----------------------------------------------------------------------------


def _exact_laws(ch, progress=None):
    """Every state's exact law, by state index."""
    table, model = ch.table, ch.model
    index = table.index
    laws = [None] * len(model.states)
    done = 0
    for mask in model.masks_desc:
        for x in model.xs_of[mask]:
            i = index[(mask, x)]
            if mask == model.full:
                laws[i] = (0, [1.0])
            else:
                outs = ch.outcomes((mask, x))
                laws[i] = _mix([(p, r, laws[j]) for (r, j), p in outs.items() if p > _TINY])
            done += 1
        ch._outcomes.clear()
        if progress:
            progress(done, len(laws))
    return laws


def coarse_key(model, mask: int) -> int:
    """``shape`` laws: a mask's key, its filled boxes that are not mandatory and how many
    mandatory ones are filled: ``rest * (mandatory + 1) + filled mandatory``."""
    mand = model.mand_all
    rest = mask & ~mand
    # the non-mandatory bits packed down to 0..2**(nbox - 6) - 1
    packed, j = 0, 0
    for b in range(model.nbox):
        bit = 1 << b
        if mand & bit:
            continue
        if rest & bit:
            packed |= 1 << j
        j += 1
    n_mand = len(model.mandatory)
    return packed * (n_mand + 1) + bin(mask & mand).count("1")


def keys_count(model) -> int:
    n_mand = len(model.mandatory)
    return (1 << (model.nbox - n_mand)) * (n_mand + 1)


def _shape_laws(ch, progress=None):
    """``shape`` laws, by coarse key (see the module's note)."""
    from .model import SAFE
    table, model = ch.table, ch.model
    index, V, states = table.index, table.V, model.states
    by_mask = {}  # mask -> (law, its mean): this level's masks and the level above's
    above = {}
    keyed = {}  # coarse key -> the sum of its masks' laws, each moved near 0
    level = None

    def rep_of(mask):
        xs = model.xs_of[mask]
        return (mask, SAFE) if SAFE in xs else (mask, xs[0])

    for done, mask in enumerate(model.masks_desc, 1):
        lev = bin(mask).count("1")
        if lev != level:
            above, by_mask, level = by_mask, {}, lev
        rep = rep_of(mask)
        if mask == model.full:
            law = (0, [1.0])
        else:
            parts = []
            for (r, j), p in ch.outcomes(rep).items():
                if p <= _TINY:
                    continue
                nxt = states[j]
                nlaw, nmean = above[nxt[0]]
                if nxt == rep_of(nxt[0]):
                    parts.append((p, r, nlaw))
                    continue
                settled = index.get((nxt[0], SAFE))
                parts.append((p, r, _moved(nlaw, V[j] - nmean) if settled is None
                              else _with_penalty(nlaw, V[j], V[settled], model.penalty)))
            law = _mix(parts)
            ch._outcomes.clear()
        mean = _mean(law)
        by_mask[mask] = (law, mean)
        key = coarse_key(model, mask)
        moved = (law[0] - round(mean), law[1])
        acc = keyed.get(key)
        keyed[key] = moved if acc is None else _mix([(1.0, 0, acc), (1.0, 0, moved)])
        if progress and done % 256 == 0:
            progress(done, len(model.masks_desc))
    return [keyed[key] for key in range(keys_count(model))]


def _moments(ch, progress=None):
    """Per state, under the table's policy: the chance of the penalty still to come ``q``,
    ``E[R·1pen]`` and ``E[R²]`` (``R`` the points to come, the penalty in them). One
    backward pass; a turn that charges the penalty is one whose points are below −25 (a
    mandatory box scores −18 at worst, the others 0 or more)."""
    table, model = ch.table, ch.model
    index, V = table.index, table.V
    n = len(model.states)
    q, a, m2 = (array("d", bytes(8 * n)) for _ in range(3))
    for done, mask in enumerate(model.masks_desc, 1):
        if mask == model.full:
            continue
        for x in model.xs_of[mask]:
            i = index[(mask, x)]
            tq = ta = tm = 0.0
            for (r, j), p in ch.outcomes((mask, x)).items():
                tm += p * (r * r + 2 * r * V[j] + m2[j])
                if x != SAFE_X and r < -25:
                    tq += p
                    ta += p * (r + V[j])
                else:
                    tq += p * q[j]
                    ta += p * (r * q[j] + a[j])
            q[i], a[i], m2[i] = tq, ta, tm
        ch._outcomes.clear()
        if progress and done % 256 == 0:
            progress(done, len(model.masks_desc))
    return q, a, m2


def _state_figures(ch, progress=None) -> tuple[array, array, array]:
    """``shape`` laws: per state, as stored (:data:`SD_SCALE`, :data:`Q_SCALE`,
    :data:`GAP_SCALE`): the spread of its points to come (their standard deviation), and
    while its mandatory total's sign is open the penalty's chance ``q`` and the gap, the
    mean with the penalty less the mean without it (0 and 0 where the sign is settled)."""
    model, V = ch.model, ch.table.V
    q, a, m2 = _moments(ch, progress)
    sd, qs, gaps = array("H"), array("H"), array("H")
    for i, (mask, x) in enumerate(model.states):
        v = V[i]
        sd.append(min(65535, round(math.sqrt(max(0.0, m2[i] - v * v)) * SD_SCALE)))
        qi = q[i]
        if x == SAFE_X or mask == model.full or not _TINY < qi < 1.0 - _TINY:
            qs.append(0)
            gaps.append(_BIAS)
            continue
        gap = a[i] / qi - (v - a[i]) / (1.0 - qi)
        qs.append(round(qi * Q_SCALE))
        gaps.append(min(65535, max(0, round(gap * GAP_SCALE) + _BIAS)))
    return sd, qs, gaps


def _pack_states(figures) -> bytes:
    vals = array("H")
    for part in figures:
        vals.extend(part)
    return _planes(vals)


def _unpack_states(blob: bytes, n: int) -> tuple[array, array, array]:
    vals = _unpack(blob)
    if len(vals) != 3 * n:
        raise ValueError(f"{len(vals) // 3} states' figures for {n} states")
    return vals[:n], vals[n:2 * n], vals[2 * n:]


def _variance(qs) -> float:
    m = sum(qs) / len(qs)
    return sum((x - m) ** 2 for x in qs) / len(qs)


def _stretched(qs, s: float) -> list[int]:
    """The quantiles ``qs`` spread ``s`` times as far from their mean (whole points)."""
    m = sum(qs) / len(qs)
    return sorted(round(m + s * (x - m)) for x in qs)


def build(ch, progress=None) -> "Laws":
    """The laws of the states of ``ch``'s table (one backward pass; see the module's note):
    ``ch`` a :class:`generala.ai.chances.Chances` of the table (its turns' outcomes)."""
    table = ch.table
    ch.cache_size = max(ch.cache_size, 10 ** 6)
    kind = kind_of(table.model)
    if kind == "exact":
        return Laws(table, kind, [quantiles(law) for law in _exact_laws(ch, progress)])
    laws = _shape_laws(ch, progress)
    figures = _state_figures(ch, progress)
    return Laws(table, kind, [quantiles(law) for law in laws], figures=figures)


def _pack(entries) -> bytes:
    vals = array("H")
    for qs in entries:
        vals.append(qs[0] + _BIAS)
        vals.extend(b - a for a, b in zip(qs, qs[1:]))
    return _planes(vals)


def _planes(vals: array) -> bytes:
    """16-bit values little-endian, their low bytes first, then the high bytes, zlib'd."""
    if sys.byteorder != "little":
        vals.byteswap()
    raw = vals.tobytes()
    return zlib.compress(raw[0::2] + raw[1::2], 9)


def _unpack(blob: bytes) -> array:
    n = len(blob) // 2
    raw = bytearray(2 * n)
    raw[0::2] = blob[:n]
    raw[1::2] = blob[n:]
    vals = array("H")
    vals.frombytes(bytes(raw))
    if sys.byteorder != "little":
        vals.byteswap()
    return vals


class Laws:
    """The laws of one table's states (``exact``: one per state; ``shape``: one per coarse
    key), each read back as a law ``(lowest point, probabilities)`` with the table's mean."""

    def __init__(self, table, kind: str, entries=None, packed: array | None = None,
                 figures=None) -> None:
        self.table = table
        self.model = table.model
        self.kind = kind
        self.exact = kind == "exact"
        self._entries = entries  # lists of quantiles (built), or None (read: ``packed``)
        self._packed = packed
        n = len(entries) if entries is not None else len(packed) // QUANTILES
        want = len(self.model.states) if self.exact else keys_count(self.model)
        if n != want:
            raise ValueError(f"{n} laws for {want} {'states' if self.exact else 'keys'}")
        self.count = n
        # shape: per state, its spread, penalty's chance and gap as stored (_state_figures)
        self.figures = figures
        self._spread = {}  # shape: a key's spread (the variance of its quantiles)
        states = len(self.model.states)
        if not self.exact and (figures is None or any(len(f) != states for f in figures)):
            raise ValueError("shape laws without their states' figures")

    def entry(self, e: int) -> list[int]:
        if self._entries is not None:
            return self._entries[e]
        got = self._packed[e * QUANTILES:(e + 1) * QUANTILES].tolist()
        got[0] -= _BIAS
        return list(accumulate(got))

    def law(self, i: int):
        """The law of the points still to come from state ``i`` (its mean: ``V[i]``)."""
        model = self.model
        V = self.table.V
        if self.exact:
            # not moved to V[i]: the quantiles miss a little of the far tails (Double
            # Generala's 100 points at a few per cent), which moves the mean by up to a
            # point or so; moving the whole law for it shifts its middle, where the chance
            # to win is decided (measured: 3x the error of the law as it is)
            return from_quantiles(self.entry(i))
        mask, x = model.states[i]
        key = coarse_key(model, mask)
        qs = self.entry(key)
        sd, qv, gv = self.figures
        q = qv[i] / Q_SCALE
        gap = (gv[i] - _BIAS) / GAP_SCALE
        if q >= 1.0 or self.table.index.get((mask, SAFE_X)) is None:
            q = gap = 0.0  # no sign left open (or the penalty is certain: one law, moved)
        # the key's shape stretched to the state's own spread, less what the penalty's two
        # copies spread it (never below a third of the key's spread)
        spread = self._spread.get(key)
        if spread is None:
            spread = self._spread[key] = _variance(qs)
        if spread > 0:
            rest = (sd[i] / SD_SCALE) ** 2 - q * (1.0 - q) * gap * gap
            qs = _stretched(qs, math.sqrt(max(rest, spread / 9) / spread))
        if q == 0.0:
            return from_quantiles(qs, V[i])
        # the mandatory total's sign still open: the points to come with the penalty and
        # without it, their means the state's gap apart, the mixture's mean the table's
        without = V[i] - q * gap
        return _mix([(1.0 - q, 0, from_quantiles(qs, without)),
                     (q, 0, from_quantiles(qs, without + gap))])

    # --- files ----------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        entries = [self.entry(e) for e in range(self.count)]
        data = _pack(entries)
        extra = b"" if self.exact else _pack_states(self.figures)
        rules = self.table.rules
        header = {
            "variant": rules.name,
            "options": {k: v for k, v in rules.option_values},
            "states": len(self.model.states),
            "value": self.table.value,
            "kind": self.kind,
            "entries": self.count,
            "quantiles": QUANTILES,
            "encoding": ENCODING,
            "format": "laws of the points still to come under the table's policy (generala.ai.laws): "
                      "per entry (exact: a state, model order; shape: a coarse key) its quantiles at "
                      "(k + 1/2) / 128, the first + 32768 then the steps, uint16, byte planes, zlib",
            "size": len(data),
        }
        if extra:
            header["states_figures"] = {"size": len(extra), "encoding": STATES_ENCODING,
                                        "format": "per state (model order) its spread (sd), then "
                                                  "per state the penalty's chance, then per state "
                                                  "the gap, uint16, byte planes, zlib"}
        head = json.dumps(header, sort_keys=True).encode()
        return MAGIC + len(head).to_bytes(4, "little") + head + data + extra

    def save(self, path) -> int:
        data = self.to_bytes()
        with open(path, "wb") as fh:
            fh.write(data)
        return len(data)

    @classmethod
    def from_bytes(cls, data: bytes, table) -> "Laws":
        """The laws in ``data`` for ``table``; ValueError when they are another table's."""
        if not data.startswith(MAGIC):
            raise ValueError("not a generala laws file")
        n = int.from_bytes(data[len(MAGIC):len(MAGIC) + 4], "little")
        start = len(MAGIC) + 4
        header = json.loads(data[start:start + n])
        if header.get("encoding") != ENCODING or header.get("quantiles") != QUANTILES:
            raise ValueError(f"unknown laws encoding {header.get('encoding')!r}")
        rules = table.rules
        if (header["variant"] != rules.name or header["states"] != len(table.model.states)
                or header["value"] != table.value
                or header["options"] != {k: v for k, v in rules.option_values}):
            raise ValueError("laws file is for another table")
        at = start + n
        packed = _unpack(zlib.decompress(data[at:at + header["size"]]))
        figures = None
        if "states_figures" in header:
            extra = header["states_figures"]
            if extra.get("encoding") != STATES_ENCODING:
                raise ValueError(f"unknown states' figures encoding {extra.get('encoding')!r}")
            at += header["size"]
            figures = _unpack_states(zlib.decompress(data[at:at + extra["size"]]), len(table.model.states))
        return cls(table, header["kind"], packed=packed, figures=figures)

    @classmethod
    def load(cls, path, table) -> "Laws":
        with open(path, "rb") as fh:
            return cls.from_bytes(fh.read(), table)


def path_of(table, tables_dir: Path) -> Path:
    from .solver import table_name
    return tables_dir / laws_name(table_name(table.rules))


def shipped(table) -> bool:
    """Whether ``table``'s laws ship with the site (the default options of a game in
    :data:`SHIPPED`): a missing file is then to be fetched, else the chances do without."""
    from .solver import table_name
    return table.rules.name in SHIPPED and table_name(table.rules) == f"{table.rules.name}.gvt"
