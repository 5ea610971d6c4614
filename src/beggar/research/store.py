"""Where search finds live: an embedded SQLite database that survives a killed process.

A *campaign* is one search, named by its arguments; it is split into small *units* of work, each
done by one *walker* (a random sampler, a hill climber, an annealer). A unit's finds and the
walker's new state are written in one transaction, so a search killed at any moment (even with
SIGKILL) and started again with the same arguments resumes from the last unit written and loses
no find: a unit that was cut off is simply done again, and gives the same finds.

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
import hashlib
import io
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

from beggar.errors import BeggarError
from beggar.notation import seat_name
from beggar.rules import RulesError, rules_named
from beggar.schema import NewerSchema, Step, migrate, refuse_newer, statements

SCHEMA_VERSION = 4
"""The store's schema version (``PRAGMA user_version``); a store of a later version is refused.

To change the schema, add a step to :data:`_MIGRATIONS` and raise this number; :data:`SCHEMA` stays
version 1 as it was written, since every new store goes through every step."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    id TEXT PRIMARY KEY,
    args TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    scored INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS walkers (
    campaign TEXT NOT NULL REFERENCES campaigns(id),
    walker INTEGER NOT NULL,
    unit INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (campaign, walker)
);
CREATE TABLE IF NOT EXISTS finds (
    id INTEGER PRIMARY KEY,
    deal TEXT NOT NULL,
    rules TEXT NOT NULL,
    cards INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    status TEXT NOT NULL,
    winner INTEGER,
    strategy TEXT NOT NULL,
    seed INTEGER NOT NULL,
    campaign TEXT,
    found_at REAL NOT NULL,
    lead INTEGER NOT NULL DEFAULT 0,
    UNIQUE (deal, rules)
);
CREATE INDEX IF NOT EXISTS finds_by_cards ON finds (rules, cards DESC);
CREATE INDEX IF NOT EXISTS finds_by_tricks ON finds (rules, tricks DESC);
CREATE TABLE IF NOT EXISTS cycles (
    id INTEGER PRIMARY KEY,
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    symmetric INTEGER NOT NULL,
    split_low INTEGER NOT NULL,
    split_high INTEGER NOT NULL,
    composition TEXT NOT NULL,
    full INTEGER NOT NULL,
    met INTEGER NOT NULL,
    move TEXT NOT NULL,
    campaign TEXT,
    found_at REAL NOT NULL,
    UNIQUE (rules, deal)
);
CREATE INDEX IF NOT EXISTS cycles_by_size ON cycles (rules, full, cards DESC);
CREATE TABLE IF NOT EXISTS basins (
    rules TEXT NOT NULL,
    cycle TEXT NOT NULL,
    budget INTEGER NOT NULL,
    explored INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    exhausted INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    closest_split TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (rules, cycle)
);
CREATE TABLE IF NOT EXISTS cycle_deals (
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    cycle TEXT NOT NULL,
    pre_period_tricks INTEGER NOT NULL,
    pre_period_cards INTEGER NOT NULL,
    PRIMARY KEY (rules, deal)
);
CREATE TABLE IF NOT EXISTS census_instances (
    deck TEXT NOT NULL,
    period INTEGER NOT NULL,
    k1 INTEGER NOT NULL,
    n1 INTEGER NOT NULL,
    status TEXT NOT NULL,
    seconds REAL NOT NULL,
    time_limit REAL,
    positions INTEGER NOT NULL,
    PRIMARY KEY (deck, period, k1, n1)
);
CREATE TABLE IF NOT EXISTS census_cycles (
    deck TEXT NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    symmetric INTEGER NOT NULL,
    split_low INTEGER NOT NULL,
    split_high INTEGER NOT NULL,
    k1 INTEGER NOT NULL,
    n1 INTEGER NOT NULL,
    PRIMARY KEY (deck, deal)
);
CREATE TABLE IF NOT EXISTS factory_moves (
    campaign TEXT NOT NULL,
    move TEXT NOT NULL,
    tries INTEGER NOT NULL,
    kept INTEGER NOT NULL,
    added INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (campaign, move)
);
"""


def _to_version_1(db: sqlite3.Connection) -> None:
    """Version 1: every table of :data:`SCHEMA`. A store written before versions were kept
    (version 0) holds some of them already, and perhaps ``finds`` without its ``lead`` column."""
    for statement in statements(SCHEMA):
        db.execute(statement)
    columns = {row[1] for row in db.execute("PRAGMA table_info(finds)")}
    if "lead" not in columns:
        db.execute("ALTER TABLE finds ADD COLUMN lead INTEGER NOT NULL DEFAULT 0")


def _to_version_2(db: sqlite3.Connection) -> None:
    """Version 2: every record keyed by the one spec of its rules (see :func:`respell_rules`)."""
    respell_rules(db)


_TO_VERSION_3 = """
CREATE TABLE IF NOT EXISTS census_plays (
    deck TEXT NOT NULL PRIMARY KEY,
    max_period INTEGER NOT NULL,
    positions INTEGER NOT NULL,
    played INTEGER NOT NULL,
    cycles INTEGER NOT NULL,
    seconds REAL NOT NULL
);
"""
"""Version 3: the census of a deck decided by playing every position (:class:`CensusPlay`)."""

_TO_VERSION_4 = """
CREATE TABLE IF NOT EXISTS exhaust_units (
    deck TEXT NOT NULL,
    start INTEGER NOT NULL,
    stop INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (deck, start)
);
CREATE TABLE IF NOT EXISTS exhaust_lengths (
    deck TEXT NOT NULL,
    measure TEXT NOT NULL,
    length INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (deck, measure, length)
);
CREATE TABLE IF NOT EXISTS exhaust_wins (
    deck TEXT NOT NULL,
    seat INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (deck, seat)
);
CREATE TABLE IF NOT EXISTS exhaust_cycles (
    deck TEXT NOT NULL,
    cycle TEXT NOT NULL,
    period_cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    PRIMARY KEY (deck, cycle)
);
CREATE TABLE IF NOT EXISTS exhaust_never_ending (
    deck TEXT NOT NULL,
    idx INTEGER NOT NULL,
    deal TEXT NOT NULL,
    cycle TEXT NOT NULL,
    period_cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    lead_in_cards INTEGER NOT NULL,
    lead_in_tricks INTEGER NOT NULL,
    PRIMARY KEY (deck, idx)
);
CREATE TABLE IF NOT EXISTS exhaust_longest (
    deck TEXT NOT NULL,
    measure TEXT NOT NULL,
    idx INTEGER NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (deck, measure, idx)
);
DROP TABLE IF EXISTS exhaust_schema;
"""
"""Version 4: every balanced deal of a deck played (:mod:`beggar.research.exhaust`): the units of
indices done, the exact counts of game lengths and wins, the cycles and never-ending deals, and the
longest games. A store of version 3 may hold these tables already, as the exhaust created them
then, beside a version table of their own (``exhaust_schema``, only ever at 1): they are kept with
every row, and that table goes, the store's one version saying it all."""

