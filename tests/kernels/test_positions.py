"""The position index of the complete census: ranks, their inverse, and the walk's starting positions."""

from __future__ import annotations

import numpy as np
import pytest

from beggar.kernels import bitwise, positions
from beggar.kernels.arrangements import next_arrangement
from beggar.research.cycles import complete
from beggar.research.cycles.canon import Alphabet, form_of
from beggar.research.cycles.kinds import Composition
from beggar.rules import STANDARD
from helpers import arrangements


def test_every_rank_of_a_small_deck_is_its_place_in_lexicographic_order() -> None:
    counts = np.array([3, 2, 1, 1], np.int64)
    below, strides = positions.rank_tables(counts)
    every = list(arrangements([3, 2, 1, 1]))
    assert int(below[-1, -1]) == len(every) == 420
    kinds = np.empty(7, np.uint8)
    stepped = np.array(every[0], np.uint8)
    for r, sequence in enumerate(every):
        positions.unrank(r, 7, below, strides, kinds)
        assert kinds.tolist() == sequence
        assert positions.rank(kinds, below, strides) == r
        changed = next_arrangement(stepped)
        if r + 1 < len(every):  # the next rank's sequence, changed from the first position that differs
            assert stepped.tolist() == every[r + 1]
            first = next(i for i, (a, b) in enumerate(zip(sequence, every[r + 1], strict=True)) if a != b)
            assert changed == first
        else:
            assert changed == -1 and stepped.tolist() == sequence


def _ends_a_trick(values: list[int], lead: int) -> bool:
    """Whether the leader's stack ends with a pay card of value ``v`` and ``v`` number cards."""
    paid = 0
    while paid < lead and values[lead - 1 - paid] == 0:
        paid += 1
    return 0 < paid < lead and values[lead - 1 - paid] == paid


@pytest.mark.parametrize("every_cut", [False, True])
def test_the_index_numbers_the_positions_a_trick_ends_in_and_decodes_them(every_cut: bool) -> None:
    deck = Composition.parse("3,2,1,1", STANDARD)
    counts = np.array(deck.counts, np.int64)
    values = np.array(deck.values, np.uint8)
    flags, codes, pays = bitwise.tables(values)
    below, strides = positions.rank_tables(counts)
    blocks = positions.index_blocks(counts, values, every_cut, below, strides)
    total = int(blocks[-1, positions.B_OFFSET] + blocks[-1, positions.B_SIZE])
    seen = set()
    decoded = np.empty(7, np.uint8)
    for r, sequence in enumerate(arrangements(list(deck.counts))):
        kinds = np.array(sequence, np.uint8)
        for lead in range(1, 7):
            index = positions.index_of(kinds, lead, counts, values, every_cut, flags, codes, pays)
            if every_cut:
                assert index == r * 6 + lead - 1
            elif not _ends_a_trick(values[kinds].tolist(), lead):
                assert index == -1
                continue
            assert 0 <= index < total and index not in seen
            seen.add(index)
            assert positions.decode(index, blocks, below, strides, decoded) == lead
            assert decoded.tolist() == sequence
    assert len(seen) == total == (420 * 6 if every_cut else complete.playable_count(deck))


def test_walks_from_positions_no_trick_ends_in_find_no_other_cycle() -> None:
    deck = Composition.parse("6,2,1,1", STANDARD)
    alphabet = Alphabet.of(STANDARD)
    counts = np.array(deck.counts, np.int64)
    values = np.array(deck.values, np.uint8)
    flags, codes, pays = bitwise.tables(values)
    below, strides = positions.rank_tables(counts)
    found = {}
    for every_cut in (True, False):
        blocks = positions.index_blocks(counts, values, every_cut, below, strides)
        total = int(blocks[-1, positions.B_OFFSET] + blocks[-1, positions.B_SIZE])
        visited = np.zeros((total + 63) // 64, np.uint64)
        cycles, played = positions.play_range(
            0, total, counts, values, every_cut, flags, codes, pays, False, False, visited
        )
        kinds = np.empty(10, np.uint8)
        forms = set()
        for index in cycles:
            lead = positions.decode(int(index), blocks, below, strides, kinds)
            form = form_of(alphabet, values[kinds], lead)
            assert form is not None
            forms.add(form[0].deal)
        found[every_cut] = (forms, played, total)
    assert found[True][0] == found[False][0] == {"--J-/Q-K-J-"}
    assert found[True][1] == found[True][2] == 22_680  # every position visited once
    assert found[False][1] == found[False][2] == 3_783  # every position a trick ends in, once
