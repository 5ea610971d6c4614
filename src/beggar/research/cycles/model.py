"""The SAT model of a cycle: one period of play as clauses over card kinds (solved in
:mod:`beggar.research.cycles.solve`).

Take a two-player position on a cycle at a trick end, with the first hand (seat 0) to lead and
the pile empty, and follow one period of ``L`` cards until the same position returns. Only the
card *kinds* matter: a number card, or a pay card of some value. In one period seat ``p`` turns
``k_p`` cards and wins ``k_p`` back (``k_0 + k_1 = L``); its hand holds ``n_p`` cards at the
trick end. Since the position repeats, the cards seat ``p`` turns form a periodic stream of
period ``k_p``, a *tape* ``T_p`` of ``k_p`` kinds:

- seat ``p``'s ``c``-th turn of the period reads ``T_p[c]``;
- the ``g``-th card seat ``p`` wins in the period (in the order the pile goes under its stack)
  comes up again at its turn ``n_p + g``, so it equals ``T_p[(n_p + g) mod k_p]``;
- the rules are a small machine over (who turns, what is owed) driven by the kinds, and its state
  after ``L`` cards is its state at the start;
- whoever must turn holds a card, and a trick is never won while the loser's stack is empty;
- the hands at the trick end are the tapes read cyclically, and together they hold the deck.

Every card, turn and win is a handful of Boolean variables (one-hot kinds and debts, counters in
the order encoding), every rule a few clauses, and CaDiCaL decides an instance ``(L, k_0, n_0)``:
a position, or a proof that none exists (:mod:`beggar.research.cycles.solve`). The rules of the
machine (pay values, who leads, that the payer who completes a payment loses the pile) come from
:class:`beggar.rules.Rules`; every position the solver gives is played by the reference engine
(:func:`beggar.research.cycles.kinds.replay`) before anyone sees it, and a disagreement is an
error, never a result.

The padding lemma (:func:`pad`) grows a cycle into a larger deck by its tapes.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from beggar.research.cycles.kinds import Composition, ConstructError, Instance, replay

_CARDINALITIES = (
    "counter",
    "tapes",
    "both",
    "totalizer",
    "kmtotalizer",
    "seqcounter",
    "sortnetwrk",
    "cardnetwrk",
    "mtotalizer",
)
"""The encodings of the deck's composition (:meth:`_Period.deck`)."""


class _Cnf:
    """Clauses over numbered variables, with constant literals folded away."""

    def __init__(self) -> None:
        self.top = 1
        self.true = 1
        self.clauses: list[list[int]] = [[1]]

    def new(self) -> int:
        """A new variable."""
        self.top += 1
        return self.top

    def add(self, *literals: int) -> None:
        """Add the clause, dropping false constants; a clause holding a true constant is skipped."""
        # the models hold hundreds of thousands of clauses: the membership tests run in C, and
        # most clauses hold no constant at all
        if self.true in literals:
            return
        false = -self.true
        clause = list(literals) if false not in literals else [lit for lit in literals if lit != false]
        if not clause:
            self.clauses.append([-self.true])  # an empty clause: the instance is unsatisfiable
        else:
            self.clauses.append(clause)

    def one_hot(self, size: int) -> list[int]:
        """``size`` new variables of which exactly one is true."""
        variables = [self.new() for _ in range(size)]
        self.add(*variables)
        for i, first in enumerate(variables):
            for second in variables[i + 1 :]:
                self.add(-first, -second)
        return variables


class _Counter:
    """A counter over time in the order encoding: ``at(t, v)`` is the literal "value at t >= v"."""

    def __init__(self, cnf: _Cnf, cap: int) -> None:
        self.cnf = cnf
        self.cap = cap
        self.rows: list[list[int]] = [[cnf.true]]

    def at(self, t: int, v: int) -> int:
        """The literal "value at time ``t`` >= ``v``" (a constant outside the counter's range)."""
        if v <= 0:
            return self.cnf.true
        row = self.rows[t]
        return row[v] if v < len(row) else -self.cnf.true

    def equals(self, t: int, v: int) -> tuple[int, int]:
        """Two literals whose conjunction says "value at t == v"."""
        return self.at(t, v), -self.at(t, v + 1)

    def _grow(self) -> tuple[_Cnf, int, int]:
        """Append the next time's variables: the clauses, the time before it, and its width."""
        cnf, t = self.cnf, len(self.rows) - 1
        width = min(t + 1, self.cap)
        self.rows.append([cnf.true] + [cnf.new() for _ in range(width)])
        return cnf, t, width

    def step(self, increment: int, *, saturate: bool = False) -> None:
        """Append the next time: the value grows by one where ``increment`` holds.

        At the cap the value may not grow further, or, with ``saturate``, it stays at the cap
        (then "value >= cap" says only that it reached the cap).
        """
        cnf, t, width = self._grow()
        for v in range(1, width + (1 if saturate else 2)):
            nxt = self.at(t + 1, v)
            cnf.add(-self.at(t, v), nxt)
            cnf.add(-self.at(t, v - 1), -increment, nxt)
            cnf.add(-nxt, self.at(t, v), increment)
            cnf.add(-nxt, self.at(t, v - 1))

    def copy_step(self, switch: int, source: Sequence[int]) -> None:
        """Append the next time: ``source[v]`` ("source >= v") where ``switch`` holds, else unchanged."""
        cnf, t, width = self._grow()
        for v in range(1, width + 2):
            nxt = self.at(t + 1, v)
            src = source[v] if v < len(source) else -cnf.true
            cnf.add(-switch, -src, nxt)
            cnf.add(-switch, src, -nxt)
            cnf.add(switch, -self.at(t, v), nxt)
            cnf.add(switch, self.at(t, v), -nxt)

    def at_least_sum(self, t: int, other: _Counter, s: int, bound: int, *guard: int) -> None:
        """Clauses (each also holding ``guard``): this counter at ``t`` plus ``other`` at ``s`` >= bound."""
        for v in range(1, bound + 1):
            self.cnf.add(*guard, self.at(t, v), other.at(s, bound - v + 1))


