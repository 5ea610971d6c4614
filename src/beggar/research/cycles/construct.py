"""Never-ending games by construction: a cycle as the solution of a SAT model.

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
a position, or a proof that none exists. The rules of the machine (pay values, who leads, that
the payer who completes a payment loses the pile) come from :class:`beggar.rules.Rules`; every
position the solver gives is played by the reference engine (:func:`beggar.cycle.find_cycle`)
before anyone sees it, and a disagreement is an error, never a result.

>>> from beggar.rules import rules_named
>>> deck = Composition.parse("6,2,1,1", rules_named("standard"))
>>> answer = solve(deck, Instance(period=30, k1=16, n1=4))
>>> answer.status, answer.deal, answer.cycle.period_tricks
('sat', '--J-/Q-K-J-', 6)
>>> solve(deck, Instance(period=30, k1=16, n1=5)).status
'unsat'
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from beggar.cycle import Cycle, find_cycle
from beggar.engine import Position
from beggar.research.cluster import die_with_parent
from beggar.rules import Rules, parse_whole

SAT = "sat"
UNSAT = "unsat"
UNKNOWN = "unknown"


class ConstructError(ValueError):
    """A deck, period or split the model cannot take, or a solver answer the engine refutes."""


# == the deck as kinds ===============================================================================


@dataclass(frozen=True)
class Composition:
    """A deck as card kinds: how many number cards, and how many pay cards of each value.

    ``values[0]`` is 0 (number cards); the other kinds are the pay values of the rules' pay ranks,
    in rank order, each rank its own value.
    """

    rules: Rules
    values: tuple[int, ...]
    counts: tuple[int, ...]

    @classmethod
    def of(cls, rules: Rules) -> Composition:
        """The whole deck of ``rules``."""
        _check_rules(rules)
        found = Counter(rules.pay_value(card) for card in rules.deck.cards())
        values = (0, *(value for _, value in rules.pay))
        return cls(rules, values, tuple(found.get(value, 0) for value in values))

    @classmethod
    def parse(cls, text: str, rules: Rules) -> Composition:
        """A composition written ``6,2,1,1``: number cards, then cards of each pay rank in rank order.

        >>> from beggar.rules import STANDARD
        >>> Composition.parse("6,2,1,1", STANDARD).describe()
        '-6 J2 Q1 K1 A0'
        >>> Composition.parse("6,x", STANDARD)
        Traceback (most recent call last):
        ...
        beggar.research.cycles.construct.ConstructError: bad --cards '6,x': write whole numbers ...
        """
        _check_rules(rules)
        ranks = "".join(rank.symbol for rank, _ in rules.pay)
        example = ", ".join(rank.symbol for rank, _ in rules.pay)
        hint = f"for example 6,2,1,1 (number cards, then {example})"
        try:
            counts = [parse_whole(part.strip(), 0, 1_000, "each count") for part in text.split(",")]
        except ValueError:
            raise ConstructError(
                f"bad --cards {text!r}: write whole numbers separated by commas, {hint}"
            ) from None
        if len(counts) > len(rules.pay) + 1:
            raise ConstructError(
                f"bad --cards {text!r}: these rules have {len(rules.pay)} pay ranks ({ranks}), "
                f"so give at most {len(rules.pay) + 1} numbers"
            )
        counts += [0] * (len(rules.pay) + 1 - len(counts))
        available = Composition.of(rules)
        for (value, want), have, symbol in zip(
            zip(available.values, counts, strict=True), available.counts, ("-", *ranks), strict=True
        ):
            if want > have:
                raise ConstructError(
                    f"bad --cards {text!r}: {want} cards {symbol!r} (pay {value}), "
                    f"but the {rules.deck.describe()} holds {have}"
                )
        if sum(counts[1:]) == 0:
            raise ConstructError(f"bad --cards {text!r}: a deck with no pay card never loops")
        if sum(counts) < 2:
            raise ConstructError(f"bad --cards {text!r}: two players need at least two cards")
        return cls(rules, available.values, tuple(counts))

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return sum(self.counts)

    @property
    def full(self) -> bool:
        """True if this is the rules' whole deck."""
        return self.counts == Composition.of(self.rules).counts

    @property
    def symbols(self) -> tuple[str, ...]:
        """The compact symbol of each kind: ``-`` and the pay ranks."""
        return ("-", *(rank.symbol for rank, _ in self.rules.pay))

    def describe(self) -> str:
        """``-28 J4 Q4 K4``: cards of each kind."""
        return " ".join(f"{s}{c}" for s, c in zip(self.symbols, self.counts, strict=True))

    def key(self) -> str:
        """The name of this deck in the store: the rules spec, and the counts if not the whole deck."""
        if self.full:
            return self.rules.name
        return f"{self.rules.name}[{','.join(map(str, self.counts))}]"

    def compact(self, kinds: Sequence[int], lead_size: int) -> str:
        """Leader-first kinds (indices into :attr:`values`) as a position in compact notation.

        Cards that pay nothing beyond the deck's number cards (the aces of the Italian game) are
        written with their own rank, as :mod:`beggar.research.cycles.canon` writes them.
        """
        from beggar.research.cycles.canon import (
            Alphabet,  # compiled code: loaded only when a position is written
        )

        pay = [self.values[kind] for kind in kinds]
        return Alphabet.of(self.rules).compact(pay, lead_size)


