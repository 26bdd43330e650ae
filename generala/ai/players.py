"""Computer players: ``choose(game) -> action``, one step at a time.

Actions are the engine's history format, with ``{"roll": None}`` meaning "roll,
and let the game's roller give the dice"::

    {"roll": None}                       roll the dice that are not held
    {"hold": [i, ...]}                   hold exactly these dice positions
    {"score": "fours"}                   fill a box ({"scratch": True} when it earns 0)
    {"score": ["a", "b"], "split": [..]} ten dice: five positions go to "a"

A player never rolls with a hold it has not set: when it wants to keep other
dice than those held it returns ``{"hold": ...}`` first, then ``{"roll": None}``
on the next call. :func:`step` applies an action; :func:`play` runs a game to
the end. Levels (:data:`LEVELS`): ``beginner``, ``heuristic``, ``optimal``,
``expert`` (plays to win against the other sides in its last turns), ``champion``
(plays for its chance to win all game: :class:`WinningPlayer`).
"""
from __future__ import annotations

import math
from collections import Counter
from itertools import combinations
from typing import NamedTuple

from . import chances as win
from . import strategies
from ..rules.dice import counts
from ..rules.game import positions_of
from .model import Model
from .solver import Table, model_for
from .tables import table_for

ROLL = {"roll": None}
#: Taking the automatic win the dice offer (where a house rule makes it a choice): every
#: level takes it, as it wins the game.
WIN = {"win": True}


def step(game, player) -> dict:
    """Ask ``player`` for the next action of the side to play and apply it; returns the action."""
    return strategies.step(game, player.choose)


def play(game, players, max_steps: int = 100000):
    """Play until the game is over; ``players[side]`` chooses for each side. Returns the game."""
    for _ in range(max_steps):
        if game.over:
            return game
        step(game, players[game.current])
    raise RuntimeError("the game did not end")


def positions_for(dice, keep, held=frozenset()) -> list[int]:
    """Positions of the dice ``keep`` (a multiset) in ``dice``, preferring dice already held."""
    wanted = Counter(keep)
    chosen = []
    for i in sorted(held):
        if wanted[dice[i]] > 0:
            wanted[dice[i]] -= 1
            chosen.append(i)
    for i, v in enumerate(dice):
        if i not in chosen and wanted[v] > 0:
            wanted[v] -= 1
            chosen.append(i)
    return sorted(chosen)


def hold_or_roll(game, keep) -> dict:
    positions = positions_for(game.dice, keep, game.held)
    if frozenset(positions) == game.held:
        return ROLL
    return {"hold": positions}


class Choice(NamedTuple):
    """One thing the side to play can do now, with its expected final score."""

    kind: str  # "roll" (before the first roll), "hold" (keep these, roll the rest), "score"
    keep: tuple  # the dice kept (hold) or () 
    boxes: tuple  # the box(es) filled (score) or ()
    value: float  # expected final score of the side, playing optimally afterwards

    def action(self, game) -> dict:
        if self.kind == "roll":
            return ROLL
        if self.kind == "hold":
            return hold_or_roll(game, self.keep)
        return game.fill_action(*self.boxes).to_json()

    def label(self) -> str:
        if self.kind == "roll":
            return "roll"
        if self.kind == "hold":
            return "keep " + ("".join(map(str, self.keep)) or "nothing") + ", roll"
        return "score " + " + ".join(self.boxes)


