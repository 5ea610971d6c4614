"""How isolated a cycle is: every single-card change at every position on it, played out.

The cycle factory (:mod:`beggar.research.cycles.factory`) grows and repairs cycles one small
change at a time, so it can only reach a cycle that some such change leads into. This module
asks the question the other way round: from each trick-end position on a cycle, it makes every
change of one card, plays each child to its end or its cycle
(:func:`beggar.kernels.cycles.canonical`, the kernel's exact play), and counts where the
children go. The changes (:data:`CHANGES`):

- ``swap``: two cards of different value change places (in one stack or across the two);
- ``shift``: one card is taken out and put back at another place, in either stack;
- ``recolor``: one card becomes a card of another value the deck has (the mix changes);
- ``delete``: one card is taken away;
- ``insert``: one card of any value the deck has is added at any place.

``swap`` and ``shift`` keep the deck's mix, so a full-deck cycle with no other cycle among them
cannot be reached by a walk among cycles of its own size. The published Italian cycle is such a
cycle: no change of one card at any of its positions runs into another cycle. (It is symmetric:
its 36 trick-end positions are 18 positions, each met once from either seat.)

A small cycle of eight cards, by contrast, is two positions away from other cycles: recoloring one
card leads 4 children into 2 other cycles, and inserting one leads 9 into 3.

>>> from beggar.rules import STANDARD
>>> hood = neighbourhood("--J-/Q-J-", STANDARD)
>>> [(t.change, t.tried, t.other, t.cycles) for t in hood.tallies]
[('swap', 34, 0, 0), ('shift', 124, 0, 0), ('recolor', 64, 4, 2), ('delete', 16, 0, 0), ('insert', 100, 9, 3)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from beggar.kernels.cycles import cycle_rows
from beggar.kernels.neighbours import ENDS, OTHER, SAME, TRIED, tally_changes
from beggar.notation import Deal
from beggar.research.cycles.canon import (
    Alphabet,
    CanonError,
    CycleForm,
    canonical_form,
    form_of,
)
from beggar.rules import Rules

CHANGES = ("swap", "shift", "recolor", "delete", "insert")
"""The single-card changes, in the order of :attr:`Neighbourhood.tallies`."""
KEEP = 4096
"""Children that run into another cycle whose canonical rows are kept for naming (the counts are exact)."""


@dataclass(frozen=True)
class ChangeTally:
    """Where the children of one kind of change went."""

    change: str
    tried: int
    """Children played (a change that gives back the same position, or empties a stack, is not one)."""
    ends: int
    """Children whose game ends."""
    same: int
    """Children that run back into the cycle itself."""
    other: int
    """Children that run into another cycle."""
    cycles: int
    """Distinct other cycles among those (counted among the first :data:`KEEP` children of all changes)."""
    full: int
    """How many of those distinct cycles hold the whole deck, in the deck's mix."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Neighbourhood:
    """A cycle and where every single-card change of its positions leads."""

    cycle: CycleForm
    positions: int
    """Distinct positions of the cycle, leader first (half the period of a symmetric cycle)."""
    tallies: tuple[ChangeTally, ...]
    """One per change, in the order of :data:`CHANGES`."""
    others: tuple[CycleForm, ...]
    """The distinct other cycles met (among the first :data:`KEEP` children), largest first."""
    complete: bool
    """Every child that met another cycle was kept for naming (no more than :data:`KEEP`)."""

    @property
    def isolated(self) -> bool:
        """No single-card change runs into another cycle."""
        return all(t.other == 0 for t in self.tallies)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cycle": self.cycle.to_dict(),
            "positions": self.positions,
            "isolated": self.isolated,
            "complete": self.complete,
            "changes": [t.to_dict() for t in self.tallies],
            "others": [form.to_dict() for form in self.others],
        }


def neighbourhood(position: str | Deal, rules: Rules, *, first: int = 0) -> Neighbourhood:
    """Make every single-card change at every position of the cycle ``position`` runs into, and play it.

    ``first`` is the seat to lead. Raises :class:`beggar.research.cycles.canon.CanonError` if the game ends or
    the rules are not ones the factory writes (two players, one pay rank per value).
    """
    form = canonical_form(position, rules, first=first)
    alphabet = Alphabet.of(rules)
    start, start_lead = alphabet.parse(form.deal)
    n = int(start.size)
    rows = cycle_rows(start, n, start_lead, alphabet.cfg, form.period_tricks)
    # A symmetric cycle meets each leader-first position twice a period (once from each seat): the
    # changes of a position are the same children either time, so each distinct position counts once.
    _, first_seen = np.unique(rows, axis=0, return_index=True)
    rows = rows[np.sort(first_seen)]
    target = np.empty(n + 1, np.uint8)
    target[0] = start_lead
    target[1:] = start
    deck_values = np.array(sorted(alphabet.deck), np.uint8)
    tally, kept, sizes, count = tally_changes(rows, n, alphabet.cfg, target, deck_values, KEEP)
    others: dict[str, CycleForm] = {}
    by_change: list[set[str]] = [set() for _ in CHANGES]
    names = _names(alphabet, kept[:count], sizes[:count, 0])
    for name, change in zip(names, sizes[:count, 1], strict=True):
        by_change[int(change)].add(name.deal)
        others.setdefault(name.deal, name)
    tallies = tuple(
        ChangeTally(
            change=change,
            tried=int(tally[c, TRIED]),
            ends=int(tally[c, ENDS]),
            same=int(tally[c, SAME]),
            other=int(tally[c, OTHER]),
            cycles=len(by_change[c]),
            full=sum(1 for deal in by_change[c] if others[deal].full),
        )
        for c, change in enumerate(CHANGES)
    )
    ordered = tuple(sorted(others.values(), key=lambda f: (-f.cards, f.deal)))
    return Neighbourhood(
        cycle=form,
        positions=int(rows.shape[0]),
        tallies=tallies,
        others=ordered,
        complete=count == int(tally[:, OTHER].sum()),
    )


def _names(alphabet: Alphabet, kept: npt.NDArray[np.uint8], sizes: npt.NDArray[np.int64]) -> list[CycleForm]:
    """The cycle forms of kept canonical rows, in order (period figures replayed from each row)."""
    names: list[CycleForm] = []
    cache: dict[bytes, CycleForm] = {}
    for row, size in zip(kept, sizes, strict=True):
        m = int(size)
        key = bytes(row[: m + 1])
        if key not in cache:
            again = form_of(alphabet, row[1 : m + 1].copy(), int(row[0]))
            if again is None:  # pragma: no cover - a canonical row of a cycle always loops
                raise CanonError("a kept cycle did not loop again")
            cache[key] = again[0]
        names.append(cache[key])
    return names