def _check_rules(rules: Rules) -> None:
    """Refuse rules the model cannot take: more than two players, paying number cards, shared pay values."""
    if rules.players != 2:
        raise ConstructError("the cycle model is for two players")
    if rules.number_ranks_pay:
        raise ConstructError("the cycle model writes positions compactly, so number cards must not pay")
    values = [value for _, value in rules.pay]
    if len(set(values)) != len(values):
        raise ConstructError("the cycle model needs each pay rank to have its own pay value")


# == the model =======================================================================================


@dataclass(frozen=True)
class Instance:
    """One question: a cycle of ``period`` cards whose leader turns ``k1`` of them and holds ``n1``."""

    period: int
    k1: int
    n1: int

    def to_dict(self) -> dict[str, int]:
        """``period``, ``k1`` and ``n1``."""
        return {"period": self.period, "k1": self.k1, "n1": self.n1}


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
        clause = []
        for literal in literals:
            if literal == self.true:
                return
            if literal != -self.true:
                clause.append(literal)
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

    def step(self, increment: int) -> None:
        """Append the next time: the value grows by one where ``increment`` holds."""
        cnf, t = self.cnf, len(self.rows) - 1
        width = min(t + 1, self.cap)
        row = [cnf.true] + [cnf.new() for _ in range(width)]
        self.rows.append(row)
        for v in range(1, width + 2):
            nxt = self.at(t + 1, v)
            cnf.add(-self.at(t, v), nxt)
            cnf.add(-self.at(t, v - 1), -increment, nxt)
            cnf.add(-nxt, self.at(t, v), increment)
            cnf.add(-nxt, self.at(t, v - 1))

    def copy_step(self, switch: int, source: Sequence[int]) -> None:
        """Append the next time: ``source[v]`` ("source >= v") where ``switch`` holds, else unchanged."""
        cnf, t = self.cnf, len(self.rows) - 1
        width = min(t + 1, self.cap)
        row = [cnf.true] + [cnf.new() for _ in range(width)]
        self.rows.append(row)
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

    def decode(self, assignment: Sequence[int]) -> tuple[int, list[int]]:
        """The hand size and the position (leader-first kinds) an assignment gives."""
        true = {literal for literal in assignment if literal > 0}
        n1 = next(
            n1 for n1, selector in self.selectors.items() if selector in true or selector == self.cnf.true
        )
        kinds = [next(kind for kind, variable in enumerate(cell) if variable in true) for cell in self.cells]
        return n1, kinds

    def blocking(self, n1: int, kinds: Sequence[int]) -> list[int]:
        """A clause that forbids the position ``kinds`` with the leader holding ``n1`` cards."""
        clause = {-self.cells[i][kind] for i, kind in enumerate(kinds)}
        selector = self.selectors[n1]
        if selector != self.cnf.true:
            clause.add(-selector)
        return sorted(clause)


