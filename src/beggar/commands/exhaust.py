"""The ``beggar exhaust`` command: every balanced deal of a deck, played and stored."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from beggar.commands.campaign import Bar, run_resumable
from beggar.commands.options import (
    Whole,
    cards_option,
    console,
    db_option,
    deck_of,
    kept_db_path,
    rules_option,
    where_options,
)
from beggar.narrate import counted
from beggar.research.exhaust import DEFAULT_UNIT

if TYPE_CHECKING:
    from beggar.research.exhaust import ExhaustProgress

_RULES_HELP = "Rules preset or spec: half-deck, court-only:deck=stripped (the Italian deck), standard..."


@click.command("exhaust")
@rules_option(help=_RULES_HELP)
@cards_option("14,2,2,2")
@click.option("--from", "first", type=Whole(0), default=0, show_default=True, help="The first deal index.")
@click.option(
    "--to", "last", type=Whole(1), default=None, help="The index after the last (default: every deal)."
)
@click.option(
    "--unit-size",
    type=Whole(1),
    default=DEFAULT_UNIT,
    help=f"Deals per unit of work (default {DEFAULT_UNIT:,}).",
)
@where_options
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the stored results as one JSON object.")
def exhaust_command(
    rules: Any,
    cards: str | None,
    first: int,
    last: int | None,
    unit_size: int,
    workers: int,
    scheduler: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Play every balanced deal of a deck (the first hand leads, no limits, loops found exactly).

    Stores, in the database: the deals played, every never-ending deal with its index and cycle,
    the 100 longest games by cards and by tricks, and the exact distribution of game lengths and
    wins. The work is cut into units of indices; run again, it resumes where it stopped, even
    after being killed.
    """
    from beggar.research.exhaust import ExhaustDeck, ExhaustError, ExhaustStore, run_exhaust
    from beggar.research.store import Store, StoreError

    deck = ExhaustDeck(deck_of(rules, cards))
    end = deck.total if last is None else last
    try:
        deck.check_playable()
        deck.units(first, end, unit_size)
    except ExhaustError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        store = ExhaustStore(Store(kept_db_path(db)))
    except StoreError as exc:
        raise click.UsageError(str(exc)) from None
    progress = run_resumable(
        "exhaust",
        "every unit saved so far is kept",
        scheduler,
        lambda executor, show: run_exhaust(
            deck, store, first, end, unit_size=unit_size, workers=workers, executor=executor, on_progress=show
        ),
        Bar(
            f"exhaust {deck.key}",
            lambda progress: (progress.done, progress.deals),
            lambda progress: f"never-ending {progress.never_ending}",
        ),
        quiet=as_json,
    )
    summary = store.summary(deck)
    if as_json:
        click.echo(json.dumps(summary))
        return
    _print(summary, progress, store.store.path)


def _print(summary: dict[str, Any], progress: ExhaustProgress, path: str) -> None:
    """The stored results in a few lines."""
    out = console()
    finished = sum(summary["lengths"]["cards"].values())
    never = len(summary["never_ending"])
    out.print(
        f"{summary['rules']} ({summary['composition']}): {summary['deals']:,} of {summary['total']:,} "
        f"deals played; {never:,} never {'ends' if never == 1 else 'end'}, "
        f"{finished:,} {'finishes' if finished == 1 else 'finish'} "
        f"(the first hand wins {summary['wins']['first']:,}, the second {summary['wins']['second']:,})",
        highlight=False,
    )
    for cycle in summary["cycles"]:
        out.print(
            f"cycle {cycle['deal']}: {counted(cycle['period_cards'], 'card')}, "
            f"{counted(cycle['period_tricks'], 'trick')}; "
            f"{counted(cycle['deals'], 'deal')} {'reaches' if cycle['deals'] == 1 else 'reach'} it",
            highlight=False,
        )
    for never in summary["never_ending"][:20]:
        out.print(
            f"never ends: index {never['index']} {never['deal']} (enters its cycle after "
            f"{counted(never['lead_in_cards'], 'card')})",
            highlight=False,
        )
    for game in summary["longest"][:5]:
        out.print(
            f"longest: index {game['index']} {game['deal']}: {counted(game['cards'], 'card')}, "
            f"{counted(game['tricks'], 'trick')}",
            highlight=False,
        )
    rate = (progress.done - progress.skipped) / progress.seconds if progress.seconds else 0.0
    out.print(
        f"{path}; this run {progress.seconds:.1f} s, {counted(progress.units, 'unit')}, "
        f"{rate:,.0f} deals a second",
        highlight=False,
    )


COMMANDS = (exhaust_command,)
