"""``beggar exhaust`` and the deal index: brute force by the engine, resumption after SIGKILL, Dask."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.cycle import find_cycle
from beggar.deals import Arrangements, DealIndexError, deal_index, deck_arrangements
from beggar.research.cluster import connect
from beggar.research.cycles.canon import canonical_form
from beggar.research.exhaust import ExhaustDeck, ExhaustError, ExhaustStore, play_unit, run_exhaust
from beggar.research.store import Store
from beggar.rules import STANDARD, rules_named
from helpers import every_deal_by_the_engine

SMALL = ("half-deck", "6,2,1,1")
"""2,520 deals, 14 of them never end."""
ITALIAN_20 = ("court-only:deck=stripped", "14,2,2,2")
"""The 20-card Italian deck: 3,488,400 deals, 16 of them never end (published)."""


# == the index ========================================================================================


def test_the_index_round_trips_on_every_deal_of_a_small_deck() -> None:
    deck = Arrangements.of_counts({0: 4, 1: 2, 2: 1, 3: 1})
    every = sorted(set(itertools.permutations([0, 0, 0, 0, 1, 1, 2, 3])))
    assert deck.total == len(every) == 840
    for index, pays in enumerate(every):
        assert deck.unrank(index) == pays
        assert deck.rank(pays) == index


def test_the_index_round_trips_on_random_deals_of_the_standard_deck() -> None:
    deck = deck_arrangements(STANDARD)
    assert deck.total == 52 * 51 * 50 * 49 * 48 * 47 * 46 * 45 * 44 * 43 * 42 * 41 * 40 * 39 * 38 * 37 // (
        24**4
    )
    assert deck.unrank(0) == (0,) * 36 + (1,) * 4 + (2,) * 4 + (3,) * 4 + (4,) * 4
    draw = random.Random(5)
    for _ in range(200):
        index = draw.randrange(deck.total)
        pays = deck.unrank(index)
        assert deck.holds(pays) and deck.rank(pays) == index


def test_published_ranks_of_the_italian_deck_are_our_indices() -> None:
    deck = ExhaustDeck.of(rules_named("court-only:deck=stripped"))
    assert deck.total == 193_584_473_082_000
    for rank, pays in (
        (649797222495, "0000000000001003030000020201203020310010"),
        (7940399193600, "0000000100000202021010000300301002030300"),
        (106954227391669, "0130023302200030010000000010000000000021"),
    ):
        assert deck.arrangements.rank([int(c) for c in pays]) == rank
        assert deck.index_of(deck.deal(rank)) == rank


def test_a_deal_of_another_deck_or_split_has_no_index() -> None:
    assert deal_index("K-/-K") is None
    half = rules_named("half-deck")
    assert deal_index("-------------/-----JJQQKKAA", half) == 0
    assert deal_index("------------/------JJQQKKAA", half) is None  # 12 and 14 cards
    with pytest.raises(DealIndexError, match="outside this deck's deals"):
        deck_arrangements(half).unrank(3_936_933_000)


# == exhaust against the engine ======================================================================


@pytest.mark.parametrize("skip", [True, False])
def test_exhaust_agrees_with_the_engine_on_every_deal_of_a_small_deck(skip: bool) -> None:
    deck = ExhaustDeck.of(rules_named(SMALL[0]), SMALL[1])
    assert deck.total == 2520
    result = play_unit(deck.units(0, deck.total, 10**6)[0], skip=skip)
    cards, tricks, wins, never, games = every_deal_by_the_engine(*SMALL)
    assert result.deals == deck.total
    assert result.cards == dict(cards) and result.tricks == dict(tricks)
    assert result.wins == wins
    assert [n.index for n in result.never_ending] == never and len(never) == 14
    for found in result.never_ending:
        cycle = find_cycle(found.deal, deck.rules, first=0, complete=False)
        assert cycle is not None
        assert (found.period_cards, found.lead_in_cards) == (cycle.period_cards, cycle.pre_period_cards)
        assert found.cycle == canonical_form(found.deal, deck.rules).deal
    by_cards = sorted(games, key=lambda g: (-g[0], g[2]))[:100]
    by_tricks = sorted(games, key=lambda g: (-g[1], g[2]))[:100]
    assert [(g.cards, g.index) for g in result.longest["cards"]] == [(c, i) for c, _, i in by_cards]
    assert [(g.tricks, g.index) for g in result.longest["tricks"]] == [(t, i) for _, t, i in by_tricks]


def test_units_add_up_to_the_whole_and_a_range_is_its_own_deals() -> None:
    deck = ExhaustDeck.of(rules_named(SMALL[0]), SMALL[1])
    whole = play_unit(deck.units(0, deck.total, 10**6)[0])
    parts = [play_unit(unit) for unit in deck.units(0, deck.total, 97)]
    assert sum(p.deals for p in parts) == deck.total
    assert sum((Counter(p.cards) for p in parts), Counter()) == Counter(whole.cards)
    assert [n.index for p in parts for n in p.never_ending] == [n.index for n in whole.never_ending]


@pytest.mark.parametrize("count", [1, 3, 4, 5, 1000, 65_536 * 9 + 17, 1 << 24])
def test_a_unit_is_cut_into_chunks_that_shrink_towards_its_end(count: int) -> None:
    # Every deal in one chunk, a chunk for each lane where there are deals enough, none larger
    # than CHUNK, and the last chunks small, so that the lanes end a unit together.
    from beggar.research.exhaust import CHUNK, chunk_cuts

    cuts = chunk_cuts(count, 4)
    sizes = [b - a for a, b in itertools.pairwise(cuts)]
    assert (cuts[0], cuts[-1]) == (0, count)
    assert all(0 < size <= CHUNK for size in sizes)
    assert len(sizes) >= min(count, 4)
    if count > 16 * CHUNK:
        assert max(sizes[-4:]) <= CHUNK // 16


def test_a_run_cut_otherwise_plays_only_the_deals_still_missing(tmp_path: Path) -> None:
    deck = ExhaustDeck.of(rules_named(SMALL[0]), SMALL[1])
    store = ExhaustStore(Store(tmp_path / "cuts.db"))
    run_exhaust(deck, store, 130, 1000, unit_size=300)
    run_exhaust(deck, store, 0, deck.total, unit_size=500)
    done = store.done(deck.key)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(done))
    assert (done[0][0], done[-1][1]) == (0, deck.total)
    whole = ExhaustStore(Store(tmp_path / "whole.db"))
    run_exhaust(deck, whole, 0, deck.total, unit_size=10**6)
    assert store.summary(deck) == whole.summary(deck)


def test_a_unit_another_run_stored_in_part_meanwhile_is_refused_whole(tmp_path: Path) -> None:
    """Two runs on one database and deck at once, their units cut otherwise: the second to write
    a deal is refused, so that no deal is counted twice."""
    deck = ExhaustDeck.of(rules_named(SMALL[0]), SMALL[1])
    store = ExhaustStore(Store(tmp_path / "both.db"))
    store.save(deck.key, play_unit(deck.units(0, 50, 50)[0]), 100)
    before = store.summary(deck)
    for start, stop in ((10, 60), (0, 50), (49, 51)):
        with pytest.raises(ExhaustError, match="another run stored deals of the unit"):
            store.save(deck.key, play_unit(deck.units(start, stop, 100)[0]), 100)
        assert store.summary(deck) == before
    store.save(deck.key, play_unit(deck.units(50, 60, 100)[0]), 100)
    assert store.summary(deck)["deals"] == 60


# == the command: SIGKILL, Dask, JSON =================================================================


def _units(path: Path) -> list[tuple[int, int]]:
    try:
        with sqlite3.connect(path) as db:
            return [(int(a), int(b)) for a, b in db.execute("SELECT start, stop FROM exhaust_units")]
    except sqlite3.Error:
        return []


@pytest.mark.system
def test_an_exhaust_killed_resumes_with_nothing_lost_or_doubled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run killed with SIGKILL in the middle, then the same command again, store every unit once
    and report what the engine says of every deal. The killed run is a process of its own; the
    resumed one runs here (what it resumes from is in the database, not in a process)."""
    db = tmp_path / "exhaust.db"
    rules, cards = SMALL
    deck = ExhaustDeck.of(rules_named(rules), cards)
    play_unit(deck.units(0, 10, 10)[0])  # compiled here first: the runs below load the cache
    # Ten deals a unit: 252 transactions, so that the kill lands in the middle of the run.
    args = ["exhaust", "--rules", rules, "--cards", cards, "--unit-size", "10", "--workers", "1"]
    args += ["--db", str(db)]
    first = subprocess.Popen([sys.executable, "-m", "beggar", *args], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not _units(db) and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    before = set(_units(db))
    assert 0 < len(before) < 252
    capsys.readouterr()
    status = run([*args, "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    data = json.loads(out)
    after = sorted(_units(db))
    assert before <= set(after) and after == [(i, i + 10) for i in range(0, 2520, 10)]
    cards, tricks, wins, never, _ = every_deal_by_the_engine(*SMALL)
    assert data["deals"] == 2520
    assert data["lengths"]["cards"] == {str(k): v for k, v in sorted(cards.items())}
    assert data["lengths"]["tricks"] == {str(k): v for k, v in sorted(tricks.items())}
    assert (data["wins"]["first"], data["wins"]["second"]) == wins
    assert [n["index"] for n in data["never_ending"]] == never


def test_an_exhaust_on_a_dask_cluster_stores_what_a_local_run_does(
    dask_scheduler: str, tmp_path: Path
) -> None:
    deck = ExhaustDeck.of(rules_named(SMALL[0]), SMALL[1])
    local = ExhaustStore(Store(tmp_path / "local.db"))
    run_exhaust(deck, local, 0, deck.total, unit_size=500)
    remote = ExhaustStore(Store(tmp_path / "remote.db"))
    cluster = connect(dask_scheduler)
    try:
        run_exhaust(deck, remote, 0, deck.total, unit_size=500, executor=cluster.executor)
    finally:
        cluster.close()
    assert remote.summary(deck) == local.summary(deck)


def test_exhaust_json_has_the_documented_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "shape.db")
    status = run(
        ["exhaust", "--rules", SMALL[0], "--cards", SMALL[1], "--workers", "1", "--db", db, "--json"]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    data = json.loads(out)
    assert {"deals", "never_ending", "cycles", "longest", "lengths"} <= set(data)
    assert data["deals"] == 2520
    assert set(data["never_ending"][0]) >= {
        "index",
        "deal",
        "period_cards",
        "period_tricks",
        "lead_in_cards",
        "cycle",
    }
    assert set(data["cycles"][0]) >= {"deal", "period_cards", "period_tricks", "deals"}
    assert sum(c["deals"] for c in data["cycles"]) == 14
    # a cycle is printed through its one description, as every command prints it
    rules = rules_named(SMALL[0])
    for cycle in data["cycles"]:
        assert cycle == {**canonical_form(cycle["deal"], rules).to_dict(), "deals": cycle["deals"]}
    assert set(data["longest"][0]) >= {"index", "deal", "cards", "tricks"} and len(data["longest"]) == 100
    assert sum(data["lengths"]["cards"].values()) == 2520 - 14
    # run again: nothing is played twice
    assert run(["exhaust", "--rules", SMALL[0], "--cards", SMALL[1], "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr()[0]) == data
    # without --json, a few lines; and no progress bar where standard error is not a terminal
    assert run(["exhaust", "--rules", SMALL[0], "--cards", SMALL[1], "--db", db]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("half-deck (-6 J2 Q1 K1 A0): 2,520 of 2,520 deals played; 14 never end")
    assert out.endswith(" 0 units, 0 deals a second\n")  # nothing was left to play
    # Counts of one are in the singular.
    one = ["exhaust", "--rules", SMALL[0], "--cards", "4,1,1", "--to", "1", "--db", str(tmp_path / "one.db")]
    assert run(one) == 0
    out = capsys.readouterr()[0]
    assert "1 of 30 deals played; 0 never end, 1 finishes (" in out and "5 cards, 1 trick\n" in out
    assert ", 1 unit, " in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cards", "4,1,1", "--from", "5", "--to", "5"], "--to 5 must be above --from 5"),
        (["--cards", "4,1,1", "--from", "40"], "--from 40 is past the deck's 30 deals (indices 0 to 29)"),
        (["--cards", "4,1,1", "--to", "31"], "--to 31 is past the deck's 30 deals (indices 0 to 29): --to"),
        ([], "deals: more than exhaust can count, whatever --from and --to: give a smaller deck"),
    ],
)
def test_a_range_or_deck_exhaust_cannot_play_is_refused_in_one_line_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    rules = ["--rules", "half-deck"] if args else []
    assert run(["exhaust", *rules, *args, "--db", str(tmp_path / "refused.db")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("beggar: ") and err.count("\n") == 1 and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_deal_by_index_and_index_of_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["deal", "--index", "246414", "--rules", ITALIAN_20[0], "--cards", ITALIAN_20[1]]) == 0
    assert capsys.readouterr()[0] == "------K-J-/-J--K-Q-Q-\n"
    # The deal starts with '-': after the option, with or without '=', it is the option's value.
    for index_of in (["--index-of=------K-J-/-J--K-Q-Q-"], ["--index-of", "------K-J-/-J--K-Q-Q-"]):
        assert run(["deal", *index_of, "--rules", ITALIAN_20[0], "--cards", ITALIAN_20[1]]) == 0
        assert capsys.readouterr()[0] == "246414\n"
    assert run(["deal", "--index", "3936933000", "--rules", "half-deck"]) == 2
    assert "outside this deck's deals" in capsys.readouterr()[1]
    assert run(["deal", "--index-of", "K-/-K"]) == 2
    assert "are not the deck's" in capsys.readouterr()[1]
