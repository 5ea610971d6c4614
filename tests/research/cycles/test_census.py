"""``beggar census``: a CI-sized census, resumed after SIGKILL, against brute force; balanced deals."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.cycle import find_cycle
from beggar.records import NEVER_ENDING
from beggar.research.cycles.basins import walk_basin
from beggar.research.cycles.canon import Alphabet, canonical_form, played_form
from beggar.research.cycles.census import census_summary, rows, stored_cycle
from beggar.research.cycles.kinds import Composition
from beggar.research.store import CensusCycle, Store
from beggar.rules import STANDARD, rules_named
from beggar.web.never_ending import load_found
from helpers import brute_force

CI_DECK = "4,2"
CI_PERIOD = 12
"""A census of 66 rows, enough that a kill lands in the middle: the 6-card deck's one cycle, of 6 cards,
and its repeat at 12."""


def _stored(path: Path) -> int:
    try:
        with sqlite3.connect(path) as db:
            return int(db.execute("SELECT COUNT(*) FROM census_instances").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.system
def test_a_census_killed_resumes_and_agrees_with_brute_force(tmp_path: Path) -> None:
    db = tmp_path / "census.db"
    args = ["census", "--cards", CI_DECK, "--max-period", str(CI_PERIOD), "--workers", "1", "--db", str(db)]
    args += ["--time-limit", "60"]  # each row in a child process of its own, which dies with the census
    args += ["--method", "solver"]  # the deck is small enough to play every position instead
    total = sum(len(row.hands) for row in rows(Composition.parse(CI_DECK, STANDARD), CI_PERIOD))
    first = subprocess.Popen([sys.executable, "-m", "beggar", *args], stdout=subprocess.DEVNULL)
    while _stored(db) == 0:  # killed as soon as a row is stored (the test's timeout bounds the wait)
        assert first.poll() is None, "the census ended before the kill"
        time.sleep(0.01)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    killed_at = _stored(db)
    assert 0 < killed_at < total
    with sqlite3.connect(db) as con:
        answered = set(con.execute("SELECT period, k1, n1, status, seconds FROM census_instances"))

    # Resumed in a process of its own, as a person would run it: a solver's child process forked
    # from this test's much larger process would cost several times as much.
    resumed = subprocess.run(
        [sys.executable, "-m", "beggar", *args, "--json"], capture_output=True, text=True
    )
    assert resumed.returncode == 0, resumed.stderr
    out = resumed.stdout
    with sqlite3.connect(db) as con:  # what was answered before the kill is not solved again
        again = set(con.execute("SELECT period, k1, n1, status, seconds FROM census_instances"))
    assert answered <= again and len(again) == total
    data = json.loads(out)
    assert {"period", "k1", "n1", "status", "seconds"} <= set(data["instances"][0])
    assert [(c["period_tricks"], c["period_cards"], c["lead"]) for c in data["cycles"]] == [(2, 6, 0)]
    assert "deals" not in data
    store = Store(db)
    deck = Composition.parse(CI_DECK, STANDARD)
    instances = store.census_instances(deck.key())
    assert len(instances) == total
    assert all(instance.status in ("sat", "unsat") for instance in instances)

    found, on_cycles = brute_force(deck, CI_PERIOD)
    assert (
        {(i.period, i.k1, i.n1) for i in instances if i.status == "sat"} == found == {(6, 3, 4), (12, 6, 4)}
    )
    expected = {canonical_form(deal, STANDARD).deal for deal in on_cycles}
    summary = census_summary(store, deck, CI_PERIOD)
    assert {cycle["deal"] for cycle in summary["cycles"]} == expected
    for cycle in summary["cycles"]:
        played = find_cycle(cycle["deal"], STANDARD, first=0, complete=False)
        assert played is not None and played.period_cards == cycle["period_cards"]


def test_balanced_deals_need_the_whole_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["census", "--cards", "5,2,1", "--max-period", "4", "--balanced", "--db", ":memory:"]) != 0
    assert "--balanced needs the whole deck" in capsys.readouterr().err


def test_canonical_forms_agree_with_the_compiled_ones() -> None:
    for rules, deal in [
        (STANDARD, NEVER_ENDING.deal),
        (STANDARD, "--J-/Q-J-"),
        (rules_named("court-only:deck=stripped"), "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"),
    ]:
        cycle = find_cycle(deal, rules, first=0, complete=False)
        assert cycle is not None
        assert played_form(Alphabet.of(rules), cycle) == canonical_form(deal, rules)


@pytest.mark.slow
def test_balanced_deals_reach_the_2024_cycle_and_the_browser_lists_them(tmp_path: Path) -> None:
    form = canonical_form(NEVER_ENDING.deal, STANDARD)
    basin = walk_basin(STANDARD, form.deal, max_tricks=4)
    lead_ins = {d.deal: (d.pre_period_tricks, d.pre_period_cards) for d in basin.deals}
    assert lead_ins[NEVER_ENDING.deal] == (4, 34)
    store = Store(tmp_path / "census.db")
    cycle = form.into(CensusCycle, deck="standard", k1=0, n1=0)
    store.save_census_row([], [cycle], [stored_cycle(cycle, "standard", "-36 J4 Q4 K4 A4")])
    store.save_basin(basin.stored, basin.deals)
    summary = census_summary(store, Composition.of(STANDARD), 440)
    assert {"deal": NEVER_ENDING.deal, "cycle": form.deal, "period_cards": 440} in summary["deals"]
    store.close()
    listed = {found.deal: found.cycle.period_cards for found in load_found(tmp_path / "census.db")}
    assert listed[NEVER_ENDING.deal] == 440


def test_a_census_on_a_dask_cluster(
    dask_scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cluster.db"
    args = [
        "census",
        "--cards",
        "5,2,1",
        "--max-period",
        "16",
        "--db",
        str(db),
        "--json",
        "--method",
        "solver",
    ]
    status = run([*args, "--scheduler", dask_scheduler])
    out, err = capsys.readouterr()
    assert status == 0, err
    data = json.loads(out)
    assert len(data["instances"]) == sum(7 * (period - 1) for period in range(2, 17))
    assert [cycle["deal"] for cycle in data["cycles"]] == ["--J-/Q-J-"]
    # the census of the 8-card deck stores exactly the cycles the engine finds playing every position
    _, on_cycles = brute_force(Composition.parse("5,2,1", STANDARD), 16)
    assert {canonical_form(deal, STANDARD).deal for deal in on_cycles} == {"--J-/Q-J-"}
