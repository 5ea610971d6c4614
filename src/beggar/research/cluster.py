"""Running research work on a Dask cluster instead of the local process pool.

The research tools submit their units of work to a :class:`concurrent.futures.Executor`: a
process pool on this machine by default, or the executor of a Dask ``distributed`` client, so
both run the very same code path. One loop runs every resumable campaign's units: endless
walkers whose states are saved (:func:`run_campaign`: the search, the cycle factory) and finite
lists of units (:func:`run_units`: the census's periods, the enumeration's ranges of deal
indices); :class:`UnitList` says how a tool declares its unit.

>>> connect("http://example")
Traceback (most recent call last):
...
beggar.research.cluster.ClusterError: write the Dask scheduler as tcp://HOST:PORT, not 'http://example'
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import itertools
import math
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from beggar.errors import BeggarError

if TYPE_CHECKING:
    from beggar.research.store import Campaign, Store


class ClusterError(BeggarError, RuntimeError):
    """A cluster that cannot be used: not installed, badly named, or unreachable."""


_ADDRESS = re.compile(r"(tcp|tls|ws|wss|inproc)://\S+")


@dataclass
class Cluster:
    """A connection to a Dask scheduler and the executor that submits work to it."""

    client: Any
    executor: cf.Executor

    def close(self) -> None:
        self.client.close()


CONNECT_TIMEOUT = 10.0
"""Seconds to keep trying to reach a Dask scheduler before saying it cannot be reached."""


def connect(address: str, *, timeout: float | None = None) -> Cluster:
    """Connect to the Dask scheduler at ``address`` (``tcp://HOST:PORT``), trying for ``timeout``
    seconds (:data:`CONNECT_TIMEOUT` by default)."""
    if not _ADDRESS.fullmatch(address):
        raise ClusterError(f"write the Dask scheduler as tcp://HOST:PORT, not {address!r}")
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(
            "a Dask scheduler needs Dask's distributed: pip install 'beggar[cluster]'"
        ) from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT if timeout is None else timeout)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return Cluster(client, client.get_executor(pure=False))  # type: ignore[no-untyped-call]


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` ends: the first act of every process the research tools start.

    A search or census killed with SIGKILL cannot stop its workers or its solver's child process;
    without this they would keep running, and holding memory, under init. Linux ends them at once
    (``PR_SET_PDEATHSIG``); a watchdog thread catches the rest within a second (another system, or
    a parent already gone).
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # gone before the request above: nothing would signal us
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="beggar-parent-watch", daemon=True).start()


def _start_worker(parent: int, then: Callable[[], None] | None) -> None:
    """A pool worker's start: die with the process that started the pool, then ``then``."""
    die_with_parent(parent)
    if then is not None:
        then()


def local_pool(
    workers: int, initializer: Callable[[], None] | None = None, *, units: int | None = None
) -> cf.ProcessPoolExecutor:
    """A pool of at most ``workers`` processes on this machine that end when this process ends,
    even by SIGKILL: never more than the cores, nor than ``units`` pieces of work (see
    :func:`bounded_workers`).

    ``initializer`` runs once in each worker (for example, to load the compiled kernel).
    """
    return cf.ProcessPoolExecutor(
        max_workers=bounded_workers(workers, units),
        initializer=_start_worker,
        initargs=(os.getpid(), initializer),
    )


class UnitOutcome(Protocol):
    """What one walker's unit returns: which walker and unit it was, and the walker's new state."""

    walker: int
    unit: int
    state: dict[str, Any]


R = TypeVar("R")
K = TypeVar("K")

WINDOW_PER_WORKER = 2
"""Units of a finite list kept in flight per local worker: enough that no worker waits, few enough
that a run stopped early has little to cancel."""
CLUSTER_WINDOW = 256
"""Units of a finite list kept in flight on a Dask cluster, whose size this process does not know."""


@dataclass(frozen=True)
class Schedule:
    """How long and where a campaign's units run: what every resumable command's options say."""

    seconds: float = math.inf
    """Submit no new unit after this many seconds (units already running finish and are kept)."""
    executor: cf.Executor | None = None
    """A Dask cluster's executor; None runs a process pool of ``workers`` here."""
    workers: int | None = None
    """Processes of the local pool (None: :func:`default_workers`)."""
    units: int | None = None
    """Walker campaigns: stop each walker once it has done this many units in all (None: when time
    is up)."""


def _drive(
    work: Callable[..., R],
    first: Iterator[tuple[Any, ...]],
    record: Callable[[R], tuple[Any, ...] | None],
    schedule: Schedule,
    *,
    window: int,
    units: int | None,
    initializer: Callable[[], None] | None,
    on_round: Callable[[], None] | None,
) -> None:
    """The one loop that runs units: at most ``window`` in flight, each result recorded as it comes.

    ``first`` gives the arguments of the units to start, read lazily; ``record(result)`` stores a
    result in this process and returns the arguments of a unit that follows it (a walker's next
    unit), or None. Nothing new is submitted after ``schedule.seconds``; units already running
    finish and are recorded. Without an executor the units run on a :func:`local_pool` of no more
    processes than ``units`` (where it is known), shut down (its queued units cancelled) however
    the loop ends.
    """
    own = schedule.executor is None
    pool = schedule.executor or local_pool(schedule.workers or default_workers(), initializer, units=units)
    deadline = time.monotonic() + schedule.seconds
    pending: set[cf.Future[R]] = set()
    # Results that come back in the same round are recorded in the order their units were
    # submitted: one worker's units are then kept in order, and a run stopped by a failed record
    # (a full disk) has kept every unit before the one refused, none after it.
    submitted: dict[cf.Future[R], int] = {}
    order = itertools.count()

    def submit(task: tuple[Any, ...]) -> None:
        future = pool.submit(work, *task)
        submitted[future] = next(order)
        pending.add(future)

    def fill() -> None:
        while len(pending) < window and time.monotonic() < deadline:
            task = next(first, None)
            if task is None:
                return
            submit(task)

    try:
        fill()
        while pending:
            done, _ = cf.wait(pending, timeout=0.5, return_when=cf.FIRST_COMPLETED)
            for future in sorted(done, key=submitted.__getitem__):
                pending.discard(future)
                del submitted[future]
                follow = record(future.result())
                if follow is not None and time.monotonic() < deadline:
                    submit(follow)
            fill()
            if on_round is not None:
                on_round()
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)


