"""Canonical forms of cycles: one cycle, one name, however it was met.

A position here is two stacks of pay values written *leader first* (the player about to lead is
hand 1), so a position and its mirror image (the same stacks with the seats swapped) are the same
thing: the game never looks at seat numbers. A cycle is the ring of trick-end positions a looping
game runs through for ever. Its **canonical form** is the least of its positions in a fixed order
(the leader's stack size first, then the pay values, leader's stack then the other), so a cycle met
from any of its positions, or from a deal that runs into it, gets the same form.

A cycle is **symmetric** when it contains a position and its mirror image: then the second half of
the period replays the first with the seats swapped, and the least position occurs twice in one
period (the leader-first sequence has half the period).

The play itself is the batch kernel's (:func:`beggar.kernels.general.play_general`, with exact repeat
detection at trick ends); this module only walks it trick by trick and compares positions. The
reference for it, :func:`played_form`, names a cycle the reference engine played, without compiled
code; the kernels are loaded only when compiled play is first asked for.

>>> from beggar.rules import rules_named
>>> rules = rules_named("court-only:deck=stripped")
>>> form = canonical_form("--Q------QJ----JK---/---Q---J-Q-KJ--K-K--", rules)
>>> form.period_tricks, form.period_cards, form.cards
(36, 188, 40)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from beggar.cards import COURT_AND_ACE
from beggar.cycle import Cycle
from beggar.engine import Position
from beggar.errors import BeggarError
from beggar.kernels.codes import NO_LIMIT
from beggar.notation import Deal, compact_hands, parse_deal
from beggar.research.store import CycleOfDeck
from beggar.rules import Rules

U8 = npt.NDArray[np.uint8]


class CanonError(BeggarError, ValueError):
    """Rules or a position the factory cannot write in compact notation, or that does not loop."""


# == the Python side ==============================================================================


@dataclass(frozen=True)
class Alphabet:
    """How a rule set's pay values are written in compact notation, and its deck as pay values."""

    rules: Rules
    symbols: dict[int, str]
    """Compact symbol of each pay value: ``-`` for 0."""
    deck: dict[int, int]
    """How many cards of each pay value the deck holds."""
    spare: tuple[str, ...]
    """Symbols for the cards that pay nothing but are not number cards (the aces of the Italian
    game): the deal notation counts ``-`` against the deck's number cards, so zeros beyond those
    are written with these ranks."""
    shared: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """For a pay value that several ranks pay (the jack and the queen of ``jack-pays-2``), the
    rank each of its cards is written with, in reading order: as many of the first rank as the
    deck holds, then the next rank's (``J J Q Q`` on the half deck). Play only looks at pay
    values, so either rank reads as the value; writing them so keeps every position a valid deal
    of the real deck, and one position one text."""

    @classmethod
    def of(cls, rules: Rules) -> Alphabet:
        """The alphabet of two-player ``rules`` whose number cards pay nothing.

        Ranks that pay the same are one kind (:attr:`shared`), named by all its ranks in
        :meth:`describe` (``JQ``).

        >>> from beggar.rules import rules_named
        >>> alphabet = Alphabet.of(rules_named("jack-pays-2:deck=half"))
        >>> alphabet.describe(alphabet.deck), alphabet.compact([2, 0, 2, 2, 3, 2], 3)
        ('-18 JQ4 K2 A2', 'J-J/QKQ')
        """
        if rules.players != 2:
            raise CanonError("the cycle factory works on two-player games")
        if rules.number_ranks_pay:
            raise CanonError("the factory writes positions in compact notation, so number cards must not pay")
        symbols = {0: "-"}
        spare: list[str] = []
        written: dict[int, list[str]] = {}
        for rank in COURT_AND_ACE:
            if rank not in rules.deck.ranks:
                continue
            value = rules.pay_value(rank)
            if not value:
                spare.extend(rank.symbol * rules.deck.count(rank))
                continue
            symbols.setdefault(value, rank.symbol)
            written.setdefault(value, []).extend(rank.symbol * rules.deck.count(rank))
        shared = {value: tuple(ranks) for value, ranks in written.items() if len(set(ranks)) > 1}
        deck = Counter(rules.pay_value(card) for card in rules.deck.cards())
        return cls(rules, symbols, dict(sorted(deck.items())), tuple(spare), shared)

    @cached_property
    def cfg(self) -> npt.NDArray[np.int64]:
        """The kernel's settings for these rules, without limits, repeats found at trick ends.

        Loaded at first use: the census and ``beggar construct`` write positions with this
        alphabet without loading the compiled kernels.
        """
        from beggar.kernels import general

        return general.KernelRules.of(self.rules.unlimited()).cfg

    @property
    def size(self) -> int:
        return sum(self.deck.values())

    def parse(self, text: str, *, within_deck: bool = True) -> tuple[U8, int]:
        """A position ``A/B`` as leader-first pay values and the leader's stack size.

        Compact notation may write every card that pays nothing as ``-`` (as the published
        Italian cycles do); other notations go through :func:`beggar.notation.parse_deal`.
        ``within_deck=False`` accepts more pay cards of a kind than the deck holds (the factory's
        ``loose`` band grows such cycles on the way to the deck's mix; they are never stored).
        """
        hands = text.strip().split("/")
        if len(hands) != 2:
            raise CanonError(f"{text!r}: a position has two stacks separated by '/'")
        by_symbol = {symbol: value for value, symbol in self.symbols.items()}
        by_symbol.update({symbol: 0 for symbol in self.spare})
        by_symbol.update({symbol: value for value, ranks in self.shared.items() for symbol in ranks})
        if all(ch in by_symbol for hand in hands for ch in hand.upper()):
            values = [by_symbol[ch] for hand in hands for ch in hand.upper()]
            lead_size = len(hands[0])
        else:
            deal = parse_deal(text, self.rules.deck, complete=False)
            values = [self.rules.pay_value(c) for hand in deal.hands for c in hand]
            lead_size = len(deal.hands[0])
        found = Counter(values)
        for value, count in found.items():
            if within_deck and count > self.deck.get(value, 0):
                raise CanonError(
                    f"{text!r}: {count} cards written {self.label(value)!r}, "
                    f"but the deck holds {self.deck.get(value, 0)}"
                )
        if not 0 < lead_size < len(values):
            raise CanonError(f"{text!r}: each stack needs at least one card")
        return np.array(values, dtype=np.uint8), lead_size

    def compact(self, values: U8 | list[int], lead_size: int) -> str:
        """Leader-first pay values in compact notation that :func:`beggar.notation.parse_deal` reads."""
        symbols = [self.symbols[int(v)] for v in values]
        for value, ranks in self.shared.items():
            # A value several ranks pay: the first ranks first, in reading order (a position
            # holding more than the deck, as the loose band grows, keeps the last rank).
            at = [i for i, v in enumerate(values) if int(v) == value]
            for n, i in enumerate(at):
                symbols[i] = ranks[min(n, len(ranks) - 1)]
        zeros = [i for i, v in enumerate(values) if int(v) == 0]
        excess = len(zeros) - (self.deck.get(0, 0) - len(self.spare))
        if excess > 0:  # the last zeros are written as the ranks that pay nothing
            for i, symbol in zip(zeros[len(zeros) - excess :], self.spare, strict=False):
                symbols[i] = symbol
        return compact_hands(symbols, [lead_size, len(symbols) - lead_size])

    def position(self, values: U8 | list[int], lead_size: int) -> Position:
        """The engine's position (hand 1 leads)."""
        return Position(parse_deal(self.compact(values, lead_size), self.rules.deck, complete=False), 0)

    def composition(self, values: U8 | list[int]) -> dict[int, int]:
        """Cards of each pay value among ``values``."""
        found = Counter(int(v) for v in values)
        return {value: found.get(value, 0) for value in self.deck}

    def describe(self, composition: dict[int, int]) -> str:
        """``-28 J4 Q4 K4``: how many cards of each kind."""
        return " ".join(f"{self.label(v)}{composition.get(v, 0)}" for v in self.deck)

    def label(self, value: int) -> str:
        """A kind's name in :meth:`describe`: its symbol, or every rank that pays ``value`` (``JQ``)."""
        ranks = self.shared.get(value)
        return "".join(dict.fromkeys(ranks)) if ranks else self.symbols[value]


