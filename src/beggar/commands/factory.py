"""The ``beggar factory`` and ``beggar cycles`` commands: grow never-ending games, list the cycles found."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table

from beggar.commands.campaign import run_for_minutes
from beggar.commands.options import Whole, campaign_options, db_option, db_path, kept_db_path, rules_option
from beggar.research.cycles.basins import BASIN_POSITIONS
from beggar.research.strategies import BANDS, MIN_TRIES, TRIES_PER_PARENT
from beggar.rules import Rules

if TYPE_CHECKING:
    from beggar.research.cycles.factory import Progress


@click.command("factory")
@rules_option(help="Rules preset or spec (two players; number cards must not pay).")
@campaign_options("Independent lineages")
@click.option(
    "--basin-positions",
    type=Whole(1),
    default=BASIN_POSITIONS,
    help=(
        f"Positions a backward walk from each full-deck cycle explores at most [default: {BASIN_POSITIONS}]."
    ),
)
@click.option(
    "--band",
    type=click.Choice(BANDS),
    default=BANDS[0],
    show_default=True,
    help=(
        "Hold each kind of pay card near its share of the deck, or only the share of number cards, "
        "or (loose) let each pay kind exceed the deck by a quarter and recolor at the deck's size."
    ),
)
@click.option(
    "--tries",
    type=Whole(MIN_TRIES),
    default=TRIES_PER_PARENT,
    show_default=True,
    help="Children tried from each cycle of the beam in a generation.",
)
def factory_command(
    rules: Rules,
    minutes: float,
    seed: int,
    workers: int,
    walkers: int | None,
    basin_positions: int,
    band: str,
    tries: int,
    db: str | None,
    scheduler: str | None,
    units: int | None,
    as_json: bool,
) -> None:
    """Grow never-ending games card by card from small cycles, and walk back to starting deals.

    Every cycle met, every full-deck cycle's basin and every balanced never-ending deal goes into
    the database. Started again with the same arguments, the factory resumes where it stopped,
    even after being killed.
    """
    from beggar.research.cycles.factory import (
        FactoryArgs,
        FactoryError,
        alphabet_of,
        run_factory,
    )
    from beggar.research.store import Store, StoreError
    from beggar.rules import RulesError

    spec = rules.spec()
    try:
        alphabet_of(spec)
        args = FactoryArgs(
            spec,
            seed,
            walkers or workers,
            basin_positions,
            band,
            tries,
        )
        store = Store(kept_db_path(db))
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    except (FactoryError, StoreError) as exc:
        raise click.UsageError(str(exc)) from None
    progress = run_for_minutes(
        "factory",
        "everything saved so far is kept",
        run_factory,
        args,
        store,
        minutes=minutes,
        workers=workers,
        units=units,
        scheduler=scheduler,
        starting="starting the factory (compiling the first time)",
        line=lambda progress: _status_line(args.rules, progress),
    )
    summary = {**args.to_dict(), "db": store.path, **progress.to_dict()}
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(
        f"{progress.positions:,} positions in {progress.seconds:.0f} s ({progress.rate:,.0f} a second); "
        f"{progress.new_cycles:,} new cycles, largest {progress.largest} cards; "
        f"{progress.full_cycles} full-deck cycles; {progress.balanced_deals} new balanced never-ending "
        f"deals; campaign {progress.campaign} in {store.path}"
    )


def _status_line(rules: str, progress: Progress) -> str:
    return (
        f"factory · {rules} · {progress.rate:,.0f} positions/s · small cycles {progress.small_cycles:,} · "
        f"largest {progress.largest} · full-deck cycles {progress.full_cycles} · "
        f"balanced deals {progress.balanced_deals}"
    )


@click.command("cycles")
@rules_option(None, help="Only cycles under these rules (as the factory ran).")
@click.option("--full", is_flag=True, help="Only cycles that hold the whole deck.")
@click.option("--limit", type=Whole(1), default=20, show_default=True, help="Show at most this many cycles.")
@click.option("--moves", is_flag=True, help="Show how far each kind of move grew cycles instead.")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the cycles as JSON.")
def cycles_command(
    rules: Rules | None, full: bool, limit: int, moves: bool, db: str | None, as_json: bool
) -> None:
    """List the cycles the factory found, largest first, with their basins.

    Each cycle is named by one position on it (the leader's stack first, so the first hand leads),
    which 'beggar cycle --partial' plays.
    """
    from beggar.research.store import Store, StoreError

    spec = None if rules is None else rules.spec()
    path = db_path(db)
    if path != ":memory:" and not os.path.exists(path):
        raise click.UsageError(f"no database at {path}: run beggar factory first, or give --db")
    try:
        store = Store(path)
        if moves:
            from beggar.research.cycles.factory import move_report  # compiled code: only for --moves

            _show_moves(move_report(store), as_json)
            return
        cycles = store.cycles(rules=spec, full=True if full else None, limit=limit)
        basins = store.basins(rules=spec)
    except StoreError as exc:
        raise click.UsageError(str(exc)) from None
    rows: list[dict[str, Any]] = []
    for cycle in cycles:
        stored = basins.get((cycle.rules, cycle.deal))
        rows.append({**cycle.to_dict(), "basin": None if stored is None else stored.to_dict()})
    if as_json:
        click.echo(json.dumps(rows))
        return
    table = Table(title=f"Cycles in {path}, largest first")
    for column in ("deal", "rules", "cards", "period", "splits", "met", "basin"):
        table.add_column(column, no_wrap=True)
    for row in rows:
        basin: dict[str, Any] | None = row["basin"]
        shown = "-"
        if basin is not None:
            end = "exhausted" if basin["exhausted"] else f"{basin['explored']:,} positions"
            shown = f"{basin['deals']} deals ({end}), closest {basin['closest_split']}"
        table.add_row(
            row["deal"],
            row["rules"],
            str(row["cards"]),
            f"{row['period_tricks']} tricks, {row['period_cards']} cards",
            f"{row['split_low']}..{row['split_high']}",
            str(row["met"]),
            shown,
        )
    console = Console()
    (console if console.is_terminal else Console(width=240)).print(table)


def _show_moves(report: list[dict[str, Any]], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(report))
        return
    table = Table(title="Factory moves: what each kind of move did")
    for column in ("move", "tries", "kept", "kept per try", "cards added", "CPU s", "cards / CPU-min"):
        table.add_column(column, justify="left" if column == "move" else "right")
    for row in report:
        table.add_row(
            row["move"],
            f"{row['tries']:,}",
            f"{row['kept']:,}",
            f"{row['kept_per_try']:.2e}",
            f"{row['cards_added']:,}",
            f"{row['cpu_seconds']:.1f}",
            f"{row['cards_per_cpu_minute']:,.0f}",
        )
    Console().print(table)


COMMANDS = (factory_command, cycles_command)