class Advisor:
    """Every choice at a point of the game, valued with a table (exact for the solved table)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.model: Model = table.model

    def choices(self, game, side=None, holds: bool = True) -> list[Choice]:
        """Every choice now (``holds`` false: the boxes only, what scoring now is worth)."""
        model, table = self.model, self.table
        V, ix = table.V, table.index
        sheet = game.sheets[game.current if side is None else side]
        state, base = model.state_of(sheet)
        if game.rolls == 0:
            return [Choice("roll", (), (), base + V[ix[state]])]
        hand = tuple(sorted(game.dice))
        out = []
        mask = state[0]
        open_boxes = model.open_boxes(state)
        if model.per_turn == 2:
            hi = model.L.hand_index[hand]
            for a, b in combinations(open_boxes, 2):
                nxt = (mask | model.bit[a] | model.bit[b], 0)
                out.append(Choice("score", (), (a, b),
                                  base + model.pair_best(a, b)[hi] + V[ix[nxt]]))
        else:
            served = game.rolls == 1
            rules = game.rules
            strict = rules.scratch_last or rules.needs_first
            for b in open_boxes:
                if strict and rules.fill_refusal(b, hand, served, sheet) is not None:
                    continue  # a house rule refuses these dice there
                pts, nxt = model.option(state, b, hand, served)
                out.append(Choice("score", (), (b,), base + pts + V[ix[nxt]]))
        if game.rolls < 3 and holds:
            plan = table.turn(state)
            w = plan["w2"] if game.rolls == 1 else plan["w3"]
            index = model.L.index
            n = len(hand)
            for k in model.L.keeps_of(hand):
                if len(k) < n:
                    out.append(Choice("hold", k, (), base + w[len(k)][index[len(k)][k]]))
        return out

    def best(self, game) -> Choice:
        # Ties: the first listed (boxes in sheet order before holds: stop rather than roll).
        return max(self.choices(game), key=lambda c: c.value)


class Player:
    level = "player"
    #: Whether this level plays from the rules' solved value table (shipped, or solved first).
    needs_table = False

    def choose(self, game) -> dict:  # pragma: no cover - interface
        raise NotImplementedError


class OptimalPlayer(Player):
    """Maximises its expected final score (the solved table: exact for the solitaire game)."""

    level = "optimal"
    needs_table = True

    def __init__(self, rules, table: Table | None = None) -> None:
        self.advisor = Advisor(table or table_for(rules))

    def choose(self, game) -> dict:
        if game.rolls == 0:
            return ROLL
        if game.win_offered:
            return WIN
        return self.advisor.best(game).action(game)


def box_pars(model: Model, alpha: float = 0.9) -> dict[str, float]:
    """Rule-of-thumb worth of each box: ``alpha`` × a turn spent on that box alone (5 dice)."""
    L = model.L5
    pars = {}
    for b in model.boxes:
        top = model.later[b]
        w3 = L.expect(top)
        v2 = L.submax(w3)
        w2 = L.expect(v2)
        v1 = L.submax(w2)
        if model.has_served:
            v1 = list(map(max, model.served[b], v1))
        pars[b] = alpha * L.mean(v1)
    return pars


def heuristic_table(rules, alpha: float = 0.9) -> Table:
    """A table that values a state by the sum of its open boxes' pars (no solving needed)."""
    model = model_for(rules)
    pars = box_pars(model, alpha)
    per_mask = {}
    for mask in model.masks_desc:
        per_mask[mask] = sum(p for b, p in pars.items() if not mask & model.bit[b])
    return Table(model, [per_mask[mask] for mask, _ in model.states])


class HeuristicPlayer(OptimalPlayer):
    """Strong rules of thumb: plays each turn exactly, valuing a box by its par.

    Filling box ``b`` with ``p`` points is worth ``p - par(b)``, where ``par(b)``
    is 0.9 × what a whole turn spent on ``b`` alone earns on average; the
    Bulgarian −50 counts the moment it becomes certain. No value table needed.
    """

    level = "heuristic"
    needs_table = False

    def __init__(self, rules, alpha: float = 0.9) -> None:
        self.advisor = Advisor(heuristic_table(rules, alpha))


