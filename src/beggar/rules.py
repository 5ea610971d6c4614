"""The rules object: one immutable description of every house rule the project plays.

``STANDARD`` is the game of the project's rules page (``docs/rules.md``) and of the research
literature. Every other rule set is a named preset or a variation of one, written as a *rules spec*:
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
from collections.abc import Callable, Mapping
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
from beggar.errors import UserError


class RulesError(UserError, ValueError):
    """Rules that are unknown or contradict each other (its field: ``"rules"``, the spec)."""

    field = "rules"


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

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_PAY = 52
MAX_LIMIT = 10**12
"""The largest card or trick limit: far beyond any game, and safe for the kernel's 64-bit counters."""
MAX_SECONDS = 366 * 86400


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
    """The preset these rules start from (:data:`PRESETS`); :meth:`spec` names the rules themselves."""
    pay: tuple[tuple[Rank, int], ...] = STANDARD_PAY
    """Pay value of each pay rank; every other rank pays nothing."""
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
    """Stop the game after this many tricks (piles taken)."""
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
        # A leading seat matters only when a seat leads, and a time limit is kept to the microsecond
        # (what a spec can write): equal games are equal rules, with one spec.
        if self.lead is not Lead.SEAT:
            object.__setattr__(self, "lead_seat", 0)
        if self.time_limit is not None:
            object.__setattr__(self, "time_limit", round(float(self.time_limit), 6))
        self._check()

    def _check(self) -> None:
        presets = globals().get("PRESETS")  # None while the presets themselves are being built
        if presets is not None and self.name not in presets:
            raise RulesError(f"unknown preset {shown_text(self.name)}: choose one of {', '.join(presets)}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players={self.players}: a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players")
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
            if value is not None and not 1 <= value <= MAX_LIMIT:
                raise RulesError(f"{name.replace('_', '-')}={value}: a limit is 1 to {MAX_LIMIT:,}")
        if self.time_limit is not None and not 0 < self.time_limit <= MAX_SECONDS:
            raise RulesError(
                f"time-limit={self.time_limit:g}: a time limit is more than 0 and at most "
                f"{MAX_SECONDS // 86400} days"
            )
        if self.repeat is RepeatCheck.OFF and self.max_cards is None and self.max_tricks is None:
            raise RulesError(
                "repeat=off needs max-cards or max-tricks: some deals never end, and nothing would stop them"
            )

    # -- queries -----------------------------------------------------------------------------

    @property
    def pay_table(self) -> dict[Rank, int]:
        """Pay value of every rank of the deck (0 for cards that pay nothing)."""
        values = dict(self.pay)
        return {rank: values.get(rank, 0) for rank in self.deck.ranks}

    def pay_value(self, card: Card | Rank) -> int:
        """How many cards the next player must pay for ``card`` (0 for a card that pays nothing)."""
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

    def player_counts(self) -> list[int]:
        """How many players may play by these rules, the rest unchanged (a two-player rule: 2 only).

        >>> rules_named("lose-when-empty").player_counts(), rules_named("standard").player_counts()[-1]
        ([2], 8)
        """
        counts = []
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            try:
                self.replace(players=players)
            except RulesError:
                continue
            counts.append(players)
        return counts

    # -- text --------------------------------------------------------------------------------

    def spec(self) -> str:
        """The rules spec of these rules: the preset, then each setting that differs from it, in
        the order of :data:`SETTINGS`. One rule set has one spec, however it was written or built,
        and :func:`rules_named` reads it back to these rules. Stores key their records by it.

        >>> rules_named("Standard: players=3 :pay=J2Q4K6A8").spec()
        'standard:pay=J2Q4K6A8:players=3'
        >>> rules_named("friend-table").replace(players=4).spec()
        'friend-table:players=4'
        >>> rules_named("seed-000:players=2").spec()
        'practice-table'
        """
        base = PRESETS[self.name]
        changed = [
            f"{setting.key}={setting.spec_text(self)}"
            for setting in SETTINGS
            if setting.spec_text(self) != setting.spec_text(base)
        ]
        return ":".join([self.name, *changed])

    def pay_spec(self) -> str:
        """The pay scale written compactly, for example ``J1Q2K3A4``; spaced when a number rank
        pays, so that a rank's digit never runs into the value before it.

        >>> rules_named("standard:pay=2=1,3=1,A4").pay_spec()
        '21 31 A4'
        """
        return (" " if self.number_ranks_pay else "").join(
            f"{rank.symbol}{value}" for rank, value in self.pay
        )

    def settings(self) -> dict[str, str]:
        """Every setting as text, in the spec's own ``key: value`` words."""
        return {setting.key: setting.show(self) for setting in SETTINGS}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary; :meth:`from_dict` reads it back."""
        data: dict[str, Any] = {"name": self.name}
        for setting in SETTINGS:
            data.update(setting.dump(self))
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild rules from :meth:`to_dict`'s output, checking every value."""
        if not isinstance(data, Mapping):
            raise RulesError(f"bad rules data: expected a mapping of settings, not {type(data).__name__}")
        try:
            # ``name`` is the preset; data written before it was held the whole spec, so a spec is
            # read for its preset. Rules of no preset (a lesson's, say) are read from the standard.
            preset = rules_named(str(data.get("name", STANDARD.name))).name
        except RulesError:
            preset = STANDARD.name
        changes: dict[str, Any] = {"name": preset}
        for setting in SETTINGS:
            try:
                changes.update(setting.load(data))
            except RulesError:
                raise
            except (KeyError, TypeError, ValueError) as exc:
                raise RulesError(f"bad rules data for {setting.key}: {exc}") from None
        return cls(**changes)

    def default_leader(self, dealer: int | None = None) -> int | None:
        """The seat that leads a game under these rules, or ``None`` when the lead is drawn at random.

        ``dealer`` matters only for ``lead=after-dealer``; by default the dealer is the seat that
        deals to the first hand last, so the first hand leads (seat 0 clockwise).

        >>> rules_named("family-table:players=4:direction=counter-clockwise").default_leader()
        0
        >>> rules_named("family-table:players=4").default_leader(dealer=2)
        3
        >>> rules_named("friend-table").default_leader() is None
        True
        """
        if self.lead is Lead.SEAT:
            return self.lead_seat
        if self.lead is Lead.RANDOM:
            return None
        if self.lead is Lead.AFTER_DEALER:
            step = self.step
            if dealer is None:
                dealer = (self.players - 1) if step == 1 else 1 % self.players
            if not 0 <= dealer < self.players:
                raise RulesError(f"dealer={dealer}: seats are numbered 0 to {self.players - 1}")
            return (dealer + step) % self.players
        return 0

    @property
    def step(self) -> int:
        """+1 when the turn passes clockwise (to the next seat number), -1 counter-clockwise."""
        return 1 if self.direction is Direction.CLOCKWISE else -1

    def draw_leader(self, seed: int) -> int:
        """The leader a random lead picks from ``seed`` (the same seed, the same seat).

        >>> rules_named("friend-table").draw_leader(7) == rules_named("friend-table").draw_leader(7)
        True
        """
        from beggar.kernels.rng import draw  # the generator is compiled: load it only when a lead is drawn

        return draw(seed, self.players)