@dataclass
class RowModel:
    """One model for a whole row ``(L, k1)``: the hand size ``n1`` is chosen by a selector literal.

    The clauses that do not depend on ``n1`` (the machine, the counters, the turns' tape links) are
    built once; those that do (where a won card comes up again, the hands' sizes, the deck's
    composition) are built for each hand size, each clause guarded by that size's selector. The
    solver then decides one instance after another under the assumption of its selector, keeping
    what it learned on the way.
    """

    composition: Composition
    period: int
    k1: int
    cnf: _Cnf
    selectors: dict[int, int]
    """The literal that chooses each hand size ``n1``."""
    cells: list[list[int]]
    """``cells[i][kind]``: card ``i`` of the position (leader's stack first) holds that kind."""
    rows: dict[int, int] = field(default_factory=dict)
    """The literal that chooses each row ``k1`` (of a period model, :func:`build_period`); a row
    model's one row is chosen by the true constant."""
    tapes: tuple[list[list[int]], list[list[int]]] = ([], [])
    """``tapes[p][j][kind]``: cell ``j`` of seat ``p``'s tape holds that kind. Where ``cells`` is
    empty (the ``tapes`` cardinality), the position is decoded from the tapes and blocked by them."""

    def assumptions(self, k1: int, n1: int) -> list[int]:
        """The selectors that ask the instance ``(k1, n1)``."""
        chosen = (self.rows.get(k1, self.cnf.true), self.selectors[n1])
        return [literal for literal in chosen if literal != self.cnf.true]

    def decode(self, assignment: Sequence[int]) -> tuple[int, list[int]]:
        """The hand size and the position (leader-first kinds) an assignment gives."""
        true = {literal for literal in assignment if literal > 0}
        n1 = next(
            n1 for n1, selector in self.selectors.items() if selector in true or selector == self.cnf.true
        )
        if self.cells:
            cells = self.cells
        else:  # the stacks are the tapes read cyclically, in the row the assignment chose
            k1 = next(k1 for k1, row in self.rows.items() if row in true or row == self.cnf.true)
            cells = [self._cell(i, n1, k1) for i in range(self.composition.size)]
        kinds = [next(kind for kind, variable in enumerate(cell) if variable in true) for cell in cells]
        return n1, kinds

    def _cell(self, i: int, n1: int, k1: int) -> list[int]:
        """The tape cell card ``i`` of the position (leader's stack first) is read from, in the row
        ``k1`` with the leader holding ``n1`` cards."""
        if i < n1:
            return self.tapes[0][i % k1]
        return self.tapes[1][(i - n1) % (self.period - k1)]

    def blocking(self, n1: int, kinds: Sequence[int], k1: int | None = None) -> list[int]:
        """A clause that forbids the position ``kinds`` with the leader holding ``n1`` cards (and,
        in a period model, turning ``k1`` in the period)."""
        k1 = self.k1 if k1 is None else k1
        if self.cells:
            clause = {-self.cells[i][kind] for i, kind in enumerate(kinds)}
        else:
            # the position is its tapes read cyclically: the tape cells its cards are read from
            # (each once in the set) name it within the instance. A position whose stacks are not
            # their first k_p cards repeated (another trick end of a cycle, whose leader turns
            # another number of cards) asks two kinds of one cell: a clause the tapes' one-hot
            # kinds already imply, which forbids nothing, as the position is no solution here
            clause = {-self._cell(i, n1, k1)[kind] for i, kind in enumerate(kinds)}
        clause |= {-literal for literal in self.assumptions(k1, n1)}
        return sorted(clause)


