"""The live connection: one person's WebSocket, the messages it may send, and the states it gets.

The server is the only authority. Each WebSocket is one person: the creator of a table, a player
who took a seat with a secret token, or a spectator. A person can act only for their own seat.
:func:`serve` reads a socket's checked messages (:mod:`beggar.web.protocol`) and :func:`handle`
acts on each; a :class:`Connection` sends its person the latest state of their table
(:mod:`beggar.web.view`) at most every :data:`UPDATE_INTERVAL` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from beggar.errors import BeggarError, UserError
from beggar.lessons import LESSONS, lesson
from beggar.narrate import seat_names
from beggar.notation import Deal, parse_deal
from beggar.records import ALL_GAMES, PublishedGame
from beggar.rules import Rules, rules_named
from beggar.web.archive import Archive
from beggar.web.ids import new_token
from beggar.web.limits import AddressLimits, Bucket
from beggar.web.lobby import Lobby
from beggar.web.names import skeleton
from beggar.web.never_ending import FoundDeal, FoundShelf
from beggar.web.plain import plain
from beggar.web.presets import COMPUTER_DEFAULT, FRIEND_DEFAULT
from beggar.web.protocol import (
    Away,
    Create,
    Hold,
    Join,
    KeepPlaying,
    Leave,
    Message,
    NewGame,
    Ping,
    PlayFor,
    ProtocolError,
    Rename,
    SetAutomatic,
    SetPace,
    SetPaused,
    Turn,
    parse_message,
)
from beggar.web.settings import ServerSettings
from beggar.web.table import Mode, NoSuchTable, Pace, Seat, Table, TableError, place_name
from beggar.web.view import personal, state_message

log = logging.getLogger(__name__)
BROWSER_COOKIE = "beggar-browser"
"""The cookie that marks one browser (a random token the page's answer sets): the tables a browser
has open are counted by it, so that the people behind one address are not counted as one."""
UPDATE_INTERVAL = 0.05
"""A connection gets at most one state every this many seconds; changes in between are merged."""
SPECTATOR_INTERVAL = 0.25
"""Seconds between two states for a spectator of a fast or instant table."""
COMPUTER_NAMES = ("Robin", "Sam", "Kit", "Max", "Jo", "Pat", "Lee", "Ash")


class Connection:
    """One browser's WebSocket: where it sits, and what is waiting to be sent to it."""

    def __init__(self, websocket: WebSocket, settings: ServerSettings, delays: deque[float]) -> None:
        self.websocket = websocket
        self.address = websocket.client.host if websocket.client else ""
        self.browser = browser_mark(websocket.cookies.get(BROWSER_COOKIE))
        """The browser's own mark (its cookie), "" if it sent none: tables are counted by it."""
        self.root = str(websocket.scope.get("root_path", "")).rstrip("/")
        """Where a reverse proxy mounts this server (``--root-path``): links start with it."""
        self.route: str | None = websocket.path_params.get("table_id")
        """The table id in the socket's URL (``/ws/<id>``): the one table this connection may
        open or join, since a proxy may have routed it by that id to the process holding it."""
        self.delays = delays
        """Where the server notes how long each update waited, from its oldest change to being sent."""
        self.table: Table | None = None
        self.seat: int | None = None
        self.bucket = Bucket(settings.rate, settings.burst)
        self.refused = 0
        self.outbox: list[dict[str, Any]] = []
        self.dirty = False
        self.changed_since: float | None = None
        """When the oldest change not yet sent happened (``time.time()``)."""
        self.last_state = 0.0
        self.log_seen = 0
        self.first_state = True
        self.history_game, self.history_points = -1, 0
        """The game number and chart points the browser already has."""
        self.signal = asyncio.Event()
        self.broken = False
        """A message could not be sent (a fault of the server's): the socket is being closed."""

    def on_change(self, table: Table) -> None:
        if not self.dirty:
            self.dirty = True
            self.changed_since = time.time()
        self.signal.set()

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.append(message)
        self.signal.set()

    async def sender(self) -> None:
        """Send queued messages, then the latest state, at most one state per ``UPDATE_INTERVAL``.

        Changes that come faster are merged into one state: its log carries every line, and
        ``since`` says when the oldest change it contains happened. A message that cannot be sent
        for a fault of the server's own (a state that cannot be written as JSON) never leaves the
        browser in silence: it is logged, and the socket is closed with 1011, so that the page
        says so and comes back.
        """
        try:
            await self._send_all()
        except (WebSocketDisconnect, OSError, _Refused):
            return  # the browser went, or the socket is closed to sending: the reader sees it too
        except Exception as exc:
            await self._failed(exc)

    async def _transmit(self, text: str) -> None:
        """Send one message; raise :class:`_Refused` where the socket no longer takes one.

        Starlette refuses a send after this side's close, and the ASGI server one after the
        browser's or its own (a protocol error, a keep-alive timeout), each with a RuntimeError and
        possibly before the reader has heard of it, so neither the socket's state nor the error's
        words tell: a RuntimeError from the send itself does. A fault in making the message (a
        state that cannot be written as JSON) is raised before it and is the server's own.
        """
        try:
            await self.websocket.send_text(text)
        except RuntimeError as exc:
            raise _Refused from exc

    async def _failed(self, exc: Exception) -> None:
        table = None if self.table is None else self.table.id
        log.error(
            "beggar: a state for table %s could not be sent: %s: %s; the browser is asked to reconnect",
            table,
            type(exc).__name__,
            str(exc)[:200],
            exc_info=exc,
        )
        self.broken = True
        with contextlib.suppress(Exception):  # the socket may be going already
            await self.websocket.close(code=1011, reason="the server could not send the table: reconnect")

    async def _send_all(self) -> None:
        while True:
            await self.signal.wait()
            self.signal.clear()
            while self.outbox:
                await self._transmit(orjson.dumps(self.outbox.pop(0)).decode())
            if not self.dirty or self.table is None:
                continue
            wait = self.last_state + self._interval(self.table) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not self.dirty or self.table is None:
                continue
            since = self.changed_since
            await self._transmit(self.next_state(self.table))
            if since is not None:
                self.delays.append(time.time() - since)

    def _interval(self, table: Table) -> float:
        """Seconds between two states: a spectator of a fast table gets fewer, each carrying more
        (its log has every line), so that a crowd watching costs the players little."""
        if self.seat is None and table.pace in (Pace.FAST, Pace.INSTANT):
            return SPECTATOR_INTERVAL
        return UPDATE_INTERVAL

    def next_state(self, table: Table) -> str:
        """The next ``state`` message for this browser, and note what it now has.

        Built here rather than in :meth:`sender`, whose locals live until the next change: the
        dictionaries die at once instead of outliving the garbage collector's young generation.
        """
        game, points = self.history_game, self.history_points
        mine = personal(
            table,
            self.seat,
            log_after=self.log_seen,
            history_from=points if game == table.games_played else 0,
            first=self.first_state,
        )
        self.first_state = False
        if mine["log"]:
            self.log_seen = mine["log"][-1]["seq"]
        self.history_game, self.history_points = (
            table.games_played,
            mine["history_start"] + len(mine["history"]),
        )
        mine["since"] = self.changed_since
        self.dirty = False
        self.changed_since = None
        self.last_state = time.monotonic()
        return state_message(table, mine)

    def sit(self, table: Table, seat: int | None, *, reloaded: bool = False) -> None:
        self.leave()
        self.table, self.seat = table, seat
        self.log_seen, self.first_state = 0, True
        self.history_game, self.history_points = -1, 0
        table.listeners.append(self.on_change)
        if seat is not None:
            table.arrive(seat, reloaded=reloaded)
        else:
            table.changed()

    def leave(self, *, on_purpose: bool = False, elsewhere: bool = False) -> Table | None:
        """Leave the table (``on_purpose``: the person pressed Leave; ``elsewhere``: their page
        said it goes to another page; neither: the connection dropped)."""
        table = self.table
        if table is None:
            return None
        with contextlib.suppress(ValueError):
            table.listeners.remove(self.on_change)
        seat = self.seat
        self.table, self.seat = None, None
        if seat is not None:
            table.depart(seat, left=on_purpose, elsewhere=elsewhere)
        else:
            table.changed()
        return table


class _Refused(BeggarError):
    """The socket took no more messages (see :meth:`Connection._transmit`)."""


def browser_mark(value: str | None) -> str:
    """A browser's mark as it sent it, if it is one the server could have set (else "")."""
    if value and len(value) <= 64 and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value):
        return value
    return ""


