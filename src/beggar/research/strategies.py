"""What a search can be asked: its strategies and its targets.

Plain data with no compiled code behind it, so that the command line reads the choices it offers
without loading the kernels (:mod:`beggar.research.search` does the searching).
"""

from __future__ import annotations

STRATEGIES = ("random", "hill-climb", "anneal")
"""Random sampling, hill climbing with restarts, or annealing."""
TARGETS = ("cards", "tricks", "loops")
"""Longest games by cards or by tricks, or deals that never end (longest by cards on the way)."""
