"""The figures shipped beside each preset are the kernel's, for the rules as they are now."""

from __future__ import annotations

from beggar.research import houserules
from beggar.rules import PRESETS


def test_the_shipped_figures_are_measured_again_exactly() -> None:
    shipped = houserules.shipped()
    assert set(shipped) == set(PRESETS), "every preset has figures, and only presets"
    assert houserules.measure_presets() == shipped, "run python -m beggar.research.houserules"


def test_the_figures_say_what_a_player_would_expect() -> None:
    shipped = houserules.shipped()
    assert shipped["double-penalty"].median_cards < shipped["standard"].median_cards
    assert shipped["two-decks"].median_cards > 3 * shipped["standard"].median_cards
    for figures in shipped.values():
        assert figures.p90_cards >= figures.median_cards
        assert 0 <= figures.stopped <= 1 and 0 <= figures.loops <= 1 and 0 < figures.leader_wins < 1