def run_walkers(
    work: Callable[[dict[str, Any], int, int, dict[str, Any]], UnitOutcome],
    args: dict[str, Any],
    walkers: int,
    states: dict[int, tuple[int, dict[str, Any]]],
    record: Callable[[Any], None],
    schedule: Schedule,
    *,
    initializer: Callable[[], None] | None = None,
    on_round: Callable[[], None] | None = None,
) -> None:
    """Run each walker's units one after another, the walkers side by side, on ``schedule``.

    ``work(args, walker, unit, state)`` does one unit (a pure function of its arguments, so a unit
    cut off is simply done again); ``record`` stores each result as it comes back, in the calling
    process. ``states`` says where each walker resumes; ``schedule.units`` stops each walker after
    that many units in all.
    """
    limit = schedule.units

    def starts() -> Iterator[tuple[Any, ...]]:
        for walker in range(walkers):
            unit, state = states.get(walker, (0, {}))
            if limit is None or unit < limit:
                yield args, walker, unit, state

    def follow(result: UnitOutcome) -> tuple[Any, ...] | None:
        record(result)
        if limit is not None and result.unit + 1 >= limit:
            return None
        return args, result.walker, result.unit + 1, result.state

    _drive(
        work,
        starts(),
        follow,
        schedule,
        window=walkers,
        units=walkers,  # a walker runs one unit at a time
        initializer=initializer,
        on_round=on_round,
    )


