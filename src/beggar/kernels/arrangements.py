"""The next arrangement of a sequence in lexicographic order, compiled: how every enumeration here steps.

A deck's deals (:mod:`beggar.kernels.exhaust`) and a small deck's sequences of card kinds
(:mod:`beggar.kernels.positions`) are both numbered in lexicographic order, and both are walked
by stepping one arrangement to the next in place; this module owns that step.

>>> import numpy as np
>>> sequence = np.array([0, 0, 1], np.uint8)
>>> seen = [sequence.tolist()]
>>> while next_arrangement(sequence) >= 0:
...     seen.append(sequence.tolist())
>>> seen
[[0, 0, 1], [0, 1, 0], [1, 0, 0]]
"""

from __future__ import annotations

import numpy as np

from beggar.kernels.jit import jit_inline


@jit_inline
def next_arrangement(sequence: np.ndarray) -> int:
    """Step ``sequence`` to the next arrangement of its values in lexicographic order, in place.

    Returns the first position it changed (every value before it is as it was), or -1 after the
    last arrangement (the values in decreasing order), leaving ``sequence`` unchanged. Inlined
    into each compiled caller: it is the inner step of the exhaustive enumeration.
    """
    n = sequence.size
    i = n - 2
    while i >= 0 and sequence[i] >= sequence[i + 1]:
        i -= 1
    if i < 0:
        return -1
    j = n - 1
    while sequence[j] <= sequence[i]:
        j -= 1
    sequence[i], sequence[j] = sequence[j], sequence[i]
    # The tail after i is in decreasing order: reversing it makes it the least, i.e. increasing.
    a, b = i + 1, n - 1
    while a < b:
        sequence[a], sequence[b] = sequence[b], sequence[a]
        a += 1
        b -= 1
    return i
