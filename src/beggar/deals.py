"""The index of a deal: its rank among every arrangement of a deck, in a fixed order.

A two-player deal of a deck, the leading hand first and each hand top card first, is written as
the sequence of its cards' pay values (a card that pays nothing is 0). Its **index** is its rank
among all arrangements of the deck's pay values in lexicographic order: index 0 deals every card
that pays nothing first and the highest pay cards last, and the last index is the reverse. Only
pay values count, since they are all the game looks at; so the index names a deal up to the
order of its number cards, as compact notation does.

The leading hand holds the first :func:`lead_size` cards (half the deck, rounded up): a
*balanced* deal. This order is the one of the published exhaustive searches of the Italian deck,
so an index here is the same number as their rank.

>>> deck = Arrangements.of_counts({0: 2, 1: 1, 2: 1})
>>> deck.total
12
>>> deck.unrank(0), deck.unrank(11)
((0, 0, 1, 2), (2, 1, 0, 0))
>>> deck.rank((0, 1, 2, 0))
3
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from beggar.errors import UserError
from beggar.notation import Deal, parse_deal
from beggar.rules import STANDARD, Rules


class DealIndexError(UserError, ValueError):
    """An index outside the deck's range, or a deal that is not an arrangement of the deck."""


def lead_size(size: int) -> int:
    """Cards in the leading hand of a balanced deal of ``size`` cards (the extra card, if any)."""
    return size - size // 2


def multinomial(counts: Iterable[int]) -> int:
    """Arrangements of a multiset with these multiplicities.

    >>> multinomial([18, 2, 2, 2, 2])
    3936933000
    """
    total = 0
    result = 1
    for count in counts:
        total += count
        result *= math.comb(total, count)
    return result


@dataclass(frozen=True)
class Arrangements:
    """Every arrangement of a multiset of pay values, in lexicographic order.

    ``values`` are the distinct pay values in increasing order, ``counts`` how many cards carry
    each one.
    """

    values: tuple[int, ...]
    counts: tuple[int, ...]

    @classmethod
    def of_counts(cls, counts: Mapping[int, int]) -> Arrangements:
        """The arrangements of a deck given as ``{pay value: cards}`` (values without cards dropped)."""
        kept = sorted((value, count) for value, count in counts.items() if count > 0)
        return cls(tuple(v for v, _ in kept), tuple(c for _, c in kept))

    @property
    def size(self) -> int:
        """Cards in each arrangement."""
        return sum(self.counts)

    @property
    def total(self) -> int:
        """How many arrangements there are: the number of balanced deals."""
        return multinomial(self.counts)

    def holds(self, pays: Sequence[int]) -> bool:
        """True when ``pays`` is an arrangement of this multiset."""
        found = Counter(int(v) for v in pays)
        return found == Counter(dict(zip(self.values, self.counts, strict=True)))

    def rank(self, pays: Sequence[int]) -> int:
        """The index of an arrangement (see the module's text).

        >>> half = Arrangements.of_counts({0: 18, 1: 2, 2: 2, 3: 2, 4: 2})
        >>> half.rank([4, 4, 3, 3, 2, 2, 1, 1] + [0] * 18)
        3936932999
        """
        if not self.holds(pays):
            raise DealIndexError(
                f"the deal's cards ({_describe(Counter(int(v) for v in pays))}) are not the deck's "
                f"({_describe(dict(zip(self.values, self.counts, strict=True)))})",
                field="deal",
            )
        left = list(self.counts)
        where = {value: k for k, value in enumerate(self.values)}
        remaining = self.total
        index = 0
        n = self.size
        for pay in pays:
            kind = where[int(pay)]
            # remaining = arrangements of what is left; those starting with kind k number
            # remaining * left[k] / n.
            for k in range(kind):
                if left[k]:
                    index += remaining * left[k] // n
            remaining = remaining * left[kind] // n
            left[kind] -= 1
            n -= 1
        return index

    def unrank(self, index: int) -> tuple[int, ...]:
        """The arrangement of rank ``index``: the inverse of :meth:`rank`."""
        total = self.total
        if not 0 <= index < total:
            raise DealIndexError(
                f"index {index} is outside this deck's deals: 0 to {total - 1:,}", field="index"
            )
        left = list(self.counts)
        remaining = total
        n = self.size
        pays: list[int] = []
        for _ in range(self.size):
            for k, value in enumerate(self.values):
                if not left[k]:
                    continue
                block = remaining * left[k] // n
                if index < block:
                    pays.append(value)
                    remaining = block
                    left[k] -= 1
                    n -= 1
                    break
                index -= block
        return tuple(pays)


def deck_arrangements(rules: Rules) -> Arrangements:
    """The arrangements of the rules' whole deck, by pay value."""
    return Arrangements.of_counts(Counter(rules.pay_value(card) for card in rules.deck.cards()))


def deal_index(deal: Deal | str, rules: Rules = STANDARD) -> int | None:
    """The index of a balanced two-hand deal of the rules' whole deck, or None if it has none.

    A deal has an index when it has two hands, the first holding :func:`lead_size` cards, and
    every card of the deck (by pay value).

    >>> deal_index("K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--")
    585397923484628415911
    >>> deal_index("K-/-K", STANDARD) is None
    True
    """
    parsed = deal if isinstance(deal, Deal) else parse_deal(deal, rules.deck, complete=False)
    sizes = [len(hand) for hand in parsed.hands]
    if len(sizes) != 2 or sizes[0] != lead_size(sum(sizes)):
        return None
    pays = [rules.pay_value(card) for hand in parsed.hands for card in hand]
    arrangements = deck_arrangements(rules)
    return arrangements.rank(pays) if arrangements.holds(pays) else None


def _describe(counts: Mapping[int, int]) -> str:
    return ", ".join(f"{count} paying {value}" for value, count in sorted(counts.items()) if count)


__all__ = [
    "Arrangements",
    "DealIndexError",
    "deal_index",
    "deck_arrangements",
    "lead_size",
    "multinomial",
]