@dataclass(frozen=True)
class UnitList(Generic[K, R]):
    """A finite campaign, declared by its unit: the census's periods, an enumeration's index ranges.

    A tool that declares these three things gets resume, the process pool or Dask, and progress
    from :func:`run_units`:

    - ``keys``: the units its store does not mark done yet, in the order they should start, each a
      small picklable value (a frozen data class, a tuple of indices);
    - ``work(key)``: a pure function of the key, importable by a worker (a module-level function,
      or a :func:`functools.partial` of one), that returns the unit's result;
    - ``record(result)``: a store method that writes the result and marks its key done in one
      transaction, so a run killed at any moment (SIGKILL included) loses no unit recorded and
      counts none twice: a unit cut off is not marked, and is simply done again.
    """

    keys: Iterable[K]
    work: Callable[[K], R]
    record: Callable[[R], None]


def run_units(
    units: UnitList[K, R],
    schedule: Schedule,
    *,
    initializer: Callable[[], None] | None = None,
    on_round: Callable[[], None] | None = None,
) -> None:
    """Run every unit of a finite list on ``schedule``, each result recorded as it comes back.

    ``on_round`` is called after each round of results (to show progress).

    >>> done = []
    >>> run_units(UnitList(range(3), abs, done.append), Schedule(workers=1))
    >>> sorted(done)
    [0, 1, 2]
    """
    window = CLUSTER_WINDOW if schedule.executor is not None else 0
    window = window or WINDOW_PER_WORKER * (schedule.workers or default_workers())

    def follow(result: R) -> None:
        units.record(result)

    _drive(
        units.work,
        ((key,) for key in units.keys),
        follow,
        schedule,
        window=window,
        units=len(units.keys) if isinstance(units.keys, Sized) else None,
        initializer=initializer,
        on_round=on_round,
    )


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def bounded_workers(requested: int | None, units: int | None = None) -> int:
    """How many processes (or threads) to run: ``requested`` (every core when None), but never
    more than the cores this process may use, nor more than ``units`` pieces of work, nor fewer
    than one.

    The one bound on every ``--workers``: a process beyond the cores only adds memory (each one
    loads the compiled kernels), and one beyond the work does nothing at all.

    >>> bounded_workers(2**31) == default_workers()
    True
    >>> bounded_workers(None, units=1)
    1
    """
    count = min(default_workers(), requested or default_workers())
    if units is not None:
        count = min(count, units)
    return max(1, count)


@dataclass
class CampaignProgress:
    """What a running campaign has done so far: the part every kind of campaign shares."""

    campaign: str
    started: float = field(default_factory=time.monotonic)
    units: int = 0
    resumed_units: int = 0
    """Units its walkers had done before this run (a resumed campaign)."""

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started


P = TypeVar("P", bound=CampaignProgress)


def run_campaign(
    work: Callable[[dict[str, Any], int, int, dict[str, Any]], UnitOutcome],
    args: dict[str, Any],
    walkers: int,
    store: Store,
    start: Callable[[Campaign], P],
    record: Callable[[Campaign, P, Any], None],
    schedule: Schedule,
    *,
    initializer: Callable[[], None] | None = None,
    on_progress: Callable[[P], None] | None = None,
) -> P:
    """Run (or resume) the campaign named by ``args`` in ``store``: its walkers, on ``schedule``
    (see :func:`run_walkers`).

    The one runner of the search and the cycle factory. ``start(campaign)`` makes the progress,
    which learns how many units were done before; ``record(campaign, progress, result)`` stores
    each unit's result; ``on_progress(progress)`` is called after each round of results.
    """
    campaign = store.campaign(args)
    progress = start(campaign)
    states = store.walkers(campaign)
    progress.resumed_units = sum(unit for unit, _ in states.values())
    run_walkers(
        work,
        args,
        walkers,
        states,
        lambda result: record(campaign, progress, result),
        schedule,
        initializer=initializer,
        on_round=None if on_progress is None else lambda: on_progress(progress),
    )
    return progress
