"""The rules object: one immutable description of every house rule the project plays.

``STANDARD`` is the game of ``RULES.md`` and of the research literature. Every other
rule set is a named preset or a variation of one, written as a *rules spec*:
``NAME[:key=value]...``, for example ``standard:players=4:direction=counter-clockwise``.

>>> r = rules_named("double-penalty")
>>> r.pay_value(Rank.ACE), r.pay_value(Rank.SEVEN)
(8, 0)
>>> rules_named("standard:players=3").players
3
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from beggar.cards import (
    DOUBLE_DECK,
    HALF_DECK,
    STANDARD_DECK,
    STRIPPED_DECK,
    Card,
    Deck,
    Rank,
    deck_named,
)


class RulesError(ValueError):
    """Rules that are unknown or contradict each other."""


class Direction(enum.StrEnum):
    """Which way the turn passes round the table (it matters with three or more players)."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


class Lead(enum.StrEnum):
    """Who turns the first card of a game."""

    FIRST_HAND = "first-hand"
    RANDOM = "random"
    AFTER_DEALER = "after-dealer"
    SEAT = "seat"


class PileOrder(enum.StrEnum):
    """The order in which a won pile goes under the winner's stack."""

    OLDEST_FIRST = "oldest-first"
    NEWEST_FIRST = "newest-first"


class EmptyHand(enum.StrEnum):
    """When a player with no cards loses."""

    MUST_TURN = "must-turn"
    """Only when they must turn a card (rule 8): a last pay card can still rescue them."""
    WHEN_EMPTY = "when-empty"
    """As soon as their stack is empty, even if their last card was a pay card."""


class RepeatCheck(enum.StrEnum):
    """Which repeated positions end a game as a loop."""

    TRICK = "trick"
    """Positions at trick ends: every stack in order, who leads (the record-keepers' rule)."""
    CARD = "card"
    """The exact state after every card: stacks, pile, next player, payment owed."""
    OFF = "off"
    """No repeat detection; a card or trick limit is then required."""


class Award(enum.StrEnum):
    """What a game stopped by a limit, or ended by a repeat, awards."""

    NO_WINNER = "no-winner"
    MOST_CARDS = "most-cards"
    """Whoever holds more cards wins; equal holdings are a draw."""
    REDEAL = "redeal"
    """Nobody wins; the cards are gathered, shuffled and dealt again."""


STANDARD_PAY: tuple[tuple[Rank, int], ...] = (
    (Rank.JACK, 1),
    (Rank.QUEEN, 2),
    (Rank.KING, 3),
    (Rank.ACE, 4),
)

MAX_PLAYERS = 8
MAX_PAY = 52


