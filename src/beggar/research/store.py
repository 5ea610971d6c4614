"""Where search finds live: an embedded SQLite database that survives a killed process.

A *campaign* is one search, named by its arguments; it is split into small *units* of work, each
done by one *walker* (a random sampler, a hill climber, an annealer). A unit's finds and the
walker's new state are written in one transaction, so a search killed at any moment (even with
SIGKILL) and started again with the same arguments resumes from the last unit written and loses
no find: a unit that was cut off is simply done again, and gives the same finds.

This module reads and writes; what it holds is declared in
:mod:`beggar.research.store_records` (one data class for each kind of record, named here too,
since the store hands them out) and its tables, version by version, in
:mod:`beggar.research.store_schema`.

>>> store = Store(":memory:")
>>> campaign = store.campaign({"rules": "standard", "seed": 1})
>>> store.save_unit(campaign, walker=0, unit=0, state={"best": 5}, scored=10,
...                 finds=[Find("K-/-K", "standard", 5, 1, "finished", 0, "random", 1)])
1
>>> [find.cards for find in store.top()]
[5]
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeVar

from beggar.errors import BeggarError
from beggar.research.store_records import Campaign as Campaign
from beggar.research.store_records import CensusCycle as CensusCycle
from beggar.research.store_records import CensusInstance as CensusInstance
from beggar.research.store_records import CensusPlay as CensusPlay
from beggar.research.store_records import CycleDeal as CycleDeal
from beggar.research.store_records import CycleFigures as CycleFigures
from beggar.research.store_records import CycleOfDeck as CycleOfDeck
from beggar.research.store_records import Find as Find
from beggar.research.store_records import MoveTally as MoveTally
from beggar.research.store_records import NeverEnding as NeverEnding
from beggar.research.store_records import StoredBasin as StoredBasin
from beggar.research.store_records import StoredCycle as StoredCycle
from beggar.research.store_records import campaign_id as campaign_id
from beggar.research.store_schema import MIGRATIONS
from beggar.research.store_schema import SCHEMA as SCHEMA
from beggar.research.store_schema import SCHEMA_VERSION as SCHEMA_VERSION
from beggar.schema import NewerSchema, migrate, refuse_newer

_ELSEWHERE = "give another --db"


FIND_COLUMNS = [f.name for f in fields(Find)]
FIND_ORDERS = ("cards", "tricks")
"""What :meth:`Store.top` ranks finds by, longest first: cards turned or tricks (columns of ``finds``);
the first is the default."""
EXPORT_FORMS = ("csv", "json")
"""The forms :func:`export` writes finds in; the first is the default."""
CYCLE_COLUMNS = [f.name for f in fields(StoredCycle)]
BASIN_COLUMNS = [f.name for f in fields(StoredBasin)]
DEAL_COLUMNS = [f.name for f in fields(CycleDeal)]
CENSUS_INSTANCE_COLUMNS = [f.name for f in fields(CensusInstance)]
CENSUS_CYCLE_COLUMNS = [f.name for f in fields(CensusCycle)]
CENSUS_PLAY_COLUMNS = [f.name for f in fields(CensusPlay)]

_Row = TypeVar("_Row")


def _from_row(kind: type[_Row], columns: Sequence[str], row: Sequence[Any]) -> _Row:
    """A stored row read back into its data class, by column name. SQLite keeps a bool as 0 or 1,
    so the fields declared ``bool`` are made bools again."""
    data = dict(zip(columns, row, strict=True))
    for each in fields(kind):  # type: ignore[arg-type]  # a data class, which the TypeVar cannot say
        if each.type in ("bool", bool):
            data[each.name] = bool(data[each.name])
    return kind(**data)


def _insert(verb: str, table: str, columns: Sequence[str]) -> str:
    """``INSERT``/``INSERT OR IGNORE``/... of one row, by column name."""
    return f"{verb} INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _values(item: object, columns: Sequence[str]) -> list[Any]:
    return [getattr(item, name) for name in columns]


class Store:
    """The SQLite database of campaigns, walkers' states and finds."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = str(path)
        if read_only:
            self._open_read_only()
            return
        if self.path != ":memory:":
            folder = Path(self.path).parent
            if not folder.is_dir():
                raise StoreError(
                    f"cannot create the database {self.path}: the folder {folder} does not exist"
                )
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot use {self.path} as a database: {exc}") from None
        try:
            # A newer store is refused before anything in it changes, its journal mode included.
            refuse_newer(self.db, self.path, SCHEMA_VERSION, elsewhere=_ELSEWHERE)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            migrate(self.db, self.path, MIGRATIONS, elsewhere=_ELSEWHERE)
        except NewerSchema as exc:
            self.db.close()
            raise StoreError(str(exc)) from None
        except sqlite3.Error as exc:
            self.db.close()
            if str(getattr(exc, "sqlite_errorname", "")).startswith(("SQLITE_FULL", "SQLITE_IOERR")):
                raise _write_failure(self.path, exc) from None
            raise StoreError(f"cannot use {self.path} as a database: {exc}") from None

    def _open_read_only(self) -> None:
        """Open an existing database to read it only: nothing is created, migrated or written.

        A reader (the browser table listing the factory's deals) may run while a search or the
        factory writes the same file; SQLite's WAL mode lets both go on.
        """
        if not Path(self.path).is_file():
            raise StoreError(f"no database at {self.path}")
        try:
            self.db = sqlite3.connect(
                Path(self.path).resolve().as_uri() + "?mode=ro", uri=True, timeout=30, isolation_level=None
            )
            self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            refuse_newer(self.db, self.path, SCHEMA_VERSION, elsewhere=_ELSEWHERE)
        except NewerSchema as exc:
            self.db.close()
            raise StoreError(str(exc)) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read {self.path} as a database: {exc}") from None

    def close(self) -> None:
        self.db.close()

    # -- campaigns --------------------------------------------------------------------------------

    def campaign(self, args: dict[str, Any]) -> Campaign:
        """The campaign with these arguments, created if new."""
        key = campaign_id(args)
        now = time.time()
        with self.transaction():
            self.db.execute(
                "INSERT OR IGNORE INTO campaigns (id, args, created, updated) VALUES (?, ?, ?, ?)",
                (key, json.dumps(args, sort_keys=True), now, now),
            )
        row = self.db.execute("SELECT args, scored, seconds FROM campaigns WHERE id = ?", (key,)).fetchone()
        return Campaign(key, json.loads(row[0]), int(row[1]), float(row[2]))

    def walkers(self, campaign: Campaign) -> dict[int, tuple[int, dict[str, Any]]]:
        """Each walker's next unit and saved state."""
        rows = self.db.execute(
            "SELECT walker, unit, state FROM walkers WHERE campaign = ?", (campaign.id,)
        ).fetchall()
        return {int(w): (int(u), json.loads(s)) for w, u, s in rows}

    def _advance(
        self, campaign: Campaign, walker: int, unit: int, state: dict[str, Any], scored: int, seconds: float
    ) -> None:
        """A walker's unit done (inside the unit's transaction): its next unit and state, and the
        campaign's work, which the same command resumes from."""
        self.db.execute(
            "INSERT INTO walkers (campaign, walker, unit, state) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (campaign, walker) DO UPDATE SET unit = excluded.unit, state = excluded.state",
            (campaign.id, walker, unit + 1, json.dumps(state)),
        )
        self.db.execute(
            "UPDATE campaigns SET scored = scored + ?, seconds = seconds + ?, updated = ? WHERE id = ?",
            (scored, seconds, time.time(), campaign.id),
        )

    def save_unit(
        self,
        campaign: Campaign,
        *,
        walker: int,
        unit: int,
        state: dict[str, Any],
        scored: int,
        finds: Sequence[Find],
        seconds: float = 0.0,
    ) -> int:
        """Record one finished unit: its finds, the walker's new state and the work done, atomically.

        Returns how many of the finds were new to the database.
        """
        new = 0
        with self.transaction():
            for find in finds:
                new += self._insert(find, campaign.id)
            self._advance(campaign, walker, unit, state, scored, seconds)
        return new

    def save_factory_unit(
        self,
        campaign: Campaign,
        *,
        walker: int,
        unit: int,
        state: dict[str, Any],
        scored: int,
        seconds: float,
        cycles: Sequence[StoredCycle],
        basins: Sequence[StoredBasin],
        deals: Sequence[CycleDeal],
        finds: Sequence[Find],
        moves: Sequence[MoveTally],
    ) -> tuple[int, int]:
        """Record one factory unit atomically: cycles met, basins, deals, moves and the walker's state.

        A cycle met again adds to its ``met`` count. Returns how many cycles and finds were new.
        """
        new_cycles = 0
        new_finds = 0
        with self.transaction():
            for cycle in cycles:
                known = self.db.execute(
                    "SELECT 1 FROM cycles WHERE rules = ? AND deal = ?", (cycle.rules, cycle.deal)
                ).fetchone()
                if known:
                    self.db.execute(
                        "UPDATE cycles SET met = met + ? WHERE rules = ? AND deal = ?",
                        (cycle.met, cycle.rules, cycle.deal),
                    )
                    continue
                self.db.execute(
                    _insert("INSERT", "cycles", CYCLE_COLUMNS),
                    (*_values(cycle, CYCLE_COLUMNS[:-2]), campaign.id, cycle.found_at),
                )
                new_cycles += 1
            for basin in basins:
                self.db.execute(
                    _insert("INSERT OR REPLACE", "basins", BASIN_COLUMNS), _values(basin, BASIN_COLUMNS)
                )
            self._save_cycle_deals(deals)
            for find in finds:
                new_finds += self._insert(find, campaign.id)
            for tally in moves:
                self.db.execute(
                    "INSERT INTO factory_moves VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (campaign, move) DO UPDATE SET tries = tries + excluded.tries, "
                    "kept = kept + excluded.kept, "
                    "added = added + excluded.added, seconds = seconds + excluded.seconds",
                    (campaign.id, tally.move, tally.tries, tally.kept, tally.added, tally.seconds),
                )
            self._advance(campaign, walker, unit, state, scored, seconds)
        return new_cycles, new_finds

    def cycles(
        self, *, rules: str | None = None, full: bool | None = None, limit: int = 1_000_000
    ) -> list[StoredCycle]:
        """Stored cycles, largest first (then the most often met)."""
        query = f"SELECT {', '.join(CYCLE_COLUMNS)} FROM cycles"
        conditions: list[str] = []
        values: list[str | int] = []
        if rules is not None:
            conditions.append("rules = ?")
            values.append(rules)
        if full is not None:
            conditions.append("full = ?")
            values.append(int(full))
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        query += " ORDER BY cards DESC, met DESC, id ASC LIMIT ?"
        values.append(limit)
        rows = self.db.execute(query, values).fetchall()
        return [_from_row(StoredCycle, CYCLE_COLUMNS, row) for row in rows]

    def basins(self, *, rules: str | None = None) -> dict[tuple[str, str], StoredBasin]:
        """Every stored basin, by ``(rules, cycle)``."""
        query = f"SELECT {', '.join(BASIN_COLUMNS)} FROM basins"
        rows = self.db.execute(query + (" WHERE rules = ?" if rules else ""), (rules,) if rules else ())
        basins = [_from_row(StoredBasin, BASIN_COLUMNS, row) for row in rows]
        return {(basin.rules, basin.cycle): basin for basin in basins}

    def cycle_deals(self, *, rules: str | None = None) -> list[CycleDeal]:
        """Every stored starting deal that runs into a stored cycle."""
        query = f"SELECT {', '.join(DEAL_COLUMNS)} FROM cycle_deals"
        rows = self.db.execute(
            query + (" WHERE rules = ?" if rules else "") + " ORDER BY rules, deal", (rules,) if rules else ()
        )
        return [_from_row(CycleDeal, DEAL_COLUMNS, row) for row in rows]

    def cycle_deal_rows(self, after: int = 0, limit: int = 1000) -> list[tuple[int, object, object]]:
        """Stored starting deals as ``(rowid, rules, deal)``, in the order they were stored, after
        row ``after``, at most ``limit``: a reader that keeps up with a growing store reads only
        what is new. The values are as stored (a damaged row may hold anything)."""
        rows = self.db.execute(
            "SELECT rowid, rules, deal FROM cycle_deals WHERE rowid > ? ORDER BY rowid LIMIT ?",
            (after, limit),
        )
        return [(int(rowid), rules, deal) for rowid, rules, deal in rows]

    def last_cycle_deal_row(self) -> int:
        """The largest rowid of the stored starting deals (0: none)."""
        return int(self.db.execute("SELECT coalesce(max(rowid), 0) FROM cycle_deals").fetchone()[0])

    def move_tallies(self, campaign: str | None = None) -> list[MoveTally]:
        """Work done by each kind of factory move, summed over one campaign or all."""
        query = "SELECT move, SUM(tries), SUM(kept), SUM(added), SUM(seconds) FROM factory_moves"
        rows = self.db.execute(
            query + (" WHERE campaign = ?" if campaign else "") + " GROUP BY move ORDER BY move",
            (campaign,) if campaign else (),
        )
        return [MoveTally(str(m), int(t), int(k), int(a), float(s)) for m, t, k, a, s in rows]

    def scored(self, campaign: Campaign) -> int:
        row = self.db.execute("SELECT scored FROM campaigns WHERE id = ?", (campaign.id,)).fetchone()
        return int(row[0]) if row else 0

    # -- finds ----------------------------------------------------------------------------------

    def add(self, finds: Iterable[Find]) -> int:
        """Store finds outside any campaign; returns how many were new."""
        with self.transaction():
            return sum(self._insert(find, find.campaign) for find in finds)

    def _insert(self, find: Find, campaign: str | None) -> int:
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO finds (deal, rules, cards, tricks, status, winner, strategy, seed, "
            "campaign, found_at, lead) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                find.deal,
                find.rules,
                find.cards,
                find.tricks,
                find.status,
                find.winner,
                find.strategy,
                find.seed,
                campaign,
                find.found_at,
                find.lead,
            ),
        )
        return cursor.rowcount

    def top(
        self,
        *,
        rules: str | None = None,
        by: str = FIND_ORDERS[0],
        limit: int = 20,
        status: str | None = None,
    ) -> list[Find]:
        """The best finds, longest first (``by`` cards or tricks), of one rules spec or all."""
        if by not in FIND_ORDERS:
            raise StoreError(f"rank finds by {' or by '.join(FIND_ORDERS)}, not {by!r}")
        query = f"SELECT {', '.join(FIND_COLUMNS)} FROM finds"
        conditions: list[str] = []
        values: list[str | int] = []
        if rules is not None:
            conditions.append("rules = ?")
            values.append(rules)
        if status is not None:
            conditions.append("status = ?")
            values.append(status)
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        query += f" ORDER BY {by} DESC, found_at ASC LIMIT ?"
        values.append(limit)
        return [Find(*row) for row in self.db.execute(query, values)]

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM finds").fetchone()[0])

    # -- the cycle census --------------------------------------------------------------------------

    def save_census_row(
        self,
        instances: Sequence[CensusInstance],
        cycles: Sequence[CensusCycle],
        shown: Sequence[StoredCycle] = (),
    ) -> int:
        """Record census answers and cycles in one transaction; ``shown`` also go to the cycle table.

        Returns how many cycles were new to the census.
        """
        with self.transaction():
            return self._write_census(instances, cycles, shown)

    def save_census_play(
        self,
        play: CensusPlay,
        instances: Sequence[CensusInstance],
        cycles: Sequence[CensusCycle],
        shown: Sequence[StoredCycle] = (),
    ) -> int:
        """Record a census decided by playing every position, with its answers and cycles, in one
        transaction; returns how many cycles were new to the census."""
        with self.transaction():
            self.db.execute(
                _insert("INSERT OR REPLACE", "census_plays", CENSUS_PLAY_COLUMNS),
                _values(play, CENSUS_PLAY_COLUMNS),
            )
            return self._write_census(instances, cycles, shown)

    def census_play(self, deck: str) -> CensusPlay | None:
        """How the census of a deck was decided by playing every position, if it was."""
        row = self.db.execute(
            f"SELECT {', '.join(CENSUS_PLAY_COLUMNS)} FROM census_plays WHERE deck = ?", (deck,)
        ).fetchone()
        return None if row is None else _from_row(CensusPlay, CENSUS_PLAY_COLUMNS, row)

    def _write_census(
        self, instances: Sequence[CensusInstance], cycles: Sequence[CensusCycle], shown: Sequence[StoredCycle]
    ) -> int:
        """Census answers and cycles, inside the caller's transaction; returns the new cycles."""
        new = 0
        for instance in instances:
            self.db.execute(
                _insert("INSERT OR REPLACE", "census_instances", CENSUS_INSTANCE_COLUMNS),
                _values(instance, CENSUS_INSTANCE_COLUMNS),
            )
        for cycle in cycles:
            cursor = self.db.execute(
                _insert("INSERT OR IGNORE", "census_cycles", CENSUS_CYCLE_COLUMNS),
                _values(cycle, CENSUS_CYCLE_COLUMNS),
            )
            new += cursor.rowcount
        for row in shown:
            self.db.execute(_insert("INSERT OR IGNORE", "cycles", CYCLE_COLUMNS), _values(row, CYCLE_COLUMNS))
        return new

    def census_done(self, deck: str, time_limit: float | None) -> set[tuple[int, int, int]]:
        """The instances ``(period, k1, n1)`` of a census already decided, or already left unknown
        under a time limit at least as long as ``time_limit``."""
        rows = self.db.execute(
            "SELECT period, k1, n1, status, time_limit FROM census_instances WHERE deck = ?", (deck,)
        ).fetchall()
        done: set[tuple[int, int, int]] = set()
        for period, k1, n1, status, limit in rows:
            if status != "unknown" or (time_limit is not None and limit is not None and limit >= time_limit):
                done.add((int(period), int(k1), int(n1)))
        return done

    def census_instances(self, deck: str) -> list[CensusInstance]:
        """Every stored census answer for a deck, by period, k1 and n1."""
        rows = self.db.execute(
            f"SELECT {', '.join(CENSUS_INSTANCE_COLUMNS)} FROM census_instances WHERE deck = ? "
            "ORDER BY period, k1, n1",
            (deck,),
        ).fetchall()
        return [_from_row(CensusInstance, CENSUS_INSTANCE_COLUMNS, row) for row in rows]

    def census_decks(self) -> list[str]:
        """The decks the census store holds answers for."""
        rows = self.db.execute("SELECT DISTINCT deck FROM census_instances ORDER BY deck").fetchall()
        return [str(row[0]) for row in rows]

    def census_cycles(self, deck: str) -> list[CensusCycle]:
        """Every cycle the census stored for a deck, shortest period first."""
        rows = self.db.execute(
            f"SELECT {', '.join(CENSUS_CYCLE_COLUMNS)} FROM census_cycles WHERE deck = ? "
            "ORDER BY period_cards, deal",
            (deck,),
        ).fetchall()
        return [_from_row(CensusCycle, CENSUS_CYCLE_COLUMNS, row) for row in rows]

    def save_basin(self, basin: StoredBasin, deals: Sequence[CycleDeal]) -> None:
        """Record a backward walk from a cycle and the starting deals it found, in one transaction."""
        with self.transaction():
            self.db.execute(
                _insert("INSERT OR REPLACE", "basins", BASIN_COLUMNS), _values(basin, BASIN_COLUMNS)
            )
            self._save_cycle_deals(deals)

    def _save_cycle_deals(self, deals: Iterable[CycleDeal]) -> None:
        for deal in deals:
            self.db.execute(
                _insert("INSERT OR IGNORE", "cycle_deals", DEAL_COLUMNS), _values(deal, DEAL_COLUMNS)
            )

    def transaction(self) -> _Transaction:
        """One write, as a ``with`` block: all of it is kept, or none of it; a write the file or the
        disk refused (a full disk) is raised as :class:`StoreWriteError`, the one message that says
        everything saved before is kept. For the store's own methods and for a module that keeps
        its own tables in this file (:class:`beggar.research.exhaust.ExhaustStore`).

        >>> store = Store(":memory:")
        >>> with store.transaction():
        ...     _ = store.db.execute("INSERT INTO exhaust_wins VALUES ('half-deck', 0, 3)")
        >>> store.db.execute("SELECT games FROM exhaust_wins").fetchone()
        (3,)
        """
        return _Transaction(self.db, self.path)


