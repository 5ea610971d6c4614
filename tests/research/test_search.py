"""The search: units are exact and repeatable, finds survive a kill, and a Dask cluster stores finds too."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from beggar.cli import run
from beggar.engine import play
from beggar.research import cluster, search
from beggar.research.search import SearchArgs, Space, run_search, run_unit
from beggar.research.store import Store
from beggar.rules import rules_named

BEGGAR = [sys.executable, "-m", "beggar"]


@pytest.fixture(autouse=True)
def small_random_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """A random unit here is 100,000 deals played in chunks of 512: the same path as a unit of
    the real size (several chunks, a short last one, loops found across chunks) at a tenth of the
    work. A worker forked by a local search inherits the sizes."""
    monkeypatch.setattr(search, "RANDOM_UNIT", 100_000)
    monkeypatch.setattr(search, "RANDOM_CHUNK", 1 << 9)


def test_a_unit_is_a_pure_function_of_its_arguments() -> None:
    args = SearchArgs(strategy="anneal", seed=4).to_dict()
    once = run_unit(args, 0, 0, {})
    again = run_unit(args, 0, 0, {})
    assert once.state == again.state
    assert [f.deal for f in once.finds] == [f.deal for f in again.finds]
    following = run_unit(args, 0, 1, once.state)
    assert following.state != once.state


@pytest.mark.parametrize("strategy", ["random", "hill-climb", "anneal"])
def test_every_find_is_what_the_reference_engine_plays(strategy: str) -> None:
    args = SearchArgs(strategy=strategy, seed=9)
    state: dict[str, object] = {}
    finds = []
    for unit in range(3):
        result = run_unit(args.to_dict(), 0, unit, state)
        state = result.state
        finds += result.finds
    assert finds
    for find in finds:
        record = play(find.deal)
        assert (record.cards, record.tricks, str(record.status)) == (find.cards, find.tricks, find.status)


def test_local_search_climbs_above_a_typical_game() -> None:
    args = SearchArgs(strategy="hill-climb", seed=2).to_dict()
    state: dict[str, object] = {}
    for unit in range(20):
        state = run_unit(args, 0, unit, state).state
    assert state["scores"][1] > 1000  # type: ignore[index]  # a typical game has about 190 cards


def test_a_search_of_never_ending_deals_under_a_variant_that_loops_often(tmp_path: Path) -> None:
    store = Store(tmp_path / "finds.db")
    args = SearchArgs(rules="half-deck:pay=J1", strategy="random", target="loops", seed=1, walkers=1)
    progress = run_search(args, store, seconds=60, workers=1, units=1)
    loops = store.top(status="loop")
    assert progress.loops and loops
    rules = rules_named("half-deck:pay=J1")
    assert all(str(play(f.deal, rules).status) == "loop" for f in loops)


def test_rules_whose_number_cards_pay_are_searched_with_those_ranks_written_out() -> None:
    """A '-' is a card that pays nothing under the rules, so a paying ten is written T."""
    rules = rules_named("standard:pay=J1Q2K3A4T1")
    space = Space.of(rules)
    assert space.symbols == "-TJQKA"
    result = run_unit(SearchArgs(rules=rules.spec(), strategy="hill-climb", seed=3).to_dict(), 0, 0, {})
    assert result.finds
    for find in result.finds:
        assert find.deal.count("T") == 4
        record = play(find.deal, rules.unlimited())
        assert (record.cards, record.tricks) == (find.cards, find.tricks)


@pytest.mark.parametrize("strategy", ["random", "hill-climb"])
def test_under_a_random_lead_every_find_is_the_game_that_was_scored(strategy: str) -> None:
    """friend-table draws a leader per game: a find stores it, and replays to what was scored."""
    rules = rules_named("friend-table")
    args = SearchArgs(rules="friend-table", strategy=strategy, target="cards", seed=11, walkers=1)
    finds = []
    state: dict[str, object] = {}
    for unit in range(2):
        result = run_unit(args.to_dict(), 0, unit, state)
        state, finds = result.state, finds + result.finds
    assert finds
    if strategy == "random":
        assert {find.lead for find in finds} == {0, 1} or len(finds) == 1
    for find in finds:
        record = play(find.deal, rules.unlimited(), first=find.lead)
        assert (record.cards, record.tricks, str(record.status), record.winner) == (
            find.cards,
            find.tricks,
            find.status,
            find.winner,
        )


def test_random_search_keeps_a_loop_scored_under_a_random_lead_as_a_loop() -> None:
    """The half deck with only jacks paying loops often; each stored loop must loop as led."""
    rules = rules_named("half-deck:pay=J1:lead=random")
    args = SearchArgs(rules=rules.spec(), strategy="random", target="loops", seed=1, walkers=1)
    finds = run_unit(args.to_dict(), 0, 0, {}).finds
    loops = [find for find in finds if find.status == "loop"]
    assert loops
    assert {find.lead for find in loops} == {0, 1}
    for find in loops:
        assert play(find.deal, rules, first=find.lead).status.value == "loop"


def test_search_runs_under_rules_with_a_card_limit_and_no_repeat_check(tmp_path: Path) -> None:
    """A house limit does not apply to the search (it wants the game itself), and must not break it."""
    store = Store(tmp_path / "finds.db")
    args = SearchArgs(rules="standard:repeat=off:max-cards=300", strategy="random", seed=2, walkers=1)
    run_search(args, store, seconds=60, workers=1, units=1)
    best = store.top(limit=1)[0]
    assert best.cards > 300


def test_an_interrupted_run_resumed_finds_exactly_what_an_uninterrupted_run_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two walkers on two worker processes, run for six units each, find what the same campaign
    stopped after three units and resumed finds. A unit of moves here is a tenth of the real one
    (the workers forked by the pool inherit the size): resuming is exact whatever a unit's size.
    The three runs share one pool of workers, as runs on one Dask cluster do."""
    monkeypatch.setattr(search, "MOVES_UNIT", search.MOVES_UNIT // 10)
    args = SearchArgs(strategy="anneal", seed=5, walkers=2)
    whole = Store(tmp_path / "whole.db")
    parts = Store(tmp_path / "parts.db")
    with cluster.local_pool(2, search._warm) as pool:
        run_search(args, whole, seconds=120, executor=pool, units=6)
        run_search(args, parts, seconds=120, executor=pool, units=3)
        campaign_whole, campaign_parts = whole.campaign(args.to_dict()), parts.campaign(args.to_dict())
        assert parts.walkers(campaign_parts) != whole.walkers(campaign_whole)
        run_search(args, parts, seconds=120, executor=pool, units=6)
    assert whole.top(limit=1)
    assert whole.walkers(campaign_whole) == parts.walkers(campaign_parts)
    assert {f.deal for f in whole.top(limit=1000)} == {f.deal for f in parts.top(limit=1000)}
    assert whole.scored(campaign_whole) == parts.scored(campaign_parts)


def _units_done(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as con:
            row = con.execute("SELECT COALESCE(SUM(unit), 0) FROM walkers").fetchone()
            return int(row[0])
    except sqlite3.OperationalError:
        return 0


def _most_units(db: Path) -> int:
    with sqlite3.connect(db, timeout=5) as con:
        return int(con.execute("SELECT MAX(unit) FROM walkers").fetchone()[0])


def _finds(db: Path) -> set[tuple[str, int]]:
    with sqlite3.connect(db, timeout=5) as con:
        return {(deal, cards) for deal, cards in con.execute("SELECT deal, cards FROM finds")}


@pytest.mark.system
def test_a_search_killed_with_sigkill_resumes_and_loses_no_find(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The killed search is a process of its own (with its worker, which must end with it); the
    resumed one is the same command run here: what it resumes from is in the database."""
    db = tmp_path / "finds.db"
    # One worker process, so one walker: a second doubles the work of both runs and proves nothing
    # more about resuming (two walkers resumed alike is the test above), nor about a worker ending
    # with the search that started it.
    command = [*BEGGAR, "search", "--db", str(db), "--seed", "3", "--workers", "1", "--strategy", "anneal"]
    command += ["--minutes", "5"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        while _units_done(db) < 1:  # killed as soon as a unit is stored
            assert process.poll() is None, "the search stopped by itself"
            assert time.monotonic() < deadline, "the search made no progress"
            time.sleep(0.2)
        workers = _children(process.pid)
        assert workers, "the search runs its units in a worker process"
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    gone_by = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)], "the workers outlived the killed search"
    before_units = _units_done(db)
    before = _finds(db)
    assert before
    # Resumed for one unit more than the furthest walker had done: a few units' work rather than
    # minutes of it, and each walker's count says where it was resumed.
    capsys.readouterr()
    status = run([*command[len(BEGGAR) :], "--units", str(_most_units(db) + 1), "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["resumed_after_units"] >= before_units
    assert before <= _finds(db)
    assert _units_done(db) > before_units


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_search_on_a_dask_cluster_stores_its_finds(
    dask_scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cluster.db"
    status = run(
        [
            "search",
            "--scheduler",
            dask_scheduler,
            "--strategy",
            "anneal",
            "--db",
            str(db),
            "--units",
            "2",
            "--walkers",
            "2",
            "--minutes",
            "2",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["scored"] == 4 * 20_000
    stored = Store(db).top(limit=100)
    assert stored and all(f.campaign == summary["campaign"] for f in stored)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "--strategy", "guess"], "Invalid value for '--strategy'"),
        (["search", "--minutes", "0"], "--minutes"),
        (["search", "--rules", "nonsense"], "unknown rules"),
        (["search", "--scheduler", "nowhere"], "tcp://HOST:PORT"),
        (
            ["search", "--scheduler", "tcp://127.0.0.1:9", "--minutes", "0.01"],
            "cannot reach the Dask scheduler",
        ),
        (["top", "--db", "/nonexistent/finds.db"], "no database"),
        (["export", "--format", "xml"], "Invalid value for '--format'"),
    ],
)
def test_bad_search_arguments_are_refused_clearly(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)  # nothing listens there: no need to wait 10 s
    status = run([*args, "--db", str(tmp_path / "x.db")] if args[0] == "search" else args)
    _, err = capsys.readouterr()
    assert status != 0
    assert err.startswith("beggar: ") and err.count("\n") == 1
    assert message in err


def test_a_database_file_that_is_not_a_database_is_refused_and_kept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("my notes\n" * 500)
    status = run(["search", "--db", str(notes), "--minutes", "0.01"])
    _, err = capsys.readouterr()
    assert status != 0 and "cannot use" in err
    assert notes.read_text().startswith("my notes")


def test_top_and_export_show_the_finds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "finds.db"
    run_search(
        SearchArgs(strategy="hill-climb", seed=1, walkers=1), Store(db), seconds=60, workers=1, units=2
    )
    assert run(["top", "--db", str(db), "--json"]) == 0
    top = json.loads(capsys.readouterr().out)
    assert top and top == sorted(top, key=lambda f: -f["cards"])
    out = tmp_path / "finds.csv"
    assert run(["export", "--db", str(db), "--output", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("deal,rules,cards") and len(lines) == len(top) + 1


@pytest.mark.parametrize(
    ("spec", "target", "best_before"),
    (("standard", "cards", -1), ("half-deck:pay=J1", "loops", -1), ("standard", "tricks", 10**9)),
)
def test_a_random_unit_finds_what_one_table_of_the_whole_unit_holds(
    spec: str, target: str, best_before: int
) -> None:
    """Played in chunks, a unit still reports its first loops in game order and its first longest game."""
    from beggar.kernels import bitwise, general
    from beggar.research.search import MAX_NOTES, RANDOM_CHUNK, RANDOM_UNIT

    assert RANDOM_UNIT % RANDOM_CHUNK != 0  # a short last chunk is exercised too
    rules = rules_named(spec)
    args = SearchArgs(rules=spec, strategy="random", target=target, seed=5, walkers=2)
    result = run_unit(args.to_dict(), 1, 1, {"best": best_before})
    start = (1 * 2 + 1) * RANDOM_UNIT
    whole = bitwise.play_random_fastest(general.KernelRules.of(rules), 5, start, RANDOM_UNIT)
    measure = (whole.tricks if target == "tricks" else whole.cards).copy()
    measure[whole.status == general.STATUS_LOOP] = -1
    picks = {int(i) for i in np.flatnonzero(whole.status == general.STATUS_LOOP)[:MAX_NOTES]}
    best = int(np.argmax(measure))
    if measure[best] > best_before:
        picks.add(best)
    assert result.state == {"best": max(best_before, int(measure[best]))}
    want = [
        (whole.record(i).cards, whole.record(i).tricks, str(whole.record(i).status)) for i in sorted(picks)
    ]
    assert [(f.cards, f.tricks, f.status) for f in result.finds] == want
    assert (target == "loops") == any(f.status == "loop" for f in result.finds)