def origin_allowed(websocket: WebSocket, settings: ServerSettings) -> bool:
    """Pages of other sites may not open a player's socket (the browser always says its origin).

    The page's own host is the ``Host`` header or, behind a reverse proxy, ``X-Forwarded-Host``:
    a page cannot set either header on a WebSocket, so trusting the forwarded one lets no other
    site in.
    """
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: it could claim any origin anyway
    if origin in settings.allowed_origins:
        return True
    hosts = {websocket.headers.get("host", "")}
    forwarded = websocket.headers.get("x-forwarded-host")
    if forwarded:
        hosts.add(forwarded.split(",", 1)[0].strip())  # the first proxy saw what the browser sent
    return origin.split("://", 1)[-1] in hosts


async def serve(websocket: WebSocket) -> None:
    """One person's live connection: checked messages in, states out."""
    state = websocket.app.state
    lobby: Lobby = state.lobby
    settings: ServerSettings = state.settings
    if not origin_allowed(websocket, settings):
        await websocket.close(code=1008, reason="this page may not open a table here")
        return
    limits: AddressLimits = state.limits
    address = websocket.client.host if websocket.client else ""
    if not limits.open_socket(address):
        await websocket.close(code=1008, reason="too many connections from this address")
        return
    try:
        await _serve_socket(websocket, state, lobby, settings)
    finally:
        limits.close_socket(address)


