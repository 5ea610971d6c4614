"""Never-ending deals in the famous-games viewer: the 2024 deal and those the cycle factory found.

The cycle factory (``beggar factory``) stores the balanced starting deals that never end in its
SQLite store; the server reads that file, never writes it, and lists at most :data:`FOUND_LIMIT`
of them, longest cycle first. Every stored row is played through the reference engine
(:func:`beggar.cycle.find_cycle`), which says where its cycle starts and how long it is: what a
row claims is never read; a row that does not parse, names unknown rules or does not loop there is
left out. :class:`FoundShelf` reads only the rows stored since its last read, within bounds.

>>> from beggar.records import NEVER_ENDING
>>> published_cycle(NEVER_ENDING)
{'pre_period_tricks': 4, 'pre_period_cards': 34, 'period_tricks': 62, 'period_cards': 440}
"""

from __future__ import annotations

import functools
import hashlib
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from beggar.cycle import Cycle, find_cycle
from beggar.errors import UserError
from beggar.notation import parse_deal
from beggar.records import PublishedGame
from beggar.research.store import Store, StoreError
from beggar.rules import Award, Rules, rules_named
from beggar.web.presets import table_rules_title

FOUND_LIMIT = 12
"""Stored never-ending deals listed at most."""
READ_ROWS = 2_000
"""Stored rows read at most each time the store is read (only rows stored since the last read)."""
CHECK_SECONDS = 0.5
"""Engine time spent at most each time the store is read, playing the new rows through; the rest
wait for the next read."""
REFRESH_SECONDS = 60.0
"""How old the list may grow before the store is read again (a factory may be adding deals)."""
CATCH_UP_SECONDS = 5.0
"""How soon the store is read again while rows stored before the last read remain unchecked."""


def cycle_json(cycle: Cycle) -> dict[str, int]:
    """Where a game's cycle starts and its period, for the chart: in tricks and in cards."""
    return {
        "pre_period_tricks": cycle.pre_period_tricks,
        "pre_period_cards": cycle.pre_period_cards,
        "period_tricks": cycle.period_tricks,
        "period_cards": cycle.period_cards,
    }


def published_cycle(game: PublishedGame) -> dict[str, int] | None:
    """The cycle a published deal enters under the standard rules (None: the game ends)."""
    cycle = _published_cycle(game)
    return None if cycle is None else cycle_json(cycle)


@functools.cache
def _published_cycle(game: PublishedGame) -> Cycle | None:
    # A famous table sends its game with every view: the engine plays the deal once per server.
    return find_cycle(game.deal, first=0)


@dataclass(frozen=True)
class FoundDeal:
    """A never-ending starting deal from the factory's store, checked by the reference engine."""

    key: str
    """Its name in links (``found-`` and twelve hex digits of its rules and deal): stable across
    restarts and store changes, unlike a position in the list."""
    deal: str
    rules: Rules
    cycle: Cycle

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "deal": self.deal,
            "rules": self.rules.spec(),
            "rules_title": table_rules_title(self.rules),
            "cards": self.rules.deck.size,
            "cycle": cycle_json(self.cycle),
        }


def found_again(key: str, deal: str, rules: Rules) -> FoundDeal:
    """A deal a table was showing, as that table saved it (its link name, deal and rules), played
    through the engine again; :class:`ValueError` if it is not a never-ending deal under them.

    >>> from beggar.records import NEVER_ENDING
    >>> rules = viewing_rules(rules_named("standard"))
    >>> found_again("found-0123456789ab", NEVER_ENDING.deal, rules).cycle.period_tricks
    62
    """
    try:
        cycle = find_cycle(parse_deal(deal, rules.deck, rules=rules), rules, first=0)
    except UserError as exc:  # the deal, or the game it sets up
        raise ValueError(f"not a deal to watch: {exc}") from None
    if cycle is None:
        raise ValueError("the saved deal does not loop")
    return FoundDeal(key, deal, rules, cycle)


def found_key(rules: str, deal: str) -> str:
    """The link name of a stored deal: ``found-`` and a short hash of its rules and deal."""
    return "found-" + hashlib.sha256(f"{rules}\n{deal}".encode()).hexdigest()[:12]


def viewing_rules(rules: Rules) -> Rules:
    """The rules a never-ending deal is shown under: no house limit, stopped at its first repeat,
    which awards nothing (the factory may have run under house rules that deal a loop again)."""
    return rules.unlimited().replace(on_repeat=Award.NO_WINNER)


