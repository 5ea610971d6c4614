"""What the research tools can be asked: the search's strategies and targets, the cycle factory's
bands and the census's methods.

Plain data with no compiled code behind it, so that the command line reads the choices it offers
without loading the kernels (:mod:`beggar.research.search`, :mod:`beggar.research.cycles.factory`
and :mod:`beggar.research.cycles.complete` do the work).
"""

from __future__ import annotations

STRATEGIES = ("random", "hill-climb", "anneal")
"""Random sampling, hill climbing with restarts, or annealing; the first is the default."""
TARGETS = ("cards", "tricks", "loops")
"""Longest games by cards or by tricks, or deals that never end (longest by cards on the way); the
first is the default."""

TRIES_PER_PARENT = 4_000
"""Children the cycle factory tries from each cycle of its beam in one generation, by default."""
MIN_TRIES = 100
"""Tries per parent a generation needs at least (every move gets a share)."""

BANDS = ("kind", "total", "loose")
"""How the cycle factory keeps a lineage near the deck's mix (see
:meth:`beggar.research.cycles.factory.FactoryArgs`): each kind of pay card near its share, only
the share of number cards, or each pay kind up to a quarter over the deck's; the first is the default."""

PLAY = "play"
"""The census method that plays every position (:mod:`beggar.research.cycles.complete`)."""
SOLVER = "solver"
"""The census method that asks the SAT model, instance by instance (:mod:`beggar.research.cycles.census`)."""
AUTO = "auto"
"""Play every position where the bits fit the memory budget, else ask the solver."""
METHODS = (AUTO, PLAY, SOLVER)
"""The ways a census decides its instances."""
MEMORY_MIB = 256
"""The census's default memory budget for the visited bits of every position, in MiB (256 MiB:
2,147,483,648 positions)."""
