"""What each preset does to a game, measured by the kernel: length, stops, loops, who wins.

The table shows these figures beside every preset, so a family choosing "Double penalty" or a
teacher choosing the half deck sees what the choice means before the first card. A game of four
is not a game of two (it is longer, and the leader wins less often), so each preset is measured
at every number of players it allows, and the table shows the figures for the number chosen.
They are computed once, by the kernel, over :data:`GAMES` random deals of each preset and number
of players from seed :data:`SEED`, and shipped with the package (``house_rules.json``, written
by ``python -m beggar.research.houserules``); a test plays the same games again and checks every
figure, so the shipped file can never drift from the rules.

>>> figures = shipped()["standard"]
>>> figures[2].games, 150 < figures[2].median_cards < 250, figures[2].stopped, sorted(figures)[-1]
(20000, True, 0.0, 8)
>>> figures[4].median_cards > figures[2].median_cards and figures[4].leader_wins < figures[2].leader_wins
True
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import Any

from beggar.rules import PRESETS, Rules

GAMES = 20_000
"""Random deals played for each preset (the spread of a share is then under a percentage point)."""
SEED = 0
"""The seed of those deals (game ``i`` of seed 0 is the same deal everywhere)."""
FILE = "house_rules.json"


@dataclass(frozen=True)
class HouseRuleFigures:
    """How games go under one preset, over :attr:`games` random deals.

    Shares are of all games; ``leader_wins`` is the share won by the player who leads the first
    card (the practice table's "you", at a random lead whoever the draw picks).
    """

    rules: str
    players: int
    games: int
    seed: int
    median_cards: float
    p90_cards: float
    median_tricks: float
    stopped: float
    """Share of games ended by a card, trick or time limit of the preset."""
    loops: float
    """Share of games that repeat a position (they never end, or end by the preset's repeat rule)."""
    leader_wins: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def measure(rules: Rules, games: int = GAMES, seed: int = SEED) -> HouseRuleFigures:
    """Play ``games`` random deals of ``rules`` from ``seed`` and sum them up."""
    # Here, not at the top: the table server reads the shipped figures, and has no need of numpy.
    from beggar.research.simulate import simulate

    summary = simulate(rules, games, seed)
    return HouseRuleFigures(
        rules=rules.name,
        players=rules.players,
        games=summary.games,
        seed=seed,
        median_cards=summary.cards.median,
        p90_cards=summary.cards.p90,
        median_tricks=summary.tricks.median,
        stopped=round(summary.stopped / summary.games, 4),
        loops=round(summary.loops / summary.games, 4),
        leader_wins=round(summary.first_player_wins.rate, 4),
    )


def measured_tables() -> list[tuple[str, int]]:
    """Every preset of :data:`beggar.rules.PRESETS` with every number of players it allows: the
    tables that have figures."""
    return [(name, players) for name, rules in PRESETS.items() for players in rules.player_counts()]


def measure_table(name: str, players: int, games: int = GAMES, seed: int = SEED) -> HouseRuleFigures:
    """:func:`measure` for the preset called ``name`` with ``players`` players."""
    return measure(PRESETS[name].replace(players=players), games, seed)


def measure_presets(games: int = GAMES, seed: int = SEED) -> dict[str, dict[int, HouseRuleFigures]]:
    """:func:`measure_table` for every table of :func:`measured_tables`: by preset name, then by
    number of players."""
    figures: dict[str, dict[int, HouseRuleFigures]] = {}
    for name, players in measured_tables():
        figures.setdefault(name, {})[players] = measure_table(name, players, games, seed)
    return figures


@cache
def shipped() -> dict[str, dict[int, HouseRuleFigures]]:
    """The figures shipped with the package, by preset name, then by number of players."""
    text = resources.files("beggar.research").joinpath(FILE).read_text(encoding="utf-8")
    return {
        name: {int(players): HouseRuleFigures(**row) for players, row in counts.items()}
        for name, counts in json.loads(text).items()
    }


def main() -> None:
    """Measure every preset at every number of players and write the JSON the package ships (to
    standard output); the measuring takes a few minutes of one processor."""
    figures = {
        name: {str(players): row.to_dict() for players, row in counts.items()}
        for name, counts in measure_presets().items()
    }
    json.dump(figures, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
