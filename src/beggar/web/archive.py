"""The server's database: finished games for their replay links, and the live tables of a restart.

A game is stored as the reference engine saves it (:meth:`beggar.engine.Game.to_dict`: the deal,
the rules, who led, how many cards were turned and why it stopped) with the seats' names. That is
enough to replay it card for card; the link itself carries only a short random id, so it reveals
nothing the players could not see.

The database is one SQLite file. Its schema is versioned (``PRAGMA user_version``): version 1 held
``games`` only; version 2 adds ``live_tables``, one row per open table, which
:mod:`beggar.web.durable` writes and reads (this module stores the rows; that one knows what they
mean); version 3 notes with a game the deals of its sitting that were dealt again before it (a
loop under the family table), so that its replay links to theirs. Opening an older file migrates
it in place.

>>> archive = Archive(":memory:")
>>> from beggar.engine import Game
>>> game = Game("QJ/-A", complete=False); _ = game.run()
>>> saved = archive.save(game, ["Ann", "Robin"], mode="computer")
>>> archive.load(saved).names
['Ann', 'Robin']
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from beggar.engine import Game
from beggar.errors import BeggarError
from beggar.schema import NewerSchema, migrate
from beggar.web.ids import REPLAY_ID_LENGTH, new_id

log = logging.getLogger(__name__)
SCHEMA_VERSION = 3
_MIGRATIONS = {
    # to version 1 (from an empty file)
    1: """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,          -- the short id in /r/<id>
    finished REAL NOT NULL,       -- Unix time the game ended
    mode TEXT NOT NULL,           -- computer, friends, watch, ...
    table_id TEXT,                -- the live table it was played at
    names TEXT NOT NULL,          -- JSON list of seat names
    game TEXT NOT NULL            -- JSON of Game.to_dict(): deal, rules, first, turned, stopped
);
""",
    # to version 2: live tables survive a restart; old games are pruned by age
    2: """
CREATE TABLE IF NOT EXISTS live_tables (
    id TEXT PRIMARY KEY,          -- the table id in /t/<id>
    instance TEXT NOT NULL,       -- the server process that owns the table (ServerSettings.instance)
    saved REAL NOT NULL,          -- Unix time of the last write
    state TEXT NOT NULL           -- JSON of the table's state (beggar.web.durable)
);
CREATE INDEX IF NOT EXISTS live_tables_instance ON live_tables (instance);
CREATE INDEX IF NOT EXISTS games_finished ON games (finished);
""",
    # to version 3: the deals of the game's sitting dealt again before it
    3: """
