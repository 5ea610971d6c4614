"""Compiled moves that harvest small cycles and grow them card by card.

Positions are leader-first rows of pay values (see :mod:`beggar.research.cycles.canon`). Two loops run here at
native speed:

- :func:`harvest` samples small positions (a few cards drawn from the deck, any split) and keeps
  the canonical row of every one that loops;
- :func:`attempts` changes positions on a cycle by one kind of move and keeps the canonical row of
  every child that still loops (the cycle may change).

The moves (:data:`MOVES`): ``one`` inserts one card the deck still has; ``pair`` two number cards
in one stack; ``block`` a pay card in one stack and, in the other stack, a run of the number
cards that pay it (half the time both in the opening free run, where the other stack pays it at
once and the rest of the trick is played as before); ``twin`` one card in each stack at the same
depth (half the time within the opening free run, so that they are turned one after the other and
the alternation is kept); ``run`` two to four cards in a row in one stack. The
fixed-size moves ``swap`` (two cards of different value change places), ``shift`` (one card
moves anywhere, perhaps to the other stack) and ``exchange`` (a number card becomes a pay card
the deck still has: the cycle then misses a number card instead) wander among cycles of one size
and repair the composition; ``recolor`` (a pay card becomes a pay card of another kind that
``missing`` allows) moves the mix of pay cards at a fixed size. ``one+repair`` inserts one card
and then swaps or shifts a card at random, to mend a cycle that the insertion alone would break.

Every child is played by the kernel (through :func:`beggar.kernels.cycles.canonical`), so the
game's rules live in one place.
"""

from __future__ import annotations

import numpy as np

from beggar.kernels.cycles import canonical
from beggar.kernels.jit import jit
from beggar.kernels.rng import below, uniform

MOVES = ("one", "pair", "block", "twin", "run", "swap", "shift", "exchange", "one+repair", "recolor")
"""Move kinds, by index: ``MOVES[ONE] == "one"`` and so on for the constants below."""
ONE, PAIR, BLOCK, TWIN, RUN, SWAP, SHIFT, EXCHANGE, ONE_REPAIR, RECOLOR = range(len(MOVES))
GROWING = (ONE, PAIR, BLOCK, TWIN, RUN, ONE_REPAIR)
"""Moves that add cards."""
FIXED = (SWAP, SHIFT, EXCHANGE, RECOLOR)
"""Moves that keep the number of cards."""
MAX_ADDED = 5
"""The most cards one move adds (a king's block under a scale that pays at most 4)."""
# The columns of a found child's record: its cards, the cards the move added, the tricks before
# its period, the period in tricks and in cards, the smallest and largest lesser stack on the
# cycle, and how often the least position occurs in one period.
(
    META_CARDS,
    META_ADDED,
    META_PRE_TRICKS,
    META_PERIOD_TRICKS,
    META_PERIOD_CARDS,
    META_SPLIT_LOW,
    META_SPLIT_HIGH,
    META_TIMES,
) = range(8)
META = 8
"""Columns of a found child's record (``META_CARDS`` to ``META_TIMES``)."""


@jit
def _below(state: np.uint64, n: int) -> tuple[np.uint64, int]:
    """:func:`beggar.kernels.rng.below`, its draw as a plain ``int``."""
    state, r = below(state, n)
    return state, int(r)


@jit
def _pick_missing(
    state: np.uint64, missing: np.ndarray, weights: np.ndarray, kinds: np.ndarray, pay_only: bool
) -> tuple[np.uint64, int]:
    """A value the deck still has, chosen in proportion to ``weights`` (-1 if none)."""
    total = 0.0
    for v in range(missing.size):
        if missing[v] > 0 and (not pay_only or kinds[v] != 0):
            total += weights[v]
    if total <= 0.0:
        return state, -1
    state, u = uniform(state)
    x = u * total
    last = -1
    for v in range(missing.size):
        if missing[v] > 0 and (not pay_only or kinds[v] != 0):
            last = v
            if x < weights[v]:
                return state, v
            x -= weights[v]
    return state, last


