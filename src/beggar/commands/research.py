"""Research commands: ``simulate``, ``bench``, ``search``, ``top`` and ``export``."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from beggar.commands.campaign import run_for_minutes
from beggar.commands.options import (
    Whole,
    campaign_options,
    console,
    db_option,
    db_path,
    kept_db_path,
    output_file,
    plot_option,
    rules_option,
    workers_option,
)
from beggar.research.store import EXPORT_FORMS, FIND_ORDERS
from beggar.research.strategies import STRATEGIES, TARGETS
from beggar.rules import Rules

if TYPE_CHECKING:
    from beggar.research.search import Progress as SearchProgress
    from beggar.research.search import SearchArgs
    from beggar.research.simulate import CsvRows, Summary

# -- simulate ----------------------------------------------------------------------------------------


def _progress(out: Console, show: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=out,
        transient=True,
        disable=not show,
    )


@click.command("simulate")
@click.option(
    "-n",
    "--games",
    type=Whole(min=1),
    default=100_000,
    show_default=True,
    help="Games per rule set.",
)
@rules_option(several=True, help="Rules preset or spec; several, comma-separated, are compared side by side.")
@click.option("--seed", type=Whole(min=0), default=0, show_default=True, help="Seed of the random deals.")
@workers_option("Threads to run the kernel on")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write one row per game to this CSV file.",
)
@plot_option("the length histogram and survival curve")
def simulate_command(
    games: int,
    rules: tuple[Rules, ...],
    seed: int,
    workers: int,
    as_json: bool,
    csv_path: Path | None,
    plot_path: Path | None,
) -> None:
    """Play GAMES random deals per rule set with the compiled kernel and summarise them.

    The summary gives the mean, median, 10th, 90th and 99th percentiles and maximum of cards
    and tricks, the share of all games won by the player who led (with a Wilson 95% interval),
    and how many games finished, looped, were stopped by a limit, drawn or redealt. Game i of a
    seed is always the same deal, whatever the number of workers. A time limit in the rules is
    ignored: it is for live tables.
    """
    # Here, not at the top: numpy loads for the commands that use it, not for every other command.
    from beggar.research.simulate import simulate, summaries_json, summary_table

    out = Console(stderr=True)
    show = out.is_terminal and games * len(rules) >= 200_000
    summaries: list[Summary] = []
    with _csv_rows(csv_path) as sink, _progress(out, show) as bar:
        for one in rules:
            task = bar.add_task(one.name, total=games)
            summaries.append(
                simulate(one, games, seed, workers, progress=partial(bar.advance, task), rows=sink)
            )
    if plot_path is not None:
        from beggar.research.plots import plot_summaries

        try:
            plot_summaries(summaries, plot_path)
        except OSError as exc:
            raise click.ClickException(f"cannot write the plot {plot_path}: {exc.strerror or exc}") from None
    if as_json:
        click.echo(summaries_json(summaries))
    else:
        Console(width=max(100, 24 + 16 * len(summaries))).print(summary_table(summaries))


class _csv_rows:
    """A context manager giving a :class:`CsvRows` writing to a path, or None without a path."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._file: Any = None

    def __enter__(self) -> CsvRows | None:
        if self.path is None:
            return None
        from beggar.research.simulate import CsvRows

        self._file = output_file(self.path, newline="")
        return CsvRows(self._file.__enter__())

    def __exit__(self, *exc: Any) -> None:
        if self._file is not None:
            self._file.__exit__(*exc)


# -- bench -------------------------------------------------------------------------------------------