def build_row(
    composition: Composition,
    period: int,
    k1: int,
    hands: Sequence[int],
    *,
    least_leader: bool = True,
    conservation: bool = False,
    least_stack: bool = False,
    cardinality: str = "counter",
    shared_bound: bool = False,
    link: str = "tape",
    extremes: bool = False,
) -> RowModel:
    """The SAT model of every instance ``(period, k1, n1)`` with ``n1`` in ``hands`` (a :class:`RowModel`).

    ``conservation`` adds redundant clauses: in one period each seat wins as many cards of each
    kind as it turns. ``least_leader`` asks that no trick end has a leader's stack below ``n1``;
    ``least_stack`` that the other seat's ``N - n1`` cards be the least stack of every trick end
    and that every leader hold more (:mod:`beggar.research.cycles.periods` says why each cycle
    has such a trick end), with ``shared_bound`` writing the part of it that holds for every hand
    size once, unguarded. ``cardinality`` chooses how the deck's composition is encoded
    (:meth:`_Period.deck`). ``link`` chooses how a won card is tied to the tape cell where it
    comes up again (:meth:`_Period.link_won`): ``tape`` (by the number of cards won so far) or
    ``mod`` (by a counter modulo ``k_p`` that starts at ``n_p``). ``extremes`` writes the bounds on
    the stacks once for every hand size (:meth:`_Period.extremes`) instead of once per hand size.
    """
    return _build(
        composition,
        period,
        [k1],
        hands,
        least_leader=least_leader,
        conservation=conservation,
        least_stack=least_stack,
        cardinality=cardinality,
        shared_bound=shared_bound,
        link=link,
        extremes=extremes,
    )


def build_period(
    composition: Composition,
    period: int,
    k1s: Sequence[int],
    hands: Sequence[int],
    *,
    least_leader: bool = False,
    least_stack: bool = True,
    cardinality: str = "counter",
    shared_bound: bool = False,
    link: str = "tape",
    extremes: bool = False,
) -> RowModel:
    """One model for every row ``(period, k1)`` of ``k1s``, each hand size of ``hands``: the instance
    ``(k1, n1)`` is chosen by two selector literals (:meth:`RowModel.assumptions`).

    The machine, the counters and the bounds on the stacks do not depend on ``k1``; the tapes are
    as long as the longest row's, and what does depend on ``k1`` (how many cards each seat turns,
    where the won cards and the position's cards are read on the tapes) is guarded by its row's
    selector, and by the hand size's where it depends on both.
    """
    return _build(
        composition,
        period,
        list(k1s),
        hands,
        least_leader=least_leader,
        conservation=False,
        least_stack=least_stack,
        cardinality=cardinality,
        shared_bound=shared_bound,
        link=link,
        extremes=extremes,
    )


def _build(
    composition: Composition,
    period: int,
    k1s: list[int],
    hands: Sequence[int],
    *,
    least_leader: bool,
    conservation: bool,
    least_stack: bool,
    cardinality: str,
    shared_bound: bool,
    link: str,
    extremes: bool = False,
) -> RowModel:
    """The model of the rows ``k1s`` of ``period`` (each chosen by its selector where there are several)."""
    N = composition.size
    if not (
        period >= 2
        and k1s
        and all(1 <= k1 < period for k1 in k1s)
        and hands
        and all(1 <= n1 < N for n1 in hands)
    ):
        raise ConstructError(
            f"period {period}, k1 {list(k1s)}, n1 {list(hands)}: need 1 <= k1 < period and 1 <= n1 < {N} "
            "(the deck's size)"
        )
    if link not in ("tape", "mod"):
        raise ConstructError(f"link {link!r}: choose 'tape' or 'mod'")
    cnf = _Cnf()
    rows = {k1s[0]: cnf.true} if len(k1s) == 1 else dict(zip(k1s, cnf.one_hot(len(k1s)), strict=True))
    if cardinality not in _CARDINALITIES:
        raise ConstructError(f"cardinality {cardinality!r}: choose one of {', '.join(_CARDINALITIES)}")
    row = _Period(cnf, composition, period, rows, link, cells=cardinality != "tapes")
    if len(hands) == 1:
        selectors = {hands[0]: cnf.true}
    else:
        selectors = dict(zip(hands, cnf.one_hot(len(hands)), strict=True))
    row.machine()
    row.count()
    row.link_tapes()
    if conservation:
        row.conserve()
    if extremes:
        row.extremes(least_stack)
    elif least_stack and shared_bound:
        row.leader_holds_most()
    for n1, selector in selectors.items():
        row.hand_size(n1, -selector, least_leader, least_stack, shared_bound, extremes)
    row.deck(cardinality, selectors)
    return RowModel(composition, period, k1s[0], cnf, selectors, row.cells, rows, row.tapes)


def card_step(value: int, owed: int) -> tuple[int, bool, bool]:
    """The rules' machine on one card turned: what is owed after it, whether the turn passes to the
    other seat, and whether it ends the trick (the other seat then takes the pile and leads).

    A pay card passes the turn and sets what is owed to its pay value; a number card with nothing
    owed passes the turn; with one card owed it ends the trick; with more, the payer turns again.

    >>> card_step(3, 0), card_step(0, 0), card_step(0, 1), card_step(0, 3)
    ((3, True, False), (0, True, False), (0, True, True), (2, False, False))
    """
    if value > 0:
        return value, True, False
    if owed == 0:
        return 0, True, False
    if owed == 1:
        return 0, True, True
    return owed - 1, False, False


