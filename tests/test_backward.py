"""Backward play: positions one trick earlier, and the starting deals that reach a cycle."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from beggar.backward import deals_reaching, leads_to, predecessors
from beggar.cycle import find_cycle
from beggar.engine import Game, PileTaken, Position, Status, play
from beggar.notation import random_deal
from beggar.records import NEVER_ENDING
from beggar.rules import STANDARD, rules_named


def positions_of(deal: str, rules=STANDARD, limit: int = 40) -> list[Position]:  # type: ignore[no-untyped-def]
    """The trick-end positions of a game, from the start, while nobody has run out."""
    game = Game(deal, rules)
    found = [game.position()]
    while not game.over and len(found) < limit:
        if any(isinstance(event, PileTaken) for event in game.step()) and not game.over:
            found.append(game.position())
    return found


def played_forward(before: Position, rules=STANDARD) -> Position:  # type: ignore[no-untyped-def]
    """One trick from ``before``, played by the engine: an independent check of each predecessor."""
    game = Game(before.stacks, rules, first=before.leader, complete=False)
    while True:
        events = game.step()
        if any(isinstance(event, PileTaken) for event in events):
            return game.position()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), at=st.integers(1, 30))
def test_every_predecessor_really_leads_to_the_position_and_the_true_one_is_found(seed: int, at: int) -> None:
    positions = positions_of(random_deal(seed=seed).compact())
    if at >= len(positions):
        at = len(positions) - 1
    if at < 1:
        return
    target, truth = positions[at], positions[at - 1]
    found = predecessors(target)
    for before in found:
        after = played_forward(before)
        assert (after.stacks.compact(), after.leader) == (target.stacks.compact(), target.leader)
    assert (truth.stacks.compact(), truth.leader) in {(b.stacks.compact(), b.leader) for b in found}


@pytest.mark.parametrize("spec", ["newest-first", "jack-pays-2", "double-penalty", "lose-when-empty"])
def test_backward_play_follows_the_rules_variant(spec: str) -> None:
    rules = rules_named(spec)
    deal = random_deal(rules, seed=11).compact()
    positions = positions_of(deal, rules)
    for target, truth in zip(positions[1:8], positions[:7], strict=False):
        found = predecessors(target, rules)
        assert all(leads_to(before, target, rules) for before in found)
        assert (truth.stacks.compact(), truth.leader) in {(b.stacks.compact(), b.leader) for b in found}


def test_the_first_position_of_a_game_may_have_no_predecessor() -> None:
    start = Game("K" * 4 + "-" * 22 + "/" + "Q" * 4 + "J" * 4 + "A" * 4 + "-" * 14).position()
    assert all(leads_to(before, start) for before in predecessors(start))


def test_backward_play_is_for_two_players() -> None:
    rules = rules_named("standard:players=3")
    position = Game(random_deal(rules, seed=1), rules).position()
    with pytest.raises(ValueError, match="two-player"):
        predecessors(position, rules)


def _leader_first(position: Position) -> str:
    """A position with the leader's stack written first: the same position from either seat."""
    hands = position.stacks.compact().split("/")
    return f"{hands[position.leader]}/{hands[1 - position.leader]}"


def test_backward_play_finds_exactly_the_deals_that_reach_a_cycle() -> None:
    """Against brute force: every deal of the half deck whose only pay cards are two jacks (325
    deals, the first hand leading) played forward by the engine, and each deal's lead-in."""
    rules = rules_named("half-deck:pay=J1")
    reaching: dict[frozenset[str], dict[str, int]] = {}
    cycles = {}
    for jacks in itertools.combinations(range(26), 2):
        cards = "".join("J" if place in jacks else "-" for place in range(26))
        deal = f"{cards[:13]}/{cards[13:]}"
        cycle = find_cycle(deal, rules)
        if cycle is not None:
            on_cycle = frozenset(_leader_first(position) for position in cycle.positions)
            reaching.setdefault(on_cycle, {})[deal] = cycle.pre_period_tricks
            cycles[on_cycle] = cycle
    assert len(reaching) == 1  # one cycle, which 20 deals reach, from either seat
    ((on_cycle, expected),) = reaching.items()
    assert len(expected) == 20 and set(expected.values()) == {1, 2}
    found = deals_reaching(cycles[on_cycle].positions, rules, max_tricks=50)
    assert found.exhausted and found.complete  # nothing further back: the walk ended by itself
    assert found.deals == expected


