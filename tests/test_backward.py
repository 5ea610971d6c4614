"""Backward play: positions one trick earlier, and the starting deals that reach a cycle."""

from __future__ import annotations

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


@pytest.mark.slow
def test_the_2024_cycle_is_reached_by_30_starting_deals() -> None:
    """Casella and co-authors: a cycle of 62 tricks reached by 30 distinct starting hands."""
    cycle = find_cycle(NEVER_ENDING.deal)
    assert cycle is not None
    found = deals_reaching(cycle.positions, max_tricks=12)
    assert found.complete
    assert found.positions_by_depth[-1] == 0  # nothing further back: the count is exhaustive
    assert len(found.deals) == 30
    assert found.deals[NEVER_ENDING.deal] == cycle.pre_period_tricks
    for deal, tricks in found.deals.items():
        record = play(deal)
        assert record.status is Status.LOOP
        reached = find_cycle(deal)
        assert reached is not None and reached.period_tricks == 62 and reached.pre_period_tricks <= tricks