_MIGRATIONS: dict[int, Step] = {1: _to_version_1, 2: _to_version_2, 3: _TO_VERSION_3, 4: _TO_VERSION_4}
"""Step ``n`` brings a store of version ``n - 1`` to version ``n`` (see :mod:`beggar.schema`)."""

_ELSEWHERE = "give another --db"


@dataclass(frozen=True)
class Find:
    """A deal worth keeping: a long game or one that never ends."""

    deal: str
    rules: str
    """The rules spec the deal was found under (see :func:`beggar.rules.rules_named`)."""
    cards: int
    tricks: int
    status: str
    winner: int | None
    strategy: str
    seed: int
    campaign: str | None = None
    found_at: float = field(default_factory=time.time)
    lead: int = 0
    """The seat that led the game scored (drawn per game under a random lead)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def lead_name(self) -> str:
        return seat_name(self.lead)


@dataclass(frozen=True)
class Campaign:
    id: str
    args: dict[str, Any]
    scored: int
    seconds: float


_Cycle = TypeVar("_Cycle", bound="CycleFigures")


@dataclass(frozen=True)
class CycleFigures:
    """One cycle, named by its canonical position, and its figures.

    The one description of a cycle: every kind of cycle extends it (:class:`CycleOfDeck`, with the
    cards it holds; :class:`CensusCycle`, with the census instance it was met in), and every
    command prints a cycle through its :meth:`to_dict`.
    """

    deal: str
    """The canonical position in compact notation, the leader's stack first (hand 1 leads)."""
    cards: int
    period_tricks: int
    period_cards: int
    symmetric: bool
    """The cycle holds a position and its mirror image (seats swapped)."""
    split_low: int
    """The smallest lesser stack on the cycle (how unbalanced it gets)."""
    split_high: int
    """The largest lesser stack on the cycle (how close to an even split it comes)."""

    def to_dict(self) -> dict[str, Any]:
        """The cycle as the commands' ``--json`` gives it; ``lead`` is 0, since the canonical
        position is written with the leader's stack first."""
        figures = {f.name: getattr(self, f.name) for f in fields(CycleFigures)}
        return {"deal": self.deal, "lead": 0, **figures}

    def into(self, kind: type[_Cycle], **more: Any) -> _Cycle:
        """This cycle as another kind of cycle: the fields they share, and ``more``.

        >>> figures = CycleFigures("--J-/Q-J-", 8, 4, 16, True, 2, 4)
        >>> figures.into(CensusCycle, deck="standard[5,2,1]", k1=8, n1=4).deck
        'standard[5,2,1]'
        """
        names = [f.name for f in fields(kind) if f.name not in more and hasattr(self, f.name)]
        return kind(**{name: getattr(self, name) for name in names}, **more)


