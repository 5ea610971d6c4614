"""Every trick-end position of a small two-hand deck, indexed and played once: the complete census.

A trick-end position is the deck's ``n`` cards in one sequence, the leader's stack first (top card
first), cut after the leader's ``lead`` cards, ``1 <= lead < n`` (a position with an empty stack
has ended). Written leader first, a position and its mirror image (the seats swapped) are one
position, as the game never looks at seat numbers. Only the card *kinds* matter (a number card,
or a pay card of some value), so a deck with ``c_k`` cards of kind ``k`` has
``M = n! / prod(c_k!)`` sequences and ``M * (n - 1)`` positions.

**The index.** Sequences are ranked in lexicographic order of kinds (kind 0, the number cards,
first; :func:`rank_tables`, :func:`rank`, :func:`unrank`). Where every position can be played
(``every_cut``: a won pile going under the stack newest card first), a position's index is
``rank * (n - 1) + lead - 1``. With the pile going under oldest card first, a trick ends with the
winner leading and their stack ending with the trick's last pay card, of value ``v``, and the
``v`` number cards paid to it; no other position is met after a trick, nor is on a cycle. Only
those positions are indexed: for each pay kind ``p`` (a *block*), the deck's other ``m = n - v - 1``
cards in some order (the *rest*), cut after ``pre`` of them, ``0 <= pre < m``; the leader's stack
is the rest's first ``pre`` cards, then ``p``, then ``v`` number cards, and the other stack the
rest's other cards. Its index is ``offset[p] + rank(rest) * m + pre``. This indexes a fraction of
the positions (a thirteenth of those of a 14-card deck under the standard pay values), so the
visited bits take that much less memory.

With the pile going under newest card first, every position is indexed, but a trick ends only
where the leader's stack holds a pay card with at least its value of number cards just above it
(the pile's last pay card and the cards paid for it, reversed), and a walk starts only there: the
cuts of an arrangement that leave the leader a stack without one are skipped at once.

:func:`play_range` plays every indexed position a trick can end in once: from each one not yet
visited it walks trick by trick (the bit kernel's trick, :func:`beggar.kernels.bitwise.play_trick`,
proven equal to the reference engine) and marks each position it meets in a bit array. A walk that
meets a position of its own has found a cycle; one that meets a position of an earlier walk, or
whose game ends, has found nothing new. So each cycle is found exactly once, from the walk that
first reaches it. A position's index is computed from the bit kernel's stack words, one step per pay card.

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
from beggar.kernels.bits import get, shl, shr, tz
from beggar.kernels.bitwise import STASH, play_trick, stack_words
from beggar.kernels.codes import CAPPED_AT_TRICK, NO_LIMIT
from beggar.kernels.jit import jit, jit_inline

# Columns of a row of the index's blocks (:func:`index_blocks`).
B_OFFSET, B_SIZE, B_CUTS, B_LOW, B_CODE, B_KIND, B_PAID = range(7)
B_WIDTH = 7

_ONE = np.uint64(1)


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
def unrank_from(r: int, n: int, code: int, below: np.ndarray, strides: np.ndarray, kinds: np.ndarray) -> None:
    """Write into ``kinds[:n]`` the sequence of rank ``r`` of the multiset coded ``code`` (``n`` cards)."""
    last = strides.size
    for i in range(n):
        k = last - 1
        while below[code, k] > r or below[code, k + 1] == below[code, k]:
            k -= 1  # the greatest kind left whose sequences start at or before r
        kinds[i] = k
        r -= below[code, k]
        code -= strides[k]


@jit
def unrank(r: int, n: int, below: np.ndarray, strides: np.ndarray, kinds: np.ndarray) -> None:
    """Write into ``kinds`` (``n`` cards) the sequence of rank ``r``: the inverse of :func:`rank`."""
    unrank_from(r, n, below.shape[0] - 1, below, strides, kinds)


@jit
def index_blocks(
    counts: np.ndarray, values: np.ndarray, every_cut: bool, below: np.ndarray, strides: np.ndarray
) -> np.ndarray:
    """The blocks of the index (see the module), one row each, columns ``B_*``.

    A row holds the block's first index, its number of positions, its cuts per rest (``m``), the
    least ``pre``, the code of its rest's multiset, its pay kind and that kind's value (``-1`` and
    0 for the one block of ``every_cut``). The last row's offset plus size is the count.
    """
    kinds = counts.size
    n = 0
    for k in range(kinds):
        n += counts[k]
    full = below.shape[0] - 1
    if every_cut:
        blocks = np.zeros((1, B_WIDTH), np.int64)
        blocks[0, B_SIZE] = below[full, kinds] * (n - 1)
        blocks[0, B_CUTS] = n - 1
        blocks[0, B_LOW] = 1
        blocks[0, B_CODE] = full
        blocks[0, B_KIND] = -1
        return blocks
    blocks = np.zeros((kinds, B_WIDTH), np.int64)
    rows = 0
    offset = 0
    for k in range(1, kinds):
        v = np.int64(values[k])
        if counts[k] == 0 or counts[0] < v or n - 1 - v <= 0:
            continue
        code = full - strides[k] - v * strides[0]
        m = n - 1 - v
        blocks[rows, B_OFFSET] = offset
        blocks[rows, B_SIZE] = below[code, kinds] * m
        blocks[rows, B_CUTS] = m
        blocks[rows, B_LOW] = 0
        blocks[rows, B_CODE] = code
        blocks[rows, B_KIND] = k
        blocks[rows, B_PAID] = v
        offset += blocks[rows, B_SIZE]
        rows += 1
    return blocks[:rows].copy()


@jit
def decode(index: int, blocks: np.ndarray, below: np.ndarray, strides: np.ndarray, kinds: np.ndarray) -> int:
    """Write the position of ``index`` into ``kinds`` (every card, leader first); return the
    leader's cards."""
    b = blocks.shape[0] - 1
    while blocks[b, B_OFFSET] > index:
        b -= 1
    relative = index - blocks[b, B_OFFSET]
    cuts = blocks[b, B_CUTS]
    r = relative // cuts
    pre = relative % cuts + blocks[b, B_LOW]
    paid = blocks[b, B_PAID]
    if blocks[b, B_KIND] < 0:
        unrank_from(r, kinds.size, blocks[b, B_CODE], below, strides, kinds)
        return int(pre)
    m = kinds.size - 1 - paid
    rest = np.empty(m, np.uint8)
    unrank_from(r, m, blocks[b, B_CODE], below, strides, rest)
    kinds[:pre] = rest[:pre]
    kinds[pre] = blocks[b, B_KIND]
    kinds[pre + 1 : pre + 1 + paid] = 0
    kinds[pre + 1 + paid :] = rest[pre:]
    return int(pre + 1 + paid)


