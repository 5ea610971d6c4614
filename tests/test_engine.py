"""Specification of ``beggar.engine``: the standard game of docs/rules.md card by card, its edge cases,
how a game is counted, and the house rules that stop it (over random deals:
``test_engine_properties.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from beggar.cards import Card, Rank
from beggar.engine import (
    CardTurned,
    Game,
    GameError,
    GameOver,
    Outcome,
    PaymentCancelled,
    PaymentDue,
    PileTaken,
    PlayerOut,
    Reason,
    Status,
    play,
)
from beggar.notation import parse_deal, random_deal
from beggar.rules import (
    STANDARD,
    Award,
    Direction,
    rules_named,
)
from helpers import of_type, state

N = Card(None)  # a number card of the compact notation
J, Q, K, A = (Card(rank) for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE))

MANN_WU = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"


def c(text: str) -> Card:
    return Card.parse(text)


def all_events(game: Game) -> list[Any]:
    events: list[Any] = []
    while not game.over:
        events.extend(game.step())
    return events


def turners(events: list[Any]) -> list[int]:
    return [event.player for event in of_type(events, CardTurned)]


# -- the worked example ----------------------------------------------------------------------------


def test_the_worked_example_of_rules_md_step_by_step():
    """docs/rules.md worked example (Pagat): pay cards cancel payments until the king is paid."""
    game = Game("QAT465/6J37K8", complete=False)

    assert game.step() == [CardTurned(0, Q, 1, False, 2), PaymentDue(1, 0, 2, Q)]  # A turns a queen
    assert game.step() == [CardTurned(1, c("6"), 2, True, 0)]  # B pays a six
    assert game.owed == 1
    assert game.step() == [  # ... then a jack: the queen is cancelled and A owes one
        CardTurned(1, J, 3, True, 1),
        PaymentCancelled(1, 0, 0),
        PaymentDue(0, 1, 1, J),
    ]
    assert game.step() == [  # A turns an ace: B owes four
        CardTurned(0, A, 4, True, 4),
        PaymentCancelled(0, 1, 0),
        PaymentDue(1, 0, 4, A),
    ]
    assert game.step() == [CardTurned(1, c("3"), 5, True, 0)]
    assert game.step() == [CardTurned(1, c("7"), 6, True, 0)]
    assert game.step() == [  # B turns a king with one card of the ace still unpaid: A owes three
        CardTurned(1, K, 7, True, 3),
        PaymentCancelled(1, 0, 1),
        PaymentDue(0, 1, 3, K),
    ]
    assert game.step() == [CardTurned(0, c("T"), 8, True, 0)]
    assert game.step() == [CardTurned(0, c("4"), 9, True, 0)]
    pile = tuple(c(x) for x in "Q6JA37KT46")
    assert game.step() == [  # A turns a six: the king is paid and B takes the ten cards
        CardTurned(0, c("6"), 10, True, 0),
        PileTaken(1, pile, 1, True),
    ]
    assert game.to_play == 1  # the winner of the pile leads
    assert game.owed == 0 and game.creditor is None and game.pile == []
    assert list(game.stacks[1]) == [c("8"), *pile]  # under the stack, oldest first
    assert list(game.stacks[0]) == [c("5")]
    assert (game.cards, game.tricks) == (10, 1)
    assert game.step()[0] == CardTurned(1, c("8"), 11, False, 0)


# -- the rules one by one --------------------------------------------------------------------------


def test_a_number_card_passes_the_turn_to_the_other_player():
    """Rule 3."""
    game = Game("--/--", complete=False)
    assert turners(game.step() + game.step() + game.step()) == [0, 1, 0]


def test_the_first_hand_turns_the_first_card():
    """Rule 2."""
    assert Game(MANN_WU).to_play == 0
    assert Game(MANN_WU).step()[0] == CardTurned(0, K, 1, False, 3)


@pytest.mark.parametrize(("card", "owed"), [(J, 1), (Q, 2), (K, 3), (A, 4)])
def test_a_pay_card_makes_the_other_player_pay_its_price(card, owed):
    """Rule 4: J, Q, K, A ask for 1, 2, 3, 4 cards."""
    game = Game(f"{card}-/-----", complete=False)
    assert game.step()[1] == PaymentDue(1, 0, owed, card)
    events = all_events(game)[: owed + 1]
    assert turners(events) == [1] * owed
    assert all(event.paying for event in of_type(events, CardTurned))
    assert events[owed] == PileTaken(0, (card,) + (N,) * owed, 1, True)


def test_paying_in_number_cards_wins_the_pile_for_the_pay_card_s_owner_who_then_leads():
    """Rule 5."""
    game = Game("K--/-----", complete=False)
    events = game.step() + game.step() + game.step() + game.step()
    assert events[-1] == PileTaken(0, (K, N, N, N), 1, True)
    assert game.to_play == 0
    assert turners(game.step()) == [0]


def test_a_pay_card_turned_while_paying_cancels_the_debt_without_adding():
    """Rule 6: the old payment stops; the other player owes the new card's full price."""
    game = Game("A---/-Q--", complete=False)
    game.step()  # A: ace, B owes 4
    game.step()  # B pays one number card
    events = game.step()  # B turns a queen
    assert events == [CardTurned(1, Q, 3, True, 2), PaymentCancelled(1, 0, 2), PaymentDue(0, 1, 2, Q)]
    assert (game.to_play, game.owed, game.creditor) == (0, 2, 1)


