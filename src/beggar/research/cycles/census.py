"""The census of cycles: every period decided by the SAT model, every cycle named once.

For a deck and a largest period ``P``, every instance ``(L, k1, n1)`` with ``L <= P`` is decided
on the model of :mod:`beggar.research.cycles.model` (by :mod:`beggar.research.cycles.solve`):
each answer is ``sat`` (with every cycle of the instance, found by blocking each one and solving
again until none is left), ``unsat`` (a proof that no cycle has those figures) or ``unknown`` (the
time limit ran out, whatever was found before:
:func:`~beggar.research.cycles.solve.instance_status`). Each cycle is
replayed by the reference engine and named by its canonical form
(:mod:`beggar.research.cycles.canon`), so a cycle met at several trick ends, mirrored, or as a
repeat of a shorter period is stored once, under its own period.

The work is cut in periods: a period is the census's unit
(:class:`~beggar.research.cycles.periods.PeriodUnit`, its rows and their hand sizes still to
store), since the least stack decides the instances of every row of a period from the cycles of
all of them; the least leader's census (``by_period=False``)
cuts it in rows, one ``(L, k1)`` and its hand sizes. The units run through the one runner of
:mod:`beggar.research.cluster` on a process pool or on Dask workers, and each unit's answers are
written in one transaction, so a census killed at any moment resumes with the units not yet
written. For the whole deck, every cycle also goes into the cycle
table the browser reads, and ``beggar census --balanced`` walks back from each one to the balanced
starting deals that reach it (:mod:`beggar.research.cycles.basins`).
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from beggar.research.cluster import Schedule, UnitList, run_units
from beggar.research.cycles.canon import Alphabet, played_form
from beggar.research.cycles.kinds import Composition
from beggar.research.cycles.solve import SAT, UNKNOWN, UNSAT, instance_status, row_solutions
from beggar.research.store import CensusCycle, CensusInstance, Store, StoredCycle
from beggar.research.strategies import AUTO
from beggar.rules import rules_named


@dataclass(frozen=True)
class Row:
    """One unit of census work: a period, the leader's turns, and the hand sizes still to decide."""

    period: int
    k1: int
    hands: tuple[int, ...]


@dataclass
class RowResult:
    """What one row gave: an answer per hand size and the cycles found."""

    row: Row
    instances: list[CensusInstance]
    cycles: list[CensusCycle]
    seconds: float


def rows(composition: Composition, max_period: int, *, min_period: int = 2) -> list[Row]:
    """Every row of a census up to ``max_period`` cards, shortest period first."""
    hands = tuple(range(1, composition.size))
    return [
        Row(period, k1, hands)
        for period in range(max(2, min_period), max_period + 1)
        for k1 in range(1, period)
    ]


def instance_count(composition: Composition, max_period: int) -> int:
    """The instances ``(L, k1, n1)`` of a census up to ``max_period`` cards: those of :func:`rows`.

    >>> from beggar.rules import rules_named
    >>> instance_count(Composition.parse("4,2", rules_named("standard")), 3)
    15
    """
    return sum((period - 1) * (composition.size - 1) for period in range(2, max_period + 1))


def solve_row(
    spec: str, counts: tuple[int, ...], row: Row, time_limit: float | None, least_leader: bool = True
) -> RowResult:
    """Decide every instance of ``row`` and name every cycle found (runs in a worker)."""
    rules = rules_named(spec)
    composition = Composition(rules, Composition.of(rules).values, counts)
    alphabet = Alphabet.of(rules)
    key = composition.key()
    start = time.perf_counter()
    instances: list[CensusInstance] = []
    cycles: dict[str, CensusCycle] = {}
    positions = 0
    answers = row_solutions(
        composition, row.period, row.k1, row.hands, time_limit=time_limit, least_leader=least_leader
    )
    for answer in answers:
        n1 = answer.instance.n1
        if answer.status != SAT:
            status = instance_status(positions, answer.status)
            instances.append(
                CensusInstance(key, row.period, row.k1, n1, status, answer.seconds, time_limit, positions)
            )
            positions = 0
            continue
        positions += 1
        assert answer.deal is not None and answer.cycle is not None
        if answer.cycle.period_cards != row.period:
            continue  # a shorter cycle played more than once: it belongs to its own period
        form = played_form(alphabet, answer.cycle)
        cycles.setdefault(form.deal, form.into(CensusCycle, deck=key, k1=row.k1, n1=n1))
    return RowResult(row, instances, list(cycles.values()), time.perf_counter() - start)


