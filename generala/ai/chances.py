"""Win chances: each side's final score as a law, and every side's chance to win from them.

Every side is taken to play the solved table's policy (the highest expected final score,
as the optimal player does). A side's points still to come from a state between turns
have a law, found from the table:

- **stored exact** (``argentine``, ``puerto-rican``, ``double``, default options): the
  law of every state, built once from the table by one backward pass and shipped as
  ``static/tables/<game>.gvl`` (:mod:`generala.ai.laws`: 128 quantiles a state, its mean
  the table's within half a point); used at every depth, nothing played out but the current turn;
- **exact** for the turns it plays out: a turn's outcomes ``(points, next state)`` and their
  probabilities follow the table's holds and boxes roll by roll (:meth:`Chances.outcomes`,
  dice lattice forward, no sampling). Without stored exact laws, a side with ``EXACT``
  turns left or fewer (five in the five-dice games, two in Bulgarian and in Double
  General) has all of them played out: its exact law;
- **approximated** with more turns left: ``DEPTH`` turns played out, then, from a state
  reached after those turns, the points still to come have the stored ``shape`` law
  (``bulgarian``: a law per coarse key moved to the state's table mean, see
  :mod:`generala.ai.laws`), or, without a laws file (house options), a normal law with
  the table's mean and standard deviation (the ``sd`` section the solver's ``--moments``
  writes; a per-turn variance where a table has none), put on the integers.

A laws file that ships but is not read yet (the browser fetches it on demand) is asked for
by :meth:`Chances.need_laws` (the app's NeedTable); until it is there the chances do without.

The side in the middle of its turn has that turn's exact law from the dice it has and the
rolls it has left. The sides' final scores are independent; a side's chance to win is the
chance that it finishes first, a tie for first shared equally among the tied sides (the
ranking gives them one place; RULES.md). Where the rules have an automatic win (a served
Generala, a Big General), each turn still to start gives its side that chance first
(``6 / 6**dice``; argentine: not with Generala scratched), in the order of play.

``chances(game)`` is the view's figure; :class:`Chances` (one per table: :func:`for_rules`)
holds the laws a player weighing its choices asks again and again.
"""
from __future__ import annotations

import math

from . import laws as stored
from . import tables
from .lattice import FACES, NEG
from .solver import Table
from .tables import table_for

#: Variance of the points one turn adds under optimal play (from simulations of the optimal
#: solitaire player: variance of the final score / turns): where a table has no ``sd``.
VAR_PER_TURN = {"argentine": 148.0, "puerto-rican": 110.0, "double": 27.0, "bulgarian": 135.0}
#: Turns played out exactly before the normal law takes over (a side's law is exact with
#: this many turns left or fewer), by game: as many as an update affords (bench/chances.py
#: times). A ten-dice turn costs about ten five-dice turns; Bulgarian's running mandatory
#: total multiplies the states a turn leads to.
DEPTH = {"argentine": 2, "puerto-rican": 2, "double": 1, "bulgarian": 1}
#: A side with this many turns left or fewer has its exact law (every turn played out: the
#: states it may reach are a few dozen, their laws kept for the rest of the game).
EXACT = {"argentine": 5, "puerto-rican": 5, "double": 2, "bulgarian": 2}
_SQRT_HALF = 0.7071067811865476
_TINY = 1e-13

Law = tuple  # (lowest points, [probability of lowest + i for i in range(...)])
POINT = (0, [1.0])


def _phi(z: float) -> float:
    return 0.5 * math.erfc(-z * _SQRT_HALF)


def normal_law(mean: float, sd: float) -> Law:
    """A normal law of ``mean`` and ``sd`` on the integers (each integer takes its unit
    interval), cut at 6 standard deviations and scaled back to 1."""
    if sd < 0.05:
        return (round(mean), [1.0])
    lo = math.floor(mean - 6 * sd)
    hi = math.ceil(mean + 6 * sd)
    inv = 1.0 / sd
    cdf = [_phi((k + 0.5 - mean) * inv) for k in range(lo - 1, hi + 1)]
    probs = [b - a for a, b in zip(cdf, cdf[1:])]
    total = sum(probs)
    return (lo, [p / total for p in probs])


def shift(law: Law, points: int) -> Law:
    return (law[0] + points, law[1])


def mix(parts) -> Law:
    """The law of a mixture: ``parts`` is ``[(weight, points, law), ...]`` (the law shifted
    by ``points``)."""
    lo = min(pts + law[0] for _, pts, law in parts)
    hi = max(pts + law[0] + len(law[1]) for _, pts, law in parts)
    out = [0.0] * (hi - lo)
    for w, pts, (llo, probs) in parts:
        a = pts + llo - lo
        b = a + len(probs)
        out[a:b] = [x + w * q for x, q in zip(out[a:b], probs)]
    return (lo, out)


