"""Each preset of docs/rules.md's presets table really changes the game the way its rule says."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from beggar.cards import Card, Rank, Suit
from beggar.engine import (
    CardTurned,
    Game,
    GameError,
    Outcome,
    PaymentDue,
    PileTaken,
    PlayerOut,
    Reason,
    Status,
    play,
)
from beggar.notation import DealError, random_deal
from beggar.records import NEVER_ENDING, RECORDS
from beggar.rules import PRESETS, STANDARD, rules_named

N = Card(None)
J, Q, K, A = (Card(rank) for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE))
PAULHUS = RECORDS[0]


def c(text: str) -> Card:
    return Card.parse(text)


def steps(game: Game, count: int) -> list[Any]:
    events: list[Any] = []
    for _ in range(count):
        events.extend(game.step())
    return events


def until_trick(game: Game) -> list[Any]:
    events: list[Any] = []
    while not any(isinstance(e, PileTaken) for e in events):
        events.extend(game.step())
    return events


# -- pay values ------------------------------------------------------------------------------------


def test_jack_pays_2_makes_the_payer_turn_two_cards_after_a_jack():
    """Strip Jack Naked regional scale: the jack asks for two cards."""
    jack_pays_2 = Game("J--/---", rules_named("jack-pays-2"), complete=False)
    standard = Game("J--/---", complete=False)
    assert until_trick(jack_pays_2)[-1] == PileTaken(0, (J, N, N), 1, True)
    assert until_trick(standard)[-1] == PileTaken(0, (J, N), 1, True)


@pytest.mark.parametrize(("card", "owed"), [(J, 2), (Q, 4), (K, 6), (A, 8)])
def test_double_penalty_doubles_every_price(card, owed):
    """Double penalty: an ace asks for 8 cards, a king 6, a queen 4, a jack 2."""
    game = Game(f"{card}-/---------", rules_named("double-penalty"), complete=False)
    assert game.step()[-1] == PaymentDue(1, 0, owed, card)
    events = until_trick(game)
    assert [e.player for e in events if isinstance(e, CardTurned)] == [1] * owed
    assert len(events[-1].cards) == owed + 1


def test_court_only_makes_the_ace_an_ordinary_card():
    """Fewer pay ranks: J Q K only."""
    game = Game("A-/K-", rules_named("court-only"), complete=False)
    assert game.step() == [CardTurned(0, A, 1, False, 0)]
    assert game.to_play == 1
    assert game.step()[-1] == PaymentDue(0, 1, 3, K)


def test_jacks_queens_makes_kings_and_aces_ordinary_cards():
    """Fewer pay ranks: J Q only."""
    game = Game("KA-/Q-", rules_named("jacks-queens"), complete=False)
    assert steps(game, 1) == [CardTurned(0, K, 1, False, 0)]
    assert steps(game, 1)[-1] == PaymentDue(0, 1, 2, Q)
    assert steps(game, 1) == [CardTurned(0, A, 3, True, 0)]


# -- decks -----------------------------------------------------------------------------------------


def test_the_stripped_deck_deals_40_cards_without_eights_nines_or_tens():
    rules = rules_named("stripped")
    deal = random_deal(rules, seed=5)
    cards = [card for hand in deal.hands for card in hand]
    assert len(cards) == 40
    assert [len(hand) for hand in deal.hands] == [20, 20]
    assert not {card.rank for card in cards} & {Rank.EIGHT, Rank.NINE, Rank.TEN}
    record = play(deal, rules)
    assert sum(record.holdings) == 40
    with pytest.raises(DealError, match="40-card"):
        Game(random_deal(seed=5), rules)


def test_two_decks_deal_104_cards_with_every_card_twice():
    rules = rules_named("two-decks")
    deal = random_deal(rules, seed=5)
    counts = Counter(card for hand in deal.hands for card in hand)
    assert sum(counts.values()) == 104
    assert set(counts.values()) == {2}
    assert [len(hand) for hand in deal.hands] == [52, 52]
    assert sum(play(deal, rules).holdings) == 104


def test_the_half_deck_deals_26_cards_of_hearts_and_spades():
    rules = rules_named("half-deck")
    deal = random_deal(rules, seed=5)
    cards = [card for hand in deal.hands for card in hand]
    assert len(cards) == 26
    assert [len(hand) for hand in deal.hands] == [13, 13]
    assert {card.suit for card in cards} == {Suit.HEARTS, Suit.SPADES}
    record = play(deal, rules)
    if record.status is Status.FINISHED:
        assert record.holdings[record.winner] == 26


# -- the table -------------------------------------------------------------------------------------


def test_counter_clockwise_passes_the_turn_to_the_last_seat_first():
    """Suck the Well: with four players the second card is turned by seat 3, who also pays."""
    rules = rules_named("counter-clockwise")
    assert rules.players == 4
    game = Game("-Q/--/--/--", rules, complete=False)
    assert [e.player for e in steps(game, 4)] == [0, 3, 2, 1]
    assert game.step() == [CardTurned(0, Q, 5, False, 2), PaymentDue(3, 0, 2, Q)]
    clockwise = Game("-Q/--/--/--", rules_named("standard:players=4"), complete=False)
    assert [e.player for e in steps(clockwise, 4)] == [0, 1, 2, 3]


def test_newest_first_puts_the_won_pile_under_the_stack_reversed():
    """Pile order variant: the pile is picked up face up, so its newest card goes under first."""
    deal = "7J345/8Q2345"
    oldest = Game(deal, complete=False)
    newest = Game(deal, rules_named("newest-first"), complete=False)
    until_trick(oldest)
    until_trick(newest)
    pile = [c(x) for x in "78JQ34"]
    assert list(oldest.stacks[1]) == [c(x) for x in "2345"] + pile
    assert list(newest.stacks[1]) == [c(x) for x in "2345"] + pile[::-1]


def test_newest_first_changes_how_record_games_play_out():
    assert play(PAULHUS.deal, rules_named("newest-first")) != PAULHUS.replay()


def test_lose_when_empty_loses_on_a_last_pay_card_at_once():
    """An empty hand variant: the player loses as soon as the stack is empty, even on a pay card."""
    game = Game("Q/---", rules_named("lose-when-empty"), complete=False)
    events = game.step()
    assert events[:2] == [CardTurned(0, Q, 1, False, 2), PaymentDue(1, 0, 2, Q)]
    assert PlayerOut(0, False) in events
    assert PileTaken(1, (Q,), 1, False) in events
    assert game.over
    assert (game.record.winner, game.record.reason) == (1, Reason.EMPTY)


def test_lose_when_empty_also_ends_a_game_on_a_last_number_card():
    standard = Game("-/--", complete=False).run()
    when_empty = Game("-/--", rules_named("lose-when-empty"), complete=False).run()
    assert (standard.winner, standard.cards) == (1, 2)
    assert (when_empty.winner, when_empty.cards, when_empty.reason) == (1, 1, Reason.EMPTY)


# -- the seeds' tables -----------------------------------------------------------------------------


def test_practice_table_stops_at_4000_cards_with_no_winner():
    """The practice table: a 4,000-card practice limit; it awards no win."""
    record = play(PAULHUS.deal, rules_named("practice-table"))  # 4,791 cards in the standard game
    assert (record.status, record.reason, record.cards) == (Status.STOPPED, Reason.CARD_LIMIT, 4000)
    assert (record.outcome, record.winner) == (Outcome.NO_WINNER, None)


def test_practice_table_ends_an_exact_repeat_with_no_winner():
    """The practice table: a repeat of both pack orders, the centre pile, the next player, the challenge."""
    record = play(NEVER_ENDING.deal, rules_named("practice-table"))
    assert (record.status, record.reason) == (Status.LOOP, Reason.REPEAT)
    assert (record.outcome, record.winner) == (Outcome.NO_WINNER, None)
    assert record.cards - record.repeat_of[0] == 440


def test_practice_table_lets_you_seat_0_start_whoever_deals():
    """The practice table: you start."""
    rules = rules_named("practice-table")
    assert Game(PAULHUS.deal, rules, dealer=0, seed=3).first == 0


def test_friend_table_has_a_random_lead_reproducible_from_a_seed():
    """The friend table: a game starts with a random lead."""
    rules = rules_named("friend-table")
    firsts = [Game(PAULHUS.deal, rules, seed=seed).first for seed in range(40)]
    assert set(firsts) == {0, 1}
    assert firsts == [Game(PAULHUS.deal, rules, seed=seed).first for seed in range(40)]


def test_friend_table_stops_at_3000_tricks_and_more_cards_wins():
    """The friend table: stop at 3,000 piles taken; whoever holds more cards wins."""
    rules = rules_named("friend-table:repeat=off")
    record = play(NEVER_ENDING.deal, rules, first=0)
    assert (record.status, record.reason, record.tricks) == (Status.STOPPED, Reason.TRICK_LIMIT, 3000)
    assert record.outcome is Outcome.WIN
    assert record.holdings[record.winner] == max(record.holdings) > 26


def test_friend_table_gives_a_repeated_position_to_whoever_holds_more_cards():
    """The friend table: at the first repeated position, whoever holds more cards wins."""
    record = play(NEVER_ENDING.deal, rules_named("friend-table"), first=0)
    assert (record.status, record.cards, record.tricks) == (Status.LOOP, 474, 66)
    assert record.holdings == (42, 10)
    assert (record.outcome, record.winner) == (Outcome.WIN, 0)


def test_family_table_lets_the_player_after_the_dealer_lead():
    """The family table: the non-dealer, the player to the dealer's left, plays first."""
    rules = rules_named("family-table")
    assert Game(PAULHUS.deal, rules, dealer=0).first == 1
    assert Game(PAULHUS.deal, rules, dealer=1).first == 0
    assert Game(PAULHUS.deal, rules).first == 0


