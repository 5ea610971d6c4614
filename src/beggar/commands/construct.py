"""The ``beggar construct`` and ``beggar census`` commands: cycles from the SAT model."""

from __future__ import annotations

import concurrent.futures as cf
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from beggar.commands.campaign import Bar, run_resumable
from beggar.commands.options import (
    Amount,
    Whole,
    cards_option,
    console,
    db_option,
    deck_of,
    kept_db_path,
    plot_option,
    rules_option,
    where_options,
)
from beggar.narrate import counted
from beggar.research.cycles.basins import BASIN_POSITIONS
from beggar.research.strategies import AUTO, MEMORY_MIB, METHODS
from beggar.rules import Rules

if TYPE_CHECKING:
    from beggar.research.cycles.basins import Basin
    from beggar.research.cycles.census import CensusProgress, PeriodRow
    from beggar.research.cycles.kinds import Composition

F = TypeVar("F", bound=Callable[..., Any])

_RULES_HELP = "Rules preset or spec: standard, court-only:deck=stripped (the Italian deck), half-deck..."


def _deck(rules: Rules, cards: str | None, balanced: bool) -> Composition:
    """The deck ``--cards`` names (:func:`~beggar.commands.options.deck_of`), refused with
    ``--balanced`` unless it is the whole deck."""
    composition = deck_of(rules, cards)
    if balanced and not composition.full:
        raise click.UsageError("--balanced needs the whole deck: a balanced deal deals every card")
    return composition


def _balanced_options(f: F) -> F:
    """``--balanced`` and ``--basin-positions``: the walk back from each cycle to its balanced deals."""
    f = click.option(
        "--basin-positions",
        type=Whole(1),
        default=BASIN_POSITIONS,
        show_default=True,
        help="Positions each backward walk explores at most.",
    )(f)
    return click.option(
        "--balanced", is_flag=True, help="Also walk back from each cycle to the balanced deals."
    )(f)


@click.command("construct")
@rules_option(help=_RULES_HELP)
@cards_option()
@click.option("--period", type=Whole(2), required=True, help="The period in cards.")
@click.option("--k1", type=Whole(1), default=None, help="Cards the leader turns in one period.")
@click.option("--n1", type=Whole(1), default=None, help="Cards in the leader's stack.")
@click.option("--all", "every", is_flag=True, help="Every cycle of these figures, not only the first.")
@click.option("--time-limit", type=Amount(min=0, min_open=True), default=None, help="Seconds per instance.")
@_balanced_options
@click.option("--json", "as_json", is_flag=True, help="Print the answers as one JSON object.")
def construct_command(
    rules: Rules,
    cards: str | None,
    period: int,
    k1: int | None,
    n1: int | None,
    every: bool,
    time_limit: float | None,
    balanced: bool,
    basin_positions: int,
    as_json: bool,
) -> None:
    """Build a never-ending game: a position that repeats every PERIOD cards, or a proof that none does.

    Each instance (period, k1, n1) is decided by a SAT solver (CaDiCaL); every position it gives is
    played by the reference engine before it is shown. Without --k1 or --n1, every value is tried.
    """
    from beggar.research.cycles.canon import CanonError
    from beggar.research.cycles.construct import Decided, Found, construction, instances
    from beggar.research.cycles.kinds import ConstructError
    from beggar.research.cycles.solve import SAT, UNSAT

    composition = _deck(rules, cards, balanced)
    if k1 is not None and k1 >= period:
        raise click.UsageError(f"--k1 {k1}: the leader turns fewer cards than the period ({period})")
    if n1 is not None and n1 >= composition.size:
        raise click.UsageError(f"--n1 {n1}: the leader holds fewer cards than the deck ({composition.size})")
    asked = instances(composition, period, k1=k1, n1=n1)
    out = console()

    def say(text: str) -> None:
        if not as_json:
            out.print(text, highlight=False)

    def decided(answer: Decided) -> None:
        for each in answer.found:
            note = "" if each.cycle.period_cards == period else " (a shorter cycle, repeated)"
            figures = f"{each.cycle.period_tricks} tricks, {each.cycle.period_cards} cards"
            at = f"period {period}, k1 {each.instance.k1}, n1 {each.instance.n1}"
            say(f"{at}: {each.deal} repeats every {figures}{note}")
        if answer.status != SAT and len(asked) == 1:
            word = "proved: no cycle" if answer.status == UNSAT else "unknown: the time limit ran out for"
            say(f"{word} {answer.instance.to_dict()} ({answer.seconds:.2f} s)")

    def walked(each: Found, basin: Basin) -> None:
        for reaching in basin.deals:
            say(f"balanced deal {reaching.deal} runs into the cycle of {each.deal}")
        walk = basin.stored
        end = "the walk ended by itself" if walk.exhausted else f"{walk.explored:,} positions explored"
        say(f"{len(basin.deals)} balanced deals reach the cycle of {each.deal} ({end})")

    try:
        answer = construction(
            composition,
            asked,
            every=every,
            time_limit=time_limit,
            balanced=balanced,
            budget=basin_positions,
            on_decided=decided,
            on_basin=walked,
        )
    except (ConstructError, CanonError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(answer.to_dict()))
        return
    if len(asked) > 1:
        tally = answer.tally()
        say(
            f"{len(asked)} instances of period {period}: {tally['sat']} sat, {tally['unsat']} unsat, "
            f"{tally['unknown']} unknown; {counted(len(answer.found), 'position')} found"
        )


