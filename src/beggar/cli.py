"""The ``beggar`` command line: the root group, error handling, and the console script.

The commands themselves live in :mod:`beggar.commands`. Every error is one line on standard
error and a non-zero exit status, never a traceback. Deal strings that begin with ``-`` (most
record deals do) work as typed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import click

from beggar.commands import construct, exhaust, factory, games, research, serve
from beggar.commands.games import record_json, summary_line
from beggar.errors import BeggarError, UserError

_DEAL_TOKEN = re.compile(r"-[-/0-9TJQKAHDCS ,]*", re.IGNORECASE)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="beggar", prog_name="beggar")
def cli() -> None:
    """Beggar-My-Neighbour: play, trace, simulate and study the game exactly.

    Deals are written top card first, hands separated by '/', the first hand leading:
    compact (K-KK----K-A...), ranks (284K523Q6...) or full cards (QH 10S ...).
    """


for _command in (
    *games.COMMANDS,
    *research.COMMANDS,
    *factory.COMMANDS,
    *construct.COMMANDS,
    *exhaust.COMMANDS,
    *serve.COMMANDS,
):
    cli.add_command(_command)


def _protect_deals(args: list[str]) -> list[str]:
    """Move deal strings that start with '-' behind '--' so they are not read as options; a deal
    given as an option's value (``--index-of -K--/...``) stays where it is, since click takes the
    word after such an option as its value whatever it starts with.

    >>> _protect_deals(["play", "--rules", "standard", "-K-/J--"])
    ['play', '--rules', 'standard', '--', '-K-/J--']
    >>> _protect_deals(["deal", "--index-of", "-K-/J--", "--rules", "half-deck"])
    ['deal', '--index-of', '-K-/J--', '--rules', 'half-deck']
    """
    if "--" in args:
        return args
    valued = _options_with_values()
    deals = [
        i
        for i, a in enumerate(args)
        if "/" in a and _DEAL_TOKEN.fullmatch(a) and not (i and args[i - 1] in valued)
    ]
    if not deals:
        return args
    return [a for i, a in enumerate(args) if i not in deals] + ["--", *(args[i] for i in deals)]


def _options_with_values() -> set[str]:
    """Every spelling of every command's options that take a value (``--rules``, ``-n``)."""
    return {
        spelling
        for command in cli.commands.values()
        for param in command.params
        if isinstance(param, click.Option) and not param.is_flag and not param.count
        for spelling in param.opts
    }


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
    except UserError as exc:  # what was asked cannot be done: the message says why
        click.echo(f"beggar: {_one_line(str(exc))}", err=True)
        return 2
    except BeggarError as exc:  # a store that cannot be used or written (a full disk), a cluster...
        click.echo(f"beggar: {_one_line(str(exc))}", err=True)
        return 1
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