@jit_inline
def _rank_words(
    mask: np.uint64,
    w0: np.uint64,
    w1: np.uint64,
    w2: np.uint64,
    w3: np.uint64,
    count: int,
    code: int,
    r: int,
    below: np.ndarray,
    strides: np.ndarray,
    kind_of_code: np.ndarray,
) -> tuple[int, int]:
    """Rank on through a stack's first ``count`` cards (bit kernel words): ``(rank, code)`` after them.

    A number card is kind 0, before which no kind sorts, so it adds nothing to the rank: only the
    pay cards are visited, one step each.
    """
    pays = mask & (shl(_ONE, count) - _ONE)
    done = 0
    zero_stride = strides[0]
    while pays != 0:
        i = tz(pays, False)
        code -= (i - done) * zero_stride  # the number cards before this pay card
        c = get(w0, i) | (get(w1, i) << 1) | (get(w2, i) << 2) | (get(w3, i) << 3)
        k = kind_of_code[c]
        r += below[code, k]
        code -= strides[k]
        done = i + 1
        pays &= pays - _ONE
    return r, code - (count - done) * zero_stride


@jit_inline
def stash_index(
    stash: np.ndarray,
    blocks: np.ndarray,
    block_of_kind: np.ndarray,
    below: np.ndarray,
    strides: np.ndarray,
    kind_of_code: np.ndarray,
) -> int:
    """The index of the position in the bit kernel's ``stash`` (its leader's stack first), or -1
    if it is not indexed (with the oldest-first order: a leader's stack not ending as a trick ends)."""
    # Sizes as signed integers: numba would mix an unsigned word and an int into a float.
    nx: int = np.int64(stash[10])  # type: ignore[assignment]
    ny: int = np.int64(stash[11])  # type: ignore[assignment]
    if blocks[0, B_KIND] < 0:  # every cut indexed
        r, code = _rank_words(
            stash[0],
            stash[1],
            stash[2],
            stash[3],
            stash[4],
            nx,
            blocks[0, B_CODE],
            0,
            below,
            strides,
            kind_of_code,
        )
        r, code = _rank_words(
            stash[5], stash[6], stash[7], stash[8], stash[9], ny, code, r, below, strides, kind_of_code
        )
        return int(r * blocks[0, B_CUTS] + nx - 1)
    pays = stash[0] & (shl(_ONE, nx) - _ONE)
    if pays == 0:
        return -1
    top = 0
    while pays != 0:  # the leader's last pay card
        top = tz(pays, False)
        pays &= pays - _ONE
    c = get(stash[1], top) | (get(stash[2], top) << 1) | (get(stash[3], top) << 2) | (get(stash[4], top) << 3)
    b = block_of_kind[kind_of_code[c]]
    if b < 0 or blocks[b, B_PAID] != nx - 1 - top:
        return -1
    r, code = _rank_words(
        stash[0],
        stash[1],
        stash[2],
        stash[3],
        stash[4],
        top,
        blocks[b, B_CODE],
        0,
        below,
        strides,
        kind_of_code,
    )
    r, code = _rank_words(
        stash[5], stash[6], stash[7], stash[8], stash[9], ny, code, r, below, strides, kind_of_code
    )
    return int(blocks[b, B_OFFSET] + r * blocks[b, B_CUTS] + top)