class StoreError(BeggarError):
    """A database that cannot be used, or a bad query."""


class StoreWriteError(StoreError):
    """A write the database refused (a full disk, a read-only file): nothing of it was kept, and
    everything written before it is."""


_CANNOT_WRITE = ("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_BUSY")


def _cannot_write(exc: sqlite3.Error) -> bool:
    """Is this SQLite error a write the file or the disk refused (not a bug in a query)?"""
    return str(getattr(exc, "sqlite_errorname", "")).startswith(_CANNOT_WRITE)


def _write_failure(path: str, exc: sqlite3.Error) -> StoreWriteError:
    """The one message for a write the database refused: what happened, and that nothing is lost."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    why = "the disk is full (or the database reached its size limit)" if name == "SQLITE_FULL" else str(exc)
    return StoreWriteError(
        f"cannot write to the database {path}: {why}; everything saved before is kept, "
        "and the same command resumes once it can write again"
    )


class _Transaction:
    """One write: all of it is kept, or (the error raised as :class:`StoreWriteError` when the
    file or the disk refused it) none of it."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _write_failure(self.path, exc) from None

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as exc:
                value = exc
        # SQLite may have rolled back already (a full disk can end the transaction by itself).
        with suppress(sqlite3.Error):
            self.db.execute("ROLLBACK")
        if isinstance(value, sqlite3.Error) and _cannot_write(value):
            raise _write_failure(self.path, value) from None
        if isinstance(value, sqlite3.Error) and kind is None:
            raise value