@dataclass(frozen=True)
class Rules:
    """Every setting of a game of Beggar-My-Neighbour. Immutable; build variants with :meth:`replace`.

    >>> STANDARD.pay_value(Rank.QUEEN)
    2
    >>> STANDARD.replace(players=9)
    Traceback (most recent call last):
    ...
    beggar.rules.RulesError: players=9: a table seats 2 to 8 players
    """

    name: str = "standard"
    pay: tuple[tuple[Rank, int], ...] = STANDARD_PAY
    """Pay value of each pay rank; every other rank is an ordinary (number) card."""
    deck: Deck = STANDARD_DECK
    players: int = 2
    direction: Direction = Direction.CLOCKWISE
    lead: Lead = Lead.FIRST_HAND
    lead_seat: int = 0
    """The seat that leads when ``lead`` is ``seat``."""
    pile_order: PileOrder = PileOrder.OLDEST_FIRST
    empty_hand: EmptyHand = EmptyHand.MUST_TURN
    repeat: RepeatCheck = RepeatCheck.TRICK
    max_cards: int | None = None
    """Stop the game after this many cards have been turned (a practice limit)."""
    max_tricks: int | None = None
    """Stop the game after this many piles have been taken."""
    time_limit: float | None = None
    """Seconds of wall-clock time a live table allows; the table enforces it."""
    on_repeat: Award = Award.NO_WINNER
    on_stop: Award = Award.NO_WINNER
    open_hands: bool = False
    """Teaching mode: every stack is shown face up."""
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # Normalise the pay scale so that equal rules compare equal whatever order they were given in.
        pay = tuple(sorted(((Rank(r), int(v)) for r, v in self.pay if int(v) != 0), key=lambda p: p[0]))
        object.__setattr__(self, "pay", pay)
        self._check()

    def _check(self) -> None:
        if not 2 <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players={self.players}: a table seats 2 to {MAX_PLAYERS} players")
        if self.players > self.deck.size:
            raise RulesError(
                f"players={self.players}: the {self.deck.describe()} cannot give every player a card"
            )
        ranks = [rank for rank, _ in self.pay]
        if len(set(ranks)) != len(ranks):
            raise RulesError("pay: a rank is given two pay values")
        if not self.pay:
            raise RulesError("pay: at least one rank must be a pay card, or no pile could ever be won")
        for rank, value in self.pay:
            if not 0 < value <= MAX_PAY:
                raise RulesError(f"pay: {rank.label} pays {value}; a pay value is 1 to {MAX_PAY}")
            if rank not in self.deck.ranks:
                raise RulesError(
                    f"pay: {rank.label} pays {value}, but the {self.deck.describe()} has no {rank.label}s"
                )
        if self.empty_hand is EmptyHand.WHEN_EMPTY and self.players != 2:
            raise RulesError(
                "empty-hand=when-empty is a two-player rule; with more players a player is out "
                "when they cannot turn a card they must turn"
            )
        if self.lead is Lead.SEAT and not 0 <= self.lead_seat < self.players:
            raise RulesError(f"seat={self.lead_seat}: seats are numbered 0 to {self.players - 1}")
        for name in ("max_cards", "max_tricks"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise RulesError(f"{_key(name)}={value}: a limit must be at least 1")
        if self.time_limit is not None and self.time_limit <= 0:
            raise RulesError(f"time-limit={self.time_limit}: a time limit must be positive")
        if self.repeat is RepeatCheck.OFF and self.max_cards is None and self.max_tricks is None:
            raise RulesError(
                "repeat=off needs max-cards or max-tricks: some deals never end, and nothing would stop them"
            )

    # -- queries -----------------------------------------------------------------------------

    @property
    def pay_table(self) -> dict[Rank, int]:
        """Pay value of every rank of the deck (0 for ordinary cards)."""
        values = dict(self.pay)
        return {rank: values.get(rank, 0) for rank in self.deck.ranks}

    def pay_value(self, card: Card | Rank) -> int:
        """How many cards the next player must pay for ``card`` (0 for an ordinary card)."""
        rank = card.rank if isinstance(card, Card) else card
        if rank is None:
            return 0
        for pay_rank, value in self.pay:
            if pay_rank == rank:
                return value
        return 0

    @property
    def number_ranks_pay(self) -> bool:
        """True when some rank from two to ten is a pay card (then ``-`` is ambiguous)."""
        return any(rank.is_number for rank, _ in self.pay)

    def unlimited(self) -> Rules:
        """These rules with no card or trick limit and repeats detected at trick ends.

        Cycle analysis and backward play need the game itself, not a house limit on it.
        """
        return self.replace(max_cards=None, max_tricks=None, repeat=RepeatCheck.TRICK)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed (checked like any new rules)."""
        return dataclasses.replace(self, **changes)

    # -- text --------------------------------------------------------------------------------

    def pay_spec(self) -> str:
        """The pay scale written compactly, for example ``J1Q2K3A4``."""
        return "".join(f"{rank.symbol}{value}" for rank, value in self.pay)

    def settings(self) -> dict[str, str]:
        """Every setting as text, in the spec's own ``key: value`` words."""
        lead = f"seat {self.lead_seat}" if self.lead is Lead.SEAT else str(self.lead)
        return {
            "pay": " ".join(f"{rank.label}{value}" for rank, value in self.pay),
            "deck": f"{self.deck.name} ({self.deck.size} cards)",
            "players": str(self.players),
            "direction": str(self.direction),
            "lead": lead,
            "pile": str(self.pile_order),
            "empty-hand": str(self.empty_hand),
            "repeat": str(self.repeat),
            "max-cards": "none" if self.max_cards is None else str(self.max_cards),
            "max-tricks": "none" if self.max_tricks is None else str(self.max_tricks),
            "time-limit": "none" if self.time_limit is None else _format_seconds(self.time_limit),
            "on-repeat": str(self.on_repeat),
            "on-stop": str(self.on_stop),
            "open-hands": "yes" if self.open_hands else "no",
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary; :meth:`from_dict` reads it back."""
        return {
            "name": self.name,
            "pay": {rank.symbol: value for rank, value in self.pay},
            "deck": self.deck.name,
            "players": self.players,
            "direction": str(self.direction),
            "lead": str(self.lead),
            "lead_seat": self.lead_seat,
            "pile_order": str(self.pile_order),
            "empty_hand": str(self.empty_hand),
            "repeat": str(self.repeat),
            "max_cards": self.max_cards,
            "max_tricks": self.max_tricks,
            "time_limit": self.time_limit,
            "on_repeat": str(self.on_repeat),
            "on_stop": str(self.on_stop),
            "open_hands": self.open_hands,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild rules from :meth:`to_dict`'s output, checking every value."""
        if not isinstance(data, Mapping):
            raise RulesError(f"bad rules data: expected a mapping of settings, not {type(data).__name__}")
        try:
            return cls(
                name=str(data.get("name", "custom")),
                pay=tuple((Rank.from_symbol(k), int(v)) for k, v in dict(data["pay"]).items()),
                deck=deck_named(str(data["deck"])),
                players=int(data["players"]),
                direction=Direction(data["direction"]),
                lead=Lead(data["lead"]),
                lead_seat=int(data.get("lead_seat", 0)),
                pile_order=PileOrder(data["pile_order"]),
                empty_hand=EmptyHand(data["empty_hand"]),
                repeat=RepeatCheck(data["repeat"]),
                max_cards=_optional_int(data.get("max_cards")),
                max_tricks=_optional_int(data.get("max_tricks")),
                time_limit=None if data.get("time_limit") is None else float(data["time_limit"]),
                on_repeat=Award(data["on_repeat"]),
                on_stop=Award(data["on_stop"]),
                open_hands=bool(data.get("open_hands", False)),
            )
        except RulesError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise RulesError(f"bad rules data: {exc}") from None


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _key(attribute: str) -> str:
    return attribute.replace("_", "-")


def _format_seconds(seconds: float) -> str:
    if seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


STANDARD = Rules(description="The standard game of RULES.md and the research literature.")

PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        STANDARD,
        Rules(
            name="practice-table",
            lead=Lead.SEAT,
            lead_seat=0,
            repeat=RepeatCheck.CARD,
            max_cards=4000,
            description=(
                "Seed 000's online table: you (seat 0) start, an exact repeat after any card or "
                "4,000 cards turned ends the game, and neither awards a win."
            ),
        ),
        Rules(
            name="friend-table",
            lead=Lead.RANDOM,
            max_tricks=3000,
            on_repeat=Award.MOST_CARDS,
            on_stop=Award.MOST_CARDS,
            description=(
                "Seed 001's online table: a random lead, stopped at the first repeated trick-end "
                "position or after 3,000 piles; whoever holds more cards then wins."
            ),
        ),
        Rules(
            name="family-table",
            lead=Lead.AFTER_DEALER,
            time_limit=30 * 60,
            on_repeat=Award.REDEAL,
            on_stop=Award.MOST_CARDS,
            description=(
                "Seeds 002 and 003's house rules: the player after the dealer leads; a loop means "
                "a redeal; at a 30-minute time limit whoever holds more cards wins."
            ),
        ),
        Rules(
            name="jack-pays-2",
            pay=((Rank.JACK, 2), (Rank.QUEEN, 2), (Rank.KING, 3), (Rank.ACE, 4)),
            description="A Strip Jack Naked regional scale: the jack asks for two cards.",
        ),
        Rules(
            name="double-penalty",
            pay=((Rank.JACK, 2), (Rank.QUEEN, 4), (Rank.KING, 6), (Rank.ACE, 8)),
            description="Every pay value doubled: jack 2, queen 4, king 6, ace 8.",
        ),
        Rules(
            name="court-only",
            pay=((Rank.JACK, 1), (Rank.QUEEN, 2), (Rank.KING, 3)),
            description="Fewer pay ranks: jack, queen and king pay; the ace is an ordinary card.",
        ),
        Rules(
            name="jacks-queens",
            pay=((Rank.JACK, 1), (Rank.QUEEN, 2)),
            description="Fewer pay ranks: only jacks and queens pay.",
        ),
        Rules(
            name="stripped",
            deck=STRIPPED_DECK,
            description="The 40-card stripped deck (no 8s, 9s or 10s).",
        ),
        Rules(
            name="two-decks",
            deck=DOUBLE_DECK,
            description="Two decks shuffled together, 104 cards.",
        ),
        Rules(
            name="half-deck",
            deck=HALF_DECK,
            description="A half deck of 26 cards (hearts and spades) for short games with children.",
        ),
        Rules(
            name="counter-clockwise",
            players=4,
            direction=Direction.COUNTER_CLOCKWISE,
            description="Suck the Well, the Caribbean way: four players, the turn passes counter-clockwise.",
        ),
        Rules(
            name="newest-first",
            pile_order=PileOrder.NEWEST_FIRST,
            description="A won pile is picked up face up, so its newest card goes under the stack first.",
        ),
        Rules(
            name="lose-when-empty",
            empty_hand=EmptyHand.WHEN_EMPTY,
            description="A player loses as soon as their stack is empty, even on a last pay card.",
        ),
    )
}

