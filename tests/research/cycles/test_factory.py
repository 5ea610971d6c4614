"""The cycle factory: repeatable units, full-deck cycles and their balanced deals, resuming after a kill."""

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
from beggar.research.cluster import local_pool
from beggar.research.cycles import factory
from beggar.research.cycles.basins import BASIN_POSITIONS
from beggar.research.cycles.canon import canonical_form, form_of
from beggar.research.cycles.factory import (
    FactoryArgs,
    FactoryError,
    alphabet_of,
    run_factory,
    run_unit,
)
from beggar.research.store import Store, never_ending_deals
from beggar.research.strategies import MIN_TRIES, TRIES_PER_PARENT
from beggar.rules import rules_named

BEGGAR = [sys.executable, "-m", "beggar"]
EASY = "half-deck:pay=J1Q2"
"""A deck whose full-deck cycles the factory reaches in a few seconds: 26 cards, 2 jacks, 2 queens."""
ITALIAN = "court-only:deck=stripped"
QUICK = 1_000
"""Tries per parent in a generation: a quarter of the default, enough for the growth shown here."""
FEW = 250
"""Tries per parent for the tests of bookkeeping (repeatable units, resuming, listing, the cluster),
whose properties hold whatever a unit finds; each checks that it found something to compare."""


@pytest.mark.slow
@pytest.mark.parametrize("band", ["kind", "total", "loose"])
def test_a_unit_is_a_pure_function_of_its_arguments(band: str) -> None:
    args = FactoryArgs(rules=ITALIAN, seed=3, walkers=1, basin_positions=100, band=band, tries=FEW).to_dict()
    first = run_unit(args, 0, 0, {})
    again = run_unit(args, 0, 0, {})
    assert first.cycles
    assert first.state == again.state and first.positions == again.positions
    assert {(c.deal, c.met) for c in first.cycles} == {(c.deal, c.met) for c in again.cycles}
    following = run_unit(args, 0, 1, first.state)
    assert following.state != first.state


@pytest.mark.slow
def test_the_factory_grows_italian_cycles_well_past_the_small_ones_it_harvests() -> None:
    args = FactoryArgs(rules=ITALIAN, seed=1, walkers=1, basin_positions=100, tries=QUICK).to_dict()
    state: dict[str, object] = {}
    largest = 0
    for unit in range(4):
        result = run_unit(args, 0, unit, state)
        state = result.state
        largest = max([largest, *(c.cards for c in result.cycles)])
    assert largest >= 24  # harvested cycles hold at most 16 cards
    rules = rules_named(ITALIAN)
    for deal in state["beam"]:  # type: ignore[attr-defined]
        assert find_cycle(deal, rules, first=0, complete=False) is not None


