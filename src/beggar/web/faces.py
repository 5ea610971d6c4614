"""Real faces for deals written without them.

A compact deal (``K-KK----...``) names only the pay cards, and without suits; the famous games
are published that way, and the cycle factory stores its deals that way. To show real cards, the
table deals them out with a fixed, documented choice of faces that cannot change the game:

- each pay card keeps its rank and gets that rank's cards of the deck in the deck's suit order
  (clubs, diamonds, hearts, spades), in the order its copies appear in the deal;
- the ``k``-th number card (``-``) of the deal, counting from the top of the first hand, becomes
  the ``k``-th card of the deck that pays nothing under the rules, taken suit by suit and rank by
  rank: on the standard deck, rank ``2 + k % 9`` (two to ten) of suit ``k // 9``.

Under rules in which no number card pays, a number card's rank never matters, and suits play no
part anywhere in the rules (the project's rules page, ``docs/rules.md``), so the dressed deal
plays card for card like the compact one. A card the deck has run out of (a deal that does not
fit the deck) stays as it was.

>>> from beggar.notation import parse_deal
>>> dress(parse_deal("K-K-/--Q-", complete=False)).format("full")
'KC 2C KD 3C / 4C 5C QC 6C'
>>> from beggar.rules import rules_named
>>> italian = rules_named("court-only:deck=stripped")
>>> dress(parse_deal("-K-/A-", complete=False, rules=italian), italian).format("full")
'2C KC 3C / AC 4C'
"""

from __future__ import annotations

from beggar.cards import Card
from beggar.notation import Deal
from beggar.rules import STANDARD, Rules


def dress(deal: Deal, rules: Rules = STANDARD) -> Deal:
    """The deal with a face for every card that lacks a rank or a suit (see the module's rule)."""
    taken = {card for hand in deal.hands for card in hand if card.rank is not None and card.suit is not None}
    faces = [card for card in rules.deck.cards() if card not in taken]

    def face_for(card: Card) -> Card:
        wanted = (
            (lambda face: not rules.pay_value(face))
            if card.rank is None
            else (lambda face: face.rank == card.rank)
        )
        for index, face in enumerate(faces):
            if wanted(face):
                return faces.pop(index)
        return card  # the deck has no such card left: the deal does not fit the deck

    return Deal(
        tuple(
            tuple(card if card.suit is not None else face_for(card) for card in hand) for hand in deal.hands
        )
    )