@dataclass(frozen=True)
class Preset:
    """A named rule set as people meet it: its name, its title at a table, what it is in plain
    words, and its rules. The one place each preset is described: ``beggar rules``, the web
    table and its home page all read these."""

    name: str
    title: str
    description: str
    rules: Rules


def _preset(title: str, description: str, **settings: Any) -> Preset:
    rules = Rules(description=description, **settings)
    return Preset(rules.name, title, description, rules)


STANDARD_DESCRIPTION = (
    "The classic game, as it is written down and studied: it ends only when one player holds "
    "every card, or loops."
)
STANDARD = Rules(description=STANDARD_DESCRIPTION)

PRESET_LIST: tuple[Preset, ...] = (
    Preset("standard", "No limits", STANDARD_DESCRIPTION, STANDARD),
    _preset(
        "Practice table",
        "The practice table: you lead the first card; an exact repeat after any card, or 4,000 cards "
        "turned, ends the game, and neither awards a win.",
        name="practice-table",
        lead=Lead.SEAT,
        lead_seat=0,
        repeat=RepeatCheck.CARD,
        max_cards=4000,
    ),
    _preset(
        "Friend table",
        "The friend table: a random player leads; a repeated position or 3,000 tricks end the "
        "game, and whoever then holds more cards wins.",
        name="friend-table",
        lead=Lead.RANDOM,
        max_tricks=3000,
        on_repeat=Award.MOST_CARDS,
        on_stop=Award.MOST_CARDS,
    ),
    _preset(
        "Family table",
        "The family table: the player after the dealer leads; a game that loops is gathered, "
        "shuffled and dealt again; after 30 minutes whoever holds more cards wins.",
        name="family-table",
        lead=Lead.AFTER_DEALER,
        time_limit=30 * 60,
        on_repeat=Award.REDEAL,
        on_stop=Award.MOST_CARDS,
    ),
    _preset(
        "Jack pays two",
        "A regional scale of Strip Jack Naked: the jack asks for two cards.",
        name="jack-pays-2",
        pay=((Rank.JACK, 2), (Rank.QUEEN, 2), (Rank.KING, 3), (Rank.ACE, 4)),
    ),
    _preset(
        "Double penalty",
        "Twice the price: jack 2, queen 4, king 6, ace 8.",
        name="double-penalty",
        pay=((Rank.JACK, 2), (Rank.QUEEN, 4), (Rank.KING, 6), (Rank.ACE, 8)),
    ),
    _preset(
        "Court cards only",
        "Jack, queen and king pay; the ace pays nothing.",
        name="court-only",
        pay=((Rank.JACK, 1), (Rank.QUEEN, 2), (Rank.KING, 3)),
    ),
    _preset(
        "Jacks and queens",
        "Only jacks and queens pay.",
        name="jacks-queens",
        pay=((Rank.JACK, 1), (Rank.QUEEN, 2)),
    ),
    _preset("Stripped deck", "40 cards: no eights, nines or tens.", name="stripped", deck=STRIPPED_DECK),
    _preset("Two decks", "Two decks shuffled together, 104 cards.", name="two-decks", deck=DOUBLE_DECK),
    _preset(
        "Half deck",
        "26 cards (hearts and spades), for short games with children.",
        name="half-deck",
        deck=HALF_DECK,
    ),
    _preset(
        "Suck the Well",
        "The Caribbean way, usually played by four: the turn passes counter-clockwise.",
        name="counter-clockwise",
        players=4,
        direction=Direction.COUNTER_CLOCKWISE,
    ),
    _preset(
        "Newest card first",
        "A won pile is picked up face up, so its newest card goes under the stack first.",
        name="newest-first",
        pile_order=PileOrder.NEWEST_FIRST,
    ),
    _preset(
        "Lose when empty",
        "An empty stack loses at once, even after a last pay card.",
        name="lose-when-empty",
        empty_hand=EmptyHand.WHEN_EMPTY,
    ),
)
"""Every preset, in the order they are offered."""