class _Period:
    """The variables of one period of ``L`` cards and the clauses over them, part by part.

    Card ``t`` of the period is ``x[t]`` (one-hot kind); before it ``debt[t]`` is owed (one-hot)
    and ``second[t]`` says the second seat turns it; ``ends[t]`` says it ends a trick, won by the
    first seat where ``owner0[t]``. The tapes are the kinds each seat turns in one period,
    ``comes_up`` the tape cells where each seat's won cards come up again (the ``tape`` link), and
    ``cells`` the position at the trick end (the leader's stack first).

    ``rows`` gives the literal that chooses each row ``k1`` (the true constant for a single row);
    the tapes and counters are as long as the longest row needs (``k_max``: the most cards each
    seat turns in any row).
    """

    def __init__(
        self,
        cnf: _Cnf,
        composition: Composition,
        period: int,
        rows: dict[int, int],
        link: str = "tape",
        *,
        cells: bool = True,
    ) -> None:
        self.cnf = cnf
        self.composition = composition
        self.rows, self.link = rows, link
        self.L, self.N = period, composition.size
        self.k_max = (max(rows), max(period - k1 for k1 in rows))
        k1, k2 = self.k_max
        self.values = composition.values
        self.kinds = range(len(self.values))
        self.debts = range(max(self.values) + 1)
        L, size = period, len(self.values)
        self.x = [cnf.one_hot(size) for _ in range(L)]
        self.debt = [cnf.one_hot(len(self.debts)) for _ in range(L + 1)]
        self.second = [cnf.new() for _ in range(L + 1)]
        self.ends = [cnf.new() for _ in range(L)]
        self.owner0 = [cnf.new() for _ in range(L)]
        self.tapes = ([cnf.one_hot(size) for _ in range(k1)], [cnf.one_hot(size) for _ in range(k2)])
        # where the g-th won card of each seat comes up again: the tape turned by n_p (set per hand size)
        self.comes_up: tuple[list[list[int]], list[list[int]]] = ([], [])
        if link == "tape":
            self.comes_up = ([cnf.one_hot(size) for _ in range(k1)], [cnf.one_hot(size) for _ in range(k2)])
        # without cells (the ``tapes`` cardinality) the position is only its tapes read cyclically
        self.cells = [cnf.one_hot(size) for _ in range(self.N)] if cells else []

    def machine(self) -> None:
        """The rules as a machine over (who turns, what is owed), back where it started after L cards."""
        cnf, L, x, debt, second, ends, owner0 = (
            self.cnf, self.L, self.x, self.debt, self.second, self.ends, self.owner0,
        )  # fmt: skip
        cnf.add(-second[0])
        cnf.add(debt[0][0])
        cnf.add(-second[L])
        cnf.add(debt[L][0])
        cnf.add(ends[L - 1])
        for t in range(L):
            for kind in self.kinds:
                value = self.values[kind]
                for owed in self.debts:
                    pre = (-x[t][kind], -debt[t][owed])
                    after, passes, ended = card_step(value, owed)
                    cnf.add(*pre, debt[t + 1][after])
                    cnf.add(*pre, ends[t] if ended else -ends[t])
                    if passes:
                        cnf.add(*pre, second[t], second[t + 1])
                        cnf.add(*pre, -second[t], -second[t + 1])
                    else:
                        cnf.add(*pre, second[t], -second[t + 1])
                        cnf.add(*pre, -second[t], second[t + 1])
            cnf.add(-ends[t], -second[t], owner0[t])
            cnf.add(-ends[t], second[t], -owner0[t])
            if t < L - 1:
                cnf.add(ends[t], -owner0[t + 1], owner0[t])
                cnf.add(ends[t], owner0[t + 1], -owner0[t])

    def count(self) -> None:
        """The counters: the first seat's turns and wins so far, and the cards each seat has won
        back at the last trick end; each seat turns and wins its ``k_p`` cards in the period."""
        cnf, L, (k1_max, k2_max) = self.cnf, self.L, self.k_max
        self.turns = turns = _Counter(cnf, k1_max)
        self.wins = wins = _Counter(cnf, k1_max)
        self.held0 = held0 = _Counter(cnf, k1_max)
        self.held1 = held1 = _Counter(cnf, k2_max)
        for t in range(L):
            turns.step(-self.second[t])
            wins.step(self.owner0[t])
            held0.copy_step(self.ends[t], wins.rows[t + 1])
            held1.copy_step(self.ends[t], [cnf.true] + [-wins.at(t + 1, t + 2 - v) for v in range(1, t + 2)])
        for k1, row in self.rows.items():  # each row's clauses hold its selector (none for one row)
            k2 = L - k1
            for t in range(L + 1):
                if t - k2 >= 1:
                    cnf.add(-row, turns.at(t, t - k2))
                    cnf.add(-row, wins.at(t, t - k2))
            for counter in (turns, wins):
                cnf.add(-row, counter.at(L, k1))
                cnf.add(-row, -counter.at(L, k1 + 1))  # a true constant (no clause) where the cap is k1

    def link_tapes(self) -> None:
        """A seat's ``c``-th turn reads its tape's cell ``c``; its ``g``-th won card is ``comes_up[g]``
        (the ``tape`` link) or the cell its counter modulo ``k_p`` points at (the ``mod`` link)."""
        cnf, x, second, owner0 = self.cnf, self.x, self.second, self.owner0
        tapes, comes_up, (k1, k2) = self.tapes, self.comes_up, self.k_max
        tape_link = self.link == "tape"
        for t in range(self.L):
            for j in range(max(0, t - k2), min(t, k1) + 1):
                is_j = self.turns.equals(t, j)
                has_g = self.wins.equals(t, j)
                c = t - j
                for kind in self.kinds:
                    if j < k1:
                        cnf.add(second[t], -is_j[0], -is_j[1], -x[t][kind], tapes[0][j][kind])
                        if tape_link:
                            cnf.add(-owner0[t], -has_g[0], -has_g[1], -x[t][kind], comes_up[0][j][kind])
                    if c < k2:
                        cnf.add(-second[t], -is_j[0], -is_j[1], -x[t][kind], tapes[1][c][kind])
                        if tape_link:
                            cnf.add(owner0[t], -has_g[0], -has_g[1], -x[t][kind], comes_up[1][c][kind])
        if not tape_link:
            self.link_won()

    def link_won(self) -> None:
        """The ``mod`` link: ``cell[p][t]`` (one-hot) is the tape cell where the next card seat ``p``
        wins comes up again, ``(n_p + g) mod k_p`` after ``g`` won cards. It steps by one, round
        the tape, at each card the seat wins; a won card is the tape's kind at that cell. Where it
        starts is set per hand size (:meth:`hand_size`); where it wraps round, per row."""
        cnf, L, x, owner0 = self.cnf, self.L, self.x, self.owner0
        self.cell: tuple[list[list[int]], list[list[int]]] = ([], [])
        for seat, size in enumerate(self.k_max):
            cell = self.cell[seat]
            cell.extend(cnf.one_hot(size) for _ in range(L + 1))
            # the row whose tape for this seat is v + 1 cards long wraps from cell v to cell 0
            wraps = {(k1 if seat == 0 else L - k1) - 1: row for k1, row in self.rows.items()}
            for t in range(L):
                won = owner0[t] if seat == 0 else -owner0[t]
                for v in range(size):
                    cnf.add(won, -cell[t][v], cell[t + 1][v])
                    wrap = wraps.get(v)
                    if v + 1 < size:
                        cnf.add(-won, -cell[t][v], cell[t + 1][v + 1], *(() if wrap is None else (wrap,)))
                    if wrap is not None:
                        cnf.add(-wrap, -won, -cell[t][v], cell[t + 1][0])
                    for kind in self.kinds:
                        cnf.add(-won, -cell[t][v], -x[t][kind], self.tapes[seat][v][kind])

    def conserve(self) -> None:
        """Redundant clauses: in one period each seat wins as many cards of each kind as it turns."""
        cnf, L = self.cnf, self.L
        for kind in self.kinds:
            for seat, cap in enumerate(self.k_max):
                turned = _Counter(cnf, cap)
                won = _Counter(cnf, cap)
                for t in range(L):
                    mine = -self.second[t] if seat == 0 else self.second[t]
                    owned = self.owner0[t] if seat == 0 else -self.owner0[t]
                    both = (cnf.new(), cnf.new())
                    for literal, var in ((mine, both[0]), (owned, both[1])):
                        cnf.add(-var, literal)
                        cnf.add(-var, self.x[t][kind])
                        cnf.add(var, -literal, -self.x[t][kind])
                    turned.step(both[0])
                    won.step(both[1])
                for v in range(1, cap + 1):
                    cnf.add(-turned.at(L, v), won.at(L, v))
                    cnf.add(turned.at(L, v), -won.at(L, v))

    def leader_holds_most(self) -> None:
        """The least stack's bound that holds for every hand size: at no trick end does the leader's
        seat hold more than at the start (``held0 <= turns``), and where the other seat leads, less."""
        cnf, turns, held0 = self.cnf, self.turns, self.held0
        for t in range(self.L):
            ends, second = self.ends[t], self.second[t]
            for v in range(self.k_max[0] + 1):
                cnf.add(-ends, -held0.at(t + 1, v + 1), turns.at(t + 1, v + 1))
                cnf.add(-ends, second, -held0.at(t + 1, v), turns.at(t + 1, v + 1))

    def extremes(self, least_stack: bool) -> None:
        """The bounds on the stacks for every hand size at once, through the extremes of what each
        seat has lost since the trick end (its turns less its cards won back, ``D_p``).

        Seat ``p`` holds ``n_p - D_p`` cards, so "seat 0 holds a card whenever it turns, and after a
        trick it loses" is ``D_0 <= n1 - 1`` at those times: one bound on the greatest such ``D_0``,
        ``lost[0]`` (order-encoded: ``lost[0][v]`` is implied by any such ``D_0 >= v``), and each hand
        size's clause is the unit ``not lost[0][n1]`` (:meth:`hand_size`). Likewise ``lost[1]`` for
        seat 1 against ``n2``, and, with ``least_stack``, ``least[0]`` (the greatest ``D_0`` at a
        trick end: every stack at least ``n2`` is ``D_0 <= 2 n1 - N``) and ``least[1]`` (where seat 0
        leads after it: ``D_0 <= 2 n1 - N - 1``). Seat 1's least-stack bounds do not depend on the
        hand size (``D_1 <= 0`` at a trick end, ``< 0`` where seat 1 leads) and are written as
        they are. The extremes are only bounded below, so a solution of the guarded bounds is one
        of these and back: the same positions, fewer clauses, and what the solver learns about
        an extreme serves every hand size.
        """
        cnf, L, second, ends = self.cnf, self.L, self.second, self.ends
        turns, held0, held1 = self.turns, self.held0, self.held1
        k1, k2 = self.k_max

        def extreme(size: int) -> list[int]:
            variables = [cnf.true] + [cnf.new() for _ in range(size)]
            for v in range(1, size):
                cnf.add(-variables[v + 1], variables[v])
            return variables

        # the loops stop where a counter's literal is the true constant (no clause): "turns >= w + v"
        # is false past the counter's width at ``t``, and "turns >= t - v - w + 1" true from w = t - v on
        # (the literals each loop reads are looked up once: these loops write most of a row's clauses)
        def lost0(t: int, at_least: Sequence[int], *guard: int) -> None:  # D_0(t) >= v implies at_least[v]
            width = min(t, turns.cap)
            turned = turns.rows[t]  # turned[u]: "turns >= u", for u up to the width
            held = [held0.at(t, w + 1) for w in range(k1 + 1)]
            for v in range(1, min(len(at_least), width + 1)):
                for w in range(min(k1, width - v) + 1):
                    cnf.add(*guard, -turned[w + v], held[w], at_least[v])

        def lost1(t: int, at_least: Sequence[int], *guard: int) -> None:  # D_1(t) >= v implies at_least[v]
            held = [held1.at(t, w + 1) for w in range(k2 + 1)]
            turned = [turns.at(t, u) for u in range(t + 1)]
            for v in range(1, len(at_least)):
                for w in range(min(k2, t - v) + 1):
                    cnf.add(*guard, held[w], turned[t - v - w + 1], at_least[v])

        self.lost = (extreme(k1), extreme(k2))
        self.least = (extreme(k1), extreme(k1)) if least_stack else ([], [])
        counters = (turns, held0, held1)
        for t in range(L):
            lost0(t, self.lost[0], second[t])
            lost0(t + 1, self.lost[0], -ends[t], second[t])
            lost1(t, self.lost[1], -second[t])
            lost1(t + 1, self.lost[1], -ends[t], -second[t])
            if least_stack:
                lost0(t + 1, self.least[0], -ends[t])
                lost0(t + 1, self.least[1], -ends[t], -second[t])
                _hand_at_least(cnf, *counters, t + 1, 0, 0, 0, -ends[t], seat=1)
                _hand_at_least(cnf, *counters, t + 1, 0, 0, 1, -ends[t], second[t], seat=1)

    def hand_size(
        self,
        n1: int,
        guard: int,
        least_leader: bool,
        least_stack: bool = False,
        shared_bound: bool = False,
        extremes: bool = False,
    ) -> None:
        """The clauses of one hand size ``n1``, each holding ``guard`` (its selector, negated): where
        won cards come up again, the position read off the tapes, and who holds cards when."""
        cnf, N, tapes, comes_up = self.cnf, self.N, self.tapes, self.comes_up
        n2 = N - n1
        for k1, row in self.rows.items():
            k2 = self.L - k1
            if self.link == "tape":
                for g in range(k1):
                    for kind in self.kinds:
                        cnf.add(guard, -row, -comes_up[0][g][kind], tapes[0][(n1 + g) % k1][kind])
                for g in range(k2):
                    for kind in self.kinds:
                        cnf.add(guard, -row, -comes_up[1][g][kind], tapes[1][(n2 + g) % k2][kind])
            else:  # the mod link's counters start at n_p mod k_p
                cnf.add(guard, -row, self.cell[0][0][n1 % k1])
                cnf.add(guard, -row, self.cell[1][0][n2 % k2])
            for i in range(N if self.cells else 0):
                cell = tapes[0][i % k1] if i < n1 else tapes[1][(i - n1) % k2]
                for kind in self.kinds:
                    cnf.add(guard, -row, -self.cells[i][kind], cell[kind])
        counters = (self.turns, self.held0, self.held1)
        # the extremes hold positive losses only: a leader's bound of zero or less (n1 <= N / 2)
        # is written as the guarded clauses below
        least_guarded = least_stack and (not extremes or 2 * n1 - N < 1)
        if extremes:  # the bounds of :meth:`extremes`, each a unit clause of this hand size
            bounds = [(self.lost[0], n1), (self.lost[1], n2)]
            if least_stack and not least_guarded:
                bounds += [(self.least[0], 2 * n1 - N + 1), (self.least[1], 2 * n1 - N)]
            for extreme, bound in bounds:
                if bound < len(extreme):
                    cnf.add(guard, -extreme[bound])
        for t in range(self.L):
            second, ends = self.second[t], self.ends[t]
            if extremes:
                if least_leader:
                    _hand_at_least(cnf, *counters, t + 1, n1, n2, n1, guard, -ends, -second, seat=0)
                    _hand_at_least(cnf, *counters, t + 1, n1, n2, n1, guard, -ends, second, seat=1)
                if least_guarded:
                    _hand_at_least(cnf, *counters, t + 1, n1, n2, n2, guard, -ends, seat=0)
                    _hand_at_least(cnf, *counters, t + 1, n1, n2, n2 + 1, guard, -ends, -second, seat=0)
                continue
            _hand_at_least(cnf, *counters, t, n1, n2, 1, guard, second, seat=0)
            _hand_at_least(cnf, *counters, t, n1, n2, 1, guard, -second, seat=1)
            _hand_at_least(cnf, *counters, t + 1, n1, n2, 1, guard, -ends, second, seat=0)
            _hand_at_least(cnf, *counters, t + 1, n1, n2, 1, guard, -ends, -second, seat=1)
            if least_leader:
                _hand_at_least(cnf, *counters, t + 1, n1, n2, n1, guard, -ends, -second, seat=0)
                _hand_at_least(cnf, *counters, t + 1, n1, n2, n1, guard, -ends, second, seat=1)
            if least_stack:
                for seat, leads in ((0, -second),) if shared_bound else ((0, -second), (1, second)):
                    _hand_at_least(cnf, *counters, t + 1, n1, n2, n2, guard, -ends, seat=seat)
                    _hand_at_least(cnf, *counters, t + 1, n1, n2, n2 + 1, guard, -ends, leads, seat=seat)

    def deck(self, cardinality: str = "counter", selectors: dict[int, int] | None = None) -> None:
        """The position holds the deck: as many cards of each pay kind as the composition.

        ``cardinality`` is ``counter`` (the order encoding's counter over the cells), ``tapes``
        (:meth:`deck_on_tapes`, each hand size of ``selectors``), ``both`` (the two, the tapes'
        clauses redundant) or the name of one of
        python-sat's encodings of "exactly" (``totalizer``, ``kmtotalizer``, ``seqcounter``,
        ``sortnetwrk``, ``cardnetwrk``, ``mtotalizer``).
        """
        if cardinality in ("tapes", "both"):
            self.deck_on_tapes(selectors or {})
        if cardinality == "tapes":
            return
        for kind in self.kinds:
            if kind == 0:
                continue
            if cardinality not in ("counter", "both"):
                from pysat.card import CardEnc, EncType

                cells = [cell[kind] for cell in self.cells]
                encoded = CardEnc.equals(
                    cells,
                    self.composition.counts[kind],
                    top_id=self.cnf.top,
                    encoding=getattr(EncType, cardinality),
                )
                self.cnf.top = max(self.cnf.top, encoded.nv)
                for clause in encoded.clauses:
                    self.cnf.add(*clause)
                continue
            count = _Counter(self.cnf, self.composition.counts[kind])
            for cell in self.cells:
                count.step(cell[kind])
            self.cnf.add(count.at(self.N, self.composition.counts[kind]))

    def deck_on_tapes(self, selectors: dict[int, int]) -> None:
        """The deck's composition written on the tapes, without the position's cells.

        Seat ``p``'s stack of ``n_p`` cards is its tape of ``k_p`` cells read cyclically: with
        ``q_p = n_p div k_p`` and ``r_p = n_p mod k_p``, cell ``j`` is read ``q_p + [j < r_p]``
        times. So the position holds ``q_0 A_0 + B_0 + q_1 A_1 + B_1`` cards of a kind, ``A_p``
        the tape's cards of that kind and ``B_p`` those of its first ``r_p`` cells. A prefix
        counter per tape and pay kind gives both (built once); each hand size of each row then
        asks, under its selectors, that the sum be the kind's count (:func:`_weighted_equals`).
        The number cards need nothing: the sizes fix them.
        """
        cnf = self.cnf
        for kind in self.kinds:
            if kind == 0:
                continue
            count = self.composition.counts[kind]
            # "prefix >= count + 1" saturates: a tape longer than the stack may hold more
            prefixes = tuple(_prefix(cnf, [cell[kind] for cell in tape], count + 1) for tape in self.tapes)
            for k1, row in self.rows.items():
                sizes = (k1, self.L - k1)
                for n1, selector in selectors.items():
                    terms: list[tuple[int, list[int]]] = []
                    for seat, n in enumerate((n1, self.N - n1)):
                        q, r = divmod(n, sizes[seat])
                        if q:
                            terms.append((q, prefixes[seat][sizes[seat]]))
                        if r:
                            terms.append((1, prefixes[seat][r]))
                    _weighted_equals(cnf, terms, count, -selector, -row)