def test_the_won_pile_goes_under_the_stack_oldest_card_first():
    """Rule 7: never shuffled, never reversed."""
    game = Game("7J345/8Q2345", complete=False)
    events = all_events_until_trick(game)
    pile = [c(x) for x in "78JQ34"]
    assert events[-1] == PileTaken(1, tuple(pile), 1, True)
    assert list(game.stacks[1]) == [c(x) for x in "2345"] + pile


def all_events_until_trick(game: Game) -> list[Any]:
    events: list[Any] = []
    while not of_type(events, PileTaken):
        events.extend(game.step())
    return events


def test_a_game_ends_when_one_player_holds_every_card():
    """Rule 9: the pile just went to a player whose opponent has none."""
    game = Game("J-/-", complete=False)
    events = all_events(game)
    assert events[-2] == PileTaken(0, (J, N), 1, True)
    record = events[-1].record
    assert (record.status, record.reason, record.winner, record.outcome) == (
        Status.FINISHED,
        Reason.ALL_CARDS,
        0,
        Outcome.WIN,
    )
    assert (record.cards, record.tricks, record.holdings) == (2, 1, (3, 0))


# -- rule 8 and the edge cases ---------------------------------------------------------------------


def test_a_player_who_must_lead_and_has_no_card_loses_and_the_opponent_takes_the_pile():
    """Rule 8, leading: the loser's opponent takes the pile and holds all the cards."""
    events = all_events(Game("--/-", complete=False))
    assert turners(events) == [0, 1, 0]
    assert events[3] == PlayerOut(1, False)
    assert events[4] == PileTaken(0, (N, N, N), 1, False)
    record = events[5].record
    assert (record.status, record.reason, record.winner) == (Status.FINISHED, Reason.CANNOT_TURN, 0)
    assert (record.cards, record.tricks, record.holdings) == (3, 1, (3, 0))


def test_running_out_in_the_middle_of_a_payment_loses_and_the_trick_is_counted():
    """Rule 8, paying; the friend table: whether you are leading or halfway through paying."""
    events = all_events(Game("A-/--", complete=False))
    assert turners(events) == [0, 1, 1]
    assert of_type(events, PlayerOut) == [PlayerOut(1, True)]
    assert of_type(events, PileTaken) == [PileTaken(0, (A, N, N), 1, False)]
    record = events[-1].record
    assert (record.winner, record.cards, record.tricks, record.holdings) == (0, 3, 1, (4, 0))


def test_a_last_card_that_is_a_pay_card_can_rescue_its_owner():
    """Rule 8: if the opponent pays it in full, the empty-handed player takes the pile and plays on."""
    game = Game("Q/---", complete=False)
    game.step()
    assert game.hand_sizes == (0, 3)
    assert not game.over
    events = game.step() + game.step()
    assert events[-1] == PileTaken(0, (Q, N, N), 1, True)
    assert not game.over
    assert game.to_play == 0
    assert game.hand_sizes == (3, 1)


