"""A full disk under a research store: one plain line, nothing half written, and the same command resumes.

The disk is made full with SQLite's ``max_page_count`` (the file may not grow beyond the pages it
has), which fails a write exactly as a full disk does: ``SQLITE_FULL``, "database or disk is full".
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.research.exhaust import ExhaustDeck, play_unit
from beggar.research.store import Find, Store, StoreWriteError
from beggar.rules import rules_named


def _no_room(monkeypatch: pytest.MonkeyPatch, path: Path) -> Callable[[], None]:
    """From now on, every connection to ``path`` finds the disk full: the file cannot grow.
    Returns what gives the room back."""
    real = sqlite3.connect

    def connect(database: object, *args: object, **kwargs: object) -> sqlite3.Connection:
        db = real(database, *args, **kwargs)  # type: ignore[call-overload]
        if str(database) == str(path):
            pages = int(db.execute("PRAGMA page_count").fetchone()[0])
            db.execute(f"PRAGMA max_page_count = {pages}")
        return db  # type: ignore[no-any-return]

    monkeypatch.setattr(sqlite3, "connect", connect)
    return lambda: monkeypatch.setattr(sqlite3, "connect", real)


def _find(number: int) -> Find:
    return Find(f"{'-' * 40}{number:08d}/K", "standard", 1000 + number, 100, "finished", 0, "random", 1)


def test_a_unit_that_does_not_fit_is_refused_whole_and_every_earlier_unit_is_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "finds.db"
    Store(path).close()
    _no_room(monkeypatch, path)
    store = Store(path)
    campaign = store.campaign({"seed": 1})
    with pytest.raises(StoreWriteError) as refused:
        for unit in range(1000):
            finds = [_find(10 * unit + n) for n in range(10)]
            store.save_unit(campaign, walker=0, unit=unit, state={"unit": unit}, scored=10, finds=finds)
    message = str(refused.value)
    assert f"cannot write to the database {path}: the disk is full" in message
    assert "everything saved before is kept, and the same command resumes" in message
    [(done, state)] = store.walkers(campaign).values()
    assert done > 0 and state == {"unit": done - 1}
    assert store.count() == 10 * done  # not a find of the unit that did not fit
    assert store.scored(campaign) == 10 * done


def test_a_census_on_a_full_disk_stops_in_one_line_and_resumes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "census.db"
    census = [
        "census",
        "--cards",
        "5,2,1",
        "--max-period",
        "6",
        "--method",
        "solver",
        "--workers",
        "1",
        "--json",
    ]
    args = [*census, "--db", str(db)]
    Store(db).close()
    room = _no_room(monkeypatch, db)
    status = run(args)
    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    assert err.startswith(f"beggar: cannot write to the database {db}: the disk is full"), err
    assert err.count("\n") == 1 and "the same command resumes" in err
    with sqlite3.connect(db) as con:
        kept = set(con.execute("SELECT period, k1, n1, status FROM census_instances"))
    assert 0 < len(kept) < 105  # stopped part-way: the rows of 5,2,1 up to period 6 are 105

    room()
    assert run(args) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert run([*census, "--db", str(tmp_path / "whole.db")]) == 0
    whole = json.loads(capsys.readouterr().out)
    answers = {(i["period"], i["k1"], i["n1"], i["status"]) for i in resumed["instances"]}
    assert kept <= answers
    assert answers == {(i["period"], i["k1"], i["n1"], i["status"]) for i in whole["instances"]}
    assert resumed["cycles"] == whole["cycles"]


@pytest.mark.parametrize("command", [["factory", "--rules", "half-deck:pay=J1Q2"], ["search"]])
def test_a_campaign_on_a_full_disk_stops_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """The campaign's first write (its name) does not fit: another campaign's row as large as a
    page fills the one page the table has."""
    db = tmp_path / "campaign.db"
    Store(db).close()
    with sqlite3.connect(db) as con:
        con.execute(
            "INSERT INTO campaigns (id, args, created, updated) VALUES ('other', ?, 0, 0)", ("x" * 4000,)
        )
    before = db.read_bytes()
    _no_room(monkeypatch, db)
    status = run([*command, "--workers", "1", "--units", "1", "--db", str(db)])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(f"beggar: cannot write to the database {db}: the disk is full"), err
    assert err.count("\n") == 1
    with sqlite3.connect(db) as con:
        assert [row[0] for row in con.execute("SELECT id FROM campaigns")] == ["other"]
    assert len(db.read_bytes()) == len(before)


def test_an_exhaust_on_a_full_disk_stops_in_one_line_and_resumes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The longest games of the first units fill the one page their table has: a unit then does
    not fit, and the run stops with every unit before it kept."""
    db = tmp_path / "exhaust.db"
    exhaust = ["exhaust", "--rules", "half-deck", "--cards", "5,2,1", "--unit-size", "10"]
    # The kernel loaded here once: each run's worker, forked from this process, has it.
    play_unit(ExhaustDeck.of(rules_named("half-deck"), "5,2,1").units(0, 1, 1)[0])
    args = [*exhaust, "--workers", "1", "--db", str(db), "--json"]
    Store(db).close()
    room = _no_room(monkeypatch, db)
    status = run(args)
    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    assert err.startswith(f"beggar: cannot write to the database {db}: the disk is full"), err
    assert err.count("\n") == 1 and "the same command resumes" in err
    with sqlite3.connect(db) as con:
        kept = list(con.execute("SELECT start, stop FROM exhaust_units ORDER BY start"))
        deals = con.execute("SELECT COALESCE(SUM(games), 0) FROM exhaust_wins").fetchone()[0]
    assert 0 < len(kept) < 17 and kept == [(i, i + 10) for i in range(0, 10 * len(kept), 10)]
    assert 0 < deals <= 10 * len(kept)  # the finished games of the units kept, none of the one refused

    room()
    assert run(args) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert run([*exhaust, "--workers", "1", "--db", str(tmp_path / "whole.db"), "--json"]) == 0
    assert resumed == json.loads(capsys.readouterr().out)
