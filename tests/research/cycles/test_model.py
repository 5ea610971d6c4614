"""The model's building blocks against brute force."""

from __future__ import annotations

import itertools

import pytest
from pysat.solvers import Cadical195

from beggar.research.cycles.kinds import Composition
from beggar.research.cycles.model import _Cnf, _prefix, _weighted_equals, build_row
from beggar.rules import STANDARD


@pytest.mark.parametrize(
    ("stacks", "k", "total"), [((7, 2), 3, 2), ((2, 6), 4, 1), ((9, 4), 4, 3), ((4, 1), 4, 2), ((3, 3), 2, 0)]
)
def test_the_deck_on_the_tapes_counts_the_stacks_read_cyclically(
    stacks: tuple[int, int], k: int, total: int
) -> None:
    """The ``tapes`` cardinality's clauses (a saturating prefix counter per tape, the weighted
    sum of its prefixes) accept a pair of tapes exactly when the stacks they are read into, of
    ``stacks`` cards from tapes of ``k`` and ``5 - k`` cells, hold ``total`` marked cards."""
    sizes = (k, 5 - k)
    cnf = _Cnf()
    tapes = [[cnf.new() for _ in range(size)] for size in sizes]
    prefixes = [_prefix(cnf, tape, total + 1) for tape in tapes]
    terms = []
    for seat in (0, 1):
        q, r = divmod(stacks[seat], sizes[seat])
        if q:
            terms.append((q, prefixes[seat][sizes[seat]]))
        if r:
            terms.append((1, prefixes[seat][r]))
    _weighted_equals(cnf, terms, total)
    solver = Cadical195(bootstrap_with=cnf.clauses)
    for marks in itertools.product((False, True), repeat=5):
        cells = tapes[0] + tapes[1]
        assumptions = [cell if mark else -cell for cell, mark in zip(cells, marks, strict=True)]
        held = sum(marks[seat * sizes[0] + i % sizes[seat]] for seat in (0, 1) for i in range(stacks[seat]))
        assert solver.solve(assumptions=assumptions) == (held == total), (marks, held)
    solver.delete()


def test_blocking_by_the_tapes_forbids_only_the_position_given() -> None:
    """Without cells, a position is blocked by the tape cells its cards are read from. A position
    that is not its tapes read cyclically (another trick end's, whose leader turns another number
    of cards) shares the first cells of a solution's tapes but must not forbid that solution."""
    deck = Composition.parse("4,2", STANDARD)
    model = build_row(deck, 6, 3, [4], least_leader=False, least_stack=True, cardinality="tapes")
    solver = Cadical195(bootstrap_with=model.cnf.clauses)
    assert solver.solve()
    n1, kinds = model.decode(solver.get_model())
    # the leader's stack is its tape of 3 cells, then the first cell again
    assert (n1, deck.compact(kinds, n1)) == (4, "--J-/J-")
    other = list(kinds)
    other[3] = 1 - other[3]  # the same first cells of each tape, the leader's fourth card changed
    solver.add_clause(model.blocking(n1, other))
    assert solver.solve()
    assert model.decode(solver.get_model()) == (4, kinds)
    solver.add_clause(model.blocking(n1, kinds))
    assert not solver.solve()
    solver.delete()