@dataclass
class CensusProgress:
    """Where a census stands."""

    instances: int = 0
    decided: int = 0
    unknown: int = 0
    new_cycles: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    skipped: int = 0
    """Instances already in the store when the census started."""


def pending_rows(
    store: Store, composition: Composition, max_period: int, time_limit: float | None
) -> list[Row]:
    """The rows (or the parts of rows) the store does not hold a final answer for."""
    done = store.census_done(composition.key(), time_limit)
    left: list[Row] = []
    for row in rows(composition, max_period):
        hands = tuple(n1 for n1 in row.hands if (row.period, row.k1, n1) not in done)
        if hands:
            left.append(Row(row.period, row.k1, hands))
    return left


def run_census(
    composition: Composition,
    store: Store,
    max_period: int,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    executor: cf.Executor | None = None,
    on_progress: Callable[[CensusProgress], None] | None = None,
    method: str = AUTO,
    memory: int | None = None,
    by_period: bool = True,
) -> CensusProgress:
    """Decide and store every instance up to ``max_period`` that the store does not hold yet.

    ``method`` chooses how (:mod:`beggar.research.cycles.complete`): ``play`` every position of
    the deck, ``solver`` (the SAT model, row by row), or ``auto``: play where the positions'
    visited bits fit ``memory`` bytes (default :data:`~beggar.research.cycles.complete.DEFAULT_MEMORY`).
    The solver decides a period at a time, from every cycle met at its least stack
    (:mod:`beggar.research.cycles.periods`); ``by_period=False`` asks it the least leader's question
    row by row instead.

    The solver's work runs through the one runner of :mod:`beggar.research.cluster`: a period is the
    unit (a row with ``by_period=False``), and :meth:`~beggar.research.store.Store.save_census_row`
    records its answers and cycles in one transaction.
    """
    from beggar.research.cycles import complete

    # -- the method: play every position where the deck is small enough, else the solver --
    budget = complete.DEFAULT_MEMORY if memory is None else memory
    if complete.chosen(composition, method, budget):
        return complete.run_play(
            composition, store, max_period, workers=workers, memory=budget, on_progress=on_progress
        )

    todo = pending_rows(store, composition, max_period, time_limit)
    progress = CensusProgress(instances=instance_count(composition, max_period))
    progress.skipped = progress.instances - sum(len(row.hands) for row in todo)
    progress.decided = progress.skipped
    start = time.perf_counter()
    spec, describe = composition.rules.spec(), composition.describe()

    def record(result: RowResult) -> None:
        shown = [stored_cycle(c, spec, describe) for c in result.cycles]
        progress.new_cycles += store.save_census_row(
            result.instances, result.cycles, shown if composition.full else []
        )
        progress.decided += sum(1 for i in result.instances if i.status != UNKNOWN)
        progress.unknown += sum(1 for i in result.instances if i.status == UNKNOWN)
        progress.cpu_seconds += result.seconds
        progress.seconds = time.perf_counter() - start

    # -- the solver: a period is the unit (beggar.research.cycles.periods), unless rows are asked --
    from beggar.research.cycles import periods

    units: list[Any] = todo
    work: Callable[[Any], RowResult] = partial(solve_row, spec, composition.counts, time_limit=time_limit)
    if by_period:
        units = periods.units(todo)
        work = partial(periods.solve_period, spec, composition.counts, time_limit=time_limit)
    run_units(
        UnitList(units, work, record),
        Schedule(executor=executor, workers=workers),
        on_round=None if on_progress is None else lambda: on_progress(progress),
    )
    progress.seconds = time.perf_counter() - start
    return progress