PRESETS: dict[str, Rules] = {preset.name: preset.rules for preset in PRESET_LIST}
PRESET_BY_NAME: dict[str, Preset] = {preset.name: preset for preset in PRESET_LIST}

ALIASES = {
    "seed-000": "practice-table",
    "seed-001": "friend-table",
    "suck-the-well": "counter-clockwise",
    "strip-jack-naked": "jack-pays-2",
    "stripped-40": "stripped",
    "double-deck": "two-decks",
}


def rules_named(spec: str) -> Rules:
    """Rules from a spec: a preset name, optionally followed by ``:key=value`` changes
    (:meth:`Rules.spec` writes the one spec of some rules).

    The keys are those of :data:`SETTINGS` (see :func:`spec_help`) and ``on-end``.

    >>> rules_named("standard:pay=J2Q4K6A8:players=3").pay_spec()
    'J2Q4K6A8'
    """
    name, *changes = spec.strip().split(":")
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in PRESETS:
        raise RulesError(f"unknown rules {shown_text(name)}: choose one of {', '.join(PRESETS)}")
    rules = PRESETS[key]
    if not changes:
        return rules
    updates: dict[str, Any] = {}
    for change in changes:
        if "=" not in change:
            raise RulesError(f"bad rules change {shown_text(change)}: write key=value, for example players=3")
        key, value = (part.strip() for part in change.split("=", 1))
        updates.update(_parse_change(key.lower(), value))
    return rules.replace(**updates)


NUMBER_DIGITS = 18
"""Digits a typed whole number may have at most: beyond any count, seat or limit of the game."""


