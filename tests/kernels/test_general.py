"""Differential tests: the compiled kernels give the reference engine's record for every deal.

The engine plays each deal once, and both kernels are held to its record: the general kernel
under every rule set, the bit kernel under every rule set it covers (its own tests hold it to the
general kernel's table, byte for byte, over thousands of deals more). The default run plays a
sample of random deals per rule set; ``-m slow`` plays 10,000 per preset.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from beggar.engine import Reason, Status, play
from beggar.kernels import bitwise, general
from beggar.notation import parse_deal
from beggar.records import NEVER_ENDING, RECORDS
from beggar.rules import PRESETS, STANDARD, Rules, rules_named
from helpers import engine_records

SAMPLE = 120
SLOW_SAMPLE = 10_000

# Variants beyond the presets: more players, limits small enough to stop games, and rule sets
# whose random deals often loop (so the exact position tracking is exercised).
EXTRA_SPECS = (
    "standard:players=3",
    "standard:players=5:direction=counter-clockwise",
    "standard:players=8",
    "jacks-queens:players=3:pile=newest-first",
    "two-decks:players=6",
    "half-deck:pay=J1",
    "half-deck:pay=J1:repeat=card",
    "half-deck:pay=J1:players=3",
    "half-deck:pay=J1:pile=newest-first:on-repeat=most-cards",
    "half-deck:pay=J1:empty-hand=when-empty:on-repeat=redeal",
    "stripped:pay=J1:players=4:repeat=card",
    "standard:max-cards=150:on-stop=most-cards",
    "standard:max-tricks=12:on-end=most-cards",
    "standard:repeat=off:max-cards=200:on-stop=most-cards",
    "half-deck:pay=J1:repeat=off:max-tricks=40:on-stop=redeal",
    "standard:players=4:max-cards=250:on-stop=most-cards",
    "friend-table:players=3",
    "practice-table:max-cards=300",
    "standard:lead=1",
    "lose-when-empty:pile=newest-first",
    "double-penalty:players=3:empty-hand=must-turn",
    "standard:pay=T1J1Q2K3A4",
    "half-deck:pay=A52",
    # Rule sets the bit kernel covers, beyond the above: custom pay scales (one with five pay
    # values), the empty-hand conventions and pile orders on the other decks, a stop, a limit,
    # and a random lead.
    "standard:pay=J2Q3K5A7",
    "standard:pay=T5J1Q2K3A4",
    "stripped:pay=J3Q4K5A6:pile=newest-first",
    "half-deck:empty-hand=when-empty",
    "stripped:pile=newest-first",
    "stripped:pay=J1:repeat=card:empty-hand=when-empty",
    "standard:repeat=off:max-tricks=20:on-stop=most-cards",
    "lose-when-empty:max-cards=100:on-stop=most-cards",
    "newest-first:lead=random",
)

ALL_SPECS = tuple(PRESETS) + EXTRA_SPECS


def assert_same(rules: Rules, seed: int, count: int) -> None:
    """Random deals ``seed`` played by each kernel that covers ``rules`` give the engine's records."""
    deals, firsts = general.random_deals(rules, seed, 0, count)
    expected = engine_records(rules, deals, firsts)
    for kernel in (general, bitwise) if bitwise.covers(rules) else (general,):
        batch = kernel.play_random(rules, seed, 0, count)
        for index, (got, want) in enumerate(zip(batch.records(), expected, strict=True)):
            where = f"{kernel.__name__}, {rules.spec()}, seed {seed}, game {index}"
            assert got == want, f"{where}: {deals[index].compact()}"


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_random_deals_match_the_engine(spec: str) -> None:
    assert_same(rules_named(spec), seed=11, count=SAMPLE)


@pytest.mark.exhaustive
@pytest.mark.parametrize("spec", ALL_SPECS)
def test_random_deals_match_the_engine_exhaustively(spec: str) -> None:
    assert_same(rules_named(spec), seed=2024, count=SLOW_SAMPLE)


@pytest.mark.parametrize(
    "spec",
    (
        "standard",
        "lose-when-empty",
        "newest-first",
        "half-deck:pay=J1",
        "half-deck:pay=J1:empty-hand=when-empty:pile=newest-first",
        "standard:max-cards=150:on-stop=most-cards",
        "standard:repeat=off:max-tricks=20",
    ),
)
@pytest.mark.parametrize(("bound", "fast"), ((0, True), (1, True), (97, False), (20_000, False)))
def test_results_do_not_depend_on_the_bound_or_the_path(spec: str, bound: int, fast: bool) -> None:
    rules = rules_named(spec)
    reference = general.play_random(rules, 5, 0, 400)
    other = general.play_random(general.KernelRules.of(rules, bound=bound, fast=fast), 5, 0, 400)
    assert (reference.table == other.table).all()