def _prefix(cnf: _Cnf, literals: Sequence[int], cap: int) -> list[list[int]]:
    """The order encoding of the number of true ``literals`` among the first ``j``, saturating at
    ``cap``: ``rows[j][v]`` is "at least ``v`` of the first ``j``" for ``v <= min(j, cap)``."""
    count = _Counter(cnf, cap)
    for literal in literals:
        count.step(literal, saturate=True)
    return count.rows


def _weighted_equals(cnf: _Cnf, terms: Sequence[tuple[int, Sequence[int]]], total: int, *guard: int) -> None:
    """Clauses (each also holding ``guard``): the sum of ``weight * value`` over ``terms`` is ``total``.

    Each term is a weight and an order-encoded value (``literals[v]``: "value >= v", the value at
    most ``len(literals) - 1``); the clauses are :func:`_sum_clauses`'.
    """
    weights = tuple(weight for weight, _ in terms)
    tops = tuple(len(literals) - 1 for _, literals in terms)
    for clause in _sum_clauses(weights, tops, total):
        cnf.add(*guard, *(sign * terms[i][1][v] for i, v, sign in clause))


@cache
def _sum_clauses(
    weights: tuple[int, ...], tops: tuple[int, ...], total: int
) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """The clauses of "the sum of ``weights[i] * value[i]`` is ``total``" over order-encoded values
    of at most ``tops[i]``, each literal ``(i, v, sign)`` for ``sign * "value[i] >= v"``.

    "At most" forbids each least combination of values above the total, "at least" each
    greatest combination below it: one clause each. Cached: a row asks the same few shapes for
    every pay kind and many hand sizes.
    """
    clauses = []
    for values in itertools.product(*(range(top + 1) for top in tops)):
        here = sum(w * v for w, v in zip(weights, values, strict=True))
        if here > total and all(here - weights[i] <= total for i, v in enumerate(values) if v):
            clauses.append(tuple((i, v, -1) for i, v in enumerate(values) if v))
        elif here < total and all(here + weights[i] >= total for i, v in enumerate(values) if v < tops[i]):
            clauses.append(tuple((i, v + 1, 1) for i, v in enumerate(values) if v < tops[i]))
    return tuple(clauses)