async def _serve_socket(websocket: WebSocket, state: Any, lobby: Lobby, settings: ServerSettings) -> None:
    """Accept the socket and serve it until it closes."""
    await websocket.accept()
    connection = Connection(websocket, settings, state.delays)
    sender = asyncio.create_task(connection.sender())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if not connection.bucket.allow():
                connection.refused += 1
                if connection.refused >= settings.flood_limit:
                    await websocket.close(code=1008, reason="too many messages")
                    break
                connection.send({"type": "error", "message": "Too many messages: slow down."})
                continue
            try:
                if text is None:
                    raise ProtocolError("messages are JSON text; binary frames are not read")
                message = parse_message(text)
                if isinstance(message, Join) and state.keeper is not None:
                    await state.keeper.ready(message.table)  # a table still being restored
                handle(
                    lobby, connection, message, archive=state.archive, limits=state.limits, found=state.found
                )
            except UserError as exc:  # the person's request, refused: they are told why
                connection.send(error_reply(exc, setting=connection.table is None))
            except Exception as exc:  # a fault of the server's own: the person and the process go on
                log.error(
                    "beggar: a message could not be handled: %s: %s", type(exc).__name__, str(exc)[:200]
                )
                connection.send({"type": "error", "message": "Something went wrong with that: try again."})
            if sender.done():
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sender.cancel()
        disconnect(lobby, connection)


