"""Live tables: seats, the game, its pace, and the views sent to each person.

A :class:`Table` owns one reference-engine :class:`~beggar.engine.Game` and is the only authority
over it. Views never carry the order of a face-down stack, except in open-hand teaching mode.
A :class:`Lobby` holds every live table, bounds their number and closes idle ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from beggar.cards import Card
from beggar.engine import CardTurned, Event, Game, Outcome, PileTaken, Reason, Status
from beggar.lessons import Lesson
from beggar.narrate import Narrator, ending
from beggar.notation import Deal, parse_deal, random_deal
from beggar.records import PublishedGame
from beggar.rules import Rules


class TableError(Exception):
    """A request the table refuses; the message is shown to the person who made it."""


class Pace(enum.StrEnum):
    SLOW = "slow"
    NORMAL = "normal"
    FAST = "fast"
    INSTANT = "instant"

    @property
    def delay(self) -> float:
        """Seconds an automatic player waits before turning a card."""
        return {"slow": 2.0, "normal": 1.0, "fast": 0.3, "instant": 0.0}[self.value]


class Mode(enum.StrEnum):
    COMPUTER = "computer"
    """One person against the computer (or several computer players)."""
    FRIENDS = "friends"
    """Seats for people who join by a link; the others are computer players."""
    WATCH = "watch"
    """Every seat automatic."""
    LESSON = "lesson"
    FAMOUS = "famous"


LOG_KEEP = 60
"""Log lines kept in every view; older lines scroll away."""
UPDATE_INTERVAL = 0.05
"""A connection gets at most one state every this many seconds; changes in between are merged."""


@dataclass
class Seat:
    name: str
    human: bool
    token: str | None = None
    """The secret that holds a human seat; None until someone takes it."""
    connections: int = 0
    automatic: bool = False
    """A human seat whose cards are turned for them ("watch both players")."""

    @property
    def plays_itself(self) -> bool:
        return not self.human or self.automatic


Listener = Callable[["Table"], None]


@dataclass
class Table:
    """One game table. All methods run on the server's event loop."""

    id: str
    mode: Mode
    rules: Rules
    seats: list[Seat]
    deal: Deal
    pace: Pace = Pace.NORMAL
    seed: int | None = None
    lesson: Lesson | None = None
    famous: PublishedGame | None = None
    bound_to_connection: bool = False
    """Close the table when its creator disconnects (a game against the computer)."""
    game: Game = field(init=False)
    narrator: Narrator = field(init=False)
    paused: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)
    """The latest lines of the game log: ``{"seq", "text", "note"}``, oldest first."""
    history: list[tuple[int, ...]] = field(default_factory=list)
    last_card: dict[str, Any] | None = None
    last_take: dict[str, Any] | None = None
    version: int = 0
    changed_at: float = field(default_factory=time.time)
    touched: float = field(default_factory=time.monotonic)
    started: float = field(default_factory=time.monotonic)
    paused_for: float = 0.0
    paused_at: float | None = None
    listeners: list[Listener] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    games_played: int = 0
    _view: tuple[int, dict[str, Any]] | None = None
    _view_json: tuple[int, bytes] | None = None

    def __post_init__(self) -> None:
        self._start_game(self.deal)

    # -- the game -----------------------------------------------------------------------------

    def _start_game(self, deal: Deal) -> None:
        self.deal = deal
        lead_seed = None if self.seed is None else self.seed + self.games_played
        first = 0 if self.lesson is not None or self.famous is not None else None
        dealer = self.games_played % self.rules.players
        self.game = Game(deal, self.rules, first=first, seed=lead_seed, dealer=dealer, complete=False)
        self.narrator = Narrator(self.rules, [seat.name for seat in self.seats])
        self.history = [self.game.hand_sizes]
        self.last_card = None
        self.last_take = None
        self.started = time.monotonic()
        self.paused_for = 0.0
        intro = self.lesson.intro if self.lesson else ""
        names = [seat.name for seat in self.seats]
        self.say(f"New game: {self.rules.name} rules. {names[self.game.to_play]} leads.", intro)
        self.changed()

    def new_game(self) -> None:
        """Deal again (a lesson or a famous game starts over)."""
        self.games_played += 1
        if self.lesson is not None or self.famous is not None:
            deal = self.deal
        else:
            seed = None if self.seed is None else self.seed + self.games_played
            deal = random_deal(self.rules, seed)
        self._start_game(deal)

    def step(self) -> list[Event]:
        """Turn the next card (whoever's it is) and record what happened."""
        events = self.game.step()
        sentence = self.narrator.tell(events)
        note = self.lesson.note(self.game.cards) if self.lesson else ""
        for event in events:
            if isinstance(event, CardTurned):
                self.last_card = {
                    "seat": event.player,
                    "card": card_json(event.card),
                    "number": event.number,
                    "value": event.value,
                }
            elif isinstance(event, PileTaken):
                self.last_take = {"seat": event.player, "count": len(event.cards), "trick": event.trick}
                self.history.append(self.game.hand_sizes)
        self.say(sentence, note)
        if self.game.over and self.lesson is not None and self.lesson.outro:
            self.say(self.lesson.outro)
        return events

    def turn(self, seat: int) -> None:
        """A person turns their top card."""
        if self.game.over:
            raise TableError("the game is over: start a new game")
        if self.paused:
            raise TableError("the game is paused: resume it first")
        if self.game.to_play != seat and self.mode is not Mode.LESSON:
            raise TableError(f"it is {self.seats[self.game.to_play].name}'s turn, not yours")
        if self.seats[seat].automatic:
            raise TableError("your cards are being turned for you: switch off 'watch' first")
        self.step()
        self.changed()

    def check_time_limit(self) -> None:
        limit = self.rules.time_limit
        if limit is not None and not self.game.over and self.playing_seconds() >= limit:
            events = self.game.stop(Reason.TIME_LIMIT)
            self.say(self.narrator.tell(events))
            self.changed()

    def playing_seconds(self) -> float:
        now = time.monotonic()
        paused = self.paused_for + (now - self.paused_at if self.paused_at is not None else 0.0)
        return now - self.started - paused

    def set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        now = time.monotonic()
        if paused:
            self.paused_at = now
        elif self.paused_at is not None:
            self.paused_for += now - self.paused_at
            self.paused_at = None
        self.paused = paused
        self.say("Paused." if paused else "Resumed.")
        self.changed()

    def waiting_for_machine(self) -> bool:
        """True when the next card is turned automatically (not paused, not over)."""
        if self.game.over or self.paused or self.closed:
            return False
        if self.mode is Mode.LESSON:
            return self.seats[self.game.to_play].automatic
        return self.seats[self.game.to_play].plays_itself

    # -- bookkeeping ----------------------------------------------------------------------------

    def say(self, text: str, note: str = "") -> None:
        if not text and not note:
            return
        seq = self.log[-1]["seq"] + 1 if self.log else 1
        self.log.append({"seq": seq, "text": text, "note": note})
        if len(self.log) > LOG_KEEP:
            del self.log[: len(self.log) - LOG_KEEP]

    def changed(self) -> None:
        """Something changed: wake the driver and tell every listener."""
        self.version += 1
        self.changed_at = time.time()
        self.touched = time.monotonic()
        self.wake.set()
        for listener in list(self.listeners):
            listener(self)

    # -- what people see ----------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """Everything a person at the table may see; the same for everyone (see :func:`personal`)."""
        if self._view is None or self._view[0] != self.version:
            self._view = (self.version, self._build_view())
        return self._view[1]

    def view_json(self) -> bytes:
        """:meth:`view` as JSON, encoded once for everyone at the table."""
        if self._view_json is None or self._view_json[0] != self.version:
            self._view_json = (self.version, orjson.dumps(self.view()))
        return self._view_json[1]

    def _build_view(self) -> dict[str, Any]:
        game = self.game
        record = game.record
        names = [seat.name for seat in self.seats]
        reveal = self.rules.open_hands
        seats = []
        for index, seat in enumerate(self.seats):
            entry: dict[str, Any] = {
                "name": seat.name,
                "human": seat.human,
                "taken": seat.token is not None,
                "connected": seat.connections > 0,
                "automatic": seat.automatic,
                "cards": len(game.stacks[index]),
                "out": game.out[index],
            }
            if reveal:
                entry["stack"] = [card_json(card) for card in game.stacks[index]]
            seats.append(entry)
        view: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "mode": str(self.mode),
            "version": self.version,
            "at": self.changed_at,
            "seats": seats,
            "pile": [card_json(card) for card in game.pile],
            "to_play": None if record else game.to_play,
            "owed": game.owed,
            "creditor": game.creditor,
            "cards": game.cards,
            "tricks": game.tricks,
            "games_played": self.games_played,
            "paused": self.paused,
            "pace": str(self.pace),
            "last_card": self.last_card,
            "last_take": self.last_take,
            "time_left": None,
            "over": None,
        }
        if self.rules.time_limit is not None and record is None:
            view["time_left"] = max(0.0, round(self.rules.time_limit - self.playing_seconds(), 1))
        if self.lesson is not None:
            view["lesson"] = {"number": self.lesson.number, "title": self.lesson.title}
        if self.famous is not None:
            view["famous"] = famous_json(self.famous)
        if record is not None:
            view["over"] = {
                **record.to_dict(),
                "sentence": ending(record, names),
                "deal": self.deal.format(),
            }
        return view


