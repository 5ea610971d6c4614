"""What the research store holds: one data class for each kind of record, its fields its columns.

The store (:mod:`beggar.research.store`) reads and writes these, and the commands print them
through their ``to_dict``. A cycle is described once, by :class:`CycleFigures`; every kind of
stored cycle extends it.

>>> Find("K-/-K", "standard", 5, 1, "finished", 0, "random", 1).lead_name
'A'
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeVar

from beggar.notation import seat_name


def campaign_id(args: dict[str, Any]) -> str:
    """A short stable name for a search's arguments."""
    text = json.dumps(args, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Find:
    """A deal worth keeping: a long game or one that never ends."""

    deal: str
    rules: str
    """The rules spec the deal was found under (see :func:`beggar.rules.rules_named`)."""
    cards: int
    tricks: int
    status: str
    winner: int | None
    strategy: str
    seed: int
    campaign: str | None = None
    found_at: float = field(default_factory=time.time)
    lead: int = 0
    """The seat that led the game scored (drawn per game under a random lead)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def lead_name(self) -> str:
        return seat_name(self.lead)


@dataclass(frozen=True)
class Campaign:
    id: str
    args: dict[str, Any]
    scored: int
    seconds: float


_Cycle = TypeVar("_Cycle", bound="CycleFigures")


@dataclass(frozen=True)
class CycleFigures:
    """One cycle, named by its canonical position, and its figures.

    The one description of a cycle: every kind of cycle extends it (:class:`CycleOfDeck`, with the
    cards it holds; :class:`CensusCycle`, with the census instance it was met in), and every
    command prints a cycle through its :meth:`to_dict`.
    """

    deal: str
    """The canonical position in compact notation, the leader's stack first (hand 1 leads)."""
    cards: int
    period_tricks: int
    period_cards: int
    symmetric: bool
    """The cycle holds a position and its mirror image (seats swapped)."""
    split_low: int
    """The smallest lesser stack on the cycle (how unbalanced it gets)."""
    split_high: int
    """The largest lesser stack on the cycle (how close to an even split it comes)."""

    def to_dict(self) -> dict[str, Any]:
        """The cycle as the commands' ``--json`` gives it; ``lead`` is 0, since the canonical
        position is written with the leader's stack first."""
        figures = {f.name: getattr(self, f.name) for f in fields(CycleFigures)}
        return {"deal": self.deal, "lead": 0, **figures}

    def into(self, kind: type[_Cycle], **more: Any) -> _Cycle:
        """This cycle as another kind of cycle: the fields they share, and ``more``.

        >>> figures = CycleFigures("--J-/Q-J-", 8, 4, 16, True, 2, 4)
        >>> figures.into(CensusCycle, deck="standard[5,2,1]", k1=8, n1=4).deck
        'standard[5,2,1]'
        """
        names = [f.name for f in fields(kind) if f.name not in more and hasattr(self, f.name)]
        return kind(**{name: getattr(self, name) for name in names}, **more)


@dataclass(frozen=True)
class CycleOfDeck(CycleFigures):
    """A cycle and the cards of the deck it holds."""

    composition: str
    """Cards of each kind, as :meth:`~beggar.research.cycles.canon.Alphabet.describe` writes them."""
    full: bool
    """The cycle holds the whole deck."""

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "composition": self.composition, "full": self.full}


@dataclass(frozen=True)
class StoredCycle(CycleOfDeck):
    """A cycle as the factory stores it: its figures, rules, and how it was met."""

    rules: str
    met: int
    """How many times it was met (summed over every unit that met it)."""
    move: str
    """The move that first produced it (``harvest`` for a sampled small position)."""
    campaign: str | None = None
    found_at: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "rules": self.rules, "met": self.met, "move": self.move}


@dataclass(frozen=True)
class StoredBasin:
    """What a backward walk from a cycle found (see :func:`beggar.backward.deals_reaching`)."""

    rules: str
    cycle: str
    budget: int
    explored: int
    depth: int
    exhausted: bool
    deals: int
    closest_split: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CycleDeal:
    """A starting deal that runs into a stored cycle, with its lead-in."""

    rules: str
    deal: str
    cycle: str
    pre_period_tricks: int
    pre_period_cards: int

    def to_dict(self, period_cards: int) -> dict[str, Any]:
        """The deal as the commands' ``--json`` gives it: the deal, the cycle it runs into (its
        canonical position) and that cycle's ``period_cards``, which the cycle's record holds.

        >>> CycleDeal("standard", "J-/-J", "-J/J-", 0, 0).to_dict(4)
        {'deal': 'J-/-J', 'cycle': '-J/J-', 'period_cards': 4}
        """
        return {"deal": self.deal, "cycle": self.cycle, "period_cards": period_cards}


@dataclass(frozen=True)
class MoveTally:
    """Work done by one kind of factory move: tries, children that still loop, cards they added, CPU time."""

    move: str
    tries: int
    kept: int
    added: int
    seconds: float


@dataclass(frozen=True)
class CensusInstance:
    """One instance of the cycle census (see :mod:`beggar.research.cycles.census`) and the solver's answer."""

    deck: str
    period: int
    k1: int
    n1: int
    status: str
    """``sat``, ``unsat``, or ``unknown`` when ``time_limit`` ran out."""
    seconds: float
    time_limit: float | None
    positions: int
    """Positions found (each a trick end of a cycle, or of a shorter cycle played several times)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "period": self.period,
            "k1": self.k1,
            "n1": self.n1,
            "status": self.status,
            "seconds": round(self.seconds, 4),
            "time_limit": self.time_limit,
        }


@dataclass(frozen=True)
class CensusCycle(CycleFigures):
    """A cycle the census found, named by its canonical position (the leader's stack first)."""

    deck: str
    k1: int
    n1: int
    """The instance it was first met in."""


@dataclass(frozen=True)
class CensusPlay:
    """A census decided by playing every position of its deck
    (see :mod:`beggar.research.cycles.complete`): every stored instance of the deck up to
    ``max_period`` was decided by it."""

    deck: str
    max_period: int
    positions: int
    """Trick-end positions of the deck, each with an index and a visited bit."""
    played: int
    """Positions walked (the others no trick can end in)."""
    cycles: int
    """Cycles of the deck, of every period."""
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class NeverEnding:
    """A stored starting deal that never ends: where its cycle starts and how long it is."""

    deal: str
    rules: str
    cycle: str
    """The cycle's canonical position."""
    pre_period_tricks: int
    pre_period_cards: int
    period_tricks: int
    period_cards: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