# The 30 starting deals that reach the 2024 cycle (Casella and co-authors), each with the tricks
# its game plays before a position of the cycle, as backward play finds them in
# test_the_2024_cycle_is_reached_by_30_starting_deals.
DEALS_REACHING_2024: dict[str, int] = {
    "-----------------KA------J/Q-K---Q-KQQJ----A-KAAJ--J-": 6,
    "-----------------KQ------J/Q-K---Q-KAQJ----A-KAAJ--J-": 6,
    "---------------KA----J----/-K---Q-KQQJ--A-KAAJ--J--Q-": 5,
    "---------------KQ----J----/-K---Q-KAQJ--A-KAAJ--J--Q-": 5,
    "--------------KA---J------/K---Q-KQQJ-A-KAAJ--J--Q---": 5,
    "--------------KQ---J------/K---Q-KAQJ-A-KAAJ--J--Q---": 5,
    "-----------Q----KQ-K-J----/---K---A-KQQJ-A----AAJ--J-": 4,
    "-----------Q----KQ-K-J----/---K---Q-KQAJ-A----AAJ--J-": 4,
    "----------Q----KQ--J-----K/--K---A-KQQJA----AAJ--J---": 4,
    "----------Q----KQ--J-----K/--K---Q-KQAJA----AAJ--J---": 4,
    "----------Q----KQ-J-----KA/--K---A-KQQJ-----AAJ--J---": 4,
    "----------Q----KQ-J-----KA/--K---Q-KQAJ-----AAJ--J---": 4,
    "----K---A-KQQJ-A----AAJ--J/-----------Q----KQ-K-J----": 4,
    "----K---Q-KQAJ-A----AAJ--J/-----------Q----KQ-K-J----": 4,
    "---K---A-KQQJ-----AAJ--J--/----------Q----KQ-J-----KA": 4,
    "---K---A-KQQJA----AAJ--J--/----------Q----KQ--J-----K": 4,
    "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA": 4,
    "---K---Q-KQAJA----AAJ--J--/----------Q----KQ--J-----K": 4,
    "--K---Q-KAQJ--A-KAAJ--J--Q/---------------KQ----J----": 5,
    "--K---Q-KQQJ--A-KAAJ--J--Q/---------------KA----J----": 5,
    "-K---Q-KAQJ-A-KAAJ--J--Q--/--------------KQ---J------": 5,
    "-K---Q-KQQJ-A-KAAJ--J--Q--/--------------KA---J------": 5,
    "-Q-K---Q-KAQJ----A-KAAJ--J/-----------------KQ------J": 6,
    "-Q-K---Q-KQQJ----A-KAAJ--J/-----------------KA------J": 6,
    "K---Q-KAQJ--KAAJ--J--Q----/-------------KQ-J--------A": 5,
    "K---Q-KAQJA-KAAJ--J--Q----/-------------KQ--J--------": 5,
    "K---Q-KQQJ--KAAJ--J--Q----/-------------KA-J--------A": 5,
    "K---Q-KQQJA-KAAJ--J--Q----/-------------KA--J--------": 5,
    "Q-K---Q-KAQJ---A-KAAJ--J--/----------------KQ-----J--": 6,
    "Q-K---Q-KQQJ---A-KAAJ--J--/----------------KA-----J--": 6,
}


def test_the_30_deals_that_reach_the_2024_cycle_run_into_it() -> None:
    cycle = find_cycle(NEVER_ENDING.deal)
    assert cycle is not None
    assert len(DEALS_REACHING_2024) == 30
    assert DEALS_REACHING_2024[NEVER_ENDING.deal] == cycle.pre_period_tricks
    on_cycle = {_leader_first(position) for position in cycle.positions}
    for deal, tricks in DEALS_REACHING_2024.items():
        hands = deal.split("/")
        assert len(hands[0]) == len(hands[1]) == 26
        assert play(deal).status is Status.LOOP
        reached = find_cycle(deal)
        assert reached is not None and reached.pre_period_tricks == tricks
        assert {_leader_first(position) for position in reached.positions} == on_cycle


@pytest.mark.exhaustive
def test_the_2024_cycle_is_reached_by_30_starting_deals() -> None:
    """Casella and co-authors: a cycle of 62 tricks reached by 30 distinct starting hands.

    A minute of backward play: the default run checks the method against brute force on a small
    deck and these 30 deals forward (the two tests above)."""
    cycle = find_cycle(NEVER_ENDING.deal)
    assert cycle is not None
    found = deals_reaching(cycle.positions, max_tricks=12)
    assert found.complete
    assert found.positions_by_depth[-1] == 0  # nothing further back: the count is exhaustive
    assert found.deals == DEALS_REACHING_2024
    for deal in found.deals:
        record = play(deal)
        assert record.status is Status.LOOP
