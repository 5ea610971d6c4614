"""Finished games, kept on the server so that a short link replays them exactly.

A game is stored as the reference engine saves it (:meth:`beggar.engine.Game.to_dict`: the deal,
the rules, who led, how many cards were turned and why it stopped) with the seats' names. That is
enough to replay it card for card; the link itself carries only a short random id, so it reveals
nothing the players could not see.

The database is one SQLite file. Its schema is versioned (``PRAGMA user_version``) so that later
tables (live tables, for a server that restarts) can be added beside ``games``.

>>> archive = Archive(":memory:")
>>> from beggar.engine import Game
>>> game = Game("QJ/-A", complete=False); _ = game.run()
>>> saved = archive.save(game, ["Ann", "Robin"], mode="computer")
>>> archive.load(saved).names
['Ann', 'Robin']
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from beggar.engine import Game

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,          -- the short id in /r/<id>
    finished REAL NOT NULL,       -- Unix time the game ended
    mode TEXT NOT NULL,           -- computer, friends, watch, ...
    table_id TEXT,                -- the live table it was played at
    names TEXT NOT NULL,          -- JSON list of seat names
    game TEXT NOT NULL            -- JSON of Game.to_dict(): deal, rules, first, turned, stopped
);
"""
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


class ArchiveError(LookupError):
    """A replay that is not in the archive."""


@dataclass(frozen=True)
class SavedGame:
    """One finished game as stored."""

    id: str
    finished: float
    mode: str
    names: list[str]
    game: dict[str, Any]
    """:meth:`Game.to_dict` of the game; :meth:`Game.from_dict` restores it."""


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
            db = sqlite3.connect(self.path, check_same_thread=False)
            # Write-ahead logging without a sync per commit: saving a game costs the event loop
            # microseconds, and a crash loses at most the last few replays, never the file.
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.commit()
            self._db = db
        return self._db

    def save(self, game: Game, names: list[str], *, mode: str, table_id: str | None = None) -> str:
        """Store a finished game; return its short id."""
        data = json.dumps(game.to_dict(), separators=(",", ":"))
        with self._lock:
            db = self._connect()
            while True:
                game_id = "".join(secrets.choice(_ALPHABET) for _ in range(8))
                try:
                    db.execute(
                        "INSERT INTO games (id, finished, mode, table_id, names, game) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, time.time(), mode, table_id, json.dumps(names), data),
                    )
                except sqlite3.IntegrityError:
                    continue  # the id was taken: draw another
                db.commit()
                return game_id

    def load(self, game_id: str) -> SavedGame:
        """The stored game with this id; :class:`ArchiveError` if there is none."""
        with self._lock:
            row = (
                self._connect()
                .execute("SELECT id, finished, mode, names, game FROM games WHERE id = ?", (game_id,))
                .fetchone()
            )
        if row is None:
            raise ArchiveError("this replay does not exist")
        return SavedGame(row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]))

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def default_path() -> Path:
    """Where ``beggar serve`` keeps finished games unless told otherwise."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "beggar" / "games.sqlite3"
