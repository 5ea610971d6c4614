"""beggar: Beggar-My-Neighbour, played exactly.

>>> from beggar import play
>>> play("K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--").tricks
1007
"""

import importlib.metadata

from beggar.cards import Card, Deck, Rank, Suit
from beggar.engine import Game, GameError, GameRecord, Outcome, Reason, Status, play
from beggar.errors import BeggarError, UserError
from beggar.notation import Deal, DealError, parse_deal, random_deal
from beggar.rules import PRESETS, STANDARD, Rules, RulesError, rules_named

__version__ = importlib.metadata.version("beggar")
"""The installed package's version, as ``pyproject.toml`` gives it (written there alone)."""

__all__ = [
    "PRESETS",
    "STANDARD",
    "BeggarError",
    "Card",
    "Deal",
    "DealError",
    "Deck",
    "Game",
    "GameError",
    "GameRecord",
    "Outcome",
    "Rank",
    "Reason",
    "Rules",
    "RulesError",
    "Status",
    "Suit",
    "UserError",
    "parse_deal",
    "play",
    "random_deal",
    "rules_named",
]