def personal(
    table: Table,
    seat: int | None,
    *,
    log_after: int = 0,
    history_from: int = 0,
    first: bool = True,
) -> dict[str, Any]:
    """What only this person gets with the shared view: who they are and what they should do now.

    Only log lines after ``log_after`` and chart points from ``history_from`` are included: the
    browser already has the others. ``history_start`` says where the points sent begin. The
    rules, which never change at a table, come with a connection's ``first`` state only.
    """
    mine: dict[str, Any] = {"you": seat, "prompt": prompt(table, seat)}
    log = table.log
    skip = max(0, log_after - log[0]["seq"] + 1) if log else 0
    mine["log"] = log[skip:]
    if first:
        mine["rules"] = {"name": table.rules.name, "settings": table.rules.settings()}
    history = table.history if table.famous is not None or table.game.over else []
    start = history_from if 0 < history_from <= len(history) else 0
    mine["history_start"] = start
    mine["history"] = history[start:]
    return mine


def state_message(table: Table, mine: dict[str, Any]) -> str:
    """One ``state`` message: the table's shared view (encoded once per change) and ``mine``."""
    return (orjson.dumps(mine)[:-1] + b"," + table.view_json()[1:]).decode()


def prompt(table: Table, seat: int | None) -> str:
    """What is happening, said plainly from this person's seat: ``"Queen: you owe 2"``."""
    game = table.game
    names = [s.name for s in table.seats]
    if game.record is not None:
        record = game.record
        if record.status is Status.FINISHED or record.winner is not None:
            winner = record.winner
            if winner is not None:
                return "You win!" if winner == seat else f"{names[winner]} wins."
        return "A draw." if record.outcome is Outcome.DRAW else "Game over: no winner."
    if table.paused:
        return "Paused."
    who = game.to_play
    you = who == seat
    subject = "you" if you else names[who]
    if game.owed and game.creditor is not None:
        price = next(card.noun for card in reversed(game.pile) if table.rules.pay_value(card))
        verb = "owe" if you else "owes"
        return f"{price.capitalize()}: {subject} {verb} {game.owed}."
    if you:
        return "Your turn: turn your top card."
    return f"{names[who]}'s turn."


