"""The position index of the complete census: ranks, their inverse, and the walk's starting positions."""

from __future__ import annotations

import numpy as np

from beggar.kernels import positions
from beggar.kernels.arrangements import next_arrangement
from beggar.kernels.cycles import scratch, set_position
from beggar.research.cycles.canon import Alphabet, form_of
from beggar.research.cycles.kinds import Composition
from beggar.rules import STANDARD
from helpers import arrangements


def test_every_index_of_a_small_deck_is_its_rank_in_lexicographic_order() -> None:
    counts = np.array([3, 2, 1, 1], np.int64)
    values = np.array([0, 1, 2, 3], np.uint8)
    below, strides = positions.rank_tables(counts)
    every = list(arrangements([3, 2, 1, 1]))
    assert int(below[-1, -1]) == len(every) == 420
    kinds = np.empty(7, np.uint8)
    stepped = np.array(every[0], np.uint8)
    buf, head, cnt, _, _ = scratch()
    kind_of = np.arange(256, dtype=np.int64)
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
        for lead in (1, 3, 6):
            set_position(values[kinds], 7, lead, buf, head, cnt)
            for leader in (0, 1):  # written leader first, whichever seat leads
                if leader == 1:
                    set_position(
                        np.concatenate([values[kinds][lead:], values[kinds][:lead]]),
                        7,
                        7 - lead,
                        buf,
                        head,
                        cnt,
                    )
                index = positions.position_index(buf, head, cnt, leader, kind_of, below, strides, 7)
                assert index == r * 6 + lead - 1


def test_walks_from_positions_no_trick_ends_in_find_no_other_cycle() -> None:
    deck = Composition.parse("6,2,1,1", STANDARD)
    alphabet = Alphabet.of(STANDARD)
    counts = np.array(deck.counts, np.int64)
    values = np.array(deck.values, np.uint8)
    below, strides = positions.rank_tables(counts)
    total = int(below[-1, -1]) * 9
    found = {}
    for every_cut in (True, False):
        visited = np.zeros((total + 63) // 64, np.uint64)
        cycles, played = positions.play_range(0, total // 9, counts, values, alphabet.cfg, every_cut, visited)
        kinds = np.empty(10, np.uint8)
        forms = set()
        for index in cycles:
            positions.unrank(int(index) // 9, 10, below, strides, kinds)
            form = form_of(alphabet, values[kinds], int(index) % 9 + 1)
            assert form is not None
            forms.add(form[0].deal)
        found[every_cut] = (forms, played)
    assert found[True][0] == found[False][0] == {"--J-/Q-K-J-"}
    assert found[True][1] == total  # every position visited once
    assert found[False][1] < total // 5
