"""What the commands share: the ``--rules``, ``--cards`` and database options, and output files.

Every command that takes rules takes them the same way, as a rules spec
(``NAME[:key=value]...``) turned into a :class:`~beggar.rules.Rules` object before the command
runs, so a bad spec is one ``beggar:`` line naming ``--rules`` and the command never starts.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click
from rich.console import Console

from beggar.rules import Rules, RulesError, parse_amount, parse_whole, rules_named

if TYPE_CHECKING:
    from beggar.research.cluster import Cluster
    from beggar.research.cycles.kinds import Composition

F = TypeVar("F", bound=Callable[..., Any])


class Whole(click.IntRange):
    """A whole number on the command line, read by :func:`beggar.rules.parse_whole`: ASCII
    digits within the range, so that no option accepts what the rules and the server refuse."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            low = 0 if self.min is None else int(self.min) + (1 if self.min_open else 0)
            high = None if self.max is None else int(self.max) - (1 if self.max_open else 0)
            try:
                value = parse_whole(value, low, high, "the value")
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        return super().convert(value, param, ctx)


class Amount(click.FloatRange):
    """A number with an optional fraction on the command line, read by
    :func:`beggar.rules.parse_amount`; ``min_open``: the minimum itself is refused."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                value = parse_amount(value, 0.0 if self.min is None else float(self.min), "the value")
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        return super().convert(value, param, ctx)


class RulesType(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A rules spec on the command line, read into a :class:`Rules` object."""

    name = "rules"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Rules:
        if isinstance(value, Rules):
            return value
        try:
            return rules_named(str(value))
        except RulesError as exc:
            self.fail(str(exc), param, ctx)


class RulesListType(click.ParamType):  # type: ignore[type-arg]
    """Several rules specs, comma-separated, each read into a :class:`Rules` object."""

    name = "rules,..."

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[Rules, ...]:
        if isinstance(value, tuple):
            return value
        specs = [spec.strip() for spec in str(value).split(",") if spec.strip()]
        if not specs:
            self.fail("give at least one rules name", param, ctx)
        try:
            return tuple(rules_named(spec) for spec in specs)
        except RulesError as exc:
            self.fail(str(exc), param, ctx)


RULES_HELP = "Rules preset or spec, NAME[:key=value]... (beggar rules lists them)."


def rules_option(
    default: str | None = "standard", *, several: bool = False, help: str = RULES_HELP
) -> Callable[[F], F]:
    """The one ``--rules`` option: the command receives ``rules`` as a :class:`Rules` (or a tuple)."""
    return click.option(
        "--rules",
        "rules",
        type=RulesListType() if several else RulesType(),
        default=default,
        show_default=default is not None,
        help=help,
    )