def handle(
    lobby: Lobby,
    connection: Connection,
    message: Message,
    *,
    archive: Archive | None = None,
    limits: AddressLimits | None = None,
    found: FoundShelf | None = None,
) -> None:
    """Act on one checked message from ``connection``; ``found``: the never-ending deals found here."""
    if isinstance(message, Ping):
        connection.send({"type": "pong"})
        return
    if lobby.frozen:
        raise TableError("the server is restarting: you will be back at your table in a moment")
    if isinstance(message, Create):
        if limits is not None and not limits.may_create(connection.address):
            raise TableError("too many new tables from here: wait a minute")
        previous, seated = connection.table, connection.seat is not None
        _create(
            lobby, connection, message, archive, found
        )  # a connection sits at one table: it left that one
        _close_if_abandoned(lobby, previous, seated)
        return
    if isinstance(message, Join):
        if connection.route is not None and message.table != connection.route:
            raise ProtocolError(
                f"this connection is for table {connection.route}: join that one, "
                "or open /ws/<id> of the other"
            )
        if limits is not None and not limits.may_guess(connection.address):
            raise TableError("too many tries at tables that do not exist: wait a minute")
        if message.table in lobby.restoring:
            raise TableError("this table is still being brought back after a restart: try again in a moment")
        try:
            joining = lobby.get(message.table)
        except NoSuchTable:
            if limits is not None:
                limits.failed_join(connection.address)
            raise
        previous, seated = connection.table, connection.seat is not None
        _join(lobby, connection, message, None if limits is None else limits.settings.max_spectators)
        if message.refused_name is not None and connection.seat is not None:
            why = f"{message.refused_name}. You sit down without a name for now."
            connection.send({"type": "error", "message": why})
        if previous is not joining:
            _close_if_abandoned(lobby, previous, seated)
        return
    table = connection.table
    if isinstance(message, Away):
        # The page goes elsewhere and closes its socket next: the others are told so (a page may
        # say it twice, pagehide after Back: the second finds no table and changes nothing).
        disconnect(lobby, connection, elsewhere=True)
        return
    if table is None or table.closed:
        raise TableError("you are not at a table: create one or join one first")
    seat = connection.seat
    if isinstance(message, Leave):
        disconnect(lobby, connection, on_purpose=True)
        if table.mode.kept and seat is not None:
            lobby.close(table.id)  # leaving a game against the computer (or a watched one) ends it
        connection.send({"type": "left"})
        return
    if seat is None:
        raise TableError("spectators watch; only the players at the table can do that")
    if isinstance(message, Turn):
        table.turn(seat)
    elif isinstance(message, SetPace):
        table.set_pace(seat, message.pace)
    elif isinstance(message, SetPaused):
        table.set_paused(message.paused, seat, hidden=message.hidden)
    elif isinstance(message, Hold):
        table.hold(message.on)
    elif isinstance(message, SetAutomatic):
        table.set_automatic(seat, message.on)
    elif isinstance(message, NewGame):
        table.ask_new_game(seat)
    elif isinstance(message, KeepPlaying):
        table.keep_playing(seat)
    elif isinstance(message, PlayFor):
        table.play_for(seat, message.seat)
    elif isinstance(message, Rename):
        if limits is not None and not limits.may_rename(table.id, seat):
            per_minute = limits.settings.renames_per_minute
            raise TableError(f"a seat can change its name {per_minute:g} times a minute: wait a little")
        table.rename(seat, message.name)


SETTINGS = ("deal", "seed", "rules", "players", "humans", "name", "pace")
"""The fields of a new table's message that the page has a setting for."""


def error_reply(exc: UserError, *, setting: bool) -> dict[str, Any]:
    """The ``error`` message that tells a person why their request was refused: its text, the
    ``code`` ``"no-table"`` for a table that is not there, and, where ``setting`` (the person is
    choosing a new table's settings), the ``field`` of the setting at fault if the page has one, so
    that the page shows the error by it.

    >>> from beggar.rules import rules_named
    >>> try:
    ...     rules_named("standard:players=12")
    ... except UserError as exc:
    ...     error_reply(exc, setting=True)["field"]
    'rules'
    """
    reply: dict[str, Any] = {"type": "error", "message": plain(str(exc))}
    if isinstance(exc, NoSuchTable):
        reply["code"] = "no-table"  # the page offers a new table instead
    elif setting and exc.field in SETTINGS:
        reply["field"] = exc.field
    return reply


def archiver(archive: Archive | None) -> Callable[[Table], None] | None:
    """What a table calls when a game ends: store it, and give the table its replay id."""
    if archive is None:
        return None

    def save(table: Table) -> None:
        if table.lesson is not None or table.famous is not None:
            return  # prepared positions and famous games have their own pages
        try:
            table.replay = archive.save(
                table.game,
                table.names,
                mode=str(table.mode),
                table_id=table.id,
                dealt_again=[deal.to_json() for deal in table.dealt_again],
            )
        except sqlite3.Error:
            table.replay = None  # a full disk must not stop the game; there is just no link

    return save