def parse_whole(text: str, low: int, high: int | None, what: str) -> int:
    """A whole number a person typed: ASCII digits only, from ``low`` to ``high`` (None: any
    number of at most :data:`NUMBER_DIGITS` digits).

    Every number read from a user's text goes through here (or :func:`parse_amount`).
    ``str.isdigit`` and ``int`` accept superscripts, circled and other scripts' digits, signs,
    underscores and thousands of digits; a person means none of those, and some of them make
    ``int`` fail or take quadratic time. :class:`ValueError` with one plain sentence otherwise.

    >>> parse_whole("12", 0, 99, "a seat")
    12
    >>> parse_whole("²", 0, 99, "a seat")
    Traceback (most recent call last):
    ...
    ValueError: a seat must be a whole number written with the digits 0-9, from 0 to 99
    """
    bounds = f"from {low:,} to {high:,}" if high is not None else f"{low:,} or more"
    if not 0 < len(text) <= NUMBER_DIGITS or not text.isascii() or not text.isdigit():
        raise ValueError(f"{what} must be a whole number written with the digits 0-9, {bounds}")
    value = int(text)
    if value < low or (high is not None and value > high):
        raise ValueError(f"{what} must be {bounds}")
    return value


_AMOUNT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,6})?", flags=re.ASCII)


def parse_amount(text: str, low: float, what: str) -> float:
    """A number with an optional fraction a person typed (``2``, ``0.5``), at least ``low``:
    ASCII digits only, as :func:`parse_whole`. :class:`ValueError` with one plain sentence."""
    if not _AMOUNT.fullmatch(text):
        raise ValueError(
            f"{what} must be a number written with the digits 0-9 (and a point), {low:g} or more"
        )
    value = float(text)
    if value < low:
        raise ValueError(f"{what} must be {low:g} or more")
    return value


def shown_text(text: str, most: int = 40) -> str:
    """``text`` quoted for an error message, cut short if it is long."""
    return repr(text if len(text) <= most else text[:most] + "…")


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
    items = re.findall(r"(10|[2-9TJQKA])\s*=?\s*([0-9]+)", text, flags=re.IGNORECASE | re.ASCII)
    leftover = re.sub(r"(10|[2-9TJQKA])\s*=?\s*([0-9]+)|[\s,]", "", text, flags=re.IGNORECASE | re.ASCII)
    if not items or leftover:
        raise RulesError(
            f"bad pay scale {shown_text(text)}: write rank and value pairs, for example J1Q2K3A4"
        )
    try:
        return tuple(
            (Rank.from_symbol(rank), parse_whole(value, 0, 1000, "a pay value")) for rank, value in items
        )
    except ValueError as exc:
        raise RulesError(f"bad pay scale {shown_text(text)}: {exc}") from None


def parse_duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``30m`` or ``1h``."""
    match = re.fullmatch(rf"\s*({_AMOUNT.pattern})\s*([smh]?)\s*", text.lower(), flags=re.ASCII)
    if not match:
        raise ValueError("write seconds, or minutes as 30m")
    scale = {"": 1, "s": 1, "m": 60, "h": 3600}[match.group(2)]
    return float(match.group(1)) * scale


# -- the settings, declared once ---------------------------------------------------------------------
#
# Every setting of a rules spec is one :class:`Setting` below: its spec key, the attribute it
# fills, how its text is read and written, its choices and its help. ``settings()``, ``to_dict()``,
# ``from_dict()``, the spec parser, its error messages and the help text all come from this list,
# so a new house rule is one more entry here and one more field of :class:`Rules`.


@dataclass(frozen=True)
class Setting:
    """One setting of the rules: how a spec writes it, how it is shown, and how it is stored."""

    key: str
    """The spec key, ``max-cards``; also the key of :meth:`Rules.settings`."""
    attribute: str
    """The :class:`Rules` field it sets; also the key of :meth:`Rules.to_dict`."""
    help: str
    read: Callable[[str], Any]
    """Spec text to a value; raises ``ValueError`` (or :class:`RulesError`) on bad text."""
    show_value: Callable[[Any], str] = str
    """A value as the text :meth:`Rules.settings` gives and a spec accepts back."""
    choices: tuple[str, ...] = ()
    expects: str = ""
    """What a good value looks like, for the error message of a bad one."""
    aliases: tuple[str, ...] = ()

    def show(self, rules: Rules) -> str:
        return self.show_value(getattr(rules, self.attribute))

    def spec_text(self, rules: Rules) -> str:
        """The value as a spec writes it (``key=`` this), read back by :meth:`parse`."""
        return self.show(rules)

    def parse(self, text: str) -> dict[str, Any]:
        """The :class:`Rules` changes a spec's ``key=text`` asks for."""
        try:
            return {self.attribute: self.read(text.strip())}
        except RulesError:
            raise
        except ValueError as exc:
            hint = f"choose {', '.join(self.choices)}" if self.choices else self.expects or str(exc)
            raise RulesError(f"bad value {shown_text(text)} for {self.key}: {hint}") from None

    def dump(self, rules: Rules) -> dict[str, Any]:
        value = getattr(rules, self.attribute)
        return {
            self.attribute: value if value is None or isinstance(value, bool | int | float) else str(value)
        }

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        value = data[self.attribute]
        return {self.attribute: None if value is None else self.read(str(value))}