def test_a_last_pay_card_turned_while_paying_can_also_rescue_its_owner():
    """The friend table: if your last card is a pay card you turned while paying, the other player pays."""
    game = Game("J--/K", complete=False)
    events = game.step() + game.step()  # A: jack; B pays with a king, B's last card
    assert events[-1] == PaymentDue(0, 1, 3, K)
    assert game.hand_sizes == (2, 0)
    events = all_events(game)
    # A pays two number cards and then has none: A loses although B's stack was empty.
    assert of_type(events, PlayerOut) == [PlayerOut(0, True)]
    assert events[-1].record.winner == 1


def test_when_both_players_are_down_to_nothing_whoever_must_turn_next_loses():
    """The friend table: if both players are down to nothing, whoever has to turn next loses."""
    events = all_events(Game("Q/J", complete=False))  # A: queen (last card); B: jack (last card)
    assert of_type(events, PlayerOut) == [PlayerOut(0, True)]  # A owes one and has nothing
    assert of_type(events, PileTaken) == [PileTaken(1, (Q, J), 1, False)]
    record = events[-1].record
    assert (record.winner, record.cards, record.tricks, record.holdings) == (1, 2, 1, (0, 2))

    events = all_events(Game("Q/-", complete=False))  # B pays its last card and still owes one
    assert of_type(events, PlayerOut) == [PlayerOut(1, True)]
    assert events[-1].record.winner == 0


def test_the_when_empty_rule_and_the_standard_rule_differ_on_a_last_pay_card():
    """Variants: under empty-hand=when-empty an empty stack loses at once, even on a pay card."""
    standard = Game("Q/---", complete=False).run()
    when_empty = Game("Q/---", rules_named("lose-when-empty"), complete=False).run()
    assert (standard.winner, standard.reason) == (0, Reason.CANNOT_TURN)
    assert (when_empty.winner, when_empty.reason) == (1, Reason.EMPTY)
    assert (when_empty.cards, when_empty.tricks, when_empty.holdings) == (1, 1, (0, 4))
    assert standard.cards > when_empty.cards


# -- loops -----------------------------------------------------------------------------------------


def test_a_position_repeated_at_a_trick_end_is_a_loop():
    """How a game is counted: loop, with the counts at the moment a trick-end position repeats."""
    # J--/-J-: A takes [J -] (2 cards, 1 trick); B takes; A takes and the first position is back.
    record = Game("J--/-J-", complete=False).run()
    assert record.status is Status.LOOP
    assert record.reason is Reason.REPEAT
    assert (record.cards, record.tricks) == (8, 3)
    assert record.repeat_of == (2, 1)
    assert record.winner is None
    assert record.outcome is Outcome.NO_WINNER
    assert record.holdings == (4, 2)


def test_the_starting_position_counts_as_a_position():
    """How a game is counted: '--J-/J-' is back to its deal, with the first hand leading, after 2 tricks."""
    record = Game("--J-/J-", complete=False).run()
    assert record.status is Status.LOOP
    assert (record.cards, record.tricks, record.repeat_of) == (6, 2, (0, 0))


def test_a_detected_loop_really_never_ends():
    rules = rules_named("standard:repeat=off:max-tricks=200")
    record = Game("J--/-J-", rules, complete=False).run()
    assert (record.status, record.reason, record.tricks) == (Status.STOPPED, Reason.TRICK_LIMIT, 200)


def test_the_same_stacks_with_another_leader_are_not_the_same_position():
    """The position is both stacks in order plus who leads."""
    # After one trick of '--J-/J-' the stacks are the deal's, swapped; B leads. No loop yet.
    game = Game("--J-/J-", complete=False)
    all_events_until_trick(game)
    assert not game.over
    assert [list(s) for s in game.stacks] == [[J, N], [N, N, J, N]]


LOOPING_DEALS = [
    "-J/--J-",
    "J--/-J-",
    "--J-/J-",
    "--J-/J--Q",
    "--J-/JJ--",
    "J---/--JJ",
    "J-Q-/---J",
    "A-J-/-J--",
    "-JJ-/--J-",
    "--J-/A-J-",
]


def _first_repeat(deal: str, *, exact: bool) -> tuple[int, int, tuple[int, int]]:
    """Play with no repeat check and find the first repeated position by brute force."""
    game = Game(deal, rules_named("standard:repeat=off:max-cards=2000"), complete=False)

    def key() -> tuple[Any, ...]:
        stacks = tuple(tuple(stack) for stack in game.stacks)
        if exact:
            return (stacks, tuple(game.pile), game.to_play, game.owed, game.creditor)
        return (stacks, game.to_play)

    seen = {key(): (0, 0)}
    while True:
        events = game.step()
        assert not game.over, "the deal was expected to loop"
        if exact or of_type(events, PileTaken):
            if key() in seen:
                return game.cards, game.tricks, seen[key()]
            seen[key()] = (game.cards, game.tricks)