def test_published_records_and_the_never_ending_deal() -> None:
    """Both kernels give the engine's records of the published deals (the general kernel at any
    replay bound, on either path) and the published figures; the never-ending deal loops."""
    deals = [game.deal for game in (*RECORDS, NEVER_ENDING)]
    expected = [play(deal) for deal in deals]
    for bound in (general.DEFAULT_BOUND, 0, 500):
        for fast in (True, False):
            batch = general.play_deals(deals, general.KernelRules.of(STANDARD, bound=bound, fast=fast))
            assert batch.records() == expected, (bound, fast)
    batch = general.play_deals(deals)
    bits = bitwise.play_deals(deals)
    assert bits.records() == expected
    assert (bits.table == batch.table).all()
    for index, game in enumerate(RECORDS):
        assert (batch.cards[index], batch.tricks[index], batch.winner[index]) == (
            game.cards,
            game.tricks,
            game.winner,
        )
    loop = batch.record(len(RECORDS))
    assert loop.status is Status.LOOP and loop.reason is Reason.REPEAT
    assert (loop.cards, loop.tricks, loop.repeat_of) == (474, 66, (34, 4))
    assert loop.tricks - loop.repeat_of[1] == NEVER_ENDING.cycle_tricks


@pytest.mark.parametrize(
    "spec",
    (
        "practice-table",
        "friend-table",
        "family-table",
        "standard:repeat=card",
        "standard:pile=newest-first",
        "lose-when-empty",
        "lose-when-empty:pile=newest-first",
        "standard:max-cards=3000:on-stop=most-cards",
        "standard:repeat=off:max-tricks=500:on-stop=most-cards",
    ),
)
def test_record_deals_under_other_rules(spec: str) -> None:
    """Both kernels give the engine's records of the published deals under other rules, and the
    bit kernel the general kernel's table."""
    rules = rules_named(spec)
    deals = [parse_deal(game.deal) for game in (*RECORDS, NEVER_ENDING)]
    firsts = [0, 1] * 5
    expected = engine_records(rules, deals, firsts)
    batch = general.play_deals(deals, rules, firsts)
    assert batch.records() == expected
    bits = bitwise.play_deals(deals, rules, firsts)
    assert bits.records() == expected
    assert (bits.table == batch.table).all()


def test_given_uneven_deals() -> None:
    rules = rules_named("standard:players=3")
    deals, firsts = general.random_deals(rules, 3, 0, 50)
    batch = general.play_deals(deals, rules, firsts)
    assert batch.records() == engine_records(rules, deals, firsts)
    assert {len(hand) for hand in deals[0].hands} == {17, 18}


def test_results_depend_only_on_the_seed_and_the_game() -> None:
    whole = general.play_random(STANDARD, 99, 0, 1000)
    pieces = [general.play_random(STANDARD, 99, start, 250) for start in range(0, 1000, 250)]
    assert (np.concatenate([p.table for p in pieces]) == whole.table).all()
    assert not (general.play_random(STANDARD, 100, 0, 1000).table == whole.table).all()


def test_random_deals_are_whole_decks_dealt_round_the_table() -> None:
    for spec in ("standard", "two-decks", "stripped:players=3", "half-deck:players=7"):
        rules = rules_named(spec)
        deals, _ = general.random_deals(rules, 1, 0, 20)
        for deal in deals:
            assert Counter(c for hand in deal.hands for c in hand) == Counter(rules.deck.cards())
            sizes = [len(hand) for hand in deal.hands]
            assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
        assert len({deal.compact() for deal in deals}) == len(deals)


def test_random_lead_is_drawn_per_game() -> None:
    rules = rules_named("friend-table:players=4")
    batch = general.play_random(rules, 3, 0, 4000)
    counts = np.bincount(batch.first, minlength=4)
    assert counts.sum() == 4000 and counts.min() > 850
    _, firsts = general.random_deals(rules, 3, 0, 4000)
    assert firsts == batch.first.tolist()


def test_shuffle_is_uniform() -> None:
    # Where the ace of the deck's first suit lands: uniform over 52 places (chi-squared, 51 df).
    orders, _ = general.deal_orders(STANDARD, 8, 0, 52_000)
    ace = STANDARD.deck.cards().index(
        next(c for c in STANDARD.deck.cards() if c.rank and c.rank.symbol == "A")
    )
    where = np.argmax(orders == ace, axis=1)
    counts = np.bincount(where, minlength=52)
    chi2 = float(((counts - 1000.0) ** 2 / 1000.0).sum())
    assert chi2 < 100  # p < 1e-4 under uniformity


def test_stops_and_draws_are_reached() -> None:
    rules = rules_named("standard:max-tricks=12:on-end=most-cards")
    batch = general.play_random(rules, 4, 0, 2000)
    assert (batch.status == general.STATUS_STOPPED).any()
    assert (batch.outcome == general.OUTCOME_DRAW).any()
    loops = general.play_random(rules_named("half-deck:pay=J1:on-repeat=redeal"), 4, 0, 2000)
    assert (loops.status == general.STATUS_LOOP).any()
    assert (loops.outcome[loops.status == general.STATUS_LOOP] == general.OUTCOME_REDEAL).all()


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="firsts"):
        general.play_deals([RECORDS[0].deal], STANDARD, [2])
    with pytest.raises(ValueError, match="hands"):
        general.play_deals([RECORDS[0].deal], rules_named("standard:players=3"))


def test_given_deals_are_read_under_their_rules_so_a_dash_may_be_an_ace_that_pays_nothing() -> None:
    italian = rules_named("court-only:deck=stripped")
    deal = "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"
    for player in (general, bitwise):
        record = player.play_deals([deal], italian).record(0)
        assert record == play(deal, italian)
        assert record.status is Status.LOOP
