"""Compiled single-card changes of a cycle's positions, each played to its end or its cycle.

See :mod:`beggar.research.cycles.neighbours`, which calls :func:`tally` and reads its counts.
"""

from __future__ import annotations

import numpy as np

from beggar.kernels.codes import NO_LIMIT
from beggar.kernels.cycles import canonical
from beggar.kernels.jit import jit

# Columns of the compiled tally: children tried, games that end, children back on the same cycle,
# children on another cycle.
TRIED, ENDS, SAME, OTHER = range(4)


@jit
def _play(
    child: np.ndarray,
    m: int,
    lead_size: int,
    cfg: np.ndarray,
    target: np.ndarray,
    n: int,
    change: int,
    tally: np.ndarray,
    kept: np.ndarray,
    sizes: np.ndarray,
    found: np.ndarray,
) -> None:
    """Play one child of ``m`` cards and count where it goes under ``change``."""
    if lead_size < 1 or lead_size >= m:
        return
    tally[change, TRIED] += 1
    best = np.zeros(m + 1, np.uint8)
    loops, _, _, _, _, _, _, _ = canonical(child, m, lead_size, cfg, NO_LIMIT, best)
    if not loops:
        tally[change, ENDS] += 1
        return
    same = m == n
    if same:
        for i in range(n + 1):
            if best[i] != target[i]:
                same = False
                break
    if same:
        tally[change, SAME] += 1
        return
    tally[change, OTHER] += 1
    k = found[0]
    if k < kept.shape[0]:
        for i in range(m + 1):
            kept[k, i] = best[i]
        sizes[k, 0] = m
        sizes[k, 1] = change
        found[0] = k + 1


@jit
def tally_changes(
    rows: np.ndarray, n: int, cfg: np.ndarray, target: np.ndarray, values: np.ndarray, keep: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Every single-card change of every leader-first row in ``rows`` (a cycle's positions), played.

    Returns the tally (one row per change, columns tried / ends / same cycle / another cycle), and
    the canonical rows of up to ``keep`` children that ran into another cycle, with each one's
    size and change.
    ``values`` are the pay values the deck holds (what ``recolor`` and ``insert`` may write).
    """
    tally = np.zeros((5, 4), np.int64)
    kept = np.zeros((keep, n + 2), np.uint8)
    sizes = np.zeros((keep, 2), np.int64)
    found = np.zeros(1, np.int64)
    child = np.empty(n + 1, np.uint8)
    rest = np.empty(n, np.uint8)
    for r in range(rows.shape[0]):
        lead = int(rows[r, 0])
        row = rows[r, 1:]
        # swap: two cards of different value change places
        for i in range(n):
            for j in range(i + 1, n):
                if row[i] == row[j]:
                    continue
                for t in range(n):
                    child[t] = row[t]
                child[i] = row[j]
                child[j] = row[i]
                _play(child, n, lead, cfg, target, n, 0, tally, kept, sizes, found)
        # shift: a card out, then back at every other place (at the seam: under the leader's stack
        # or on top of the other)
        for i in range(n):
            lead_rest = lead - 1 if i < lead else lead
            k = 0
            for t in range(n):
                if t != i:
                    rest[k] = row[t]
                    k += 1
            for at in range(n):
                for side in range(2):
                    if side == 1 and at != lead_rest:
                        continue
                    new_lead = lead_rest + (1 if at < lead_rest or (at == lead_rest and side == 0) else 0)
                    k = 0
                    for t in range(n):
                        if t == at:
                            child[t] = row[i]
                        else:
                            child[t] = rest[k]
                            k += 1
                    unchanged = new_lead == lead
                    if unchanged:
                        for t in range(n):
                            if child[t] != row[t]:
                                unchanged = False
                                break
                    if not unchanged:
                        _play(child, n, new_lead, cfg, target, n, 1, tally, kept, sizes, found)
        # recolor: a card becomes another value of the deck
        for i in range(n):
            for v in values:
                if v == row[i]:
                    continue
                for t in range(n):
                    child[t] = row[t]
                child[i] = v
                _play(child, n, lead, cfg, target, n, 2, tally, kept, sizes, found)
        # delete: a card taken away
        for i in range(n):
            k = 0
            for t in range(n):
                if t != i:
                    child[k] = row[t]
                    k += 1
            _play(child, n - 1, lead - 1 if i < lead else lead, cfg, target, n, 3, tally, kept, sizes, found)
        # insert: a card of every value of the deck at every place
        for v in values:
            for at in range(n + 1):
                for side in range(2):
                    if side == 1 and at != lead:
                        continue
                    new_lead = lead + (1 if at < lead or (at == lead and side == 0) else 0)
                    k = 0
                    for t in range(n + 1):
                        if t == at:
                            child[t] = v
                        else:
                            child[t] = row[k]
                            k += 1
                    _play(child, n + 1, new_lead, cfg, target, n, 4, tally, kept, sizes, found)
    return tally, kept, sizes, int(found[0])