@dataclass(frozen=True)
class CycleForm(CycleOfDeck):
    """One cycle, named by its canonical position, as it is computed (with its card counts)."""

    counts: tuple[int, ...] = ()
    """Cards of each pay value, in the order of :attr:`Alphabet.deck` (0 first)."""

    def positions(self, alphabet: Alphabet) -> list[Position]:
        """Every trick-end position on the cycle, as the engine writes positions (hand 1 leads first)."""
        from beggar.kernels.cycles import cycle_rows

        values, lead_size = alphabet.parse(self.deal)
        rows = cycle_rows(values, values.size, lead_size, alphabet.cfg, self.period_tricks)
        return [alphabet.position(row[1:], int(row[0])) for row in rows]


def form_of(
    alphabet: Alphabet, values: U8, lead_size: int, cap: int = NO_LIMIT
) -> tuple[CycleForm, int, int] | None:
    """The cycle a leader-first position runs into, with its pre-period ``(tricks, cards)``; None if it ends.

    ``cap`` gives up (None) after that many cards, for callers that only want short lead-ins.
    """
    from beggar.kernels.cycles import canonical

    n = int(values.size)
    best = np.zeros(n + 1, np.uint8)
    loops, pre_t, pre_c, period_t, period_c, low, high, times = canonical(
        values, n, lead_size, alphabet.cfg, cap, best
    )
    if not loops:
        return None
    return form_from_row(alphabet, best, period_t, period_c, low, high, times), pre_t, pre_c