def build_row(
    composition: Composition,
    period: int,
    k1: int,
    hands: Sequence[int],
    *,
    least_leader: bool = True,
    conservation: bool = False,
) -> RowModel:
    """The SAT model of every instance ``(period, k1, n1)`` with ``n1`` in ``hands`` (a :class:`RowModel`).

    ``conservation`` adds redundant clauses: in one period each seat wins as many cards of each
    kind as it turns.
    """
    L = period
    N = composition.size
    k2 = L - k1
    if not (L >= 2 and 1 <= k1 < L and hands and all(1 <= n1 < N for n1 in hands)):
        raise ConstructError(
            f"period {L}, k1 {k1}, n1 {list(hands)}: need 1 <= k1 < period and 1 <= n1 < {N} "
            "(the deck's size)"
        )
    values = composition.values
    kinds = range(len(values))
    debts = range(max(values) + 1)
    cnf = _Cnf()
    x = [cnf.one_hot(len(values)) for _ in range(L)]
    debt = [cnf.one_hot(len(debts)) for _ in range(L + 1)]
    second = [cnf.new() for _ in range(L + 1)]
    ends = [cnf.new() for _ in range(L)]
    owner0 = [cnf.new() for _ in range(L)]
    tapes = ([cnf.one_hot(len(values)) for _ in range(k1)], [cnf.one_hot(len(values)) for _ in range(k2)])
    # where the g-th won card of each seat comes up again: the tape turned by n_p (set per hand size)
    comes_up = ([cnf.one_hot(len(values)) for _ in range(k1)], [cnf.one_hot(len(values)) for _ in range(k2)])
    cells = [cnf.one_hot(len(values)) for _ in range(N)]
    if len(hands) == 1:
        selectors = {hands[0]: cnf.true}
    else:
        chosen = cnf.one_hot(len(hands))
        selectors = dict(zip(hands, chosen, strict=True))

    cnf.add(-second[0])
    cnf.add(debt[0][0])
    cnf.add(-second[L])
    cnf.add(debt[L][0])
    cnf.add(ends[L - 1])
    for t in range(L):
        for kind in kinds:
            value = values[kind]
            for owed in debts:
                pre = (-x[t][kind], -debt[t][owed])
                if value > 0:
                    after, passes, ended = value, True, False
                elif owed == 0:
                    after, passes, ended = 0, True, False
                elif owed == 1:
                    after, passes, ended = 0, True, True
                else:
                    after, passes, ended = owed - 1, False, False
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

    turns = _Counter(cnf, k1)
    wins = _Counter(cnf, k1)
    held0 = _Counter(cnf, k1)
    held1 = _Counter(cnf, k2)
    for t in range(L):
        turns.step(-second[t])
        wins.step(owner0[t])
        held0.copy_step(ends[t], wins.rows[t + 1])
        held1.copy_step(ends[t], [cnf.true] + [-wins.at(t + 1, t + 2 - v) for v in range(1, t + 2)])
    for t in range(L + 1):
        if t - k2 >= 1:
            cnf.add(turns.at(t, t - k2))
            cnf.add(wins.at(t, t - k2))
    cnf.add(turns.at(L, k1))
    cnf.add(wins.at(L, k1))

    for t in range(L):
        for j in range(max(0, t - k2), min(t, k1) + 1):
            is_j = turns.equals(t, j)
            has_g = wins.equals(t, j)
            c = t - j
            for kind in kinds:
                if j < k1:
                    cnf.add(second[t], -is_j[0], -is_j[1], -x[t][kind], tapes[0][j][kind])
                    cnf.add(-owner0[t], -has_g[0], -has_g[1], -x[t][kind], comes_up[0][j][kind])
                if c < k2:
                    cnf.add(-second[t], -is_j[0], -is_j[1], -x[t][kind], tapes[1][c][kind])
                    cnf.add(owner0[t], -has_g[0], -has_g[1], -x[t][kind], comes_up[1][c][kind])

    if conservation:
        for kind in kinds:
            for seat, cap in ((0, k1), (1, k2)):
                turned = _Counter(cnf, cap)
                won = _Counter(cnf, cap)
                for t in range(L):
                    mine = -second[t] if seat == 0 else second[t]
                    owned = owner0[t] if seat == 0 else -owner0[t]
                    both = (cnf.new(), cnf.new())
                    for literal, var in ((mine, both[0]), (owned, both[1])):
                        cnf.add(-var, literal)
                        cnf.add(-var, x[t][kind])
                        cnf.add(var, -literal, -x[t][kind])
                    turned.step(both[0])
                    won.step(both[1])
                for v in range(1, cap + 1):
                    cnf.add(-turned.at(L, v), won.at(L, v))
                    cnf.add(turned.at(L, v), -won.at(L, v))

    for n1, selector in selectors.items():
        n2 = N - n1
        guard = -selector
        for g in range(k1):
            for kind in kinds:
                cnf.add(guard, -comes_up[0][g][kind], tapes[0][(n1 + g) % k1][kind])
        for g in range(k2):
            for kind in kinds:
                cnf.add(guard, -comes_up[1][g][kind], tapes[1][(n2 + g) % k2][kind])
        for i in range(N):
            cell = tapes[0][i % k1] if i < n1 else tapes[1][(i - n1) % k2]
            for kind in kinds:
                cnf.add(guard, -cells[i][kind], cell[kind])
        for t in range(L):
            _hand_at_least(cnf, turns, held0, held1, t, n1, n2, 1, guard, second[t], seat=0)
            _hand_at_least(cnf, turns, held0, held1, t, n1, n2, 1, guard, -second[t], seat=1)
            _hand_at_least(cnf, turns, held0, held1, t + 1, n1, n2, 1, guard, -ends[t], second[t], seat=0)
            _hand_at_least(cnf, turns, held0, held1, t + 1, n1, n2, 1, guard, -ends[t], -second[t], seat=1)
            if least_leader:
                _hand_at_least(
                    cnf, turns, held0, held1, t + 1, n1, n2, n1, guard, -ends[t], -second[t], seat=0
                )
                _hand_at_least(
                    cnf, turns, held0, held1, t + 1, n1, n2, n1, guard, -ends[t], second[t], seat=1
                )

    for kind in kinds:
        if kind == 0:
            continue
        count = _Counter(cnf, composition.counts[kind])
        for cell in cells:
            count.step(cell[kind])
        cnf.add(count.at(N, composition.counts[kind]))
    return RowModel(composition, period, k1, cnf, selectors, cells)


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


