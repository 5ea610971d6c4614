"""The reference engine: a game played card by card, written for clarity, emitting events.

The browser table and the lessons drive a :class:`Game` one :meth:`Game.step` at a time and show
its events; :func:`play` runs a deal to the end and returns its :class:`GameRecord`. The compiled
kernel is tested against this module.

Counting follows docs/rules.md: ``cards`` counts every card turned onto the pile, ``tricks`` every pile
taken (the last pile handed to the winner included). A game that reaches a position it has seen
before can never end: it is reported as a ``loop`` with the counts at that moment.

>>> record = play("K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--")
>>> record.status, record.cards, record.tricks, record.winner
(<Status.FINISHED: 'finished'>, 7157, 1007, 1)
"""

from __future__ import annotations

import enum
import secrets
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from beggar.cards import Card
from beggar.errors import UserError
from beggar.notation import Deal, check_deal, parse_deal, seat_name
from beggar.rules import STANDARD, Award, EmptyHand, PileOrder, RepeatCheck, Rules, RulesError


class GameError(UserError, ValueError):
    """A game that cannot be set up or a move that cannot be made."""


class Status(enum.StrEnum):
    FINISHED = "finished"
    """One player holds every card."""
    LOOP = "loop"
    """A position repeated: the game can never end."""
    STOPPED = "stopped"
    """A house limit (cards, tricks, time) or a request ended the game."""


class Reason(enum.StrEnum):
    ALL_CARDS = "all-cards"
    """A won pile gave one player every card."""
    CANNOT_TURN = "cannot-turn"
    """The last opponent had to turn a card and had none; the winner took the pile."""
    EMPTY = "empty"
    """Under ``empty-hand=when-empty``, the opponent's stack ran out."""
    REPEAT = "repeat"
    CARD_LIMIT = "card-limit"
    TRICK_LIMIT = "trick-limit"
    TIME_LIMIT = "time-limit"
    STOPPED = "stopped"
    """Stopped on request (a player left, a table closed)."""

    @property
    def status(self) -> Status:
        """How a game that ends for this reason is counted: finished, a loop, or stopped.

        >>> Reason.CANNOT_TURN.status, Reason.REPEAT.status, Reason.CARD_LIMIT.status
        (<Status.FINISHED: 'finished'>, <Status.LOOP: 'loop'>, <Status.STOPPED: 'stopped'>)
        """
        if self in (Reason.ALL_CARDS, Reason.CANNOT_TURN, Reason.EMPTY):
            return Status.FINISHED
        return Status.LOOP if self is Reason.REPEAT else Status.STOPPED


class Outcome(enum.StrEnum):
    WIN = "win"
    DRAW = "draw"
    NO_WINNER = "no-winner"
    REDEAL = "redeal"


@dataclass(frozen=True)
class GameRecord:
    """How a game ended, counted the record-keepers' way."""

    status: Status
    cards: int
    tricks: int
    winner: int | None
    """0-based seat of the winner, or None."""
    reason: Reason
    outcome: Outcome
    holdings: tuple[int, ...]
    """Cards in each player's stack when the game ended."""
    first: int
    """The seat that led the first card."""
    repeat_of: tuple[int, int] | None = None
    """For a loop: (cards, tricks) at the first time the repeated position was seen."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "cards": self.cards,
            "tricks": self.tricks,
            "winner": self.winner,
            "reason": str(self.reason),
            "outcome": str(self.outcome),
            "holdings": list(self.holdings),
            "first": self.first,
            "repeat_of": None
            if self.repeat_of is None
            else {"cards": self.repeat_of[0], "tricks": self.repeat_of[1]},
        }


# -- events --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardTurned:
    """``player`` turned ``card`` onto the pile; it is card number ``number`` of the game."""

    player: int
    card: Card
    number: int
    paying: bool
    """True if the card was turned to pay a debt."""
    value: int
    """The card's pay value (0 for a card that pays nothing)."""


@dataclass(frozen=True)
class PaymentDue:
    """``payer`` must turn ``amount`` cards for ``creditor``'s pay card."""

    payer: int
    creditor: int
    amount: int
    card: Card


@dataclass(frozen=True)
class PaymentCancelled:
    """``payer`` turned a pay card: the debt to ``creditor`` stops, with ``unpaid`` cards left unpaid."""

    payer: int
    creditor: int
    unpaid: int


@dataclass(frozen=True)
class PileTaken:
    """``player`` took the pile and now leads; ``cards`` in the order they went under the stack."""

    player: int
    cards: tuple[Card, ...]
    trick: int
    paid: bool
    """True if the debt was paid in full; False if the payer could not turn a card."""


@dataclass(frozen=True)
class PlayerOut:
    """``player`` had to turn a card and had none (or, under ``when-empty``, ran out)."""

    player: int
    paying: bool


