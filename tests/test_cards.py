"""Specification of ``beggar.cards``: ranks, suits, cards and the decks of docs/rules.md."""

from __future__ import annotations

from collections import Counter

import pytest

from beggar.cards import (
    COURT_AND_ACE,
    DECKS,
    DOUBLE_DECK,
    HALF_DECK,
    NUMBER_RANKS,
    STANDARD_DECK,
    STRIPPED_DECK,
    Card,
    Rank,
    Suit,
    deck_named,
)

# -- ranks -----------------------------------------------------------------------------------------


def test_two_to_ten_are_number_ranks_and_jack_to_ace_are_not():
    """Rule 3: 2 to 10 are number cards; rule 4: J, Q, K, A are the pay cards."""
    assert [int(r) for r in NUMBER_RANKS] == list(range(2, 11))
    assert all(r.is_number for r in NUMBER_RANKS)
    assert COURT_AND_ACE == (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    assert not any(r.is_number for r in COURT_AND_ACE)


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("2", Rank.TWO),
        ("9", Rank.NINE),
        ("10", Rank.TEN),
        ("T", Rank.TEN),
        ("t", Rank.TEN),
        ("J", Rank.JACK),
        ("q", Rank.QUEEN),
        ("K", Rank.KING),
        ("A", Rank.ACE),
    ],
)
def test_rank_symbols_of_the_deal_notation_are_read_in_any_case(text, rank):
    """Deal notation: ranks are 2..9, 10 (or T), J, Q, K, A."""
    assert Rank.from_symbol(text) is rank


@pytest.mark.parametrize("text", ["1", "11", "X", "", "B", "0"])
def test_an_unknown_rank_symbol_is_rejected(text):
    with pytest.raises(ValueError, match="unknown rank"):
        Rank.from_symbol(text)


def test_ten_is_written_T_as_one_symbol_and_10_as_a_label():
    assert Rank.TEN.symbol == "T"
    assert Rank.TEN.label == "10"
    assert Rank.ACE.symbol == Rank.ACE.label == "A"
    assert Rank.SEVEN.noun == "seven"
    assert Rank.QUEEN.noun == "queen"


def test_every_rank_symbol_reads_back_as_its_rank():
    for rank in Rank:
        assert Rank.from_symbol(rank.symbol) is rank
        assert Rank.from_symbol(rank.label) is rank


# -- cards -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("-", Card(None)),
        ("Q", Card(Rank.QUEEN)),
        ("10", Card(Rank.TEN)),
        ("T", Card(Rank.TEN)),
        ("QH", Card(Rank.QUEEN, Suit.HEARTS)),
        ("10S", Card(Rank.TEN, Suit.SPADES)),
        ("TD", Card(Rank.TEN, Suit.DIAMONDS)),
        ("ac", Card(Rank.ACE, Suit.CLUBS)),
        (" 7h ", Card(Rank.SEVEN, Suit.HEARTS)),
    ],
)
def test_a_card_is_parsed_from_dash_rank_or_rank_and_suit(text, card):
    """Deal notation: ``-``, a rank, or a rank then a suit letter (QH, 10S, TD, AC)."""
    assert Card.parse(text) == card


def test_the_dash_is_a_number_card_of_unspecified_rank():
    blank = Card(None)
    assert blank.is_blank_number
    assert blank.is_number
    assert str(blank) == "-"
    assert blank.noun == "number card"


def test_number_and_pay_cards_are_told_apart_by_rank_only():
    """Rule 4: suits never matter."""
    for suit in Suit:
        assert Card(Rank.TEN, suit).is_number
        assert not Card(Rank.JACK, suit).is_number
    assert not Card(Rank.TEN).is_blank_number


def test_a_card_prints_as_it_is_written_in_the_notation():
    assert str(Card(Rank.TEN, Suit.SPADES)) == "TS"
    assert str(Card(Rank.QUEEN)) == "Q"
    assert Card(Rank.TEN, Suit.SPADES).label == "10♠"
    assert Card.parse(str(Card(Rank.KING, Suit.DIAMONDS))) == Card(Rank.KING, Suit.DIAMONDS)


# -- decks -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "size"), [(STANDARD_DECK, 52), (STRIPPED_DECK, 40), (DOUBLE_DECK, 104), (HALF_DECK, 26)]
)
def test_each_deck_of_the_variants_table_has_its_size(deck, size):
    """Variants: 52 cards; stripped 40 (no 8, 9, 10); two decks 104; half deck 26 (two suits)."""
    assert deck.size == size
    assert len(deck.cards()) == size
    assert len(list(deck)) == size


def test_the_standard_deck_holds_every_card_once():
    """Rule 1: 52 cards, no jokers."""
    cards = STANDARD_DECK.cards()
    assert len(set(cards)) == 52
    assert all(card.rank is not None and card.suit is not None for card in cards)
    assert STANDARD_DECK.number_cards == 36
    assert all(STANDARD_DECK.count(rank) == 4 for rank in Rank)


def test_the_stripped_deck_has_no_eights_nines_or_tens():
    ranks = {card.rank for card in STRIPPED_DECK.cards()}
    assert ranks.isdisjoint({Rank.EIGHT, Rank.NINE, Rank.TEN})
    assert STRIPPED_DECK.count(Rank.NINE) == 0
    assert STRIPPED_DECK.count(Rank.ACE) == 4
    assert STRIPPED_DECK.number_cards == 24


def test_two_decks_hold_every_card_twice():
    counts = Counter(DOUBLE_DECK.cards())
    assert len(counts) == 52
    assert set(counts.values()) == {2}
    assert DOUBLE_DECK.count(Rank.ACE) == 8


def test_the_half_deck_has_two_suits_of_thirteen():
    suits = Counter(card.suit for card in HALF_DECK.cards())
    assert suits == {Suit.HEARTS: 13, Suit.SPADES: 13}
    assert HALF_DECK.count(Rank.JACK) == 2


@pytest.mark.parametrize(
    ("name", "deck"),
    [
        ("standard", STANDARD_DECK),
        ("52", STANDARD_DECK),
        ("stripped", STRIPPED_DECK),
        ("40", STRIPPED_DECK),
        ("double", DOUBLE_DECK),
        ("104", DOUBLE_DECK),
        ("half", HALF_DECK),
        ("26", HALF_DECK),
        ("HALF", HALF_DECK),
    ],
)
def test_a_deck_is_found_by_name_or_size(name, deck):
    assert deck_named(name) is deck


def test_an_unknown_deck_is_rejected_with_the_choices():
    with pytest.raises(ValueError, match=r"unknown deck 'pinochle'.*stripped"):
        deck_named("pinochle")


def test_the_deck_table_lists_the_four_decks():
    assert set(DECKS) == {"standard", "stripped", "double", "half"}
    assert STANDARD_DECK.describe() == "standard 52-card deck"