# == solving =========================================================================================


@dataclass
class Answer:
    """What the solver and the engine said about one instance."""

    instance: Instance
    status: str
    """``sat``, ``unsat`` or ``unknown`` (the time limit ran out)."""
    seconds: float
    kinds: list[int] | None = None
    """The position found: leader-first kinds, the leader's ``n1`` cards first."""
    deal: str | None = None
    """The position found in compact notation, the leader's stack first."""
    cycle: Cycle | None = None
    """The cycle the reference engine plays from it."""

    def to_dict(self) -> dict[str, Any]:
        """The instance, its status and its time, as the commands' ``--json`` gives them."""
        return {**self.instance.to_dict(), "status": self.status, "seconds": round(self.seconds, 4)}


def _solver(clauses: list[list[int]]) -> Any:
    """A CaDiCaL 1.9.5 solver holding ``clauses``."""
    from pysat.solvers import Cadical195  # the solver is loaded only when a model is solved

    return Cadical195(bootstrap_with=clauses)


def replay(composition: Composition, kinds: Sequence[int], instance: Instance) -> tuple[str, Cycle]:
    """Play the position ``kinds`` with the reference engine: its deal and the cycle it is on.

    Raises :class:`ConstructError` unless the engine finds the position on a cycle whose period
    divides ``instance.period`` (a solution of a period ``2L`` may be a cycle of ``L`` played twice).
    """
    deal = composition.compact(kinds, instance.n1)
    cycle = find_cycle(deal, composition.rules, first=0, complete=False)
    if cycle is None or cycle.pre_period_tricks != 0 or instance.period % cycle.period_cards != 0:
        found = "ends" if cycle is None else f"has period {cycle.period_cards} after {cycle.pre_period_cards}"
        raise ConstructError(
            f"the model and the engine disagree: {deal} should repeat every {instance.period} cards, "
            f"but the engine says the game {found}"
        )
    return deal, cycle