@dataclass(frozen=True)
class CycleOfDeck(CycleFigures):
    """A cycle and the cards of the deck it holds."""

    composition: str
    """Cards of each kind, as :meth:`~beggar.research.cycles.canon.Alphabet.describe` writes them."""
    full: bool
    """The cycle holds the whole deck."""

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "composition": self.composition, "full": self.full}


@dataclass(frozen=True)
class StoredCycle(CycleOfDeck):
    """A cycle as the factory stores it: its figures, rules, and how it was met."""

    rules: str
    met: int
    """How many times it was met (summed over every unit that met it)."""
    move: str
    """The move that first produced it (``harvest`` for a sampled small position)."""
    campaign: str | None = None
    found_at: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "rules": self.rules, "met": self.met, "move": self.move}


@dataclass(frozen=True)
class StoredBasin:
    """What a backward walk from a cycle found (see :func:`beggar.backward.deals_reaching`)."""

    rules: str
    cycle: str
    budget: int
    explored: int
    depth: int
    exhausted: bool
    deals: int
    closest_split: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CycleDeal:
    """A starting deal that runs into a stored cycle, with its lead-in."""

    rules: str
    deal: str
    cycle: str
    pre_period_tricks: int
    pre_period_cards: int


@dataclass(frozen=True)
class MoveTally:
    """Work done by one kind of factory move: tries, children that still loop, cards they added, CPU time."""

    move: str
    tries: int
    kept: int
    added: int
    seconds: float


@dataclass(frozen=True)
class CensusInstance:
    """One instance of the cycle census (see :mod:`beggar.research.cycles.census`) and the solver's answer."""

    deck: str
    period: int
    k1: int
    n1: int
    status: str
    """``sat``, ``unsat``, or ``unknown`` when ``time_limit`` ran out."""
    seconds: float
    time_limit: float | None
    positions: int
    """Positions found (each a trick end of a cycle, or of a shorter cycle played several times)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "period": self.period,
            "k1": self.k1,
            "n1": self.n1,
            "status": self.status,
            "seconds": round(self.seconds, 4),
            "time_limit": self.time_limit,
        }


@dataclass(frozen=True)
class CensusCycle(CycleFigures):
    """A cycle the census found, named by its canonical position (the leader's stack first)."""

    deck: str
    k1: int
    n1: int
    """The instance it was first met in."""


@dataclass(frozen=True)
class CensusPlay:
    """A census decided by playing every position of its deck
    (see :mod:`beggar.research.cycles.complete`): every stored instance of the deck up to
    ``max_period`` was decided by it."""

    deck: str
    max_period: int
    positions: int
    """Trick-end positions of the deck, each with an index and a visited bit."""
    played: int
    """Positions walked (the others no trick can end in)."""
    cycles: int
    """Cycles of the deck, of every period."""
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


FIND_COLUMNS = [f.name for f in fields(Find)]
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


def campaign_id(args: dict[str, Any]) -> str:
    """A short stable name for a search's arguments."""
    text = json.dumps(args, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


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
            migrate(self.db, self.path, _MIGRATIONS, elsewhere=_ELSEWHERE)
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
            self.db.execute(
                "INSERT INTO walkers (campaign, walker, unit, state) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (campaign, walker) DO UPDATE SET unit = excluded.unit, state = excluded.state",
                (campaign.id, walker, unit + 1, json.dumps(state)),
            )
            self.db.execute(
                "UPDATE campaigns SET scored = scored + ?, seconds = seconds + ?, updated = ? WHERE id = ?",
                (scored, seconds, time.time(), campaign.id),
            )
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
            self.db.execute(
                "INSERT INTO walkers (campaign, walker, unit, state) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (campaign, walker) DO UPDATE SET unit = excluded.unit, state = excluded.state",
                (campaign.id, walker, unit + 1, json.dumps(state)),
            )
            self.db.execute(
                "UPDATE campaigns SET scored = scored + ?, seconds = seconds + ?, updated = ? WHERE id = ?",
                (scored, seconds, time.time(), campaign.id),
            )
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
        by: str = "cards",
        limit: int = 20,
        status: str | None = None,
    ) -> list[Find]:
        """The best finds, longest first (``by`` cards or tricks), of one rules spec or all."""
        if by not in ("cards", "tricks"):
            raise StoreError("rank finds by cards or by tricks")
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
    raise StoreError(f"unknown export format {form!r}: choose csv or json")


@dataclass(frozen=True)
class NeverEnding:
    """A stored starting deal that never ends: where its cycle starts and how long it is."""

    deal: str
    rules: str
    cycle: str
    """The cycle's canonical position."""
    pre_period_tricks: int
    pre_period_cards: int
    period_tricks: int
    period_cards: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "rules": self.rules,
            "cycle": self.cycle,
            "pre_period_tricks": self.pre_period_tricks,
            "pre_period_cards": self.pre_period_cards,
            "period_tricks": self.period_tricks,
            "period_cards": self.period_cards,
        }


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