def form_from_row(
    alphabet: Alphabet, best: U8, period_t: int, period_c: int, low: int, high: int, times: int
) -> CycleForm:
    """A :class:`CycleForm` from the compiled :func:`beggar.kernels.cycles.canonical`'s output."""
    figures = (int(period_t), int(period_c), times > 1, int(low), int(high))
    return _form(alphabet, best[1:], int(best[0]), *figures)


def _form(
    alphabet: Alphabet,
    values: U8 | list[int],
    lead_size: int,
    period_tricks: int,
    period_cards: int,
    symmetric: bool,
    split_low: int,
    split_high: int,
) -> CycleForm:
    """The cycle whose least position is ``values`` (leader first, ``lead_size`` cards in the
    leader's stack), with its figures."""
    composition = alphabet.composition(values)
    return CycleForm(
        deal=alphabet.compact(values, lead_size),
        cards=len(values),
        period_tricks=period_tricks,
        period_cards=period_cards,
        symmetric=symmetric,
        split_low=split_low,
        split_high=split_high,
        composition=alphabet.describe(composition),
        full=composition == alphabet.deck,
        counts=tuple(composition.values()),
    )


def played_form(alphabet: Alphabet, cycle: Cycle) -> CycleForm:
    """The canonical form of a cycle the reference engine played, without compiled code.

    The reference for :func:`form_of`: every trick-end position of the cycle written leader
    first, compared by the leader's stack size and then the pay values; the least one names the
    cycle, and the cycle is symmetric when the least one occurs twice in a period.

    >>> from beggar.cycle import find_cycle
    >>> from beggar.rules import STANDARD
    >>> played = find_cycle("--J-/Q-J-", STANDARD, first=0, complete=False)
    >>> played_form(Alphabet.of(STANDARD), played) == canonical_form("--J-/Q-J-", STANDARD)
    True
    """
    rows: list[tuple[int, tuple[int, ...]]] = []
    lesser: list[int] = []
    pay = alphabet.rules.pay_value
    for position in cycle.positions:
        hands = position.stacks.hands
        order = (hands[position.leader], hands[1 - position.leader])
        rows.append((len(order[0]), tuple(pay(card) for hand in order for card in hand)))
        lesser.append(min(len(hand) for hand in hands))
    best = min(rows)
    return _form(
        alphabet,
        list(best[1]),
        best[0],
        cycle.period_tricks,
        cycle.period_cards,
        rows.count(best) > 1,
        min(lesser),
        max(lesser),
    )


def canonical_form(position: str | Deal, rules: Rules, *, first: int = 0) -> CycleForm:
    """The canonical form of the cycle a position (or deal) runs into; ``first`` is the seat to lead.

    Raises :class:`CanonError` if the game ends.
    """
    alphabet = Alphabet.of(rules)
    text = position.compact() if isinstance(position, Deal) else position
    values, lead_size = alphabet.parse(text)
    if first == 1:
        values = np.concatenate([values[lead_size:], values[:lead_size]])
        lead_size = int(values.size) - lead_size
    found = form_of(alphabet, values, lead_size)
    if found is None:
        raise CanonError(f"{text} does not loop: the game ends")
    return found[0]
