"""Real faces for deals written without them.

A compact deal (``K-KK----...``) names only the pay cards, and without suits; the famous games
are published that way. To show real cards, the table deals them out with a fixed, documented
choice of faces that cannot change the game:

- each pay card keeps its rank and gets the suits clubs, diamonds, hearts, spades in the order
  its copies appear in the deal;
- the ``k``-th number card (``-``) of the deal, counting from the top of the first hand, becomes
  rank ``2 + k % 9`` (two to ten) of suit ``k // 9`` in the same suit order.

Under rules in which no number card pays, a number card's rank never matters and suits never
matter (RULES.md), so the dressed deal plays card for card like the compact one.

>>> from beggar.notation import parse_deal
>>> dress(parse_deal("K-K-/--Q-", complete=False)).format("full")
'KC 2C KD 3C / 4C 5C QC 6C'
"""

from __future__ import annotations

from beggar.cards import NUMBER_RANKS, Card, Suit
from beggar.notation import Deal

SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def dress(deal: Deal) -> Deal:
    """The deal with a face for every card that lacks a rank or a suit (see the module's rule)."""
    seen: dict[object, int] = {}
    blanks = 0
    hands: list[tuple[Card, ...]] = []
    for hand in deal.hands:
        cards: list[Card] = []
        for card in hand:
            if card.rank is None:
                rank = NUMBER_RANKS[blanks % len(NUMBER_RANKS)]
                suit = SUIT_ORDER[(blanks // len(NUMBER_RANKS)) % len(SUIT_ORDER)]
                blanks += 1
                cards.append(Card(rank, suit))
            elif card.suit is None:
                copy = seen.get(card.rank, 0)
                seen[card.rank] = copy + 1
                cards.append(Card(card.rank, SUIT_ORDER[copy % len(SUIT_ORDER)]))
            else:
                cards.append(card)
        hands.append(tuple(cards))
    return Deal(tuple(hands))