def _bound_workers(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    """The processes a command runs: ``--workers`` bounded by the cores, with a word when lowered."""
    from beggar.research.cluster import bounded_workers

    count = bounded_workers(value)
    if value is not None and count < value:
        click.echo(
            f"beggar: --workers {value} is more than the {count} cores this process may use: using {count}",
            err=True,
        )
    return count


def workers_option(what: str = "Processes") -> Callable[[F], F]:
    """The one ``--workers`` option: ``what`` runs side by side (processes, threads), every core by
    default and never more than the cores (see :func:`beggar.research.cluster.bounded_workers`);
    the command receives a whole number."""
    return click.option(
        "--workers",
        type=Whole(1),
        default=None,
        callback=_bound_workers,
        help=f"{what} (default and most: every core).",
    )


def cards_option(example: str = "6,2,1,1", *, goes_with: str | None = None) -> Callable[[F], F]:
    """The one ``--cards`` option: a smaller deck, by its cards of each kind (``example``), that
    :func:`deck_of` reads once the rules are known; ``goes_with`` names the options it needs. The
    command receives the text, or None for the rules' whole deck."""
    lead = f"With {goes_with}: a" if goes_with else "A"
    return click.option(
        "--cards",
        default=None,
        help=f"{lead} smaller deck: number cards, then cards of each pay value in rank order, for example "
        f"{example} (default: the rules' whole deck); ranks that pay the same are counted together "
        "(under jack-pays-2, 6,3,1,1 is six number cards, three jacks or queens, a king and an ace).",
    )


def deck_of(rules: Rules, cards: str | None) -> Composition:
    """The deck ``--cards`` names for these rules (:meth:`~beggar.research.cycles.kinds.Composition.named`);
    a bad one is one plain line, and the command does not start."""
    from beggar.research.cycles.kinds import Composition, ConstructError

    try:
        return Composition.named(rules, cards)
    except ConstructError as exc:
        raise click.UsageError(str(exc)) from None


DB_HELP = "SQLite database of finds (default: $BEGGAR_DB, or beggar.db here)."


def db_path(path: str | None) -> str:
    """The database a research command uses: ``--db``, else ``$BEGGAR_DB``, else ``beggar.db``."""
    return path or os.environ.get("BEGGAR_DB") or "beggar.db"


def kept_db_path(path: str | None) -> str:
    """The database of a command whose point is to keep its results (search, factory, census), as
    :func:`db_path` gives it; one held in memory, lost when the command ends, is refused."""
    chosen = db_path(path)
    if chosen == ":memory:":
        named = "--db :memory:" if path else "$BEGGAR_DB=:memory:"
        raise click.UsageError(f"{named} would lose every result when the command ends: give a file")
    return chosen


def db_option(f: F) -> F:
    """The one ``--db`` option of the research commands (see :func:`db_path`)."""
    return click.option("--db", "db", default=None, help=DB_HELP)(f)


WORKERS_OPTION = workers_option()
SCHEDULER_OPTION = click.option(
    "--scheduler", default=None, help="A Dask scheduler, tcp://HOST:PORT (needs beggar[cluster])."
)


def where_options(f: F) -> F:
    """``--workers`` and ``--scheduler``: where a resumable command's units run (the census's;
    :func:`campaign_options` holds them too)."""
    return WORKERS_OPTION(SCHEDULER_OPTION(f))


def campaign_options(walkers: str) -> Callable[[F], F]:
    """The options every campaign command shares (how long, where, how many walkers, which database).

    ``walkers`` says what a walker is for this command ("independent searchers").
    """
    options = (
        click.option(
            "--minutes",
            type=Amount(min=0, min_open=True),
            default=1.0,
            show_default=True,
            help="Run this long, in minutes (a killed run resumes where it stopped).",
        ),
        click.option("--seed", type=Whole(0), default=0, show_default=True, help="Names the campaign."),
        WORKERS_OPTION,
        click.option("--walkers", type=Whole(1), default=None, help=f"{walkers} (default: workers)."),
        db_option,
        SCHEDULER_OPTION,
        click.option(
            "--units",
            type=Whole(1),
            default=None,
            help="Stop each walker after this many units in all.",
        ),
        click.option("--json", "as_json", is_flag=True, help="Print a JSON summary at the end."),
    )

    def apply(f: F) -> F:
        for option in reversed(options):
            f = option(f)
        return f

    return apply


def connect_cluster(scheduler: str | None) -> Cluster | None:
    """The Dask cluster ``--scheduler`` names, or None; a cluster that cannot be used is one plain line."""
    from beggar.research.cluster import ClusterError, connect

    if not scheduler:
        return None
    try:
        return connect(scheduler)
    except ClusterError as exc:
        raise click.UsageError(str(exc)) from None


def console() -> Console:
    """A console as wide as the terminal, or wide enough for a whole deal when piped."""
    out = Console()
    return out if out.is_terminal else Console(width=200)


@contextmanager
def output_file(path: Path | str, *, newline: str | None = None) -> Iterator[TextIO]:
    """Open ``path`` for writing; any failure to open, write or close it is one plain error.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with output_file(target) as stream:
    ...     _ = stream.write("hello")
    >>> target.read_text()
    'hello'
    """
    try:
        stream = open(path, "w", encoding="utf-8", newline=newline)  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        yield stream
        stream.flush()
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with suppress(OSError):
            stream.close()


def _checked_plot(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Refuse, before any work, a plot file that is not .png or .svg or cannot be created."""
    if value is None:
        return None
    from beggar.research.plots import plot_format

    try:
        plot_format(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    check_writable(value, "the plot")
    return value


def plot_option(what: str) -> Callable[[F], F]:
    """The one ``--plot`` option: draw ``what`` to the .png or .svg file named, that very file."""
    return click.option(
        "--plot",
        "plot_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        callback=_checked_plot,
        help=f"Draw {what} to this .png or .svg file.",
    )


def check_writable(path: Path | str, what: str) -> None:
    """Refuse, before any work is done, a file that cannot be created where it is asked for."""
    parent = Path(path).parent
    if not parent.is_dir():
        raise click.ClickException(f"cannot write {what} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise click.ClickException(f"cannot write {what} {path}: the folder {parent} is not writable")
