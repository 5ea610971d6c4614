"""The deck as card kinds, and positions of kinds played by the reference engine.

Only a card's *kind* matters to a cycle: a number card, or a pay card of some value. A
:class:`Composition` is a deck as kinds (the rules' whole deck, or a smaller one such as
``--cards 6,2,1,1``); a position is a list of kinds, the leader's stack first. Every position the
model gives is played by the reference engine (:func:`replay`) before anyone sees it, and a
disagreement is an error, never a result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from beggar.cycle import Cycle, find_cycle
from beggar.engine import Position
from beggar.errors import BeggarError
from beggar.rules import Rules, parse_whole


class ConstructError(BeggarError, ValueError):
    """A deck, period or split the model cannot take, or a solver answer the engine refutes."""


@dataclass(frozen=True)
class Composition:
    """A deck as card kinds: how many number cards, and how many pay cards of each value.

    ``values[0]`` is 0 (number cards); the other kinds are the pay values of the rules' pay ranks,
    in rank order. Ranks that pay the same are one kind, its count their cards together (the jacks
    and queens of ``jack-pays-2``): play looks only at pay values.

    >>> from beggar.rules import rules_named
    >>> Composition.of(rules_named("jack-pays-2:deck=half")).describe()
    '-18 JQ4 K2 A2'
    """

    rules: Rules
    values: tuple[int, ...]
    counts: tuple[int, ...]

    @classmethod
    def of(cls, rules: Rules) -> Composition:
        """The whole deck of ``rules``."""
        _check_rules(rules)
        found = Counter(rules.pay_value(card) for card in rules.deck.cards())
        values = (0, *_pay_values(rules))
        return cls(rules, values, tuple(found.get(value, 0) for value in values))

    @classmethod
    def named(cls, rules: Rules, cards: str | None) -> Composition:
        """The deck a command's ``--cards`` names: the smaller one ``cards`` writes (read by
        :meth:`parse`), or the rules' whole deck when it is None.

        >>> from beggar.rules import STANDARD
        >>> Composition.named(STANDARD, None).size, Composition.named(STANDARD, "6,2,1,1").size
        (52, 10)
        """
        return cls.of(rules) if cards is None else cls.parse(cards, rules)

    @classmethod
    def parse(cls, text: str, rules: Rules) -> Composition:
        """A composition written ``6,2,1,1``: number cards, then cards of each pay value in rank order.

        Ranks that pay the same value are one kind, given by one count (under ``jack-pays-2``,
        ``6,3,1,1`` is six number cards, three cards paying 2, jacks or queens, a king and an ace).

        >>> from beggar.rules import STANDARD, rules_named
        >>> Composition.parse("6,2,1,1", STANDARD).describe()
        '-6 J2 Q1 K1 A0'
        >>> Composition.parse("6,3,1,1", rules_named("jack-pays-2")).describe()
        '-6 JQ3 K1 A1'
        >>> Composition.parse("6,x", STANDARD)
        Traceback (most recent call last):
        ...
        beggar.research.cycles.kinds.ConstructError: bad --cards '6,x': write whole numbers ...
        """
        _check_rules(rules)
        available = Composition.of(rules)
        kinds = available.symbols[1:]
        example = ", ".join(kinds)
        hint = f"for example 6,2,1,1 (number cards, then {example})"
        try:
            counts = [parse_whole(part.strip(), 0, 1_000, "each count") for part in text.split(",")]
        except ValueError:
            raise ConstructError(
                f"bad --cards {text!r}: write whole numbers separated by commas, {hint}"
            ) from None
        if len(counts) > len(kinds) + 1:
            shared = " (ranks that pay the same are one kind)" if len(kinds) < len(rules.pay) else ""
            raise ConstructError(
                f"bad --cards {text!r}: these rules have {len(kinds)} kinds of pay card{shared}: "
                f"{' '.join(kinds)}, so give at most {len(kinds) + 1} numbers"
            )
        counts += [0] * (len(kinds) + 1 - len(counts))
        for (value, want), have, symbol in zip(
            zip(available.values, counts, strict=True), available.counts, available.symbols, strict=True
        ):
            if want > have:
                raise ConstructError(
                    f"bad --cards {text!r}: {want} cards {symbol!r} (pay {value}), "
                    f"but the {rules.deck.describe()} holds {have}"
                )
        if sum(counts[1:]) == 0:
            raise ConstructError(f"bad --cards {text!r}: a deck with no pay card never loops")
        if sum(counts) < 2:
            raise ConstructError(f"bad --cards {text!r}: two players need at least two cards")
        return cls(rules, available.values, tuple(counts))

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return sum(self.counts)

    @property
    def full(self) -> bool:
        """True if this is the rules' whole deck."""
        return self.counts == Composition.of(self.rules).counts

    @property
    def symbols(self) -> tuple[str, ...]:
        """The name of each kind: ``-`` and the pay ranks, those that pay the same together (``JQ``)."""
        ranks: dict[int, str] = {}
        for rank, value in self.rules.pay:
            ranks[value] = ranks.get(value, "") + rank.symbol
        return ("-", *(ranks[value] for value in self.values[1:]))

    def describe(self) -> str:
        """``-28 J4 Q4 K4``: cards of each kind."""
        return " ".join(f"{s}{c}" for s, c in zip(self.symbols, self.counts, strict=True))

    def key(self) -> str:
        """The name of this deck in the store: the rules spec, and the counts if not the whole deck."""
        if self.full:
            return self.rules.spec()
        return f"{self.rules.spec()}[{','.join(map(str, self.counts))}]"

    def compact(self, kinds: Sequence[int], lead_size: int) -> str:
        """Leader-first kinds (indices into :attr:`values`) as a position in compact notation.

        Cards that pay nothing beyond the deck's number cards (the aces of the Italian game) are
        written with their own rank, as :mod:`beggar.research.cycles.canon` writes them.
        """
        from beggar.research.cycles.canon import (
            Alphabet,  # compiled code: loaded only when a position is written
        )

        pay = [self.values[kind] for kind in kinds]
        return Alphabet.of(self.rules).compact(pay, lead_size)


