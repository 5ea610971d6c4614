"""The census by period: every cycle of a period found at its least stack, every instance decided from them.

The census's question for an instance ``(L, k1, n1)`` is the least leader's: is there a cycle
whose period divides ``L`` with a trick end where the leader holds ``n1`` cards, no trick end has
a smaller leader's stack, and the leader turns ``k1`` cards in ``L``? The row census
(:func:`beggar.research.cycles.census.solve_row`) asks the solver exactly that, for every ``n1``
of every row. This module asks it less, and answers the same:

- **The least stack.** In every trick, the loser turns at least one card, and the winner takes
  the pile under its stack, so the winner's stack at a trick end is larger than its stack at the
  trick end before. The least stack of all the trick ends of a cycle (either seat's) is therefore
  never the leader's: at a trick end where it is met, the other seat holds it, and the leader
  holds ``n1 > N / 2`` cards (``N`` the deck's size); every stack of every trick end is at least
  ``N - n1``, and every leader's stack more than that. So each cycle of period dividing ``L`` is
  met in some row ``(L, k1)`` of the model with those clauses
  (:func:`~beggar.research.cycles.model.build_row` with ``least_stack``), at a hand size ``n1``
  above ``N / 2``: half the hand sizes of a row, and the hardest ones for the least leader
  (where ``n1`` is small) are not asked at all.
- **Every instance decided from the cycles.** Once every row of the period is enumerated (each
  position replayed by the reference engine), the census's instances of the period are decided
  from the cycles found, as playing every position decides them
  (:func:`beggar.research.cycles.complete.decide`): an instance is ``sat`` exactly when one of
  those cycles has it.

- **The bounds once for every hand size.** The stacks' bounds (each seat holds a card whenever
  it turns; every stack of a trick end at least ``N - n1``) are written once per row, through the
  greatest number of cards each seat loses from the trick end on, and each hand size adds one
  unit clause on those (:class:`~beggar.research.cycles.solve.Encoding`'s ``extremes``): fewer
  clauses to build, and what the solver learns about a bound serves every hand size.

A period is therefore the unit of this census: its rows are solved one after another in one
worker (each with its hand sizes under assumptions), and its answers and cycles are written
together. ``bench/census_sat.py`` measures it against the row census, and against all the rows
of a period in one model and one solver (:class:`~beggar.research.cycles.solve.Encoding`'s
``whole_period``), which costs as much.

>>> from beggar.rules import rules_named
>>> deck = Composition.parse("5,2,1", rules_named("standard"))
>>> result = solve_period("standard", deck.counts, PeriodUnit(16, ()), None)
>>> [(c.deal, c.k1, c.n1) for c in result.cycles]
[('--J-/Q-J-', 8, 4)]
>>> sorted((i.k1, i.n1) for i in result.instances if i.status == "sat")
[(8, 4)]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from beggar.cycle import Cycle
from beggar.research.cycles.canon import Alphabet, played_form
from beggar.research.cycles.census import Row, RowResult
from beggar.research.cycles.kinds import Composition
from beggar.research.cycles.solve import (
    SAT,
    UNKNOWN,
    Encoding,
    SolverClock,
    instance_status,
    period_solutions,
)
from beggar.research.store import CensusInstance
from beggar.rules import rules_named

ENCODING = Encoding(least_stack=True, focused=True, extremes=True)
"""How the census by period models and solves each row (the winners of ``bench/census_sat.py``)."""


@dataclass(frozen=True)
class PeriodUnit:
    """One unit of census work: a period, and the rows (with their hand sizes) still to store.

    Every row of the period is solved, whatever is left to store: the instances of one row are
    decided by the cycles of all of them. An empty ``rows`` stores every instance of the period.
    """

    period: int
    rows: tuple[Row, ...]


def units(rows: list[Row]) -> list[PeriodUnit]:
    """The periods of the rows still to decide, shortest first, each with its rows."""
    by_period: dict[int, list[Row]] = {}
    for row in rows:
        by_period.setdefault(row.period, []).append(row)
    return [PeriodUnit(period, tuple(left)) for period, left in sorted(by_period.items())]


def stack_hands(size: int) -> range:
    """The leader's hand sizes the least stack allows in a deck of ``size`` cards: above half,
    largest first (the row's solver learns on the easier ones before the harder balanced ones).

    >>> list(stack_hands(8))
    [7, 6, 5]
    """
    return range(size - 1, size // 2, -1)


@dataclass
class PeriodCycles:
    """Every cycle whose period divides a period, as the engine plays it, and what finding them cost."""

    cycles: dict[str, Cycle]
    """Each cycle by its canonical position."""
    seconds: dict[tuple[int, int], float]
    """Wall-clock seconds of each instance ``(k1, n1)`` the solver was asked (building included)."""
    unknown: bool
    """True when an instance ran out of time: the cycles may be incomplete."""
    sat: set[tuple[int, int]]
    """The instances ``(k1, n1)`` asked where the solver found a position."""


def period_cycles(
    composition: Composition,
    period: int,
    *,
    time_limit: float | None = None,
    encoding: Encoding = ENCODING,
    clock: SolverClock | None = None,
    k1s: Sequence[int] | None = None,
    hands: Sequence[int] | None = None,
) -> PeriodCycles:
    """Every cycle of ``composition`` whose period divides ``period``, from every row of the period
    under the least stack. For measuring: ``k1s`` and ``hands`` ask only those rows and hand
    sizes, and ``clock`` adds up the solver's own CPU seconds (without a time limit)."""
    alphabet = Alphabet.of(composition.rules)
    if hands is None:
        hands = stack_hands(composition.size) if encoding.least_stack else range(1, composition.size)
    found = PeriodCycles({}, {}, False, set())
    every_k1 = list(range(1, period) if k1s is None else k1s)
    for answer in period_solutions(
        composition, period, every_k1, list(hands), time_limit=time_limit, encoding=encoding, clock=clock
    ):
        if answer.status == SAT:
            assert answer.cycle is not None
            found.sat.add((answer.instance.k1, answer.instance.n1))
            found.cycles.setdefault(played_form(alphabet, answer.cycle).deal, answer.cycle)
            continue
        found.seconds[(answer.instance.k1, answer.instance.n1)] = answer.seconds
        found.unknown |= answer.status == UNKNOWN
    return found


def solve_period(spec: str, counts: tuple[int, ...], unit: PeriodUnit, time_limit: float | None) -> RowResult:
    """Decide every instance of ``unit``'s period (runs in a worker): the rows' answers to store,
    and the cycles of exactly that period.

    With a time limit, an instance of the least stack that runs out of time leaves every instance
    of the period ``unknown`` (the cycles found are stored), to be tried again under a longer one.
    """
    from beggar.research.cycles.complete import Played, decide, engine_cycle

    start = time.perf_counter()
    rules = rules_named(spec)
    composition = Composition(rules, Composition.of(rules).values, counts)
    alphabet = Alphabet.of(rules)
    found = period_cycles(composition, unit.period, time_limit=time_limit)
    played = [
        engine_cycle(composition, alphabet, deal, cycle.period_tricks, cycle.period_cards)
        for deal, cycle in sorted(found.cycles.items())
    ]
    decided, records = decide(composition, Played(0, 0, played, 0.0), unit.period)
    wanted = {(row.k1, n1) for row in unit.rows for n1 in row.hands} if unit.rows else None
    instances = [
        CensusInstance(
            i.deck,
            i.period,
            i.k1,
            i.n1,
            # the one rule of construct and the row census, for the period: a time limit run out
            # anywhere in it leaves every instance unknown, its positions kept
            instance_status(i.positions, UNKNOWN if found.unknown else i.status),
            found.seconds.get((i.k1, i.n1), 0.0),
            time_limit,
            i.positions,
        )
        for i in decided
        if i.period == unit.period and (wanted is None or (i.k1, i.n1) in wanted)
    ]
    cycles = [c for c in records if c.period_cards == unit.period]
    # the census records a result by its instances and cycles; the row names the period only
    return RowResult(Row(unit.period, 0, ()), instances, cycles, time.perf_counter() - start)
