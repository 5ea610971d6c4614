"""The census by period (the least stack) against brute force and against the row census."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from beggar.cycle import find_cycle
from beggar.research.cycles import periods
from beggar.research.cycles.census import Row, rows, run_census, solve_row
from beggar.research.cycles.kinds import Composition, ConstructError
from beggar.research.cycles.periods import PeriodUnit, solve_period, stack_hands
from beggar.research.cycles.solve import SAT, UNKNOWN, UNSAT, Answer, Encoding, row_solutions
from beggar.research.store import Store
from beggar.rules import STANDARD, rules_named
from helpers import brute_force, leader_cards


def _least_stack_instances(composition: Composition, max_period: int) -> set[tuple[int, int, int]]:
    """Every ``(L, k1, n1)`` of a trick end where the other seat holds the least stack of its cycle,
    from the engine playing every position of the deck (repeats of a cycle included)."""
    _, on_cycles = brute_force(composition, max_period)
    found = set()
    for deal in on_cycles:
        cycle = find_cycle(deal, composition.rules, first=0, complete=False)
        assert cycle is not None
        least = min(len(hand) for position in cycle.positions for hand in position.stacks.hands)
        leader, other = (len(hand) for hand in deal.split("/"))
        if other != least:
            continue
        k1 = leader_cards(deal, composition.rules, cycle.period_cards)
        for repeat in range(1, max_period // cycle.period_cards + 1):
            found.add((repeat * cycle.period_cards, repeat * k1, leader))
    return found


@pytest.mark.parametrize(
    ("cards", "max_period", "link", "extremes", "cardinality"),
    [
        ("5,2,1", 16, "tape", False, "counter"),
        ("4,2", 8, "tape", False, "counter"),
        ("4,2", 8, "mod", False, "counter"),
        ("5,2,1", 16, "tape", True, "counter"),
        ("4,2", 8, "tape", True, "counter"),
        ("5,2,1", 16, "tape", True, "tapes"),
        ("4,2", 8, "tape", True, "tapes"),
        ("4,2", 8, "tape", False, "tapes"),
    ],
)
def test_the_least_stack_model_agrees_with_brute_force(
    cards: str, max_period: int, link: str, extremes: bool, cardinality: str
) -> None:
    """Each instance of the least stack is ``sat`` exactly where the engine finds a position with
    those figures whose other seat holds its cycle's least stack; no hand size at most half the
    deck has one. Both links of won cards to the tapes (the number won, a counter modulo k_p), the
    stacks' bounds written per hand size or once through their extremes, and the deck's
    composition counted on the position's cells or on the tapes."""
    deck = Composition.parse(cards, STANDARD)
    encoding = Encoding(least_stack=True, focused=True, link=link, extremes=extremes, cardinality=cardinality)
    expected = _least_stack_instances(deck, max_period)
    assert expected and all(n1 in stack_hands(deck.size) for _, _, n1 in expected)
    sat = set()
    for period in range(2, max_period + 1):
        for k1 in range(1, period):
            hands = list(stack_hands(deck.size))
            for answer in row_solutions(deck, period, k1, hands, encoding=encoding):
                assert answer.status in (SAT, UNSAT)
                if answer.status == SAT:
                    assert answer.kinds is not None  # every position found holds the deck
                    assert [answer.kinds.count(kind) for kind in range(len(deck.counts))] == list(deck.counts)
                    sat.add((period, k1, answer.instance.n1))
    assert sat == expected


@pytest.mark.parametrize(
    ("spec", "cards", "max_period"),
    [("standard", "4,2", 8), ("standard:pile=newest-first", "4,2", 6), ("court-only", "5,2,1", 16)],
)
def test_the_census_by_period_answers_as_the_row_census(spec: str, cards: str, max_period: int) -> None:
    """Every instance (status and positions) and every cycle alike, period by period; the
    court-only deck only at the period of its cycle."""
    deck = Composition.parse(cards, rules_named(spec))
    sat = 0
    for period in range(2, max_period + 1) if cards == "4,2" else (max_period,):
        by_period = solve_period(spec, deck.counts, PeriodUnit(period, ()), None)
        by_rows = [solve_row(spec, deck.counts, row, None) for row in rows(deck, period, min_period=period)]
        instances = {(i.k1, i.n1, i.status, i.positions) for i in by_period.instances}
        assert instances == {(i.k1, i.n1, i.status, i.positions) for r in by_rows for i in r.instances}
        cycles = {(c.deal, c.period_cards, c.k1, c.n1) for c in by_period.cycles}
        assert cycles == {(c.deal, c.period_cards, c.k1, c.n1) for r in by_rows for c in r.cycles}
        sat += sum(1 for i in instances if i[2] == SAT)
    assert sat


