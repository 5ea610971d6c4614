"""Specification of ``beggar.notation``: the deal notations of docs/rules.md, their errors, random deals."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from beggar.cards import HALF_DECK, STRIPPED_DECK, Card, Rank, Suit
from beggar.notation import Deal, DealError, check_deal, deal_cards, parse_deal, random_deal
from beggar.rules import PRESETS, STANDARD, EmptyHand, rules_named

MANN_WU = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"
RANKS_DEAL = "673235A9KJT6Q97359348K864J/2QK8KT785A64AJJQ4272TQT5A9"


# -- reading the notations -------------------------------------------------------------------------


def test_compact_notation_gives_one_hand_per_slash_top_card_first():
    """Compact: one string per player, top card first, '-' for any number card, AKQJ for pay cards."""
    deal = parse_deal(MANN_WU)
    assert deal.players == 2
    assert deal.size == 52
    assert [len(hand) for hand in deal.hands] == [26, 26]
    assert deal.hands[0][0] == Card(Rank.KING)
    assert deal.hands[0][1] == Card(None)
    assert deal.hands[1][3] == Card(Rank.QUEEN)
    assert not deal.has_ranks
    assert not deal.has_suits


def test_ranks_notation_reads_each_rank():
    """Ranks: 2..9, 10 (or T), J, Q, K, A without separators."""
    deal = parse_deal(RANKS_DEAL)
    assert deal.has_ranks
    assert [card.rank for card in deal.hands[0][:4]] == [Rank.SIX, Rank.SEVEN, Rank.THREE, Rank.TWO]
    assert deal.hands[0][10].rank is Rank.TEN
    assert deal.hands[1][:4] == (Card(Rank.TWO), Card(Rank.QUEEN), Card(Rank.KING), Card(Rank.EIGHT))


def test_ten_may_be_written_10_or_T_and_cards_may_be_separated_by_spaces_and_commas():
    with_tens = RANKS_DEAL.replace("T", "10")
    spaced = ", ".join(RANKS_DEAL).replace(", /, ", " / ")
    assert parse_deal(with_tens) == parse_deal(RANKS_DEAL)
    assert parse_deal(spaced) == parse_deal(RANKS_DEAL)
    assert parse_deal("\n".join(RANKS_DEAL.split("/")).replace("\n", " /\n ")) == parse_deal(RANKS_DEAL)


def test_ranks_are_read_in_lower_case_too():
    assert parse_deal(RANKS_DEAL.lower()) == parse_deal(RANKS_DEAL)


def test_full_cards_give_rank_and_suit():
    """Full cards: rank then suit letter (QH, 10S, TD, AC)."""
    deal = parse_deal("QH 10S TD AC/2C", complete=False)
    assert deal.hands[0] == (
        Card(Rank.QUEEN, Suit.HEARTS),
        Card(Rank.TEN, Suit.SPADES),
        Card(Rank.TEN, Suit.DIAMONDS),
        Card(Rank.ACE, Suit.CLUBS),
    )
    assert deal.has_suits


def test_more_than_two_hands_are_more_slash_separated_strings():
    deal = parse_deal("K--/-Q-/--J/A", complete=False)
    assert deal.players == 4
    assert [len(hand) for hand in deal.hands] == [3, 3, 3, 1]
    assert deal.hands[3] == (Card(Rank.ACE),)


def test_a_short_prepared_deal_is_allowed_only_when_not_complete():
    assert parse_deal("Q-/J", complete=False).size == 3
    with pytest.raises(DealError, match=r"the deal has 3 cards; a standard deck has 52$"):
        parse_deal("Q-/J")


# -- writing them back -----------------------------------------------------------------------------


def test_compact_notation_round_trips():
    assert parse_deal(MANN_WU).compact() == MANN_WU
    assert parse_deal(MANN_WU).format() == MANN_WU


def test_ranks_notation_round_trips_and_compact_hides_number_ranks():
    deal = parse_deal(RANKS_DEAL)
    assert deal.ranks() == RANKS_DEAL
    assert deal.format() == RANKS_DEAL
    compact = deal.compact()
    assert compact.count("-") == 36
    assert compact.startswith("------A-KJ-")


def test_full_notation_round_trips():
    deal = random_deal(seed=7)
    text = deal.full()
    assert parse_deal(text) == deal
    assert deal.format() == text
    assert parse_deal(deal.format("ranks")).ranks() == deal.ranks()


def test_notations_that_would_lose_information_are_refused():
    compact = parse_deal(MANN_WU)
    with pytest.raises(DealError, match="no rank notation"):
        compact.ranks()
    with pytest.raises(DealError, match="no suits"):
        compact.full()
    with pytest.raises(ValueError, match="unknown notation"):
        compact.format("braille")


# -- errors ----------------------------------------------------------------------------------------


def test_an_unknown_card_names_its_position_and_character():
    """A bad deal string says what is wrong and where (position and character)."""
    with pytest.raises(DealError) as info:
        parse_deal("K-/-X")
    assert "unknown card 'X'" in str(info.value)
    assert "position 5" in str(info.value)
    assert "hand 2, card 2" in str(info.value)
    assert info.value.position == 5


def test_a_lone_1_suggests_how_to_write_a_ten():
    with pytest.raises(DealError, match=r"unknown card '1' at position 3 .*10 or T") as info:
        parse_deal("QJ1/-", complete=False)
    assert info.value.position == 3


def test_a_card_that_appears_too_often_is_named_with_its_position():
    """More copies of a card than the deck holds."""
    with pytest.raises(DealError, match="too many As: the standard 52-card deck holds 4") as info:
        parse_deal("AAAAA/-", complete=False)
    assert "position 5" in str(info.value)
    assert info.value.position == 5
    with pytest.raises(DealError, match="card 'QH' appears again at position 4") as info:
        parse_deal("QH QH/2C", complete=False)
    assert info.value.position == 4


def test_too_many_number_cards_are_rejected():
    with pytest.raises(DealError, match="too many number cards: the standard 52-card deck holds 36"):
        parse_deal("-" * 30 + "/" + "-" * 7, complete=False)


@pytest.mark.parametrize(
    ("text", "total"), [(MANN_WU[:-1], 51), (RANKS_DEAL[:10] + "/" + RANKS_DEAL[-5:], 15)]
)
def test_a_deal_with_the_wrong_total_for_the_deck_is_rejected(text, total):
    with pytest.raises(DealError, match=rf"the deal has {total} cards; a standard deck has 52$"):
        parse_deal(text)


def test_the_total_is_checked_against_the_chosen_deck():
    half = random_deal(rules_named("half-deck"), seed=3)
    with pytest.raises(DealError, match=r"the deal has 25 cards; a half deck has 26$"):
        parse_deal(half.format()[:-3], HALF_DECK)
    assert parse_deal(half.format(), HALF_DECK) == half


@pytest.mark.parametrize(("text", "hand"), [("K-/", 2), ("/K-", 1), ("K/-//Q", 3)])
def test_an_empty_hand_is_rejected(text, hand):
    with pytest.raises(DealError, match=f"hand {hand} is empty"):
        parse_deal(text, complete=False)


def test_a_single_hand_or_an_empty_deal_is_rejected():
    with pytest.raises(DealError, match="at least two hands"):
        parse_deal("KQJ", complete=False)
    with pytest.raises(DealError, match="empty deal"):
        parse_deal("  ", complete=False)


def test_more_than_eight_hands_are_rejected():
    with pytest.raises(DealError, match="9 hands"):
        parse_deal("/".join("-" * 9), complete=False)


def test_mixing_suited_and_unsuited_cards_is_rejected_at_the_first_unsuited_card():
    with pytest.raises(DealError, match="card 'Q' at position 4 has no suit") as info:
        parse_deal("QH Q/2C", complete=False)
    assert info.value.position == 4
    with pytest.raises(DealError, match="no suit"):
        parse_deal("QH -/2C", complete=False)


def test_a_card_not_in_the_chosen_deck_is_rejected():
    """Stripped deck: no 8, 9, 10. Half deck: hearts and spades only."""
    with pytest.raises(DealError, match="card '9' at position 2 is not in the stripped 40-card deck"):
        parse_deal("Q9/-", STRIPPED_DECK, complete=False)
    with pytest.raises(DealError, match="card 'QC' at position 1 is not in the half 26-card deck"):
        parse_deal("QC/2H", HALF_DECK, complete=False)


def test_check_deal_reports_positions_in_the_one_character_notation():
    deal = Deal(((Card(Rank.ACE),) * 3, (Card(Rank.ACE),) * 2))
    with pytest.raises(DealError) as info:
        check_deal(deal, complete=False)
    assert info.value.position == 6  # "AAA/AA": the fifth ace is column 6


# -- dealing ---------------------------------------------------------------------------------------


def test_cards_are_dealt_one_at_a_time_round_the_table_uneven_hands_allowed():
    """Players: cards dealt one at a time round the table, uneven hands allowed."""
    cards = [Card(Rank(r)) for r in range(2, 9)]
    assert deal_cards(cards, 3).ranks() == "258/36/47"
    sizes = [len(hand) for hand in random_deal(rules_named("standard:players=3"), seed=1).hands]
    assert sizes == [18, 17, 17]


def test_random_deal_is_reproducible_from_its_seed():
    assert random_deal(seed=12345) == random_deal(seed=12345)
    assert random_deal(STANDARD, 12345) != random_deal(STANDARD, 12346)


TABLES = [
    (name, players)
    for name in sorted(PRESETS)
    for players in (2, 3, 5, 8)
    if players == 2 or PRESETS[name].empty_hand is not EmptyHand.WHEN_EMPTY  # a two-player rule
]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_random_deal_is_a_valid_whole_deal_for_every_preset_and_player_count(name, players):
    rules = PRESETS[name].replace(players=players)
    deal = random_deal(rules, seed=players)
    check_deal(deal, rules.deck)  # raises if the deal is not exactly the deck
    assert deal.players == players
    assert Counter(card for hand in deal.hands for card in hand) == Counter(rules.deck.cards())
    sizes = [len(hand) for hand in deal.hands]
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    name=st.sampled_from(["standard", "stripped", "two-decks", "half-deck"]),
    players=st.integers(2, 8),
)
def test_a_random_deal_formatted_and_parsed_again_is_the_same_deal(seed, name, players):
    rules = PRESETS[name].replace(players=players)
    deal = random_deal(rules, seed)
    assert parse_deal(deal.format(), rules.deck) == deal
    assert parse_deal(deal.format("full"), rules.deck) == deal
    unsuited = parse_deal(deal.format("ranks"), rules.deck)
    assert unsuited.ranks() == deal.ranks()
    assert [[x.rank for x in hand] for hand in unsuited.hands] == [
        [x.rank for x in hand] for hand in deal.hands
    ]
    compact = parse_deal(deal.compact(), rules.deck)
    assert compact.compact() == deal.compact()


# -- a '-' is a card that pays nothing under the rules in play -------------------------------------

ITALIAN_CYCLE = "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"


def test_the_italian_40_card_deal_is_read_under_court_only_rules():
    """Under court-only on the stripped deck (J1 Q2 K3) the four aces pay nothing, so they are '-'."""
    italian = rules_named("court-only:deck=stripped")
    deal = parse_deal(ITALIAN_CYCLE, italian.deck, rules=italian)
    assert deal.size == 40
    assert deal.compact(italian) == ITALIAN_CYCLE


def test_without_rules_a_dash_is_a_number_card_and_the_aces_cannot_be_dashes():
    italian = rules_named("court-only:deck=stripped")
    with pytest.raises(DealError, match="too many number cards"):
        parse_deal(ITALIAN_CYCLE, italian.deck)


def test_too_many_cards_that_pay_nothing_are_refused_naming_them():
    italian = rules_named("court-only:deck=stripped")
    with pytest.raises(
        DealError, match="too many cards that pay nothing: the stripped 40-card deck holds 28"
    ):
        parse_deal("-" * 29 + "/" + "JJJJQQQQKKK", italian.deck, rules=italian, complete=False)


def test_any_cards_lifts_the_deck_check_for_exercises():
    thirty_kings = "K" * 15 + "-" * 100 + "/" + "K" * 15 + "-" * 231
    with pytest.raises(DealError, match="too many Ks"):
        parse_deal(thirty_kings, complete=False)
    assert parse_deal(thirty_kings, complete=False, any_cards=True).size == 361


def test_a_runaway_deal_text_is_refused_before_it_is_read():
    with pytest.raises(DealError, match="at most 100,000"):
        parse_deal("-" * 100_001)