@pytest.mark.parametrize("deal", LOOPING_DEALS)
def test_trick_end_repeat_detection_finds_the_first_repeated_position(deal):
    record = Game(deal, complete=False).run()
    assert record.status is Status.LOOP
    assert (record.cards, record.tricks, record.repeat_of) == _first_repeat(deal, exact=False)


@pytest.mark.parametrize("deal", LOOPING_DEALS)
def test_exact_repeat_detection_finds_the_first_repeated_state_after_any_card(deal):
    """Variants: repeat=card compares stacks, pile, next player and payment owed after every card."""
    record = Game(deal, rules_named("standard:repeat=card"), complete=False).run()
    assert record.status is Status.LOOP
    assert record.reason is Reason.REPEAT
    assert (record.cards, record.tricks, record.repeat_of) == _first_repeat(deal, exact=True)


def test_without_repeat_detection_a_loop_runs_to_the_limit():
    rules = rules_named("standard:repeat=off:max-cards=500")
    record = Game("--J-/J-", rules, complete=False).run()
    assert (record.status, record.reason, record.cards) == (Status.STOPPED, Reason.CARD_LIMIT, 500)


# -- limits and awards -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("award", "outcome", "winner"),
    [
        (Award.NO_WINNER, Outcome.NO_WINNER, None),
        (Award.MOST_CARDS, Outcome.WIN, 1),
        (Award.REDEAL, Outcome.REDEAL, None),
    ],
)
def test_a_card_limit_stops_the_game_with_the_rules_award(award, outcome, winner):
    rules = STANDARD.replace(max_cards=1, on_stop=award)
    record = Game("--/--", rules, complete=False).run()
    assert (record.status, record.reason) == (Status.STOPPED, Reason.CARD_LIMIT)
    assert (record.cards, record.tricks, record.holdings) == (1, 0, (1, 2))
    assert (record.outcome, record.winner) == (outcome, winner)


def test_equal_holdings_at_a_stop_are_a_draw_under_most_cards():
    """The friend and family tables: whoever holds more cards wins; equal is a draw."""
    rules = STANDARD.replace(max_cards=2, on_stop=Award.MOST_CARDS)
    record = Game("--/--", rules, complete=False).run()
    assert record.holdings == (1, 1)
    assert (record.outcome, record.winner) == (Outcome.DRAW, None)


@pytest.mark.parametrize(
    ("award", "outcome", "winner"),
    [
        (Award.NO_WINNER, Outcome.NO_WINNER, None),
        (Award.MOST_CARDS, Outcome.WIN, 0),
        (Award.REDEAL, Outcome.REDEAL, None),
    ],
)
def test_a_trick_limit_stops_the_game_when_that_many_piles_are_taken(award, outcome, winner):
    rules = STANDARD.replace(max_tricks=1, on_stop=award)
    record = Game("J--/--", rules, complete=False).run()
    assert (record.status, record.reason) == (Status.STOPPED, Reason.TRICK_LIMIT)
    assert (record.cards, record.tricks, record.holdings) == (2, 1, (4, 1))
    assert (record.outcome, record.winner) == (outcome, winner)


@pytest.mark.parametrize(
    ("award", "outcome", "winner"),
    [
        (Award.NO_WINNER, Outcome.NO_WINNER, None),
        (Award.MOST_CARDS, Outcome.WIN, 0),
        (Award.REDEAL, Outcome.REDEAL, None),
    ],
)
def test_a_loop_awards_what_the_rules_on_repeat_says(award, outcome, winner):
    record = Game("J--/-J-", STANDARD.replace(on_repeat=award), complete=False).run()
    assert record.status is Status.LOOP
    assert record.holdings == (4, 2)
    assert (record.outcome, record.winner) == (outcome, winner)


def test_a_loop_with_equal_holdings_is_a_draw_under_most_cards():
    record = Game("-JJ-/--J-", STANDARD.replace(on_repeat=Award.MOST_CARDS), complete=False).run()
    assert record.holdings == (4, 4)
    assert (record.outcome, record.winner) == (Outcome.DRAW, None)


