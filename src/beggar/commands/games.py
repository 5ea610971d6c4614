"""Commands that play and explain deals: ``play``, ``deal``, ``cycle``, ``records``, ``rules``, ``lesson``."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

import click
from rich import box
from rich.table import Table

from beggar.commands.options import RulesType, Whole, cards_option, console, deck_of, rules_option
from beggar.engine import Game, GameRecord, Outcome, Status
from beggar.errors import UserError
from beggar.narrate import Narrator, counted
from beggar.notation import MAX_DEAL_TEXT, NOTATIONS, DealError, deal_cards, random_deal, seat_names
from beggar.records import ALL_GAMES, PublishedGame
from beggar.rules import PRESET_BY_NAME, PRESETS, STANDARD, Lead, Rules

if TYPE_CHECKING:
    from beggar.research.cycles.neighbours import Neighbourhood

"""Errors a user causes with what they type: one ``beggar:`` line each, never a traceback."""

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _winner_words(record: GameRecord, names: Sequence[str]) -> str:
    if record.winner is None:
        return "a draw" if record.outcome is Outcome.DRAW else "no winner"
    return f"the {_ORDINALS[record.winner]} hand ({names[record.winner]}) wins"


def _counted(n: int, noun: str) -> str:
    # Ungrouped: these lines are also the tab-separated lines of `play -` (deals from standard input),
    # read by programs.
    return counted(n, noun, grouped=False)


def _cards_and_tricks(cards: int, tricks: int) -> str:
    return f"{_counted(cards, 'card')}, {_counted(tricks, 'trick')}"


def _tricks_and_cards(tricks: int, cards: int) -> str:
    return f"{_counted(tricks, 'trick')}, {_counted(cards, 'card')}"


def summary_line(record: GameRecord, rules: Rules) -> str:
    """``finished: 7157 cards, 1007 tricks; the second hand (B) wins``."""
    names = seat_names(rules.players)
    played = _cards_and_tricks(record.cards, record.tricks)
    text = f"{record.status}: {played}; {_winner_words(record, names)}"
    if record.status is Status.LOOP and record.repeat_of is not None:
        cards, tricks = record.repeat_of
        text += f" (cycle of {_tricks_and_cards(record.tricks - tricks, record.cards - cards)})"
    elif record.status is Status.STOPPED:
        text += f" ({record.reason})"
    if rules.lead is Lead.RANDOM:
        text += f"; {names[record.first]} led"
    return text


def record_json(deal: str, rules: Rules, record: GameRecord) -> dict[str, Any]:
    return {"deal": deal, "rules": rules.spec(), **record.to_dict()}


def _leader(rules: Rules, seed: int) -> int:
    """The seat that leads a deal under ``rules``: fixed by the rules, or drawn from ``seed``."""
    leader = rules.default_leader()
    return rules.draw_leader(seed) if leader is None else leader


_SEED_HELP = "Seed of a random lead (rules with lead=random): the same seed, the same leader."
_CARDS_HELP = (
    "deck: the cards must come from the rules' deck (with --partial, fewer of them); "
    "any: a prepared position of any cards, any number of times (implies --partial)."
)


def _game(deal: str, rules: Rules, seed: int, partial: bool, cards: str) -> Game:
    anything = cards == "any"
    return Game(
        deal.strip(),
        rules,
        first=_leader(rules, seed),
        complete=not (partial or anything),
        any_cards=anything,
    )


@click.command("play")
@click.argument("deal")
@rules_option()
@click.option("--trace", is_flag=True, help="Tell the game card by card.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per deal.")
@click.option("--seed", type=Whole(0), default=0, show_default=True, help=_SEED_HELP)
@click.option("--partial", is_flag=True, help="Allow fewer cards than the whole deck (a prepared position).")
@click.option(
    "--cards", type=click.Choice(["deck", "any"]), default="deck", show_default=True, help=_CARDS_HELP
)
def play_command(
    deal: str, rules: Rules, trace: bool, as_json: bool, seed: int, partial: bool, cards: str
) -> None:
    """Play DEAL to its end and print the record.

    With DEAL given as '-', read one deal per line from standard input and write one line
    (JSON with --json) per deal; a bad line gets an error line and the others still run.
    """
    if deal == "-":
        failures = _play_stream(sys.stdin, sys.stdout, rules, as_json, seed, partial, cards)
        if failures:
            raise SystemExit(1)
        return
    game = _game(deal, rules, seed, partial, cards)
    if trace:
        _trace(game, rules)
    record = game.run()
    index = _index(deal, rules)
    if as_json:
        data = record_json(deal.strip(), rules, record)
        if index is not None:
            data["index"] = index
        click.echo(json.dumps(data))
    elif not trace:
        click.echo(summary_line(record, rules) + _index_words(index))


def _index(deal: str, rules: Rules) -> int | None:
    """The deal's index (:func:`beggar.deals.deal_index`) where the deck has one and the rules
    have the first hand lead (the index counts the leading hand first), else None."""
    from beggar.deals import deal_index

    if rules.default_leader() != 0:
        return None
    try:
        return deal_index(deal.strip(), rules)
    except DealError:
        return None


def _index_words(index: int | None) -> str:
    """``; index 123`` where the deal has one."""
    return "" if index is None else f"; index {index}"


def _trace(game: Game, rules: Rules) -> None:
    narrator = Narrator(rules)
    names = seat_names(rules.players)
    hands = ", ".join(f"{name} {size}" for name, size in zip(names, game.hand_sizes, strict=True))
    click.echo(f"{rules.spec()}: {hands} cards; {names[game.to_play]} leads.")
    while not game.over:
        events = game.step()
        click.echo(f"{game.cards:>5}. {narrator.tell(events)}")


def _lines(source: TextIO) -> Any:
    """Numbered lines of ``source``; a line longer than any deal is refused without being kept."""
    number = 0
    while True:
        line = source.readline(MAX_DEAL_TEXT + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_DEAL_TEXT and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # skip the rest of the runaway line
                line = source.readline(1 << 16)
            yield number, None
            continue
        yield number, line


def _play_stream(
    source: TextIO, sink: TextIO, rules: Rules, as_json: bool, seed: int, partial: bool, cards: str
) -> int:
    failures = 0
    for number, line in _lines(source):
        text = "" if line is None else line.strip()
        if line is not None and (not text or text.startswith("#")):
            continue
        try:
            if line is None:
                raise DealError(f"the line is longer than {MAX_DEAL_TEXT:,} characters; a deal is shorter")
            record = _game(text, rules, seed, partial, cards).run()
        except UserError as exc:
            failures += 1
            if as_json:
                sink.write(json.dumps({"deal": text[:200], "line": number, "error": str(exc)}) + "\n")
            else:
                click.echo(f"beggar: line {number}: {exc}", err=True)
            continue
        if as_json:
            sink.write(json.dumps(record_json(text, rules, record)) + "\n")
        else:
            sink.write(f"{text}\t{summary_line(record, rules)}\n")
    return failures


@click.command("deal")
@click.option("--seed", type=Whole(0), default=None, help="Seed; the same seed always gives the same deal.")
@rules_option()
@click.option(
    "--notation",
    type=click.Choice(NOTATIONS),
    default="ranks",
    show_default=True,
    help="How to write the deal (a deal by --index is written in compact notation).",
)
@click.option("--index", type=Whole(0), default=None, help="Print the balanced deal of this index.")
@click.option("--index-of", "index_of", default=None, help="Print the index of this balanced deal.")
@cards_option("14,2,2,2", goes_with="--index or --index-of")
def deal_command(
    seed: int | None,
    rules: Rules,
    notation: str,
    index: int | None,
    index_of: str | None,
    cards: str | None,
) -> None:
    """Print a random deal (the seed is printed on standard error when not given), or a deal by index.

    A deal's index is its rank among every arrangement of the deck's pay values in lexicographic
    order, the first hand first, top card first: index 0 deals every card that pays nothing first.
    Ranks that pay the same are one kind (the jacks and queens of jack-pays-2): --index-of reads
    either rank as its value, and --index writes a kind's cards in reading order with its first
    rank, as many as the deck holds, then the next (J J Q Q).
    """
    from beggar.research.exhaust import ExhaustDeck

    if index is None and index_of is None:
        if cards is not None:
            raise click.UsageError("--cards goes with --index or --index-of")
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
            click.echo(f"seed {seed}", err=True)
        deal = random_deal(rules, seed)
        click.echo(deal.compact(rules) if notation == "compact" else deal.format(notation))
        return
    if index is not None and index_of is not None:
        raise click.UsageError("give --index or --index-of, not both")
    if seed is not None:
        raise click.UsageError("--seed draws a random deal: leave it out with --index or --index-of")
    deck = ExhaustDeck(deck_of(rules, cards))
    try:
        click.echo(deck.deal(index) if index is not None else str(deck.index_of(index_of or "")))
    except ValueError as exc:  # a deal that cannot be read, is not balanced, or not of this deck
        raise click.UsageError(str(exc)) from None


@click.command("records")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def records_command(as_json: bool) -> None:
    """Replay the published record games and the never-ending deal of 2024."""
    rows = [(game, game.replay()) for game in ALL_GAMES]
    if as_json:
        click.echo(json.dumps([_record_row(game, record) for game, record in rows], indent=2))
        return
    out = console()
    narrow = out.width < 150  # a hand a line, and the published figures only where they differ
    table = Table(title="Published games, replayed under the standard rules", box=box.SIMPLE_HEAD)
    columns: tuple[str, ...] = ("found by", "deal", "replayed", "winner", "agrees")
    if not narrow:
        columns = ("found by", "deal", "published", "replayed", "winner", "agrees")
    for column in columns:
        fixed = column in ("deal", "winner", "agrees") or not narrow
        table.add_column(
            column, no_wrap=fixed, min_width=27 if column == "deal" else None, max_width=None if fixed else 20
        )
    names = seat_names(2)
    for game, record in rows:
        row = _record_row(game, record)
        winner = "-" if record.winner is None else names[record.winner]
        agrees = "yes" if row["agrees"] else "NO"
        finder = game.title
        if narrow:
            replayed = (
                _replayed_text(record)
                if row["agrees"]
                else f"{_replayed_text(record)} (published: {_published_text(game)})"
            )
            table.add_row(finder, game.deal.replace("/", "/\n"), replayed, winner, agrees)
        else:
            table.add_row(finder, game.deal, _published_text(game), _replayed_text(record), winner, agrees)
    out.print(table)


def _published_text(game: PublishedGame) -> str:
    if game.cycle_tricks is not None:
        return f"never ends; cycle {_counted(game.cycle_tricks, 'trick')}"
    if game.cards is None or game.tricks is None:
        return "never ends"
    return _cards_and_tricks(game.cards, game.tricks)


def _replayed_text(record: GameRecord) -> str:
    if record.status is Status.LOOP and record.repeat_of is not None:
        cards, tricks = record.repeat_of
        return (
            f"loop at {_cards_and_tricks(record.cards, record.tricks)}; "
            f"cycle {_tricks_and_cards(record.tricks - tricks, record.cards - cards)}"
        )
    return _cards_and_tricks(record.cards, record.tricks)


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


@click.command("rules")
@click.argument("rules", type=RulesType(), required=False, metavar="[RULES]")
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
def rules_command(rules: Rules | None, as_json: bool) -> None:
    """List the rules presets, or show every setting of RULES (a preset or a spec)."""
    chosen = [rules] if rules is not None else list(PRESETS.values())
    if as_json:
        data = [{**one.to_dict(), "title": _title(one), "description": one.description} for one in chosen]
        click.echo(json.dumps(data if rules is None else data[0], indent=2))
        return
    out = console()
    if rules is not None:
        table = Table(title=f"{rules.spec()}: {rules.description}".rstrip(": "), show_header=False)
        table.add_column("setting")
        table.add_column("value")
        for key, value in rules.settings().items():
            table.add_row(key, value)
        out.print(table)
        return
    table = Table(title="Rules presets (beggar rules NAME shows every setting)")
    table.add_column("name", no_wrap=True)
    table.add_column("title")
    table.add_column("differs from standard")
    table.add_column("description")
    standard = STANDARD.settings()
    for one in chosen:
        changed = [f"{k}: {v}" for k, v in one.settings().items() if standard[k] != v]
        table.add_row(one.name, _title(one), "\n".join(changed) or "-", one.description)
    out.print(table)


def _title(rules: Rules) -> str:
    """What a table calls a preset (a spec that changes one has none of its own)."""
    preset = PRESET_BY_NAME[rules.name]
    return preset.title if preset.rules == rules else ""


@click.command("cycle")
@click.argument("deal")
@rules_option()
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--positions", "show_positions", is_flag=True, help="List the positions on the cycle.")
@click.option(
    "--reach",
    type=Whole(0, 1000),
    default=0,
    show_default=True,
    help="Walk back up to this many tricks from the cycle and count the starting deals that reach it.",
)
@click.option("--seed", type=Whole(0), default=0, show_default=True, help=_SEED_HELP)
@click.option("--partial", is_flag=True, help="Allow fewer cards than the whole deck (a prepared position).")
@click.option(
    "--neighbours",
    is_flag=True,
    help="Make every change of one card (swap, shift, recolor, delete, insert) at every position of "
    "the cycle and count where the changed games go: how isolated the cycle is.",
)
def cycle_command(
    deal: str,
    rules: Rules,
    as_json: bool,
    show_positions: bool,
    reach: int,
    seed: int,
    partial: bool,
    neighbours: bool,
) -> None:
    """Find where DEAL enters a cycle, and how long the cycle is (card and trick limits are ignored)."""
    from beggar.backward import deals_reaching
    from beggar.cycle import find_cycle

    deal = deal.strip()
    first = _leader(rules, seed)
    led = f"{seat_names(rules.players)[first]} leads"
    cycle = find_cycle(deal, rules, first=first, complete=not partial)
    index = _index(deal, rules)
    shown_index = {} if index is None else {"index": index}
    if cycle is None:
        record = Game(deal, rules.unlimited(), first=first, complete=not partial).run()
        if as_json:
            ended = {"deal": deal, "rules": rules.spec(), **shown_index, "loops": False, **record.to_dict()}
            click.echo(json.dumps(ended))
        else:
            ends = summary_line(record, rules)
            click.echo(f"no cycle ({led}): the game ends ({ends}){_index_words(index)}")
        return
    found = deals_reaching(cycle.positions, rules, max_tricks=reach) if reach else None
    hood: Neighbourhood | None = None
    if neighbours:
        from beggar.kernels.jit import compiling
        from beggar.research.cycles.canon import CanonError
        from beggar.research.cycles.neighbours import neighbourhood

        try:
            with compiling("neighbours", 35):
                hood = neighbourhood(deal, rules, first=first)
        except CanonError as error:
            raise click.UsageError(f"--neighbours: {error}") from None
    if as_json:
        data: dict[str, Any] = {
            "deal": deal,
            "rules": rules.spec(),
            **shown_index,
            "loops": True,
            "first": first,
            **cycle.to_dict(),
        }
        if found is not None:
            data["reaching"] = {
                "max_tricks": reach,
                "complete": found.complete,
                "deals": [
                    {"deal": d, "tricks": t} for d, t in sorted(found.deals.items(), key=lambda i: i[1])
                ],
            }
        if hood is not None:
            data["neighbours"] = hood.to_dict()
        click.echo(json.dumps(data))
        return
    click.echo(
        f"loops ({led}): the cycle is entered after {_counted(cycle.pre_period_tricks, 'trick')} "
        f"({_counted(cycle.pre_period_cards, 'card')}) and lasts {_counted(cycle.period_tricks, 'trick')} "
        f"({_counted(cycle.period_cards, 'card')}){_index_words(index)}"
    )
    if show_positions:
        for number, position in enumerate(cycle.positions):
            click.echo(f"  {cycle.pre_period_tricks + number:>5}  {position}")
    if found is not None:
        bound = "" if found.complete else " (stopped early: too many positions)"
        explored = sum(found.positions_by_depth)
        click.echo(
            f"{_counted(len(found.deals), 'starting deal')} ({_split(rules)}, the first hand leads) "
            f"{'reaches' if len(found.deals) == 1 else 'reach'} this cycle within "
            f"{_counted(reach, 'trick')}{bound}; {_counted(explored, 'position')} explored backward"
        )
        for dealt, tricks in sorted(found.deals.items(), key=lambda item: item[1]):
            click.echo(f"  {dealt}  ({_counted(tricks, 'trick')} before the cycle)")
    if hood is not None:
        _print_neighbourhood(hood)


def _print_neighbourhood(hood: Neighbourhood) -> None:
    """The table of ``beggar cycle --neighbours``, and what it means."""
    table = Table(
        title=f"Every change of one card at the {hood.positions} positions of the cycle "
        "(leader first), played out"
    )
    for heading in ("change", "tried", "game ends", "same cycle", "another cycle", "distinct", "whole deck"):
        table.add_column(heading, justify="left" if heading == "change" else "right")
    for t in hood.tallies:
        table.add_row(
            t.change,
            f"{t.tried:,}",
            f"{t.ends:,}",
            f"{t.same:,}",
            f"{t.other:,}",
            f"{t.cycles:,}",
            f"{t.full:,}",
        )
    out = console()
    out.print(table)
    if hood.isolated:
        out.print("isolated: no change of one card runs into another cycle")
        return
    shown = hood.others[:5]
    more = "" if hood.complete else " (named among the first 4,096 children)"
    out.print(f"{len(hood.others)} other cycles met{more}; the largest:")
    for form in shown:
        out.print(
            f"  {form.deal}  {form.cards} cards ({form.composition}), {form.period_tricks} tricks",
            markup=False,
        )


def _split(rules: Rules) -> str:
    """How a fresh deal of ``rules`` splits the deck: ``26/26`` for the standard game, ``20/20`` stripped."""
    dealt = deal_cards(rules.deck.cards(), rules.players)
    return "/".join(str(len(hand)) for hand in dealt.hands)


@click.command("lesson")
@click.argument("number", type=Whole(1), required=False)
@click.option("--step", is_flag=True, help="Wait for Enter before each card.")
def lesson_command(number: int | None, step: bool) -> None:
    """Play lesson NUMBER in the terminal, card by card, with a note on the cards that matter.

    Without NUMBER, list the lessons.
    """
    from beggar.lessons import LESSONS, lesson

    if number is None:
        for one in LESSONS:
            click.echo(f"{one.number}. {one.title}")
        click.echo("beggar lesson N plays lesson N")
        return
    try:
        chosen = lesson(number)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="NUMBER") from None
    game = chosen.game()
    names = seat_names(chosen.rules.players)
    click.echo(f"Lesson {chosen.number}: {chosen.title}")
    click.echo(chosen.intro)
    click.echo(
        " / ".join(
            f"{names[seat]}: {' '.join(c.label for c in hand)}" for seat, hand in enumerate(game.stacks)
        )
    )
    for card in chosen.script():
        if step and not sys.stdin.readline():
            step = False  # the end of the input: tell the rest without waiting
        click.echo(f"{card.number:>3}. {card.sentence}")
        if card.note:
            click.echo(f"     {card.note}")
    if chosen.outro:
        click.echo(chosen.outro)


COMMANDS = (play_command, deal_command, cycle_command, records_command, rules_command, lesson_command)
