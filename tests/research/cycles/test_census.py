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
from beggar.research.cycles.basins import walk_census_basins
from beggar.research.cycles.canon import Alphabet, canonical_form, played_form
from beggar.research.cycles.census import census_summary, rows, stored_cycle
from beggar.research.cycles.kinds import Composition
from beggar.research.store import CensusCycle, Store
from beggar.rules import STANDARD, rules_named
from beggar.web.never_ending import load_found
from helpers import brute_force

ITALIAN = "court-only:deck=stripped"
ITALIAN_DEAL = "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"
"""The published Italian deal: its cycle is a census cycle of the whole 40-card deck."""
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
    """Killed by SIGKILL as soon as its first answers are stored, a census resumed by the same
    command (without the time limit, whose child processes cost most of the work) decides only
    what is left, keeps what was stored, and its answers and cycles are brute force's."""
    db = tmp_path / "census.db"
    args = ["census", "--cards", CI_DECK, "--max-period", str(CI_PERIOD), "--workers", "1", "--db", str(db)]
    args += ["--method", "solver"]  # the deck is small enough to play every position instead
    total = sum(len(row.hands) for row in rows(Composition.parse(CI_DECK, STANDARD), CI_PERIOD))
    # With a time limit each row runs in a child process of its own, which dies with the census: the
    # census then takes seconds beyond its first answers, so the kill always lands in the middle.
    limited = [*args, "--time-limit", "60"]
    first = subprocess.Popen([sys.executable, "-m", "beggar", *limited], stdout=subprocess.DEVNULL)
    while _stored(db) == 0:  # killed as soon as a row is stored (the test's timeout bounds the wait)
        assert first.poll() is None, "the census ended before the kill"
        time.sleep(0.01)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    killed_at = _stored(db)
    assert 0 < killed_at < total
    with sqlite3.connect(db) as con:
        answered = set(con.execute("SELECT period, k1, n1, status, seconds FROM census_instances"))

    # Resumed in a process of its own, as a person would run it.
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


def test_balanced_deals_reach_a_full_deck_cycle_and_the_browser_lists_them(tmp_path: Path) -> None:
    """A census cycle of the whole deck is walked back to the balanced deals that reach it, each
    with the lead-in the reference engine plays, once (``beggar census --balanced`` run again walks
    it no more); the census and the browser list them.

    The published Italian cycle (40 cards) walked one trick back takes a fraction of a second;
    the 2024 cycle's walk (62 positions, 4 tricks back) goes through the same code for tens of
    seconds. Backward play reaching the 2024 deal is checked in ``beggar.backward``'s example.
    """
    rules = rules_named(ITALIAN)
    deck = Composition.of(rules)
    form = canonical_form(ITALIAN_DEAL, rules)
    store = Store(tmp_path / "census.db")
    cycle = form.into(CensusCycle, deck=deck.key(), k1=0, n1=0)
    store.save_census_row([], [cycle], [stored_cycle(cycle, rules.spec(), deck.describe())])
    assert walk_census_basins(store, deck, form.period_cards - 1, budget=100) == []  # longer than asked
    [walked] = walk_census_basins(store, deck, form.period_cards, budget=100)
    assert walk_census_basins(store, deck, form.period_cards, budget=100) == []  # walked once, kept
    assert store.basins(rules=rules.spec()) == {(rules.spec(), form.deal): walked}
    deals = store.cycle_deals(rules=rules.spec())
    assert deals and walked.deals == len(deals) and walked.closest_split == "20/20"
    for deal in deals:  # each a balanced deal, led in as the reference engine plays it
        assert len(deal.deal.split("/")[0]) == len(deal.deal.split("/")[1]) == 20
        played = find_cycle(deal.deal, rules)
        assert played is not None and canonical_form(deal.deal, rules).deal == form.deal
        assert (played.pre_period_tricks, played.pre_period_cards) == (
            deal.pre_period_tricks,
            deal.pre_period_cards,
        )
    summary = census_summary(store, deck, form.period_cards)
    assert summary["deals"] == [
        {"deal": deal.deal, "cycle": form.deal, "period_cards": form.period_cards} for deal in deals
    ]
    store.close()
    listed = {found.deal: found.cycle.period_cards for found in load_found(tmp_path / "census.db")}
    # written as the rules write a deal (aces pay nothing here: blanks), the published one among them
    assert len(listed) == len(deals) and set(listed.values()) == {form.period_cards}
    assert ITALIAN_DEAL in listed


def test_a_census_on_a_dask_cluster(
    dask_scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The census's rows run on a Dask cluster and store exactly what brute force finds: the 6-card
    deck's one cycle and its repeat."""
    db = tmp_path / "cluster.db"
    args = ["census", "--cards", CI_DECK, "--max-period", str(CI_PERIOD), "--db", str(db), "--json"]
    status = run([*args, "--method", "solver", "--scheduler", dask_scheduler])
    out, err = capsys.readouterr()
    assert status == 0, err
    data = json.loads(out)
    deck = Composition.parse(CI_DECK, STANDARD)
    assert len(data["instances"]) == sum(len(row.hands) for row in rows(deck, CI_PERIOD))
    found, on_cycles = brute_force(deck, CI_PERIOD)
    sat = {(i["period"], i["k1"], i["n1"]) for i in data["instances"] if i["status"] == "sat"}
    assert sat == found == {(6, 3, 4), (12, 6, 4)}
    assert [cycle["deal"] for cycle in data["cycles"]] == ["--J-/J-"]
    assert {canonical_form(deal, STANDARD).deal for deal in on_cycles} == {"--J-/J-"}
