"""Live tables that survive a restart: what is kept of each table, when it is written, how it returns.

Each open table is one row of ``live_tables`` in the server's database
(:class:`~beggar.web.archive.Archive` stores the rows; this module decides what they hold). A row
holds what the reference engine needs to play the game again — its deal, rules, who led and how
many cards were turned (:meth:`beggar.engine.Game.to_dict`) — and the table's own state: its mode,
pace, pause, seats with their names and the *hashes* of their tokens, the log, games played,
and who is away: since when (as a wall-clock time, so that the absence goes on counting across the
restart), whether they left on purpose, and whether the computer plays for them.

A row's JSON has a version (:data:`STATE_VERSION`); a row of another version is skipped. Keys added
since are optional within a version, and a row written before them loads with their defaults (a
seat without an absence is present).

When rows are written (:class:`Keeper`): a table is marked on every change, but written only when
something worth keeping changed — a trick ended, a game ended or began, a seat or a setting
changed — and never on every card. Marks are gathered for :data:`BATCH_DELAY` seconds and written
in one transaction by a worker thread, at most :data:`BATCH_MAX` tables a batch; a table at
instant pace (thousands of cards a second) is written at most every :data:`INSTANT_INTERVAL`
seconds. A graceful stop (:meth:`Keeper.save_all`) writes every table as it stands; after a
SIGKILL a table comes back as it was at its last write: at worst the current trick is played again.

How tables return: on start, every row of this process (``ServerSettings.instance``) is read and
its game is played again from its deal through the engine (the engine is the definition of where
a game stands), a slice of cards at a time, so that the server answers while it restores. A join
of a table still being restored waits for it and moves it to the front. A row that cannot be
restored (corrupt, or written by another program) is skipped with a log line.

What is kept how long (:meth:`Keeper.sweep`, every :data:`SWEEP_INTERVAL` seconds): a table's row
is deleted when the table closes; finished games are kept :data:`GAMES_KEPT_DAYS` days and at most
:data:`GAMES_KEPT_MAX` of them; rows of this process without a live table (a row that could not be
restored) are deleted; rows of other processes not written for :data:`OTHER_ROWS_KEPT_DAYS` days
(a process that is gone) are deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from beggar.engine import Game, GameError, Reason
from beggar.errors import BeggarError, UserError
from beggar.lessons import LESSONS, lesson
from beggar.notation import parse_deal
from beggar.records import ALL_GAMES, PublishedGame
from beggar.rules import Rules
from beggar.web.archive import Archive, LiveRow
from beggar.web.lobby import LIVE_LIMITS, Lobby, check_live_rules
from beggar.web.never_ending import FoundDeal, found_again
from beggar.web.table import DealtAgain, Mode, Pace, Seat, Table

STATE_VERSION = 1
"""The version of a row's JSON; a row of another version is skipped."""
BATCH_DELAY = 0.25
"""Seconds marks are gathered before they are written together."""
BATCH_MAX = 100
"""Tables written in one batch at most; the rest wait for the next."""
INSTANT_INTERVAL = 5.0
"""Seconds between writes of a table at instant pace, however many tricks it plays."""
SWEEP_INTERVAL = 600.0
GAMES_KEPT_DAYS = 30.0
GAMES_KEPT_MAX = 100_000
"""Finished games kept for their replay links: about 1 KB each, so at most about 100 MB."""
OTHER_ROWS_KEPT_DAYS = 7.0
RESTORE_TURN = 0.005
"""Seconds of replaying before the restorer lets the server answer others."""

log = logging.getLogger(__name__)


class RestoreError(BeggarError, ValueError):
    """A saved table that cannot be restored; the message says why."""


# -- one table's state -------------------------------------------------------------------------------