@click.command("census")
@rules_option(help=_RULES_HELP)
@cards_option()
@click.option("--max-period", type=Whole(2), required=True, help="The longest period, in cards.")
@click.option(
    "--time-limit",
    type=Amount(min=0, min_open=True),
    default=None,
    help="Seconds per instance; beyond it the instance is stored as unknown.",
)
@where_options
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default=AUTO,
    show_default=True,
    help="play every position of the deck, ask the SAT solver, or play where --memory allows.",
)
@click.option(
    "--memory",
    type=Whole(1),
    default=MEMORY_MIB,
    show_default=True,
    help="MiB the visited bits of every position may take (one bit a position) to play every position.",
)
@_balanced_options
@db_option
@plot_option("the solver's time per instance (every deck stored)")
@click.option("--json", "as_json", is_flag=True, help="Print the census as one JSON object.")
def census_command(
    rules: Rules,
    cards: str | None,
    max_period: int,
    time_limit: float | None,
    workers: int,
    scheduler: str | None,
    method: str,
    memory: int,
    balanced: bool,
    basin_positions: int,
    db: str | None,
    plot_path: Path | None,
    as_json: bool,
) -> None:
    """Decide every period up to --max-period and store every cycle, each once, in the database.

    Every instance (period, k1, n1) is stored as sat, unsat or unknown with its solve time; every
    cycle by its canonical position. A deck whose positions fit --memory is decided by playing
    every position once, which finds every cycle of every period; a larger one by the SAT solver.
    Run again, the census resumes where it stopped, even after being killed.
    """
    from beggar.research.cycles.basins import walk_census_basins
    from beggar.research.cycles.census import (
        census_summary,
        period_table,
        plot_times,
        run_census,
    )
    from beggar.research.store import Store, StoreError

    composition = _deck(rules, cards, balanced)
    try:
        store = Store(kept_db_path(db))
    except StoreError as exc:
        raise click.UsageError(str(exc)) from None
    if scheduler is not None and _plays(composition, method, memory):
        click.echo(
            "beggar: this deck is decided by playing every position, on this machine's threads "
            "(--workers); --scheduler serves the solver only and is not used",
            err=True,
        )
        scheduler = None

    def census(executor: cf.Executor | None, show: Callable[[CensusProgress], None]) -> CensusProgress:
        progress = run_census(
            composition,
            store,
            max_period,
            time_limit=time_limit,
            workers=workers,
            executor=executor,
            on_progress=show,
            method=method,
            memory=memory * 2**20,
        )
        if balanced:
            walk_census_basins(store, composition, max_period, budget=basin_positions)
        return progress

    progress = run_resumable(
        "census",
        "every answer saved so far is kept",
        scheduler,
        census,
        Bar(
            f"census {composition.key()}",
            lambda progress: (progress.decided + progress.unknown, progress.instances),
            lambda progress: f"cycles {progress.new_cycles}",
        ),
        quiet=as_json,
    )
    summary = census_summary(store, composition, max_period)
    if not balanced:
        summary.pop("deals")
    if plot_path is not None:
        try:
            plot_times(store, plot_path)
        except OSError as exc:
            raise click.ClickException(f"cannot write the plot {plot_path}: {exc.strerror or exc}") from None
    if as_json:
        click.echo(json.dumps(summary))
        return
    _print_census(summary, period_table(store, composition.key()), progress, store.path)


def _plays(composition: Composition, method: str, memory_mib: int) -> bool:
    """Whether the census plays every position of the deck (a method refused is the run's to say)."""
    from beggar.research.cycles.complete import chosen
    from beggar.research.cycles.kinds import ConstructError

    try:
        return chosen(composition, method, memory_mib * 2**20)
    except ConstructError:
        return False


def _print_census(
    summary: dict[str, Any], rows: list[PeriodRow], progress: CensusProgress, path: str
) -> None:
    """The census as a table by period, its cycles and a closing line."""
    from rich.table import Table

    out = console()
    title = f"Census of {summary['rules']} ({summary['composition']}) up to {summary['max_period']} cards"
    table = Table(title=title)
    play = summary.get("play")
    for column in (
        "period",
        "instances",
        "sat",
        "unsat",
        "unknown",
        "cycles",
        "mean s",
        "slowest s",
        "method",
    ):
        table.add_column(column, justify="right")
    for row in rows:
        if row.period <= summary["max_period"]:
            table.add_row(
                str(row.period),
                str(row.instances),
                str(row.sat),
                str(row.unsat),
                str(row.unknown),
                str(row.cycles),
                f"{row.mean_seconds:.3f}",
                f"{row.max_seconds:.2f}",
                "play" if play is not None and row.period <= play["max_period"] else "solver",
            )
    out.print(table)
    for cycle in summary["cycles"]:
        out.print(
            f"{cycle['deal']}  {cycle['period_tricks']} tricks, {cycle['period_cards']} cards",
            highlight=False,
        )
    proven = [
        row.period for row in rows if row.unsat == row.instances and row.period <= summary["max_period"]
    ]
    out.print(
        f"{counted(len(summary['instances']), 'instance')} in {path}; "
        f"{counted(len(summary['cycles']), 'cycle')}; "
        f"{counted(len(proven), 'period')} proved to have none; this run {progress.seconds:.1f} s",
        highlight=False,
    )
    if play is not None:
        out.print(
            f"decided to {play['max_period']} cards by playing every position: {play['positions']:,} "
            f"positions, {play['played']:,} played (those a trick can end in), "
            f"{counted(play['cycles'], 'cycle')} of every period, "
            f"{play['seconds']:.1f} s",
            highlight=False,
        )
    if "deals" in summary:
        out.print(f"{len(summary['deals'])} balanced deals reach them", highlight=False)


COMMANDS = (construct_command, census_command)
