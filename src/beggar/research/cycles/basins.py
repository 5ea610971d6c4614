"""A cycle's basin: the backward walk from a cycle to the balanced deals that run into it.

Every position on the cycle is walked backward (:func:`beggar.backward.deals_reaching`) within a
budget of positions, and every balanced starting deal met (the first hand leads) is played forward
and kept with its lead-in. A deal that does not run into this very cycle (the same canonical form)
would be a fault of backward play: it is an error, never a result. The cycle factory, the census
and ``beggar construct --balanced`` all walk through :func:`walk_basin`, with one budget;
:func:`walk_census_basins` walks and stores those of a census (``beggar census --balanced``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from beggar.backward import deals_reaching
from beggar.research.store import CycleDeal, Store, StoredBasin
from beggar.rules import Rules

if TYPE_CHECKING:
    from beggar.research.cycles.canon import CycleForm
    from beggar.research.cycles.kinds import Composition

BASIN_POSITIONS = 5_000
"""Positions a backward walk from one cycle explores at most, unless asked otherwise."""
MAX_TRICKS = 1_000_000
"""Tricks a backward walk goes back at most: in practice no bound, the budget of positions ends it."""


@dataclass(frozen=True)
class Basin:
    """What a backward walk from one cycle found: the walk as stored, and each deal with its lead-in."""

    cycle: CycleForm
    stored: StoredBasin
    deals: list[CycleDeal]
    """Each balanced deal reaching the cycle, checked forward, in the order of their text."""


def walk_basin(
    rules: Rules, cycle: str, *, budget: int = BASIN_POSITIONS, max_tricks: int = MAX_TRICKS
) -> Basin:
    """Walk back from every position of the cycle named ``cycle`` (its canonical position).

    Raises :class:`~beggar.research.cycles.canon.CanonError` if ``cycle`` is not the canonical
    position of a cycle, or if a deal met does not run into it.
    """
    from beggar.research.cycles.canon import Alphabet, CanonError, form_of  # compiled play

    started = time.perf_counter()
    alphabet = Alphabet.of(rules)
    values, lead = alphabet.parse(cycle)
    found = form_of(alphabet, values, lead)
    if found is None or found[0].deal != cycle:
        raise CanonError(f"{cycle} is not the canonical position of a cycle")
    form = found[0]
    search = deals_reaching(form.positions(alphabet), rules, max_tricks=max_tricks, max_positions=budget)
    deals: list[CycleDeal] = []
    for text in sorted(search.deals):
        start, size = alphabet.parse(text)
        reached = form_of(alphabet, start, size)
        if reached is None or reached[0].deal != cycle:
            raise CanonError(f"backward play gave {text}, which does not run into {cycle}")
        deals.append(CycleDeal(rules.spec(), text, cycle, reached[1], reached[2]))
    stored = StoredBasin(
        rules=rules.spec(),
        cycle=cycle,
        budget=budget,
        explored=search.explored,
        depth=len(search.positions_by_depth),
        exhausted=search.exhausted,
        deals=len(deals),
        closest_split=f"{search.closest[0]}/{search.closest[1]}",
        seconds=round(time.perf_counter() - started, 3),
    )
    return Basin(form, stored, deals)


def walk_census_basins(
    store: Store, composition: Composition, max_period: int, *, budget: int = BASIN_POSITIONS
) -> list[StoredBasin]:
    """Walk back from every cycle the census of ``composition`` stored, of at most ``max_period``
    cards, that no walk under its rules has reached yet, and store each walk with its deals (in
    one transaction each, so that a census stopped between two walks resumes at the next).

    The walks made, in the order of the census's cycles; none for a cycle walked before.
    """
    rules = composition.rules
    done = store.basins(rules=rules.spec())
    walked = []
    for cycle in store.census_cycles(composition.key()):
        if cycle.period_cards <= max_period and (rules.spec(), cycle.deal) not in done:
            basin = walk_basin(rules, cycle.deal, budget=budget)
            store.save_basin(basin.stored, basin.deals)
            walked.append(basin.stored)
    return walked