ALIASES = {
    "seed-000": "practice-table",
    "seed-001": "friend-table",
    "suck-the-well": "counter-clockwise",
    "strip-jack-naked": "jack-pays-2",
    "stripped-40": "stripped",
    "double-deck": "two-decks",
}


def rules_named(spec: str) -> Rules:
    """Rules from a spec: a preset name, optionally followed by ``:key=value`` changes.

    Keys: ``pay`` (``J1Q2K3A4``), ``deck`` (standard, stripped, double, half), ``players``,
    ``direction``, ``lead`` (first-hand, random, after-dealer, or a seat number), ``pile``,
    ``empty-hand``, ``repeat``, ``max-cards``, ``max-tricks``, ``time-limit`` (seconds, or
    ``30m``), ``on-repeat``, ``on-stop``, ``on-end`` (both), ``open-hands`` (yes/no).

    >>> rules_named("standard:pay=J2Q4K6A8:players=3").pay_spec()
    'J2Q4K6A8'
    """
    name, *changes = spec.strip().split(":")
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in PRESETS:
        raise RulesError(f"unknown rules {name!r}: choose one of {', '.join(PRESETS)}")
    rules = PRESETS[key]
    if not changes:
        return rules
    updates: dict[str, Any] = {}
    for change in changes:
        if "=" not in change:
            raise RulesError(f"bad rules change {change!r}: write key=value, for example players=3")
        k, v = (s.strip() for s in change.split("=", 1))
        updates.update(_parse_setting(k.lower(), v))
    return rules.replace(name=spec.strip(), **updates)