class BeginnerPlayer(Player):
    """A casual human: keeps the most common face (or a straight draw), takes the most points now."""

    level = "beginner"

    def __init__(self, rules) -> None:
        self.rules = rules
        self.straight_boxes = [b.id for b in rules.boxes
                               if b.kind == "pattern" and len(b.hands) and b.points >= 15]

    def _score(self, game) -> dict:
        rules = self.rules
        sheet = game.sheets[game.current]
        if rules.boxes_per_turn == 2:
            a, b, split = rules.best_play(game.dice, sheet)
            return {"score": [a, b], "split": positions_of(game.dice, split.group_a)}
        preview = game.preview()
        best = max(preview.values())
        if best <= 0:
            # Nothing earns anything: scratch the first open box (the cheap top boxes first),
            # or take the mildest mandatory loss.
            mand = [b for b in preview if b in rules.mandatory]
            if mand:
                box = max(mand, key=lambda b: preview[b])
                return {"score": box}
            box = next(b for b in rules.categories if b in preview)
            return {"score": box, "scratch": True}
        box = next(b for b in rules.categories if b in preview and preview[b] == best)
        return {"score": box}

    def choose(self, game) -> dict:
        if game.rolls == 0:
            return ROLL
        if game.win_offered:
            return WIN
        if game.rolls == 3:
            return self._score(game)
        dice = game.dice
        sheet = game.sheets[game.current]
        if self.rules.dice == 5:
            preview = game.preview()
            # A made big combination in an open box: take it.
            for b in self.rules.boxes:
                if b.kind in ("pattern", "full-house", "four-kind", "five-kind", "general") and \
                        preview.get(b.id, 0) >= 20:
                    return {"score": b.id}
            distinct = sorted(set(dice))
            if any(sheet.get(b) is None for b in self.straight_boxes) and len(distinct) >= 4:
                runs = [r for r in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))
                        if all(v in distinct for v in r)]
                if runs:
                    return hold_or_roll(game, runs[-1])
        c = counts(dice)
        face = max(range(1, 7), key=lambda f: (c[f], f))
        if c[face] == len(dice):
            return self._score(game)
        return hold_or_roll(game, (face,) * c[face])


def _phi(z: float) -> float:
    """The standard normal distribution function (accurate in the lower tail)."""
    return 0.5 * math.erfc(-z * 0.7071067811865476)


#: Variance of the points one turn adds under optimal play; a fallback where a table has no sd.
VAR_PER_TURN = win.VAR_PER_TURN