def test_a_finish_on_the_limit_card_is_a_finish_not_a_stop():
    record = Game("A-/--", STANDARD.replace(max_cards=3), complete=False).run()
    assert (record.status, record.winner, record.cards) == (Status.FINISHED, 0, 3)


def test_a_table_can_stop_a_game_for_its_time_limit():
    """The family table: at a time limit whoever holds the most cards wins (the table enforces the clock)."""
    game = Game("--/---", rules_named("family-table"), complete=False)
    game.step()
    events = game.stop(Reason.TIME_LIMIT)
    assert len(events) == 1 and isinstance(events[0], GameOver)
    record = game.record
    assert record is events[0].record
    assert (record.status, record.reason, record.cards) == (Status.STOPPED, Reason.TIME_LIMIT, 1)
    assert (record.outcome, record.winner, record.holdings) == (Outcome.WIN, 1, (1, 3))
    assert game.over


def test_a_game_stopped_on_request_uses_the_on_stop_award():
    game = Game(MANN_WU)
    record = game.stop()[0].record
    assert (record.status, record.reason, record.outcome, record.cards) == (
        Status.STOPPED,
        Reason.STOPPED,
        Outcome.NO_WINNER,
        0,
    )


def test_a_game_cannot_be_stopped_for_a_reason_that_is_not_a_stop():
    with pytest.raises(GameError, match="cannot be stopped"):
        Game(MANN_WU).stop(Reason.REPEAT)


def test_a_finished_game_cannot_be_stepped_or_stopped():
    game = Game("J-/-", complete=False)
    game.run()
    with pytest.raises(GameError, match="over"):
        game.step()
    with pytest.raises(GameError, match="over"):
        game.stop(Reason.TIME_LIMIT)


# -- setting up a game -----------------------------------------------------------------------------


def test_a_deal_must_fit_the_rules_player_count():
    with pytest.raises(GameError, match=r"3 hands.*2 players"):
        Game("-/-/-", complete=False)


def test_a_dash_is_a_card_that_pays_nothing_even_when_a_number_rank_pays():
    """Compact notation: '-' means a card that pays nothing under the rules in play."""
    rules = STANDARD.replace(pay=((Rank.SEVEN, 1), (Rank.ACE, 4)))
    game = Game("A-/7-", rules, complete=False)
    game.step()
    assert game.step()[-1] == PaymentDue(0, 1, 1, c("7"))  # the 7 pays; the '-' did not
    game = Game("A3/72", rules, complete=False)
    game.step()
    events = game.step()  # paying for the ace with a seven, a pay card here
    assert events[0] == CardTurned(1, c("7"), 2, True, 1)
    assert events[-1] == PaymentDue(0, 1, 1, c("7"))


def test_a_full_deal_is_checked_like_a_deal_string():
    with pytest.raises(ValueError, match="52"):
        Game("Q-/-")
    game = Game(parse_deal(MANN_WU))
    assert game.deal == parse_deal(MANN_WU)


def test_game_and_play_give_the_same_record():
    assert Game(MANN_WU).run() == play(MANN_WU) == play(parse_deal(MANN_WU))


def test_iterating_a_game_yields_every_event_to_the_end():
    events = list(Game(MANN_WU))
    assert len(of_type(events, CardTurned)) == 7157
    assert isinstance(events[-1], GameOver)


# -- who starts ------------------------------------------------------------------------------------


def test_the_first_hand_leads_by_default():
    game = Game("--/--", complete=False)
    assert game.first == game.to_play == 0
    assert game.step()[0].player == 0


def test_a_fixed_seat_leads_under_lead_seat():
    rules = rules_named("standard:players=3:lead=2")
    game = Game("--/--/--", rules, complete=False)
    assert game.first == 2
    assert turners(game.step() + game.step()) == [2, 0]


@pytest.mark.parametrize(("dealer", "first"), [(0, 1), (1, 0), (None, 0)])
def test_the_player_after_the_dealer_leads_under_after_dealer(dealer, first):
    """The family table: the non-dealer (the player to the dealer's left) plays first.
    By default the dealer is the seat that deals to the first hand, so the first hand leads."""
    game = Game("--/--", rules_named("standard:lead=after-dealer"), dealer=dealer, complete=False)
    assert game.first == first