@dataclass(frozen=True)
class _LeadSetting(Setting):
    """``lead``: a way of choosing the leader, or a seat number (two fields of :class:`Rules`)."""

    def show(self, rules: Rules) -> str:
        return f"seat {rules.lead_seat}" if rules.lead is Lead.SEAT else str(rules.lead)

    def spec_text(self, rules: Rules) -> str:
        return str(rules.lead_seat) if rules.lead is Lead.SEAT else str(rules.lead)

    def parse(self, text: str) -> dict[str, Any]:
        text = text.strip()
        if text[:1].isdigit():
            try:
                return {
                    "lead": Lead.SEAT,
                    "lead_seat": parse_whole(text, 0, MAX_PLAYERS - 1, "the leading seat"),
                }
            except ValueError as exc:
                raise RulesError(f"bad value {shown_text(text)} for lead: {exc}") from None
        return super().parse(text)

    def dump(self, rules: Rules) -> dict[str, Any]:
        return {"lead": str(rules.lead), "lead_seat": rules.lead_seat}

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"lead": Lead(data["lead"]), "lead_seat": int(data.get("lead_seat", 0))}


@dataclass(frozen=True)
class _PaySetting(Setting):
    """``pay``: a rank-and-value scale; stored as a mapping of rank symbols to values."""

    def show(self, rules: Rules) -> str:
        return " ".join(f"{rank.label}{value}" for rank, value in rules.pay)

    def spec_text(self, rules: Rules) -> str:
        return rules.pay_spec()

    def dump(self, rules: Rules) -> dict[str, Any]:
        return {"pay": {rank.symbol: value for rank, value in rules.pay}}

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"pay": tuple((Rank.from_symbol(k), int(v)) for k, v in dict(data["pay"]).items())}


@dataclass(frozen=True)
class _DeckSetting(Setting):
    def show(self, rules: Rules) -> str:
        return f"{rules.deck.name} ({rules.deck.size} cards)"

    def spec_text(self, rules: Rules) -> str:
        return rules.deck.name

    def dump(self, rules: Rules) -> dict[str, Any]:
        return {"deck": rules.deck.name}


def _limit(text: str) -> int | None:
    if text.lower() in ("none", "0", ""):
        return None
    return parse_whole(text, 1, 10**NUMBER_DIGITS - 1, "a limit")


def _show_limit(value: int | None) -> str:
    return "none" if value is None else str(value)


def _show_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "none"
    if seconds % 60 == 0:
        return f"{int(seconds // 60)}m"
    return f"{seconds:.6f}".rstrip("0").rstrip(".") + "s"  # exact: rules keep a limit to the microsecond


def _duration(text: str) -> float | None:
    return None if text.lower() in ("none", "") else parse_duration(text)


def _choices(kind: type[enum.StrEnum]) -> tuple[str, ...]:
    return tuple(str(v) for v in kind)


def _enum(kind: type[enum.StrEnum]) -> Callable[[str], Any]:
    return lambda text: kind(text.lower())