class ExpertPlayer(OptimalPlayer):
    """Plays to win: maximises the probability of finishing above every other side.

    A sheet at the end of a turn is valued by the expected final score ``m`` (the
    solved table) and the standard deviation ``s`` of what is still to come (the
    table's second moments, or a per-turn estimate); so is each other side's sheet.
    The turn - holds and the box - is then solved exactly for the probability
    of winning, ``P = prod_o Phi((m - m_o) / sqrt(s^2 + s_o^2))`` (normal
    approximations; a tiny share of ``m`` breaks ties). Behind, it takes risks
    (keeps Generala open, goes for the big box); ahead, it plays safe; on its
    last turn against a finished side it plays for exactly the points it needs.
    Alone, it is the optimal player.
    """

    level = "expert"
    #: Weight of the expected score next to the probability of winning (per point).
    score_weight = 1e-4
    #: Plays for the win in its last turns only; before, the normal approximation of the
    #: rest of the game is too rough to beat the exact expected score (measured).
    late_turns = 2

    def __init__(self, rules, table: Table | None = None, score_weight: float | None = None) -> None:
        super().__init__(rules, table)
        if score_weight is not None:
            self.score_weight = score_weight
        self.var_turn = VAR_PER_TURN.get(rules.name, 120.0)
        self._plan_key = None
        self._plan = None
        self._laws = {}

    def _turns_left(self, game, side) -> int:
        open_boxes = sum(v is None for v in game.sheets[side].values())
        return open_boxes // game.rules.boxes_per_turn

    def _var(self, i: int, state) -> float:
        sd = self.advisor.table.SD
        if sd is not None:
            return sd[i] * sd[i]
        model = self.advisor.model
        open_boxes = model.nbox - bin(state[0]).count("1")
        return self.var_turn * open_boxes / model.per_turn

    def _utility_plan(self, game):
        side = game.current
        key = (id(game), game.turn, side)
        if self._plan_key == key:
            return self._plan
        model, table = self.advisor.model, self.advisor.table
        V, ix = table.V, table.index
        state, base = model.state_of(game.sheets[side])
        opponents = []  # (mean, variance) of a final score by its normal law
        exact = []  # [(final score, probability)] of a side with one turn left or none
        for o in range(len(game.sides)):
            if o == side:
                continue
            ostate, obase = model.state_of(game.sheets[o])
            i = ix[ostate]
            open_o = model.nbox - bin(ostate[0]).count("1")
            if open_o == 0:
                exact.append([(obase, 1.0)])
            elif open_o == 1 and model.per_turn == 1:
                exact.append([(obase + v, p) for v, p in self._last_turn_law(ostate)])
            else:
                opponents.append((obase + V[i], self._var(i, ostate) + 0.04))

        def utility(x, var):
            # Probability of finishing first, plus a tiny share of the expected score so
            # that a settled game (probability 0 or 1 whatever it does) is still played well.
            p = 1.0
            for mean, ovar in opponents:
                p *= _phi((x - mean) / math.sqrt(var + ovar))
            if exact:
                scale = 1.0 / math.sqrt(var + 0.04)
                for law in exact:
                    p *= sum(q * _phi((x - y) * scale) for y, q in law)
            return p + weight * x

        weight = self.score_weight
        states = model.states
        succ_cache = {}

        def succ(i):
            got = succ_cache.get(i)
            if got is None:
                got = succ_cache[i] = (V[i], self._var(i, states[i]))
            return got

        vecs = []
        if model.per_turn == 1 and len(model.open_boxes(state)) == 2:
            # Two boxes left: the last turn is solved exactly for the win, for every
            # score this turn can leave (the other sides still by their normal laws).
            last = {}
            for rewards, nxt in model.stops(state, False, ix):
                vec = []
                for r, i in zip(rewards, nxt):
                    key = (i, r)
                    got = last.get(key)
                    if got is None:
                        got = last[key] = self._last_turn(states[i], base + r, utility)
                    vec.append(got)
                vecs.append(vec)
        else:
            for rewards, nxt in model.stops(state, False, ix):
                vecs.append([utility(base + r + succ(i)[0], succ(i)[1]) for r, i in zip(rewards, nxt)])
        u3 = vecs[0] if len(vecs) == 1 else list(map(max, *vecs))
        L = model.L
        w3 = L.expect(u3)
        v2 = L.submax(w3)
        w2 = L.expect(v2)
        self._plan_key, self._plan = key, (state, base, utility, succ, w2, w3)
        return self._plan

    def _last_turn_law(self, state) -> list[tuple[int, float]]:
        """The points of a last turn (one box open) played for the most points, as a law."""
        got = self._laws.get(state)
        if got is not None:
            return got
        model = self.advisor.model
        ix = self.advisor.table.index
        box = next(b for b in model.boxes if not state[0] & model.bit[b])
        L = model.L
        sentinel = (float("-inf"), 0.0)
        later, _ = model.box_terms(state, box, False, ix)
        served = model.box_terms(state, box, True, ix)[0] if model.has_served else None

        def roll(top):
            wv = L.expect([t[0] for t in top])
            wi = L.expect([t[1] for t in top])
            return L.submax([list(zip(a, b)) for a, b in zip(wv, wi)], sentinel)

        law = []
        for v in sorted(set(later) | set(served or ())):
            t1 = roll(roll([(r, 1.0 if r == v else 0.0) for r in later]))
            if served is not None:
                t1 = list(map(max, [(r, 1.0 if r == v else 0.0) for r in served], t1))
            p = sum(q * t[1] for q, t in zip(L.prob, t1))
            if p > 1e-12:
                law.append((v, p))
        self._laws[state] = law
        return law

    def _last_turn(self, state, base, utility) -> float:
        """Probability-of-winning value of a last turn (one box open) with ``base`` points."""
        model = self.advisor.model
        ix = self.advisor.table.index
        box = next(b for b in model.boxes if not state[0] & model.bit[b])
        L = model.L

        def finals(served):
            rewards, _ = model.box_terms(state, box, served, ix)
            return [utility(base + r, 0.0) for r in rewards]

        u3 = finals(False)
        v2 = L.submax(L.expect(u3))
        v1 = L.submax(L.expect(v2))
        if model.has_served:
            v1 = list(map(max, finals(True), v1))
        return L.mean(v1)

    def choose(self, game) -> dict:
        if game.rolls == 0:
            return ROLL
        if game.win_offered:
            return WIN
        if len(game.sides) == 1 or self._turns_left(game, game.current) > self.late_turns:
            return super().choose(game)
        state, base, utility, succ, w2, w3 = self._utility_plan(game)
        model, ix = self.advisor.model, self.advisor.table.index
        choices = self.advisor.choices(game)
        best, best_u = None, -1.0
        for c in choices:
            if c.kind != "score":
                continue
            if model.per_turn == 2:
                nxt = ix[(state[0] | model.bit[c.boxes[0]] | model.bit[c.boxes[1]], 0)]
                u = utility(c.value, succ(nxt)[1])
            else:
                pts, nstate = model.option(state, c.boxes[0], tuple(sorted(game.dice)), game.rolls == 1)
                nxt = ix[nstate]
                if model.nbox - bin(state[0]).count("1") == 2:
                    # as in the plan: the last turn solved exactly for the win
                    u = self._last_turn(nstate, base + pts, utility)
                else:
                    u = utility(c.value, succ(nxt)[1])
            if u > best_u:
                best, best_u = c, u
        if game.rolls < 3:
            w = w2 if game.rolls == 1 else w3
            index = model.L.index
            for c in choices:
                if c.kind == "hold":
                    k = c.keep
                    u = w[len(k)][index[len(k)][k]]
                    if u > best_u + 1e-9:
                        best, best_u = c, u
        return best.action(game)