ALTER TABLE games ADD COLUMN dealt_again TEXT NOT NULL DEFAULT '[]';  -- JSON: DealtAgain.to_json()s
""",
}


class ArchiveError(BeggarError, LookupError):
    """A replay that is not in the archive."""


class DamagedGame(ArchiveError):
    """A stored game that cannot be read: its row, or the file around it, is damaged."""


class DatabaseError(BeggarError, RuntimeError):
    """A database file this server cannot use (written by a newer version, or not SQLite)."""


@dataclass(frozen=True)
class LiveRow:
    """One open table as stored: its id, the process that owns it, when it was saved, its state."""

    id: str
    instance: str
    saved: float
    state: str
    """JSON text; :mod:`beggar.web.durable` reads and writes it."""


@dataclass(frozen=True)
class SavedGame:
    """One finished game as stored."""

    id: str
    finished: float
    mode: str
    names: list[str]
    game: dict[str, Any]
    """:meth:`Game.to_dict` of the game; :meth:`Game.from_dict` restores it."""
    dealt_again: list[dict[str, Any]] = field(default_factory=list)
    """The deals of its sitting dealt again before it, oldest first, as
    :meth:`beggar.web.table.DealtAgain.to_json` wrote them (read them with ``from_json``)."""


class Archive:
    """The finished games of one server, in one SQLite file (opened on first use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(OSError):
                    if Path(self.path).stat().st_size == 0:
                        # SQLite takes an empty file for a new database: whatever it held is gone.
                        log.warning(
                            "beggar: the database %s is an empty file (0 bytes): starting a new, empty "
                            "database in it; if it held games or tables, restore it from a backup",
                            self.path,
                        )
            db = sqlite3.connect(self.path, check_same_thread=False)
            try:
                # Write-ahead logging without a sync per commit: saving a game costs the event loop
                # microseconds, and a crash loses at most the last few writes, never the file.
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
                _migrate(db, self.path)
            except sqlite3.DatabaseError as exc:
                db.close()
                raise DatabaseError(f"{self.path} cannot be used as the server's database: {exc}") from None
            except DatabaseError:
                db.close()
                raise
            self._db = db
        return self._db

    def open(self) -> None:
        """Open (and if needed create or migrate) the file now, so that a bad one is reported at start."""
        with self._lock:
            self._connect()

    def save(
        self,
        game: Game,
        names: list[str],
        *,
        mode: str,
        table_id: str | None = None,
        dealt_again: Sequence[dict[str, Any]] = (),
    ) -> str:
        """Store a finished game (``dealt_again``: the deals of its sitting dealt again before it);
        return its short id."""
        data = json.dumps(game.to_dict(), separators=(",", ":"))
        before = json.dumps(list(dealt_again), separators=(",", ":"))
        with self._lock:
            db = self._connect()
            while True:
                game_id = new_id(REPLAY_ID_LENGTH)
                try:
                    db.execute(
                        "INSERT INTO games (id, finished, mode, table_id, names, game, dealt_again) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (game_id, time.time(), mode, table_id, json.dumps(names), data, before),
                    )
                except sqlite3.IntegrityError:
                    continue  # the id was taken: draw another
                db.commit()
                return game_id

    def load(self, game_id: str) -> SavedGame:
        """The stored game with this id; :class:`ArchiveError` if there is none, and
        :class:`DamagedGame` if its row cannot be read."""
        try:
            with self._lock:
                row = (
                    self._connect()
                    .execute(
                        "SELECT id, finished, mode, CAST(names AS BLOB), CAST(game AS BLOB), "
                        "CAST(dealt_again AS BLOB) FROM games WHERE id = ?",
                        (game_id,),
                    )
                    .fetchone()
                )
        except sqlite3.Error as exc:
            raise DamagedGame(f"the database could not read it: {exc}") from None
        if row is None:
            raise ArchiveError("this replay does not exist")
        try:
            names, game = json.loads(bytes(row[3]).decode()), json.loads(bytes(row[4]).decode())
            before = json.loads(bytes(row[5]).decode())
        except (ValueError, RecursionError, TypeError) as exc:
            raise DamagedGame(f"its row is not the JSON this server writes: {type(exc).__name__}") from None
        if (
            not isinstance(names, list)
            or not all(isinstance(n, str) for n in names)
            or not isinstance(game, dict)
            or not isinstance(before, list)
            or not all(isinstance(deal, dict) for deal in before)
        ):
            raise DamagedGame("its row is not the JSON this server writes")
        return SavedGame(row[0], row[1], row[2], names, game, before)

    def dealt_after(self, game_id: str) -> str | None:
        """The id of the stored deal of the same sitting dealt right after game ``game_id`` (it
        looped and was dealt again), or None: the first game stored after it that lists it among
        the deals dealt again before it."""
        listed = f'%"replay":"{game_id}"%'  # as DealtAgain.to_json() is written by save()
        with self._lock:
            row = (
                self._connect()
                .execute(
                    "SELECT id FROM games WHERE finished >= (SELECT finished FROM games WHERE id = ?) "
                    "AND dealt_again LIKE ? AND id != ? ORDER BY finished LIMIT 1",
                    (game_id, listed, game_id),
                )
                .fetchone()
            )
        return None if row is None else str(row[0])

    # -- live tables ----------------------------------------------------------------------------

    def put_live(self, rows: Sequence[LiveRow], gone: Sequence[str] = ()) -> None:
        """Write ``rows`` (replacing earlier rows of the same tables) and delete the tables ``gone``,
        in one transaction."""
        with self._lock:
            db = self._connect()
            with db:
                db.executemany(
                    "INSERT OR REPLACE INTO live_tables (id, instance, saved, state) VALUES (?, ?, ?, ?)",
                    [(row.id, row.instance, row.saved, row.state) for row in rows],
                )
                db.executemany("DELETE FROM live_tables WHERE id = ?", [(table_id,) for table_id in gone])

    def live_rows(self, instance: str) -> list[LiveRow]:
        """The stored open tables owned by ``instance``.

        A row whose text is not UTF-8 comes back with an empty state (and its id as well as it can
        be read), so that it is skipped as a bad row rather than stopping the read of the others.
        """
        with self._lock:
            rows = (
                self._connect()
                .execute(
                    "SELECT CAST(id AS BLOB), instance, saved, CAST(state AS BLOB) FROM live_tables "
                    "WHERE instance = ?",
                    (instance,),
                )
                .fetchall()
            )
        return [LiveRow(_text(row[0], "replace"), row[1], row[2], _text(row[3], "")) for row in rows]

    def live_ids(self, instance: str) -> set[str]:
        with self._lock:
            rows = self._connect().execute(
                "SELECT CAST(id AS BLOB) FROM live_tables WHERE instance = ?", (instance,)
            )
            return {_text(row[0], "replace") for row in rows}

    def prune(
        self,
        *,
        games_before: float,
        games_max: int,
        live_before: float,
        keep_instance: str,
        gone: Sequence[str] = (),
    ) -> tuple[int, int]:
        """Delete games finished before ``games_before`` or beyond the newest ``games_max``; live
        rows of processes other than ``keep_instance`` not saved since ``live_before``; and the
        live rows ``gone``. Return how many games and how many rows of other processes went."""
        with self._lock:
            db = self._connect()
            with db:
                games = db.execute("DELETE FROM games WHERE finished < ?", (games_before,)).rowcount
                games += db.execute(
                    "DELETE FROM games WHERE id IN "
                    "(SELECT id FROM games ORDER BY finished DESC LIMIT -1 OFFSET ?)",
                    (games_max,),
                ).rowcount
                live = db.execute(
                    "DELETE FROM live_tables WHERE saved < ? AND instance != ?", (live_before, keep_instance)
                ).rowcount
                db.executemany(
                    "DELETE FROM live_tables WHERE id = ? AND instance = ?",
                    [(table_id, keep_instance) for table_id in gone],
                )
            # Give the write-ahead log's pages back, so that the files stay the size of their rows.
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return games, live

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def _text(value: object, bad: str) -> str:
    """A column read as bytes, as text; ``bad``: what to give for bytes that are not UTF-8
    (``"replace"``: decode with replacement characters)."""
    data = value if isinstance(value, bytes) else str(value).encode()
    try:
        return data.decode()
    except UnicodeDecodeError:
        return data.decode(errors="replace") if bad == "replace" else bad


def _migrate(db: sqlite3.Connection, path: str) -> None:
    """Bring the file's schema up to :data:`SCHEMA_VERSION`, one version at a time (:mod:`beggar.schema`)."""
    try:
        migrate(db, path, _MIGRATIONS, elsewhere="give serve another --db")
    except NewerSchema as exc:
        raise DatabaseError(str(exc)) from None


def default_path() -> Path:
    """Where ``beggar serve`` keeps finished games unless told otherwise."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "beggar" / "games.sqlite3"