@dataclass(frozen=True)
class GameOver:
    record: GameRecord


Event = CardTurned | PaymentDue | PaymentCancelled | PileTaken | PlayerOut | GameOver


@dataclass(frozen=True)
class Position:
    """The state between two tricks: every stack, top card first, and who leads."""

    stacks: Deal
    leader: int

    def to_dict(self) -> dict[str, Any]:
        return {"stacks": self.stacks.compact(), "leader": self.leader}

    def __str__(self) -> str:
        return f"{self.stacks.compact()} ({seat_name(self.leader)} leads)"


# -- the game ------------------------------------------------------------------------------------


class Game:
    """A game in progress. Each :meth:`step` turns exactly one card and settles what follows.

    Between steps the game is at rest and can be inspected, paused, serialised with
    :meth:`to_dict` and resumed with :meth:`from_dict`. The player in :attr:`to_play` always
    has a card to turn while the game is not over.

    >>> game = Game("QJ/-A", complete=False)
    >>> [type(e).__name__ for e in game.step()]
    ['CardTurned', 'PaymentDue']
    >>> game.to_play, game.owed
    (1, 2)
    """

    def __init__(
        self,
        deal: Deal | str,
        rules: Rules = STANDARD,
        *,
        first: int | None = None,
        dealer: int | None = None,
        seed: int | None = None,
        complete: bool = True,
        any_cards: bool = False,
    ) -> None:
        """Set up ``deal`` under ``rules``.

        ``first`` fixes the leader; otherwise :meth:`Rules.default_leader` decides, using
        ``dealer`` (default: the seat that deals to the first hand), and a random lead is drawn
        from ``seed`` (a fresh seed when none is given; :attr:`seed` keeps it). The deal must hold
        the whole deck unless ``complete`` is False (short prepared positions, as in the lessons),
        and may hold any cards at all with ``any_cards`` (see :func:`~beggar.notation.check_deal`).
        """
        if isinstance(deal, str):
            deal = parse_deal(deal, rules.deck, complete=complete, rules=rules, any_cards=any_cards)
        else:
            check_deal(deal, rules.deck, complete=complete, rules=rules, any_cards=any_cards)
        if deal.players != rules.players:
            raise GameError(
                f"the deal has {deal.players} hands, "
                f"but the rules {rules.spec()!r} are for {rules.players} players",
                field="deal",
            )
        self.rules = rules
        self.deal = deal
        self._values = {card: rules.pay_value(card) for hand in deal.hands for card in hand}
        self.stacks: list[deque[Card]] = [deque(hand) for hand in deal.hands]
        self.pile: list[Card] = []
        self.out = [False] * rules.players
        self.owed = 0
        """Cards the player to play still owes (0: no payment in progress)."""
        self.creditor: int | None = None
        """Who laid the pay card being paid for."""
        self.cards = 0
        self.tricks = 0
        self.seed: int | None = None
        """The seed a random lead was drawn from (``None`` when the rules fixed the leader)."""
        self.first = self._choose_first(first, dealer, seed)
        self.to_play = self.first
        self.record: GameRecord | None = None
        self._seen: dict[tuple[Any, ...], tuple[int, int]] = {}
        self._remember()

    # -- public interface ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.record is not None

    @property
    def challenge(self) -> int | None:
        """Where on the pile the pay card being paid for lies (0 is the oldest card), or None.

        It is the newest pay card: a pay card turned while paying cancels the payment before it.
        """
        if not self.owed:
            return None
        return next(i for i in range(len(self.pile) - 1, -1, -1) if self._values[self.pile[i]])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(stack) for stack in self.stacks)

    def step(self) -> list[Event]:
        """Turn the next card and settle everything it causes; return what happened."""
        if self.record is not None:
            raise GameError("the game is over")
        events: list[Event] = []
        player = self.to_play
        card = self.stacks[player].popleft()
        self.pile.append(card)
        self.cards += 1
        paying = self.owed > 0
        value = self._values.get(card)
        if value is None:
            value = self._values[card] = self.rules.pay_value(card)
        events.append(CardTurned(player, card, self.cards, paying, value))
        trick_taken = False

        if value:
            if paying:
                assert self.creditor is not None
                events.append(PaymentCancelled(player, self.creditor, self.owed - 1))
            self.creditor = player
            self.owed = value
            self.to_play = self._next(player)
            events.append(PaymentDue(self.to_play, player, value, card))
        elif paying:
            self.owed -= 1
            if self.owed == 0:
                assert self.creditor is not None
                trick_taken = self._take(self.creditor, events, paid=True)
        else:
            self.to_play = self._next(player)

        if self.record is None and self.rules.empty_hand is EmptyHand.WHEN_EMPTY and not self.stacks[player]:
            trick_taken |= self._put_out(player, events, Reason.EMPTY)
        while self.record is None and not self.stacks[self.to_play]:
            trick_taken |= self._put_out(self.to_play, events, Reason.CANNOT_TURN)

        if self.record is None:
            self._after_card(trick_taken, events)
        return events

    def run(self) -> GameRecord:
        """Play to the end and return the record."""
        while self.record is None:
            self.step()
        return self.record

    def __iter__(self) -> Iterator[Event]:
        """Every event from here to the end of the game."""
        while self.record is None:
            yield from self.step()

    def stop(self, reason: Reason = Reason.STOPPED) -> list[Event]:
        """End the game now (a time limit, a closed table); the rules' ``on_stop`` award applies."""
        if self.record is not None:
            raise GameError("the game is over")
        if reason not in (Reason.STOPPED, Reason.TIME_LIMIT, Reason.CARD_LIMIT, Reason.TRICK_LIMIT):
            raise GameError(f"a game cannot be stopped for the reason {reason!r}")
        return [self._end(reason)]

    def position(self) -> Position:
        """Every stack, top card first, and who turns next (a trick-end position between tricks)."""
        return Position(Deal(tuple(tuple(stack) for stack in self.stacks)), self.to_play)

    def to_dict(self) -> dict[str, Any]:
        """The game as JSON-ready data; :meth:`from_dict` restores it exactly by replaying."""
        stopped = self.record.reason if self.record and self.record.status is Status.STOPPED else None
        limit_stop = stopped in (Reason.CARD_LIMIT, Reason.TRICK_LIMIT)
        return {
            "deal": self.deal.format(),
            "rules": self.rules.to_dict(),
            "first": self.first,
            "turned": self.cards,
            "stopped": None if stopped is None or limit_stop else str(stopped),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Restore a game saved with :meth:`to_dict`."""
        try:
            rules = Rules.from_dict(data["rules"])
            deal = parse_deal(str(data["deal"]), rules.deck, complete=False)
            game = cls(deal, rules, first=int(data["first"]), complete=False)
            turned = int(data["turned"])
            stopped = data.get("stopped")
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"bad saved game: {exc}") from None
        if turned < 0:
            raise GameError("bad saved game: a negative number of cards turned")
        while game.cards < turned:
            if game.over:
                raise GameError(f"bad saved game: it ends after {game.cards} cards, not {turned}")
            game.step()
        if stopped is not None and not game.over:
            try:
                reason = Reason(stopped)
            except ValueError:
                raise GameError(f"bad saved game: unknown stop reason {stopped!r}") from None
            game.stop(reason)
        return game

    # -- rules, step by step -----------------------------------------------------------------

    def _choose_first(self, first: int | None, dealer: int | None, seed: int | None) -> int:
        players = self.rules.players
        if first is not None:
            if not 0 <= first < players:
                raise GameError(f"first={first}: seats are numbered 0 to {players - 1}")
            return first
        try:
            leader = self.rules.default_leader(dealer)
        except RulesError as exc:
            raise GameError(str(exc)) from None
        if leader is not None:
            return leader
        if seed is None:
            seed = secrets.randbits(32)
        self.seed = seed
        return self.rules.draw_leader(seed)

    def _next(self, player: int) -> int:
        """The next player round the table who is still in the game."""
        n = self.rules.players
        seat = (player + self.rules.step) % n
        while self.out[seat]:
            seat = (seat + self.rules.step) % n
        return seat

    def _take(self, player: int, events: list[Event], *, paid: bool, check_all: bool = True) -> bool:
        taken = self.pile if self.rules.pile_order is PileOrder.OLDEST_FIRST else self.pile[::-1]
        self.stacks[player].extend(taken)
        self.pile = []
        self.tricks += 1
        self.owed = 0
        self.creditor = None
        self.to_play = player
        events.append(PileTaken(player, tuple(taken), self.tricks, paid))
        if check_all and all(not stack for seat, stack in enumerate(self.stacks) if seat != player):
            events.append(self._end(Reason.ALL_CARDS, winner=player))
        return True

    def _put_out(self, player: int, events: list[Event], reason: Reason) -> bool:
        """``player`` is out of the game. Returns True if a pile was taken as a result."""
        paying = self.owed > 0 and self.to_play == player
        self.out[player] = True
        events.append(PlayerOut(player, paying))
        still_in = [seat for seat in range(self.rules.players) if not self.out[seat]]
        if len(still_in) == 1:
            winner = still_in[0]
            took = bool(self.pile)
            if took:
                self._take(winner, events, paid=False, check_all=False)
            events.append(self._end(reason, winner=winner))
            return took
        if self.owed > 0:
            # Out during a payment (or on a pay card of their own): the pile goes to whoever
            # laid the last pay card, if that is someone else.
            creditor = self.creditor
            assert creditor is not None
            if creditor != player:
                return self._take(creditor, events, paid=False)
            self.owed = 0
            self.creditor = None
        if self.to_play == player:
            self.to_play = self._next(player)
        return False

    def _after_card(self, trick_taken: bool, events: list[Event]) -> None:
        rules = self.rules
        if (rules.repeat is RepeatCheck.TRICK and trick_taken) or rules.repeat is RepeatCheck.CARD:
            key = self._position()
            if key in self._seen:
                events.append(self._end(Reason.REPEAT, repeat_of=self._seen[key]))
                return
            self._seen[key] = (self.cards, self.tricks)
        if rules.max_cards is not None and self.cards >= rules.max_cards:
            events.append(self._end(Reason.CARD_LIMIT))
        elif rules.max_tricks is not None and self.tricks >= rules.max_tricks:
            events.append(self._end(Reason.TRICK_LIMIT))

    def _remember(self) -> None:
        """The starting position counts as a position."""
        if self.rules.repeat is not RepeatCheck.OFF:
            self._seen[self._position()] = (0, 0)

    def _position(self) -> tuple[Any, ...]:
        """What must repeat for a loop. Cards that pay the same are interchangeable."""
        values = self._values
        stacks = tuple(bytes(values[card] for card in stack) for stack in self.stacks)
        key: tuple[Any, ...] = (stacks, self.to_play, tuple(self.out))
        if self.rules.repeat is RepeatCheck.CARD:
            key += (bytes(values[card] for card in self.pile), self.owed, self.creditor)
        return key

    def _end(
        self,
        reason: Reason,
        *,
        winner: int | None = None,
        repeat_of: tuple[int, int] | None = None,
    ) -> GameOver:
        holdings = self.hand_sizes
        status = reason.status
        outcome = Outcome.WIN
        if status is not Status.FINISHED:
            award = self.rules.on_repeat if status is Status.LOOP else self.rules.on_stop
            outcome, winner = _award(award, holdings)
        self.record = GameRecord(
            status=status,
            cards=self.cards,
            tricks=self.tricks,
            winner=winner,
            reason=reason,
            outcome=outcome,
            holdings=holdings,
            first=self.first,
            repeat_of=repeat_of,
        )
        return GameOver(self.record)


def _award(award: Award, holdings: tuple[int, ...]) -> tuple[Outcome, int | None]:
    if award is Award.REDEAL:
        return Outcome.REDEAL, None
    if award is Award.MOST_CARDS:
        most = max(holdings)
        leaders = [seat for seat, held in enumerate(holdings) if held == most]
        return (Outcome.WIN, leaders[0]) if len(leaders) == 1 else (Outcome.DRAW, None)
    return Outcome.NO_WINNER, None


def play(
    deal: Deal | str,
    rules: Rules = STANDARD,
    *,
    first: int | None = None,
    dealer: int | None = None,
    seed: int | None = None,
) -> GameRecord:
    """Play a whole deal and return its record.

    >>> play("------------KAQ----J------/-JQQK---K----JK--QA-A-JA--").cards
    4791
    """
    return Game(deal, rules, first=first, dealer=dealer, seed=seed).run()


@dataclass(frozen=True)
class Trick:
    """A whole trick: who turned each card, and who took the pile."""

    turns: tuple[int, ...]
    winner: int


def trick_from(cards: tuple[Card, ...], leader: int, rules: Rules = STANDARD) -> Trick | None:
    """The trick that ``cards`` make when turned in this order with ``leader`` leading.

    Returns who turns each card and who takes the pile, if the pile is taken exactly on the last
    card by a payment made in full; otherwise None. The engine's own rules decide: each card is
    put on top of the stack of whoever must turn next, and the game steps it.

    >>> trick_from(tuple(Card.parse(c) for c in "Q 5 J 7".split()), 0)
    Trick(turns=(0, 1, 1, 0), winner=1)
    """
    # Every player keeps a spare card underneath, so that nobody runs out while the cards are fed.
    spare = (Card(None),)
    game = Game(Deal((spare,) * rules.players), rules.unlimited(), first=leader, complete=False)
    turns = []
    for index, card in enumerate(cards):
        turns.append(game.to_play)
        game.stacks[game.to_play].appendleft(card)
        events = game.step()
        taken = [event for event in events if isinstance(event, PileTaken)]
        if taken:
            last = index == len(cards) - 1
            if last and taken[0].paid and not any(isinstance(e, PlayerOut) for e in events):
                return Trick(tuple(turns), taken[0].player)
            return None
    return None
