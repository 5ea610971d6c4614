"""The ``beggar`` command line.

Every error is one line on standard error and a non-zero exit status, never a traceback.
Deal strings that begin with ``-`` (most record deals do) work as typed.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import click
from rich.console import Console
from rich.table import Table

from beggar.bench import bench_command
from beggar.engine import Game, GameError, GameRecord, Outcome, Status
from beggar.narrate import Narrator, seat_names
from beggar.notation import DealError, random_deal
from beggar.records import ALL_GAMES, PublishedGame
from beggar.rules import PRESETS, STANDARD, Rules, RulesError, rules_named
from beggar.simulate import simulate_command

_USER_ERRORS = (DealError, GameError, RulesError)

_DEAL_TOKEN = re.compile(r"-[-/0-9TJQKAHDCS ,]*", re.IGNORECASE)


def _rules(spec: str) -> Rules:
    try:
        return rules_named(spec)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None


def _winner_words(record: GameRecord, names: Sequence[str]) -> str:
    if record.winner is None:
        return "a draw" if record.outcome is Outcome.DRAW else "no winner"
    ordinal = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")[record.winner]
    return f"the {ordinal} hand ({names[record.winner]}) wins"


def summary_line(record: GameRecord, rules: Rules) -> str:
    """``finished: 7157 cards, 1007 tricks; the second hand (B) wins``."""
    names = seat_names(rules.players)
    text = f"{record.status}: {record.cards} cards, {record.tricks} tricks; {_winner_words(record, names)}"
    if record.status is Status.LOOP and record.repeat_of is not None:
        cards, tricks = record.repeat_of
        text += f" (cycle of {record.tricks - tricks} tricks, {record.cards - cards} cards)"
    elif record.status is Status.STOPPED:
        text += f" ({record.reason})"
    return text


def record_json(deal: str, rules: Rules, record: GameRecord) -> dict[str, Any]:
    return {"deal": deal, "rules": rules.name, **record.to_dict()}


rules_option = click.option(
    "--rules",
    "spec",
    default="standard",
    show_default=True,
    help="Rules preset or spec (NAME[:key=value]...).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="beggar", prog_name="beggar")
def cli() -> None:
    """Beggar-My-Neighbour: play, trace, simulate and study the game exactly.

    Deals are written top card first, hands separated by '/', the first hand leading:
    compact (K-KK----K-A...), ranks (284K523Q6...) or full cards (QH 10S ...).
    """


@cli.command("play")
@click.argument("deal")
@rules_option
@click.option("--trace", is_flag=True, help="Tell the game card by card.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per deal.")
@click.option("--seed", type=int, default=None, help="Seed for a random lead (rules with lead=random).")
@click.option("--partial", is_flag=True, help="Allow fewer cards than the whole deck (a prepared position).")
def play_command(deal: str, spec: str, trace: bool, as_json: bool, seed: int | None, partial: bool) -> None:
    """Play DEAL to its end and print the record.

    With DEAL given as '-', read one deal per line from standard input and write one line
    (JSON with --json) per deal; a bad line gets an error line and the others still run.
    """
    rules = _rules(spec)
    if deal == "-":
        failures = _play_stream(sys.stdin, sys.stdout, rules, as_json, seed, partial)
        if failures:
            raise SystemExit(1)
        return
    game = Game(deal.strip(), rules, seed=seed, complete=not partial)
    if trace:
        _trace(game, rules)
    record = game.run()
    if as_json:
        click.echo(json.dumps(record_json(deal.strip(), rules, record)))
    elif not trace:
        click.echo(summary_line(record, rules))


def _trace(game: Game, rules: Rules) -> None:
    narrator = Narrator(rules)
    width = 5
    names = seat_names(rules.players)
    hands = ", ".join(f"{name} {size}" for name, size in zip(names, game.hand_sizes, strict=True))
    click.echo(f"{rules.name}: {hands} cards; {names[game.to_play]} leads.")
    while not game.over:
        events = game.step()
        click.echo(f"{game.cards:>{width}}. {narrator.tell(events)}")


def _play_stream(
    source: TextIO, sink: TextIO, rules: Rules, as_json: bool, seed: int | None, partial: bool
) -> int:
    failures = 0
    for number, line in enumerate(source, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            record = Game(text, rules, seed=seed, complete=not partial).run()
        except _USER_ERRORS as exc:
            failures += 1
            if as_json:
                sink.write(json.dumps({"deal": text, "line": number, "error": str(exc)}) + "\n")
            else:
                click.echo(f"beggar: line {number}: {exc}", err=True)
            continue
        if as_json:
            sink.write(json.dumps(record_json(text, rules, record)) + "\n")
        else:
            sink.write(f"{text}\t{summary_line(record, rules)}\n")
    return failures


@cli.command("deal")
@click.option("--seed", type=int, default=None, help="Seed; the same seed always gives the same deal.")
@rules_option
@click.option(
    "--notation",
    type=click.Choice(["compact", "ranks", "full"]),
    default="ranks",
    show_default=True,
    help="How to write the deal.",
)
def deal_command(seed: int | None, spec: str, notation: str) -> None:
    """Print a random deal (the seed is printed on standard error when not given)."""
    rules = _rules(spec)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
        click.echo(f"seed {seed}", err=True)
    click.echo(random_deal(rules, seed).format(notation))


@cli.command("records")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def records_command(as_json: bool) -> None:
    """Replay the published record games and the never-ending deal of 2024."""
    rows = [(game, game.replay()) for game in ALL_GAMES]
    if as_json:
        click.echo(json.dumps([_record_row(game, record) for game, record in rows], indent=2))
        return
    table = Table(title="Published games, replayed under the standard rules")
    for column in ("found by", "deal", "published", "replayed", "winner", "agrees"):
        table.add_column(column, no_wrap=True)
    names = seat_names(2)
    for game, record in rows:
        row = _record_row(game, record)
        winner = "-" if record.winner is None else names[record.winner]
        table.add_row(
            f"{game.finder} {game.year}",
            game.deal,
            _published_text(game),
            _replayed_text(record),
            winner,
            "yes" if row["agrees"] else "NO",
        )
    _console().print(table)


def _published_text(game: PublishedGame) -> str:
    if game.cycle_tricks is not None:
        return f"never ends; cycle {game.cycle_tricks} tricks"
    return f"{game.cards} cards, {game.tricks} tricks"


def _replayed_text(record: GameRecord) -> str:
    if record.status is Status.LOOP and record.repeat_of is not None:
        cards, tricks = record.repeat_of
        return (
            f"loop at {record.cards} cards, {record.tricks} tricks; "
            f"cycle {record.tricks - tricks} tricks, {record.cards - cards} cards"
        )
    return f"{record.cards} cards, {record.tricks} tricks"


def _record_row(game: PublishedGame, record: GameRecord) -> dict[str, Any]:
    if game.cycle_tricks is not None:
        period = None if record.repeat_of is None else record.tricks - record.repeat_of[1]
        agrees = record.status is Status.LOOP and period == game.cycle_tricks
    else:
        agrees = (record.cards, record.tricks, record.winner) == (game.cards, game.tricks, game.winner)
    return {
        "finder": game.finder,
        "year": game.year,
        "deal": game.deal,
        "published": {"cards": game.cards, "tricks": game.tricks, "cycle_tricks": game.cycle_tricks},
        "replayed": record.to_dict(),
        "agrees": agrees,
    }


@cli.command("rules")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
def rules_command(name: str | None, as_json: bool) -> None:
    """List the rules presets, or show every setting of one (a preset or a spec)."""
    chosen = [_rules(name)] if name else list(PRESETS.values())
    if as_json:
        data = [{**rules.to_dict(), "description": rules.description} for rules in chosen]
        click.echo(json.dumps(data if name is None else data[0], indent=2))
        return
    console = _console()
    if name:
        rules = chosen[0]
        table = Table(title=f"{rules.name}: {rules.description}".rstrip(": "), show_header=False)
        table.add_column("setting")
        table.add_column("value")
        for key, value in rules.settings().items():
            table.add_row(key, value)
        console.print(table)
        return
    table = Table(title="Rules presets (beggar rules NAME shows every setting)")
    table.add_column("name", no_wrap=True)
    table.add_column("differs from standard")
    table.add_column("description")
    standard = STANDARD.settings()
    for rules in chosen:
        changed = [f"{k}: {v}" for k, v in rules.settings().items() if standard[k] != v]
        table.add_row(rules.name, "\n".join(changed) or "-", rules.description)
    console.print(table)


@cli.command("cycle")
@click.argument("deal")
@rules_option
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--positions", "show_positions", is_flag=True, help="List the positions on the cycle.")
@click.option(
    "--reach",
    type=click.IntRange(0, 1000),
    default=0,
    show_default=True,
    help="Walk back up to this many tricks from the cycle and count the starting deals that reach it.",
)
@click.option("--partial", is_flag=True, help="Allow fewer cards than the whole deck (a prepared position).")
def cycle_command(
    deal: str, spec: str, as_json: bool, show_positions: bool, reach: int, partial: bool
) -> None:
    """Find where DEAL enters a cycle, and how long the cycle is (card and trick limits are ignored)."""
    from beggar.backward import deals_reaching
    from beggar.cycle import find_cycle

    rules = _rules(spec)
    cycle = find_cycle(deal.strip(), rules, complete=not partial)
    if cycle is None:
        record = Game(
            deal.strip(), rules.replace(max_cards=None, max_tricks=None), complete=not partial
        ).run()
        if as_json:
            click.echo(
                json.dumps({"deal": deal.strip(), "rules": rules.name, "loops": False, **record.to_dict()})
            )
        else:
            click.echo(f"no cycle: the game ends ({summary_line(record, rules)})")
        return
    found = deals_reaching(cycle.positions, rules, max_tricks=reach) if reach else None
    if as_json:
        data: dict[str, Any] = {"deal": deal.strip(), "rules": rules.name, "loops": True, **cycle.to_dict()}
        if found is not None:
            data["reaching"] = {
                "max_tricks": reach,
                "complete": found.complete,
                "deals": [
                    {"deal": d, "tricks": t} for d, t in sorted(found.deals.items(), key=lambda i: i[1])
                ],
            }
        click.echo(json.dumps(data))
        return
    click.echo(
        f"loops: the cycle is entered after {cycle.pre_period_tricks} tricks "
        f"({cycle.pre_period_cards} cards) and lasts {cycle.period_tricks} tricks "
        f"({cycle.period_cards} cards)"
    )
    if show_positions:
        for number, position in enumerate(cycle.positions):
            click.echo(f"  {cycle.pre_period_tricks + number:>5}  {position}")
    if found is not None:
        bound = "" if found.complete else " (stopped early: too many positions)"
        explored = sum(found.positions_by_depth)
        click.echo(
            f"{len(found.deals)} starting deals (26/26, first hand leads) reach this cycle within "
            f"{reach} tricks{bound}; {explored} positions explored backward"
        )
        for dealt, tricks in sorted(found.deals.items(), key=lambda item: item[1]):
            click.echo(f"  {dealt}  ({tricks} tricks before the cycle)")


def _db_path(path: str | None) -> str:
    return path or os.environ.get("BEGGAR_DB") or "beggar.db"


_DB_HELP = "SQLite database of finds (default: $BEGGAR_DB, or beggar.db here)."


@cli.command("search")
@rules_option
@click.option(
    "--strategy",
    type=click.Choice(["random", "hill-climb", "anneal"]),
    default="random",
    show_default=True,
    help="Random sampling (the strongest measured here), hill climbing with restarts, or annealing.",
)
@click.option(
    "--target",
    type=click.Choice(["cards", "tricks", "loops"]),
    default="cards",
    show_default=True,
    help="Longest games by cards or tricks, or deals that never end.",
)
@click.option("--minutes", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Names the campaign.")
@click.option("--workers", type=click.IntRange(1), default=None, help="Processes (default: every core).")
@click.option(
    "--walkers", type=click.IntRange(1), default=None, help="Independent searchers (default: workers)."
)
@click.option("--db", "db_path", default=None, help=_DB_HELP)
@click.option("--scheduler", default=None, help="A Dask scheduler, tcp://HOST:PORT (needs beggar[cluster]).")
@click.option(
    "--units", type=click.IntRange(1), default=None, help="Stop each walker after this many units in all."
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary at the end.")
def search_command(
    spec: str,
    strategy: str,
    target: str,
    minutes: float,
    seed: int,
    workers: int | None,
    walkers: int | None,
    db_path: str | None,
    scheduler: str | None,
    units: int | None,
    as_json: bool,
) -> None:
    """Hunt for record-long and never-ending deals; every find goes into the database.

    Started again with the same arguments, a search resumes its campaign where it stopped, even
    after being killed.
    """
    from beggar.search import SearchArgs, SearchError, run_search
    from beggar.simulate import default_workers
    from beggar.store import Store, StoreError

    _rules(spec)
    count = workers or default_workers()
    try:
        args = SearchArgs(spec, strategy, target, seed, walkers or count)
        store = Store(_db_path(db_path))
    except (SearchError, StoreError) as exc:
        raise click.UsageError(str(exc)) from None
    executor, client = _cluster(scheduler) if scheduler else (None, None)
    status = Console(stderr=True)
    try:
        with status.status("starting the search (compiling the kernel the first time)") as line:

            def show(progress: Any) -> None:
                line.update(_status_line(args, progress, minutes * 60))

            try:
                progress = run_search(
                    args,
                    store,
                    seconds=minutes * 60,
                    executor=executor,
                    workers=count,
                    on_progress=show,
                    units=units,
                )
            except SearchError as exc:
                raise click.UsageError(str(exc)) from None
            except (OSError, RuntimeError, cf.BrokenExecutor) as exc:
                raise click.ClickException(
                    f"the search stopped: {exc}; every find saved so far is kept, "
                    "and the same command resumes"
                ) from None
    finally:
        if client is not None:
            client.close()
    best = progress.best
    summary = {
        "campaign": progress.campaign,
        **args.to_dict(),
        "db": store.path,
        "seconds": round(progress.seconds, 2),
        "scored": progress.scored,
        "deals_per_second": round(progress.rate),
        "new_finds": progress.new_finds,
        "loops": sorted(progress.loops),
        "resumed_after_units": progress.resumed_units,
        "best": None if best is None else best.to_dict(),
    }
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


def _status_line(args: Any, progress: Any, budget: float) -> str:
    best = progress.best
    shown = "none yet" if best is None else f"{best.cards:,} cards, {best.tricks:,} tricks"
    left = max(0.0, budget - progress.seconds)
    return (
        f"{args.strategy} · {args.rules} · {progress.rate:,.0f} deals/s · best {shown} · "
        f"loops {len(progress.loops)} · finds {progress.new_finds} · {left / 60:.1f} min left"
    )


def _cluster(address: str) -> tuple[Any, Any]:
    try:
        from distributed import Client
    except ImportError:
        raise click.UsageError(
            "--scheduler needs Dask's distributed: pip install 'beggar[cluster]'"
        ) from None
    if not re.fullmatch(r"(tcp|tls|ws|wss|inproc)://\S+", address):
        raise click.BadParameter("write the scheduler as tcp://HOST:PORT", param_hint="--scheduler")
    try:
        client = Client(address, timeout=10)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise click.UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return client.get_executor(pure=False), client  # type: ignore[no-untyped-call]


@cli.command("top")
@click.option("--rules", "spec", default=None, help="Only finds under these rules (as searched).")
@click.option("--by", type=click.Choice(["cards", "tricks"]), default="cards", show_default=True)
@click.option("--limit", type=click.IntRange(1), default=20, show_default=True)
@click.option("--loops", is_flag=True, help="Only deals that never end.")
@click.option("--db", "db_path", default=None, help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True)
def top_command(
    spec: str | None, by: str, limit: int, loops: bool, db_path: str | None, as_json: bool
) -> None:
    """List the best deals found so far."""
    finds = _finds(db_path, spec, by, limit, loops)
    if as_json:
        click.echo(json.dumps([find.to_dict() for find in finds]))
        return
    table = Table(title=f"Best finds by {by} in {_db_path(db_path)}")
    for column in ("deal", "rules", "cards", "tricks", "status", "strategy", "seed"):
        table.add_column(column, no_wrap=True, justify="right" if column in ("cards", "tricks") else "left")
    for find in finds:
        table.add_row(
            find.deal,
            find.rules,
            str(find.cards),
            str(find.tricks),
            find.status,
            find.strategy,
            str(find.seed),
        )
    _console().print(table)


@cli.command("export")
@click.option("--format", "form", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--rules", "spec", default=None, help="Only finds under these rules (as searched).")
@click.option("--by", type=click.Choice(["cards", "tricks"]), default="cards", show_default=True)
@click.option("--limit", type=click.IntRange(1), default=1_000_000, show_default=True)
@click.option("--loops", is_flag=True, help="Only deals that never end.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None)
@click.option("--db", "db_path", default=None, help=_DB_HELP)
def export_command(
    form: str, spec: str | None, by: str, limit: int, loops: bool, output: str | None, db_path: str | None
) -> None:
    """Write the finds as CSV or JSON (to standard output, or --output FILE)."""
    from beggar.store import export

    text = export(_finds(db_path, spec, by, limit, loops), form)
    if output is None:
        click.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8") as stream:
            stream.write(text)


def _finds(db_path: str | None, spec: str | None, by: str, limit: int, loops: bool) -> list[Any]:
    from beggar.store import Store, StoreError

    path = _db_path(db_path)
    if path != ":memory:" and not os.path.exists(path):
        raise click.UsageError(f"no database at {path}: run beggar search first, or give --db")
    try:
        return Store(path).top(rules=spec, by=by, limit=limit, status="loop" if loops else None)
    except StoreError as exc:
        raise click.UsageError(str(exc)) from None


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port.")
@click.option(
    "--max-tables", default=1000, show_default=True, type=click.IntRange(1), help="Live tables at most."
)
@click.option(
    "--idle-minutes",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Close untouched tables.",
)
@click.option(
    "--instant-cards",
    default=8000.0,
    show_default=True,
    type=click.FloatRange(1),
    help="Cards a second all instant-pace tables together may turn.",
)
def serve_command(host: str, port: int, max_tables: int, idle_minutes: float, instant_cards: float) -> None:
    """Serve the browser table: play the computer or a friend, watch, learn."""
    import uvicorn

    from beggar.web.app import ServerSettings, create_app

    settings = ServerSettings(
        max_tables=max_tables, idle_seconds=idle_minutes * 60, instant_cards=instant_cards
    )
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"beggar: the table is at http://{shown}:{port}/ (Ctrl+C stops it)")
    uvicorn.run(
        app, host=host, port=port, log_level="warning", ws_max_size=65536, ws_per_message_deflate=False
    )


cli.add_command(simulate_command)
cli.add_command(bench_command)


def _console() -> Console:
    """A console as wide as the terminal, or wide enough for a whole deal when piped."""
    console = Console()
    return console if console.is_terminal else Console(width=200)


def _protect_deals(args: list[str]) -> list[str]:
    """Move deal strings that start with '-' behind '--' so they are not read as options."""
    if "--" in args:
        return args
    deals = [a for a in args if "/" in a and _DEAL_TOKEN.fullmatch(a)]
    if not deals:
        return args
    return [a for a in args if a not in deals] + ["--", *deals]


def run(args: Sequence[str] | None = None) -> int:
    """Run the command line with ``args`` and return the exit status."""
    argv = _protect_deals(list(sys.argv[1:] if args is None else args))
    if not argv:
        with click.Context(cli, info_name="beggar") as ctx:
            click.echo(cli.get_help(ctx))
        return 0
    try:
        result = cli.main(argv, prog_name="beggar", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("beggar: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        click.echo(f"beggar: {_one_line(exc.format_message())}", err=True)
        return exc.exit_code
    except _USER_ERRORS as exc:
        click.echo(f"beggar: {_one_line(str(exc))}", err=True)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        click.echo("beggar: interrupted", err=True)
        return 130
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return result if isinstance(result, int) else 0


def _one_line(text: str) -> str:
    return " ".join(text.split())


def main() -> None:
    """The ``beggar`` console script."""
    sys.exit(run())


__all__ = ["cli", "main", "record_json", "run", "summary_line"]

# The cycle factory's commands (issue 10); the lead carries this into the commands package.
from beggar.commands.factory import cycles_command, factory_command  # noqa: E402

cli.add_command(factory_command)
cli.add_command(cycles_command)