def census_summary(store: Store, composition: Composition, max_period: int) -> dict[str, Any]:
    """The census as stored: instances, cycles and balanced deals (the commands' ``--json``)."""
    from beggar.research.cycles.complete import method_of

    key = composition.key()
    instances = [i for i in store.census_instances(key) if i.period <= max_period]
    cycles = [c for c in store.census_cycles(key) if c.period_cards <= max_period]
    play = store.census_play(key)
    deals = store.cycle_deals(rules=composition.rules.spec()) if composition.full else []
    periods = {c.deal: c.period_cards for c in cycles}
    return {
        "rules": composition.rules.spec(),
        "cards": composition.size,
        "composition": composition.describe(),
        "max_period": max_period,
        "instances": [{**i.to_dict(), "method": method_of(play, i.period)} for i in instances],
        "play": None if play is None else play.to_dict(),
        "cycles": [c.to_dict() for c in cycles],
        "deals": [d.to_dict(periods[d.cycle]) for d in deals if d.cycle in periods],
    }


def stored_cycle(cycle: CensusCycle, rules: str, composition: str) -> StoredCycle:
    """A census cycle as a row of the cycle table that ``beggar cycles`` and the browser read."""
    return cycle.into(StoredCycle, composition=composition, full=True, rules=rules, met=1, move="census")


# == findings ========================================================================================


@dataclass(frozen=True)
class PeriodRow:
    """One period of a stored census: its answers, its cycles and the solver's time."""

    period: int
    instances: int
    sat: int
    unsat: int
    unknown: int
    cycles: int
    mean_seconds: float
    max_seconds: float
    total_seconds: float


def period_table(store: Store, deck: str) -> list[PeriodRow]:
    """The census of one deck as stored, period by period."""
    by_period: dict[int, list[CensusInstance]] = {}
    for instance in store.census_instances(deck):
        by_period.setdefault(instance.period, []).append(instance)
    cycles: dict[int, int] = {}
    for cycle in store.census_cycles(deck):
        cycles[cycle.period_cards] = cycles.get(cycle.period_cards, 0) + 1
    table = []
    for period, found in sorted(by_period.items()):
        seconds = sorted(instance.seconds for instance in found)
        table.append(
            PeriodRow(
                period=period,
                instances=len(found),
                sat=sum(1 for i in found if i.status == SAT),
                unsat=sum(1 for i in found if i.status == UNSAT),
                unknown=sum(1 for i in found if i.status == UNKNOWN),
                cycles=cycles.get(period, 0),
                mean_seconds=sum(seconds) / len(seconds),
                max_seconds=seconds[-1],
                total_seconds=sum(seconds),
            )
        )
    return table


def plot_times(store: Store, path: Path | str) -> None:
    """Draw the solver's time per instance against the period, one line per deck the store holds,
    into ``path`` itself (.png or .svg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from beggar.research.plots import plot_format

    form = plot_format(path)

    figure, axes = plt.subplots(figsize=(8, 4.5))
    slowest = 0.0
    for deck in store.census_decks():
        table = period_table(store, deck)
        periods = [row.period for row in table]
        axes.plot(periods, [row.mean_seconds for row in table], label=f"{deck}: mean")
        axes.plot(periods, [row.max_seconds for row in table], linestyle="--", label=f"{deck}: slowest")
        slowest = max([slowest, *(row.max_seconds for row in table)])
    # Times span orders of magnitude from period to period; but a census decided by playing every
    # position records no solver time, and a log scale of nothing but zeros draws nothing.
    if slowest > 0:
        axes.set_yscale("log")
    else:
        axes.set_ylim(bottom=0)
        axes.text(
            0.5,
            0.5,
            "no solver time to show: playing every position takes none",
            transform=axes.transAxes,
            ha="center",
        )
    axes.set_xlabel("period L (cards)")
    axes.set_ylabel("seconds per instance (L, k1, n1)")
    axes.set_title("Census: solver time per instance")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format=form, dpi=110)
    plt.close(figure)
