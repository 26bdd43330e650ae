"""The solitaire model of a variant: states between turns, their transitions, and one turn.

A state between turns is ``(mask, x)``: ``mask`` has bit ``i`` set when box ``i``
(sheet order) is filled, and ``x`` is what the rest of the game's scoring still
depends on:

- a sheet with a box that needs another (Double Generala needs Generala): ``x = 1``
  when the needed box (the gate) holds points, so that the other may score, else 0;
- mandatory boxes (Bulgarian): the running mandatory total, as long as the sign of
  the final mandatory total can still change; once it cannot, ``x = SAFE`` and a
  certain penalty (−50) is charged at the moment it becomes certain;
- otherwise ``x = 0``.

``V[state]`` is the optimal expected number of points still to come (penalty
included). Automatic wins are not modelled: a served five alike scores like any
other roll (the solitaire game).
"""
from __future__ import annotations

from itertools import combinations
from operator import itemgetter

from .lattice import FACES, NEG, lattice

SAFE = 1000  # Bulgarian: the mandatory total's sign is settled
#: The value of a hand a house rule refuses in a box (never chosen: some other box takes it).
REFUSED = -1e9


class Model:
    def __init__(self, rules) -> None:
        self.rules = rules
        self.name = rules.name
        self.boxes: tuple[str, ...] = rules.categories
        self.nbox = len(self.boxes)
        self.bit = {b: 1 << i for i, b in enumerate(self.boxes)}
        self.full = (1 << self.nbox) - 1
        self.per_turn = rules.boxes_per_turn
        self.dice = rules.dice
        self.L = lattice(rules.dice)
        self.L5 = lattice(5)
        hands5 = self.L5.hands
        price = rules.price
        self.mandatory = tuple(rules.mandatory)
        needs = rules.needs
        if len(needs) > 1 or (needs and self.mandatory):
            raise NotImplementedError(f"{rules!r}: the model follows one box that needs another, "
                                      "and not with mandatory boxes")
        #: The box whose points let another score (Generala), and that other box.
        self.gated, self.gate = next(iter(needs.items()), (None, None))
        gsheet = {self.gate: 1} if self.gate else None
        self.later = {b: [price(b, h, False, gsheet) for h in hands5] for b in self.boxes}
        self.served = {b: [price(b, h, True, gsheet) for h in hands5] for b in self.boxes}
        self.has_served = rules.dice == 5 and any(
            self.later[b] != self.served[b] for b in self.boxes)
        self.penalty = rules.spec.penalty
        # House rules that refuse some hands in a box while another box is open:
        # (box, served) -> (that box, one flag a hand: refused)
        self._refusals = {}
        for box, after in rules.scratch_last.items():  # written 0 only once ``after`` is filled
            for served in (False, True):
                prices = self.served[box] if served else self.later[box]
                self._refusals[(box, served)] = (after, [p == 0 for p in prices])
        for box, needs in rules.needs_first.items():  # no scoring hand while ``needs`` is open
            for served in (False, True):
                prices = self.served[box] if served else self.later[box]
                self._refusals[(box, served)] = (needs, [p > 0 for p in prices])
        self.face_count = [[h.count(f) for h in hands5] for f in range(7)]
        self._pair_best = {}
        self._enumerate()

    # --- states -----------------------------------------------------------

    def _enumerate(self) -> None:
        n = self.nbox
        masks = [m for m in range(1 << n)
                 if bin(m).count("1") % self.per_turn == 0]
        masks.sort(key=lambda m: (-bin(m).count("1"), m))
        self.masks_desc = masks
        self.xs_of = {}
        if self.mandatory:
            self.mand_bits = [self.bit[b] for b in self.mandatory]  # face f -> mand_bits[f-1]
            self.mand_all = sum(self.mand_bits)
            reach = {}
            for s in range(64):
                ts = {0}
                for f in FACES:
                    if s >> (f - 1) & 1:
                        ts = {t + (c - 3) * f for t in ts for c in range(6)}
                rsum = sum(f for f in FACES if not s >> (f - 1) & 1)
                xs = sorted(t for t in ts if -2 * rsum <= t < 3 * rsum)
                reach[s] = tuple(xs) + (SAFE,) if s != 0 else (0,)
            self._reach = reach
            for m in masks:
                self.xs_of[m] = reach[self._mand_set(m)]
        elif self.gate:
            g = self.bit[self.gate]
            for m in masks:
                self.xs_of[m] = (0, 1) if m & g else (0,)
        else:
            for m in masks:
                self.xs_of[m] = (0,)
        self.states = [(m, x) for m in sorted(masks) for x in self.xs_of[m]]
        self.index = {s: i for i, s in enumerate(self.states)}

    def _mand_set(self, mask: int) -> int:
        s = 0
        for f in FACES:
            if mask & self.mand_bits[f - 1]:
                s |= 1 << (f - 1)
        return s

    def _norm(self, mask: int, t: int) -> tuple[int, int]:
        """Bulgarian: the state's x for running total t, and a penalty settled now."""
        rsum = sum(f for f in FACES if not mask & self.mand_bits[f - 1])
        if t >= 3 * rsum:
            return SAFE, 0
        if t < -2 * rsum:
            return SAFE, -self.penalty
        return t, 0

    def state_of(self, sheet) -> tuple[tuple[int, int], int]:
        """The state of a sheet and the points it already holds (a settled penalty included)."""
        mask = 0
        base = 0
        for b in self.boxes:
            v = sheet.get(b)
            if v is not None:
                mask |= self.bit[b]
                base += v
        x = 0
        if self.mandatory:
            t = sum(sheet.get(b) or 0 for b in self.mandatory)
            if mask & self.mand_all == 0:
                x = 0
            else:
                x, pen = self._norm(mask, t)
                base += pen
        elif self.gate and sheet.get(self.gate):
            x = 1
        return (mask, x), base

    # --- one box: what it pays and where it leads --------------------------

    def _refused(self, mask: int, box: str, served: bool) -> list[bool] | None:
        """One flag a hand: refused in ``box`` now by a house rule (None: none is)."""
        rule = self._refusals.get((box, served))
        if rule is None or mask & self.bit[rule[0]]:
            return None
        return rule[1]

    def refuses(self, state, box: str, hand: tuple[int, ...], served: bool) -> bool:
        """Whether a house rule refuses ``hand`` (5 dice) in ``box`` from ``state``."""
        flags = self._refused(state[0], box, served) if self._refusals else None
        return bool(flags and flags[self.L5.hand_index[hand]])

    def _mark(self, values: list, state, box: str, served: bool) -> list:
        flags = self._refused(state[0], box, served) if self._refusals else None
        if flags is None:
            return values
        return [REFUSED if no else v for v, no in zip(values, flags)]

    def after_zero(self, state, box: str) -> tuple[int, int]:
        """The next state when ``box`` is filled with 0 (scratched)."""
        mask, x = state
        return mask | self.bit[box], 0 if box == self.gate else x

    def option(self, state, box: str, hand: tuple[int, ...], served: bool):
        """Points now and the next state when ``hand`` goes to ``box`` (5 dice)."""
        mask, x = state
        nmask = mask | self.bit[box]
        hi = self.L5.hand_index[hand]
        pts = (self.served if served else self.later)[box][hi]
        if self.mandatory:
            if box in self.mandatory:
                if x == SAFE:
                    return pts, (nmask, SAFE)
                nx, pen = self._norm(nmask, x + pts)
                return pts + pen, (nmask, nx)
            return pts, (nmask, x)
        if self.gate:
            if box == self.gate:
                return pts, (nmask, 1 if pts > 0 else 0)
            if box == self.gated and not x:
                return 0, (nmask, x)
        return pts, (nmask, x)

    def box_vector(self, state, box: str, served: bool, V, index) -> list[float]:
        """``points + V[next state]`` for every hand put in ``box`` (5 dice); ``REFUSED`` for
        a hand a house rule refuses there."""
        return self._mark(self._box_vector(state, box, served, V, index), state, box, served)

    def _box_vector(self, state, box: str, served: bool, V, index) -> list[float]:
        mask, x = state
        nmask = mask | self.bit[box]
        prices = (self.served if served else self.later)[box]
        if self.mandatory and box in self.mandatory and x != SAFE:
            f = self.mandatory.index(box) + 1
            vals = []
            for c in range(6):
                d = (c - 3) * f
                nx, pen = self._norm(nmask, x + d)
                vals.append(d + pen + V[index[(nmask, nx)]])
            return [vals[c] for c in self.face_count[f]]
        if self.gate:
            if box == self.gate:
                c0 = V[index[(nmask, 0)]]
                c1 = V[index[(nmask, 1)]]
                return [p + c1 if p else c0 for p in prices]
            if box == self.gated and not x:
                return [V[index[(nmask, x)]]] * len(prices)
        c = V[index[(nmask, x)]]
        return [p + c for p in prices]

    # --- ten dice: two boxes ------------------------------------------------

    def pair_best(self, a: str, b: str) -> list[float]:
        """Best split points of every ten-dice hand into boxes a and b."""
        key = (a, b) if a < b else (b, a)
        got = self._pair_best.get(key)
        if got is None:
            first, second, bounds = self._splits()
            sums = list(map(int.__add__, first(self.later[key[0]]), second(self.later[key[1]])))
            got = [max(sums[s:e]) for s, e in bounds]
            self._pair_best[key] = got
        return got

    def _splits(self):
        """Every ordered split of every ten-dice hand into two five-dice hands, grouped by hand.

        Returns gatherers of the first and second groups' hand indices (for price lists)
        and each ten-dice hand's slice of the flat list.
        """
        sp = getattr(self, "_splits_cache", None)
        if sp is None:
            hands5 = self.L5.hands
            idx10 = self.L.hand_index
            groups = [[] for _ in self.L.hands]
            for i, g in enumerate(hands5):
                for j, h in enumerate(hands5):
                    groups[idx10[tuple(sorted(g + h))]].append((i, j))
            first, second, bounds = [], [], []
            for pairs in groups:
                start = len(first)
                for i, j in pairs:
                    first.append(i)
                    second.append(j)
                bounds.append((start, len(first)))
            sp = self._splits_cache = (itemgetter(*first), itemgetter(*second), bounds)
        return sp

    # --- one turn -------------------------------------------------------------

    def finals(self, state, V, index, served: bool = False) -> list[float]:
        """Value of every hand when the turn ends now with it (best box choice)."""
        mask, _ = state
        open_boxes = [b for b in self.boxes if not mask & self.bit[b]]
        if self.per_turn == 2:
            vecs = []
            for a, b in combinations(open_boxes, 2):
                c = V[index[(mask | self.bit[a] | self.bit[b], 0)]]
                vecs.append([p + c for p in self.pair_best(a, b)])
        else:
            vecs = [self.box_vector(state, b, served, V, index) for b in open_boxes]
        if len(vecs) == 1:
            return vecs[0]
        return list(map(max, *vecs))

    def turn(self, state, V, index, keep_levels: bool = False):
        """Solve one turn from ``state``: its value, and (optionally) the keep values."""
        L = self.L
        v3 = self.finals(state, V, index)
        w3 = L.expect(v3)
        v2 = L.submax(w3)
        w2 = L.expect(v2)
        b2 = L.submax(w2)
        if self.has_served:
            vs = self.finals(state, V, index, served=True)
            v1 = list(map(max, vs, b2))
        else:
            vs = None
            v1 = b2
        value = L.mean(v1)
        if keep_levels:
            return value, {"v3": v3, "w3": w3, "v2": v2, "w2": w2, "vs": vs, "v1": v1}
        return value

    # --- second moments (for players that weigh risk) ---------------------------

    def box_terms(self, state, box: str, served: bool, index):
        """Points now and next-state index of every hand put in ``box`` (5 dice), as two lists
        (``REFUSED`` points for a hand a house rule refuses there)."""
        rewards, succ = self._box_terms(state, box, served, index)
        return self._mark(rewards, state, box, served), succ

    def _box_terms(self, state, box: str, served: bool, index):
        mask, x = state
        nmask = mask | self.bit[box]
        prices = (self.served if served else self.later)[box]
        if self.mandatory and box in self.mandatory and x != SAFE:
            f = self.mandatory.index(box) + 1
            per_count = []
            for c in range(6):
                d = (c - 3) * f
                nx, pen = self._norm(nmask, x + d)
                per_count.append((d + pen, index[(nmask, nx)]))
            terms = [per_count[c] for c in self.face_count[f]]
            return [t[0] for t in terms], [t[1] for t in terms]
        if self.gate:
            if box == self.gate:
                i0, i1 = index[(nmask, 0)], index[(nmask, 1)]
                return list(prices), [i1 if p else i0 for p in prices]
            if box == self.gated and not x:
                return [0] * len(prices), [index[(nmask, x)]] * len(prices)
        return list(prices), [index[(nmask, x)]] * len(prices)

    def open_boxes(self, state) -> list[str]:
        """The boxes still open in ``state``, in the sheet's order."""
        return [b for b in self.boxes if not state[0] & self.bit[b]]

    def stops(self, state, served: bool, index):
        """Every way to end a turn from ``state``, one at a time: each open box (ten dice:
        each pair of open boxes) as two lists over the hands, the points now (``REFUSED``
        where a house rule refuses the hand there) and the next state's index."""
        open_boxes = self.open_boxes(state)
        if self.per_turn == 2:
            for a, b in combinations(open_boxes, 2):
                points = self.pair_best(a, b)
                yield points, [index[(state[0] | self.bit[a] | self.bit[b], 0)]] * len(points)
        else:
            for b in open_boxes:
                yield self.box_terms(state, b, served, index)

    def _final_pairs(self, state, V, M2, index, served):
        vecs = [[(r + V[i], r * r + 2 * r * V[i] + M2[i]) for r, i in zip(rewards, succ)]
                for rewards, succ in self.stops(state, served, index)]
        if len(vecs) == 1:
            return vecs[0]
        return list(map(max, *vecs))

    def turn_moments(self, state, V, M2, index) -> tuple[float, float]:
        """Mean and second moment of the points still to come from ``state`` under the
        policy that maximises the mean (ties: the larger second moment)."""
        L = self.L
        sentinel = (NEG, 0.0)

        def roll(top):
            wv = L.expect([t[0] for t in top])
            wm = L.expect([t[1] for t in top])
            return L.submax([list(zip(a, b)) for a, b in zip(wv, wm)], sentinel)

        t3 = self._final_pairs(state, V, M2, index, False)
        t2 = roll(t3)
        t1 = roll(t2)
        if self.has_served:
            t1 = list(map(max, self._final_pairs(state, V, M2, index, True), t1))
        mean = sum(p * t[0] for p, t in zip(L.prob, t1))
        second = sum(p * t[1] for p, t in zip(L.prob, t1))
        return mean, second