def mean_of(law: Law) -> float:
    lo, probs = law
    return sum((lo + i) * p for i, p in enumerate(probs))


def _grid(laws):
    lo = min(law[0] for law in laws)
    hi = max(law[0] + len(law[1]) for law in laws)
    dense = []
    for llo, probs in laws:
        row = [0.0] * (hi - lo)
        row[llo - lo:llo - lo + len(probs)] = probs
        dense.append(row)
    below = []
    for row in dense:
        acc, cum = 0.0, []
        for p in row:
            cum.append(acc)
            acc += p
        below.append(cum)
    return lo, dense, below


def _tie_integral(factors) -> float:
    """``∫₀¹ Π (a + b·t) dt`` over ``factors`` ``[(a, b), ...]``: the share of the first
    place a side with a given score expects, ``a`` the chance another side is below it,
    ``b`` that it ties (a tie of ``m`` others shares the place ``m + 1`` ways)."""
    coeffs = [1.0]
    for a, b in factors:
        if b < _TINY:
            coeffs = [c * a for c in coeffs]
            continue
        nxt = [c * a for c in coeffs] + [0.0]
        for m, c in enumerate(coeffs):
            nxt[m + 1] += c * b
        coeffs = nxt
    return sum(c / (m + 1) for m, c in enumerate(coeffs))


def shares(laws) -> list[float]:
    """Each side's chance to finish first (a tie shared) from the laws of the final scores."""
    if len(laws) == 1:
        return [1.0]
    lo, dense, below = _grid(laws)
    n = len(laws)
    out = [0.0] * n
    for k in range(len(dense[0])):
        for i in range(n):
            p = dense[i][k]
            if p < _TINY:
                continue
            out[i] += p * _tie_integral([(below[j][k], dense[j][k]) for j in range(n) if j != i])
    return out


class Against:
    """What a final score is worth to one side against the others' final laws: ``g(x)``,
    its expected share of the first place with exactly ``x`` points."""

    def __init__(self, others) -> None:
        if not others:
            self.lo, self.g = 0, []
            self.alone = True
            return
        self.alone = False
        lo, dense, below = _grid(others)
        n = len(others)
        self.lo = lo
        self.g = [_tie_integral([(below[j][k], dense[j][k]) for j in range(n)])
                  for k in range(len(dense[0]))]

    def at(self, x: int) -> float:
        if self.alone:
            return 1.0
        k = x - self.lo
        if k < 0:
            return 0.0
        if k >= len(self.g):
            return 1.0
        return self.g[k]

    def expect(self, law: Law, points: int) -> float:
        """The chance to win with ``points`` now and ``law`` still to come."""
        if self.alone:
            return 1.0
        llo, probs = law
        start = points + llo - self.lo
        g = self.g
        size = len(g)
        if start >= size:
            return 1.0
        total = 0.0
        if start < 0:
            skip = -start
            probs = probs[skip:]
            start = 0
        end = start + len(probs)
        if end > size:
            total += sum(probs[size - start:])
            probs = probs[:size - start]
        return total + sum(map(float.__mul__, probs, g[start:start + len(probs)]))


def _children(L):
    """``child[k][f]``: for every keep of level ``k``, its index in level ``k + 1`` with one
    more die showing ``f``."""
    got = getattr(L, "_child_lists", None)
    if got is None:
        got = []
        for k in range(L.n):
            nxt = L.index[k + 1]
            got.append([[nxt[tuple(sorted(m + (f,)))] for m in L.levels[k]] for f in FACES])
        L._child_lists = got
    return got


