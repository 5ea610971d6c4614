"""A research store carries its schema version: an older one is migrated keeping every row, a newer
one is refused and left as it was."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.research.exhaust import ExhaustStore
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
EXHAUST_TABLES = (
    "exhaust_units",
    "exhaust_lengths",
    "exhaust_wins",
    "exhaust_cycles",
    "exhaust_never_ending",
    "exhaust_longest",
)


def _rows(path: Path, tables: tuple[str, ...] = TABLES) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table}"), key=repr) for table in tables}


def _schema(db: sqlite3.Connection) -> list[tuple[str, str]]:
    return sorted(db.execute("SELECT name, sql FROM sqlite_master"))


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


def test_a_store_with_the_exhaust_tables_own_version_is_migrated_with_every_exhaust_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``stores/exhaust_v3.sql`` is a store of version 3 written by ``beggar exhaust`` of that
    version: its tables beside a version table of their own (``exhaust_schema``). The store's one
    version takes them over; the same command then finds every deal played and plays none again."""
    path = tmp_path / "exhaust.db"
    with sqlite3.connect(path) as db:
        db.executescript((STORES / "exhaust_v3.sql").read_text())
    before = _rows(path, EXHAUST_TABLES)
    assert _version(path) == 3 and all(before.values())

    Store(path).close()
    assert _version(path) == SCHEMA_VERSION
    assert _rows(path, EXHAUST_TABLES) == before
    with sqlite3.connect(path) as db:
        assert "exhaust_schema" not in {name for name, _ in _schema(db)}

    command = ["exhaust", "--rules", "half-deck", "--cards", "6,2,1,1", "--unit-size", "1000"]
    assert run([*command, "--workers", "1", "--db", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == data["total"] == 2520 and len(data["never_ending"]) == 14
    assert _rows(path, EXHAUST_TABLES) == before


def test_the_exhaust_tables_are_the_stores_and_the_exhaust_creates_none(tmp_path: Path) -> None:
    store = Store(tmp_path / "new.db")
    tables = _schema(store.db)
    assert set(EXHAUST_TABLES) <= {name for name, _ in tables}
    ExhaustStore(store)
    assert _schema(store.db) == tables
    store.close()


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


@pytest.mark.parametrize(
    "command",
    [
        ["census", "--cards", "5,2,1", "--max-period", "3"],
        ["exhaust", "--rules", "half-deck", "--cards", "4,1,1"],
    ],
)
def test_a_research_command_refuses_a_newer_store_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path = tmp_path / "newer.db"
    _newer(path)
    digest = _digest(path)
    status = run([*command, "--workers", "1", "--db", str(path)])
    err = capsys.readouterr().err
    assert status != 0
    assert err.startswith("beggar: ") and err.count("\n") == 1 and "newer beggar" in err, err
    assert _digest(path) == digest