@pytest.mark.parametrize(
    ("direction", "dealer", "first"),
    [("clockwise", 1, 2), ("clockwise", 3, 0), ("counter-clockwise", 1, 0), ("counter-clockwise", 0, 3)],
)
def test_after_dealer_follows_the_direction_of_play(direction, dealer, first):
    rules = rules_named(f"standard:players=4:lead=after-dealer:direction={direction}")
    assert Game("-/-/-/-", rules, dealer=dealer, complete=False).first == first
    assert Game("-/-/-/-", rules, complete=False).first == 0


def test_a_dealer_outside_the_table_is_rejected():
    with pytest.raises(GameError, match="dealer=5"):
        Game("--/--", rules_named("standard:lead=after-dealer"), dealer=5, complete=False)


def test_a_random_lead_is_reproducible_from_its_seed_and_can_be_any_seat():
    rules = rules_named("standard:players=3:lead=random")
    firsts = {Game("-/-/-", rules, seed=seed, complete=False).first for seed in range(60)}
    assert firsts == {0, 1, 2}
    for seed in range(10):
        a = Game("-/-/-", rules, seed=seed, complete=False)
        b = Game("-/-/-", rules, seed=seed, complete=False)
        assert a.first == b.first


def test_an_explicit_first_player_overrides_the_rules():
    game = Game("--/--", rules_named("standard:lead=random"), first=1, seed=0, complete=False)
    assert game.first == 1
    with pytest.raises(GameError, match="first=2"):
        Game("--/--", first=2, complete=False)


def test_the_record_says_who_led():
    assert play(MANN_WU, first=1).first == 1
    assert play(MANN_WU, first=1) != play(MANN_WU)


# -- three or more players -------------------------------------------------------------------------

THREE = rules_named("standard:players=3")


def test_the_turn_passes_clockwise_round_the_table():
    game = Game("--/--/--/--", rules_named("standard:players=4"), complete=False)
    assert turners(game.step() + game.step() + game.step() + game.step()) == [0, 1, 2, 3]


def test_the_turn_passes_counter_clockwise_when_the_rules_say_so():
    """Variants: counter-clockwise (Suck the Well): with 4 players seat 3 turns the second card."""
    game = Game("--/--/--/--", rules_named("counter-clockwise"), complete=False)
    assert turners(game.step() + game.step() + game.step() + game.step()) == [0, 3, 2, 1]


@pytest.mark.parametrize(("direction", "payer"), [("clockwise", 1), ("counter-clockwise", 2)])
def test_the_payer_is_the_next_player_round_the_table(direction, payer):
    game = Game("Q-/--/--", THREE.replace(direction=Direction(direction)), complete=False)
    assert game.step()[1] == PaymentDue(payer, 0, 2, Q)


def test_a_pay_card_turned_while_paying_passes_the_debt_to_the_next_player():
    """The family table: the obligation passes to the next player; the pile goes to the latest pay card."""
    game = Game("Q-/J-/--", THREE, complete=False)
    events = game.step() + game.step()
    assert events[-2:] == [PaymentCancelled(1, 0, 1), PaymentDue(2, 1, 1, J)]
    events = game.step()
    assert events == [CardTurned(2, N, 3, True, 0), PileTaken(1, (Q, J, N), 1, True)]
    assert game.to_play == 1


def test_a_player_out_of_cards_is_skipped_from_then_on():
    """Running out, 3+ players: a player with no card to turn when required is out."""
    events = all_events(Game("-Q/-/---", THREE, complete=False))
    assert PlayerOut(1, True) in events
    assert turners(events) == [0, 1, 2, 0, 0, 2, 0, 2, 0]


def test_the_pile_goes_to_the_creditor_when_the_payer_runs_out_mid_payment():
    """Running out, 3+ players: the pile goes to whoever laid the last pay card."""
    game = Game("K-/-/--", THREE, complete=False)
    events = game.step() + game.step()
    assert events[-2:] == [PlayerOut(1, True), PileTaken(0, (K, N), 1, False)]
    assert not game.over
    assert (game.to_play, game.tricks, game.out) == (0, 1, [False, True, False])
    assert turners(game.step() + game.step()) == [0, 2]  # seat 1 is skipped


def test_the_last_player_holding_cards_wins():
    events = all_events(Game("K-/-/--", THREE, complete=False))
    assert of_type(events, PlayerOut) == [PlayerOut(1, True), PlayerOut(2, True)]
    record = events[-1].record
    assert (record.status, record.winner, record.reason) == (Status.FINISHED, 0, Reason.CANNOT_TURN)
    assert (record.cards, record.tricks, record.holdings) == (6, 2, (5, 0, 0))


