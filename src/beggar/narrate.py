"""Plain-English sentences for the engine's events: the game told as a story, card by card.

The command line's ``--trace``, the browser table's log and the lessons all use this one narrator,
so every place tells the game the same way.

>>> from beggar.engine import Game
>>> game = Game("Q-/-J", complete=False)
>>> narrator = Narrator(game.rules)
>>> narrator.tell(game.step())
'A turns a queen: B owes 2.'
>>> narrator.tell(game.step())
'B turns a number card (1 of 2).'
>>> narrator.tell(game.step())
'B turns a jack: the queen is cancelled, and A owes 1.'
"""

from __future__ import annotations

from collections.abc import Sequence

from beggar.cards import Card
from beggar.engine import (
    CardTurned,
    Event,
    GameOver,
    GameRecord,
    Outcome,
    PaymentCancelled,
    PaymentDue,
    PileTaken,
    PlayerOut,
    Reason,
    Status,
)
from beggar.notation import seat_names as seat_names  # the table and CLI name seats through the narrator too
from beggar.rules import EmptyHand, Rules


def card_phrase(card: Card) -> str:
    """``"a queen"``, ``"an ace"``, ``"the seven of hearts"``, ``"a number card"``."""
    if card.suit is not None and card.rank is not None:
        return f"the {card.rank.noun} of {card.suit.name.lower()}"
    noun = card.noun
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


class Narrator:
    """Turns the events of one :meth:`Game.step` into one sentence, keeping track of debts."""

    def __init__(self, rules: Rules, names: Sequence[str] | None = None) -> None:
        self.rules = rules
        self.names = list(names) if names is not None else seat_names(rules.players)
        self._debt_card: Card | None = None
        self._debt = 0
        self._paid = 0

    def tell(self, events: Sequence[Event]) -> str:
        """One sentence (or a few) for the events of one step."""
        return " ".join(part for event in events if (part := self._event(event)))

    def _event(self, event: Event) -> str:
        names = self.names
        if isinstance(event, CardTurned):
            if event.value:
                return ""  # told with the payment it creates
            who, card = names[event.player], card_phrase(event.card)
            if event.paying:
                self._paid += 1
                return f"{who} turns {card} ({self._paid} of {self._debt})."
            return f"{who} turns {card}."
        if isinstance(event, PaymentCancelled):
            return ""  # told with the new payment
        if isinstance(event, PaymentDue):
            cancelled = self._debt_card if self._debt else None
            self._debt_card, self._debt, self._paid = event.card, event.amount, 0
            turned = f"{names[event.creditor]} turns {card_phrase(event.card)}"
            owes = f"{names[event.payer]} owes {event.amount}"
            if cancelled is not None:
                return f"{turned}: the {cancelled.noun} is cancelled, and {owes}."
            return f"{turned}: {owes}."
        if isinstance(event, PileTaken):
            paid = f"The {self._debt_card.noun} is paid: " if event.paid and self._debt_card else ""
            self._debt_card, self._debt, self._paid = None, 0, 0
            who = names[event.player]
            count = len(event.cards)
            text = f"{who} takes the {count} card{'s' if count != 1 else ''} of the pile"
            return f"{paid}{text} (trick {event.trick})."
        if isinstance(event, PlayerOut):
            who = names[event.player]
            if self.rules.empty_hand is EmptyHand.WHEN_EMPTY:
                return f"{who} has no cards left and loses."
            during = " to pay" if event.paying else ""
            return f"{who} has no card to turn{during} and is out."
        if isinstance(event, GameOver):
            return ending(event.record, self.names)
        return ""


def ending(record: GameRecord, names: Sequence[str]) -> str:
    """How the game ended, in one sentence."""
    if record.status is Status.FINISHED:
        assert record.winner is not None
        total = sum(record.holdings)
        return f"{names[record.winner]} wins with all {total} cards, {_counts(record)}."
    return f"{why_stopped(record)} {award_phrase(record, names)}"


def why_stopped(record: GameRecord) -> str:
    """Why a game that nobody won outright stopped, naming no one: ``"Stopped by the card limit
    after 20 cards and 3 tricks."``; "" for a game won with every card."""
    if record.status is Status.FINISHED:
        return ""
    if record.status is Status.LOOP:
        assert record.repeat_of is not None
        seen_cards, seen_tricks = record.repeat_of
        when = "at the start" if seen_cards == 0 else f"after card {seen_cards:,} (trick {seen_tricks:,})"
        return f"Loop {_counts(record)}: this position was already seen {when}, so the game can never end."
    limit = {
        Reason.CARD_LIMIT: "the card limit",
        Reason.TRICK_LIMIT: "the trick limit",
        Reason.TIME_LIMIT: "the time limit",
    }.get(record.reason, "request")
    return f"Stopped by {limit} {_counts(record)}."


def _counts(record: GameRecord) -> str:
    return f"after {counted(record.cards, 'card')} and {counted(record.tricks, 'trick')}"


def counted(n: int, noun: str, *, grouped: bool = True) -> str:
    """``n`` and ``noun``, plural unless there is exactly one; thousands grouped unless
    ``grouped`` is false (where a line is read by programs too).

    >>> counted(1, "cycle"), counted(1214, "cycle"), counted(0, "period")
    ('1 cycle', '1,214 cycles', '0 periods')
    >>> counted(7157, "card", grouped=False), counted(1, "trick", grouped=False)
    ('7157 cards', '1 trick')
    """
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {noun}{'' if n == 1 else 's'}"


def holdings_phrase(record: GameRecord) -> str:
    """The cards each player holds at the end, the most first (a winner on more cards leads):
    ``"30 to 22"``."""
    return " to ".join(str(n) for n in sorted(record.holdings, reverse=True))


def award_phrase(record: GameRecord, names: Sequence[str]) -> str:
    """What a loop or a stop awards: ``"B wins with more cards (30 to 22)."``."""
    held = holdings_phrase(record)
    if record.outcome is Outcome.WIN and record.winner is not None:
        return f"{names[record.winner]} wins with more cards ({held})."
    if record.outcome is Outcome.DRAW:
        return f"A draw: the most cards are held equally ({held})."
    if record.outcome is Outcome.REDEAL:
        return "The cards are gathered, shuffled and dealt again."
    return "No one wins."