def card_json(card: Card) -> dict[str, Any]:
    return {
        "rank": "" if card.rank is None else card.rank.label,
        "suit": "" if card.suit is None else card.suit.value,
        "label": card.label,
    }


def famous_json(game: PublishedGame) -> dict[str, Any]:
    return {
        "finder": game.finder,
        "year": game.year,
        "deal": game.deal,
        "cards": game.cards,
        "tricks": game.tricks,
        "cycle_tricks": game.cycle_tricks,
        "note": game.note,
    }


# -- the lobby --------------------------------------------------------------------------------------

_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


@dataclass
class LobbySettings:
    max_tables: int = 1000
    idle_seconds: float = 30 * 60
    """Tables nobody has touched for this long are closed."""
    instant_cards: float = 8_000
    """Cards a second that all instant-pace tables together may turn: the rest of the server's
    time goes to sending updates, so that hundreds of instant tables cannot starve anyone."""


class CardBudget:
    """A token bucket shared by every instant-pace table."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = rate / 20
        self.stamp = time.monotonic()

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(self.rate / 20, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / self.rate)


class Lobby:
    """Every live table, bounded in number."""

    def __init__(self, settings: LobbySettings | None = None) -> None:
        self.settings = settings or LobbySettings()
        self.tables: dict[str, Table] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self.budget = CardBudget(self.settings.instant_cards)

    def open(
        self,
        mode: Mode,
        rules: Rules,
        seats: list[Seat],
        *,
        deal: Deal | str | None = None,
        seed: int | None = None,
        pace: Pace = Pace.NORMAL,
        lesson: Lesson | None = None,
        famous: PublishedGame | None = None,
        bound_to_connection: bool = False,
    ) -> Table:
        if len(self.tables) >= self.settings.max_tables:
            self.close_idle()
            if len(self.tables) >= self.settings.max_tables:
                raise TableError("the server has as many tables as it can hold: try again in a few minutes")
        if isinstance(deal, str):
            deal = parse_deal(deal, rules.deck, complete=lesson is None)
        if deal is None:
            deal = random_deal(rules, seed if seed is not None else random.SystemRandom().randrange(2**32))
        table = Table(
            id=self._new_id(),
            mode=mode,
            rules=rules,
            seats=seats,
            deal=deal,
            pace=pace,
            seed=seed,
            lesson=lesson,
            famous=famous,
            bound_to_connection=bound_to_connection,
        )
        self.tables[table.id] = table
        self._drivers[table.id] = asyncio.get_running_loop().create_task(drive(table, self.budget))
        return table

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no such table: it may have closed; start a new one")
        return table

    def close(self, table_id: str) -> None:
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        table.closed = True
        table.changed()
        task = self._drivers.pop(table_id, None)
        if task is not None:
            task.cancel()

    def close_idle(self) -> int:
        """Close tables nobody has touched for ``idle_seconds``; return how many."""
        now = time.monotonic()
        idle = [t.id for t in self.tables.values() if now - t.touched > self.settings.idle_seconds]
        for table_id in idle:
            self.close(table_id)
        return len(idle)

    def close_all(self) -> None:
        for table_id in list(self.tables):
            self.close(table_id)

    def _new_id(self) -> str:
        while True:
            table_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(6))
            if table_id not in self.tables:
                return table_id


def new_token() -> str:
    return secrets.token_urlsafe(18)


async def drive(table: Table, budget: CardBudget) -> None:
    """Turn the automatic players' cards at the table's pace, and enforce the time limit."""
    while not table.closed:
        table.wake.clear()
        table.check_time_limit()
        if not table.waiting_for_machine():
            await _wait(table, _time_to_limit(table))
            continue
        delay = table.pace.delay
        if delay > 0:
            version = table.version
            await _wait(table, delay)
            if table.version != version:
                continue  # pace, pause or a person's card changed things: think again
            if table.waiting_for_machine():
                table.step()
                table.changed()
            continue
        # Instant: one card at a time from the shared budget, so that hundreds of instant tables
        # share the server fairly and leave it time to send.
        await budget.take()
        if table.waiting_for_machine() and table.pace is Pace.INSTANT:
            table.step()
            table.changed()
        await asyncio.sleep(0)


def _time_to_limit(table: Table) -> float | None:
    if table.rules.time_limit is None or table.game.over:
        return None
    return max(0.05, table.rules.time_limit - table.playing_seconds())


async def _wait(table: Table, timeout: float | None) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(table.wake.wait(), timeout)


__all__ = [
    "Lobby",
    "LobbySettings",
    "Mode",
    "Pace",
    "Seat",
    "Table",
    "TableError",
    "card_json",
    "new_token",
    "personal",
    "prompt",
    "state_message",
]
