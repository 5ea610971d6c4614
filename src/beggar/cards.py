"""Cards, ranks, suits and the decks the game is played with.

Suits never matter to the rules; they exist so that a table can show real cards.
A card whose ``rank`` is ``None`` is a number card of unspecified rank: the ``-``
of the compact deal notation.

>>> Card.parse("10S")
Card(rank=<Rank.TEN: 10>, suit=<Suit.SPADES: 'S'>)
>>> STANDARD_DECK.size, STRIPPED_DECK.size, DOUBLE_DECK.size, HALF_DECK.size
(52, 40, 104, 26)
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass


class Rank(enum.IntEnum):
    """A card's rank. Two to ten are number cards; jack to ace are pay cards in the standard game."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """One character: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self]

    @property
    def label(self) -> str:
        """The rank as a person writes it: ``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return "10" if self is Rank.TEN else self.symbol

    @property
    def noun(self) -> str:
        """The rank's English name: ``"seven"``, ``"queen"``."""
        return self.name.lower()

    @property
    def is_number(self) -> bool:
        """True for two to ten."""
        return self <= Rank.TEN

    @classmethod
    def from_symbol(cls, text: str) -> Rank:
        """Parse ``2``..``10``, ``T``, ``J``, ``Q``, ``K`` or ``A`` (any case)."""
        key = text.upper()
        if key == "10":
            key = "T"
        for rank, symbol in _RANK_SYMBOLS.items():
            if symbol == key:
                return rank
        raise ValueError(f"unknown rank {text!r}: use 2-10, T, J, Q, K or A")


_RANK_SYMBOLS = {rank: str(int(rank)) for rank in Rank if rank <= 9}
_RANK_SYMBOLS.update({Rank.TEN: "T", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"})

NUMBER_RANKS = tuple(rank for rank in Rank if rank.is_number)
COURT_AND_ACE = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


class Suit(enum.Enum):
    """A card's suit; the rules never look at it."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[self.value]


@dataclass(frozen=True, order=True)
class Card:
    """One playing card. ``rank=None`` stands for "some number card" (``-``)."""

    rank: Rank | None
    suit: Suit | None = None

    @property
    def is_blank_number(self) -> bool:
        """True for the compact notation's ``-``: a number card whose rank is not given."""
        return self.rank is None

    @property
    def is_number(self) -> bool:
        """True for two to ten, and for ``-``."""
        return self.rank is None or self.rank.is_number

    def __str__(self) -> str:
        rank = "-" if self.rank is None else self.rank.symbol
        return rank + (self.suit.value if self.suit else "")

    @property
    def label(self) -> str:
        """The card as a person reads it: ``10♠``, ``Q``, ``-``."""
        rank = "-" if self.rank is None else self.rank.label
        return rank + (self.suit.symbol if self.suit else "")

    @property
    def noun(self) -> str:
        """``"queen"``, ``"seven"``, or ``"number card"`` for ``-``."""
        return "number card" if self.rank is None else self.rank.noun

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``-``, a rank (``Q``, ``10``, ``T``) or a rank and suit (``QH``, ``10S``)."""
        text = text.strip()
        if text == "-":
            return cls(None)
        if len(text) >= 2 and text[-1].upper() in "CDHS":
            return cls(Rank.from_symbol(text[:-1]), Suit(text[-1].upper()))
        return cls(Rank.from_symbol(text))


@dataclass(frozen=True)
class Deck:
    """A deck composition: which ranks and suits, and how many copies of each card."""

    name: str
    ranks: tuple[Rank, ...]
    suits: tuple[Suit, ...]
    copies: int = 1

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits) * self.copies

    def count(self, rank: Rank) -> int:
        """How many cards of ``rank`` the deck holds."""
        return len(self.suits) * self.copies if rank in self.ranks else 0

    @property
    def number_cards(self) -> int:
        """How many number cards (two to ten) the deck holds."""
        return sum(self.count(rank) for rank in NUMBER_RANKS)

    def cards(self) -> list[Card]:
        """Every card of the deck, in a fixed order (by suit, then rank)."""
        return [Card(rank, suit) for _ in range(self.copies) for suit in self.suits for rank in self.ranks]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def describe(self) -> str:
        return f"{self.name} {self.size}-card deck"


_ALL_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

STANDARD_DECK = Deck("standard", tuple(Rank), _ALL_SUITS)
STRIPPED_DECK = Deck(
    "stripped", tuple(r for r in Rank if r not in (Rank.EIGHT, Rank.NINE, Rank.TEN)), _ALL_SUITS
)
DOUBLE_DECK = Deck("double", tuple(Rank), _ALL_SUITS, copies=2)
HALF_DECK = Deck("half", tuple(Rank), (Suit.HEARTS, Suit.SPADES))

DECKS: dict[str, Deck] = {deck.name: deck for deck in (STANDARD_DECK, STRIPPED_DECK, DOUBLE_DECK, HALF_DECK)}
DECK_ALIASES = {"52": "standard", "40": "stripped", "104": "double", "26": "half"}


def deck_named(name: str) -> Deck:
    """Look up a deck by name (``standard``, ``stripped``, ``double``, ``half``) or size."""
    key = DECK_ALIASES.get(name, name).lower()
    try:
        return DECKS[key]
    except KeyError:
        raise ValueError(
            f"unknown deck {name!r}: choose standard (52), stripped (40), double (104) or half (26)"
        ) from None