def test_family_table_redeals_a_loop():
    """The family table: if the game has entered a loop, gather all cards, reshuffle and redeal."""
    record = play(NEVER_ENDING.deal, rules_named("family-table"))
    assert (record.status, record.outcome, record.winner) == (Status.LOOP, Outcome.REDEAL, None)


def test_family_table_time_limit_gives_the_win_to_the_most_cards():
    """The family table: a 30-minute limit; the player holding the most cards when time expires wins."""
    rules = rules_named("family-table")
    assert rules.time_limit == 1800
    game = Game(PAULHUS.deal, rules)
    while game.hand_sizes[0] == game.hand_sizes[1] or game.owed:
        game.step()
    record = game.stop(Reason.TIME_LIMIT)[0].record
    assert (record.status, record.reason, record.outcome) == (Status.STOPPED, Reason.TIME_LIMIT, Outcome.WIN)
    assert record.holdings[record.winner] == max(record.holdings)


def test_a_time_limit_cannot_be_ended_by_the_engine_itself():
    """The table enforces the clock: a whole game under family-table still runs to its end."""
    record = PAULHUS.replay()
    assert play(PAULHUS.deal, rules_named("family-table")) == record


# -- every variant makes a difference --------------------------------------------------------------

RULE_VARIANTS = [
    ("jack-pays-2", "standard"),
    ("double-penalty", "standard"),
    ("court-only", "standard"),
    ("jacks-queens", "standard"),
    ("newest-first", "standard"),
    ("lose-when-empty", "standard"),
    ("counter-clockwise", "standard:players=4"),
]


@pytest.mark.parametrize(("variant", "baseline"), RULE_VARIANTS)
def test_each_rule_variant_changes_the_outcome_of_some_random_deals(variant, baseline):
    rules, base = rules_named(variant), rules_named(baseline)
    assert rules.deck == base.deck and rules.players == base.players
    deals = [random_deal(rules, seed) for seed in range(200)]
    assert any(play(deal, rules) != play(deal, base) for deal in deals)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_a_random_deal_to_an_end(name):
    rules = PRESETS[name]
    for seed in range(3):
        deal = random_deal(rules, seed)
        record = play(deal, rules, seed=seed)
        assert record.status in (Status.FINISHED, Status.LOOP, Status.STOPPED)
        assert sum(record.holdings) <= rules.deck.size
        if record.status is Status.FINISHED:
            assert record.holdings[record.winner] == rules.deck.size


def test_a_deal_for_the_wrong_table_size_is_refused():
    with pytest.raises(GameError, match="4 players"):
        Game(random_deal(STANDARD, 1), rules_named("counter-clockwise"))