def table_rules(mode: Mode, spec: str | None, players: int | None) -> Rules:
    """The rules a new table of ``mode`` plays by: ``spec`` (else the mode's default table), with
    ``players`` if given.

    >>> table_rules(Mode.FRIENDS, "friend-table:max-tricks=50:players=4", 3).spec()
    'friend-table:players=3:max-tricks=50'
    """
    rules = rules_named(spec or (FRIEND_DEFAULT if mode is Mode.FRIENDS else COMPUTER_DEFAULT))
    return rules if players is None else rules.replace(players=players)


def deal_problem(deal: str, mode: Mode, spec: str | None, players: int | None) -> str:
    """Why ``deal`` could not be played at a new table of ``mode`` with these rules, in a sentence
    (as a new table would say it); "" if it could, or if the rules themselves are at fault."""
    try:
        rules = table_rules(mode, spec, players)
        parse_deal(deal, rules.deck, complete=True)
    except UserError as exc:
        return plain(str(exc)) if exc.field == "deal" else ""  # the rules' errors: by their own field
    return ""


def _create(
    lobby: Lobby,
    connection: Connection,
    message: Create,
    archive: Archive | None,
    found: FoundShelf | None = None,
) -> None:
    rules = table_rules(message.mode, message.rules, message.players)
    mode = message.mode
    lesson_ = None
    famous: PublishedGame | FoundDeal | None = None
    deal: Deal | str | None = message.deal or None
    if mode is Mode.LESSON:
        if message.lesson is None:
            raise ProtocolError("a lesson table needs the lesson's number", field="lesson")
        lesson_ = lesson(message.lesson) if 1 <= message.lesson <= len(LESSONS) else None
        if lesson_ is None:
            raise TableError(
                f"no lesson {message.lesson}: the lessons are numbered 1 to {len(LESSONS)}", field="lesson"
            )
        rules = lesson_.rules
        deal = lesson_.deal
    elif mode is Mode.FAMOUS and message.found is not None:
        famous = found.known(message.found) if found is not None else None
        if famous is None:
            raise TableError(
                "there is no such never-ending deal here: reload the famous games", field="found"
            )
        rules = famous.rules
        deal = parse_deal(famous.deal, rules.deck, rules=rules)
    elif mode is Mode.FAMOUS:
        if message.famous is None or not 0 <= message.famous < len(ALL_GAMES):
            raise TableError(f"famous must be a game number from 0 to {len(ALL_GAMES) - 1}", field="famous")
        famous = ALL_GAMES[message.famous]
        rules = rules_named("standard")
        deal = famous.deal
    seats = _seats(mode, rules, message)
    bound = not mode.addressed  # a table with its own address outlives a reload
    table = lobby.open(
        mode,
        rules,
        seats,
        deal=deal,
        seed=message.seed,
        pace=message.pace,
        lesson=lesson_,
        famous=famous,
        bound_to_connection=bound,
        on_game_over=archiver(archive),
        owner=connection.address,
        browser=connection.browser,
        table_id=connection.route,
        replayed=message.replayed,
    )
    seat = 0 if seats[0].human else None
    token = None
    if seat is not None:
        token = new_token()
        table.take_seat(seat, token, announce=mode is Mode.FRIENDS)
        if mode is Mode.LESSON:
            table.take_seat(1, token, announce=False)
    _seat(connection, table, seat, token)
    if mode.kept:
        _close_abandoned_computer_games(lobby, table)


def _seat(
    connection: Connection, table: Table, seat: int | None, token: str | None, *, reloaded: bool = False
) -> None:
    """Tell ``connection`` where it sits (the token only to the person whose seat it holds), and
    seat it there."""
    connection.send(
        {
            "type": "joined",
            "table": table.id,
            "seat": seat,
            "token": token,
            "mode": str(table.mode),
            "kept": table.mode.kept,
            "addressed": table.mode.addressed,
            "link": f"{connection.root}/t/{table.id}",
        }
    )
    connection.sit(table, seat, reloaded=reloaded)


