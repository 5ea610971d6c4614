"""Cycle analysis: where a never-ending deal enters its cycle, and how long the cycle is."""

from __future__ import annotations

import pytest

from beggar.cycle import find_cycle
from beggar.engine import Game
from beggar.records import NEVER_ENDING, RECORDS
from beggar.rules import STANDARD, rules_named


def test_the_2024_deal_enters_a_cycle_of_62_tricks() -> None:
    cycle = find_cycle(NEVER_ENDING.deal)
    assert cycle is not None
    assert cycle.period_tricks == NEVER_ENDING.cycle_tricks == 62
    assert (cycle.pre_period_tricks, cycle.pre_period_cards, cycle.period_cards) == (4, 34, 440)


def test_the_positions_on_the_cycle_are_the_trick_ends_from_the_entry_and_come_round_again() -> None:
    cycle = find_cycle(NEVER_ENDING.deal)
    assert cycle is not None
    assert len(cycle.positions) == 62
    game = Game(NEVER_ENDING.deal, STANDARD.replace(repeat=STANDARD.repeat.OFF, max_tricks=4 + 62 * 2))
    seen = []
    while not game.over:
        before = game.tricks
        game.step()
        if game.tricks != before and not game.over:
            seen.append(str(game.position()))
    entry = cycle.pre_period_tricks - 1
    assert seen[entry : entry + 62] == [str(p) for p in cycle.positions]
    assert seen[entry + 62 : entry + 124] == [str(p) for p in cycle.positions]
    assert len(set(seen[entry : entry + 62])) == 62


def test_a_small_loop_that_returns_to_the_start() -> None:
    cycle = find_cycle("--J-/J-", complete=False)
    assert cycle is not None
    assert cycle.pre_period_tricks == 0 and cycle.pre_period_cards == 0
    assert cycle.positions[0].stacks.compact() == "--J-/J-"


def test_a_small_loop_entered_after_a_lead_in() -> None:
    cycle = find_cycle("J--/-J-", complete=False)
    assert cycle is not None
    assert (cycle.pre_period_cards, cycle.pre_period_tricks) == (2, 1)
    assert cycle.period_tricks >= 1 and cycle.period_cards >= 2


@pytest.mark.parametrize("game", RECORDS[:3], ids=lambda g: f"{g.finder} {g.year}")
def test_a_deal_that_ends_has_no_cycle(game: object) -> None:
    assert find_cycle(game.deal) is None  # type: ignore[attr-defined]


def test_limits_do_not_hide_a_cycle() -> None:
    cycle = find_cycle(NEVER_ENDING.deal, rules_named("practice-table:max-cards=100"))
    assert cycle is not None and cycle.period_tricks == 62


def test_the_json_keys_the_issue_names() -> None:
    cycle = find_cycle(NEVER_ENDING.deal)
    assert cycle is not None
    data = cycle.to_dict()
    assert {"pre_period_tricks", "pre_period_cards", "period_tricks", "period_cards", "positions"} <= set(
        data
    )
    assert data["positions"][0] == {"stacks": cycle.positions[0].stacks.compact(), "leader": 1}