def test_a_pile_that_gives_one_player_every_card_ends_a_three_player_game():
    record = Game("A----/-/-", THREE, complete=False).run()
    assert (record.status, record.winner) == (Status.FINISHED, 0)
    assert sum(record.holdings) == record.holdings[0] == 7


# -- saving and restoring --------------------------------------------------------------------------


@pytest.mark.parametrize("turned", [0, 1, 5, 1234, 7156])
def test_a_game_saved_mid_way_restores_to_the_same_state_and_the_same_end(turned):
    game = Game(MANN_WU)
    for _ in range(turned):
        game.step()
    data = json.loads(json.dumps(game.to_dict()))
    restored = Game.from_dict(data)
    assert state(restored) == state(game)
    assert restored.rules == game.rules
    assert restored.run() == game.run()


def test_a_saved_game_keeps_its_rules_random_lead_and_suits():
    rules = rules_named("friend-table:players=3:pile=newest-first")
    deal = random_deal(rules, seed=99)
    game = Game(deal, rules, seed=4)
    for _ in range(57):
        game.step()
    restored = Game.from_dict(game.to_dict())
    assert restored.deal == deal
    assert restored.rules == rules
    assert state(restored) == state(game)
    assert restored.run() == game.run()


def test_a_game_stopped_at_its_time_limit_is_restored_stopped():
    game = Game(MANN_WU, rules_named("family-table"))
    for _ in range(100):
        game.step()
    game.stop(Reason.TIME_LIMIT)
    restored = Game.from_dict(game.to_dict())
    assert restored.over
    assert restored.record == game.record


def test_a_finished_or_limit_stopped_game_is_restored_as_it_ended():
    for rules in (STANDARD, STANDARD.replace(max_cards=300, on_stop=Award.MOST_CARDS)):
        game = Game(MANN_WU, rules)
        game.run()
        restored = Game.from_dict(game.to_dict())
        assert restored.record == game.record


def _saved() -> dict[str, Any]:
    game = Game(MANN_WU)
    for _ in range(10):
        game.step()
    return game.to_dict()


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("deal"),
        lambda d: d.pop("rules"),
        lambda d: d.pop("first"),
        lambda d: d.pop("turned"),
        lambda d: d.update(deal="K-/-X"),
        lambda d: d.update(deal="AAAAA/-"),
        lambda d: d.update(deal="-/-/-"),
        lambda d: d.update(turned=-1),
        lambda d: d.update(turned="ten"),
        lambda d: d.update(turned=None),
        lambda d: d.update(turned=100_000),
        lambda d: d.update(first=2),
        lambda d: d.update(rules={"players": 2}),
        lambda d: d["rules"].update(players=9),
        lambda d: d["rules"].update(deck="pinochle"),
        lambda d: d.update(stopped="repeat"),
    ],
)
def test_bad_saved_data_is_rejected_with_a_game_error(damage):
    data = _saved()
    damage(data)
    with pytest.raises(GameError):
        Game.from_dict(data)


@pytest.mark.parametrize("data", [None, [], "a game", 42])
def test_saved_data_that_is_not_a_mapping_is_rejected_with_a_game_error(data):
    with pytest.raises(GameError):
        Game.from_dict(data)


@pytest.mark.parametrize("stopped", ["bogus", 5])
def test_a_saved_game_with_an_unknown_stop_reason_is_rejected_with_a_game_error(stopped):
    data = _saved()
    data["stopped"] = stopped
    with pytest.raises(GameError):
        Game.from_dict(data)


def test_a_saved_game_whose_rules_are_not_a_mapping_is_rejected_with_a_game_error():
    data = _saved()
    data["rules"] = "standard"
    with pytest.raises(GameError):
        Game.from_dict(data)


def test_the_challenge_is_the_newest_pay_card_on_the_pile_while_a_payment_is_owed():
    """The worked example: Q, then J while paying cancels it, then A, then K; the ten pays the king."""
    game = Game("QAT46/6J37K5", complete=False)
    seen = []
    while not game.over:
        game.step()
        seen.append(game.challenge)
    assert seen == [0, 0, 2, 3, 3, 3, 6, 6, 6, None]