def _parse_setting(key: str, value: str) -> dict[str, Any]:
    try:
        if key == "pay":
            return {"pay": parse_pay(value)}
        if key == "deck":
            return {"deck": deck_named(value)}
        if key == "players":
            return {"players": int(value)}
        if key == "direction":
            return {"direction": Direction(value.lower())}
        if key == "lead":
            if value.isdigit():
                return {"lead": Lead.SEAT, "lead_seat": int(value)}
            return {"lead": Lead(value.lower())}
        if key in ("pile", "pile-order"):
            return {"pile_order": PileOrder(value.lower())}
        if key == "empty-hand":
            return {"empty_hand": EmptyHand(value.lower())}
        if key == "repeat":
            return {"repeat": RepeatCheck(value.lower())}
        if key in ("max-cards", "max-tricks"):
            return {_attr(key): None if value.lower() in ("none", "0", "") else int(value)}
        if key == "time-limit":
            return {"time_limit": parse_duration(value)}
        if key in ("on-repeat", "on-stop"):
            return {_attr(key): Award(value.lower())}
        if key == "on-end":
            return {"on_repeat": Award(value.lower()), "on_stop": Award(value.lower())}
        if key == "open-hands":
            return {"open_hands": _parse_bool(value)}
    except ValueError as exc:
        choices = _CHOICES.get(key)
        hint = f": choose {', '.join(choices)}" if choices else f" ({exc})"
        raise RulesError(f"bad value {value!r} for {key}{hint}") from None
    raise RulesError(
        f"unknown rules setting {key!r}: use pay, deck, players, direction, lead, pile, empty-hand, "
        "repeat, max-cards, max-tricks, time-limit, on-repeat, on-stop, on-end or open-hands"
    )


