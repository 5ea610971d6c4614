"""The figures shipped beside each preset are the kernel's, for the rules as they are now."""

from __future__ import annotations

import pytest

from beggar.research import houserules
from beggar.rules import PRESETS


def test_every_preset_has_figures_for_each_number_of_players_it_allows() -> None:
    assert set(houserules.measured_tables()) >= SAMPLE
    shipped = houserules.shipped()
    assert set(shipped) == set(PRESETS), "every preset has figures, and only presets"
    for name, rules in PRESETS.items():
        assert sorted(shipped[name]) == rules.player_counts(), name
        for players, figures in shipped[name].items():
            assert (figures.rules, figures.players) == (name, players)
            assert (figures.games, figures.seed) == (houserules.GAMES, houserules.SEED)
    assert sorted(shipped["counter-clockwise"]) == [2, 3, 4, 5, 6, 7, 8]
    assert sorted(shipped["lose-when-empty"]) == [2]


SAMPLE = {("counter-clockwise", 4), ("standard", 3), ("half-deck", 8)}
"""The tables of three or more players measured again in the full run (a preset at the number it
suggests, the fewest and the most players); ``-m exhaustive`` measures every table again."""


def _marks(name: str, players: int) -> list[pytest.MarkDecorator]:
    # A game of two is played by the bit kernel (a fraction of a second a table); a game of three
    # or more by the general kernel, seconds a table: 71 tables are minutes.
    if players == 2:
        return []
    return [pytest.mark.slow] if (name, players) in SAMPLE else [pytest.mark.exhaustive]


# One test a table, so that the workers share them out.
@pytest.mark.parametrize(
    ("name", "players"),
    [
        pytest.param(name, players, marks=_marks(name, players))
        for name, players in houserules.measured_tables()
    ],
)
def test_the_shipped_figures_are_measured_again_exactly(name: str, players: int) -> None:
    measured = houserules.measure_table(name, players)
    assert measured == houserules.shipped()[name][players], "run python -m beggar.research.houserules"


def test_the_figures_say_what_a_player_would_expect() -> None:
    shipped = houserules.shipped()
    assert shipped["double-penalty"][2].median_cards < shipped["standard"][2].median_cards
    assert shipped["two-decks"][2].median_cards > 3 * shipped["standard"][2].median_cards
    for counts in shipped.values():
        for players, figures in counts.items():
            assert figures.p90_cards >= figures.median_cards
            assert 0 <= figures.stopped <= 1 and 0 <= figures.loops <= 1 and 0 < figures.leader_wins < 1
            # More players share the wins: the leader wins about one game in `players`.
            assert abs(figures.leader_wins - 1 / players) < 0.06, (figures.rules, players)
        # More players make a longer game.
        lengths = [counts[players].median_cards for players in sorted(counts)]
        assert lengths == sorted(lengths)