class Chances:
    """The laws of the points to come from a table's states, under the table's policy."""

    cache_size = 4096

    def __init__(self, table: Table, use_laws: bool = True) -> None:
        self.table = table
        self.model = table.model
        # the table's laws file (generala.ai.laws) once read; False: none to use
        self._store = None if use_laws else False
        self._look = True  # whether to look for the laws file (again) at the next ask
        self.depth = DEPTH.get(self.model.name, 1)
        self.exact_turns = max(self.depth, EXACT.get(self.model.name, 1))
        self._outcomes = {}
        self._laws = {}
        L = self.model.L
        self._offsets = []
        total = 0
        for level in L.levels:
            self._offsets.append(total)
            total += len(level)
        self._where = [(k, j) for k, level in enumerate(L.levels) for j in range(len(level))]
        self.var_turn = VAR_PER_TURN.get(self.model.name, 120.0)

    # --- one turn -----------------------------------------------------------------

    def _finals(self, state, served: bool):
        """Every hand's stopping choice: ``(value, points, next state's index)``, the best
        box (or pair) by the table's value."""
        V = self.table.V
        vecs = [[(r + V[i], r, i) for r, i in zip(rewards, succ)]
                for rewards, succ in self.model.stops(state, served, self.table.index)]
        return vecs[0] if len(vecs) == 1 else list(map(max, *vecs))

    def _best_keeps(self, levels) -> list[int]:
        """For every hand, the flat id of its best keep by ``levels`` (keep values; the hand
        itself wins a tie: the table's player stops rather than rolls)."""
        tagged = [list(zip(level, range(off, off + len(level))))
                  for level, off in zip(levels, self._offsets)]
        return [t[1] for t in self.model.L.submax(tagged, (NEG, -1))]

    def outcomes(self, state, hand=None, rolls: int = 0, served_alike: bool = True) -> dict:
        """``{(points, next state's index): probability}`` of a turn from ``state`` played by
        the table's policy: from its start, or from ``hand`` (sorted) after ``rolls`` rolls.
        ``served_alike`` false: given that the first roll is not all alike (the turns of a
        game where that roll wins at once), from the turn's start."""
        key = (state, hand, rolls, served_alike)
        got = self._outcomes.get(key)
        if got is not None:
            return got
        model = self.model
        L = model.L
        nh = len(L.hands)
        plan = self.table.turn(state)
        later = self._finals(state, False)
        out: dict = {}

        def stop(p, final):
            k = (final[1], final[2])
            out[k] = out.get(k, 0.0) + p

        if hand is None:
            stage = [p for p in L.prob]
            if not served_alike:
                alike = [L.hand_index[(f,) * model.dice] for f in FACES]
                keep = 1.0 / (1.0 - sum(stage[h] for h in alike))
                stage = [p * keep for p in stage]
                for h in alike:
                    stage[h] = 0.0
            start = 1
        else:
            stage = [0.0] * nh
            stage[L.hand_index[hand]] = 1.0
            start = rolls
        for roll in range(start, 4):
            if roll == 3:
                for h, p in enumerate(stage):
                    if p > 0.0:
                        stop(p, later[h])
                break
            served = self._finals(state, True) if roll == 1 and model.has_served else None
            w = plan["w2"] if roll == 1 else plan["w3"]
            best = self._best_keeps(w)
            mass = [[0.0] * len(level) for level in L.levels]
            top = len(L.levels) - 1
            for h, p in enumerate(stage):
                if p <= 0.0:
                    continue
                k, j = self._where[best[h]]
                if served is not None and served[h][0] >= w[k][j]:
                    stop(p, served[h])
                elif roll == 2 and k == top:
                    stop(p, later[h])  # keeping every die after the second roll: stop
                else:
                    mass[k][j] += p
            children = _children(L)
            for k in range(top):
                cur, nxt = mass[k], mass[k + 1]
                for child in children[k]:
                    for j, p in enumerate(cur):
                        if p:
                            nxt[child[j]] += p / 6.0
            stage = mass[top]
        if len(self._outcomes) >= self.cache_size:
            self._outcomes.clear()
        self._outcomes[key] = out
        return out

    # --- laws -------------------------------------------------------------------------

    @property
    def stored(self):
        """The table's laws (:class:`generala.ai.laws.Laws`) when their file is there
        (``static/tables/<table>.gvl``), else None: read at the first ask that finds it."""
        got = self._store
        if got is None:
            if not self._look:
                return None
            path = stored.path_of(self.table, tables.TABLES_DIR)
            if not path.is_file():
                self._look = False  # looked again by the next final_law or need_laws
                return None
            try:
                got = stored.Laws.load(path, self.table)
            except (OSError, ValueError):
                got = False  # another table's (a table solved anew), or damaged
            self._store = got
            self._laws.clear()
        return got or None

    def need_laws(self) -> None:
        """:class:`generala.ai.tables.TableMissing` for the laws file when it ships with the
        site (:func:`generala.ai.laws.shipped`) and is not here yet (the browser fetches it:
        NeedTable); without a shipped file the chances do without it."""
        self._look = True
        if self.stored is None and self._store is None and stored.shipped(self.table):
            path = stored.path_of(self.table, tables.TABLES_DIR)
            raise tables.TableMissing(path.name, path)

    def turns_left(self, state) -> int:
        model = self.model
        return (model.nbox - bin(state[0]).count("1")) // model.per_turn

    def next_depth(self, state) -> int:
        """The depth a player weighing its choices asks of a state its box leads to (a choice
        may lead to any of ten states, 36 with ten dice): the next turn exact with five dice;
        with ten, only a last turn."""
        if self.model.dice == 5:
            return 1
        return 1 if self.turns_left(state) <= 1 else 0

    def normal(self, i: int, state) -> Law:
        """The normal law of the points to come from state ``i`` (table mean and sd)."""
        sd = self.table.SD
        var = sd[i] * sd[i] if sd is not None else self.var_turn * self.turns_left(state)
        return normal_law(self.table.V[i], math.sqrt(var))

    def remaining(self, state, depth: int | None = None) -> Law:
        """The law of the points still to come from ``state`` (between turns).

        With the table's exact laws (:attr:`stored`, ``exact``): that law, whatever
        ``depth`` (nothing to play out). Else exact for
        ``depth`` turns, then the stored ``shape`` law, or without a laws file the normal
        law. By default: exact with ``exact_turns`` turns left or fewer, else ``self.depth``
        turns exact."""
        if state[0] == self.model.full:
            return POINT
        store = self.stored
        if store is not None and store.exact:
            depth = 0
        elif depth is None:
            left = self.turns_left(state)
            depth = left if left <= self.exact_turns else self.depth
        key = (state, depth)
        got = self._laws.get(key)
        if got is not None:
            return got
        if depth <= 0:
            i = self.table.index[state]
            got = store.law(i) if store is not None else self.normal(i, state)
        else:
            got = self._mixed(self.outcomes(state), depth - 1)
        if len(self._laws) >= self.cache_size:
            self._laws.clear()
        self._laws[key] = got
        return got

    def _mixed(self, outs: dict, depth: int | None) -> Law:
        states = self.model.states
        return mix([(p, r, self.remaining(states[i], depth))
                    for (r, i), p in outs.items() if p > _TINY])

    def final_law(self, game, side: int) -> Law:
        """The law of ``side``'s final total (its points so far, a settled penalty included)."""
        model = self.model
        self._look = True
        state, base = model.state_of(game.sheets[side])
        if side == game.current and game.rolls > 0 and game.dice is not None:
            outs = self.outcomes(state, tuple(sorted(game.dice)), game.rolls)
            left = self.turns_left(state)
            depth = None if left <= self.exact_turns else self.depth - 1
            return shift(self._mixed(outs, depth), base)
        return shift(self.remaining(state), base)

    def exact(self, game) -> bool:
        """Whether every side's law is exact: the table's exact laws are read (each state's,
        kept to 128 quantiles), or each side has ``exact_turns`` turns or fewer left."""
        store = self.stored
        if store is not None and store.exact:
            return True
        model = self.model
        for side, sheet in enumerate(game.sheets):
            state, _ = model.state_of(sheet)
            if self.turns_left(state) > self.exact_turns:
                return False
        return True


