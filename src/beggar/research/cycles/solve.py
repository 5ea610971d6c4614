"""Solving the model of a cycle and enumerating its solutions, each replayed by the engine.

CaDiCaL decides an instance ``(L, k1, n1)`` of :mod:`beggar.research.cycles.model`: a position,
or a proof that none exists. Every position is played by the reference engine before it is
returned (:func:`beggar.research.cycles.kinds.replay`). After each position found, every trick end
of its cycle that fits the instance is blocked, so that each cycle is given once; an instance's
status comes from the whole enumeration (:func:`instance_status`). With a time limit the solver
runs in a child process that dies with its parent (:func:`beggar.research.cluster.die_with_parent`).

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
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from beggar.cycle import Cycle
from beggar.research.cluster import die_with_parent
from beggar.research.cycles.kinds import (
    Composition,
    ConstructError,
    Instance,
    lead_size,
    leader_first,
    replay,
)
from beggar.research.cycles.model import RowModel, build_period, build_row

SAT = "sat"
UNSAT = "unsat"
UNKNOWN = "unknown"


def instance_status(positions: int, last: str) -> str:
    """The status of an instance, from the positions its enumeration found and its last answer.

    ``sat`` when positions were found and the enumeration finished (or stopped at the number of
    positions asked for); ``unsat`` when it finished with none; ``unknown`` whenever the time ran
    out first, even after positions were found: those positions are kept, but the instance may
    hold cycles not yet found, so a census tries it again under a longer time limit. ``beggar
    construct`` and the census both ask this one function.

    >>> instance_status(2, UNSAT), instance_status(1, SAT), instance_status(0, UNSAT)
    ('sat', 'sat', 'unsat')
    >>> instance_status(2, UNKNOWN)
    'unknown'
    """
    if last == UNKNOWN:
        return UNKNOWN
    return SAT if positions else last


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


@dataclass(frozen=True)
class Encoding:
    """How a row is modelled and solved: options of :func:`~beggar.research.cycles.model.build_row`
    and of the solver (each measured by ``bench/census_sat.py``)."""

    least_leader: bool = False
    """Only trick ends where no trick end has a smaller leader's stack (the row census's question)."""
    least_stack: bool = False
    """Only trick ends where the other seat's stack is the least stack of every trick end (see
    :func:`~beggar.research.cycles.model.build_row`)."""
    focused: bool = False
    """CaDiCaL in its focused mode only (no stable phases), which suits proofs of ``unsat``."""
    free_hands: bool = False
    """One question for the whole row (the hand size left to the solver) instead of one question
    per hand size under assumptions; its positions come in any order of ``n1`` (so not with a
    time limit, whose child process answers hand size by hand size)."""
    solver: str = "cadical195"
    """The python-sat solver (``focused`` is CaDiCaL's only)."""
    cardinality: str = "counter"
    """How the deck's composition is encoded (see :meth:`beggar.research.cycles.model.build_row`)."""
    shared_bound: bool = False
    """With ``least_stack``: the bound on the leader's seat that holds for every hand size as
    clauses of their own, shared by every instance of the row."""
    link: str = "tape"
    """How a won card is tied to the tape cell where it comes up again: ``tape`` (through the
    number of cards won) or ``mod`` (a counter modulo ``k_p``; see
    :func:`~beggar.research.cycles.model.build_row`)."""
    extremes: bool = False
    """The bounds on the stacks written once for every hand size, through the extremes of what
    each seat loses (each hand size's bound a unit clause on them; see
    :func:`~beggar.research.cycles.model.build_row`)."""
    whole_period: bool = False
    """Every row of a period in one model and one solver (each instance chosen by a row's and a
    hand size's selectors: :func:`~beggar.research.cycles.model.build_period`),
    so what the solver learns on one row serves the others; each cycle found is blocked at every
    trick end of it, in whichever row that trick end falls."""

    def model_options(self) -> dict[str, Any]:
        """The options the model builders take (:func:`~beggar.research.cycles.model.build_row`,
        :func:`~beggar.research.cycles.model.build_period`), from this one encoding."""
        return {
            "least_leader": self.least_leader,
            "least_stack": self.least_stack,
            "cardinality": self.cardinality,
            "shared_bound": self.shared_bound,
            "link": self.link,
            "extremes": self.extremes,
        }


@dataclass
class SolverClock:
    """CPU seconds spent inside the solver's calls (``time.process_time``), added up over rows."""

    seconds: float = 0.0


def _solver(clauses: list[list[int]], encoding: Encoding | None = None) -> Any:
    """A solver holding ``clauses``: CaDiCaL 1.9.5 unless ``encoding`` names another of python-sat's."""
    from pysat.solvers import Cadical195, Solver  # the solver is loaded only when a model is solved

    encoding = encoding or Encoding()
    if encoding.solver != "cadical195":
        return Solver(name=encoding.solver, bootstrap_with=clauses)
    if not encoding.focused:
        return Cadical195(bootstrap_with=clauses)
    solver = Cadical195()
    solver.configure({"stabilize": 0})
    solver.append_formula(clauses)
    return solver


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
    stream = _enumerate(composition, instance, Encoding(least_leader=least_leader))
    for found, kinds in enumerate(stream, start=1):
        if not kinds:
            yield Answer(instance, UNSAT, time.perf_counter() - start)
            return
        deal, cycle = replay(composition, kinds, instance)
        yield Answer(instance, SAT, time.perf_counter() - start, kinds, deal, cycle)
        if limit is not None and found >= limit:
            stream.close()
            return


def _enumerate(composition: Composition, instance: Instance, encoding: Encoding) -> Generator[list[int]]:
    """The positions of one instance as kinds, then an empty list (no more): a row of one hand size."""
    for _, kinds in _enumerate_row(composition, instance.period, instance.k1, [instance.n1], encoding):
        yield kinds


def _enumerate_row(
    composition: Composition,
    period: int,
    k1: int,
    hands: Sequence[int],
    encoding: Encoding,
    clock: SolverClock | None = None,
) -> Generator[tuple[int, list[int]]]:
    """The positions of each instance of a row in turn, as ``(n1, kinds)``; ``(n1, [])`` closes each.

    ``clock`` adds up the CPU time of the solver's calls."""
    model = build_row(composition, period, k1, hands, **encoding.model_options())
    solver = _solver(model.cnf.clauses, encoding)
    try:
        if encoding.free_hands:  # one question for the whole row: some hand size of ``hands``
            # every trick end of a cycle found, whatever its hand size, is blocked in the row
            yield from _positions(
                solver, model, composition, period, k1, None, [], clock,
                lambda _, size, __: (size, k1) if size in model.selectors else None,
            )  # fmt: skip
            for n1 in hands:
                yield n1, []
            return
        for n1 in hands:
            # the trick ends of a cycle found are blocked in this instance only: a later hand size
            # of the row decides its own instance, the cycle given again if it holds one
            yield from _positions(
                solver, model, composition, period, k1, n1, model.assumptions(k1, n1), clock,
                lambda n1, size, _: (n1, k1) if size == n1 else None,
            )  # fmt: skip
            yield n1, []
    finally:
        solver.delete()


def period_enumerate(
    composition: Composition,
    period: int,
    k1s: Sequence[int],
    hands: Sequence[int],
    encoding: Encoding,
    clock: SolverClock | None = None,
) -> Generator[tuple[int, int, list[int]]]:
    """The positions of every instance of the rows ``k1s`` of a period, from one model and one
    solver (:func:`~beggar.research.cycles.model.build_period`), as ``(k1, n1, kinds)``; ``(k1, n1,
    [])`` closes each instance. Rows are asked in the order of ``k1s``, hand sizes in the order of
    ``hands``.

    After each position, every trick end of its cycle is blocked in its own instance: a trick end
    where the position's leader leads has its row ``k1``, one where the other seat leads the row
    ``period - k1`` (each seat turns as many cards in a period wherever it starts). So each cycle
    is given once in the whole period, at the first instance asked that holds one of its trick
    ends, and an instance asked later may answer ``unsat`` where a row model would give the same
    cycle again.
    """
    model = build_period(composition, period, k1s, hands, **encoding.model_options())
    solver = _solver(model.cnf.clauses, encoding)
    try:
        for k1 in k1s:

            def trick_end(_: int, size: int, leader: int, k1: int = k1) -> tuple[int, int] | None:
                row = k1 if leader == 0 else period - k1
                return (size, row) if row in model.rows and size in model.selectors else None

            for n1 in hands:
                for _, kinds in _positions(
                    solver, model, composition, period, k1, n1, model.assumptions(k1, n1), clock, trick_end
                ):
                    yield k1, n1, kinds
                yield k1, n1, []
    finally:
        solver.delete()


def _positions(
    solver: Any,
    model: RowModel,
    composition: Composition,
    period: int,
    k1: int,
    hand: int | None,
    assumptions: list[int],
    clock: SolverClock | None,
    trick_end: Callable[[int, int, int], tuple[int, int] | None],
) -> Generator[tuple[int, list[int]]]:
    """Every position the solver gives in the row ``(period, k1)`` under ``assumptions``, as ``(n1,
    kinds)`` (``n1`` is ``hand``, or read from the answer where the question leaves it free).

    Each is replayed by the engine, then blocked, and with it every trick end of its cycle that
    ``trick_end(n1, its leader's stack size, its leader)`` names as ``(size, row)``: the one loop of
    the row census and the period census, which differ only in the trick ends they block."""
    while _timed(solver, assumptions, clock):
        decoded, kinds = model.decode(solver.get_model())
        n1 = decoded if hand is None else hand  # an assumed hand size is the one asked, not decoded
        yield n1, kinds
        _, cycle = replay(composition, kinds, Instance(period, k1, n1))
        for position in cycle.positions:
            named = trick_end(n1, lead_size(position), position.leader)
            if named is not None:
                solver.add_clause(model.blocking(named[0], leader_first(composition, position), named[1]))
        solver.add_clause(model.blocking(n1, kinds, k1))


def _timed(solver: Any, assumptions: list[int], clock: SolverClock | None) -> bool:
    """The solver's answer under ``assumptions``, its CPU time added to ``clock``."""
    if clock is None:
        return bool(solver.solve(assumptions=assumptions))
    start = time.process_time()
    try:
        return bool(solver.solve(assumptions=assumptions))
    finally:
        clock.seconds += time.process_time() - start


def row_solutions(
    composition: Composition,
    period: int,
    k1: int,
    hands: Sequence[int],
    *,
    time_limit: float | None = None,
    least_leader: bool = False,
    incremental: bool = True,
    encoding: Encoding | None = None,
    clock: SolverClock | None = None,
) -> Iterator[Answer]:
    """:func:`solutions` for every hand size ``n1`` of ``hands`` in turn, with a time limit for each.

    ``incremental`` builds one :class:`RowModel` for the row and decides its instances one after
    another under assumptions (the first instance's time includes building it); otherwise each
    instance gets a model and a solver of its own. With a time limit the solver runs in one child
    process for the whole row; an instance that runs out of time is answered ``unknown``, its
    process stopped, and a new one takes the rest. ``encoding`` (incremental only) replaces
    ``least_leader`` with every option of :class:`Encoding`; ``clock`` (without a time limit)
    adds up the solver's own CPU time.
    """
    if encoding is None:
        encoding = Encoding(least_leader=least_leader)
    if time_limit is None:
        if not incremental:
            for n1 in hands:
                yield from solutions(composition, Instance(period, k1, n1), least_leader=least_leader)
            return
        enumerated = _enumerate_row(composition, period, k1, hands, encoding, clock)
        yield from _answers(composition, period, ((k1, n1, kinds) for n1, kinds in enumerated))
        return
    left = list(hands)
    while left:
        for answer in _row_in_child(composition, period, k1, left, encoding, time_limit, incremental):
            yield answer
            if answer.status != SAT:
                left.remove(answer.instance.n1)


def period_solutions(
    composition: Composition,
    period: int,
    k1s: Sequence[int],
    hands: Sequence[int],
    *,
    time_limit: float | None = None,
    encoding: Encoding,
    clock: SolverClock | None = None,
) -> Iterator[Answer]:
    """:func:`row_solutions` for every row ``k1`` of ``k1s`` in turn, or, with the encoding's
    ``whole_period``, from one model of all of them (:func:`period_enumerate`; no time limit)."""
    if not encoding.whole_period:
        for k1 in k1s:
            yield from row_solutions(
                composition, period, k1, hands, time_limit=time_limit, encoding=encoding, clock=clock
            )
        return
    if time_limit is not None:
        raise ConstructError("a whole period in one solver has no time limit: ask it row by row")
    enumerated = period_enumerate(composition, period, k1s, hands, encoding, clock)
    yield from _answers(composition, period, enumerated)


def _answers(
    composition: Composition, period: int, enumerated: Iterable[tuple[int, int, list[int]]]
) -> Iterator[Answer]:
    """The answers of enumerated positions ``(k1, n1, kinds)``, each replayed by the engine, and
    the ``unsat`` that closes each instance (an empty ``kinds``); an answer's seconds run from the
    end of the instance before, so the first carries the model's building."""
    start = time.perf_counter()
    for k1, n1, kinds in enumerated:
        instance = Instance(period, k1, n1)
        if not kinds:
            yield Answer(instance, UNSAT, time.perf_counter() - start)
            start = time.perf_counter()
            continue
        deal, cycle = replay(composition, kinds, instance)
        yield Answer(instance, SAT, time.perf_counter() - start, kinds, deal, cycle)


def _row_in_child(
    composition: Composition,
    period: int,
    k1: int,
    hands: list[int],
    encoding: Encoding,
    seconds: float,
    incremental: bool,
) -> Iterator[Answer]:
    """Answers for ``hands`` from one child process, until the row ends or an instance runs out of time."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    job = (composition, period, k1, tuple(hands), encoding, incremental)
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
    encoding: Encoding,
    incremental: bool,
) -> None:
    """The child process of :func:`_row_in_child`: every position of the row, sent as found.

    It ends with its parent, even one killed by SIGKILL (Linux), so no solver runs on unwatched.
    """
    die_with_parent(parent)
    try:
        if incremental:
            for message in _enumerate_row(composition, period, k1, hands, encoding):
                send.send(message)
            return
        for n1 in hands:
            for kinds in _enumerate(composition, Instance(period, k1, n1), encoding):
                send.send((n1, kinds))
    except ConstructError as exc:
        send.send(str(exc))
    finally:
        send.close()