def test_a_period_that_runs_out_of_time_after_a_cycle_is_unknown_and_keeps_the_cycle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As for ``beggar construct`` and the row census (``solve.instance_status``): positions found
    and then the time run out leave the instances ``unknown``, the positions and cycle kept."""
    real = periods.period_solutions

    def out_of_time_at_the_end(*args: Any, **kwargs: Any) -> Iterator[Answer]:
        answers = list(real(*args, **kwargs))
        found = next(a for a in answers if a.status == SAT)
        yield from answers
        yield Answer(found.instance, UNKNOWN, 0.0)

    deck = Composition.parse("4,2", STANDARD)
    monkeypatch.setattr(periods, "period_solutions", out_of_time_at_the_end)
    result = solve_period("standard", deck.counts, PeriodUnit(6, ()), 10.0)
    assert {i.status for i in result.instances} == {UNKNOWN}
    assert [(i.k1, i.n1) for i in result.instances if i.positions] == [(3, 4)]
    assert [c.deal for c in result.cycles] == ["--J-/J-"]


def test_the_census_decides_by_period() -> None:
    deck = Composition.parse("4,2", STANDARD)
    store = Store(":memory:")
    run_census(deck, store, 6, method="solver", workers=1)
    instances = store.census_instances(deck.key())
    assert [(i.period, i.k1, i.n1) for i in instances if i.status == SAT] == [(6, 3, 4)]
    assert [c.deal for c in store.census_cycles(deck.key())] == ["--J-/J-"]


def test_a_period_stores_only_the_rows_left() -> None:
    deck = Composition.parse("5,2,1", STANDARD)
    result = solve_period("standard", deck.counts, PeriodUnit(16, (Row(16, 8, (3, 4)),)), None)
    assert [(i.k1, i.n1, i.status) for i in result.instances] == [(8, 3, UNSAT), (8, 4, SAT)]
    assert [c.deal for c in result.cycles] == ["--J-/Q-J-"]
    assert periods.units([Row(5, 2, (1,)), Row(4, 1, (2,)), Row(5, 3, (1, 2))]) == [
        PeriodUnit(4, (Row(4, 1, (2,)),)),
        PeriodUnit(5, (Row(5, 2, (1,)), Row(5, 3, (1, 2)))),
    ]


def test_a_period_that_runs_out_of_time_is_unknown() -> None:
    deck = Composition.parse("5,2,1", STANDARD)
    result = solve_period("standard", deck.counts, PeriodUnit(16, ()), 1e-6)
    assert {i.status for i in result.instances} == {UNKNOWN}
    assert len(result.instances) == 15 * 7


@pytest.mark.parametrize(
    "encoding",
    [
        Encoding(least_stack=True),
        Encoding(least_stack=True, focused=True, free_hands=True),
        Encoding(least_stack=True, focused=True, shared_bound=True),
        Encoding(least_stack=True, focused=True, cardinality="totalizer"),
        Encoding(least_stack=True, solver="glucose4"),
        Encoding(least_leader=True, focused=True),
        Encoding(least_stack=True, focused=True, link="mod"),
        Encoding(least_stack=True, focused=True, whole_period=True),
        Encoding(least_stack=True, focused=True, extremes=True),
        Encoding(least_leader=True, focused=True, extremes=True),
        Encoding(least_stack=True, focused=True, extremes=True, cardinality="tapes"),
        Encoding(least_leader=True, focused=True, cardinality="tapes"),
        Encoding(least_stack=True, focused=True, whole_period=True, cardinality="tapes"),
        Encoding(least_stack=True, focused=True, extremes=True, cardinality="both"),
    ],
)
def test_every_measured_encoding_finds_the_same_cycles(encoding: Encoding) -> None:
    """The variants ``bench/census_sat.py`` measures find the one cycle of a period, at the same
    instance (the least leader's asked directly, the least stack's as decided from its cycles)."""
    deck = Composition.parse("5,2,1", STANDARD)
    found = periods.period_cycles(deck, 16, encoding=encoding)
    assert set(found.cycles) == {"--J-/Q-J-"}
    assert found.sat == ({(8, 4)} if encoding.least_leader else {(8, 6)})


@pytest.mark.parametrize(
    ("spec", "cards", "max_period"),
    [("standard", "4,2", 8), ("standard:pile=newest-first", "4,2", 6), ("standard", "5,2,1", 16)],
)
def test_a_whole_period_in_one_solver_finds_the_rows_cycles(spec: str, cards: str, max_period: int) -> None:
    """Every row of a period in one model (each instance under selectors, each cycle blocked at
    every trick end) finds the cycles that a model per row finds, period by period; the deck
    ``5,2,1`` only at the period of its cycle."""
    deck = Composition.parse(cards, rules_named(spec))
    whole = Encoding(least_stack=True, focused=True, whole_period=True)
    found = 0
    for period in range(2, max_period + 1) if cards == "4,2" else (max_period,):
        by_rows = periods.period_cycles(deck, period)
        in_one = periods.period_cycles(deck, period, encoding=whole)
        assert set(in_one.cycles) == set(by_rows.cycles)
        assert not in_one.unknown
        assert len(in_one.seconds) == (period - 1) * len(stack_hands(deck.size))  # every instance asked
        found += len(in_one.cycles)
    assert found


def test_a_whole_period_in_one_solver_has_no_time_limit() -> None:
    """A time limit is kept per instance, by a child process per row: one model of the whole
    period refuses one, in a sentence."""
    deck = Composition.parse("4,2", STANDARD)
    whole = Encoding(least_stack=True, focused=True, whole_period=True)
    with pytest.raises(ConstructError, match="no time limit"):
        periods.period_cycles(deck, 6, encoding=whole, time_limit=1.0)