class WinningPlayer(OptimalPlayer):
    """Plays for the chance to win, every turn, against the sides at the table.

    Each choice - a hold, a box - is valued by the chance to win it leaves
    (:mod:`generala.ai.chances`): the other sides' final scores by their laws under the
    table's policy, its own points now plus the law of what its next state still brings.
    The turn is solved exactly for that chance (every hand and hold of the rolls left).
    A tiny share of the expected final score breaks ties, so that a settled game (won or
    lost whatever it does) is still played for points. Alone, it is the optimal player.
    """

    level = "champion"
    #: Weight of the expected final score next to the chance to win (per point).
    score_weight = 1e-7

    def __init__(self, rules, table: Table | None = None) -> None:
        super().__init__(rules, table)
        self.chances = win.for_table(self.advisor.table)
        self._plan_key = None
        self._plan = None

    def _valuer(self, game):
        """``(state, value(points, next index))`` for the side to play: the chance to win
        (plus the tiny share of the score) of ending its turn with ``points`` more and its
        sheet in that state, against the other sides' laws; each value computed once."""
        model, table, ch = self.advisor.model, self.advisor.table, self.chances
        side = game.current
        against = win.Against([ch.final_law(game, o) for o in range(len(game.sides)) if o != side])
        V, ix, states = table.V, table.index, model.states
        state, base = model.state_of(game.sheets[side])
        weight = self.score_weight
        values = {}

        def value(points, i):
            got = values.get((points, i))
            if got is None:
                x = base + points
                nxt = states[i]
                if nxt[0] == model.full:
                    got = against.at(x) + weight * x
                else:
                    law = ch.remaining(nxt, ch.next_depth(nxt))
                    got = against.expect(law, x) + weight * (x + V[i])
                values[(points, i)] = got
            return got

        return state, value

    def _turn_plan(self, game):
        """The turn's values for the side to play: ``(state, value(points, next index), w2,
        w3)``, kept while the turn and every sheet are the same."""
        model, ix = self.advisor.model, self.advisor.table.index
        key = (id(game), game.turn, tuple(model.state_of(s) for s in game.sheets))
        if self._plan_key == key:
            return self._plan
        state, value = self._valuer(game)
        vecs = [[value(r, i) if r > REFUSED_BELOW else -1.0 for r, i in zip(rewards, succ)]
                for rewards, succ in model.stops(state, False, ix)]
        u3 = vecs[0] if len(vecs) == 1 else list(map(max, *vecs))
        L = model.L
        w3 = L.expect(u3)
        w2 = L.expect(L.submax(w3))
        self._plan_key, self._plan = key, (state, value, w2, w3)
        return self._plan

    def _box_value(self, c: Choice, game, state, value) -> float:
        """The value of the score choice ``c`` (a box, two with ten dice) with the dice now."""
        model, ix = self.advisor.model, self.advisor.table.index
        hand = tuple(sorted(game.dice))
        if model.per_turn == 2:
            a, b = c.boxes
            pts = model.pair_best(a, b)[model.L.hand_index[hand]]
            return value(pts, ix[(state[0] | model.bit[a] | model.bit[b], 0)])
        pts, nstate = model.option(state, c.boxes[0], hand, game.rolls == 1)
        return value(pts, ix[nstate])

    def box_values(self, game) -> list[tuple[Choice, float]]:
        """The score choices now with the chance to win each leaves, as :meth:`valued`
        gives them, without solving the turn's holds (a choice weighed after the fact)."""
        state, value = self._valuer(game)
        return [(c, self._box_value(c, game, state, value))
                for c in self.advisor.choices(game) if c.kind == "score"]

    def valued(self, game) -> list[tuple[Choice, float]]:
        """Every choice now (the advisor's) with the chance to win it leaves (plus the tiny
        share of the score that breaks ties)."""
        model = self.advisor.model
        state, value, w2, w3 = self._turn_plan(game)
        out = []
        for c in self.advisor.choices(game):
            if c.kind == "score":
                u = self._box_value(c, game, state, value)
            elif c.kind == "hold":
                w = w2 if game.rolls == 1 else w3
                k = c.keep
                u = w[len(k)][model.L.index[len(k)][k]]
            else:
                continue
            out.append((c, u))
        return out

    def choose(self, game) -> dict:
        if game.rolls == 0:
            return ROLL
        if game.win_offered:
            return WIN
        if len(game.sides) == 1:
            return super().choose(game)
        best, best_u = None, -2.0
        for c, u in self.valued(game):
            # Ties: the first listed (a box before a hold: stop rather than roll).
            if u > best_u + (1e-12 if c.kind == "hold" else 0.0):
                best, best_u = c, u
        return best.action(game)


