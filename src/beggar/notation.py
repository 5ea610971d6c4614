"""Deals and their notations: compact (``-`` and ``AKQJ``), ranks, and full cards with suits.

A deal is the list of every player's stack, top card first, hands in seat order; the first
hand leads under the standard rules.

>>> deal = parse_deal("K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--")
>>> len(deal.hands), deal.size
(2, 52)
>>> parse_deal("6 7 3 2 3 5 A 9 K J 10 6 Q 9 7 3 5 9 3 4 8 K 8 6 4 J / 2QK8KT785A64AJJQ4272TQT5A9").ranks()
'673235A9KJT6Q97359348K864J/2QK8KT785A64AJJQ4272TQT5A9'
>>> parse_deal("K-/-X")
Traceback (most recent call last):
...
beggar.notation.DealError: unknown card 'X' at position 5 (hand 2, card 2)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from beggar.cards import STANDARD_DECK, Card, Deck, Rank, Suit
from beggar.errors import UserError
from beggar.rules import MAX_PLAYERS, STANDARD, Rules

NOTATIONS = ("compact", "ranks", "full")
"""The notations a deal is written in (:meth:`Deal.format`): pay values only, ranks, or ranks and suits."""


class DealError(UserError, ValueError):
    """A deal string that cannot be read, or that does not fit the deck (its field: ``"deal"``).

    ``position`` is the 1-based column in the text where the problem is, when there is one.
    """

    field = "deal"

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


@dataclass(frozen=True)
class Deal:
    """Every player's stack at the start of a game, top card first, in seat order."""

    hands: tuple[tuple[Card, ...], ...]

    @property
    def size(self) -> int:
        return sum(len(hand) for hand in self.hands)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def has_suits(self) -> bool:
        return all(card.suit is not None for hand in self.hands for card in hand)

    @property
    def has_ranks(self) -> bool:
        return all(card.rank is not None for hand in self.hands for card in hand)

    def compact(self, rules: Rules | None = None) -> str:
        """``-`` for every card that pays nothing under ``rules`` (standard), the rank for the others.

        >>> from beggar.rules import rules_named
        >>> deal = parse_deal("A2J3/4KQ5", complete=False)
        >>> deal.compact(), deal.compact(rules_named("court-only"))
        ('A-J-/-KQ-', '--J-/-KQ-')
        """
        symbols = [compact_symbol(card, rules) for hand in self.hands for card in hand]
        return compact_hands(symbols, [len(hand) for hand in self.hands])

    def ranks(self) -> str:
        """One character per card: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        if not self.has_ranks:
            raise DealError("this deal gives only '-' for number cards, so it has no rank notation")
        return "/".join("".join(str(Card(card.rank)) for card in hand) for hand in self.hands)

    def full(self) -> str:
        """Rank and suit of every card, space separated: ``QH TS 3C``."""
        if not self.has_suits:
            raise DealError("this deal has no suits, so it has no full-card notation")
        return " / ".join(" ".join(str(card) for card in hand) for hand in self.hands)

    def format(self, notation: str = "auto") -> str:
        """Write the deal in a notation of :data:`NOTATIONS`; ``auto`` keeps all it knows."""
        if notation == "compact":
            return self.compact()
        if notation == "ranks":
            return self.ranks()
        if notation == "full":
            return self.full()
        if notation == "auto":
            if self.has_suits:
                return self.full()
            return self.ranks() if self.has_ranks else self.compact()
        raise ValueError(f"unknown notation {notation!r}: choose {', '.join(NOTATIONS)} or auto")

    def __str__(self) -> str:
        return self.format()


def compact_symbol(card: Card, rules: Rules | None = None) -> str:
    """A card in compact notation: ``-`` when it pays nothing under ``rules``, else its rank."""
    if card.rank is None or (rules or STANDARD).pay_value(card) == 0:
        return "-"
    return card.rank.symbol


def compact_hands(symbols: Sequence[str], sizes: Sequence[int]) -> str:
    """Cards already written one symbol each, cut into hands of ``sizes``: the compact notation.

    The one writer of compact deals: a :class:`Deal`, a search candidate and a cycle position
    are all written through it, so :func:`parse_deal` reads every one of them back.

    >>> compact_hands("K--J-Q", [2, 4])
    'K-/-J-Q'
    """
    if sum(sizes) != len(symbols):
        raise DealError(f"hands of {list(sizes)} cards cannot hold {len(symbols)} cards")
    hands, start = [], 0
    for size in sizes:
        hands.append("".join(symbols[start : start + size]))
        start += size
    return "/".join(hands)


def parse_deal(
    text: str,
    deck: Deck = STANDARD_DECK,
    *,
    complete: bool = True,
    rules: Rules | None = None,
    any_cards: bool = False,
) -> Deal:
    """Read a deal in any notation and check it against ``deck`` (see :func:`check_deal`).

    Cards may be separated by whitespace or commas; hands by ``/``. A ``-`` is a card that pays
    nothing under ``rules`` (by default the standard rules: a two to ten).

    >>> from beggar.rules import rules_named
    >>> italian = rules_named("court-only:deck=stripped")
    >>> parse_deal("--Q------QJ----JK---/---Q---J-Q-KJ--K-K--", italian.deck, rules=italian).size
    40
    """
    if len(text) > MAX_DEAL_TEXT:
        raise DealError(f"the deal is {len(text):,} characters long; a deal is at most {MAX_DEAL_TEXT:,}")
    hands: list[list[Card]] = [[]]
    positions: list[list[int]] = [[]]
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        if ch == "/":
            hands.append([])
            positions.append([])
            i += 1
            continue
        start = i
        where = f"position {start + 1} (hand {len(hands)}, card {len(hands[-1]) + 1})"
        if ch == "-":
            card = Card(None)
            i += 1
        else:
            upper = ch.upper()
            if upper == "1" and text[i + 1 : i + 2] == "0":
                rank = Rank.TEN
                i += 2
            elif upper in "23456789TJQKA":
                rank = Rank.from_symbol(upper)
                i += 1
            else:
                hint = " (a ten is written 10 or T)" if upper == "1" else ""
                raise DealError(f"unknown card {ch!r} at {where}{hint}", start + 1)
            suit = None
            if i < n and text[i].upper() in "CDHS":
                suit = Suit(text[i].upper())
                i += 1
            card = Card(rank, suit)
        hands[-1].append(card)
        positions[-1].append(start + 1)

    deal = Deal(tuple(tuple(hand) for hand in hands))
    check_deal(deal, deck, complete=complete, positions=positions, rules=rules, any_cards=any_cards)
    return deal


def check_deal(
    deal: Deal,
    deck: Deck = STANDARD_DECK,
    *,
    complete: bool = True,
    positions: list[list[int]] | None = None,
    rules: Rules | None = None,
    any_cards: bool = False,
) -> None:
    """Raise :class:`DealError` unless ``deal`` can be dealt from ``deck``.

    With ``complete`` the deal must hold exactly the whole deck; otherwise it may hold fewer cards
    (a prepared position). ``any_cards`` lifts the deck check altogether: the position may hold
    any cards, any number of times (exercises such as a position with thirty kings). A ``-``
    stands for any card of the deck that pays nothing under ``rules``. ``positions`` gives each
    card's column in the text it was read from; by default the columns of the deal's
    one-character-per-card notation.
    """
    if positions is None:
        positions, column = [], 1
        for hand in deal.hands:
            positions.append(list(range(column, column + len(hand))))
            column += len(hand) + 1
    _check_hands(deal)
    flat = [
        (card, pos)
        for hand, hand_pos in zip(deal.hands, positions, strict=True)
        for card, pos in zip(hand, hand_pos, strict=True)
    ]
    suited = [card.suit is not None for card, _ in flat]
    if any(suited) and not all(suited):
        card, pos = next((c, p) for c, p in flat if c.suit is None)
        raise DealError(
            f"card {str(card)!r} at position {pos} has no suit, but other cards of the deal have one: "
            "give a suit for every card or for none",
            pos,
        )

    for card, pos in flat:
        if card.rank is not None and card.rank not in deck.ranks:
            raise DealError(f"card {str(card)!r} at position {pos} is not in the {deck.describe()}", pos)
        if card.suit is not None and card.suit not in deck.suits:
            raise DealError(f"card {str(card)!r} at position {pos} is not in the {deck.describe()}", pos)

    if not any_cards:
        _check_counts(flat, deck, rules)
    if complete and not any_cards and deal.size != deck.size:
        raise DealError(f"the deal has {deal.size} cards; a {deck.name} deck has {deck.size}")


def _check_hands(deal: Deal) -> None:
    """Two to eight hands, none of them empty."""
    if deal.size == 0:
        raise DealError("empty deal: give each player's cards, hands separated by '/'")
    if deal.players < 2:
        raise DealError("a deal needs at least two hands separated by '/'")
    if deal.players > MAX_PLAYERS:
        raise DealError(f"the deal has {deal.players} hands; a table seats at most {MAX_PLAYERS}")
    for index, hand in enumerate(deal.hands, 1):
        if not hand:
            raise DealError(f"hand {index} is empty: every player needs at least one card")


def _check_counts(flat: list[tuple[Card, int]], deck: Deck, rules: Rules | None) -> None:
    """No rank, no card, and no card that pays nothing more often than ``deck`` holds it."""
    pays = rules or STANDARD
    plain_ranks = [rank for rank in deck.ranks if pays.pay_value(rank) == 0]
    plain = sum(deck.count(rank) for rank in plain_ranks)
    numbers = {rank for rank in deck.ranks if rank.is_number}
    what = "number cards" if set(plain_ranks) == numbers else "cards that pay nothing"
    seen: Counter[Card] = Counter()
    by_rank: Counter[Rank] = Counter()
    blanks = 0
    for card, pos in flat:
        if card.rank is None or pays.pay_value(card) == 0:
            blanks += 1
            if blanks > plain:
                raise DealError(
                    f"too many {what}: the {deck.describe()} holds {plain}, and position {pos} is one more",
                    pos,
                )
        if card.rank is None:
            continue
        by_rank[card.rank] += 1
        if by_rank[card.rank] > deck.count(card.rank):
            raise DealError(
                f"too many {card.rank.label}s: the {deck.describe()} holds {deck.count(card.rank)}, "
                f"and position {pos} is one more",
                pos,
            )
        if card.suit is not None:
            seen[card] += 1
            if seen[card] > deck.copies:
                copies = "once" if deck.copies == 1 else f"{deck.copies} times"
                raise DealError(
                    f"card {str(card)!r} appears again at position {pos}; "
                    f"the {deck.describe()} holds it {copies}",
                    pos,
                )


def seat_name(seat: int) -> str:
    """The letter that names a seat in deals, traces and the table: A for seat 0, B, C, ..."""
    return chr(ord("A") + seat)


def seat_names(players: int) -> list[str]:
    """The names of every seat of a table: ``['A', 'B', 'C']`` for three players."""
    return [seat_name(seat) for seat in range(players)]


def deal_cards(cards: list[Card], players: int) -> Deal:
    """Deal ``cards`` one at a time round the table, starting with the first hand.

    >>> deal_cards([Card(Rank(r)) for r in range(2, 9)], 3).ranks()
    '258/36/47'
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    for index, card in enumerate(cards):
        hands[index % players].append(card)
    return Deal(tuple(tuple(hand) for hand in hands))


MAX_DEAL_TEXT = 100_000
"""The longest deal text read: room for thousands of cards, and a quick refusal of a runaway line."""


def random_deal(rules: Rules | None = None, seed: int | None = None) -> Deal:
    """A uniformly shuffled deck dealt one card at a time round the table: game 0 of run ``seed``.

    The same seed always gives the same deal, the one ``beggar simulate --seed`` plays first
    (see :mod:`beggar.kernels.rng`); without a seed, the deck is shuffled by the operating system's
    randomness, which no seed reproduces.

    >>> random_deal(seed=1) == random_deal(seed=1)
    True
    """
    rules = rules or STANDARD
    cards = rules.deck.cards()
    if seed is None:
        # A live table's deal: a 32-bit seed could be found from the first cards turned, and with
        # it every face-down card, so the operating system's randomness shuffles the deck itself.
        random.SystemRandom().shuffle(cards)
        return deal_cards(cards, rules.players)
    from beggar.kernels.rng import deal_order  # the generator is compiled: load it only when dealing

    order, _ = deal_order(seed, 0, len(cards), rules.players)
    return deal_cards([cards[k] for k in order], rules.players)
