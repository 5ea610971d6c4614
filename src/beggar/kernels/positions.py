"""Every trick-end position of a small two-hand deck, indexed and played once: the complete census.

A trick-end position is the deck's ``n`` cards in one sequence, the leader's stack first (top card
first), cut after the leader's ``lead`` cards, ``1 <= lead < n`` (a position with an empty stack
has ended). Written leader first, a position and its mirror image (the seats swapped) are one
position, as the game never looks at seat numbers. Only the card *kinds* matter (a number card,
or a pay card of some value), so a deck with ``c_k`` cards of kind ``k`` has
``M = n! / prod(c_k!)`` sequences and ``M * (n - 1)`` positions. A position's **index** is
``rank * (n - 1) + lead - 1``, where ``rank`` is its sequence's rank among all sequences of the
deck in lexicographic order of kinds (kind 0, the number cards, first).

:func:`play_range` plays every position once: from each position not yet visited it walks trick
by trick (the cycle tools' compiled trick, from :mod:`beggar.kernels.cycles`) and marks each
position it meets in a bit array. A walk that meets a position of its own has found a cycle; one
that meets a position of an earlier walk, or whose game ends, has found nothing new. So each
cycle is found exactly once, from the walk that first reaches it.

>>> import numpy as np
>>> below, strides = rank_tables(np.array([2, 1], np.int64))
>>> int(below[-1, -1])  # arrangements of two number cards and one pay card
3
>>> [int(rank(np.array(kinds, np.uint8), below, strides)) for kinds in ([0, 0, 1], [0, 1, 0], [1, 0, 0])]
[0, 1, 2]
"""

from __future__ import annotations

import numpy as np

from beggar.kernels.arrangements import next_arrangement
from beggar.kernels.cycles import RING_MASK, play_trick, scratch, set_position
from beggar.kernels.jit import jit


