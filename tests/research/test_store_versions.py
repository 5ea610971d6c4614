"""A research store carries its schema version: an older one is migrated keeping every row, a newer
one is refused and left as it was."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.research.store import SCHEMA, SCHEMA_VERSION, Store, StoreError

STORES = Path(__file__).parent / "stores"
TABLES = (
    "campaigns",
    "walkers",
    "finds",
    "cycles",
    "basins",
    "cycle_deals",
    "census_instances",
    "census_cycles",
    "factory_moves",
)


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table}"), key=repr) for table in TABLES}


def _version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_store_written_before_versions_were_kept_is_migrated_with_every_row(tmp_path: Path) -> None:
    """``stores/unversioned.sql`` is a store written by the store code of before versions were kept
    (a search, a factory unit and a census row through its own methods), dumped as SQL."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript((STORES / "unversioned.sql").read_text())
    before = _rows(path)
    assert _version(path) == 0 and all(before.values())

    store = Store(path)
    assert store.top()[0].cards == 2930
    store.close()
    assert _version(path) == SCHEMA_VERSION
    assert _rows(path) == before

    again = Store(path)  # opening a current store changes nothing
    again.close()
    assert _rows(path) == before and _version(path) == SCHEMA_VERSION


def test_a_new_store_carries_the_schema_version(tmp_path: Path) -> None:
    Store(tmp_path / "new.db").close()
    assert _version(tmp_path / "new.db") == SCHEMA_VERSION >= 1


def _newer(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        db.execute("ALTER TABLE census_instances ADD COLUMN proof BLOB")
        db.execute("PRAGMA user_version = 999")


def test_a_store_of_a_newer_version_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    _newer(path)
    digest = _digest(path)
    for read_only in (False, True):
        with pytest.raises(StoreError, match=r"written by a newer beggar .*version 999.*give another --db"):
            Store(path, read_only=read_only)
    assert _digest(path) == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["newer.db"]


def test_census_refuses_a_newer_store_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "newer.db"
    _newer(path)
    digest = _digest(path)
    status = run(["census", "--cards", "5,2,1", "--max-period", "3", "--workers", "1", "--db", str(path)])
    err = capsys.readouterr().err
    assert status != 0
    assert err.startswith("beggar: ") and err.count("\n") == 1 and "newer beggar" in err, err
    assert _digest(path) == digest
