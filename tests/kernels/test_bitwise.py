"""The bit kernel gives the general kernel's table, byte for byte, and the reference engine's records.

Every rule set the bit kernel covers is played: the presets for two players and 64 cards or fewer,
every pay scale (custom ones too, and one with five pay values, which needs four value planes),
both pile orders, both empty-hand conventions, every repeat setting, limits, awards and leads.
The default run plays a few thousand deals per rule set against the general kernel; the records of
a sample, and of the published deals, are held to the engine's with the general kernel's in
``test_general.py``, which lists every rule set here (so the engine plays each deal once for
both). ``-m exhaustive`` plays 1,000,000 per rule set against the kernel and 5,000 against the engine.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from beggar.kernels import bitwise, general, lockstep
from beggar.kernels.bits import DEBRUIJN_TABLE, tz, tz_float
from beggar.notation import Deal
from beggar.records import RECORDS
from beggar.rules import PRESETS, STANDARD, Rules, rules_named
from helpers import engine_records

KERNEL_SAMPLE = 3000
ENGINE_SAMPLE = 60
SLOW_KERNEL_SAMPLE = 1_000_000
SLOW_ENGINE_SAMPLE = 5_000

COVERED_PRESETS = tuple(name for name, rules in PRESETS.items() if bitwise.covers(rules))

EXTRA_SPECS = (
    # Pay scales: custom, five pay values (four planes), a single pay card, a number card paying.
    "standard:pay=J2Q3K5A7",
    "standard:pay=T5J1Q2K3A4",
    "stripped:pay=J3Q4K5A6:pile=newest-first",
    "half-deck:pay=A52",
    "standard:pay=T1J1Q2K3A4",
    # Both conventions together, and with the other decks.
    "lose-when-empty:pile=newest-first",
    "half-deck:empty-hand=when-empty",
    "stripped:pile=newest-first",
    # Rule sets whose random deals often loop: exact repeats at trick ends and after every card.
    "half-deck:pay=J1",
    "half-deck:pay=J1:repeat=card",
    "half-deck:pay=J1:pile=newest-first:on-repeat=most-cards",
    "half-deck:pay=J1:empty-hand=when-empty:on-repeat=redeal",
    "stripped:pay=J1:repeat=card:empty-hand=when-empty",
    # Limits and awards, with and without repeat detection.
    "standard:max-cards=150:on-stop=most-cards",
    "standard:max-tricks=12:on-end=most-cards",
    "standard:repeat=off:max-cards=200:on-stop=most-cards",
    "standard:repeat=off:max-tricks=20:on-stop=most-cards",
    "half-deck:pay=J1:repeat=off:max-tricks=40:on-stop=redeal",
    "practice-table:max-cards=300",
    "lose-when-empty:max-cards=100:on-stop=most-cards",
    # Leads.
    "standard:lead=1",
    "newest-first:lead=random",
)

SPECS = COVERED_PRESETS + EXTRA_SPECS


def assert_same_as_kernel(rules: Rules, seed: int, count: int) -> None:
    want = general.play_random(rules, seed, 0, count).table
    got = bitwise.play_random(rules, seed, 0, count).table
    assert got.dtype == want.dtype and got.shape == want.shape
    differ = np.flatnonzero((got != want).any(axis=1))
    assert differ.size == 0, f"{rules.name}, seed {seed}: games {differ[:10].tolist()} differ"


def assert_same_as_engine(rules: Rules, seed: int, count: int) -> None:
    deals, firsts = general.random_deals(rules, seed, 0, count)
    batch = bitwise.play_random(rules, seed, 0, count)
    for index, (got, want) in enumerate(
        zip(batch.records(), engine_records(rules, deals, firsts), strict=True)
    ):
        assert got == want, f"{rules.name}, seed {seed}, game {index}: {deals[index].compact()}"


def test_the_covered_presets_are_every_two_player_preset_of_at_most_64_cards() -> None:
    assert set(COVERED_PRESETS) == set(PRESETS) - {"two-decks", "counter-clockwise"}


@pytest.mark.parametrize("spec", SPECS)
def test_random_deals_match_the_kernel(spec: str) -> None:
    assert_same_as_kernel(rules_named(spec), seed=11, count=KERNEL_SAMPLE)


@pytest.mark.exhaustive
@pytest.mark.parametrize("spec", SPECS)
def test_a_million_random_deals_match_the_kernel(spec: str) -> None:
    assert_same_as_kernel(rules_named(spec), seed=2024, count=SLOW_KERNEL_SAMPLE)


@pytest.mark.exhaustive
@pytest.mark.parametrize("spec", SPECS)
def test_random_deals_match_the_engine_exhaustively(spec: str) -> None:
    assert_same_as_engine(rules_named(spec), seed=2025, count=SLOW_ENGINE_SAMPLE)


def test_the_loops_and_stops_of_the_sample_are_exercised() -> None:
    # The differential tests above are only as good as the endings they meet.
    loops = bitwise.play_random(rules_named("half-deck:pay=J1:repeat=card"), 11, 0, KERNEL_SAMPLE)
    assert (loops.status == general.STATUS_LOOP).sum() > 100
    stops = bitwise.play_random(rules_named("standard:repeat=off:max-tricks=20"), 11, 0, KERNEL_SAMPLE)
    assert (stops.status == general.STATUS_STOPPED).sum() > 100
    empty = bitwise.play_random(rules_named("lose-when-empty"), 11, 0, KERNEL_SAMPLE)
    assert set(np.unique(empty.reason)) == {general.REASON_ALL_CARDS, general.REASON_EMPTY}
    standard = bitwise.play_random(STANDARD, 11, 0, KERNEL_SAMPLE)
    assert set(np.unique(standard.reason)) == {general.REASON_ALL_CARDS, general.REASON_CANNOT_TURN}


def uneven_deals(rules: Rules, seed: int, count: int) -> tuple[list[Deal], list[int]]:
    """Random deals cut at a random place (hands of 1 to size - 1 cards), random leaders."""
    deals, _ = general.random_deals(rules, seed, 0, count)
    pick = random.Random(seed)
    cut = []
    for deal in deals:
        cards = [card for hand in deal.hands for card in hand]
        at = pick.randrange(1, len(cards))
        cut.append(Deal((tuple(cards[:at]), tuple(cards[at:]))))
    return cut, [pick.randrange(2) for _ in cut]


@pytest.mark.parametrize(
    "spec", ("standard", "lose-when-empty", "newest-first", "half-deck:pay=J1", "standard:pay=T5J1Q2K3A4")
)
def test_given_deals_of_any_split(spec: str) -> None:
    rules = rules_named(spec)
    deals, firsts = uneven_deals(rules, 4, 400)
    batch = bitwise.play_deals(deals, rules, firsts)
    assert (batch.table == general.play_deals(deals, rules, firsts).table).all()
    assert batch.records()[:40] == engine_records(rules, deals[:40], firsts[:40])


@pytest.mark.parametrize("spec", ("standard", "half-deck:pay=J1", "standard:max-tricks=12:on-end=most-cards"))
@pytest.mark.parametrize("bound", (0, 1, 97))
def test_results_do_not_depend_on_the_replay_bound(spec: str, bound: int) -> None:
    # bound 0 sends every game to the kernel's tracked replay; 97 stops many games mid-step.
    rules = rules_named(spec)
    reference = bitwise.play_random(rules, 5, 0, 400)
    other = bitwise.play_random(general.KernelRules.of(rules, bound=bound), 5, 0, 400)
    assert (reference.table == other.table).all()


def test_results_depend_only_on_the_seed_and_the_game() -> None:
    whole = bitwise.play_random(STANDARD, 99, 0, 1000)
    pieces = [bitwise.play_random(STANDARD, 99, start, 250) for start in range(0, 1000, 250)]
    assert (np.concatenate([p.table for p in pieces]) == whole.table).all()
    assert bitwise.play_random(STANDARD, 99, 0, 0).table.shape == (0, general.COL_HOLDINGS + 2)


def test_both_ways_of_counting_zeros_give_the_same_games() -> None:
    llvm = bitwise.play_random(STANDARD, 3, 0, 2000, lockstep=False)
    debruijn = bitwise.play_random(STANDARD, 3, 0, 2000, count_zeros="debruijn")
    assert (llvm.table == debruijn.table).all()


def test_trailing_zeros() -> None:
    pick = random.Random(1)
    words = [0, 1, 1 << 63, (1 << 64) - 1] + [
        pick.getrandbits(64) & -(1 << pick.randrange(64)) for _ in range(500)
    ]
    for word in words:
        want = 64 if word == 0 else (word & -word).bit_length() - 1
        assert tz(np.uint64(word), False) == want
        assert tz(np.uint64(word), True) == want
    assert sorted(DEBRUIJN_TABLE.tolist()) == list(range(64))


def test_lockstep_counts_trailing_zeros_through_the_floating_point_unit() -> None:
    # Exact for every lowest set bit a stack can have in lockstep, whatever the bits above it.
    pick = random.Random(2)
    for t in range(lockstep.MAX_CARDS):
        for word in [1 << t, (1 << 64) - (1 << t)] + [(pick.getrandbits(64) | 1) << t for _ in range(40)]:
            assert int(tz_float(np.uint64(word % (1 << 64)))) == t


def test_covers() -> None:
    assert bitwise.covers(STANDARD)
    assert bitwise.covers(rules_named("half-deck:pay=A52:repeat=card"))
    assert not bitwise.covers(rules_named("two-decks"))
    assert not bitwise.covers(rules_named("standard:players=3"))


def test_rules_it_does_not_cover_are_refused() -> None:
    with pytest.raises(ValueError, match="two players"):
        bitwise.play_random(rules_named("standard:players=3"), 0, 0, 10)
    with pytest.raises(ValueError, match="64 cards"):
        bitwise.play_deals([], rules_named("two-decks"))


def test_bad_input_is_refused_as_the_kernel_refuses_it() -> None:
    with pytest.raises(ValueError, match="firsts"):
        bitwise.play_deals([RECORDS[0].deal], STANDARD, [2])
    with pytest.raises(ValueError, match="firsts"):
        bitwise.play_deals([RECORDS[0].deal], STANDARD, [0, 1])
    with pytest.raises(ValueError, match="empty"):
        bitwise.play_deals(["KKKK" + "-" * 48 + "/"], STANDARD)


@pytest.mark.parametrize(
    "spec",
    (
        "standard",
        "stripped",
        "half-deck",
        "jacks-queens",
        "half-deck:pay=J1",
        "standard:lead=random",
        "practice-table",
        "standard:repeat=off:max-cards=200:on-stop=most-cards",
        "family-table",
    ),
)
def test_games_in_lockstep_are_the_same_games(spec: str) -> None:
    rules = rules_named(spec)
    scalar = bitwise.play_random(rules, 8, 0, 1500, lockstep=False)
    assert (bitwise.play_random(rules, 8, 0, 1500).table == scalar.table).all()
    # Fewer games than lanes, and batches that start anywhere.
    for start, count in ((3, 5), (0, 1), (11, 8), (100, 9), (1, 1499)):
        batch = bitwise.play_random(rules, 8, start, count)
        assert (batch.table == scalar.table[start : start + count]).all()