def snapshot(table: Table, game: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything needed to bring ``table`` back after a restart, as JSON-ready data.

    ``game`` is ``table.game.to_dict()`` when the caller has it already.
    """
    return {
        "v": STATE_VERSION,
        "id": table.id,
        "mode": str(table.mode),
        "game": table.game.to_dict() if game is None else game,
        "seed": table.seed,
        "pace": str(table.pace),
        "paused": table.paused,
        "paused_why": table.paused_why,
        "played": table.playing_seconds(),
        "games_played": table.games_played,
        "redeals": table.redeals,
        "dealt_again": [deal.to_json() for deal in table.dealt_again],
        "new_game_asked": sorted(table.new_game_asked),
        "replay": table.replay,
        "log": table.log,
        "seats": [
            {
                "name": s.name,
                "human": s.human,
                "token_hash": s.token_hash,
                "automatic": s.automatic,
                "away_at": _wall_clock(s.away_since),
                "left": s.left,
                "elsewhere": s.elsewhere,
                "stand_in": s.stand_in,
            }
            for s in table.seats
        ],
        "lesson": None if table.lesson is None else table.lesson.number,
        "famous": ALL_GAMES.index(table.famous) if isinstance(table.famous, PublishedGame) else None,
        # A never-ending deal found here is saved whole: the store it was listed from may change.
        "found": (
            {"key": table.famous.key, "deal": table.famous.deal}
            if isinstance(table.famous, FoundDeal)
            else None
        ),
        "bound": table.bound_to_connection,
        "owner": table.owner,
        "browser": table.browser,
        "chosen": table.chosen,
    }


def restore(
    state: dict[str, Any], *, on_game_over: Callable[[Table], None] | None = None
) -> tuple[Table, Iterator[None]]:
    """The table saved as ``state`` and the replay that puts its game back where it stood.

    Run the replay to its end before the table is used (it yields between slices of cards, see
    :meth:`Table.resume`). :class:`RestoreError` if the state is not a table this server wrote.
    """
    try:
        if state.get("v") != STATE_VERSION:
            raise RestoreError(f"state version {state.get('v')!r}, not {STATE_VERSION}")
        game = state["game"]
        rules = Rules.from_dict(game["rules"])
        deal = parse_deal(str(game["deal"]), rules.deck, complete=False)
        seats = [_seat(seat) for seat in state["seats"]]
        if len(seats) != rules.players:
            raise RestoreError(f"{len(seats)} seats for a game of {rules.players}")
        lesson_number, famous_index = state["lesson"], state["famous"]
        if lesson_number is not None and not 1 <= int(lesson_number) <= len(LESSONS):
            raise RestoreError(f"no lesson {lesson_number}")
        if famous_index is not None and not 0 <= int(famous_index) < len(ALL_GAMES):
            raise RestoreError(f"no famous game {famous_index}")
        found = state.get("found")
        famous: PublishedGame | FoundDeal | None = None
        if famous_index is not None:
            famous = ALL_GAMES[int(famous_index)]
        elif found is not None:
            famous = found_again(_text(found["key"]), _text(found["deal"]), rules)
        seed = state["seed"]
        table = Table(
            id=_text(state["id"]),
            mode=Mode(state["mode"]),
            rules=rules,
            seats=seats,
            deal=deal,
            pace=Pace(state["pace"]),
            seed=None if seed is None else int(seed),
            lesson=None if lesson_number is None else lesson(int(lesson_number)),
            famous=famous,
            bound_to_connection=bool(state["bound"]),
            owner=_text(state["owner"]),
            browser=_text(state.get("browser") or ""),
            on_game_over=on_game_over,
            chosen=bool(state.get("chosen", False)),
        )
        table.games_played = int(state["games_played"])
        table.redeals = int(state["redeals"])
        table.dealt_again = [DealtAgain.from_json(deal) for deal in state.get("dealt_again", [])]
        table.new_game_asked = {int(seat) for seat in state["new_game_asked"] if 0 <= int(seat) < len(seats)}
        table.replay = None if state["replay"] is None else _text(state["replay"])
        table.log = [_log_line(line, len(seats)) for line in state["log"]]
        now = time.monotonic()
        table.started = now - float(state["played"])
        table.paused = bool(state["paused"])
        table.paused_at = now if table.paused else None
        table.paused_why = None if state["paused_why"] is None else _text(state["paused_why"])
        for index, seat in enumerate(table.seats):
            if table.mode is Mode.FRIENDS and seat.human and seat.taken and seat.away_since is None:
                # Here when the server stopped (or was killed): nobody is here after a restart
                # until they come back, so their grace starts now, as if the line was lost now.
                seat.away_since, seat.restarted = now, True
            if seat.away_since is not None:
                table.watch_absence(index)
        first, turned = int(game["first"]), int(game["turned"])
        check_live_rules(rules)
        if turned > LIVE_LIMITS["max_cards"]:
            # A live table stops long before; replaying such a row would hold the restorer for ever.
            raise RestoreError(f"{turned} cards turned, more than a live table ever turns")
        if not 0 <= first < rules.players:
            raise RestoreError(f"seat {first} cannot lead a game of {rules.players}")
        stopped = None if game["stopped"] is None else Reason(game["stopped"])
    except RestoreError:
        raise
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        ArithmeticError,
        RecursionError,
        UserError,  # the rules, the deal, the game or the table refuse what was saved
    ) as exc:
        raise RestoreError(f"{type(exc).__name__}: {str(exc)[:200]}") from None
    return table, _checked(table.resume(first, turned, stopped))


def _checked(replay: Iterator[None]) -> Iterator[None]:
    """``replay``, with a saved game that cannot be played as saved reported as a bad row."""
    try:
        yield from replay
    except GameError as exc:
        raise RestoreError(str(exc)) from None


def _seat(saved: dict[str, Any]) -> Seat:
    """A saved seat; one whose absence cannot be read is present (and nobody plays for them)."""
    seat = Seat(
        name=_text(saved["name"]),
        human=bool(saved["human"]),
        token_hash=None if saved["token_hash"] is None else _text(saved["token_hash"]),
        automatic=bool(saved["automatic"]),
    )
    seat.away_since = _monotonic(saved.get("away_at"))
    stand_in = saved.get("stand_in") is True
    if seat.away_since is not None:
        seat.left = saved.get("left") is True
        seat.elsewhere = saved.get("elsewhere") is True and not seat.left
        seat.stand_in = stand_in
        seat.automatic = seat.automatic or stand_in
    elif stand_in:
        seat.automatic = False  # the computer played only for their absence, which is gone
    return seat


def _log_line(saved: dict[str, Any], seats: int) -> dict[str, Any]:
    """A saved log line; where it names seats is kept only if it can be read (else the line is
    told by name to everyone, as it was written)."""
    line: dict[str, Any] = {
        "seq": int(saved["seq"]),
        "text": _text(saved["text"]),
        "note": _text(saved["note"]),
    }
    if saved.get("others") is not None:
        line["others"] = _text(saved["others"])
    named = saved.get("named")
    if (
        isinstance(named, list)
        and named
        and all(_names_a_seat(each, len(line["text"]), seats) for each in named)
    ):
        line["named"] = [[int(part) for part in each] for each in named]
    return line


def _names_a_seat(span: Any, length: int, seats: int) -> bool:
    if not isinstance(span, list) or len(span) != 3:
        return False
    if any(isinstance(part, bool) or not isinstance(part, int) for part in span):
        return False
    start, end, seat = span
    return bool(0 <= start <= end <= length and 0 <= seat < seats)


def _wall_clock(since: float | None) -> float | None:
    """A moment of ``time.monotonic()`` as a wall-clock time (``time.time()``), which the next
    process can read: the monotonic clock of one process means nothing to another."""
    return None if since is None else time.time() - (time.monotonic() - since)


def _monotonic(at: Any) -> float | None:
    """A saved wall-clock moment on this process's monotonic clock; None if there is none or it
    cannot be read. A moment in the future (a clock set back) counts as now."""
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        return None
    return time.monotonic() - max(0.0, time.time() - at)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise RestoreError(f"expected text, not {type(value).__name__}")
    return value


def _worth_keeping(table: Table) -> tuple[Any, ...]:
    """What must be written as soon as it changes: everything of a table except its progress
    within a game (a card turned does not count; :func:`_progress` counts the tricks)."""
    seats = tuple(
        (s.name, s.token_hash, s.automatic, s.away_since is not None, s.left, s.elsewhere, s.stand_in)
        for s in table.seats
    )
    return (
        seats,
        table.pace,
        table.paused,
        table.games_played,
        table.redeals,
        table.game.over,
        tuple(sorted(table.new_game_asked)),
        table.replay,
    )


def _progress(table: Table) -> int:
    return table.game.tricks


# -- the keeper ---------------------------------------------------------------------------------------


class Keeper:
    """Writes the lobby's tables to the database, brings them back on start, and prunes old rows.

    Everything but the database writes runs on the event loop; writes run in a worker thread.
    """

    def __init__(
        self,
        archive: Archive,
        lobby: Lobby,
        *,
        instance: str = "0",
        on_game_over: Callable[[Table], None] | None = None,
    ) -> None:
        self.archive = archive
        self.lobby = lobby
        self.instance = instance
        self.on_game_over = on_game_over
        self.stopped = False
        self._dirty: dict[str, Table] = {}
        self._written: dict[str, tuple[tuple[Any, ...], int, float]] = {}
        """Per table: what was worth keeping and how many tricks when last written, and when."""
        self._games: dict[str, tuple[Game, dict[str, Any]]] = {}
        """Per table: its game and that game's :meth:`Game.to_dict`, from its last write."""
        self._wake = asyncio.Event()
        self._pending: dict[str, LiveRow] = {}
        self._wanted: list[str] = []
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._error_logged = 0.0
        self.restore_failures = 0

    # -- life ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Read this process's saved tables and start restoring, writing and sweeping.

        A file too damaged to read its rows at all starts the server with no table restored (and
        a log line), rather than not starting it.
        """
        try:
            rows = self.archive.live_rows(self.instance)
        except sqlite3.Error as exc:
            log.error("beggar: could not read the saved live tables, none is restored: %s", exc)
            rows = []
        rows.sort(key=_cards_in)  # short games first: most tables are back at once
        self._pending = {row.id: row for row in rows}
        self.lobby.restoring.update(self._pending)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._restorer()),
            loop.create_task(self._writer()),
            loop.create_task(self._sweeper()),
        ]

    def save_all(self) -> None:
        """Write every table as it stands now and stop keeping (a graceful stop: call it once the
        lobby is frozen, so that nothing changes after the write)."""
        if self.stopped:
            return
        self.stopped = True
        for task in self._tasks:
            task.cancel()
        rows = [
            row for table in self.lobby.tables.values() if not table.closed and (row := self._saved(table))
        ]
        gone = [table_id for table_id, table in self._dirty.items() if table.closed]
        try:
            self.archive.put_live(rows, gone)
        except sqlite3.Error as exc:
            log.error("beggar: could not save the live tables for the restart: %s", exc)
        for waiters in self._waiters.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    async def ready(self, table_id: str, timeout: float = 30.0) -> None:
        """Wait until ``table_id`` is restored, if it is being restored (it is done first)."""
        if table_id not in self._pending:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(table_id, []).append(waiter)
        self._wanted.append(table_id)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter, timeout)

    # -- writing --------------------------------------------------------------------------------

    def watch(self, table: Table) -> None:
        """Keep ``table`` from now on (write it soon, and whenever it changes in a way worth keeping)."""
        table.on_change = self.mark
        self.mark(table)

    def mark(self, table: Table) -> None:
        """``table`` changed (called on every change, so it only notes the table)."""
        if not self.stopped:
            self._dirty[table.id] = table
            self._wake.set()

    def _row(self, table: Table) -> LiveRow:
        self._written[table.id] = (_worth_keeping(table), _progress(table), time.monotonic())
        game = table.game
        known = self._games.get(table.id)
        if known is None or known[0] is not game or game.over:
            data = game.to_dict()
            self._games[table.id] = (game, data)
        else:
            # The deal and rules of a game in play never change, and Game.to_dict says a game in
            # play by its count alone: formatting the deal again each time would cost the most.
            data = {**known[1], "turned": game.cards}
        state = orjson.dumps(snapshot(table, data)).decode()
        return LiveRow(table.id, self.instance, time.time(), state)

    def collect(self) -> tuple[list[LiveRow], list[str]]:
        """The rows to write now and the tables to delete; tables that may wait stay marked."""
        rows: list[LiveRow] = []
        gone: list[str] = []
        now = time.monotonic()
        for table_id, table in list(self._dirty.items()):
            if table.closed:
                gone.append(table_id)
                self._written.pop(table_id, None)
                self._games.pop(table_id, None)
                del self._dirty[table_id]
                continue
            if len(rows) >= BATCH_MAX:
                continue
            written = self._written.get(table_id)
            if written is not None and written[0] == _worth_keeping(table):
                if written[1] == _progress(table):
                    del self._dirty[table_id]  # only cards within a trick: nothing to write
                    continue
                if table.pace is Pace.INSTANT and now - written[2] < INSTANT_INTERVAL:
                    continue  # written again later
            row = self._saved(table)
            if row is not None:
                rows.append(row)
            del self._dirty[table_id]
        return rows, gone

    def _saved(self, table: Table) -> LiveRow | None:
        """:meth:`_row`, or None with a log line: a table that cannot be written must not stop
        the others being kept."""
        try:
            return self._row(table)
        except Exception as exc:  # whatever it is, the writer goes on with the other tables
            self._log_error(f"could not save table {table.id}: {type(exc).__name__}: {exc}")
            return None

    async def _writer(self) -> None:
        while True:
            await self._wake.wait()
            await asyncio.sleep(BATCH_DELAY)
            self._wake.clear()
            rows, gone = self.collect()
            if rows or gone:
                try:
                    await asyncio.to_thread(self.archive.put_live, rows, gone)
                except sqlite3.Error as exc:
                    for row in rows:
                        self._written.pop(row.id, None)  # written again with the next batch
                    self._log_error(f"could not save the live tables: {exc}")
            if self._dirty:
                self._wake.set()

    def _log_error(self, message: str) -> None:
        if time.monotonic() - self._error_logged > 60:
            self._error_logged = time.monotonic()
            log.error("beggar: %s", message)

    # -- restoring ------------------------------------------------------------------------------

    async def _restorer(self) -> None:
        turn = time.monotonic()
        while self._pending:
            wanted = [table_id for table_id in self._wanted if table_id in self._pending]
            self._wanted.clear()
            table_id = wanted[0] if wanted else next(iter(self._pending))
            row = self._pending[table_id]
            try:
                table, replay = restore(_state_of(row), on_game_over=self.on_game_over)
                if table.id != row.id:
                    raise RestoreError(f"the row says it is table {table.id}")
                for _ in replay:
                    if time.monotonic() - turn > RESTORE_TURN:
                        await asyncio.sleep(0)
                        turn = time.monotonic()
                self.lobby.adopt(table)
                self.watch(table)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # one bad row, whatever is wrong with it, must not stop the others
                self.restore_failures += 1
                why = str(exc) if isinstance(exc, RestoreError) else f"{type(exc).__name__}: {str(exc)[:200]}"
                log.warning("beggar: skipped saved table %s, which cannot be restored: %s", row.id, why)
                self.lobby.restoring.discard(table_id)
            del self._pending[table_id]
            for waiter in self._waiters.pop(table_id, []):
                if not waiter.done():
                    waiter.set_result(None)
            if time.monotonic() - turn > RESTORE_TURN:
                await asyncio.sleep(0)
                turn = time.monotonic()

    # -- sweeping -------------------------------------------------------------------------------

    async def _sweeper(self) -> None:
        while True:
            await self.sweep()
            await asyncio.sleep(SWEEP_INTERVAL)

    async def sweep(self) -> tuple[int, int]:
        """Delete old finished games, and live rows no table needs; return how many of each."""
        now = time.time()
        try:
            stored = await asyncio.to_thread(self.archive.live_ids, self.instance)
            orphans = [
                table_id
                for table_id in stored
                if table_id not in self.lobby.tables
                and table_id not in self.lobby.restoring
                and table_id not in self._dirty
            ]
            games, others = await asyncio.to_thread(
                self.archive.prune,
                games_before=now - GAMES_KEPT_DAYS * 86400,
                games_max=GAMES_KEPT_MAX,
                live_before=now - OTHER_ROWS_KEPT_DAYS * 86400,
                keep_instance=self.instance,
                gone=orphans,
            )
        except sqlite3.Error as exc:
            self._log_error(f"could not clean up the database: {exc}")
            return 0, 0
        return games, others + len(orphans)


def _state_of(row: LiveRow) -> dict[str, Any]:
    """A row's state as data; :class:`RestoreError` if it is not a JSON object."""
    if not row.state:
        raise RestoreError("its text is empty or not UTF-8")
    try:
        state = json.loads(row.state)
    except RecursionError:
        raise RestoreError("its JSON is nested too deeply") from None
    except ValueError as exc:
        raise RestoreError(f"its text is not JSON: {exc}") from None
    if not isinstance(state, dict):
        raise RestoreError("its JSON is not an object")
    return state


def _cards_in(row: LiveRow) -> int:
    """How many cards a row's game has turned (0 if the row cannot say: it fails later, alone)."""
    try:
        turned = orjson.loads(row.state)["game"]["turned"]
        return int(turned) if isinstance(turned, int) else 0
    except (orjson.JSONDecodeError, KeyError, TypeError, IndexError):
        return 0


__all__ = ["Keeper", "RestoreError", "restore", "snapshot"]
