"""The table: its seats, its game and everything that happens at it, said once for everyone.

A :class:`Table` owns one reference-engine :class:`~beggar.engine.Game` and is the only authority
over it. What each person is sent of it is :mod:`beggar.web.view`'s; how fast its automatic
players turn their cards is :mod:`beggar.web.pacing`'s; :mod:`beggar.web.lobby` holds every live
table. Its id and its seats' tokens come from :mod:`beggar.web.ids`, and its log names seats by the
marks of :mod:`beggar.web.mentions`.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hmac
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from beggar.engine import (
    CardTurned,
    Event,
    Game,
    GameError,
    GameOver,
    Outcome,
    PileTaken,
    PlayerOut,
    Reason,
    Status,
)
from beggar.errors import UserError
from beggar.lessons import Lesson
from beggar.narrate import Narrator
from beggar.notation import Deal, random_deal
from beggar.records import PublishedGame
from beggar.rules import Rules
from beggar.web.faces import dress
from beggar.web.ids import token_hash
from beggar.web.mentions import mention, name_mentions, spoken_list
from beggar.web.names import skeleton
from beggar.web.never_ending import FoundDeal
from beggar.web.presets import table_rules_title


class TableError(UserError):
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

    @property
    def kept(self) -> bool:
        """A table one person has to themselves that outlives a reload (a game against the
        computer, a watched game, a famous game watched): it waits for that person's token, paused
        if it was playing itself, and ends when they press Leave or start another such game.

        >>> [mode.value for mode in Mode if mode.kept]
        ['computer', 'watch', 'famous']
        """
        return self in (Mode.COMPUTER, Mode.WATCH, Mode.FAMOUS)

    @property
    def addressed(self) -> bool:
        """A table with its own address (``/t/<id>``) that a reload, Back and Forward come back to:
        a kept table, or a friend table."""
        return self.kept or self is Mode.FRIENDS

    @property
    def solo(self) -> bool:
        """One person's table whose cards may turn by themselves (the computer's, or every seat's
        when watching): a page hidden from its person pauses it."""
        return self is not Mode.FRIENDS


PAUSED_HIDDEN = "Paused because you switched to another tab."
"""Said to the person of a table of their own whose page was hidden (it pauses such a table)."""
PAUSED_HIDDEN_OTHERS = "Paused: the player switched to another tab."
"""The same, said to anyone else watching that table by its link."""

LOG_KEEP = 60
"""Log lines kept in every view; older lines scroll away."""
RESUME_SLICE = 500
"""Cards a restored table replays between pauses (about 5 ms of the server's time)."""
HOLD_MAX = 60.0
"""The longest a question put to a person holds the computer's cards (a page gone quiet lets go)."""
ABSENT_GRACE = 20.0
"""Seconds a friend who lost the connection has to come back before the others are offered to let
the computer play for them, or a new game without them. A friend who pressed Leave has no grace:
the offers come at once."""


CHOSEN = "The table's creator chose the deal"
"""What everyone at a friend table is told of a deal its creator chose, before the first card
(what the deal is, only once the game is over)."""


@dataclass(frozen=True)
class DealtAgain:
    """A deal of a sitting that was gathered and dealt again (a loop under the family table)."""

    cards: int
    """Cards turned before it was dealt again."""
    looped: bool
    """It looped (else a limit stopped it)."""
    replay: str | None = None
    """Its replay's id, if it was stored."""

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, "looped": self.looped, "replay": self.replay}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealtAgain:
        """A deal as :meth:`to_json` wrote it; :class:`ValueError` or :class:`TypeError` if not."""
        cards, looped, replay = data["cards"], data["looped"], data.get("replay")
        if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0 or not isinstance(looped, bool):
            raise ValueError("a deal dealt again is its cards and whether it looped")
        if replay is not None and not isinstance(replay, str):
            raise TypeError("a replay id is text")
        return cls(cards, looped, replay)


FRIENDS_WAITING = ["a friend"] + [
    f"a {nth} friend" for nth in ("second", "third", "fourth", "fifth", "sixth", "seventh")
]
"""The seats still waiting for a friend who gave no name, in order (a table seats at most 8)."""