def _check_rules(rules: Rules) -> None:
    """Refuse rules the model cannot take: more than two players, paying number cards."""
    if rules.players != 2:
        raise ConstructError("the cycle model is for two players")
    if rules.number_ranks_pay:
        raise ConstructError("the cycle model writes positions compactly, so number cards must not pay")


def _pay_values(rules: Rules) -> tuple[int, ...]:
    """The pay values of the rules' pay ranks in rank order, each once (a kind per value)."""
    return tuple(dict.fromkeys(value for _, value in rules.pay))


@dataclass(frozen=True)
class Instance:
    """One question: a cycle of ``period`` cards whose leader turns ``k1`` of them and holds ``n1``."""

    period: int
    k1: int
    n1: int

    def to_dict(self) -> dict[str, int]:
        """``period``, ``k1`` and ``n1``."""
        return {"period": self.period, "k1": self.k1, "n1": self.n1}


def lead_size(position: Position) -> int:
    """Cards in the leader's stack."""
    return len(position.stacks.hands[position.leader])


def leader_first(composition: Composition, position: Position) -> list[int]:
    """An engine position as kinds, the leader's stack first."""
    index = {value: kind for kind, value in enumerate(composition.values)}
    hands = position.stacks.hands
    order = (hands[position.leader], hands[1 - position.leader])
    return [index[composition.rules.pay_value(card)] for hand in order for card in hand]


def replay(composition: Composition, kinds: Sequence[int], instance: Instance) -> tuple[str, Cycle]:
    """Play the position ``kinds`` with the reference engine: its deal and the cycle it is on.

    Raises :class:`ConstructError` unless the engine finds the position on a cycle whose period
    divides ``instance.period`` (a solution of a period ``2L`` may be a cycle of ``L`` played twice).
    """
    deal = composition.compact(kinds, instance.n1)
    cycle = find_cycle(deal, composition.rules, first=0, complete=False)
    if cycle is None or cycle.pre_period_tricks != 0 or instance.period % cycle.period_cards != 0:
        found = "ends" if cycle is None else f"has period {cycle.period_cards} after {cycle.pre_period_cards}"
        raise ConstructError(
            f"the model and the engine disagree: {deal} should repeat every {instance.period} cards, "
            f"but the engine says the game {found}"
        )
    return deal, cycle