@jit
def index_of(
    kinds: np.ndarray,
    lead: int,
    counts: np.ndarray,
    values: np.ndarray,
    every_cut: bool,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
) -> int:
    """The index of a leader-first position of kinds (``lead`` cards lead), or -1 if not indexed."""
    below, strides = rank_tables(counts)
    blocks = index_blocks(counts, values, every_cut, below, strides)
    block_of_kind, kind_of_code = _kind_tables(blocks, values, pays)
    cards = np.empty(kinds.size, np.uint8)
    for i in range(kinds.size):
        cards[i] = values[kinds[i]]
    stash = np.zeros(STASH, np.uint64)
    _stash_cards(cards, lead, flags, codes, stash)
    return stash_index(stash, blocks, block_of_kind, below, strides, kind_of_code)


@jit
def _kind_tables(blocks: np.ndarray, values: np.ndarray, pays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each kind's block (-1 for none) and each bit kernel plane code's kind."""
    block_of_kind = np.full(values.size, -1, np.int64)
    for b in range(blocks.shape[0]):
        if blocks[b, B_KIND] >= 0:
            block_of_kind[blocks[b, B_KIND]] = b
    kind_of_code = np.zeros(16, np.int64)
    for c in range(pays.size):
        for k in range(values.size):
            if values[k] == pays[c]:
                kind_of_code[c] = k
    return block_of_kind, kind_of_code


@jit
def _stash_cards(
    cards: np.ndarray, lead: int, flags: np.ndarray, codes: np.ndarray, stash: np.ndarray
) -> None:
    """Put a leader-first position of pay values in the bit kernel's ``stash``, the leader at seat 0."""
    n = cards.size
    x = stack_words(cards, 0, lead, flags, codes)
    y = stack_words(cards, lead, n - lead, flags, codes)
    for w in range(5):
        stash[w] = x[w]
        stash[5 + w] = y[w]
    stash[10] = lead
    stash[11] = n - lead
    stash[12] = 0


@jit_inline
def _least_trick_end(cards: np.ndarray, n: int) -> int:
    """The least leader's stack a trick can end with, under the newest-first pile order, in the
    sequence of pay values ``cards`` (``n`` if none).

    The winner's stack ends with the won pile, newest card first: the ``v`` number cards paid for
    the trick's last pay card, of value ``v``, then that card, then the older cards; so the
    leader's stack holds a pay card with at least its value of number cards just above it. (Any
    stack that holds one can end a trick: the pile is that card and everything under it, played
    as the trick's cards in turn.) The least stack holds the first such card.
    """
    run = 0
    for i in range(n):
        value = cards[i]
        if value == 0:
            run += 1
        elif run >= value:
            return i + 1
        else:
            run = 0
    return n


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
    every_cut: bool,
    flags: np.ndarray,
    codes: np.ndarray,
    pays: np.ndarray,
    newest: bool,
    when_empty: bool,
    visited: np.ndarray,
) -> tuple[np.ndarray, int]:
    """Walk from every indexed position not visited yet whose index is from ``start`` to ``stop - 1``.

    ``counts[k]`` and ``values[k]`` are the cards and the pay value of kind ``k``; ``flags``,
    ``codes`` and ``pays`` are the bit kernel's tables of the deck's values
    (:func:`beggar.kernels.bitwise.tables`), ``newest`` and ``when_empty`` its pile order and
    empty-hand rule. ``every_cut`` indexes every position, else only those a trick can end in
    (see the module: right only with the oldest-first pile order); with ``newest`` too, a walk
    starts only from a position a trick can end in. ``visited`` has one bit per
    indexed position (index ``i`` is bit ``i % 64`` of word ``i // 64``), kept from one call to
    the next. Returns the index of one position on each cycle found in this call (where its walk
    met itself) and the number of positions newly visited.
    """
    below, strides = rank_tables(counts)
    blocks = index_blocks(counts, values, every_cut, below, strides)
    block_of_kind, kind_of_code = _kind_tables(blocks, values, pays)
    n = 0
    for k in range(counts.size):
        n += counts[k]
    wide = pays.size > 4
    stash = np.zeros(STASH, np.uint64)
    kinds = np.empty(n, np.uint8)
    cards = np.empty(n, np.uint8)
    walk = np.empty(1024, np.int64)
    found = np.empty(16, np.int64)
    cycles = 0
    marked = 0
    for b in range(blocks.shape[0]):
        first = max(start, blocks[b, B_OFFSET])
        last = min(stop, blocks[b, B_OFFSET] + blocks[b, B_SIZE])
        if first >= last:
            continue
        cuts = blocks[b, B_CUTS]
        low = blocks[b, B_LOW]
        paid = blocks[b, B_PAID]
        m = n if blocks[b, B_KIND] < 0 else n - 1 - paid
        rest = kinds[:m]
        unrank_from((first - blocks[b, B_OFFSET]) // cuts, m, blocks[b, B_CODE], below, strides, rest)
        cut = (first - blocks[b, B_OFFSET]) % cuts
        pay_card = _ONE if blocks[b, B_KIND] >= 0 else np.uint64(0)
        c = codes[values[max(blocks[b, B_KIND], 0)]]
        index = first
        while index < last:
            for i in range(m):
                cards[i] = values[rest[i]]
            s = stack_words(cards, 0, m, flags, codes)  # the rest as one stack: cut it below
            if newest and blocks[b, B_KIND] < 0:
                # No trick ends with a leader's stack shorter than this arrangement's least: skip
                # those cuts (their positions are on no cycle, and no walk can meet them).
                least = _least_trick_end(cards, n) - low
                if cut < least:
                    skip = min(least, cuts) - cut
                    index += skip
                    cut += skip
            while cut < cuts and index < last:
                if not visited[index >> 6] & shl(_ONE, index & 63):
                    pre = cut + low
                    keep = shl(_ONE, pre) - _ONE
                    for w in range(5):
                        stash[w] = s[w] & keep
                        stash[5 + w] = shr(s[w], pre)
                    # the trick's last pay card (its plane bits) and the number cards paid to it
                    stash[0] |= shl(pay_card, pre)
                    for p in range(4):
                        stash[1 + p] |= shl(pay_card & np.uint64((c >> p) & 1), pre)
                    stash[10] = pre + paid + (1 if blocks[b, B_KIND] >= 0 else 0)
                    stash[11] = m - pre
                    stash[12] = 0
                    position = index
                    length = 0
                    while True:
                        visited[position >> 6] |= shl(_ONE, position & 63)
                        marked += 1
                        if length == walk.size:
                            walk = _grow(walk)
                        walk[length] = position
                        length += 1
                        played = play_trick(stash, pays, n, newest, when_empty, wide, NO_LIMIT)
                        if played[0] != CAPPED_AT_TRICK or stash[10] == 0 or stash[11] == 0:
                            break  # the game ended, or will at the next card (an empty stack must turn)
                        position = stash_index(stash, blocks, block_of_kind, below, strides, kind_of_code)
                        if position < 0:
                            raise ValueError("a trick ended in a position the index does not hold")
                        if visited[position >> 6] & shl(_ONE, position & 63):
                            for j in range(length - 1, -1, -1):
                                if walk[j] == position:  # the walk met itself: a new cycle
                                    if cycles == found.size:
                                        found = _grow(found)
                                    found[cycles] = position
                                    cycles += 1
                                    break
                            break
                index += 1
                cut += 1
            cut = 0
            next_arrangement(rest)  # the rest of the next rank
    return found[:cycles].copy(), marked