def place_name(seat: int) -> str:
    """What a person's seat is called until they give a name: ``"Player 2"``."""
    return f"Player {seat + 1}"


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
    elsewhere: bool = False
    """They went to another page (Back, a link, a closed or reloaded tab): the page said so as it
    went, so it is not a lost connection; they may well come back."""
    stand_in: bool = False
    """The computer plays for this absent person, as the others asked; it stops when they return."""
    restarted: bool = False
    """Away only since the server restarted (they were here before it): their return is not
    announced, since everyone came back then."""

    def away_words(self) -> str:
        """Why this person is not at the table, after their name: ``"left the table"``, ``"went to
        another page"`` or ``"lost the connection"``."""
        if self.left:
            return "left the table"
        return "went to another page" if self.elsewhere else "lost the connection"

    @property
    def plays_itself(self) -> bool:
        return not self.human or self.automatic

    @property
    def taken(self) -> bool:
        return self.token_hash is not None

    def named(self, seat: int) -> bool:
        """Does this seat (number ``seat``) go by a name: a person's own or a computer's, rather
        than its place (:func:`place_name`)?"""
        return not self.human or self.name != place_name(seat)

    def held_by(self, token: str) -> bool:
        """Is ``token`` the secret that holds this seat?"""
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))


Listener = Callable[["Table"], None]


def refusal(name: str, *, over: bool) -> str:
    """What everyone is told when ``name`` says no to a new game: during a game they keep playing,
    once it is over they say no for now.

    >>> refusal("Bea", over=True)
    'Bea says no to a new game for now.'
    """
    if over:
        return f"{name} says no to a new game for now."
    return f"{name} wants to keep playing: no new game."


