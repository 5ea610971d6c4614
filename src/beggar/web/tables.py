"""Live tables: seats, the game, its pace, and the views sent to each person.

A :class:`Table` owns one reference-engine :class:`~beggar.engine.Game` and is the only authority
over it. Views never carry the order of a face-down stack, except in open-hand teaching mode.
A :class:`Lobby` holds every live table, bounds their number and closes idle ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from beggar.cards import Card
from beggar.engine import CardTurned, Event, Game, GameError, Outcome, PileTaken, Reason, Status
from beggar.lessons import LESSONS, Lesson
from beggar.narrate import Narrator, ending
from beggar.notation import Deal, parse_deal, random_deal
from beggar.records import PublishedGame
from beggar.rules import Rules
from beggar.web.faces import dress
from beggar.web.never_ending import FoundDeal, published_cycle
from beggar.web.presets import rules_entry, table_rules_title
from beggar.web.settings import ServerSettings


class TableError(Exception):
    """A request the table refuses; the message is shown to the person who made it."""


class NoSuchTable(TableError):
    """A link to a table that has closed or never existed."""


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
RESUME_SLICE = 500
"""Cards a restored table replays between pauses (about 5 ms of the server's time)."""
ABSENT_GRACE = 20.0
"""Seconds a friend who left or lost the connection has to come back before the others are offered
to let the computer play for them, or a new game without them."""


@dataclass
class Seat:
    name: str
    human: bool
    token_hash: str | None = None
    """The hash (:func:`token_hash`) of the secret that holds a human seat; None until someone takes
    it. Only the person's browser keeps the secret itself: neither memory nor the database does."""
    connections: int = 0
    automatic: bool = False
    """A human seat whose cards are turned for them ("watch both players")."""
    away_since: float | None = None
    """When the person at this seat left or lost the connection (``time.monotonic()``); None
    while they are here (or never came)."""
    left: bool = False
    """They left on purpose (rather than lost the connection)."""
    stand_in: bool = False
    """The computer plays for this absent person, as the others asked; it stops when they return."""

    @property
    def plays_itself(self) -> bool:
        return not self.human or self.automatic

    @property
    def taken(self) -> bool:
        return self.token_hash is not None

    def held_by(self, token: str) -> bool:
        """Is ``token`` the secret that holds this seat?"""
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))


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
    famous: PublishedGame | FoundDeal | None = None
    """A famous game: a published one, or a never-ending deal found here."""
    bound_to_connection: bool = False
    """Close the table when its creator disconnects (a game against the computer)."""
    owner: str = ""
    """The network address that created the table (live tables are counted per address)."""
    chosen: bool = False
    """The first deal was chosen by the table's creator (not drawn): everyone is told what it is."""
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
    redeals: int = 0
    """Deals gathered and dealt again in this sitting (rules whose loop means a redeal)."""
    paused_why: str | None = None
    """Why the game is paused, said to everyone: ``"Ann switched to another tab."``."""
    new_game_asked: set[int] = field(default_factory=set)
    """Seats whose people asked for a new game; it starts when every seated person has."""
    on_game_over: Callable[[Table], None] | None = None
    """Called once when a game ends (the server archives it for its replay link)."""
    replay: str | None = None
    """The replay id of the game just finished, once archived."""
    on_change: Callable[[Table], None] | None = None
    """Called on every change, like the listeners, but not counted as someone watching: the
    server's keeper (:mod:`beggar.web.durable`), which decides what is worth saving."""
    _view_json: tuple[int, bytes] | None = None
    _faces: dict[int, tuple[Card, dict[str, Any]]] = field(default_factory=dict, repr=False)
    """Each card's :func:`card_json`, by the card object's id (the engine moves the same objects)."""

    def __post_init__(self) -> None:
        self._start_game(self.deal)

    # -- the game -----------------------------------------------------------------------------

    def _start_game(self, deal: Deal, *, redeal: bool = False) -> None:
        if self.famous is not None and not self.rules.number_ranks_pay:
            deal = dress(deal, self.rules)  # real faces for a compact deal; the game is the same (faces.py)
        self.deal = deal
        lead_seed = None if self.seed is None else self.seed + self.games_played
        first = 0 if self.lesson is not None or self.famous is not None else None
        dealer = self.games_played % self.rules.players
        self.game = Game(deal, self.rules, first=first, seed=lead_seed, dealer=dealer, complete=False)
        self.narrator = Narrator(self.rules, self.names)
        self.history = [self.game.hand_sizes]
        self._faces.clear()  # a new deal is new card objects
        self.last_card = None
        self.last_take = None
        self.new_game_asked.clear()
        self.replay = None
        leads = f"{self.names[self.game.to_play]} leads."
        if redeal:
            # The sitting goes on: the time limit keeps counting across a redeal.
            self.say(f"Dealt again: a fresh shuffle, the same seats (deal {self.redeals + 1}). {leads}")
        else:
            self.started = time.monotonic()
            self.paused_for = 0.0
            intro = self.lesson.intro if self.lesson else ""
            picked = self.chosen_deal()
            told = f" The table's creator chose the deal: {picked}." if picked else ""
            self.say(f"New game: {table_rules_title(self.rules.name)}.{told} {leads}", intro)
        self.changed()

    def chosen_deal(self) -> str | None:
        """The deal of this game if the creator chose it (a deal, or a deal number), else None.

        A creator who picks the deal of a friend table knows every face-down card; so must
        everyone else at the table, before the first card. (At the other tables nobody plays
        against the person who chose it, and face-down cards stay unsaid.)
        """
        if self.mode is not Mode.FRIENDS:
            return None
        if self.seed is not None:
            return f"deal number {self.seed + self.games_played}"
        if self.chosen and self.games_played == 0:
            return self.deal.format()
        return None

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def _next_deal(self) -> Deal:
        self.games_played += 1
        if self.lesson is not None or self.famous is not None:
            return self.deal
        seed = None if self.seed is None else self.seed + self.games_played
        return random_deal(self.rules, seed)

    def new_game(self) -> None:
        """Deal again (a lesson or a famous game starts over).

        At instant pace a new game does not play itself to its end at once: a person who was
        watching their own cards being turned gets them back, and a table where every seat plays
        itself starts paused.
        """
        self.redeals = 0
        self._start_game(self._next_deal())
        if self.pace is not Pace.INSTANT:
            return
        if self.mode in (Mode.WATCH, Mode.FAMOUS):
            self.set_paused(True)
            self.paused_why = "A new game, paused: press Resume to watch it."
            self.changed()
            return
        for each in self.seats:
            if each.human and not each.stand_in:
                each.automatic = False
        self.changed()

    def ask_new_game(self, seat: int) -> None:
        """``seat`` asks for a new game; it starts once every seated person has asked.

        One person alone at a table starts it at once. At a friend table the others are told, and
        the log says who asked and who agreed.
        """
        if self.mode is not Mode.FRIENDS:
            self.new_game()  # one person at the table (a lesson's two seats are one person)
            return
        people = self.present_people()
        if seat in self.new_game_asked:
            return
        self.new_game_asked.add(seat)
        name = self.seats[seat].name
        if len(people) <= 1:
            self.new_game()
            return
        missing = [self.seats[i].name for i in people if i not in self.new_game_asked]
        if missing:
            verb = "agrees" if len(missing) == 1 else "agree"
            self.say(f"{name} asks for a new game; it starts when {_and(missing)} {verb}.")
            self.changed()
            return
        self.say(f"{name} agrees: a new game.")
        self.new_game()

    def seated_people(self) -> list[int]:
        """Seats held by a person (not the computer, not empty)."""
        return [i for i, seat in enumerate(self.seats) if seat.human and seat.taken]

    def present_people(self) -> list[int]:
        """Seats held by a person who is at the table now: only their consent is asked for."""
        return [i for i in self.seated_people() if self.seats[i].away_since is None]

    def arrive(self, seat: int) -> None:
        """A browser of the person at ``seat`` connects; one who was away is back."""
        each = self.seats[seat]
        each.connections += 1
        if each.away_since is not None:
            each.away_since, each.left = None, False
            if each.stand_in:
                each.stand_in = each.automatic = False
            if self.mode is Mode.FRIENDS:
                self.say(f"{each.name} is back.")
        self.changed()

    def depart(self, seat: int, *, left: bool = False) -> None:
        """A browser of the person at ``seat`` disconnects (``left``: they pressed Leave).

        At a friend table, when their last browser goes the others are told, and after
        :data:`ABSENT_GRACE` seconds they are offered to go on without them.
        """
        each = self.seats[seat]
        each.connections = max(0, each.connections - 1)
        if each.connections == 0 and self.mode is Mode.FRIENDS and each.taken and not self.closed:
            each.away_since, each.left = time.monotonic(), left
            self.say(f"{each.name} {'left the table' if left else 'lost the connection'}.")
            self.new_game_asked.discard(seat)
            with contextlib.suppress(RuntimeError):  # no event loop: nobody to tell later
                asyncio.get_running_loop().call_later(ABSENT_GRACE + 0.05, self._grace_over, seat)
        self.changed()

    def _grace_over(self, seat: int) -> None:
        if not self.closed and self.absent(seat):
            self.changed()  # the others now see the offers

    def absent(self, seat: int) -> bool:
        """Has the person at ``seat`` been away for :data:`ABSENT_GRACE` seconds or more?"""
        since = self.seats[seat].away_since
        return since is not None and time.monotonic() - since >= ABSENT_GRACE

    def play_for(self, by: int, seat: int) -> None:
        """``by`` lets the computer play for the absent person at ``seat`` until they return."""
        if self.mode is not Mode.FRIENDS or not 0 <= seat < len(self.seats) or seat == by:
            raise TableError("the computer can play only for another player who is away")
        if not self.absent(seat):
            raise TableError(f"{self.seats[seat].name} is here, or has only just gone: wait a moment")
        each = self.seats[seat]
        if not each.stand_in:
            each.stand_in = each.automatic = True
            self.say(f"{self.seats[by].name} lets the computer play for {each.name}.")
        self.changed()

    def waiting_for(self) -> list[str]:
        """At a friend table: the names of seats still waiting for their person."""
        if self.mode is not Mode.FRIENDS:
            return []
        return [seat.name for seat in self.seats if seat.human and not seat.taken]

    def take_seat(self, seat: int, token: str, name: str | None = None, *, announce: bool = True) -> None:
        """A person sits down at a free seat, held from now on by ``token``."""
        if self.seats[seat].taken:
            raise TableError("that seat is taken")
        self.seats[seat].token_hash = token_hash(token)
        if name:
            self.rename_seat(seat, self._unique_name(seat, name))
        if announce:
            self.say(f"{self.seats[seat].name} sits down.")
        if announce and not self.waiting_for() and self.game.cards == 0:
            self.started = time.monotonic()  # the clock starts when everyone is here
            self.paused_for = 0.0
            self.say(f"Everyone is here. {self.names[self.game.to_play]} leads.")
        self.changed()

    def rename(self, seat: int, name: str) -> None:
        """The person at ``seat`` of a friend table gives their name; the others are told."""
        if self.mode is not Mode.FRIENDS:
            raise TableError("only a friend table's seats take a name once the game is set")
        old = self.seats[seat].name
        name = self._unique_name(seat, name)
        if name == old:
            return
        self.rename_seat(seat, name)
        self.say(f"{old} is now called {name}.")
        self.changed()

    def _unique_name(self, seat: int, name: str) -> str:
        """``name``, or ``name 2``, ``name 3``...: two people with one name at a table could not
        tell from the log which of them did what."""
        taken = {each.name.casefold() for index, each in enumerate(self.seats) if index != seat}
        candidate, number = name, 1
        while candidate.casefold() in taken:
            number += 1
            candidate = f"{name} {number}"
        return candidate

    def rename_seat(self, seat: int, name: str) -> None:
        self.seats[seat].name = name
        self.narrator.names[seat] = name

    def set_pace(self, seat: int | None, pace: Pace) -> None:
        if pace is self.pace:
            return
        self.pace = pace
        if seat is not None and self.mode is Mode.FRIENDS:
            self.say(f"{self.seats[seat].name} sets the pace to {pace}.")
        self.changed()

    def set_automatic(self, seat: int, on: bool) -> None:
        """ "Watch both players": ``seat``'s cards are turned for them (in a lesson, every seat's)."""
        for index, each in enumerate(self.seats):
            if index == seat or self.mode is Mode.LESSON:
                each.automatic = on
        self.changed()

    def _after_game(self) -> None:
        record = self.game.record
        if record is None:
            return
        if self.on_game_over is not None:
            self.on_game_over(self)
        if record.outcome is Outcome.REDEAL:
            self.redeals += 1
            # A deal stopped by the time limit is dealt again with a fresh clock, or it would stop
            # again at once; a loop is dealt again within the same sitting.
            keep_clock = record.reason is not Reason.TIME_LIMIT
            self._start_game(self._next_deal(), redeal=keep_clock)
            if not keep_clock:
                self.say("The clock starts again.")

    def step(self) -> list[Event]:
        """Turn the next card (whoever's it is) and record what happened."""
        events = self.game.step()
        sentence = self.narrator.tell(events)
        note = self.lesson.note(self.game.cards) if self.lesson else ""
        self._note(events)
        self.say(sentence, note)
        if self.game.over and self.lesson is not None and self.lesson.outro:
            self.say(self.lesson.outro)
        if self.game.over:
            self._after_game()
        return events

    def _note(self, events: list[Event]) -> None:
        """Remember the last card and the last trick taken, and chart the hands after each trick."""
        for event in events:
            if isinstance(event, CardTurned):
                self.last_card = {
                    "seat": event.player,
                    "card": self.face(event.card),
                    "number": event.number,
                    "value": event.value,
                }
            elif isinstance(event, PileTaken):
                self.last_take = {"seat": event.player, "count": len(event.cards), "trick": event.trick}
                self.history.append(self.game.hand_sizes)

    def resume(self, first: int, turned: int, stopped: Reason | None = None) -> Iterator[None]:
        """Play this table's deal again through the engine to where a saved table stood: led by
        ``first``, ``turned`` cards turned, then stopped for ``stopped`` if it was.

        Nothing is said and no game over is reported: the saved log and replay link stand. The
        replay pauses (yields) every :data:`RESUME_SLICE` cards, so that a long game does not hold
        up the server. :class:`GameError` if the saved game cannot be where it says.
        """
        if turned < 0:
            raise GameError("bad saved game: a negative number of cards turned")
        self.game = Game(self.deal, self.rules, first=first, complete=False)
        self.history = [self.game.hand_sizes]
        self.last_card = None
        self.last_take = None
        while self.game.cards < turned:
            if self.game.over:
                raise GameError(f"bad saved game: it ends after {self.game.cards} cards, not {turned}")
            self._note(self.game.step())
            if self.game.cards % RESUME_SLICE == 0:
                yield
        if stopped is not None and not self.game.over:
            self.game.stop(stopped)

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` holds, if any."""
        return next((i for i, seat in enumerate(self.seats) if seat.held_by(token)), None)

    def turn(self, seat: int) -> None:
        """A person turns their top card."""
        if self.game.over:
            raise TableError("the game is over: start a new game")
        waiting = self.waiting_for()
        if waiting:
            raise TableError(f"waiting for {_and(waiting)} to join: the game starts when everyone is here")
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
        if limit is None or self.game.over or self.waiting_for():
            return
        if self.playing_seconds() >= limit:
            events = self.game.stop(Reason.TIME_LIMIT)
            self.say(self.narrator.tell(events))
            self._after_game()
            self.changed()

    def playing_seconds(self) -> float:
        now = time.monotonic()
        paused = self.paused_for + (now - self.paused_at if self.paused_at is not None else 0.0)
        return now - self.started - paused

    def set_paused(self, paused: bool, seat: int | None = None, *, hidden: bool = False) -> None:
        """Pause or resume; ``hidden`` says the person switched to another tab."""
        if paused == self.paused:
            return
        now = time.monotonic()
        if paused:
            self.paused_at = now
        elif self.paused_at is not None:
            self.paused_for += now - self.paused_at
            self.paused_at = None
        self.paused = paused
        who = self.seats[seat].name if seat is not None else None
        if paused:
            if hidden:
                whose = f"{who} switched" if self.mode is Mode.FRIENDS and who else "you switched"
                self.paused_why = f"Paused because {whose} to another tab."
            else:
                self.paused_why = f"Paused by {who}." if self.mode is Mode.FRIENDS and who else "Paused."
            self.say(self.paused_why)
        else:
            self.paused_why = None
            self.say(f"{who} resumes the game." if self.mode is Mode.FRIENDS and who else "Resumed.")
        self.changed()

    def waiting_for_machine(self) -> bool:
        """True when the next card is turned automatically (not paused, not over)."""
        if self.game.over or self.paused or self.closed or self.waiting_for():
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
        if self.on_change is not None:
            self.on_change(self)

    # -- what people see ----------------------------------------------------------------------

    def face(self, card: Card) -> dict[str, Any]:
        """:func:`card_json` under this table's rules, made once per card of the deal.

        The views of an instant table show the same cards over and over; the card objects stay
        the same through a game, so their id finds them (the card itself is kept to be sure).
        """
        known = self._faces.get(id(card))
        if known is None or known[0] is not card:
            known = self._faces[id(card)] = (card, card_json(card, self.rules))
        return known[1]

    def view(self) -> dict[str, Any]:
        """Everything a person at the table may see; the same for everyone (see :func:`personal`)."""
        return self._build_view()

    def view_json(self) -> bytes:
        """:meth:`view` as JSON, encoded once per change for everyone at the table.

        Only the encoded view is kept: a view's dictionaries, kept until the next change, would
        outlive the garbage collector's young generation at every table, and make its every
        collection slower (see :func:`beggar.web.app.tune_garbage_collector`).
        """
        if self._view_json is None or self._view_json[0] != self.version:
            self._view_json = (self.version, orjson.dumps(self._build_view()))
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
                "taken": seat.taken,
                "connected": seat.connections > 0,
                "automatic": seat.automatic,
                "away": None if seat.away_since is None else ("left" if seat.left else "lost"),
                "absent": self.absent(index),
                "stand_in": seat.stand_in,
                "cards": len(game.stacks[index]),
                "out": game.out[index],
            }
            if reveal:
                entry["stack"] = [self.face(card) for card in game.stacks[index]]
            seats.append(entry)
        view: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "mode": str(self.mode),
            "version": self.version,
            "at": self.changed_at,
            "seats": seats,
            "pile": [self.face(card) for card in game.pile],
            "to_play": None if record else game.to_play,
            "owed": game.owed,
            "challenge": game.challenge,
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
            "closed": self.closed,
            "waiting_for": self.waiting_for(),
            "paused_why": self.paused_why,
            "new_game_asked": sorted(self.new_game_asked),
            "reshuffles": self.redeals,
        }
        if self.rules.time_limit is not None and record is None:
            played = 0.0 if self.waiting_for() else self.playing_seconds()  # the clock waits too
            view["time_left"] = max(0.0, round(self.rules.time_limit - played, 1))
        if self.lesson is not None:
            view["lesson"] = {
                "number": self.lesson.number,
                "title": self.lesson.title,
                "outro": self.lesson.outro,
                "next": self.lesson.number + 1 if self.lesson.number < len(LESSONS) else None,
            }
        if self.famous is not None:
            view["famous"] = famous_json(self.famous)
        if record is not None:
            view["over"] = {
                **record.to_dict(),
                "sentence": ending(record, names),
                "deal": self.deal.format(),
                "deal_hands": [[card.label for card in hand] for hand in self.deal.hands],
                "replay": self.replay,
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
    mine: dict[str, Any] = {"you": seat, "prompt": prompt(table, seat), "notice": notice(table, seat)}
    log = table.log
    skip = max(0, log_after - log[0]["seq"] + 1) if log else 0
    mine["log"] = log[skip:]
    if first:
        mine["rules"] = rules_entry(table.rules)
        picked = table.chosen_deal()
        if picked:
            mine["rules"]["title"] = f"{mine['rules']['title']}, the creator's chosen deal: {picked}"
    history = table.history if table.famous is not None or table.game.over else []
    start = history_from if 0 < history_from <= len(history) else 0
    mine["history_start"] = start
    mine["history"] = history[start:]
    return mine


def state_message(table: Table, mine: dict[str, Any]) -> str:
    """One ``state`` message: the table's shared view (encoded once per change) and ``mine``."""
    return (orjson.dumps(mine)[:-1] + b"," + table.view_json()[1:]).decode()


def addressed(table: Table, seat: int | None) -> int | None:
    """The seat this person plays as "you": only a person holding a seat in a game they play.

    Spectators, famous games, lessons and "watch both players" see every seat by its name.
    """
    return seat if table.mode in (Mode.COMPUTER, Mode.FRIENDS) else None


def prompt(table: Table, seat: int | None) -> str:
    """What is happening, said plainly from this person's seat: ``"Queen: you owe 2"``."""
    game = table.game
    names = table.names
    seat = addressed(table, seat)
    if game.record is not None:
        record = game.record
        if record.status is Status.FINISHED or record.winner is not None:
            winner = record.winner
            if winner is not None:
                return "You win!" if winner == seat else f"{names[winner]} wins."
        return "A draw." if record.outcome is Outcome.DRAW else "Game over: no winner."
    waiting = table.waiting_for()
    if waiting:
        return f"Waiting for {_and(waiting)} to join."
    if table.paused:
        return table.paused_why or "Paused."
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


def notice(table: Table, seat: int | None) -> str:
    """What this person should know of the others: who is away, and a new game someone asked for.

    The button named is the one this person sees: "Play again" once the game is over, else "New
    game".
    """
    if table.mode is not Mode.FRIENDS:
        return ""
    parts = []
    for index, each in enumerate(table.seats):
        if index == seat or each.away_since is None:
            continue
        if each.stand_in:
            parts.append(f"{each.name} is away: the computer plays for them until they return.")
        elif table.absent(index):
            parts.append(f"{each.name} has been away for a while: go on without them, or wait.")
        else:
            parts.append(f"{each.name} {'left the table' if each.left else 'lost the connection'}.")
    asked = table.new_game_asked
    if asked:
        askers = _and([table.seats[i].name for i in sorted(asked)])
        button = "Play again" if table.game.over else "New game"
        if seat is not None and seat not in asked:
            verb = "asks" if len(asked) == 1 else "ask"
            parts.append(f"{askers} {verb} for a new game: press {button} to agree.")
        else:
            missing = [table.seats[i].name for i in table.present_people() if i not in asked]
            if missing:
                parts.append(f"Waiting for {_and(missing)} to agree to a new game.")
    return " ".join(parts)


def _and(names: list[str]) -> str:
    """``"Ann"``, ``"Ann and Bea"``, ``"Ann, Bea and Cy"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def card_json(card: Card, rules: Rules) -> dict[str, Any]:
    """A face-up card as the browser draws it; ``pays`` is what it asks for under these rules."""
    return {
        "rank": "" if card.rank is None else card.rank.label,
        "suit": "" if card.suit is None else card.suit.value,
        "label": card.label,
        "pays": rules.pay_value(card),
    }


def famous_json(game: PublishedGame | FoundDeal) -> dict[str, Any]:
    """A famous game for the browser; a never-ending one with where its cycle starts and its period."""
    if isinstance(game, FoundDeal):
        return {"title": "A never-ending deal found here", **game.to_json()}
    return {
        "title": f"{game.finder} {game.year}",
        "finder": game.finder,
        "year": game.year,
        "deal": game.deal,
        "cards": game.cards,
        "tricks": game.tricks,
        "cycle_tricks": game.cycle_tricks,
        "cycle": published_cycle(game) if game.cycle_tricks is not None else None,
        "note": game.note,
    }


# -- the lobby --------------------------------------------------------------------------------------

_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
TABLE_ID_LENGTH = 10
"""31 letters and digits that cannot be misread, ten of them: about 2^49.5 table ids, so guessing
one among a thousand live tables takes about 10^12 tries (and failed joins are throttled), while a
link stays short enough to read aloud."""


def new_table_id() -> str:
    """A fresh random table id (:data:`TABLE_ID_LENGTH` characters that cannot be misread)."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))


def is_table_id(text: str) -> bool:
    """Is ``text`` shaped like a table id (whether or not such a table is open)?"""
    return len(text) == TABLE_ID_LENGTH and all(ch in _ID_ALPHABET for ch in text)


LIVE_LIMITS = {"max_cards": 1_000_000, "max_tricks": 100_000, "time_limit": 24 * 3600.0}
"""The largest limits a live table accepts: beyond any real game, but a table cannot run for ever."""


LobbySettings = ServerSettings
"""The lobby reads the server's settings (:mod:`beggar.web.settings` declares every limit)."""


INSTANT_BATCH = 8
"""Cards an instant table turns each time it wakes: one state then carries several cards, so the
server spends its time turning cards rather than waking tables and sending a state per card."""
LAG_HIGH = 0.020
"""Event-loop lag (seconds) above which instant tables are slowed: people's updates come first."""
LAG_LOW = 0.008
"""Lag below which instant tables may speed up again, up to their ceiling."""


class CardBudget:
    """A token bucket shared by every instant-pace table, whose rate follows the server's load.

    Instant tables play with the time the server has to spare. While any instant table plays, a
    watcher measures how late the event loop runs a timer (its lag): the longer the queue of work
    before it, the longer every person's update waits too. Above :data:`LAG_HIGH` the rate falls
    by a fifth each time; below :data:`LAG_LOW` it climbs back, at most to ``ceiling``. A fixed
    rate cannot be right: what one card costs depends on the machine and on what else it runs.
    """

    WATCH_INTERVAL = 0.05
    """Seconds between two measures of the lag."""

    def __init__(self, ceiling: float) -> None:
        self.ceiling = ceiling
        self.floor = min(ceiling, 100.0)
        """Instant tables always turn at least this many cards a second between them."""
        self.rate = ceiling
        self.tokens = self._burst()
        self.stamp = time.monotonic()
        self.lag = 0.0
        """The last lag measured (seconds)."""
        self._asked = 0.0
        self._watcher: asyncio.Task[None] | None = None
        self._queue: deque[tuple[asyncio.Future[int], int]] = deque()
        """Tables waiting for cards, first come first served, and how many each would turn."""
        self._timer: asyncio.TimerHandle | None = None

    def _burst(self) -> float:
        """Cards that may be turned at once: a hundredth of a second's worth, a batch at least."""
        return max(float(INSTANT_BATCH), self.rate / 100)

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self._burst(), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    async def take(self, most: int = 1) -> int:
        """Wait until cards may be turned; return how many (from 1 to ``most``).

        Tables that must wait queue up and are served in turn by one timer: hundreds of waiting
        tables cost nothing until their cards come (they do not each wake up to look).
        """
        self._asked = time.monotonic()
        if self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        if not self._queue:
            self._refill()
            if self.tokens >= 1:
                granted = min(most, int(self.tokens))
                self.tokens -= granted
                return granted
        waiting: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((waiting, most))
        self._serve_later()
        return await waiting

    def _batch(self, most: int) -> int:
        """The cards a waiting table waits for: its whole batch (as much as the bucket holds)."""
        return max(1, min(most, int(self._burst())))

    def _serve_later(self) -> None:
        if self._timer is None and self._queue:
            wait = max(0.0, (self._batch(self._queue[0][1]) - self.tokens) / self.rate)
            self._timer = asyncio.get_running_loop().call_later(wait, self._serve)

    def _serve(self) -> None:
        """Give whole batches, while there are cards, to the tables first in the queue."""
        self._timer = None
        self._refill()
        while self._queue:
            waiting, most = self._queue[0]
            if waiting.done():
                self._queue.popleft()  # its table closed meanwhile
                continue
            batch = self._batch(most)
            if self.tokens < batch:
                break
            self._queue.popleft()
            self.tokens -= batch
            waiting.set_result(batch)
        self._serve_later()

    def give_back(self, cards: int) -> None:
        """Cards taken but not turned (the game ended, or was paused, within the batch)."""
        self.tokens += cards

    def adjust(self, lag: float) -> None:
        """Follow one measure of the event loop's lag (seconds)."""
        self.lag = lag
        if lag > LAG_HIGH:
            self.rate = max(self.floor, self.rate * 0.8)
        elif lag < LAG_LOW:
            self.rate = min(self.ceiling, self.rate * 1.05)

    async def _watch(self) -> None:
        """Measure the lag while instant tables play; stop a while after the last one asked."""
        try:
            while time.monotonic() - self._asked < 5:
                start = time.monotonic()
                await asyncio.sleep(self.WATCH_INTERVAL)
                self.adjust(max(0.0, time.monotonic() - start - self.WATCH_INTERVAL))
        finally:
            self._watcher = None

    def stop(self) -> None:
        """Stop watching the loop and serving the queue (the server is stopping)."""
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


RESTORE_GRACE = 120.0
"""Seconds a table restored after a restart waits for its people before it counts as unwatched."""


class Lobby:
    """Every live table, bounded in number."""

    def __init__(self, settings: LobbySettings | None = None) -> None:
        self.settings = settings or LobbySettings()
        self.tables: dict[str, Table] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self.budget = CardBudget(self.settings.instant_cards)
        self.restoring: set[str] = set()
        """Ids of saved tables still being restored after a restart: taken, and counted."""
        self._grace: dict[str, float] = {}
        self.frozen = False
        """The server is stopping: no card is turned and no table opens or closes any more."""
        self.on_open: Callable[[Table], None] | None = None
        """Called with every table opened (the server's keeper, :mod:`beggar.web.durable`)."""

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
        famous: PublishedGame | FoundDeal | None = None,
        bound_to_connection: bool = False,
        on_game_over: Callable[[Table], None] | None = None,
        owner: str = "",
        table_id: str | None = None,
    ) -> Table:
        """Open a table; ``table_id`` is the id it must have (when several processes share the
        tables, the id that routes to this one), else a fresh one is drawn."""
        check_live_rules(rules)
        if self.frozen:
            raise TableError("the server is restarting: try again in a moment")
        if table_id is not None:
            if not is_table_id(table_id):
                raise TableError(f"a table id is {TABLE_ID_LENGTH} of the letters and digits {_ID_ALPHABET}")
            if table_id in self.tables or table_id in self.restoring:
                raise TableError("a table with this id is open already: start again for a new one")
        if owner and self.owned_by(owner) >= self.settings.max_tables_per_address:
            raise TableError(
                f"you already have {self.settings.max_tables_per_address} tables open: "
                "close one, or wait until one closes"
            )
        if self.full():
            self.close_idle()
            if self.full() and not self.close_deserted():
                raise TableError("the server has as many tables as it can hold: try again in a few minutes")
        if isinstance(deal, str):
            deal = parse_deal(deal, rules.deck, complete=lesson is None)
        chosen = deal is not None and lesson is None and famous is None
        if deal is None:
            deal = random_deal(rules, seed)
        table = Table(
            id=table_id or self._new_id(),
            mode=mode,
            rules=rules,
            seats=seats,
            deal=deal,
            pace=pace,
            seed=seed,
            lesson=lesson,
            famous=famous,
            bound_to_connection=bound_to_connection,
            on_game_over=on_game_over,
            owner=owner,
            chosen=chosen,
        )
        self.tables[table.id] = table
        self._drivers[table.id] = asyncio.get_running_loop().create_task(drive(table, self.budget))
        if self.on_open is not None:
            self.on_open(table)
        return table

    def adopt(self, table: Table) -> None:
        """Take back a table restored after a restart; its people have :data:`RESTORE_GRACE`
        seconds to come back before it counts as unwatched."""
        self.restoring.discard(table.id)
        if self.frozen or table.id in self.tables:
            return
        self.tables[table.id] = table
        self._grace[table.id] = time.monotonic() + RESTORE_GRACE
        self._drivers[table.id] = asyncio.get_running_loop().create_task(drive(table, self.budget))
        table.changed()

    def freeze(self) -> None:
        """Stop every table where it stands, for a restart: no card is turned any more, and
        nothing opens or closes (people leaving as the server stops do not close their tables)."""
        self.frozen = True
        for task in self._drivers.values():
            task.cancel()

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise NoSuchTable("this table is closed or never existed")
        return table

    def close(self, table_id: str) -> None:
        if self.frozen:
            return
        table = self.tables.pop(table_id, None)
        self._grace.pop(table_id, None)
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

    def full(self) -> bool:
        """Whether the server holds as many tables (open or being restored) as it may."""
        return len(self.tables) + len(self.restoring) >= self.settings.max_tables

    def close_deserted(self) -> bool:
        """Make room: close the table that nobody is connected to and was touched longest ago.

        A friend table outlives its players' connections for ``idle_seconds``, so that they can
        come back to it; but while the server is full, a table someone is at comes first. A table
        just restored after a restart is spared while its people reconnect. Return False if every
        table has someone at it.
        """
        now = time.monotonic()
        deserted = [t for t in self.tables.values() if not t.listeners and self._grace.get(t.id, 0) < now]
        if not deserted:
            return False
        self.close(min(deserted, key=lambda t: t.touched).id)
        return True

    def owned_by(self, owner: str) -> int:
        """How many live tables were created from the network address ``owner``."""
        return sum(1 for table in self.tables.values() if table.owner == owner)

    def close_unwatched(self) -> int:
        """Close tables that play themselves with nobody watching; return how many.

        A table where every seat plays itself (a watched game, a famous game) is only worth its
        cards while someone looks at it. A paused one costs nothing: it waits for its people.
        """
        now = time.monotonic()
        unwatched = [
            t.id
            for t in self.tables.values()
            if not t.listeners
            and not t.paused
            and all(s.plays_itself for s in t.seats)
            and self._grace.get(t.id, 0) < now
        ]
        for table_id in unwatched:
            self.close(table_id)
        return len(unwatched)

    def close_all(self) -> None:
        """Close every table (a frozen lobby only stops their drivers)."""
        for table_id in list(self.tables):
            self.close(table_id)
        for task in self._drivers.values():
            task.cancel()
        self.budget.stop()

    def _new_id(self) -> str:
        while True:
            table_id = new_table_id()
            if table_id not in self.tables and table_id not in self.restoring:
                return table_id


def check_live_rules(rules: Rules) -> None:
    """Refuse limits so large that a live table could run for ever (see :data:`LIVE_LIMITS`)."""
    for attribute, most in LIVE_LIMITS.items():
        value = getattr(rules, attribute)
        if value is not None and value > most:
            key = attribute.replace("_", "-")
            shown = f"{most / 3600:g} hours" if attribute == "time_limit" else f"{int(most):,}"
            raise TableError(f"{key} can be at most {shown} at a live table")


def new_token() -> str:
    return secrets.token_urlsafe(18)


def token_hash(token: str) -> str:
    """What the server keeps of a seat's secret. Tokens are 144 random bits, so a plain SHA-256
    suffices: nobody can search for a token whose hash matches."""
    return hashlib.sha256(token.encode()).hexdigest()


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
        # Instant: a batch of cards at a time from the shared budget, so that hundreds of instant
        # tables share the server fairly and leave it time to send; one change for the batch.
        granted = await budget.take(INSTANT_BATCH)
        turned = 0
        while turned < granted and table.pace is Pace.INSTANT and table.waiting_for_machine():
            table.step()
            turned += 1
        budget.give_back(granted - turned)
        if turned:
            table.changed()
        await asyncio.sleep(0)


def _time_to_limit(table: Table) -> float | None:
    if table.rules.time_limit is None or table.game.over:
        return None
    return max(0.05, table.rules.time_limit - table.playing_seconds())


async def _wait(table: Table, timeout: float | None) -> None:
    """Until the table changes, or ``timeout`` seconds (a timer that wakes it; no task per wait)."""
    if timeout is None:
        await table.wake.wait()
        return
    timer = asyncio.get_running_loop().call_later(timeout, table.wake.set)
    try:
        await table.wake.wait()
    finally:
        timer.cancel()


__all__ = [
    "Lobby",
    "LobbySettings",
    "Mode",
    "NoSuchTable",
    "Pace",
    "Seat",
    "Table",
    "TableError",
    "card_json",
    "is_table_id",
    "new_table_id",
    "new_token",
    "notice",
    "personal",
    "prompt",
    "state_message",
]