def _hand_at_least(
    cnf: _Cnf,
    turns: _Counter,
    held0: _Counter,
    held1: _Counter,
    t: int,
    n1: int,
    n2: int,
    least: int,
    *guard: int,
    seat: int,
) -> None:
    """Clauses: unless ``guard`` holds, seat ``seat`` holds at least ``least`` cards before card ``t``.

    Seat 0 holds ``n1 + held0 - turns``; seat 1 holds ``n2 + held1 - (t - turns)``.
    """
    if seat == 0:  # turns <= n1 - least + held0
        for v in range(1, turns.cap + 1):
            need = v - n1 + least
            if need >= 1:
                cnf.add(*guard, -turns.at(t, v), held0.at(t, need))
    else:  # held1 + turns >= t - n2 + least
        held1.at_least_sum(t, turns, t, t - n2 + least, *guard)


@dataclass
class Statistics:
    """Clauses and variables of a model, for measuring encodings."""

    variables: int
    clauses: int
    extra: dict[str, Any] = field(default_factory=dict)


def statistics(composition: Composition, instance: Instance, *, least_leader: bool = True) -> Statistics:
    """The size of an instance's model."""
    model = build_row(composition, instance.period, instance.k1, [instance.n1], least_leader=least_leader)
    return Statistics(model.cnf.top, len(model.cnf.clauses))


