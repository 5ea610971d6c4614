"""Compiled play of short two-hand positions, trick by trick: the engine of the cycle tools.

See :mod:`beggar.research.cycles.canon` for the positions and forms these functions play and compare.
"""

from __future__ import annotations

import numpy as np

from beggar.kernels.codes import NO_LIMIT, REASON_REPEAT
from beggar.kernels.general import deal_hands, play_general
from beggar.kernels.jit import jit, runtime

WIDTH = 256
"""Capacity of each stack's ring buffer: every deck has fewer cards."""
RING_MASK = WIDTH - 1


@jit
def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Ring buffers for two stacks, their heads and sizes, out flags and the pile."""
    buf = np.zeros((2, WIDTH), np.uint8)
    head = np.zeros(2, np.int64)
    cnt = np.zeros(2, np.int64)
    out = np.zeros(2, np.uint8)
    pile = np.zeros(WIDTH, np.uint8)
    return buf, head, cnt, out, pile


@jit
def set_position(
    values: np.ndarray, n: int, lead_size: int, buf: np.ndarray, head: np.ndarray, cnt: np.ndarray
) -> None:
    """Put a leader-first position (``n`` pay values, the leader's ``lead_size`` first) in the buffers."""
    lengths = np.empty(2, np.int64)
    lengths[0] = lead_size
    lengths[1] = n - lead_size
    deal_hands(values, lengths, runtime(2), buf, head, cnt)


@jit
def loop_of(
    values: np.ndarray, n: int, lead_size: int, cfg: np.ndarray, cap: int
) -> tuple[bool, int, int, int, int]:
    """Does the position loop within ``cap`` cards?

    Returns ``(loops, pre tricks, pre cards, period tricks, period cards)``. The first hand
    (``lead_size`` cards) leads. A position with an empty stack never loops.
    """
    if lead_size < 1 or lead_size >= n:
        return False, 0, 0, 0, 0
    buf, head, cnt, out, pile = scratch()
    set_position(values, n, lead_size, buf, head, cnt)
    r = play_general(buf, head, cnt, out, pile, RING_MASK, n, cfg, 0, runtime(True), cap, NO_LIMIT)
    if r[0] != REASON_REPEAT:
        return False, 0, 0, 0, 0
    return True, r[5], r[4], r[2] - r[5], r[1] - r[4]


@jit
def play_trick(
    buf: np.ndarray,
    head: np.ndarray,
    cnt: np.ndarray,
    out: np.ndarray,
    pile: np.ndarray,
    n: int,
    cfg: np.ndarray,
    leader: int,
) -> tuple[int, int]:
    """Play one trick from the position in the buffers: ``(cards turned, next leader)``.

    The kernel stops at the trick's end. Its winner is the one whose stack grew: the loser only
    gives cards away and the winner takes back the whole pile, so the winner's stack gains
    exactly what the loser paid. Returns ``(-1, -1)`` if the game ended instead.
    """
    before = cnt[0]
    r = play_general(buf, head, cnt, out, pile, RING_MASK, n, cfg, leader, runtime(False), NO_LIMIT, 1)
    if r[0] >= 0:  # an ending reason, not the trick cap
        return -1, -1
    return r[1], (0 if cnt[0] > before else 1)


@jit
def _row(buf: np.ndarray, head: np.ndarray, cnt: np.ndarray, leader: int, row: np.ndarray) -> None:
    """Write the position leader first: the leader's stack size, then both stacks' pay values."""
    row[0] = cnt[leader]
    k = 1
    for seat in (leader, 1 - leader):
        h = head[seat]
        for i in range(cnt[seat]):
            row[k] = buf[seat, (h + i) & RING_MASK]
            k += 1


@jit
def _less(a: np.ndarray, b: np.ndarray) -> int:
    """-1, 0 or 1 as ``a`` is less than, equal to or greater than ``b`` (same length)."""
    for i in range(a.size):
        if a[i] != b[i]:
            return -1 if a[i] < b[i] else 1
    return 0


@jit
def canonical(
    values: np.ndarray, n: int, lead_size: int, cfg: np.ndarray, cap: int, best: np.ndarray
) -> tuple[bool, int, int, int, int, int, int, int]:
    """The canonical position of the cycle this position runs into, written into ``best`` (``n + 1``).

    Returns ``(loops, pre tricks, pre cards, period tricks, period cards, smallest lesser stack,
    largest lesser stack, times the least position occurs in one period)``.
    """
    loops, pre_tricks, pre_cards, period_tricks, period_cards = loop_of(values, n, lead_size, cfg, cap)
    if not loops:
        return False, 0, 0, 0, 0, 0, 0, 0
    buf, head, cnt, out, pile = scratch()
    set_position(values, n, lead_size, buf, head, cnt)
    leader = 0
    for _ in range(pre_tricks):
        _, leader = play_trick(buf, head, cnt, out, pile, n, cfg, leader)
    row = np.empty(n + 1, np.uint8)
    low = n
    high = 0
    times = 0
    for t in range(period_tricks):
        _row(buf, head, cnt, leader, row)
        order = -1 if t == 0 else _less(row, best[: n + 1])
        if order < 0:
            best[: n + 1] = row
            times = 1
        elif order == 0:
            times += 1
        lesser = min(cnt[0], cnt[1])
        low = min(low, lesser)
        high = max(high, lesser)
        _, leader = play_trick(buf, head, cnt, out, pile, n, cfg, leader)
    return True, pre_tricks, pre_cards, period_tricks, period_cards, low, high, times


@jit
def cycle_rows(values: np.ndarray, n: int, lead_size: int, cfg: np.ndarray, tricks: int) -> np.ndarray:
    """The ``tricks`` positions from a position on a cycle, one leader-first row each (as :func:`_row`)."""
    rows = np.zeros((tricks, n + 1), np.uint8)
    buf, head, cnt, out, pile = scratch()
    set_position(values, n, lead_size, buf, head, cnt)
    leader = 0
    for t in range(tricks):
        _row(buf, head, cnt, leader, rows[t])
        _, leader = play_trick(buf, head, cnt, out, pile, n, cfg, leader)
    return rows