@dataclass(eq=False)
class Table:
    """One game table. All methods run on the server's event loop.

    A table is itself alone (equal only to itself, hashed by identity): :mod:`beggar.web.view`
    keeps what it made of each table by the table.
    """

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
    """Close the table when its creator disconnects (a lesson)."""
    owner: str = ""
    """The network address that created the table (live tables are counted per address)."""
    browser: str = ""
    """The mark of the browser that created the table ("": none sent); live tables are counted
    per browser first."""
    chosen: bool = False
    """The first deal was chosen by the table's creator (not drawn): everyone is told so, and shown
    the deal once the game is over."""
    replayed: bool = False
    """The first deal is a replay's, played again from it: its first line says so."""
    game: Game = field(init=False)
    narrator: Narrator = field(init=False)
    paused: bool = False
    held_until: float = 0.0
    """Until when (monotonic) the computer's cards wait for a question put to the person; see
    :meth:`hold`. Not a pause: nothing is said, and nothing of it is saved."""
    log: list[dict[str, Any]] = field(default_factory=list)
    """The latest lines of the game log: ``{"seq", "text", "note"}``, oldest first, and
    ``"named": [[start, end, seat], ...]`` where the text names seats (see :func:`mention`)."""
    history: list[tuple[int, ...]] = field(default_factory=list)
    last_card: CardTurned | None = None
    """The card turned last in this game."""
    last_take: PileTaken | None = None
    """The trick taken last in this game."""
    went_out: list[tuple[int, int]] = field(default_factory=list)
    """The seats out of this game, in the order they went out, each with the cards turned by then
    (rebuilt by :meth:`resume`, so nothing of it is saved)."""
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
    dealt_again: list[DealtAgain] = field(default_factory=list)
    """How each deal of this sitting before the one played ended, oldest first (one a redeal)."""
    paused_why: str | None = None
    """Why the game is paused, said to everyone: ``"Ann switched to another tab."``."""
    new_game_asked: set[int] = field(default_factory=set)
    """Seats whose people asked for a new game; it starts when every seated person has."""
    new_game_refused: int | None = None
    """The seat whose person said no to the last ask for a new game: the others are told until
    the next card is turned, the next ask, the next game, or that person goes."""
    on_game_over: Callable[[Table], None] | None = None
    """Called once when a game ends (the server archives it for its replay link)."""
    replay: str | None = None
    """The replay id of the game just finished, once archived."""
    on_change: Callable[[Table], None] | None = None
    """Called on every change, like the listeners, but not counted as someone watching: the
    server's keeper (:mod:`beggar.web.durable`), which decides what is worth saving."""

    def __post_init__(self) -> None:
        self._start_game(self.deal)

    # -- the game -----------------------------------------------------------------------------

    def _start_game(self, deal: Deal, *, redeal: bool = False) -> None:
        if (self.famous is not None or self.chosen) and not self.rules.number_ranks_pay:
            # Real faces for a deal written without them (a famous game's, or one typed by the
            # table's creator); the game is the same (faces.py). A deal with every face stays as it is.
            deal = dress(deal, self.rules)
        self.deal = deal
        lead_seed = None if self.seed is None else self.seed + self.games_played
        first = 0 if self.lesson is not None or self.famous is not None else None
        dealer = self.games_played % self.rules.players
        self.game = Game(deal, self.rules, first=first, seed=lead_seed, dealer=dealer, complete=False)
        self.narrator = Narrator(self.rules, [mention(seat) for seat in range(len(self.seats))])
        self.history = [self.game.hand_sizes]
        self.last_card = None
        self.last_take = None
        self.went_out = []
        self.held_until = 0.0
        self.new_game_asked.clear()
        self.new_game_refused = None
        self.replay = None
        leads = f"{mention(self.game.to_play)} leads."
        if redeal:
            # The sitting goes on: the time limit keeps counting across a redeal.
            self.say(f"Dealt again: a fresh shuffle, the same seats (deal {self.redeals + 1}). {leads}")
        else:
            self.started = time.monotonic()
            self.paused_for = 0.0
            intro = self.lesson.intro if self.lesson else ""
            told = f" {CHOSEN}; it is shown when the game ends." if self.chosen_deal() else ""
            if self.waiting_for():
                leads = ""  # said once, when everyone is here (take_seat)
            what = table_rules_title(self.rules)
            if self.replayed and self.games_played == 0:
                what = f"the deal of the replay, {what}"
            self.say(f"New game: {what}.{told} {leads}".rstrip(), intro)
        self.changed()

    def chosen_deal(self) -> str | None:
        """The deal of this game if the creator chose it (a deal, or a deal number), else None.

        A creator who picks the deal of a friend table knows every face-down card: everyone else at
        the table is told so before the first card (:data:`CHOSEN`), and shown what it was once the
        game is over; never before, as no face-down card is. (At the other tables nobody plays
        against the person who chose it.)
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

        A new game does not play itself: a person who was watching their own cards being turned
        gets them back, whatever the pace (the computer still plays for an absent friend). At
        instant pace a table where every seat plays itself starts paused, or it would be over at
        once.
        """
        self.redeals = 0
        self.dealt_again = []
        self._start_game(self._next_deal())
        if self.mode in (Mode.WATCH, Mode.FAMOUS):
            if self.pace is Pace.INSTANT:
                self.set_paused(True)
                self.paused_why = "A new game, paused: press Resume to watch it."
                self.changed()
            return
        for index, each in enumerate(self.seats):
            if self.mode is Mode.FRIENDS and each.taken and each.away_since is not None and not each.stand_in:
                # A friend who is away is not dealt in: the computer plays for them, and gives their
                # cards back when they return (arrive), rather than the new game waiting on them.
                each.stand_in = each.automatic = True
                until = "the computer plays for them until they return"
                self.say(f"{mention(index)} {each.away_words()}: {until}.")
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
        self.new_game_refused = None
        name = mention(seat)
        if len(people) <= 1:
            self.new_game()
            return
        missing = [mention(i) for i in people if i not in self.new_game_asked]
        if missing:
            verb = "agrees" if len(missing) == 1 else "agree"
            self.say(f"{name} asks for a new game; it starts when {spoken_list(missing)} {verb}.")
            self.changed()
            return
        self.say(f"{name} agrees: a new game.")
        self.new_game()

    def keep_playing(self, seat: int) -> None:
        """``seat`` says no to the new game another person asked for: the ask ends, and the log
        tells everyone (the asker too) in plain words."""
        if not self.new_game_asked or seat in self.new_game_asked:
            return
        self.new_game_asked.clear()
        self.new_game_refused = seat
        self.say(refusal(mention(seat), over=self.game.over))
        self.changed()

    def seated_people(self) -> list[int]:
        """Seats held by a person (not the computer, not empty)."""
        return [i for i, seat in enumerate(self.seats) if seat.human and seat.taken]

    def present_people(self) -> list[int]:
        """Seats held by a person who is at the table now, or has been away less than
        :data:`ABSENT_GRACE` (a reload, a lost line): only their consent is asked for."""
        return [i for i in self.seated_people() if not self.absent(i)]

    def arrive(self, seat: int, *, reloaded: bool = False) -> None:
        """A browser of the person at ``seat`` connects; one who was away is back (``reloaded``:
        their page went away to load itself again, and says so; it is told as a reload even where
        the page had no time to say it was going, and the others read a lost connection)."""
        each = self.seats[seat]
        each.connections += 1
        if each.away_since is not None:
            back = "came back" if each.elsewhere else "is back"  # from another page, a lost line
            if reloaded:  # whatever the page managed to say as it went
                back = "reloaded the page"
            quiet, each.restarted = each.restarted, False
            each.away_since, each.left, each.elsewhere = None, False, False
            if each.stand_in:
                each.stand_in = each.automatic = False
            if self.mode is Mode.FRIENDS and not quiet:
                self.say(f"{mention(seat)} {back}.")
        self.changed()

    def depart(self, seat: int, *, left: bool = False, elsewhere: bool = False) -> None:
        """A browser of the person at ``seat`` disconnects (``left``: they pressed Leave;
        ``elsewhere``: their page said it went to another page).

        At a friend table, when their last browser goes the others are told what happened, and
        offered to go on without them: at once if they left on purpose, after :data:`ABSENT_GRACE`
        seconds otherwise (they may come back). Their ask for a new game, or their no to one, goes
        with them.
        """
        each = self.seats[seat]
        each.connections = max(0, each.connections - 1)
        if each.connections == 0 and self.mode is Mode.FRIENDS and each.taken and not self.closed:
            each.away_since, each.left, each.elsewhere = time.monotonic(), left, elsewhere and not left
            self.say(f"{mention(seat)} {each.away_words()}.")
            self.new_game_asked.discard(seat)
            if self.new_game_refused == seat:
                self.new_game_refused = None
            if not left:
                self.watch_absence(seat)
        self.changed()

    def watch_absence(self, seat: int) -> None:
        """Tell everyone when the person away from ``seat`` has been away :data:`ABSENT_GRACE`
        seconds (and the offers to go on without them appear)."""
        since = self.seats[seat].away_since
        if since is None:
            return
        wait = max(0.0, ABSENT_GRACE - (time.monotonic() - since)) + 0.05
        with contextlib.suppress(RuntimeError):  # no event loop: nobody to tell later
            asyncio.get_running_loop().call_later(wait, self._grace_over, seat)

    def _grace_over(self, seat: int) -> None:
        if self.closed or not self.absent(seat):
            return
        people = self.present_people()
        if self.new_game_asked and people and all(i in self.new_game_asked for i in people):
            # The others asked for a new game while this person could still have said no.
            self.say(f"{mention(seat)} did not come back in time: the new game starts without them.")
            self.new_game()
            return
        self.changed()  # the others now see the offers

    def absent(self, seat: int) -> bool:
        """May the others go on without the person at ``seat``? Yes once they left on purpose, or
        have been away :data:`ABSENT_GRACE` seconds or more."""
        each = self.seats[seat]
        since = each.away_since
        return since is not None and (each.left or time.monotonic() - since >= ABSENT_GRACE)

    def play_for(self, by: int, seat: int) -> None:
        """``by`` lets the computer play for the absent person at ``seat`` until they return."""
        if self.mode is not Mode.FRIENDS or not 0 <= seat < len(self.seats) or seat == by:
            raise TableError("the computer can play only for another player who is away")
        if not self.seats[seat].human:
            raise TableError(f"{self.seats[seat].name} is the computer: it plays its own cards already")
        if not self.seats[seat].taken:
            raise TableError(f"nobody has sat down at {self.shown_name(seat)}'s seat yet")
        if not self.absent(seat):
            raise TableError(f"{self.seats[seat].name} is here, or has only just gone: wait a moment")
        each = self.seats[seat]
        if not each.stand_in:
            each.stand_in = each.automatic = True
            self.say(f"{mention(by)} lets the computer play for {mention(seat)}.")
        self.changed()

    def waiting_for(self) -> list[str]:
        """At a friend table: the names of seats still waiting for their person."""
        if self.mode is not Mode.FRIENDS:
            return []
        return [self.shown_name(i) for i, seat in enumerate(self.seats) if seat.human and not seat.taken]

    def shown_name(self, index: int) -> str:
        """A seat's name as the table shows it: a friend's seat that nobody took yet and that has
        no name is "a friend" ("a second friend"...), not its place, which means nothing to anyone
        before they sit down."""
        seat = self.seats[index]
        if self.mode is not Mode.FRIENDS or seat.taken or seat.named(index):
            return seat.name
        waiting = [
            i for i, each in enumerate(self.seats) if each.human and not each.taken and not each.named(i)
        ]
        return FRIENDS_WAITING[waiting.index(index)]

    def free_seat(self) -> int | None:
        """The seat a person opening this table's link would take: a friend table's first seat for
        a person that nobody holds; None where every seat is held (they would watch)."""
        if self.mode is not Mode.FRIENDS:
            return None
        return next((i for i, seat in enumerate(self.seats) if seat.human and not seat.taken), None)

    def take_seat(self, seat: int, token: str, name: str | None = None, *, announce: bool = True) -> None:
        """A person sits down at a free seat, held from now on by ``token``."""
        if self.seats[seat].taken:
            raise TableError("that seat is taken")
        self.seats[seat].token_hash = token_hash(token)
        if name:
            self.rename_seat(seat, self._unique_name(seat, name))
        if not announce:
            self.changed()
            return
        # A person who sits down without a name is asked for one: they are announced once, by it
        # (rename), rather than by their place and then renamed; at the latest when everyone is here.
        everyone = not self.waiting_for()
        if everyone:
            for other in self.seated_people():
                if other != seat and not self.seats[other].named(other):
                    self.say(f"{mention(other)} sits down.")
        if everyone or self.seats[seat].named(seat):
            self.say(f"{mention(seat)} sits down.")
        if everyone and self.game.cards == 0:
            self.started = time.monotonic()  # the clock starts when everyone is here
            self.paused_for = 0.0
            self.say(f"Everyone is here. {mention(self.game.to_play)} leads.")
        self.changed()

    def rename(self, seat: int, name: str) -> None:
        """The person at ``seat`` of a friend table gives their name; the others are told (one who
        sat down without a name, while the table waits for others, is announced by it now)."""
        if self.mode is not Mode.FRIENDS:
            raise TableError("only a friend table's seats take a name once the game is set")
        old = self.seats[seat].name
        name = self._unique_name(seat, name)
        if name == old:
            return
        announced = self.seats[seat].named(seat) or not self.waiting_for()
        self.rename_seat(seat, name)
        told = f"{mention(seat, old)} is now called {name}." if announced else f"{mention(seat)} sits down."
        self.say(told)
        self.changed()

    def _unique_name(self, seat: int, name: str) -> str:
        """``name``, or ``name 2``, ``name 3``...: two people with one name at a table could not
        tell from the log which of them did what. Names that look alike (:func:`skeleton`: "Ann"
        and "ann", or "Аnn" with a Cyrillic А) are one name, whoever has it (a computer too)."""
        taken = {skeleton(each.name) for index, each in enumerate(self.seats) if index != seat}
        candidate, number = name, 1
        while skeleton(candidate) in taken:
            number += 1
            candidate = f"{name} {number}"
        return candidate

    def rename_seat(self, seat: int, name: str) -> None:
        self.seats[seat].name = name

    def set_pace(self, seat: int | None, pace: Pace) -> None:
        if pace is self.pace:
            return
        self.pace = pace
        if seat is not None and self.mode is Mode.FRIENDS:
            self.say(f"{mention(seat)} sets the pace to {pace}.")
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
            looped = record.status is Status.LOOP
            self.dealt_again.append(DealtAgain(record.cards, looped, self.replay))
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
        """Remember the last card, the last trick taken and who went out when, and chart the hands
        after each trick and at the end.

        A game stopped in the middle of a trick ends with cards on the pile: its result counts the
        hands it ended with, so the chart ends with them too, or its legend would say otherwise.
        """
        for event in events:
            if isinstance(event, CardTurned):
                self.last_card = event
                self.new_game_refused = None  # the game has moved on since a no to a new game
            elif isinstance(event, PileTaken):
                self.last_take = event
                self.history.append(self.game.hand_sizes)
            elif isinstance(event, PlayerOut):
                self.went_out.append((event.player, self.game.cards))
            elif isinstance(event, GameOver) and event.record.holdings != self.history[-1]:
                self.history.append(event.record.holdings)

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
        self.went_out = []
        while self.game.cards < turned:
            if self.game.over:
                raise GameError(f"bad saved game: it ends after {self.game.cards} cards, not {turned}")
            self._note(self.game.step())
            if self.game.cards % RESUME_SLICE == 0:
                yield
        if stopped is not None and not self.game.over:
            self._note(self.game.stop(stopped))

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` holds, if any."""
        return next((i for i, seat in enumerate(self.seats) if seat.held_by(token)), None)

    def turn(self, seat: int) -> None:
        """A person turns their top card."""
        if self.game.over:
            raise TableError("the game is over: start a new game")
        waiting = self.waiting_for()
        if waiting:
            who = spoken_list(waiting)
            raise TableError(f"waiting for {who} to join: the game starts when everyone is here")
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
            self._note(events)
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
        # At a friend table everyone is told who did it; elsewhere the one person knows.
        who = seat if self.mode is Mode.FRIENDS else None
        if paused:
            if who is None:
                told = PAUSED_HIDDEN if hidden else "Paused."
            elif hidden:
                told = f"Paused because {mention(who)} switched to another tab."
            else:
                told = f"Paused by {mention(who)}."
            self.say(told, others=PAUSED_HIDDEN_OTHERS if told == PAUSED_HIDDEN else None)
            self.paused_why = self.log[-1]["text"]  # for everyone: by name
        else:
            self.paused_why = None
            self.say("Resumed." if who is None else f"{mention(who)} resumes the game.")
        self.changed()

    def hold(self, on: bool) -> None:
        """A question is put to the person against the computer (a new game? leave?): the
        computer's cards wait, without a word, until it is answered or :data:`HOLD_MAX` passes.
        At a friend table the others play on: nobody holds them."""
        if self.mode is not Mode.COMPUTER:
            return
        self.held_until = time.monotonic() + HOLD_MAX if on else 0.0
        if on:
            with contextlib.suppress(RuntimeError):  # no event loop: no driver to wake
                asyncio.get_running_loop().call_later(HOLD_MAX + 0.05, self.wake.set)
        else:
            self.wake.set()  # the driver thinks again

    def waiting_for_machine(self) -> bool:
        """True when the next card is turned automatically (not paused, held or over)."""
        if self.game.over or self.paused or self.closed or self.waiting_for():
            return False
        if time.monotonic() < self.held_until:
            return False
        if self.mode is Mode.LESSON:
            return self.seats[self.game.to_play].automatic
        return self.seats[self.game.to_play].plays_itself

    # -- bookkeeping ----------------------------------------------------------------------------

    def say(self, text: str, note: str = "", *, others: str | None = None) -> None:
        """Add a line to the log; seats in ``text`` are named by :func:`mention`. ``others``: the
        line as said to people who hold no seat, where ``text`` speaks to the table's person."""
        if not text and not note:
            return
        seq = self.log[-1]["seq"] + 1 if self.log else 1
        line: dict[str, Any] = {"seq": seq, "text": text, "note": note}
        if others is not None:
            line["others"] = others
        if "\x1e" in text:
            line["text"], line["named"] = self.name_seats(text)
        self.log.append(line)
        if len(self.log) > LOG_KEEP:
            del self.log[: len(self.log) - LOG_KEEP]

    def name_seats(self, text: str) -> tuple[str, list[list[int]]]:
        """``text`` with each :func:`mention` replaced by the name, and where each name stands."""
        return name_mentions(text, [seat.name for seat in self.seats])

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


__all__ = [
    "ABSENT_GRACE",
    "CHOSEN",
    "LOG_KEEP",
    "PAUSED_HIDDEN",
    "PAUSED_HIDDEN_OTHERS",
    "RESUME_SLICE",
    "DealtAgain",
    "Mode",
    "NoSuchTable",
    "Pace",
    "Seat",
    "Table",
    "TableError",
    "refusal",
]
