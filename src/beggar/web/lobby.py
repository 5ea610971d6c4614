"""The lobby: every live table of this process, bounded in number, opened and closed here.

A :class:`Lobby` opens tables (refusing rules a live table could not finish, see
:func:`check_live_rules`), starts their drivers (:mod:`beggar.web.pacing`), takes back the tables
restored after a restart (:mod:`beggar.web.durable`) and closes idle, deserted and unwatched ones.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from beggar.lessons import Lesson
from beggar.notation import Deal, parse_deal, random_deal
from beggar.records import PublishedGame
from beggar.rules import Rules
from beggar.web.ids import ID_ALPHABET, TABLE_ID_LENGTH, is_table_id, new_table_id
from beggar.web.never_ending import FoundDeal
from beggar.web.pacing import CardBudget, drive
from beggar.web.settings import ServerSettings
from beggar.web.table import Mode, NoSuchTable, Pace, Seat, Table, TableError

LIVE_LIMITS = {"max_cards": 1_000_000, "max_tricks": 100_000, "time_limit": 24 * 3600.0}
"""The largest limits a live table accepts: beyond any real game, but a table cannot run for ever."""


RESTORE_GRACE = 120.0
"""Seconds a table restored after a restart waits for its people before it counts as unwatched."""


class Lobby:
    """Every live table, bounded in number."""

    def __init__(self, settings: ServerSettings | None = None) -> None:
        self.settings = settings or ServerSettings()
        self.tables: dict[str, Table] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self.budget = CardBudget(self.settings.instant_cards)
        self.restoring: set[str] = set()
        """Ids of saved tables still being restored after a restart: taken, and counted."""
        self._grace: dict[str, float] = {}
        self.frozen = False
        """The server is stopping: no card is turned and no table opens or closes any more."""
        self.on_open: Callable[[Table], None] | None = None
        """Called with every table opened (the server's keeper, :mod:`beggar.web.durable`)."""

    def open(
        self,
        mode: Mode,
        rules: Rules,
        seats: list[Seat],
        *,
        deal: Deal | str | None = None,
        seed: int | None = None,
        pace: Pace = Pace.NORMAL,
        lesson: Lesson | None = None,
        famous: PublishedGame | FoundDeal | None = None,
        bound_to_connection: bool = False,
        on_game_over: Callable[[Table], None] | None = None,
        owner: str = "",
        browser: str = "",
        table_id: str | None = None,
        replayed: bool = False,
    ) -> Table:
        """Open a table; ``table_id`` is the id it must have (when several processes share the
        tables, the id that routes to this one), else a fresh one is drawn. ``owner``: the network
        address that asks for it, ``browser``: the browser's own mark ("": it sent none)."""
        check_live_rules(rules)
        if self.frozen:
            raise TableError("the server is restarting: try again in a moment")
        if table_id is not None:
            if not is_table_id(table_id):
                raise TableError(f"a table id is {TABLE_ID_LENGTH} of the letters and digits {ID_ALPHABET}")
            if table_id in self.tables or table_id in self.restoring:
                raise TableError("a table with this id is open already: start again for a new one")
        idle = f"{self.settings.idle_seconds / 60:g} minutes"
        most = self.settings.max_tables_per_browser
        if browser and sum(1 for table in self.tables.values() if table.browser == browser) >= most:
            raise TableError(
                f"you already have {most} tables open in this browser: leave one, or wait until one "
                f"closes (a table nobody plays closes after {idle})"
            )
        if owner and self.owned_by(owner) >= self.settings.max_tables_per_address:
            raise TableError(
                f"{self.settings.max_tables_per_address} tables are open from your network already "
                "(everyone here together), the most this server takes from one place: try again when "
                f"some close (a table nobody plays closes after {idle})"
            )
        if self.full():
            self.close_idle()
            if self.full() and not self.close_deserted():
                raise TableError("the server has as many tables as it can hold: try again in a few minutes")
        if isinstance(deal, str):
            deal = parse_deal(deal, rules.deck, complete=lesson is None)
        chosen = deal is not None and lesson is None and famous is None
        if deal is None:
            deal = random_deal(rules, seed)
        table = Table(
            id=table_id or self._new_id(),
            mode=mode,
            rules=rules,
            seats=seats,
            deal=deal,
            pace=pace,
            seed=seed,
            lesson=lesson,
            famous=famous,
            bound_to_connection=bound_to_connection,
            on_game_over=on_game_over,
            owner=owner,
            browser=browser,
            chosen=chosen,
            replayed=chosen and replayed,
        )
        self.tables[table.id] = table
        self._drivers[table.id] = asyncio.get_running_loop().create_task(drive(table, self.budget))
        if self.on_open is not None:
            self.on_open(table)
        return table

    def adopt(self, table: Table) -> None:
        """Take back a table restored after a restart; its people have :data:`RESTORE_GRACE`
        seconds to come back before it counts as unwatched."""
        self.restoring.discard(table.id)
        if self.frozen or table.id in self.tables:
            return
        self.tables[table.id] = table
        self._grace[table.id] = time.monotonic() + RESTORE_GRACE
        self._drivers[table.id] = asyncio.get_running_loop().create_task(drive(table, self.budget))
        table.changed()

    def freeze(self) -> None:
        """Stop every table where it stands, for a restart: no card is turned any more, and
        nothing opens or closes (people leaving as the server stops do not close their tables)."""
        self.frozen = True
        for task in self._drivers.values():
            task.cancel()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise NoSuchTable("this table is closed or never existed")
        return table

    def close(self, table_id: str) -> None:
        if self.frozen:
            return
        table = self.tables.pop(table_id, None)
        self._grace.pop(table_id, None)
        if table is None:
            return
        table.closed = True
        table.changed()
        task = self._drivers.pop(table_id, None)
        if task is not None:
            task.cancel()

    def close_idle(self) -> int:
        """Close tables nobody has touched for ``idle_seconds``; return how many."""
        now = time.monotonic()
        idle = [t.id for t in self.tables.values() if now - t.touched > self.settings.idle_seconds]
        for table_id in idle:
            self.close(table_id)
        return len(idle)

    def full(self) -> bool:
        """Whether the server holds as many tables (open or being restored) as it may."""
        return len(self.tables) + len(self.restoring) >= self.settings.max_tables

    def close_deserted(self) -> bool:
        """Make room: close the table that nobody is connected to and was touched longest ago.

        A friend table outlives its players' connections for ``idle_seconds``, so that they can
        come back to it; but while the server is full, a table someone is at comes first. A table
        just restored after a restart is spared while its people reconnect. Return False if every
        table has someone at it.
        """
        now = time.monotonic()
        deserted = [t for t in self.tables.values() if not t.listeners and self._grace.get(t.id, 0) < now]
        if not deserted:
            return False
        self.close(min(deserted, key=lambda t: t.touched).id)
        return True

    def owned_by(self, owner: str) -> int:
        """How many live tables were created from the network address ``owner``."""
        return sum(1 for table in self.tables.values() if table.owner == owner)

    def close_unwatched(self) -> int:
        """Close tables that play themselves with nobody watching; return how many.

        A table where every seat plays itself (a watched game, a famous game) is only worth its
        cards while someone looks at it. A paused one costs nothing: it waits for its people.
        """
        now = time.monotonic()
        unwatched = [
            t.id
            for t in self.tables.values()
            if not t.listeners
            and not t.paused
            and all(s.plays_itself for s in t.seats)
            and self._grace.get(t.id, 0) < now
        ]
        for table_id in unwatched:
            self.close(table_id)
        return len(unwatched)

    def close_all(self) -> None:
        """Close every table (a frozen lobby only stops their drivers)."""
        for table_id in list(self.tables):
            self.close(table_id)
        for task in self._drivers.values():
            task.cancel()
        self.budget.stop()

    def _new_id(self) -> str:
        while True:
            table_id = new_table_id()
            if table_id not in self.tables and table_id not in self.restoring:
                return table_id


def check_live_rules(rules: Rules) -> None:
    """Refuse limits so large that a live table could run for ever (see :data:`LIVE_LIMITS`)."""
    for attribute, most in LIVE_LIMITS.items():
        value = getattr(rules, attribute)
        if value is not None and value > most:
            key = attribute.replace("_", "-")
            shown = f"{most / 3600:g} hours" if attribute == "time_limit" else f"{int(most):,}"
            raise TableError(f"{key} can be at most {shown} at a live table", field="rules")


__all__ = ["LIVE_LIMITS", "RESTORE_GRACE", "Lobby", "check_live_rules"]
