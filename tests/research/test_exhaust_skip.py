"""``beggar exhaust``'s shortcuts change no result: blocks of equal games counted at once, games
taken up where the previous deal's left off, and four games played at a time in lockstep, each
against every deal played from its start, one at a time (which ``test_exhaust.py`` checks against
the engine), on several small decks, whole and cut into units of odd sizes."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from beggar.kernels import exhaust as kernel
from beggar.research.exhaust import ExhaustDeck, UnitResult, play_unit
from beggar.rules import rules_named

DECKS = (
    ("half-deck", "4,1,1"),
    ("half-deck", "6,2,1,1"),  # 14 deals never end
    ("half-deck", "2,2,2,2,2"),  # few number cards: many games end before the second hand's last cards
    ("court-only:deck=stripped", "9,2,2,2"),
    ("double-penalty:deck=half", "5,1,1,1,1"),
    ("jacks-queens:deck=half", "9,2,2"),
)
"""Small decks of several pay scales, where games end early and late."""

MODES = ((True, True), (False, True), (True, False))
"""``(skip, lockstep)`` of the shortcuts; ``(False, False)`` is every deal played alone."""

Summary = tuple[
    int,
    dict[int, int],
    dict[int, int],
    tuple[int, int],
    list[tuple[int, int, int, int, str]],
    list[tuple[int, int, int]],
    list[tuple[int, int, int]],
]


def _summary(deck: ExhaustDeck, parts: list[UnitResult]) -> Summary:
    """Everything a run of units records, merged as the store merges it."""
    cards: Counter[int] = Counter()
    tricks: Counter[int] = Counter()
    for part in parts:
        cards.update(part.cards)
        tricks.update(part.tricks)
    never = [
        (n.index, n.lead_in_cards, n.period_cards, n.period_tricks, n.cycle)
        for p in parts
        for n in p.never_ending
    ]
    longest = {
        measure: sorted(
            ((g.cards, g.tricks, g.index) for p in parts for g in p.longest[measure]),
            key=lambda g: (-g[0 if measure == "cards" else 1], g[2]),
        )[: kernel.LONGEST]
        for measure in ("cards", "tricks")
    }
    wins = (sum(p.wins[0] for p in parts), sum(p.wins[1] for p in parts))
    return (
        sum(p.deals for p in parts),
        dict(cards),
        dict(tricks),
        wins,
        never,
        longest["cards"],
        longest["tricks"],
    )


@functools.cache
def _plain(rules: str, cards: str) -> Summary:
    deck = ExhaustDeck.of(rules_named(rules), cards)
    return _summary(deck, [play_unit(deck.units(0, deck.total, deck.total)[0], skip=False, lockstep=False)])


@pytest.mark.parametrize(("rules", "cards"), DECKS)
@pytest.mark.parametrize(("skip", "lockstep"), MODES)
def test_every_shortcut_records_what_playing_every_deal_records(
    rules: str, cards: str, skip: bool, lockstep: bool
) -> None:
    deck = ExhaustDeck.of(rules_named(rules), cards)
    plain = _plain(rules, cards)
    whole = play_unit(deck.units(0, deck.total, deck.total)[0], skip=skip, lockstep=lockstep)
    assert _summary(deck, [whole]) == plain
    assert plain[0] == deck.total
    # Cut into units that start and end inside blocks of equal games.
    for size in (97,) if deck.total < 3000 else (deck.total // 5 + 1,):
        parts = [play_unit(unit, skip=skip, lockstep=lockstep) for unit in deck.units(0, deck.total, size)]
        assert _summary(deck, parts) == plain


@pytest.mark.parametrize("lockstep", [True, False])
def test_blocks_of_equal_games_are_counted_without_playing_them(lockstep: bool) -> None:
    deck = ExhaustDeck.of(rules_named("half-deck"), "2,2,2,2,2")
    unit = deck.units(0, deck.total, deck.total)[0]
    assert play_unit(unit, skip=False, lockstep=lockstep).games == deck.total
    skipping = play_unit(unit, lockstep=lockstep)
    assert skipping.deals == deck.total == 113_400
    assert skipping.games < deck.total - (50 if lockstep else 1000)


@pytest.mark.parametrize("lockstep", [True, False])
def test_a_full_buffer_of_never_ending_deals_loses_none(
    lockstep: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The kernel hands its never-ending deals back whenever its buffer fills, and goes on.
    deck = ExhaustDeck.of(rules_named("half-deck"), "6,2,1,1")
    plain = _plain("half-deck", "6,2,1,1")
    monkeypatch.setattr(kernel, "LOOPS", 6)
    whole = play_unit(deck.units(0, deck.total, deck.total)[0], lockstep=lockstep)
    assert len(whole.never_ending) == 14
    assert _summary(deck, [whole]) == plain


@pytest.mark.parametrize(("rules", "cards"), [("half-deck", "2,2,2,2,2"), ("half-deck", "6,2,1,1")])
def test_lanes_cut_into_chunks_inside_blocks_count_every_deal_once(
    rules: str, cards: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each lane plays a chunk of consecutive deals; chunks of a few deals start and end inside
    # blocks of equal games, and a small loop buffer makes the kernel stop and resume mid-chunk.
    from beggar.research import exhaust

    deck = ExhaustDeck.of(rules_named(rules), cards)
    plain = _plain(rules, cards)
    monkeypatch.setattr(exhaust, "CHUNK", 7)
    monkeypatch.setattr(kernel, "LOOPS", 6)
    unit = deck.units(0, deck.total, deck.total)[0]
    assert _summary(deck, [play_unit(unit)]) == plain
    # A unit smaller than the lanes leaves some lanes idle.
    small = deck.units(5, 7, deck.total)[0]
    alone = play_unit(small, skip=False, lockstep=False)
    assert _summary(deck, [play_unit(small)]) == _summary(deck, [alone])
    assert alone.deals == 2


def test_a_full_candidate_buffer_keeps_the_first_offsets_of_a_tie() -> None:
    # More than LONGEST candidates tie at the threshold, in any order: the LONGEST of the smallest
    # offsets are kept (chosen without sorting, so that the lanes' loop allocates nothing).
    import numpy as np

    draw = np.random.default_rng(7)
    count = 900
    rows = np.zeros((count, kernel.C_WIDTH), np.int64)
    rows[:, kernel.C_OFFSET] = draw.permutation(5 * count)[:count]
    rows[:, kernel.C_CARDS] = draw.choice([50, 60, 70], count, p=[0.3, 0.65, 0.05])
    histogram = np.zeros(kernel.HISTOGRAM, np.int64)
    for cards in rows[:, kernel.C_CARDS]:
        histogram[cards] += 1
    longer = int((rows[:, kernel.C_CARDS] == 70).sum())
    ties = sorted(int(r[kernel.C_OFFSET]) for r in rows if r[kernel.C_CARDS] == 60)
    assert longer < kernel.LONGEST < len(ties)
    expected = {int(r[kernel.C_OFFSET]) for r in rows if r[kernel.C_CARDS] == 70} | set(
        ties[: kernel.LONGEST]
    )
    result = rows.copy()
    kept, threshold = kernel.keep_longest(result, count, kernel.C_CARDS, histogram)
    assert threshold == 60
    assert {int(o) for o in result[:kept, kernel.C_OFFSET]} == expected and kept == len(expected)
