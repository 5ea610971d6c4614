"""``beggar construct``: cycles of chosen figures from the SAT model, and the deals that reach them.

:func:`construct` decides instances ``(period, k1, n1)`` one after another
(:mod:`beggar.research.cycles.solve`) and names each position found by its cycle's canonical form
(:func:`beggar.research.cycles.canon.played_form`); :func:`basins` walks back from each cycle found
to the balanced deals that reach it (:mod:`beggar.research.cycles.basins`). :func:`construction`
does both and answers a :class:`Construction`, which the command prints as it comes.

>>> from beggar.rules import STANDARD
>>> deck = Composition.parse("6,2,1,1", STANDARD)
>>> (decided,) = construct(deck, instances(deck, 30, k1=16, n1=4))
>>> decided.status, [found.to_dict()["deal"] for found in decided.found]
('sat', ['--J-/Q-K-J-'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from beggar.research.cycles.basins import BASIN_POSITIONS, Basin, walk_basin
from beggar.research.cycles.canon import Alphabet, CycleForm, played_form
from beggar.research.cycles.kinds import Composition, Instance
from beggar.research.cycles.solve import SAT, UNKNOWN, UNSAT, instance_status, solutions


def instances(composition: Composition, period: int, *, k1: int | None, n1: int | None) -> list[Instance]:
    """The instances of a period: the given ``k1`` and ``n1``, or every value of each left out."""
    return [
        Instance(period, a, b)
        for a in ([k1] if k1 is not None else range(1, period))
        for b in ([n1] if n1 is not None else range(1, composition.size))
    ]


@dataclass(frozen=True)
class Found:
    """A position the solver gave (and the engine replayed), on the cycle it names."""

    instance: Instance
    deal: str
    """The position found, the leader's stack first (``n1`` cards)."""
    cycle: CycleForm
    """Its cycle, by its canonical form. Its period divides the instance's: a solution may be a
    shorter cycle played more than once."""

    def to_dict(self) -> dict[str, Any]:
        """The cycle's figures (:meth:`~beggar.research.store.CycleFigures.to_dict`), with ``deal``
        the position found, ``cycle`` the canonical one, and the instance."""
        return {
            **self.cycle.to_dict(),
            "deal": self.deal,
            "cycle": self.cycle.deal,
            **self.instance.to_dict(),
        }


@dataclass(frozen=True)
class Decided:
    """One instance, decided: its status (:func:`~beggar.research.cycles.solve.instance_status`),
    the solver's time and the positions found."""

    instance: Instance
    status: str
    seconds: float
    found: list[Found]

    def to_dict(self) -> dict[str, Any]:
        """The instance, its status and its time, as ``--json`` gives them."""
        return {**self.instance.to_dict(), "status": self.status, "seconds": round(self.seconds, 4)}


def construct(
    composition: Composition,
    asked: Iterable[Instance],
    *,
    every: bool = False,
    time_limit: float | None = None,
) -> Iterator[Decided]:
    """Decide each instance of ``asked`` in turn: the first position of each (``every``: each of
    its cycles), or a proof that none exists, or ``unknown`` when ``time_limit`` runs out."""
    alphabet = Alphabet.of(composition.rules)
    for instance in asked:
        found: list[Found] = []
        answers = solutions(
            composition, instance, time_limit=time_limit, least_leader=False, limit=None if every else 1
        )
        last = None
        for last in answers:
            if last.status == SAT:
                assert last.deal is not None and last.cycle is not None
                found.append(Found(instance, last.deal, played_form(alphabet, last.cycle)))
        assert last is not None  # an enumeration gives at least one answer
        yield Decided(instance, instance_status(len(found), last.status), last.seconds, found)


def basins(
    composition: Composition, found: Iterable[Found], *, budget: int = BASIN_POSITIONS
) -> Iterator[tuple[Found, Basin]]:
    """The basin of each cycle among ``found`` (each cycle walked once), with the first position
    found on it."""
    walked: set[str] = set()
    for each in found:
        if each.cycle.deal not in walked:
            walked.add(each.cycle.deal)
            yield each, walk_basin(composition.rules, each.cycle.deal, budget=budget)


@dataclass
class Construction:
    """What ``beggar construct`` answers: each instance asked, decided, and (``--balanced``) the
    walk back from each cycle found; :meth:`to_dict` is its ``--json``."""

    composition: Composition
    decided: list[Decided] = field(default_factory=list)
    basins: list[tuple[Found, Basin]] | None = None
    """Each cycle found (its first position) with its basin; None when no walk was asked for."""

    @property
    def found(self) -> list[Found]:
        """Every position found, instance by instance."""
        return [each for decided in self.decided for each in decided.found]

    def tally(self) -> dict[str, int]:
        """How many instances are ``sat``, ``unsat`` and ``unknown``."""
        return {status: sum(d.status == status for d in self.decided) for status in (SAT, UNSAT, UNKNOWN)}

    def to_dict(self) -> dict[str, Any]:
        """The rules, the deck's size, the instances and the positions found (and the balanced deals
        that reach their cycles, as the census gives them, when they were walked back to)."""
        answer: dict[str, Any] = {
            "rules": self.composition.rules.spec(),
            "cards": self.composition.size,
            "instances": [decided.to_dict() for decided in self.decided],
            "cycles": [each.to_dict() for each in self.found],
        }
        if self.basins is not None:
            answer["deals"] = [
                reaching.to_dict(each.cycle.period_cards)
                for each, basin in self.basins
                for reaching in basin.deals
            ]
        return answer


def construction(
    composition: Composition,
    asked: Iterable[Instance],
    *,
    every: bool = False,
    time_limit: float | None = None,
    balanced: bool = False,
    budget: int = BASIN_POSITIONS,
    on_decided: Callable[[Decided], None] | None = None,
    on_basin: Callable[[Found, Basin], None] | None = None,
) -> Construction:
    """Decide each instance of ``asked`` (:func:`construct`) and, if ``balanced``, walk back from
    each cycle found (:func:`basins`, ``budget`` positions each); ``on_decided`` and ``on_basin``
    hear of each as it comes.

    >>> from beggar.rules import STANDARD
    >>> deck = Composition.parse("6,2,1,1", STANDARD)
    >>> answer = construction(deck, instances(deck, 30, k1=16, n1=None)[3:5])
    >>> answer.tally(), [found.deal for found in answer.found]
    ({'sat': 1, 'unsat': 1, 'unknown': 0}, ['--J-/Q-K-J-'])
    """
    answer = Construction(composition)
    for decided in construct(composition, asked, every=every, time_limit=time_limit):
        answer.decided.append(decided)
        if on_decided is not None:
            on_decided(decided)
    if balanced:
        answer.basins = []
        for each, basin in basins(composition, answer.found, budget=budget):
            answer.basins.append((each, basin))
            if on_basin is not None:
                on_basin(each, basin)
    return answer
