"""What every resumable research command shares around its run: the cluster, the progress shown
on standard error, and the one message that says a stopped run resumes.

``search``, ``factory``, ``census`` and ``exhaust`` each hand :func:`run_resumable` a call into
the library that takes the executor (a Dask cluster's, or None for the local pool) and a progress
callback; everything else a person sees while it runs is said here, once. A campaign of walkers
bounded by ``--minutes`` (``search``, ``factory``) goes through :func:`run_for_minutes`.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from beggar.commands.options import connect_cluster

if TYPE_CHECKING:
    from beggar.research.cluster import CampaignProgress

P = TypeVar("P")
C = TypeVar("C", bound="CampaignProgress")


@dataclass(frozen=True)
class StatusLine(Generic[P]):
    """Progress as one line that changes in place: a run bounded by time (its line says how long is left)."""

    starting: str
    """Shown until the first results come back (the first run compiles)."""
    line: Callable[[P], str]


def time_left(budget: float, seconds: float) -> str:
    """How a status line ends: the minutes left of a run's ``budget`` after ``seconds``.

    >>> time_left(600, 90)
    '8.5 min left'
    """
    return f"{max(0.0, budget - seconds) / 60:.1f} min left"


@dataclass(frozen=True)
class Bar(Generic[P]):
    """Progress as a bar with counts, the time taken and an estimate of the time left: a finite run."""

    label: str
    """Written before the bar."""
    counts: Callable[[P], tuple[int, int]]
    """Units done (including those done before a resume) and units in all."""
    after: Callable[[P], str]
    """Written after the counts (what has been found so far)."""


@contextmanager
def _shown(display: StatusLine[P] | Bar[P], quiet: bool) -> Iterator[Callable[[P], None]]:
    """Show ``display`` on standard error while the block runs; yields the progress callback."""
    status = Console(stderr=True)
    if isinstance(display, StatusLine):
        with status.status(display.starting) as line:
            yield lambda progress: line.update(display.line(progress))
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[after]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    # No bar where standard error is not a terminal: a log or a pipe gets only what is said.
    with Progress(*columns, console=status, transient=quiet, disable=not status.is_terminal) as bar:
        task = bar.add_task(display.label, total=None, after="")

        def show(progress: P) -> None:
            done, total = display.counts(progress)
            bar.update(task, total=total, completed=done, after=display.after(progress))

        yield show


def run_resumable(
    what: str,
    kept: str,
    scheduler: str | None,
    run: Callable[[cf.Executor | None, Callable[[P], None]], P],
    display: StatusLine[P] | Bar[P],
    *,
    quiet: bool = False,
) -> P:
    """Run a resumable campaign, showing its progress, and turn its failures into one plain line.

    ``run(executor, show)`` is the library call: ``executor`` is the Dask cluster ``scheduler``
    names (None: the local pool), ``show`` the progress callback. ``what`` names the run in the
    message of a run that stopped ("the census stopped: ...; {kept}, and the same command
    resumes"): the machine or the cluster failed it (an operating system error, a lost worker or
    scheduler). The library's own errors say what went wrong themselves, and the command line
    gives every tool's the same way (:func:`beggar.cli.run`: a :class:`~beggar.errors.UserError`
    exits with 2, any other :class:`~beggar.errors.BeggarError` with 1). ``quiet`` (``--json``)
    leaves no bar behind.
    """
    cluster = connect_cluster(scheduler)
    try:
        with _shown(display, quiet) as show:
            return run(None if cluster is None else cluster.executor, show)
    except (OSError, RuntimeError, cf.BrokenExecutor) as exc:  # a cluster's errors among them
        raise click.ClickException(
            f"the {what} stopped: {exc}; {kept}, and the same command resumes"
        ) from None
    finally:
        if cluster is not None:
            cluster.close()


def run_for_minutes(
    what: str,
    kept: str,
    run: Callable[..., C],
    args: Any,
    store: Any,
    *,
    minutes: float,
    workers: int,
    units: int | None,
    scheduler: str | None,
    starting: str,
    line: Callable[[C], str],
) -> C:
    """Run (or resume) a campaign of walkers for ``minutes``, as :func:`run_resumable` runs any tool.

    ``run(args, store, seconds=, executor=, workers=, on_progress=, units=)`` is the library's
    campaign (:func:`beggar.research.search.run_search`, :func:`beggar.research.cycles.factory.run_factory`),
    with the options of :func:`~beggar.commands.options.campaign_options`; ``line(progress)`` is
    its status line, to which the minutes left are added.
    """
    budget = minutes * 60
    return run_resumable(
        what,
        kept,
        scheduler,
        lambda executor, show: run(
            args, store, seconds=budget, executor=executor, workers=workers, on_progress=show, units=units
        ),
        StatusLine(starting, lambda progress: f"{line(progress)} · {time_left(budget, progress.seconds)}"),
    )