# -- rules specs written as people typed them -------------------------------------------------------

_KEYED_BY_RULES = ("finds", "cycles", "basins", "cycle_deals")
_KEYED_BY_DECK = ("census_instances", "census_cycles")
_NAMING_CAMPAIGNS = ("walkers", "finds", "cycles", "factory_moves")


def _one_spec(text: str) -> str:
    """The one spec of the rules ``text`` names (:meth:`beggar.rules.Rules.spec`); ``text`` itself
    if it names no rules (left as it was rather than lost)."""
    try:
        return rules_named(text).spec()
    except RulesError:
        return text


def _one_deck(text: str) -> str:
    """A census deck's name (``spec`` or ``spec[counts]``) with its rules written as their spec."""
    spec, bracket, counts = text.partition("[")
    return _one_spec(spec) + bracket + counts


def respell_rules(db: sqlite3.Connection) -> None:
    """Key every record by the one spec of its rules.

    Stores written before rules had one spec (:meth:`beggar.rules.Rules.spec`) keyed records by the
    spec as it was typed (``Half-Deck:pay=J1``, ``stripped-40:players=3``): this rewrites each such
    key, and each campaign named by one, so that the same rules find the same records and resume
    the same campaigns. Where a record already exists under the one spec (the same rules typed two
    ways), the one already there is kept; a campaign's walkers likewise. A store whose keys are all
    specs already is read and left untouched. It runs as the step to version 2, inside the
    migration's one transaction.
    """
    renamed: dict[str, dict[str, str]] = {}
    for table in _KEYED_BY_RULES:
        texts = [row[0] for row in db.execute(f"SELECT DISTINCT rules FROM {table}")]
        renamed[table] = {text: _one_spec(text) for text in texts if _one_spec(text) != text}
    for table in _KEYED_BY_DECK:
        texts = [row[0] for row in db.execute(f"SELECT DISTINCT deck FROM {table}")]
        renamed[table] = {text: _one_deck(text) for text in texts if _one_deck(text) != text}
    campaigns: dict[str, dict[str, Any]] = {}
    for key, text in db.execute("SELECT id, args FROM campaigns").fetchall():
        args = json.loads(text)
        if isinstance(args.get("rules"), str) and _one_spec(args["rules"]) != args["rules"]:
            campaigns[key] = {**args, "rules": _one_spec(args["rules"])}
    if not campaigns and not any(renamed.values()):
        return
    for table, column in [(t, "rules") for t in _KEYED_BY_RULES] + [(t, "deck") for t in _KEYED_BY_DECK]:
        for old, new in renamed[table].items():
            db.execute(f"UPDATE OR IGNORE {table} SET {column} = ? WHERE {column} = ?", (new, old))
            db.execute(f"DELETE FROM {table} WHERE {column} = ?", (old,))
    for old, args in campaigns.items():
        new = campaign_id(args)
        if db.execute("SELECT 1 FROM campaigns WHERE id = ?", (new,)).fetchone() is None:
            db.execute(
                "UPDATE campaigns SET id = ?, args = ? WHERE id = ?",
                (new, json.dumps(args, sort_keys=True), old),
            )
        else:  # the same campaign run under two spellings: the one already under the spec goes on
            db.execute("DELETE FROM campaigns WHERE id = ?", (old,))
        for table in _NAMING_CAMPAIGNS:
            db.execute(f"UPDATE OR IGNORE {table} SET campaign = ? WHERE campaign = ?", (new, old))
            db.execute(f"DELETE FROM {table} WHERE campaign = ?", (old,))
