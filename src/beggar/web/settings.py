"""The server's limits and places, each declared once: its default, its bounds and its help.

:class:`ServerSettings` is what the application and its lobby read; ``beggar serve`` builds one
command-line option from each field that names one (:func:`options`), and the home page is told
the limits it speaks of (``/api/options``), so that no other file repeats a number.

This module imports nothing heavy: the command line reads it to build its options.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Option:
    """How a setting is given on ``beggar serve``'s command line."""

    flag: str
    """``--max-tables``."""
    help: str
    low: float
    """The smallest value accepted."""
    scale: float = 1.0
    """Settings value per unit typed: 60 for minutes typed into a setting kept in seconds."""
    whole: bool = True
    """A whole number (else one with a fraction)."""


def _limit(
    default: float, flag: str, help: str, low: float, *, scale: float = 1.0, whole: bool = True
) -> Any:
    return field(default=default, metadata={"option": Option(flag, help, low, scale, whole)})


NAME_LENGTH = 24
"""Characters a seat's name may have at most (after normalising, see :mod:`beggar.web.names`)."""
NAME_MARKS = 3
"""Combining marks (accents) one letter of a name may carry: enough for any language's letters,
too few to draw a tower of marks over the log."""


def _default_db() -> Path:
    from beggar.web.archive import default_path  # the archive loads the engine: only when needed

    return default_path()


@dataclass
class ServerSettings:
    """Limits that keep one server healthy for everyone, and where it keeps what it keeps."""

    max_tables: int = _limit(1000, "--max-tables", "Live tables at most.", 1)
    idle_seconds: float = _limit(
        30 * 60,
        "--idle-minutes",
        "Close tables nobody has touched for this many minutes.",
        0.1,
        scale=60,
        whole=False,
    )
    """Tables nobody has touched for this long are closed."""
    instant_cards: float = _limit(
        8_000, "--instant-cards", "Cards a second all instant-pace tables together may turn.", 1, whole=False
    )
    """Cards a second that all instant-pace tables together may turn: the rest of the server's
    time goes to sending updates, so that hundreds of instant tables cannot starve anyone."""
    max_tables_per_browser: int = _limit(
        20, "--max-tables-per-browser", "Live tables one browser may have created.", 1
    )
    """Counted by the browser's own mark (:data:`beggar.web.app.BROWSER_COOKIE`): a household or a
    classroom behind one address is many browsers."""
    max_tables_per_address: int = _limit(
        300,
        "--max-tables-per-address",
        "Live tables all the browsers at one network address (a household, a classroom) may have "
        "created together.",
        1,
    )
    """A ceiling against abuse that a class of thirty, each with a few tables, does not reach."""
    max_sockets_per_address: int = _limit(
        60, "--max-sockets-per-address", "WebSockets one network address may hold open at once.", 1
    )
    max_spectators: int = _limit(50, "--max-spectators", "Spectators one table may have at once.", 0)
    header_seconds: float = _limit(
        10.0,
        "--header-timeout",
        "Seconds a client has to send a request's line and headers before it is cut off.",
        0.1,
        whole=False,
    )
    rate: float = 20.0
    """Messages a second one connection may send, on average."""
    burst: float = 40.0
    """Messages one connection may send at once."""
    flood_limit: int = 200
    """Refused messages after which a flooding connection is closed."""
    creates_per_minute: float = 30
    """Tables one network address may create a minute (a burst of ten at once)."""
    failed_joins_per_minute: float = 20
    """Joins of tables that do not exist one network address may try a minute: guessing is hopeless."""
    renames_per_minute: float = 6
    """Names one seat may take a minute (a burst of :attr:`rename_burst`), however many browsers
    hold its token: each is told to everyone at the table and kept in its log."""
    rename_burst: float = 3
    """Renames one seat may make at once."""
    replays_per_minute: float = 60
    """Replays (``/api/replay/…``) one network address may ask for a minute, a burst of
    :attr:`replay_burst` at once: each answer is built once and kept, but it is large."""
    replay_burst: float = 30
    db: str | Path = field(default_factory=_default_db)
    """The SQLite file that keeps finished games for their replay links and the live tables for a
    restart (``":memory:"``: nothing outlives the process)."""
    finds: str | Path | None = None
    """The cycle factory's SQLite store, read (never written) for the never-ending deals it found;
    None, or a file that is not there: none listed."""
    allowed_origins: tuple[str, ...] = ()
    """Web origins (``https://cards.example``) whose pages may open the WebSocket, besides the
    server's own host (``Host``, or ``X-Forwarded-Host`` from a reverse proxy)."""
    instance: str = "0"
    """The name of this server process among several that share the tables and ``db`` (``beggar
    serve --instance``): each table lives in one of them, and a process restores only its own."""

    def page_limits(self) -> dict[str, Any]:
        """The limits the home page tells people about."""
        return {"idle_minutes": round(self.idle_seconds / 60, 1)}


def options() -> list[tuple[str, Option, Any]]:
    """Each setting given on the command line: its field name, its option, and its default as
    typed (in the option's unit)."""
    found = []
    for each in fields(ServerSettings):
        option = each.metadata.get("option")
        if option is not None:
            found.append(
                (each.name, option, each.default if option.scale == 1 else each.default / option.scale)
            )
    return found


__all__ = ["NAME_LENGTH", "NAME_MARKS", "Option", "ServerSettings", "options"]
