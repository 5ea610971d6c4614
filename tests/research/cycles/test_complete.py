"""The complete census: every position played once, against brute force and against the SAT census."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.engine import Game, PileTaken, Status
from beggar.research.cluster import bounded_workers
from beggar.research.cycles import complete
from beggar.research.cycles.canon import canonical_form
from beggar.research.cycles.census import Row, run_census, solve_row
from beggar.research.cycles.kinds import Composition, ConstructError, lead_size, leader_first
from beggar.research.cycles.solve import SAT
from beggar.research.store import Store
from beggar.rules import STANDARD, rules_named
from helpers import arrangements, brute_force


def _census(composition: Composition, max_period: int, method: str) -> tuple[set[tuple[object, ...]], ...]:
    """The stored census of one method: its instances and its cycles up to ``max_period``."""
    store = Store(":memory:")
    run_census(composition, store, max_period, method=method)
    key = composition.key()
    instances = {(i.period, i.k1, i.n1, i.status, i.positions) for i in store.census_instances(key)}
    cycles = {
        (c.deal, c.period_tricks, c.period_cards, c.symmetric, c.split_low, c.split_high, c.k1, c.n1)
        for c in store.census_cycles(key)
        if c.period_cards <= max_period
    }
    return instances, cycles


@pytest.mark.parametrize(
    ("spec", "cards", "max_period"),
    [
        ("standard", "4,2", 12),
        pytest.param("standard:pile=newest-first", "4,2", 12, marks=pytest.mark.slow),
        pytest.param("standard", "5,2,1", 16, marks=pytest.mark.slow),
    ],
)
def test_playing_every_position_and_the_solver_decide_alike(spec: str, cards: str, max_period: int) -> None:
    deck = Composition.parse(cards, rules_named(spec))
    played = _census(deck, max_period, complete.PLAY)
    solved = _census(deck, max_period, complete.SOLVER)
    assert played == solved
    assert any(instance[3] == SAT for instance in played[0])  # each deck has a cycle in range


@pytest.mark.slow
def test_a_sample_of_a_ten_card_deck_agrees_with_the_solver() -> None:
    deck = Composition.parse("6,2,1,1", STANDARD)
    store = Store(":memory:")
    run_census(deck, store, 30, method=complete.PLAY)
    played = {
        (i.n1, i.status, i.positions)
        for i in store.census_instances(deck.key())
        if (i.period, i.k1) == (30, 16)
    }
    solved = solve_row(STANDARD.name, deck.counts, Row(30, 16, (3, 4, 5)), None)
    assert {(i.n1, i.status, i.positions) for i in solved.instances} <= played
    assert [c.deal for c in solved.cycles] == [c.deal for c in store.census_cycles(deck.key())]


@pytest.mark.parametrize(
    "spec",
    [
        "standard",
        pytest.param("standard:pile=newest-first", marks=pytest.mark.slow),
        pytest.param("court-only", marks=pytest.mark.slow),
    ],
)
def test_every_cycle_of_a_small_deck_is_the_one_brute_force_finds(spec: str) -> None:
    rules = rules_named(spec)
    deck = Composition.parse("5,2,1", rules)
    _, on_cycles = brute_force(deck, 1)
    expected = {canonical_form(deal, rules).deal for deal in on_cycles}
    played = complete.play_every_position(deck)
    assert {cycle.deal for cycle in played.cycles} == expected
    assert played.positions == 168 * 7
    assert played.played == complete.playable_count(deck)  # each position a trick ends in, once


def test_position_counts_are_exact() -> None:
    italian = rules_named("court-only:deck=stripped")
    assert complete.position_count(Composition.parse("14,2,2,2", italian)) == 3_488_400 * 19
    assert complete.position_count(Composition.parse("8,2,2,1,1", STANDARD)) == 540_540 * 13
    # one visited bit per position a trick can end in, in 64-bit words
    assert complete.memory_needed(Composition.parse("14,2,2,2", italian)) == (9_879_240 + 63) // 64 * 8
    assert complete.playable_count(Composition.parse("4,3,3,2,2", STANDARD)) == 25_081_560
    twenty = Composition.parse("12,2,2,2,2", STANDARD)  # 6,031,443,600 positions, 745,298,190 played
    assert complete.memory_needed(twenty) == 93_162_280 and complete.fits(twenty, complete.DEFAULT_MEMORY)
    assert not complete.fits(Composition.of(rules_named("half-deck")), 2**30)
    beyond = Composition.parse("64,1", rules_named("two-decks"))  # 63 bits, but 65 cards: beyond a word
    assert complete.memory_needed(beyond) == 8 and not complete.fits(beyond, 2**30)


def _holds_a_paid_pay_card(values: list[int]) -> bool:
    """Whether a stack holds a pay card with at least its value of number cards just above it."""
    return any(v and i >= v and not any(values[i - v : i]) for i, v in enumerate(values))


@pytest.mark.parametrize(
    ("spec", "cards"),
    [
        ("newest-first", "4,2,1"),
        ("double-penalty:pile=newest-first", "4,1,1"),
        ("newest-first:empty-hand=when-empty", "3,1,1,1"),
    ],
)
def test_under_newest_first_a_trick_ends_where_a_paid_pay_card_is_in_the_leaders_stack(
    spec: str, cards: str
) -> None:
    deck = Composition.parse(cards, rules_named(spec))
    rules = deck.rules.unlimited()
    held = set()
    ended = set()
    for kinds in arrangements(list(deck.counts)):
        for n1 in range(1, deck.size):
            if _holds_a_paid_pay_card([deck.values[kind] for kind in kinds[:n1]]):
                held.add((tuple(kinds), n1))
            game = Game(deck.compact(kinds, n1), rules, first=0, complete=False)
            while not game.over and not any(isinstance(e, PileTaken) for e in game.step()):
                pass
            if game.record is None or game.record.status is Status.LOOP:  # a trick ended
                position = game.position()
                ended.add((tuple(leader_first(deck, position)), lead_size(position)))
    # every position a trick ends in holds one, and (but for a stack emptied on the way) the converse
    assert ended <= held and len(held) == complete.playable_count(deck)
    assert ended == held or "when-empty" in spec
    played = complete.play_every_position(deck)
    assert played.played == len(held) < played.positions == complete.indexed_count(deck)


def test_two_walkers_find_the_cycles_one_finds() -> None:
    deck = Composition.parse("6,2,1,1,1", STANDARD)
    one = complete.play_every_position(deck, workers=1)
    two = complete.play_every_position(deck, workers=2)
    assert two.cycles == one.cycles and len(one.cycles) == 5
    assert one.walkers == 1 and two.walkers == bounded_workers(2)
    assert two.played == one.played == complete.playable_count(deck)


def test_a_cycle_the_engine_does_not_play_so_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(complete, "find_cycle", lambda *args, **kwargs: None)
    store = Store(":memory:")
    with pytest.raises(ConstructError, match="the compiled play and the engine disagree"):
        run_census(Composition.parse("4,2", STANDARD), store, 6, method=complete.PLAY)
    assert store.census_instances("standard[4,2,0,0,0]") == []


def test_the_census_says_which_method_decided_each_instance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"{tmp_path}/census.db"
    args = ["census", "--cards", "5,2,1", "--max-period", "16", "--db", db]
    assert run([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {instance["method"] for instance in data["instances"]} == {"play"}
    assert len(data["instances"]) == 7 * sum(period - 1 for period in range(2, 17))
    assert [cycle["deal"] for cycle in data["cycles"]] == ["--J-/Q-J-"]
    assert data["play"]["positions"] == 168 * 7 and data["play"]["max_period"] == 16
    before = Store(db).census_play("standard[5,2,1,0,0]")
    assert run([*args, "--max-period", "12"]) == 0  # decided already: nothing is played again
    out = capsys.readouterr().out
    assert "play │" in out and "decided to 16 cards by playing every position: 1,176 positions" in out
    assert "; 0 cycles; 11 periods proved to have none;" in out and ", 1 cycle of every period," in out
    assert Store(db).census_play("standard[5,2,1,0,0]") == before
    # Playing every position runs on this machine's threads: a scheduler is said to be unused, and
    # is not connected to (none listens at this address).
    assert run([*args, "--scheduler", "tcp://127.0.0.1:9"]) == 0
    assert "--scheduler serves the solver only and is not used" in capsys.readouterr().err


def test_the_solver_decides_beyond_the_budget(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["census", "--cards", "5,2,1", "--max-period", "3", "--db", str(tmp_path / "c.db"), "--json"]
    assert run([*args, "--method", "solver"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {instance["method"] for instance in data["instances"]} == {"solver"} and data["play"] is None
    assert (
        run(
            [
                "census",
                "--max-period",
                "3",
                "--db",
                str(tmp_path / "d.db"),
                "--method",
                "play",
                "--memory",
                "1",
            ]
        )
        != 0
    )
    err = capsys.readouterr().err
    assert "can end a trick: their visited bits need" in err and "more than the budget of 1.0 MiB" in err
    wide = ["census", "--rules", "two-decks", "--cards", "64,1", "--max-period", "3", "--method", "play"]
    assert run([*wide, "--db", str(tmp_path / "e.db")]) != 0
    assert "the walk plays decks of at most 64 cards" in capsys.readouterr().err