_chances: dict = {}


def for_table(table: Table) -> Chances:
    got = _chances.get(id(table))
    if got is None or got.table is not table:
        got = _chances[id(table)] = Chances(table)
    return got


def for_rules(rules) -> Chances:
    """The :class:`Chances` of ``rules``' value table (:func:`table_for`)."""
    return for_table(table_for(rules))


def auto_win_turns(game) -> list[int]:
    """The sides of the turns still to start that may win at once on their first roll, in
    the order they come (a side's turns to come: its open boxes)."""
    auto = game.rules.auto_win
    if auto is None or game.over:
        return []
    n = len(game.sides)
    per_turn = game.rules.boxes_per_turn
    left = [sum(v is None for v in sheet.values()) // per_turn for sheet in game.sheets]
    out = []
    t = game.turn
    while any(left):
        side = game.order[t % n]
        if left[side]:
            left[side] -= 1
            started = t == game.turn and game.rolls > 0
            lost = auto.forfeit is not None and game.sheets[side].get(auto.forfeit) == 0
            if not started and not lost:
                out.append(side)
        t += 1
    return out


def with_auto_wins(game, by_points: list[float]) -> list[float]:
    """The chances ``by_points`` (the game played to its end) with the automatic wins the
    turns to come may bring, each in its turn (a side that wins so, wins)."""
    q = 6.0 / 6 ** game.rules.dice
    none = 1.0
    first = [0.0] * len(by_points)
    for side in auto_win_turns(game):
        first[side] += none * q
        none *= 1.0 - q
    return [none * c + a for c, a in zip(by_points, first)]


def finished(game) -> list[float]:
    """A finished game's shares of the win: the automatic winner, or the first place shared."""
    if game.auto_win is not None:
        return [1.0 if i == game.auto_win["side"] else 0.0 for i in range(len(game.sides))]
    places = game.ranking()
    firsts = places.count(1)
    return [1.0 / firsts if place == 1 else 0.0 for place in places]


def chances(game, table: Table | None = None) -> list[float]:
    """Every side's chance to win ``game`` from here (see the module's note), one per side
    in the game's order of sides; they add up to 1."""
    if game.over:
        return finished(game)
    if game.win_offered:
        return [1.0 if i == game.current else 0.0 for i in range(len(game.sides))]
    if len(game.sides) == 1:
        return [1.0]
    ch = for_table(table) if table is not None else for_rules(game.rules)
    laws = [ch.final_law(game, side) for side in range(len(game.sides))]
    return with_auto_wins(game, shares(laws))
