"""What each preset does to a game, measured by the kernel: length, stops, loops, who wins.

The table shows these figures beside every preset, so a family choosing "Double penalty" or a
teacher choosing the half deck sees what the choice means before the first card. They are
computed once, by the kernel, over :data:`GAMES` random deals of each preset from seed
:data:`SEED`, and shipped with the package (``house_rules.json``, written by
``python -m beggar.research.houserules``); a test plays the same games again and checks every
figure, so the shipped file can never drift from the rules.

>>> figures = shipped()["standard"]
>>> figures.games, 150 < figures.median_cards < 250, figures.stopped
(20000, True, 0.0)
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import Any

from beggar.research.simulate import simulate
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
    summary = simulate(rules, games, seed)
    return HouseRuleFigures(
        rules=rules.name,
        games=summary.games,
        seed=seed,
        median_cards=summary.cards.median,
        p90_cards=summary.cards.p90,
        median_tricks=summary.tricks.median,
        stopped=round(summary.stopped / summary.games, 4),
        loops=round(summary.loops / summary.games, 4),
        leader_wins=round(summary.first_player_wins.rate, 4),
    )


def measure_presets(games: int = GAMES, seed: int = SEED) -> dict[str, HouseRuleFigures]:
    """:func:`measure` for every preset of :data:`beggar.rules.PRESETS`, by name."""
    return {name: measure(rules, games, seed) for name, rules in PRESETS.items()}


@cache
def shipped() -> dict[str, HouseRuleFigures]:
    """The figures shipped with the package, by preset name."""
    text = resources.files("beggar.research").joinpath(FILE).read_text(encoding="utf-8")
    return {name: HouseRuleFigures(**row) for name, row in json.loads(text).items()}


def main() -> None:
    """Measure every preset and write the JSON the package ships (to standard output)."""
    figures = {name: row.to_dict() for name, row in measure_presets().items()}
    json.dump(figures, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