@click.command("bench")
@click.option("-n", "--games", type=Whole(min=1), default=1_000_000, show_default=True, help="Kernel games.")
@click.option(
    "--engine-games",
    type=Whole(min=1),
    default=2_000,
    show_default=True,
    help="Games for the reference engine (it is much slower).",
)
@rules_option()
@workers_option("Threads for the all-cores figure")
@click.option("--repeat", type=Whole(min=1), default=1, show_default=True, help="Runs per figure (median).")
@click.option(
    "--seed",
    type=Whole(min=0),
    default=0,
    show_default=True,
    help="Seed of the random deals played.",
)
@click.option(
    "--compile/--no-compile",
    "measure_compile",
    default=True,
    show_default=True,
    help="Measure the first-run compile time in a fresh interpreter (takes a while).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_command(
    games: int,
    engine_games: int,
    rules: Rules,
    workers: int,
    repeat: int,
    seed: int,
    measure_compile: bool,
    as_json: bool,
) -> None:
    """Games and cards per second: the kernel on one worker and on all cores, and the reference engine."""
    from beggar.research.bench import BenchError, Speed, measure, ratio

    try:
        report = measure(rules, games, engine_games, workers, repeat, seed, measure_compile)
    except BenchError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    keys = ("kernel_1_worker", "kernel_all_cores", "general_kernel_1_worker", "engine")
    speeds = [Speed.from_dict(report[key]) for key in keys]
    engine = speeds[-1]
    table = Table(title=f"beggar bench: random {rules.spec()} deals, shuffle included")
    for column in ("", "games", "seconds", "games/s", "cards/s", "vs engine"):
        table.add_column(column, justify="left" if not column else "right")
    for speed in speeds:
        table.add_row(
            speed.label,
            f"{speed.games:,}",
            f"{speed.seconds:.3f}",
            f"{speed.games_per_second:,.0f}",
            f"{speed.cards_per_second:,.0f}",
            f"{ratio(speed.games_per_second, engine.games_per_second):,.0f}x",
        )
    out = Console(width=110)
    out.print(table)
    out.print(f"all cores / 1 worker: {report['ratios']['all_cores_over_1_worker']:.2f}x")
    out.print(f"fastest kernel / general kernel: {report['ratios']['kernel_over_general_kernel']:.2f}x")
    if report["compile_seconds"] is not None:
        out.print(
            f"first-run compile: {report['compile_seconds']:.1f} s; "
            f"loading the compiled cache: {report['cache_load_seconds']:.2f} s"
        )


# -- search, top, export -----------------------------------------------------------------------------


@click.command("search")
@rules_option()
@click.option(
    "--strategy",
    type=click.Choice(STRATEGIES),
    default=STRATEGIES[0],
    show_default=True,
    help="Random sampling (the strongest measured here), hill climbing with restarts, or annealing.",
)
@click.option(
    "--target",
    type=click.Choice(TARGETS),
    default=TARGETS[0],
    show_default=True,
    help="Longest games by cards or tricks, or deals that never end.",
)
@campaign_options("Independent searchers")
def search_command(
    rules: Rules,
    strategy: str,
    target: str,
    minutes: float,
    seed: int,
    workers: int,
    walkers: int | None,
    db: str | None,
    scheduler: str | None,
    units: int | None,
    as_json: bool,
) -> None:
    """Hunt for record-long and never-ending deals; every find goes into the database.

    Started again with the same arguments, a search resumes its campaign where it stopped, even
    after being killed.
    """
    from beggar.research.search import SearchArgs, SearchError, run_search
    from beggar.research.store import Store, StoreError

    try:
        args = SearchArgs(rules.spec(), strategy, target, seed, walkers or workers)
        store = Store(kept_db_path(db))
    except (SearchError, StoreError) as exc:
        raise click.UsageError(str(exc)) from None
    progress = run_for_minutes(
        "search",
        "every find saved so far is kept",
        run_search,
        args,
        store,
        minutes=minutes,
        workers=workers,
        units=units,
        scheduler=scheduler,
        starting="starting the search (compiling the kernel the first time)",
        line=lambda progress: _status_line(args, progress),
    )
    best = progress.best
    summary = progress.summary(args, store.path)
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(
        f"{progress.scored:,} deals scored in {progress.seconds:.0f} s ({progress.rate:,.0f} a second); "
        f"{progress.new_finds} new finds, {len(progress.loops)} never-ending deals; "
        f"campaign {progress.campaign} in {store.path}"
    )
    if best is not None:
        click.echo(f"best: {best.deal}  {best.cards} cards, {best.tricks} tricks ({best.status})")