@jit
def rank_tables(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tables that rank a deck's sequences: ``(below, strides)``.

    A multiset of cards left is coded ``sum(c_k * strides[k])`` (mixed radix, ``c_k`` at most the
    deck's count of kind ``k``). ``below[code, k]`` counts the sequences of that multiset that
    start with a kind less than ``k``; ``below[code, kinds]`` counts all of them, so
    ``below[-1, -1]`` is the number of sequences of the whole deck.
    """
    kinds = counts.size
    strides = np.empty(kinds, np.int64)
    size = 1
    for k in range(kinds):
        strides[k] = size
        size *= counts[k] + 1
    below = np.zeros((size, kinds + 1), np.int64)
    left = np.zeros(kinds, np.int64)
    for code in range(size):
        rest = code
        empty = True
        for k in range(kinds):
            left[k] = rest % (counts[k] + 1)
            rest //= counts[k] + 1
            empty = empty and left[k] == 0
        if empty:
            below[code, kinds] = 1  # the empty sequence
            continue
        total = 0
        for k in range(kinds):
            below[code, k] = total
            if left[k] > 0:
                total += below[code - strides[k], kinds]  # sequences starting with kind k
        below[code, kinds] = total
    return below, strides


@jit
def rank(kinds: np.ndarray, below: np.ndarray, strides: np.ndarray) -> int:
    """The rank of a sequence of kinds (the whole deck) among the deck's sequences."""
    code = below.shape[0] - 1
    r = 0
    for i in range(kinds.size):
        k = kinds[i]
        r += below[code, k]
        code -= strides[k]
    return r


@jit
def unrank(r: int, n: int, below: np.ndarray, strides: np.ndarray, kinds: np.ndarray) -> None:
    """Write into ``kinds`` (``n`` cards) the sequence of rank ``r``: the inverse of :func:`rank`."""
    code = below.shape[0] - 1
    last = strides.size
    for i in range(n):
        k = last - 1
        while below[code, k] > r or below[code, k + 1] == below[code, k]:
            k -= 1  # the greatest kind left whose sequences start at or before r
        kinds[i] = k
        r -= below[code, k]
        code -= strides[k]


@jit
def position_index(
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    leader: int,
    kind_of: np.ndarray,
    below: np.ndarray,
    strides: np.ndarray,
    n: int,
) -> int:
    """The index of the position in the ring buffers, written leader first (see the module)."""
    code = below.shape[0] - 1
    r = 0
    for seat in (leader, 1 - leader):
        h = head[seat]
        for i in range(cnt[seat]):
            k = kind_of[buf[seat, (h + i) & RING_MASK]]
            r += below[code, k]
            code -= strides[k]
    return r * (n - 1) + int(cnt[leader]) - 1


@jit
def _grow(array: np.ndarray) -> np.ndarray:
    bigger = np.empty(2 * array.size, array.dtype)
    bigger[: array.size] = array
    return bigger


@jit
def play_range(
    start: int,
    stop: int,
    counts: np.ndarray,
    values: np.ndarray,
    cfg: np.ndarray,
    every_cut: bool,
    visited: np.ndarray,
) -> tuple[np.ndarray, int]:
    """Walk from every position not visited yet whose sequence has a rank from ``start`` to ``stop - 1``.

    ``counts[k]`` and ``values[k]`` are the cards and the pay value of kind ``k``; ``visited`` has
    one bit per position of the deck (index ``i`` is bit ``i % 64`` of word ``i // 64``), kept
    from one call to the next. Unless ``every_cut``, a walk starts only from a position some
    trick can end in: with a won pile going under the stack oldest card first, the leader's stack
    ends with the last pay card of the trick and the number cards paid to it (a pay card of value
    ``v``, then ``v`` number cards); no other position is on a cycle, so no cycle is missed, and
    every position a walk reaches is of that kind. Returns the index of one position on each cycle
    found in this call (where its walk met itself) and the number of positions newly visited.
    """
    below, strides = rank_tables(counts)
    n = 0
    for k in range(counts.size):
        n += counts[k]
    kind_of = np.zeros(256, np.int64)
    for k in range(values.size):
        kind_of[values[k]] = k
    buf, head, cnt, out, pile = scratch()
    kinds = np.empty(n, np.uint8)
    cards = np.empty(n, np.uint8)
    zeros = np.zeros(n, np.int64)
    walk = np.empty(1024, np.int64)
    found = np.empty(16, np.int64)
    cycles = 0
    marked = 0
    if start >= stop:
        return found[:0].copy(), 0
    unrank(start, n, below, strides, kinds)
    for r in range(start, stop):
        if r > start:
            next_arrangement(kinds)  # the sequence of the next rank
        run = 0
        for i in range(n):
            cards[i] = values[kinds[i]]
            run = run + 1 if cards[i] == 0 else 0
            zeros[i] = run
        for lead in range(1, n):
            if not every_cut:
                paid = zeros[lead - 1]  # the number cards at the bottom of the leader's stack
                if paid == 0 or paid >= lead or cards[lead - 1 - paid] != paid:
                    continue
            first = r * (n - 1) + lead - 1
            if visited[first >> 6] & (np.uint64(1) << np.uint64(first & 63)):
                continue
            set_position(cards, n, lead, buf, head, cnt)
            leader = 0
            index = first
            length = 0
            while True:
                visited[index >> 6] |= np.uint64(1) << np.uint64(index & 63)
                marked += 1
                if length == walk.size:
                    walk = _grow(walk)
                walk[length] = index
                length += 1
                turned, leader = play_trick(buf, head, cnt, out, pile, n, cfg, leader)
                if turned < 0 or cnt[0] == 0 or cnt[1] == 0:
                    break  # the game ended, or will at the next card (an empty stack must turn)
                index = position_index(buf, head, cnt, leader, kind_of, below, strides, n)
                if visited[index >> 6] & (np.uint64(1) << np.uint64(index & 63)):
                    for j in range(length - 1, -1, -1):
                        if walk[j] == index:  # the walk met itself: a new cycle
                            if cycles == found.size:
                                found = _grow(found)
                            found[cycles] = index
                            cycles += 1
                            break
                    break
    return found[:cycles].copy(), marked