def solve(
    composition: Composition,
    instance: Instance,
    *,
    time_limit: float | None = None,
    least_leader: bool = False,
) -> Answer:
    """Decide one instance; a position found is replayed by the engine before it is returned."""
    return next(solutions(composition, instance, time_limit=time_limit, least_leader=least_leader, limit=1))


def solutions(
    composition: Composition,
    instance: Instance,
    *,
    time_limit: float | None = None,
    least_leader: bool = False,
    limit: int | None = None,
) -> Iterator[Answer]:
    """Every position of ``instance``, cycle by cycle, then a last answer ``unsat`` (or ``unknown``).

    After each position found, every trick end of its cycle that fits the instance is blocked, so
    each cycle is given once; the last answer's ``seconds`` is the time of the whole enumeration.
    ``time_limit`` bounds the whole enumeration (the solver then runs in a child process, which is
    stopped when the time is up). ``limit`` stops after that many positions.
    """
    if time_limit is not None:
        answers = row_solutions(
            composition,
            instance.period,
            instance.k1,
            [instance.n1],
            time_limit=time_limit,
            least_leader=least_leader,
        )
        for found, answer in enumerate(answers, start=1):
            yield answer
            if limit is not None and found >= limit:
                answers.close()  # type: ignore[attr-defined]
                return
        return
    start = time.perf_counter()
    stream = _enumerate(composition, instance, least_leader)
    for found, kinds in enumerate(stream, start=1):
        if not kinds:
            yield Answer(instance, UNSAT, time.perf_counter() - start)
            return
        deal, cycle = replay(composition, kinds, instance)
        yield Answer(instance, SAT, time.perf_counter() - start, kinds, deal, cycle)
        if limit is not None and found >= limit:
            stream.close()
            return


def _enumerate(composition: Composition, instance: Instance, least_leader: bool) -> Generator[list[int]]:
    """The positions of one instance as kinds, then an empty list (no more): a row of one hand size."""
    for _, kinds in _enumerate_row(composition, instance.period, instance.k1, [instance.n1], least_leader):
        yield kinds


def _enumerate_row(
    composition: Composition, period: int, k1: int, hands: Sequence[int], least_leader: bool
) -> Generator[tuple[int, list[int]]]:
    """The positions of each instance of a row in turn, as ``(n1, kinds)``; ``(n1, [])`` closes each."""
    model = build_row(composition, period, k1, hands, least_leader=least_leader)
    solver = _solver(model.cnf.clauses)
    try:
        for n1 in hands:
            instance = Instance(period, k1, n1)
            selector = model.selectors[n1]
            assumptions = [] if selector == model.cnf.true else [selector]
            while solver.solve(assumptions=assumptions):
                _, kinds = model.decode(solver.get_model())
                yield n1, kinds
                _, cycle = replay(composition, kinds, instance)
                for position in cycle.positions:
                    if _lead_size(position) == n1:
                        solver.add_clause(model.blocking(n1, leader_first(composition, position)))
                solver.add_clause(model.blocking(n1, kinds))
            yield n1, []
    finally:
        solver.delete()