@pytest.mark.slow
def test_the_loose_band_grows_past_the_decks_mix_but_stores_only_positions_of_the_deck() -> None:
    args = FactoryArgs(
        rules=ITALIAN, seed=1, walkers=1, basin_positions=100, band="loose", tries=QUICK
    ).to_dict()
    alphabet = alphabet_of(ITALIAN)
    caps = {value: count if value == 0 else -(-count * 5 // 4) for value, count in alphabet.deck.items()}
    rules = rules_named(ITALIAN)
    state: dict[str, object] = {}
    beyond = 0
    for unit in range(4):
        result = run_unit(args, 0, unit, state)
        state = result.state
        for cycle in result.cycles:  # stored: positions of the deck that the reference engine loops
            assert all(
                count <= alphabet.deck[value]
                for value, count in alphabet.composition(alphabet.parse(cycle.deal)[0]).items()
            )
            assert find_cycle(cycle.deal, rules, first=0, complete=False) is not None
        for deal in state["beam"]:  # type: ignore[attr-defined]
            values, lead = alphabet.parse(deal, within_deck=False)
            counts = alphabet.composition(values)
            assert values.size <= alphabet.size and all(counts[v] <= caps[v] for v in counts)
            assert form_of(alphabet, values, lead) is not None
            beyond += any(counts[v] > alphabet.deck[v] for v in counts)
    assert beyond > 0  # the lineage went past the deck's mix on the way


@pytest.mark.slow
def test_full_deck_cycles_and_the_balanced_deals_that_reach_them(tmp_path: Path) -> None:
    store = Store(tmp_path / "factory.db")
    args = FactoryArgs(rules=EASY, seed=1, walkers=1, basin_positions=300, tries=QUICK)
    progress = run_factory(args, store, seconds=120, workers=1, units=4)
    full = store.cycles(rules=EASY, full=True)
    assert full and progress.full_cycles == len(full)
    assert all(c.cards == 26 and c.composition == "-22 J2 Q2" for c in full)
    basins = store.basins(rules=EASY)
    assert basins and all(b.explored > 0 and b.closest_split == "13/13" for b in basins.values())
    deals = never_ending_deals(store, EASY)
    assert deals and progress.balanced_deals == len(deals)
    rules = rules_named(EASY)
    for deal in deals:
        hands = deal.deal.split("/")
        assert len(hands[0]) == len(hands[1]) == 13
        cycle = find_cycle(deal.deal, rules)  # the reference engine, the first hand leading
        assert cycle is not None
        assert (cycle.pre_period_tricks, cycle.pre_period_cards) == (
            deal.pre_period_tricks,
            deal.pre_period_cards,
        )
        assert (cycle.period_tricks, cycle.period_cards) == (deal.period_tricks, deal.period_cards)
        assert canonical_form(deal.deal, rules).deal == deal.cycle
    loops = store.top(rules=EASY, status="loop", limit=10_000)
    assert {f.deal for f in loops} == {d.deal for d in deals}


@pytest.mark.system
def test_an_interrupted_factory_resumed_does_exactly_what_an_uninterrupted_one_does(tmp_path: Path) -> None:
    """Two walkers on two worker processes, run for four units each, store what the same campaign
    stopped after two units and resumed stores. The three runs share one pool of workers (as runs
    on one Dask cluster do), so the workers start and load the compiled loops once, not three
    times; the fewest tries a unit allows still give balanced deals by the fourth unit."""
    args = FactoryArgs(rules=EASY, seed=2, walkers=2, basin_positions=100, tries=MIN_TRIES)
    whole = Store(tmp_path / "whole.db")
    parts = Store(tmp_path / "parts.db")
    with local_pool(2, factory._warm) as pool:
        run_factory(args, whole, seconds=300, executor=pool, units=4)
        run_factory(args, parts, seconds=300, executor=pool, units=2)
        assert parts.walkers(parts.campaign(args.to_dict())) != whole.walkers(whole.campaign(args.to_dict()))
        run_factory(args, parts, seconds=300, executor=pool, units=4)
    assert whole.walkers(whole.campaign(args.to_dict())) == parts.walkers(parts.campaign(args.to_dict()))
    assert whole.cycles() and whole.cycle_deals()
    assert {(c.deal, c.met) for c in whole.cycles()} == {(c.deal, c.met) for c in parts.cycles()}
    assert whole.cycle_deals() == parts.cycle_deals()
    assert [(m.move, m.tries, m.kept) for m in whole.move_tallies()] == [
        (m.move, m.tries, m.kept) for m in parts.move_tallies()
    ]


def _units_done(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT COALESCE(SUM(unit), 0) FROM walkers").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _contents(db: Path) -> tuple[dict[str, int], set[str], int]:
    with sqlite3.connect(db, timeout=5) as con:
        cycles = {deal: met for deal, met in con.execute("SELECT deal, met FROM cycles")}
        deals = {deal for (deal,) in con.execute("SELECT deal FROM cycle_deals")}
        tries = int(con.execute("SELECT COALESCE(SUM(tries), 0) FROM factory_moves").fetchone()[0])
    return cycles, deals, tries


@pytest.mark.system
def test_a_factory_killed_with_sigkill_resumes_and_loses_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The killed run is a process of its own (with its worker); the resumed one is the same
    command run here: what it resumes from is in the database, not in a process."""
    db = tmp_path / "factory.db"
    # One worker process, so one walker: a second doubles the work of both runs and proves nothing
    # more about resuming (two walkers resumed alike is the test above).
    command = [*BEGGAR, "factory", "--rules", EASY, "--db", str(db), "--workers", "1", "--seed", "4"]
    command += ["--basin-positions", "100", "--tries", str(MIN_TRIES), "--minutes", "5"]
    # A session of its own, so that the kill reaches the worker processes too, as a crash would.
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 240
        while _units_done(db) < 1:  # killed as soon as a unit is stored
            assert process.poll() is None, "the factory stopped by itself"
            assert time.monotonic() < deadline, "the factory made no progress"
            time.sleep(0.2)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before_units = _units_done(db)
    cycles, deals, tries = _contents(db)
    assert cycles and tries
    # Resumed for one unit more than the walker had done, not for a length of time: one unit's work.
    capsys.readouterr()
    status = run([*command[len(BEGGAR) :], "--units", str(before_units + 1), "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["resumed_after_units"] >= before_units
    after_cycles, after_deals, after_tries = _contents(db)
    assert all(after_cycles.get(deal, 0) >= met for deal, met in cycles.items())
    assert deals <= after_deals and after_tries > tries
    assert _units_done(db) > before_units


@pytest.mark.slow
def test_cycles_lists_positions_that_beggar_cycle_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "factory.db"
    run_factory(
        FactoryArgs(rules=EASY, seed=1, walkers=1, basin_positions=100, tries=FEW),
        Store(db),
        seconds=60,
        units=2,
    )
    assert run(["cycles", "--db", str(db), "--json", "--limit", "5"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed and listed == sorted(listed, key=lambda c: -c["cards"])
    for cycle in listed:
        assert {"deal", "lead", "cards", "period_tricks", "period_cards"} <= set(cycle)
        assert run(["cycle", "--rules", EASY, "--partial", "--json", cycle["deal"]]) == 0
        played = json.loads(capsys.readouterr().out)
        assert played["loops"] and played["pre_period_tricks"] == 0
        assert (played["period_tricks"], played["period_cards"]) == (
            cycle["period_tricks"],
            cycle["period_cards"],
        )
    assert run(["cycles", "--db", str(db), "--moves", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)
    assert {m["move"] for m in moves} >= {"one", "pair", "block", "twin", "run", "swap", "shift"}
    assert run(["top", "--loops", "--db", str(db), "--json"]) == 0
    assert all(f["status"] == "loop" for f in json.loads(capsys.readouterr().out))


def test_a_factory_on_a_dask_cluster_stores_its_cycles(
    dask_scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cluster.db"
    status = run(
        [
            *["factory", "--scheduler", dask_scheduler, "--rules", EASY, "--db", str(db)],
            *["--units", "1", "--walkers", "2", "--basin-positions", "50", "--tries", str(FEW)],
            *["--minutes", "2", "--json"],
        ]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["units"] == 2 and summary["positions"] > 0
    assert Store(db).cycles()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["factory", "--rules", "standard:pay=J1Q2K3A4T1"], "number cards must not pay"),
        (["factory", "--rules", "nonsense"], "unknown rules"),
        (["factory", "--rules", "counter-clockwise"], "two-player"),
        (["cycles", "--db", "/nonexistent/factory.db"], "no database"),
    ],
)
def test_bad_factory_arguments_are_refused_clearly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    extra = ["--db", str(tmp_path / "x.db"), "--minutes", "0.01"] if args[0] == "factory" else []
    status = run([*args, *extra])
    _, err = capsys.readouterr()
    assert status != 0
    assert err.startswith("beggar: ") and err.count("\n") == 1
    assert message in err


def test_factory_arguments_are_checked() -> None:
    with pytest.raises(FactoryError):
        FactoryArgs(walkers=0)
    with pytest.raises(FactoryError, match="choose kind, total or loose"):
        FactoryArgs(band="wide")
    with pytest.raises(FactoryError, match="number cards must not pay"):
        alphabet_of("standard:pay=J1Q2K3A4T1")
    assert alphabet_of("jack-pays-2").shared == {2: ("J",) * 4 + ("Q",) * 4}  # one kind, paying 2
    with pytest.raises(FactoryError, match="at least 100 tries"):
        FactoryArgs(tries=99)


def test_a_campaign_stored_before_tries_could_be_chosen_resumes_as_the_same_campaign() -> None:
    stored = {
        "kind": "factory",
        "rules": EASY,
        "seed": 1,
        "walkers": 2,
        "basin_positions": 300,
        "band": "kind",
    }
    assert FactoryArgs.from_dict(stored).to_dict() == stored
    quick = FactoryArgs(rules=EASY, tries=QUICK)
    assert FactoryArgs.from_dict(quick.to_dict()) == quick and quick.to_dict()["tries"] == QUICK


def test_the_factory_help_gives_the_defaults_the_factory_uses(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["factory", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"[default: {TRIES_PER_PARENT}; x>={MIN_TRIES}]" in text
    assert f"[default: {BASIN_POSITIONS}]" in text
    for command in ("census", "construct"):  # the walk's other commands, with --balanced
        assert run([command, "--help"]) == 0
        assert f"[default: {BASIN_POSITIONS};" in " ".join(capsys.readouterr().out.split())


def _basin(spec: str, deal: str, budget: int) -> tuple[object, list[str]]:
    from beggar.research.cycles.factory import Walker, _Unit

    args = FactoryArgs(rules=spec, basin_positions=budget)
    work = _Unit(args, Walker.start(args, 0))
    cycle = canonical_form(deal, rules_named(spec)).deal
    basin, reaching, finds = work.basin(cycle)
    assert [f.deal for f in finds] == [d.deal for d in reaching]
    return basin, [d.deal for d in reaching]


def test_the_basin_of_the_published_italian_cycle_holds_the_published_deal() -> None:
    basin, deals = _basin(ITALIAN, "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--", 200)
    rules = rules_named(ITALIAN)
    published = canonical_form("--Q------QJ----JK---/---Q---J-Q-KJ--K-K--", rules)
    assert any(d.replace("A", "-") == "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--" for d in deals), (
        "the published deal reaches its cycle one trick later"
    )
    assert all(canonical_form(d, rules).deal == published.deal for d in deals)
    assert basin.closest_split == "20/20" and basin.explored > 0  # type: ignore[attr-defined]


@pytest.mark.exhaustive
def test_the_basin_of_the_2024_cycle_is_the_30_published_deals() -> None:
    basin, deals = _basin("standard", "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA", 10_000)
    assert basin.exhausted and len(deals) == 30  # type: ignore[attr-defined]
    assert "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA" in deals