def _seats(mode: Mode, rules: Rules, message: Create) -> list[Seat]:
    players = rules.players
    if mode is Mode.LESSON or mode is Mode.FAMOUS or mode is Mode.WATCH:
        names = seat_names(players)
        seats = [Seat(name=names[i], human=False) for i in range(players)]
        if mode is Mode.LESSON:
            for seat in seats:
                seat.human = True
        else:
            seats[0].human = True
            seats[0].automatic = True
        return seats
    humans = 1 if mode is Mode.COMPUTER else max(2, min(message.humans, players))
    if mode is Mode.FRIENDS and message.humans > players:
        raise TableError(f"{message.humans} people cannot sit at a table of {players}", field="humans")
    seats = []
    # A computer never goes by a name that looks like its creator's ("Robin" creating a table).
    creator = skeleton(message.name) if message.name else None
    computers = iter(name for name in COMPUTER_NAMES if skeleton(name) != creator)
    for index in range(players):
        if index < humans:
            name = message.name if index == 0 and message.name else place_name(index)
            seats.append(Seat(name=name, human=True))
        else:
            seats.append(Seat(name=next(computers), human=False))
    return seats


def _join(lobby: Lobby, connection: Connection, message: Join, max_spectators: int | None = None) -> None:
    """``connection`` sits at a table: in the seat its token holds, a free seat of a friend table,
    or among the spectators, of whom there are at most ``max_spectators``."""
    table = lobby.get(message.table)
    seat: int | None = None
    token = message.token
    if token:
        seat = table.seat_of(token)
    if seat is None:
        free = table.free_seat()
        if free is not None:
            seat = free
            token = new_token()
            table.take_seat(seat, token, message.name)
    if seat is None:
        token = None
        if max_spectators is not None and connection.table is not table:
            watching = len(table.listeners) - sum(each.connections for each in table.seats)
            if watching >= max_spectators:
                raise TableError("this table has as many spectators as it can take: try again later")
    _seat(connection, table, seat, token, reloaded=message.reloaded)


def disconnect(
    lobby: Lobby, connection: Connection, *, on_purpose: bool = False, elsewhere: bool = False
) -> None:
    """``connection`` leaves its table; a table bound to its players closes when the last one goes.

    Spectators come and go without closing anything.
    """
    seated = connection.seat is not None
    _close_if_abandoned(lobby, connection.leave(on_purpose=on_purpose, elsewhere=elsewhere), seated)


def _close_if_abandoned(lobby: Lobby, table: Table | None, seated: bool) -> None:
    """Close a table bound to its players once a player left it and no player is connected.

    A game against the computer or a watched game stays for its person's return (a reload, a lost
    line); one that was playing itself pauses meanwhile.
    """
    if table is None or not seated or any(seat.connections > 0 for seat in table.seats):
        return
    if table.bound_to_connection:
        lobby.close(table.id)
    elif table.mode.kept and not table.game.over and any(s.automatic for s in table.seats):
        table.set_paused(True)


def _close_abandoned_computer_games(lobby: Lobby, keep: Table) -> None:
    """A new game against the computer (or a watched one) from an address closes its earlier ones
    nobody is at: the home page links back to one game only."""
    for table in list(lobby.tables.values()):
        if (
            table is not keep
            and table.mode.kept
            and table.owner == keep.owner
            and table.browser == keep.browser  # another browser at the address is another person
            and not any(seat.connections > 0 for seat in table.seats)
        ):
            lobby.close(table.id)


__all__ = [
    "BROWSER_COOKIE",
    "COMPUTER_NAMES",
    "SETTINGS",
    "SPECTATOR_INTERVAL",
    "UPDATE_INTERVAL",
    "Connection",
    "archiver",
    "browser_mark",
    "deal_problem",
    "disconnect",
    "error_reply",
    "handle",
    "origin_allowed",
    "serve",
    "table_rules",
]