def row_solutions(
    composition: Composition,
    period: int,
    k1: int,
    hands: Sequence[int],
    *,
    time_limit: float | None = None,
    least_leader: bool = False,
    incremental: bool = True,
) -> Iterator[Answer]:
    """:func:`solutions` for every hand size ``n1`` of ``hands`` in turn, with a time limit for each.

    ``incremental`` builds one :class:`RowModel` for the row and decides its instances one after
    another under assumptions (the first instance's time includes building it); otherwise each
    instance gets a model and a solver of its own. With a time limit the solver runs in one child
    process for the whole row; an instance that runs out of time is answered ``unknown``, its
    process stopped, and a new one takes the rest.
    """
    if time_limit is None:
        if not incremental:
            for n1 in hands:
                yield from solutions(composition, Instance(period, k1, n1), least_leader=least_leader)
            return
        start = time.perf_counter()
        for n1, kinds in _enumerate_row(composition, period, k1, hands, least_leader):
            instance = Instance(period, k1, n1)
            if not kinds:
                yield Answer(instance, UNSAT, time.perf_counter() - start)
                start = time.perf_counter()
                continue
            deal, cycle = replay(composition, kinds, instance)
            yield Answer(instance, SAT, time.perf_counter() - start, kinds, deal, cycle)
        return
    left = list(hands)
    while left:
        for answer in _row_in_child(composition, period, k1, left, least_leader, time_limit, incremental):
            yield answer
            if answer.status != SAT:
                left.remove(answer.instance.n1)


def _row_in_child(
    composition: Composition,
    period: int,
    k1: int,
    hands: list[int],
    least_leader: bool,
    seconds: float,
    incremental: bool,
) -> Iterator[Answer]:
    """Answers for ``hands`` from one child process, until the row ends or an instance runs out of time."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    job = (composition, period, k1, tuple(hands), least_leader, incremental)
    child = context.Process(target=_child, args=(send, os.getpid(), *job), daemon=True)
    child.start()
    send.close()
    try:
        for n1 in tuple(hands):  # the caller may change its list while this runs
            instance = Instance(period, k1, n1)
            start = time.perf_counter()
            deadline = time.monotonic() + seconds
            while True:
                if not receive.poll(max(0.0, deadline - time.monotonic())):
                    yield Answer(instance, UNKNOWN, time.perf_counter() - start)
                    return
                try:
                    message = receive.recv()
                except EOFError:
                    raise ConstructError("the solver's process ended without an answer") from None
                if isinstance(message, str):
                    raise ConstructError(message)
                about, kinds = message
                if about != n1:
                    raise ConstructError(f"the solver's process answered for n1 {about}, not {n1}")
                if not kinds:
                    yield Answer(instance, UNSAT, time.perf_counter() - start)
                    break
                deal, cycle = replay(composition, kinds, instance)
                yield Answer(instance, SAT, time.perf_counter() - start, kinds, deal, cycle)
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _child(
    send: Any,
    parent: int,
    composition: Composition,
    period: int,
    k1: int,
    hands: tuple[int, ...],
    least_leader: bool,
    incremental: bool,
) -> None:
    """The child process of :func:`_row_in_child`: every position of the row, sent as found.

    It ends with its parent, even one killed by SIGKILL (Linux), so no solver runs on unwatched.
    """
    die_with_parent(parent)
    try:
        if incremental:
            for message in _enumerate_row(composition, period, k1, hands, least_leader):
                send.send(message)
            return
        for n1 in hands:
            for kinds in _enumerate(composition, Instance(period, k1, n1), least_leader):
                send.send((n1, kinds))
    except ConstructError as exc:
        send.send(str(exc))
    finally:
        send.close()


def _lead_size(position: Position) -> int:
    """Cards in the leader's stack."""
    return len(position.stacks.hands[position.leader])


def leader_first(composition: Composition, position: Position) -> list[int]:
    """An engine position as kinds, the leader's stack first."""
    index = {value: kind for kind, value in enumerate(composition.values)}
    hands = position.stacks.hands
    order = (hands[position.leader], hands[1 - position.leader])
    return [index[composition.rules.pay_value(card)] for hand in order for card in hand]


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
