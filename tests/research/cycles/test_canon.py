"""Canonical cycle forms: one cycle, one name, whatever position or seat it is met from."""

from __future__ import annotations

import random

import numpy as np
import pytest

from beggar.cycle import find_cycle
from beggar.engine import Position
from beggar.kernels.cycles import cycle_rows, loop_of
from beggar.notation import Deal, parse_deal
from beggar.research.cycles.canon import Alphabet, CanonError, canonical_form, form_of
from beggar.rules import rules_named

ITALIAN = rules_named("court-only:deck=stripped")
ITALIAN_CYCLE = "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"
CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


def test_the_published_italian_cycle_has_its_published_period() -> None:
    form = canonical_form(ITALIAN_CYCLE, ITALIAN)
    assert (form.period_tricks, form.period_cards, form.cards) == (36, 188, 40)
    assert form.full and form.composition == "-28 J4 Q4 K4"
    assert form.symmetric  # the second half of the period replays the first with the seats swapped


def test_every_position_of_a_cycle_and_its_mirror_image_give_one_form() -> None:
    alphabet = Alphabet.of(ITALIAN)
    form = canonical_form(ITALIAN_CYCLE, ITALIAN)
    positions = form.positions(alphabet)
    cycle = find_cycle(positions[0].stacks, ITALIAN, first=0, complete=False)
    assert cycle is not None and len(cycle.positions) == form.period_tricks == len(positions)
    engine = {(p.stacks.compact(), p.leader) for p in cycle.positions}
    for position in cycle.positions:
        assert canonical_form(position.stacks, ITALIAN, first=position.leader).deal == form.deal
        mirror = Deal(position.stacks.hands[::-1])
        assert canonical_form(mirror, ITALIAN, first=1 - position.leader).deal == form.deal
    ours = {_values(alphabet, p) for p in positions}
    assert ours == {_values(alphabet, p) for p in cycle.positions}
    assert len(engine) == form.period_tricks


def _values(alphabet: Alphabet, position: Position) -> tuple[tuple[int, ...], int]:
    """A position as leader-first pay values and the leader's stack size (suits and aces aside)."""
    hands = position.stacks.hands
    values, lead = alphabet.parse(Deal((hands[position.leader], hands[1 - position.leader])).compact())
    return tuple(values.tolist()), lead


def test_the_2024_standard_cycle() -> None:
    form = canonical_form(CASELLA, rules_named("standard"))
    assert (form.period_tricks, form.period_cards, form.cards, form.full) == (62, 440, 52, True)
    assert not form.symmetric
    assert 0 < form.split_low <= form.split_high <= 26


def test_a_game_that_ends_has_no_form() -> None:
    with pytest.raises(CanonError, match="does not loop"):
        canonical_form("K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--", rules_named("standard"))


@pytest.mark.parametrize("spec", ["standard", "court-only:deck=stripped", "half-deck", "newest-first"])
def test_loop_detection_agrees_with_the_reference_engine_on_small_positions(spec: str) -> None:
    rules = rules_named(spec)
    alphabet = Alphabet.of(rules)
    deck = [v for v, count in alphabet.deck.items() for _ in range(count)]
    draw = random.Random(spec)
    loops = 0
    for _ in range(2_000):
        size = draw.randint(4, 12)
        values = draw.sample(deck, size)
        lead = draw.randint(1, size - 1)
        text = alphabet.compact(values, lead)
        found = loop_of(np.array(values, np.uint8), size, lead, alphabet.cfg, 1 << 40)
        cycle = find_cycle(text, rules, first=0, complete=False)
        assert found[0] == (cycle is not None), text
        if cycle is not None:
            loops += 1
            assert found[1:] == (
                cycle.pre_period_tricks,
                cycle.pre_period_cards,
                cycle.period_tricks,
                cycle.period_cards,
            ), text
            rows = cycle_rows(
                np.array(values, np.uint8),
                size,
                lead,
                alphabet.cfg,
                cycle.pre_period_tricks + cycle.period_tricks,
            )[cycle.pre_period_tricks :]
            for row, position in zip(rows, cycle.positions, strict=True):
                assert (tuple(row[1:].tolist()), int(row[0])) == _values(alphabet, position)
    assert loops > 0


def test_the_alphabet_writes_what_the_deal_parser_reads() -> None:
    alphabet = Alphabet.of(ITALIAN)
    values, lead = alphabet.parse(ITALIAN_CYCLE)  # aces written '-', as published
    text = alphabet.compact(values, lead)
    assert text.count("A") == 4 and text.replace("A", "-") == ITALIAN_CYCLE
    deal = parse_deal(text, ITALIAN.deck)
    assert Position(deal, 0).stacks.size == 40
    found = form_of(alphabet, values, lead)
    cycle = find_cycle(text, ITALIAN)
    assert found is not None and cycle is not None
    assert found[1:] == (cycle.pre_period_tricks, cycle.pre_period_cards) == (1, 9)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("standard:pay=J1Q2K3A4T1", "number cards must not pay"),
        ("counter-clockwise", "two-player"),
    ],
)
def test_rules_the_factory_cannot_write_are_refused(spec: str, message: str) -> None:
    with pytest.raises(CanonError, match=message):
        Alphabet.of(rules_named(spec))


def test_a_position_with_more_cards_than_the_deck_is_refused() -> None:
    with pytest.raises(CanonError, match="deck holds 4"):
        Alphabet.of(rules_named("standard")).parse("JJJ/JJ-")


def test_a_position_with_more_of_a_kind_than_the_deck_is_refused_unless_asked_for() -> None:
    alphabet = Alphabet.of(rules_named("court-only:deck=stripped"))
    with pytest.raises(CanonError, match="the deck holds 4"):
        alphabet.parse("JJJ-/JJ--")
    values, lead = alphabet.parse("JJJ-/JJ--", within_deck=False)
    assert lead == 4 and alphabet.composition(values) == {0: 3, 1: 5, 2: 0, 3: 0}