#: Rewards at or below this are hands a house rule refuses in a box (``model.REFUSED``).
REFUSED_BELOW = -1e8

LEVELS = {
    "beginner": BeginnerPlayer,
    "heuristic": HeuristicPlayer,
    "optimal": OptimalPlayer,
    "expert": ExpertPlayer,
    "champion": WinningPlayer,
}


def needs_table(level: str) -> bool:
    """Whether the computer ``level`` (a key of :data:`LEVELS`) needs the rules' value table."""
    return LEVELS[level].needs_table


def plays_to_win(level: str) -> bool:
    """Whether the computer ``level`` weighs its choices by the chance to win (the win
    chances' laws: :mod:`generala.ai.chances`)."""
    return issubclass(LEVELS[level], WinningPlayer)


def make_player(level: str, rules) -> Player:
    """A computer player of ``level``, a key of :data:`LEVELS` (``"optimal"``; a side's
    ``player`` names it through :func:`generala.rules.sides.computer_level`)."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None
    return cls(rules)


def strategy(level: str):
    """A ``choose(game)`` function for ``level`` that builds its player for each game's rules.

    Fits :data:`generala.ai.strategies.STRATEGIES`: ``{computer_player(lvl): strategy(lvl) for lvl in LEVELS}``.
    """
    players = {}

    def choose(game) -> dict:
        player = players.get(game.rules)
        if player is None:
            player = players[game.rules] = make_player(level, game.rules)
        return player.choose(game)

    choose.__name__ = f"ai_{level}"
    return choose