def _status_line(args: SearchArgs, progress: SearchProgress) -> str:
    best = progress.best
    shown = "none yet" if best is None else f"{best.cards:,} cards, {best.tricks:,} tricks"
    return (
        f"{args.strategy} · {args.rules} · {progress.rate:,.0f} deals/s · best {shown} · "
        f"loops {len(progress.loops)} · finds {progress.new_finds}"
    )


_FIND_FILTER_HELP = "Only finds under these rules (as searched)."


@click.command("top")
@rules_option(None, help=_FIND_FILTER_HELP)
@click.option(
    "--by",
    type=click.Choice(FIND_ORDERS),
    default=FIND_ORDERS[0],
    show_default=True,
    help="Rank finds by cards turned or by tricks.",
)
@click.option("--limit", type=Whole(1), default=20, show_default=True, help="Show at most this many finds.")
@click.option("--loops", is_flag=True, help="Only deals that never end.")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the finds as JSON.")
def top_command(rules: Rules | None, by: str, limit: int, loops: bool, db: str | None, as_json: bool) -> None:
    """List the best deals found so far."""
    finds = _finds(db, rules, by, limit, loops)
    if as_json:
        click.echo(json.dumps([find.to_dict() for find in finds]))
        return
    table = Table(title=f"Best finds by {by} in {db_path(db)}")
    for column in ("deal", "rules", "lead", "cards", "tricks", "status", "strategy", "seed"):
        table.add_column(column, no_wrap=True, justify="right" if column in ("cards", "tricks") else "left")
    for find in finds:
        table.add_row(
            find.deal,
            find.rules,
            find.lead_name,
            str(find.cards),
            str(find.tricks),
            find.status,
            find.strategy,
            str(find.seed),
        )
    console().print(table)


@click.command("export")
@click.option(
    "--format",
    "form",
    type=click.Choice(EXPORT_FORMS),
    default=EXPORT_FORMS[0],
    show_default=True,
    help="Write CSV or JSON.",
)
@rules_option(None, help=_FIND_FILTER_HELP)
@click.option("--by", type=click.Choice(FIND_ORDERS), default=FIND_ORDERS[0], show_default=True)
@click.option(
    "--limit",
    type=Whole(1),
    default=1_000_000,
    show_default=True,
    help="Write at most this many finds.",
)
@click.option("--loops", is_flag=True, help="Only deals that never end.")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write to this file (default: standard output).",
)
@db_option
def export_command(
    form: str, rules: Rules | None, by: str, limit: int, loops: bool, output: str | None, db: str | None
) -> None:
    """Write the finds as CSV or JSON (to standard output, or --output FILE)."""
    from beggar.research.store import export

    text = export(_finds(db, rules, by, limit, loops), form)
    if output is None:
        click.echo(text, nl=False)
        return
    with output_file(output) as stream:
        stream.write(text)


def _finds(db: str | None, rules: Rules | None, by: str, limit: int, loops: bool) -> list[Any]:
    from beggar.research.store import Store, StoreError

    path = db_path(db)
    if path != ":memory:" and not os.path.exists(path):
        raise click.UsageError(f"no database at {path}: run beggar search first, or give --db")
    try:
        return Store(path).top(
            rules=None if rules is None else rules.spec(),
            by=by,
            limit=limit,
            status="loop" if loops else None,
        )
    except StoreError as exc:
        raise click.UsageError(str(exc)) from None


COMMANDS = (simulate_command, bench_command, search_command, top_command, export_command)
