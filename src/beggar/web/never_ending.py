"""Never-ending deals in the famous-games viewer: the 2024 deal and those the cycle factory found.

The cycle factory (``beggar factory``) stores the balanced starting deals that never end in its
SQLite store; the server reads that file, never writes it, and lists at most :data:`FOUND_LIMIT`
of them, longest cycle first. Every deal shown is played through the reference engine
(:func:`beggar.cycle.find_cycle`), which says where its cycle starts and how long it is; a stored
row that does not parse, names unknown rules or does not loop there is left out.

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
from beggar.engine import GameError
from beggar.notation import DealError, parse_deal
from beggar.records import PublishedGame
from beggar.research.store import Store, StoreError, never_ending_deals
from beggar.rules import Award, Rules, RulesError, rules_named
from beggar.web.presets import table_rules_title

FOUND_LIMIT = 12
"""Stored never-ending deals listed at most."""
CANDIDATES = 4 * FOUND_LIMIT
"""Stored rows played through the engine at most to fill the list (malformed ones are skipped)."""
REFRESH_SECONDS = 60.0
"""How old the list may grow before the store is read again (a factory may be adding deals)."""


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
    except (DealError, GameError) as exc:
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
    except (RulesError, DealError, GameError, ValueError):
        return None
    if cycle is None:
        return None
    # Shown as the rules read it: ``-`` for every card that pays nothing (a king under J1Q2).
    return FoundDeal(found_key(spec, deal), parsed.compact(rules), rules, cycle)


def load_found(path: str | Path, limit: int = FOUND_LIMIT) -> list[FoundDeal]:
    """The stored never-ending deals (longest cycle first), at most ``limit``; none without a store.

    The store is opened read-only. A file that is missing or not a factory store gives no deals.
    """
    try:
        store = Store(path, read_only=True)
    except StoreError:
        return []
    try:
        rows = never_ending_deals(store)
    except sqlite3.Error:  # not a factory store (no such table), or damaged
        return []
    finally:
        store.close()
    rows.sort(key=lambda row: (-_number(row.period_cards), -_number(row.pre_period_cards), str(row.deal)))
    found: list[FoundDeal] = []
    seen: set[str] = set()
    for row in rows[:CANDIDATES]:
        if not isinstance(row.rules, str) or not isinstance(row.deal, str):
            continue
        deal = checked(row.rules, row.deal)
        if deal is None or deal.key in seen:
            continue
        seen.add(deal.key)
        found.append(deal)
        if len(found) == limit:
            break
    found.sort(key=lambda deal: (-deal.cycle.period_cards, -deal.cycle.pre_period_cards, deal.deal))
    return found


def _number(value: object) -> int:
    return value if isinstance(value, int) else 0


class FoundShelf:
    """The never-ending deals a server lists, read again from the store when they grow old."""

    def __init__(self, path: str | Path | None, *, refresh: float = REFRESH_SECONDS) -> None:
        self.path = path
        self.refresh = refresh
        self._deals: list[FoundDeal] = []
        self._read_at: float | None = None
        self._lock = threading.Lock()

    def deals(self) -> list[FoundDeal]:
        """The deals to list now (reads the store if the list is older than ``refresh`` seconds)."""
        with self._lock:
            now = time.monotonic()
            if self.path is not None and (self._read_at is None or now - self._read_at >= self.refresh):
                self._deals = load_found(self.path)
                self._read_at = now
            return self._deals

    def get(self, key: str) -> FoundDeal | None:
        """The deal listed under ``key`` (reading the store again if the list is old)."""
        return next((deal for deal in self.deals() if deal.key == key), None)

    def known(self, key: str) -> FoundDeal | None:
        """The deal listed under ``key`` in the list as last read (never reads the store: the event
        loop may call it)."""
        return next((deal for deal in self._deals if deal.key == key), None)
