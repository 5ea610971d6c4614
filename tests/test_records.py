"""Specification of ``beggar.records``: the published record games and the first never-ending deal,
replayed under the record-keepers' counting convention of docs/rules.md."""

from __future__ import annotations

from typing import Any

import pytest

from beggar.engine import Game, PileTaken, Reason, Status, play
from beggar.notation import parse_deal
from beggar.records import ALL_GAMES, NEVER_ENDING, RECORDS, PublishedGame
from beggar.rules import STANDARD, rules_named


def _label(game: PublishedGame) -> str:
    return f"{game.finder}-{game.year}"


@pytest.mark.parametrize("game", RECORDS, ids=_label)
def test_every_record_game_reproduces_its_published_cards_tricks_and_winner(game):
    """docs/rules.md, 'Counting a game': cards turned, piles taken (the last included), the winner."""
    record = game.replay()
    assert record.status is Status.FINISHED
    assert (record.cards, record.tricks, record.winner) == (game.cards, game.tricks, game.winner)
    assert record.holdings[game.winner] == 52
    assert record.first == 0


@pytest.mark.parametrize("game", ALL_GAMES, ids=_label)
def test_every_published_deal_is_a_whole_standard_deck_in_compact_notation(game):
    deal = parse_deal(game.deal)
    assert deal.size == 52
    assert [len(hand) for hand in deal.hands] == [26, 26]
    assert deal.compact() == game.deal


def test_the_two_records_quoted_in_rules_md_are_in_the_table():
    published = {(g.deal, g.cards, g.tricks, g.winner) for g in RECORDS}
    assert ("K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--", 7157, 1007, 1) in published
    assert ("------------KAQ----J------/-JQQK---K----JK--QA-A-JA--", 4791, 670, 0) in published


def test_the_records_are_listed_oldest_first_and_each_beats_the_last():
    years = [g.year for g in RECORDS]
    cards = [g.cards for g in RECORDS]
    assert years == sorted(years)
    assert cards == sorted(cards)
    assert RECORDS[-1].cards == 8344


def test_replay_plays_the_standard_game():
    game = RECORDS[0]
    assert game.replay() == play(game.deal, STANDARD)


# -- the never-ending deal -------------------------------------------------------------------------


def test_the_never_ending_deal_is_reported_as_a_loop():
    """Casella et al. 2024: the deal never terminates; the engine reports 'loop' at the first repeat."""
    record = NEVER_ENDING.replay()
    assert record.status is Status.LOOP
    assert record.reason is Reason.REPEAT
    assert record.winner is None
    assert (record.cards, record.tricks) == (474, 66)
    assert record.repeat_of == (34, 4)
    assert sum(record.holdings) == 52


def test_the_never_ending_deal_cycles_every_62_tricks_and_440_cards():
    """The loop found: its period is the counts at the repeat minus the counts at the first sighting."""
    record = NEVER_ENDING.replay()
    assert record.repeat_of is not None
    assert record.tricks - record.repeat_of[1] == 62 == NEVER_ENDING.cycle_tricks
    assert record.cards - record.repeat_of[0] == 440


def _trick_end_positions(tricks: int) -> list[tuple[Any, ...]]:
    """Both stacks and the leader after each of the first ``tricks`` tricks (index 0: the deal)."""
    rules = rules_named(f"standard:repeat=off:max-tricks={tricks}")
    game = Game(NEVER_ENDING.deal, rules)
    positions = [(tuple(map(tuple, game.stacks)), game.to_play, game.cards)]
    while not game.over:
        if any(isinstance(event, PileTaken) for event in game.step()):
            positions.append((tuple(map(tuple, game.stacks)), game.to_play, game.cards))
    assert game.record is not None and game.record.status is Status.STOPPED
    return positions


def test_the_papers_statement_holds_the_deal_enters_a_cycle_of_exactly_62_tricks():
    """Checked without repeat detection: from trick 4 on, every trick-end position comes back 62 tricks
    later with 440 more cards turned, no shorter period exists, and nobody ever wins."""
    positions = _trick_end_positions(4 + 62 * 4)
    for t in range(4, len(positions) - 62):
        assert positions[t][:2] == positions[t + 62][:2]
        assert positions[t + 62][2] - positions[t][2] == 440
    cycle = [p[:2] for p in positions[4:66]]
    assert len(set(cycle)) == 62  # no shorter cycle
    assert positions[3][:2] != positions[65][:2]  # the cycle starts at trick 4, not before
    assert all(p[:2] not in cycle for p in positions[:4])


def test_the_never_ending_deal_has_no_published_counts():
    assert NEVER_ENDING.cards is None and NEVER_ENDING.tricks is None and NEVER_ENDING.winner is None
    assert NEVER_ENDING not in RECORDS
    assert (*RECORDS, NEVER_ENDING) == ALL_GAMES