def checked(spec: str, deal: str) -> FoundDeal | None:
    """The stored deal as the reference engine plays it (first hand leading), or None if it is
    malformed or does not loop."""
    try:
        rules = viewing_rules(rules_named(spec))
        parsed = parse_deal(deal, rules.deck, rules=rules)
        cycle = find_cycle(parsed, rules, first=0)
    except ValueError:  # the rules, the deal or the game (each a ValueError), or the cycle
        return None
    if cycle is None:
        return None
    # Shown as the rules read it: ``-`` for every card that pays nothing (a king under J1Q2).
    return FoundDeal(found_key(spec, deal), parsed.compact(rules), rules, cycle)


def load_found(path: str | Path, limit: int = FOUND_LIMIT) -> list[FoundDeal]:
    """The stored never-ending deals (longest cycle first, as the engine plays them), at most
    ``limit``; none without a store. Every row is checked: what a row claims is never trusted.

    The store is opened read-only. A file that is missing or not a factory store gives no deals.
    """
    shelf = FoundShelf(path, limit=limit, rows=None, seconds=None)
    return shelf.deals()


class FoundShelf:
    """The never-ending deals a server lists, read again from the store when they grow old.

    Each read takes only the rows stored since the last one (the factory appends), at most
    :data:`READ_ROWS`, and plays them through the engine for at most :data:`CHECK_SECONDS`; rows
    left over are read :data:`CATCH_UP_SECONDS` later. The list is the longest cycles the engine
    found among every row checked so far, whatever the rows claim: a store full of false periods
    costs the server bounded work per read and hides no real deal. A store that shrank (replaced
    by another file) is read again from its start.
    """

    def __init__(
        self,
        path: str | Path | None,
        *,
        refresh: float = REFRESH_SECONDS,
        limit: int = FOUND_LIMIT,
        rows: int | None = READ_ROWS,
        seconds: float | None = CHECK_SECONDS,
    ) -> None:
        self.path = path
        self.refresh = refresh
        self.limit = limit
        self.rows = rows
        """Rows read at most per read (None: all)."""
        self.seconds = seconds
        """Engine time spent at most per read (None: as long as it takes)."""
        self._deals: list[FoundDeal] = []
        self._after = 0
        """The last row checked (rowid): the next read starts after it."""
        self.behind = False
        """Rows were left unchecked by the last read: the next comes sooner."""
        self.checked = 0
        """Rows played through the engine so far."""
        self._read_at: float | None = None
        self._lock = threading.Lock()

    def deals(self) -> list[FoundDeal]:
        """The deals to list now (reads the store if the list is older than ``refresh`` seconds)."""
        with self._lock:
            now = time.monotonic()
            wait = min(self.refresh, CATCH_UP_SECONDS) if self.behind else self.refresh
            if self.path is not None and (self._read_at is None or now - self._read_at >= wait):
                self._read()
                self._read_at = time.monotonic()
            return self._deals

    def _read(self) -> None:
        """Read and check what was stored since the last read, within this read's bounds."""
        assert self.path is not None
        try:
            store = Store(self.path, read_only=True)
        except StoreError:
            self._deals, self._after, self.behind = [], 0, False
            return
        try:
            last = store.last_cycle_deal_row()
            if last < self._after:  # another store now: start again
                self._deals, self._after = [], 0
            rows = store.cycle_deal_rows(self._after, self.rows if self.rows is not None else last + 1)
        except sqlite3.Error:  # not a factory store (no such table), or damaged
            self._deals, self._after, self.behind = [], 0, False
            return
        finally:
            store.close()
        listed = {deal.key: deal for deal in self._deals}
        started = time.monotonic()
        done = 0
        for rowid, rules, deal in rows:
            if self.seconds is not None and done and time.monotonic() - started >= self.seconds:
                break
            self._after, done = rowid, done + 1
            if not isinstance(rules, str) or not isinstance(deal, str):
                continue
            found = checked(rules, deal)
            if found is not None:
                listed.setdefault(found.key, found)
        self.checked += done
        self.behind = done < len(rows) or self._after < last
        ordered = sorted(
            listed.values(),
            key=lambda deal: (-deal.cycle.period_cards, -deal.cycle.pre_period_cards, deal.deal),
        )
        self._deals = ordered[: self.limit]

    def get(self, key: str) -> FoundDeal | None:
        """The deal listed under ``key`` (reading the store again if the list is old)."""
        return next((deal for deal in self.deals() if deal.key == key), None)

    def known(self, key: str) -> FoundDeal | None:
        """The deal listed under ``key`` in the list as last read (never reads the store: the event
        loop may call it)."""
        return next((deal for deal in self._deals if deal.key == key), None)