SETTINGS: tuple[Setting, ...] = (
    _PaySetting("pay", "pay", "Pay value of each pay rank, for example J1Q2K3A4.", parse_pay),
    _DeckSetting("deck", "deck", "standard (52), stripped (40), double (104) or half (26).", deck_named),
    Setting(
        "players",
        "players",
        f"Seats at the table, 2 to {MAX_PLAYERS}.",
        lambda text: parse_whole(text, 0, 999, "players"),  # the rules say which counts can play
        expects=f"write a whole number from 2 to {MAX_PLAYERS}",
    ),
    Setting(
        "direction", "direction", "Which way the turn passes.", _enum(Direction), choices=_choices(Direction)
    ),
    _LeadSetting(
        "lead",
        "lead",
        "Who turns the first card: first-hand, random, after-dealer, or a seat number.",
        _enum(Lead),
        choices=(*(str(v) for v in Lead if v is not Lead.SEAT), "a seat number"),
    ),
    Setting(
        "pile",
        "pile_order",
        "The order a won pile goes under the winner's stack.",
        _enum(PileOrder),
        choices=_choices(PileOrder),
        aliases=("pile-order",),
    ),
    Setting(
        "empty-hand",
        "empty_hand",
        "When a player with no cards loses.",
        _enum(EmptyHand),
        choices=_choices(EmptyHand),
    ),
    Setting(
        "repeat",
        "repeat",
        "Which repeated positions end a game as a loop.",
        _enum(RepeatCheck),
        choices=_choices(RepeatCheck),
    ),
    Setting(
        "max-cards",
        "max_cards",
        "Stop after this many cards (none: no limit).",
        _limit,
        _show_limit,
        expects="write a whole number of cards, or none",
    ),
    Setting(
        "max-tricks",
        "max_tricks",
        "Stop after this many tricks (none: no limit).",
        _limit,
        _show_limit,
        expects="write a whole number of tricks, or none",
    ),
    Setting(
        "time-limit",
        "time_limit",
        "Wall-clock limit of a live table: seconds, or 30m, 1h (none: no limit).",
        _duration,
        _show_seconds,
        expects="write seconds, or minutes as 30m, or none",
    ),
    Setting("on-repeat", "on_repeat", "What a loop awards.", _enum(Award), choices=_choices(Award)),
    Setting("on-stop", "on_stop", "What a stopped game awards.", _enum(Award), choices=_choices(Award)),
    Setting(
        "open-hands",
        "open_hands",
        "Teaching mode: every stack face up (yes or no).",
        lambda t: _parse_bool(t),
        lambda v: "yes" if v else "no",
        choices=("yes", "no"),
    ),
)
"""Every setting of the rules, in the order they are shown."""

SPEC_ONLY: dict[str, tuple[str, ...]] = {"on-end": ("on-repeat", "on-stop")}
"""Spec keys that set several settings at once: ``on-end=most-cards`` sets both awards."""

_BY_KEY: dict[str, Setting] = {key: s for s in SETTINGS for key in (s.key, *s.aliases)}


def _parse_change(key: str, value: str) -> dict[str, Any]:
    """The :class:`Rules` changes a spec's ``key=value`` asks for."""
    if key in SPEC_ONLY:
        changes: dict[str, Any] = {}
        for target in SPEC_ONLY[key]:
            try:
                changes.update(_BY_KEY[target].parse(value))
            except RulesError:
                raise RulesError(
                    f"bad value {value!r} for {key}: choose {', '.join(_BY_KEY[target].choices)}"
                ) from None
        return changes
    setting = _BY_KEY.get(key)
    if setting is None:
        keys = [s.key for s in SETTINGS] + list(SPEC_ONLY)
        raise RulesError(f"unknown rules setting {shown_text(key)}: use {', '.join(keys[:-1])} or {keys[-1]}")
    return setting.parse(value)


def spec_help() -> str:
    """One line per spec key, for ``--help`` texts and documentation."""
    lines = [f"{s.key}: {s.help}" for s in SETTINGS]
    lines += [f"{key}: sets {' and '.join(targets)} at once." for key, targets in SPEC_ONLY.items()]
    return "\n".join(lines)


__all__ = [
    "ALIASES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRESETS",
    "PRESET_BY_NAME",
    "PRESET_LIST",
    "STANDARD",
    "Award",
    "Direction",
    "EmptyHand",
    "Lead",
    "PileOrder",
    "Preset",
    "RepeatCheck",
    "Rules",
    "RulesError",
    "parse_amount",
    "parse_duration",
    "parse_pay",
    "parse_whole",
    "rules_named",
]
