"""The schema version of every SQLite file beggar writes: refuse a newer one, migrate an older one.

Each kind of file (the server's database of games, a research store of finds) numbers its schema in
``PRAGMA user_version`` and lists the steps that bring a file from one version to the next: step
``n`` takes a file of version ``n - 1`` to version ``n``, and a new file (version 0) goes through
every step. A file written by a newer beggar is refused before anything in it changes, since this
version cannot know what the newer one keeps there.

The steps run in one transaction that holds the file's write lock, so two processes opening the same
old file at once migrate it once, and a migration cut off half-way leaves the file as it was.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> steps = {1: "CREATE TABLE notes (text TEXT);", 2: "ALTER TABLE notes ADD COLUMN kept REAL;"}
>>> migrate(db, ":memory:", steps, elsewhere="give another file")  # the version it had
0
>>> version_of(db)
2
>>> db.execute("PRAGMA user_version = 3") and None
>>> migrate(db, "notes.db", steps, elsewhere="give another file")
Traceback (most recent call last):
...
beggar.schema.NewerSchema: notes.db was written by a newer beggar (database version 3; ...): ...
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import suppress

from beggar.errors import BeggarError

Step = str | Callable[[sqlite3.Connection], None]
"""One migration step: SQL statements, or a function given the connection (inside the transaction)."""


class NewerSchema(BeggarError):
    """A file written by a newer beggar than this one (its schema version is beyond the last step)."""

    def __init__(self, path: str, version: int, latest: int, elsewhere: str) -> None:
        super().__init__(
            f"{path} was written by a newer beggar (database version {version}; this one reads up to "
            f"{latest}): upgrade beggar, or {elsewhere}"
        )
        self.version = version
        self.latest = latest


def version_of(db: sqlite3.Connection) -> int:
    """The file's schema version (0 for a new file, or one written before versions were kept)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def refuse_newer(db: sqlite3.Connection, path: str, latest: int, *, elsewhere: str) -> int:
    """The file's schema version; :class:`NewerSchema` if it is beyond ``latest``.

    ``elsewhere`` ends the message with what the person can do instead ("give another --db").
    """
    version = version_of(db)
    if version > latest:
        raise NewerSchema(path, version, latest, elsewhere)
    return version


def migrate(db: sqlite3.Connection, path: str, steps: Mapping[int, Step], *, elsewhere: str) -> int:
    """Bring the file to the last of ``steps``, one version at a time, in one transaction; return
    the version it had. A newer file is refused (:class:`NewerSchema`) and left as it was.

    ``db`` must not be in a transaction. Steps are numbered 1, 2, ... without gaps.
    """
    latest = max(steps)
    if refuse_newer(db, path, latest, elsewhere=elsewhere) == latest:
        return latest  # the common case: no write lock taken
    db.execute("BEGIN IMMEDIATE")
    try:
        # Read again under the lock: another process may have migrated the file meanwhile.
        version = refuse_newer(db, path, latest, elsewhere=elsewhere)
        for target in range(version + 1, latest + 1):
            step = steps[target]
            if isinstance(step, str):
                for statement in statements(step):
                    db.execute(statement)
            else:
                step(db)
            db.execute(f"PRAGMA user_version = {target}")
        db.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    return version


def statements(script: str) -> Iterator[str]:
    """The statements of an SQL script, one by one (``executescript`` would commit the transaction).

    >>> list(statements("CREATE TABLE a (x TEXT DEFAULT ';'); -- a note\\nCREATE INDEX b ON a (x);"))
    ["CREATE TABLE a (x TEXT DEFAULT ';');", ' -- a note\\nCREATE INDEX b ON a (x);']
    """
    pending = ""
    for part in script.split(";"):
        pending += part + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\r\n;"):
                yield pending
            pending = ""
