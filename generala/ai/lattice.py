"""The dice lattice of one turn: every multiset of up to ``n`` dice, by size.

A *keep* is a multiset of held dice (sizes 0..n); a *hand* is a keep of size n.
Two list operations, written so that CPython does the loops in C
(``operator.itemgetter`` gathers, ``map(max, ...)``):

- ``expect(top)``: for every keep, the expected value of rolling the missing
  dice, given the values ``top`` of the hands. Rolling the missing dice one at a
  time gives the same distribution, so ``W(K) = mean over faces f of W(K + f)``.
- ``submax(levels)``: for every keep, the best value over its sub-multisets,
  ``B(K) = max(W(K), B(K - f) for f in K)``; on hands this is the value of the
  best hold (holding everything = stopping, whose value is ``W(H)``).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from operator import itemgetter

FACES = (1, 2, 3, 4, 5, 6)
NEG = float("-inf")
SIXTH = 1.0 / 6.0


def _getter(indices: list[int]):
    if len(indices) == 1:
        i = indices[0]
        return lambda seq: (seq[i],)
    return itemgetter(*indices)


class Lattice:
    def __init__(self, n: int) -> None:
        self.n = n
        self.levels: list[list[tuple[int, ...]]] = [
            list(combinations_with_replacement(FACES, k)) for k in range(n + 1)
        ]
        self.index: list[dict[tuple[int, ...], int]] = [
            {m: i for i, m in enumerate(level)} for level in self.levels
        ]
        # child[k][f-1][i]: index in level k+1 of levels[k][i] + (f,)
        self.child_get = []
        for k in range(n):
            nxt = self.index[k + 1]
            per_face = []
            for f in FACES:
                per_face.append(_getter([nxt[tuple(sorted(m + (f,)))] for m in self.levels[k]]))
            self.child_get.append(per_face)
        # parent[k][f-1][i]: index in level k-1 of levels[k][i] minus one f (or the sentinel)
        self.parent_get = [None]
        for k in range(1, n + 1):
            prev = self.index[k - 1]
            sentinel = len(self.levels[k - 1])
            per_face = []
            for f in FACES:
                idx = []
                for m in self.levels[k]:
                    if f in m:
                        lst = list(m)
                        lst.remove(f)
                        idx.append(prev[tuple(lst)])
                    else:
                        idx.append(sentinel)
                if any(i != sentinel for i in idx):
                    per_face.append(_getter(idx))
            self.parent_get.append(per_face)
        hands = self.levels[n]
        total = 6 ** n
        self.hands = hands
        self.hand_index = self.index[n]
        self.prob = []
        for h in hands:
            ways = factorial(n)
            for f in FACES:
                ways //= factorial(h.count(f))
            self.prob.append(ways / total)

    def expect(self, top: list[float]) -> list[list[float]]:
        """Levels 0..n of keep values, from the hand values ``top``."""
        levels = [None] * (self.n + 1)
        levels[self.n] = top
        cur = top
        for k in range(self.n - 1, -1, -1):
            g1, g2, g3, g4, g5, g6 = self.child_get[k]
            cur = [(a + b + c + d + e + f) * SIXTH
                   for a, b, c, d, e, f in zip(g1(cur), g2(cur), g3(cur), g4(cur), g5(cur), g6(cur))]
            levels[k] = cur
        return levels

    def submax(self, levels: list[list[float]], sentinel=NEG) -> list[float]:
        """Best sub-keep value of every hand (top level), from all keep levels.

        Works on tuples too (``(value, companion)`` with ``sentinel=(NEG, 0.0)``): the
        companion of the best keep comes along.
        """
        prev = levels[0]
        for k in range(1, self.n + 1):
            ext = prev + [sentinel]
            prev = list(map(max, levels[k], *[g(ext) for g in self.parent_get[k]]))
        return prev

    def mean(self, top: list[float]) -> float:
        """Expected value of a fresh roll of all n dice."""
        return sum(map(float.__mul__, self.prob, top))

    def keeps_of(self, hand: tuple[int, ...]):
        """Every distinct sub-multiset of a sorted hand, as sorted tuples."""
        result = [()]
        for f in FACES:
            c = hand.count(f)
            if c:
                result = [r + (f,) * j for r in result for j in range(c + 1)]
        return result


@lru_cache(maxsize=None)
def lattice(n: int) -> Lattice:
    return Lattice(n)