@jit
def _split(row: np.ndarray, n: int, a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    """Copy a leader-first row's two stacks into ``a`` and ``b``; returns their sizes."""
    la = int(row[0])
    lb = n - la
    for i in range(la):
        a[i] = row[1 + i]
    for i in range(lb):
        b[i] = row[1 + la + i]
    return la, lb


@jit
def _free(a: np.ndarray, la: int, b: np.ndarray, lb: int) -> int:
    """How deep the opening free run goes: the two stacks alternate number cards up to this depth.

    Cards at one depth in both stacks, above it, are turned one after the other (leader first).
    """
    depth = 0
    while depth < la and depth < lb and a[depth] == 0 and b[depth] == 0:
        depth += 1
    return depth


@jit
def _insert(stack: np.ndarray, size: int, at: int, value: int) -> int:
    """Insert ``value`` at index ``at`` of a stack of ``size`` cards; returns the new size."""
    for i in range(size, at, -1):
        stack[i] = stack[i - 1]
    stack[at] = value
    return size + 1


@jit
def _join(a: np.ndarray, la: int, b: np.ndarray, lb: int, child: np.ndarray) -> None:
    for i in range(la):
        child[i] = a[i]
    for i in range(lb):
        child[la + i] = b[i]


@jit
def _draw_small(deck: np.ndarray, m: int, state: np.uint64, out: np.ndarray) -> np.uint64:
    """Draw ``m`` cards of ``deck`` without replacement into ``out`` (a partial Fisher-Yates)."""
    work = deck.copy()
    n = work.size
    for i in range(m):
        state, j = _below(state, n - i)
        j += i
        tmp = work[i]
        work[i] = work[j]
        work[j] = tmp
        out[i] = work[i]
    return state


@jit
def harvest(
    deck: np.ndarray,
    low: int,
    high: int,
    cfg: np.ndarray,
    cap: int,
    state: np.uint64,
    tries: int,
    rows: np.ndarray,
    meta: np.ndarray,
) -> tuple[np.uint64, int, int]:
    """Sample ``tries`` positions of ``low`` to ``high`` cards from ``deck`` (pay values), any split.

    The canonical row of each cycle met goes into ``rows`` (and its figures into ``meta``) until
    ``rows`` is full. Returns the new random state, the rows written and the tries done.
    """
    values = np.empty(high, np.uint8)
    best = np.zeros(high + 1, np.uint8)
    found = 0
    done = 0
    while done < tries and found < rows.shape[0]:
        done += 1
        state, m = _below(state, high - low + 1)
        m += low
        state = _draw_small(deck, m, state, values)
        state, split = _below(state, m - 1)
        loops, pre_t, _, period_t, period_c, lo, hi, times = canonical(values, m, split + 1, cfg, cap, best)
        if loops:
            rows[found, : m + 1] = best[: m + 1]
            meta[found, META_CARDS] = m
            meta[found, META_ADDED] = 0
            meta[found, META_PRE_TRICKS] = pre_t
            meta[found, META_PERIOD_TRICKS] = period_t
            meta[found, META_PERIOD_CARDS] = period_c
            meta[found, META_SPLIT_LOW] = lo
            meta[found, META_SPLIT_HIGH] = hi
            meta[found, META_TIMES] = times
            found += 1
    return state, found, done


@jit
def _fixed(kind: int, child: np.ndarray, n: int, la: int, state: np.uint64) -> tuple[np.uint64, int]:
    """:data:`SWAP` or :data:`SHIFT` cards of a joined position in place; returns the leader's new
    stack size, or 0 if the move could not be made."""
    if kind == SWAP:  # two cards of different value change places
        for _ in range(16):
            state, i = _below(state, n)
            state, j = _below(state, n)
            if child[i] != child[j]:
                tmp = child[i]
                child[i] = child[j]
                child[j] = tmp
                return state, la
        return state, 0
    # one card moves anywhere, perhaps to the other stack
    state, i = _below(state, n)
    card = child[i]
    for k in range(i, n - 1):
        child[k] = child[k + 1]
    if i < la:
        la -= 1
    state, j = _below(state, n)
    for k in range(n - 1, j, -1):
        child[k] = child[k - 1]
    child[j] = card
    if j < la:
        la += 1
    elif j == la:  # the end of one stack or the top of the other
        state, side = _below(state, 2)
        la += side
    if la < 1 or la >= n:
        return state, 0
    return state, la


@jit
def _grow_one(
    missing: np.ndarray,
    weights: np.ndarray,
    kinds: np.ndarray,
    state: np.uint64,
    a: np.ndarray,
    la: int,
    b: np.ndarray,
    lb: int,
) -> tuple[np.uint64, int, int, int]:
    """:data:`ONE`: one card the deck still has, anywhere in either stack.

    Returns the random state, the stacks' new sizes and the cards added (-1: no move).
    """
    state, v = _pick_missing(state, missing, weights, kinds, False)
    if v < 0:
        return state, la, lb, -1
    state, h = _below(state, 2)
    if h == 0:
        state, at = _below(state, la + 1)
        la = _insert(a, la, at, kinds[v])
    else:
        state, at = _below(state, lb + 1)
        lb = _insert(b, lb, at, kinds[v])
    return state, la, lb, 1


@jit
def _grow_pair(
    missing: np.ndarray, state: np.uint64, a: np.ndarray, la: int, b: np.ndarray, lb: int
) -> tuple[np.uint64, int, int, int]:
    """:data:`PAIR`: two number cards in one stack (returns as :func:`_grow_one`)."""
    if missing[0] < 2:
        return state, la, lb, -1
    state, h = _below(state, 2)
    for _ in range(2):
        if h == 0:
            state, at = _below(state, la + 1)
            la = _insert(a, la, at, 0)
        else:
            state, at = _below(state, lb + 1)
            lb = _insert(b, lb, at, 0)
    return state, la, lb, 2


@jit
def _grow_block(
    missing: np.ndarray,
    weights: np.ndarray,
    kinds: np.ndarray,
    state: np.uint64,
    a: np.ndarray,
    la: int,
    b: np.ndarray,
    lb: int,
) -> tuple[np.uint64, int, int, int]:
    """:data:`BLOCK`: a pay card, and the number cards that pay it in the other stack (returns as
    :func:`_grow_one`)."""
    state, v = _pick_missing(state, missing, weights, kinds, True)
    if v < 0 or missing[0] < kinds[v]:
        return state, la, lb, -1
    price = int(kinds[v])
    state, aligned = _below(state, 2)
    if aligned == 1:
        # In the opening free run, the leader's pay card is paid at once by the other stack's
        # next cards: the trick splits in two and the rest of it is played as before.
        state, at = _below(state, _free(a, la, b, lb) + 1)
        la = _insert(a, la, at, price)
        for _ in range(price):
            lb = _insert(b, lb, at, 0)
    else:
        state, h = _below(state, 2)
        state, at = _below(state, (la if h == 0 else lb) + 1)
        state, at2 = _below(state, (lb if h == 0 else la) + 1)
        if h == 0:
            la = _insert(a, la, at, price)
            for _ in range(price):
                lb = _insert(b, lb, at2, 0)
        else:
            lb = _insert(b, lb, at, price)
            for _ in range(price):
                la = _insert(a, la, at2, 0)
    return state, la, lb, 1 + price


@jit
def _grow_twin(
    missing: np.ndarray,
    weights: np.ndarray,
    kinds: np.ndarray,
    state: np.uint64,
    a: np.ndarray,
    la: int,
    b: np.ndarray,
    lb: int,
) -> tuple[np.uint64, int, int, int]:
    """:data:`TWIN`: one card in each stack at the same depth (returns as :func:`_grow_one`)."""
    state, v = _pick_missing(state, missing, weights, kinds, False)
    if v < 0:
        return state, la, lb, -1
    missing[v] -= 1
    state, w = _pick_missing(state, missing, weights, kinds, False)
    missing[v] += 1
    if w < 0:
        return state, la, lb, -1
    state, aligned = _below(state, 2)
    # Half the tries stay in the opening free run, where the two cards are turned one after
    # the other and the alternation of the rest of the trick is kept.
    depth = _free(a, la, b, lb) if aligned == 1 else min(la, lb)
    state, at = _below(state, depth + 1)
    la = _insert(a, la, at, kinds[v])
    lb = _insert(b, lb, at, kinds[w])
    return state, la, lb, 2


@jit
def _grow_run(
    missing: np.ndarray,
    weights: np.ndarray,
    kinds: np.ndarray,
    state: np.uint64,
    a: np.ndarray,
    la: int,
    b: np.ndarray,
    lb: int,
) -> tuple[np.uint64, int, int, int]:
    """:data:`RUN`: a run of two to four cards in one stack (returns as :func:`_grow_one`)."""
    added = 0
    state, size = _below(state, 3)
    size += 2
    state, h = _below(state, 2)
    state, at = _below(state, (la if h == 0 else lb) + 1)
    taken = np.zeros(missing.size, np.int64)
    for _ in range(size):
        missing -= taken
        state, v = _pick_missing(state, missing, weights, kinds, False)
        missing += taken
        if v < 0:
            break
        taken[v] += 1
        if h == 0:
            la = _insert(a, la, at, kinds[v])
        else:
            lb = _insert(b, lb, at, kinds[v])
        added += 1
    if added < 2:
        return state, la, lb, -1
    return state, la, lb, added


@jit
def _recolor(
    child: np.ndarray, n: int, missing: np.ndarray, weights: np.ndarray, kinds: np.ndarray, state: np.uint64
) -> tuple[np.uint64, bool]:
    """:data:`RECOLOR`: a pay card of the joined position becomes a pay card of another kind that
    ``missing`` allows. Returns the random state and whether the move was made."""
    for _ in range(32):
        state, i = _below(state, n)
        if child[i] != 0:
            old = 0
            for v in range(kinds.size):
                if kinds[v] == child[i]:
                    old = v
            saved = missing[old]
            missing[old] = 0  # its own kind would be no change
            state, v = _pick_missing(state, missing, weights, kinds, True)
            missing[old] = saved
            if v < 0:
                return state, False
            child[i] = kinds[v]
            return state, True
    return state, False


@jit
def _exchange(
    child: np.ndarray, n: int, missing: np.ndarray, weights: np.ndarray, kinds: np.ndarray, state: np.uint64
) -> tuple[np.uint64, bool]:
    """:data:`EXCHANGE`: a number card of the joined position becomes a pay card the deck still has
    (returns as :func:`_recolor`)."""
    state, v = _pick_missing(state, missing, weights, kinds, True)
    if v < 0:
        return state, False
    for _ in range(32):
        state, i = _below(state, n)
        if child[i] == 0:
            child[i] = kinds[v]
            return state, True
    return state, False


@jit
def _make_child(
    kind: int,
    row: np.ndarray,
    n: int,
    missing: np.ndarray,
    weights: np.ndarray,
    kinds: np.ndarray,
    state: np.uint64,
    a: np.ndarray,
    b: np.ndarray,
    child: np.ndarray,
) -> tuple[np.uint64, int, int, int]:
    """Build one child of the position ``row`` by move ``kind`` (one of :data:`MOVES` but
    :data:`ONE_REPAIR`, which :func:`attempts` makes of :data:`ONE` and a fixed move) into ``child``.

    Returns the random state, the child's size, its leader's stack size and the cards added
    (size -1 when the move cannot be made).
    """
    la, lb = _split(row, n, a, b)
    if kind == SWAP or kind == SHIFT:  # noqa: SIM109 (the compiled code compares plain ints)
        _join(a, la, b, lb, child)
        state, la = _fixed(kind, child, n, la, state)
        return state, (n if la > 0 else -1), la, 0
    if kind == RECOLOR or kind == EXCHANGE:  # noqa: SIM109 (as above)
        _join(a, la, b, lb, child)
        if kind == RECOLOR:
            state, made = _recolor(child, n, missing, weights, kinds, state)
        else:
            state, made = _exchange(child, n, missing, weights, kinds, state)
        return (state, n, la, 0) if made else (state, -1, 0, 0)
    if kind == ONE:
        state, la, lb, added = _grow_one(missing, weights, kinds, state, a, la, b, lb)
    elif kind == PAIR:
        state, la, lb, added = _grow_pair(missing, state, a, la, b, lb)
    elif kind == BLOCK:
        state, la, lb, added = _grow_block(missing, weights, kinds, state, a, la, b, lb)
    elif kind == TWIN:
        state, la, lb, added = _grow_twin(missing, weights, kinds, state, a, la, b, lb)
    else:
        state, la, lb, added = _grow_run(missing, weights, kinds, state, a, la, b, lb)
    if added < 0:
        return state, -1, 0, 0
    _join(a, la, b, lb, child)
    return state, la + lb, la, added


@jit
def attempts(
    cycle: np.ndarray,
    n: int,
    missing: np.ndarray,
    weights: np.ndarray,
    kinds: np.ndarray,
    kind: int,
    tries: int,
    cfg: np.ndarray,
    cap: int,
    state: np.uint64,
    rows: np.ndarray,
    meta: np.ndarray,
) -> tuple[np.uint64, int, int]:
    """Try move ``kind`` ``tries`` times on random positions of a cycle (rows of :func:`canon.cycle_rows`).

    ``missing[v]`` counts the cards of pay value ``kinds[v]`` the cycle lacks (``kinds[0]`` is 0);
    inserted values are drawn among them in proportion to ``weights[v]``.
    Each child that loops has its canonical row written to ``rows`` and its figures to ``meta``
    (columns as :data:`META`), until ``rows`` is full. Returns the random state, the children
    written and the tries made.
    """
    width = n + MAX_ADDED + 1
    a = np.zeros(width, np.uint8)
    b = np.zeros(width, np.uint8)
    child = np.zeros(width, np.uint8)
    best = np.zeros(width + 1, np.uint8)
    found = 0
    done = 0
    while done < tries and found < rows.shape[0]:
        done += 1
        state, t = _below(state, cycle.shape[0])
        state, size, lead, added = _make_child(
            ONE if kind == ONE_REPAIR else kind, cycle[t], n, missing, weights, kinds, state, a, b, child
        )
        if size > 0 and kind == ONE_REPAIR:  # one card inserted, then a swap or a shift to mend what it broke
            state, fix = _below(state, 2)
            state, lead = _fixed(SHIFT if fix else SWAP, child, size, lead, state)
            if lead == 0:
                size = -1
        if size < 0:
            continue
        loops, pre_t, _, period_t, period_c, lo, hi, times = canonical(child, size, lead, cfg, cap, best)
        if loops:
            rows[found, : size + 1] = best[: size + 1]
            meta[found, META_CARDS] = size
            meta[found, META_ADDED] = added
            meta[found, META_PRE_TRICKS] = pre_t
            meta[found, META_PERIOD_TRICKS] = period_t
            meta[found, META_PERIOD_CARDS] = period_c
            meta[found, META_SPLIT_LOW] = lo
            meta[found, META_SPLIT_HIGH] = hi
            meta[found, META_TIMES] = times
            found += 1
    return state, found, done