def export(finds: Sequence[Find], form: str) -> str:
    """Finds as ``csv`` or ``json`` text."""
    if form == "json":
        return json.dumps([find.to_dict() for find in finds], indent=2)
    if form == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=FIND_COLUMNS)
        writer.writeheader()
        for find in finds:
            writer.writerow(find.to_dict())
        return out.getvalue()
    raise StoreError(f"unknown export format {form!r}: choose {' or '.join(EXPORT_FORMS)}")


def never_ending_deals(store: Store, rules: str | None = None) -> list[NeverEnding]:
    """Every stored never-ending starting deal with where its cycle starts and its period.

    The cycle starts after ``pre_period_tricks`` tricks (``pre_period_cards`` cards) and then
    repeats every ``period_tricks`` tricks (``period_cards`` cards), as :func:`beggar.cycle.find_cycle`
    reports it.
    """
    cycles = {(c.rules, c.deal): c for c in store.cycles(rules=rules, full=True)}
    found = []
    for deal in store.cycle_deals(rules=rules):
        cycle = cycles.get((deal.rules, deal.cycle))
        if cycle is None:
            continue
        found.append(
            NeverEnding(
                deal=deal.deal,
                rules=deal.rules,
                cycle=deal.cycle,
                pre_period_tricks=deal.pre_period_tricks,
                pre_period_cards=deal.pre_period_cards,
                period_tricks=cycle.period_tricks,
                period_cards=cycle.period_cards,
            )
        )
    return found