# == the padding lemma ===============================================================================


def tapes_of(
    composition: Composition, kinds: Sequence[int], n1: int, period: int
) -> tuple[list[int], list[int]]:
    """The tapes of a position on a cycle: the kinds each seat turns in one period, as the engine plays it."""
    from beggar.engine import CardTurned, Game

    deal = composition.compact(kinds, n1)
    game = Game(deal, composition.rules.unlimited(), first=0, complete=False)
    index = {value: kind for kind, value in enumerate(composition.values)}
    tapes: tuple[list[int], list[int]] = ([], [])
    turned = 0
    while turned < period and not game.over:
        for event in game.step():
            if isinstance(event, CardTurned):
                tapes[event.player].append(index[event.value])
                turned += 1
    return tapes


def pad(
    composition: Composition, kinds: Sequence[int], n1: int, period: int, times: tuple[int, int]
) -> tuple[Composition, list[int], int]:
    """The padding lemma: a position of a cycle with ``times[p]`` more tapes under hand ``p``.

    Appending to hand ``p`` the ``k_p`` cards ``T_p[(n_p + i) mod k_p]`` keeps the position on a
    cycle of the same period, in the larger deck. Returns the larger deck, the padded position
    (leader-first kinds) and its leader's stack size; the engine checks the cycle before it is
    returned. Raises :class:`ConstructError` if the larger deck does not fit the rules' deck.
    """
    tapes = tapes_of(composition, kinds, n1, period)
    hands = [list(kinds[:n1]), list(kinds[n1:])]
    for seat in (0, 1):
        tape, size = tapes[seat], len(hands[seat])
        hands[seat] += [tape[(size + i) % len(tape)] for i in range(times[seat] * len(tape))]
    padded = hands[0] + hands[1]
    counts = tuple(padded.count(kind) for kind in range(len(composition.values)))
    text = ",".join(map(str, counts))
    bigger = Composition.parse(text, composition.rules)
    _, cycle = replay(bigger, padded, Instance(period, len(tapes[0]), len(hands[0])))
    if cycle.period_cards != period:
        raise ConstructError(f"padding changed the period from {period} to {cycle.period_cards}")
    return bigger, padded, len(hands[0])