_CHOICES: dict[str, list[str]] = {
    "direction": [str(v) for v in Direction],
    "lead": [str(v) for v in Lead if v is not Lead.SEAT] + ["a seat number"],
    "pile": [str(v) for v in PileOrder],
    "pile-order": [str(v) for v in PileOrder],
    "empty-hand": [str(v) for v in EmptyHand],
    "repeat": [str(v) for v in RepeatCheck],
    "on-repeat": [str(v) for v in Award],
    "on-stop": [str(v) for v in Award],
    "on-end": [str(v) for v in Award],
}


def _attr(key: str) -> str:
    return key.replace("-", "_")


def _parse_bool(value: str) -> bool:
    lowered = value.lower()
    if lowered in ("yes", "true", "on", "1"):
        return True
    if lowered in ("no", "false", "off", "0"):
        return False
    raise ValueError("write yes or no")


def parse_pay(text: str) -> tuple[tuple[Rank, int], ...]:
    """Parse a pay scale such as ``J1Q2K3A4`` (also ``J=1,Q=2`` or ``J1 Q2``).

    >>> [(r.label, v) for r, v in parse_pay("J2Q4K6A8")]
    [('J', 2), ('Q', 4), ('K', 6), ('A', 8)]
    """
    items = re.findall(r"(10|[2-9TJQKA])\s*=?\s*(\d+)", text, flags=re.IGNORECASE)
    leftover = re.sub(r"(10|[2-9TJQKA])\s*=?\s*(\d+)|[\s,]", "", text, flags=re.IGNORECASE)
    if not items or leftover:
        raise RulesError(f"bad pay scale {text!r}: write rank and value pairs, for example J1Q2K3A4")
    return tuple((Rank.from_symbol(rank), int(value)) for rank, value in items)


def parse_duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``30m`` or ``1h``."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text.lower())
    if not match:
        raise ValueError("write seconds, or minutes as 30m")
    scale = {"": 1, "s": 1, "m": 60, "h": 3600}[match.group(2)]
    return float(match.group(1)) * scale


__all__ = [
    "ALIASES",
    "PRESETS",
    "STANDARD",
    "Award",
    "Direction",
    "EmptyHand",
    "Lead",
    "PileOrder",
    "RepeatCheck",
    "Rules",
    "RulesError",
    "parse_duration",
    "parse_pay",
    "rules_named",
]
