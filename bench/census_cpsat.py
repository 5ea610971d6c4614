"""The census's least-stack rows as a constraint model for OR-Tools CP-SAT (measured by
``bench/census_sat.py``'s variant ``cp-sat``; not a dependency of the package).

The question is the census's (:mod:`beggar.research.cycles.periods`): every position on a cycle
whose period divides ``L``, at a trick end where the leader turns ``k1`` cards of the period and
holds ``n1 > N / 2``, the other seat's ``N - n1`` being the least stack of every trick end. It is
the machine of :mod:`beggar.research.cycles.model` (a won pile going under the stack oldest card
first, as there) with CP-SAT's own variables instead of the order encoding's counters:

- card ``t`` of the period: the seat that turns it ``s[t]``, what is owed before it ``d[t]`` (an
  integer), its kind ``x[t]`` (an integer), whether it ends a trick ``e[t]`` and whether seat 0
  wins its trick ``o[t]``; the rules' machine is one table constraint per card over
  ``(s[t], d[t], x[t], s[t + 1], d[t + 1], e[t])``;
- the tapes are one array ``T`` of ``L`` kinds (seat 0's ``k1`` cells, then seat 1's ``k2``); the
  card turned is ``T[idx[t]]`` (an element constraint), ``idx[t]`` being seat 0's turns so far or
  ``k1`` plus seat 1's;
- the ``g``-th card seat 0 wins is ``T[(n1 + g) mod k1]``, seat 1's ``T[k1 + (n2 + g) mod k2]``
  (an element constraint each, the cell linear in ``n1 mod k1`` with a carry);
- the counters (turns, wins, cards won back at the last trick end) are integers with linear
  steps, and the stacks' bounds linear constraints on them, enforced where a seat turns or a trick
  ends;
- the hand size ``n1`` is an integer with one selector literal per value: the deck's composition
  (each cell of a tape is read ``n1 // k1`` or one more times into the leader's stack) is a
  linear constraint per pay kind, enforced by its selector.

A row is one question (the hand size free); after each position found, every trick end of its
cycle that falls in the row is forbidden (its hand size and tapes, a negative table) and the
model is solved again, from scratch: CP-SAT keeps nothing between two solves.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from beggar.cycle import Cycle
from beggar.research.cycles.canon import Alphabet, played_form
from beggar.research.cycles.kinds import (
    Composition,
    ConstructError,
    Instance,
    lead_size,
    leader_first,
    replay,
)
from beggar.research.cycles.model import card_step, tapes_of
from beggar.research.cycles.periods import PeriodCycles
from beggar.research.cycles.solve import SolverClock


class RowCp:
    """The CP-SAT model of the row ``(L, k1)`` for the hand sizes ``hands`` (all above ``N / 2``)."""

    def __init__(
        self, composition: Composition, period: int, k1: int, hands: Sequence[int], permutation: bool = False
    ) -> None:
        from ortools.sat.python import cp_model

        N, L = composition.size, period
        k2 = L - k1
        if not (1 <= k1 < L and hands and all(N // 2 < n1 < N for n1 in hands)):
            raise ConstructError(f"period {period}, k1 {k1}, hands {list(hands)}: not a least-stack row")
        self.composition, self.period, self.k1, self.hands = composition, period, k1, list(hands)
        values = composition.values
        K, V = len(values), max(values)
        m = cp_model.CpModel()
        self.model = m
        s = [m.new_bool_var(f"s{t}") for t in range(L + 1)]
        d = [m.new_int_var(0, V, f"d{t}") for t in range(L + 1)]
        x = [m.new_int_var(0, K - 1, f"x{t}") for t in range(L)]
        e = [m.new_bool_var(f"e{t}") for t in range(L)]
        o = [m.new_bool_var(f"o{t}") for t in range(L)]
        m.add(s[0] == 0)
        m.add(s[L] == 0)
        m.add(d[0] == 0)
        m.add(d[L] == 0)
        m.add(e[L - 1] == 1)
        table = []
        for seat in (0, 1):
            for kind, value in enumerate(values):
                for owed in range(V + 1):
                    after, passes, ended = card_step(value, owed)
                    nxt = 1 - seat if passes else seat
                    table.append((seat, owed, kind, nxt, after, int(ended)))
        for t in range(L):
            m.add_allowed_assignments([s[t], d[t], x[t], s[t + 1], d[t + 1], e[t]], table)
            # seat 0 wins a trick where seat 1 turns its last card; a card is won with its trick
            m.add(o[t] == s[t]).only_enforce_if(e[t])
            if t < L - 1:
                m.add(o[t] == o[t + 1]).only_enforce_if(e[t].negated())

        def counter(name: str, t: int) -> Any:
            return m.new_int_var(max(0, t - k2), min(t, k1), f"{name}{t}")

        c0 = [counter("c", t) for t in range(L + 1)]  # seat 0's turns before card t
        g0 = [counter("g", t) for t in range(L + 1)]  # cards seat 0 has won before card t
        h0 = [m.new_int_var(0, k1, f"h{t}") for t in range(L + 1)]  # ... as of the last trick end
        last = [m.new_int_var(0, t, f"m{t}") for t in range(L + 1)]  # cards before the last trick end
        for var in (c0[0], g0[0], h0[0], last[0]):
            m.add(var == 0)
        m.add(c0[L] == k1)
        m.add(g0[L] == k1)
        for t in range(L):
            m.add(c0[t + 1] == c0[t] + 1 - s[t])
            m.add(g0[t + 1] == g0[t] + o[t])
            m.add(h0[t + 1] == g0[t + 1]).only_enforce_if(e[t])
            m.add(h0[t + 1] == h0[t]).only_enforce_if(e[t].negated())
            m.add(last[t + 1] == t + 1).only_enforce_if(e[t])
            m.add(last[t + 1] == last[t]).only_enforce_if(e[t].negated())

        # the hand size, with a selector per value
        n1 = m.new_int_var_from_domain(cp_model.Domain.from_values(self.hands), "n1")
        self.n1 = n1
        select = {n: m.new_bool_var(f"n1={n}") for n in self.hands}
        m.add_exactly_one(select.values())
        m.add(n1 == sum(n * b for n, b in select.items()))
        for n, b in select.items():
            m.add(n1 == n).only_enforce_if(b)

        # the tapes, one-hot as well for the composition
        T = [m.new_int_var(0, K - 1, f"T{j}") for j in range(L)]
        self.tapes = T
        hot = [[m.new_bool_var(f"T{j}={kind}") for kind in range(K)] for j in range(L)]
        for j in range(L):
            m.add_exactly_one(hot[j])
            m.add(T[j] == sum(kind * b for kind, b in enumerate(hot[j])))
        for n, b in select.items():
            for kind in range(1, K):
                terms = []
                for j in range(k1):
                    terms.append((n // k1 + (1 if j < n % k1 else 0)) * hot[j][kind])
                for j in range(k2):
                    rest = N - n
                    terms.append((rest // k2 + (1 if j < rest % k2 else 0)) * hot[k1 + j][kind])
                m.add(sum(terms) == composition.counts[kind]).only_enforce_if(b)

        # the card turned is its seat's next tape cell
        turned, won = [], []
        for t in range(L):
            idx = m.new_int_var(0, L - 1, f"idx{t}")
            m.add(idx == c0[t]).only_enforce_if(s[t].negated())
            m.add(idx == k1 + t - c0[t]).only_enforce_if(s[t])
            m.add_element(idx, T, x[t])
            turned.append(idx)

        # a won card comes up again at its winner's turn n_p + g
        r0 = m.new_int_var(0, k1 - 1, "r0")
        m.add_modulo_equality(r0, n1, k1)
        r1 = m.new_int_var(0, k2 - 1, "r1")
        n2 = m.new_int_var(N - max(self.hands), N - min(self.hands), "n2")
        m.add(n2 == N - n1)
        m.add_modulo_equality(r1, n2, k2)
        for t in range(L):
            carry0, carry1 = m.new_bool_var(f"w0c{t}"), m.new_bool_var(f"w1c{t}")
            w0 = m.new_int_var(0, k1 - 1, f"w0{t}")
            w1 = m.new_int_var(0, k2 - 1, f"w1{t}")
            m.add(w0 == r0 + g0[t] - k1 * carry0)
            m.add(w1 == r1 + t - g0[t] - k2 * carry1)
            cell = m.new_int_var(0, L - 1, f"won{t}")
            m.add(cell == w0).only_enforce_if(o[t])
            m.add(cell == k1 + w1).only_enforce_if(o[t].negated())
            m.add_element(cell, T, x[t])
            won.append(cell)
        if permutation:  # redundant: each tape cell is turned once and won once in the period
            m.add_all_different(turned)
            m.add_all_different(won)

        # the stacks: seat 0 holds n1 - c0 + h0, seat 1 n2 - (t - c0) + (last - h0)
        for t in range(L):
            m.add(n1 - c0[t] + h0[t] >= 1).only_enforce_if(s[t].negated())
            m.add(n2 - t + c0[t] + last[t] - h0[t] >= 1).only_enforce_if(s[t])
            # at a trick end both stacks are at least n2, the next leader's more than that
            lost = c0[t + 1] - g0[t + 1]  # D_0 at the trick end (seat 0 holds n1 - D_0)
            m.add(lost >= 0).only_enforce_if(e[t])
            m.add(lost <= 2 * n1 - N).only_enforce_if(e[t])
            m.add(lost <= 2 * n1 - N - 1).only_enforce_if([e[t], o[t]])
            m.add(lost >= 1).only_enforce_if([e[t], o[t].negated()])

    def block(self, n1: int, tapes: Sequence[int]) -> None:
        """Forbid the position of hand size ``n1`` whose tapes (seat 0's, then seat 1's) are ``tapes``."""
        self.model.add_forbidden_assignments([self.n1, *self.tapes], [(n1, *tapes)])


def solver(parameters: dict[str, Any] | None = None) -> Any:
    """A CP-SAT solver on one thread, with ``parameters`` (CP-SAT's own) set."""
    from ortools.sat.python import cp_model

    found = cp_model.CpSolver()
    found.parameters.num_workers = 1
    for name, value in (parameters or {}).items():
        # an enumeration's value is named (``"FIXED_SEARCH"``) as cp_model names it
        setattr(found.parameters, name, getattr(cp_model, value) if isinstance(value, str) else value)
    return found


def row_cycles(
    composition: Composition,
    period: int,
    k1: int,
    hands: Sequence[int],
    clock: SolverClock | None = None,
    parameters: dict[str, Any] | None = None,
    permutation: bool = False,
) -> tuple[dict[str, Cycle], set[tuple[int, int]]]:
    """Every cycle of the row ``(period, k1)`` at its least stack (each position replayed by the
    engine), by its canonical position, and the instances ``(k1, n1)`` where a position was found."""
    from ortools.sat.python import cp_model

    alphabet = Alphabet.of(composition.rules)
    row = RowCp(composition, period, k1, hands, permutation)
    cycles: dict[str, Cycle] = {}
    sat: set[tuple[int, int]] = set()
    while True:
        cp = solver(parameters)
        start = time.process_time()
        status = cp.solve(row.model)
        if clock is not None:
            clock.seconds += time.process_time() - start
        if status == cp_model.INFEASIBLE:
            return cycles, sat
        if status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
            raise ConstructError(f"period {period}, k1 {k1}: CP-SAT answered {cp.status_name(status)}")
        n1 = cp.value(row.n1)
        tapes = [cp.value(cell) for cell in row.tapes]
        kinds = [tapes[i % k1] for i in range(n1)] + [
            tapes[k1 + i % (period - k1)] for i in range(composition.size - n1)
        ]
        _, cycle = replay(composition, kinds, Instance(period, k1, n1))
        sat.add((k1, n1))
        cycles.setdefault(played_form(alphabet, cycle).deal, cycle)
        row.block(n1, tapes)
        for position in cycle.positions:
            size = lead_size(position)
            if size not in row.hands:
                continue
            others = leader_first(composition, position)
            tape0, tape1 = tapes_of(composition, others, size, period)
            if len(tape0) == k1:
                row.block(size, [*tape0, *tape1])


def period_cycles(
    composition: Composition,
    period: int,
    k1s: Sequence[int],
    hands: Sequence[int],
    clock: SolverClock | None = None,
    *,
    per_hand: bool = False,
    parameters: dict[str, Any] | None = None,
    permutation: bool = False,
) -> PeriodCycles:
    """:func:`row_cycles` for every row ``k1`` of ``k1s`` (the census's :func:`period_cycles` by
    CP-SAT): one model per row, or with ``per_hand`` one per instance ``(k1, n1)`` (the hand size
    fixed, so that CP-SAT's presolve folds it into every constraint)."""
    found = PeriodCycles({}, {}, False, set())
    for k1 in k1s:
        for part in [[n1] for n1 in hands] if per_hand else [list(hands)]:
            cycles, sat = row_cycles(composition, period, k1, part, clock, parameters, permutation)
            for deal, cycle in cycles.items():
                found.cycles.setdefault(deal, cycle)
            found.sat |= sat
    return found
