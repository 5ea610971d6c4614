"""A table saved and brought back without a server: ``beggar.web.durable``'s snapshot and
restore (the same table, card for card, its absences and its clock), the keeper that writes the
tables at trick ends, and the archive's rows and schema (a bad row skipped, an old file migrated, a
newer one refused, stale rows pruned). A real server stopped and started is ``test_durable.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from beggar.engine import Game
from beggar.lessons import lesson
from beggar.notation import parse_deal, random_deal
from beggar.records import ALL_GAMES, NEVER_ENDING
from beggar.rules import STANDARD, rules_named
from beggar.web.archive import SCHEMA_VERSION, Archive, DatabaseError, LiveRow
from beggar.web.durable import Keeper, RestoreError, restore, snapshot
from beggar.web.lobby import Lobby
from beggar.web.never_ending import found_again, viewing_rules
from beggar.web.settings import ServerSettings
from beggar.web.table import ABSENT_GRACE, DealtAgain, Mode, Pace, Seat, Table, TableError
from beggar.web.view import personal, shared_view
from helpers import long_deal, run_async

pytestmark = pytest.mark.system

DEAL = long_deal()
"""A standard deal that lasts well beyond the cards these tests turn."""


# -- the store, table by table ------------------------------------------------------------------------


def _friend_table(**fields: Any) -> Table:
    seats = [Seat("Ann", human=True), Seat("Bea", human=True)]
    table = Table("abcdefghjk", Mode.FRIENDS, STANDARD, seats, DEAL, **fields)
    table.take_seat(0, "ann-secret")
    table.take_seat(1, "bea-secret")
    return table


def _restored(table: Table, *, back: bool = True) -> Table:
    """``table`` as a restarted server brings it back (through JSON, as in the database);
    ``back``: its people are back (at a friend table they are away until they reconnect)."""
    copy, replay = restore(json.loads(json.dumps(snapshot(table))))
    for _ in replay:
        pass
    for index, seat in enumerate(copy.seats):
        if back and seat.restarted:
            copy.arrive(index)
            seat.connections = 0  # as the test's table had them: connected to no process
    return copy


def _comparable(table: Table) -> dict[str, Any]:
    view = shared_view(table)
    for key in ("version", "at", "time_left"):
        view.pop(key)
    return {**view, "log": table.log, "history": table.history, "mine": personal(table, 0)}


def test_a_restored_table_is_the_table_it_was() -> None:
    table = _friend_table()
    for _ in range(37):  # mid-trick, with a debt being paid somewhere along the way
        table.step()
    table.set_pace(0, Pace.FAST)
    table.set_paused(True, 1)
    table.ask_new_game(0)
    copy = _restored(table)
    assert _comparable(copy) == _comparable(table)
    assert copy.seat_of("ann-secret") == 0 and copy.seat_of("bea-secret") == 1
    assert copy.seat_of("someone-else") is None
    copy.set_paused(False, 0)
    table.set_paused(False, 0)
    for _ in range(60):  # and it goes on card for card
        assert [str(e) for e in copy.step()] == [str(e) for e in table.step()]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Table(
            "lessonabcd",
            Mode.LESSON,
            lesson(3).rules,
            [Seat("A", True), Seat("B", True)],
            parse_deal(lesson(3).deal, lesson(3).rules.deck, complete=False),
            lesson=lesson(3),
        ),
        lambda: Table(
            "famousabcd",
            Mode.FAMOUS,
            STANDARD,
            [Seat("A", True, automatic=True), Seat("B", False)],
            parse_deal(ALL_GAMES[2].deal, STANDARD.deck, complete=False),
            famous=ALL_GAMES[2],
        ),
    ],
    ids=["lesson", "famous"],
)
def test_lessons_and_famous_games_are_restored_too(make: Any) -> None:
    table = make()
    for _ in range(5):
        table.step()
    assert _comparable(_restored(table)) == _comparable(table)


def test_a_finished_game_is_restored_finished() -> None:
    table = _friend_table()
    while not table.game.over:
        table.step()
    copy = _restored(table)
    assert copy.game.record == table.game.record
    assert _comparable(copy) == _comparable(table)


def test_the_clock_of_a_timed_game_goes_on_from_where_it_stood() -> None:
    timed = rules_named("standard:time-limit=30m")
    table = Table("timedabcde", Mode.COMPUTER, timed, [Seat("A", True), Seat("B", False)], DEAL)
    table.started -= 600  # ten minutes played
    copy = _restored(table)
    assert copy.playing_seconds() == pytest.approx(600, abs=5)
    table.set_paused(True)
    assert _restored(table).paused_at is not None  # a paused clock stays paused


def _table_with_people_away() -> Table:
    """Three friends: Ann is here; Bea left on purpose 100 s ago and the computer plays for her;
    Cy lost the connection 5 s ago."""
    three = rules_named("standard:players=3")
    seats = [Seat("Ann", human=True), Seat("Bea", human=True), Seat("Cy", human=True)]
    table = Table("awayabcdef", Mode.FRIENDS, three, seats, random_deal(three, 7))
    for seat, name in enumerate(("ann", "bea", "cy")):
        table.take_seat(seat, f"{name}-secret")
        table.arrive(seat)
    table.depart(1, left=True)
    assert table.seats[1].away_since is not None
    table.seats[1].away_since -= 100
    table.play_for(0, 1)
    table.depart(2)
    assert table.seats[2].away_since is not None
    table.seats[2].away_since -= 5
    return table


def _away_for(table: Table, seat: int) -> float:
    since = table.seats[seat].away_since
    assert since is not None
    return time.monotonic() - since


def test_who_is_away_and_who_plays_for_them_survive_a_restart() -> None:
    table = _table_with_people_away()
    copy = _restored(table)
    ann, bea, cy = copy.seats
    assert ann.away_since is None and not ann.left and not ann.stand_in
    assert bea.left and bea.stand_in and bea.automatic and copy.absent(1)
    assert _away_for(copy, 1) == pytest.approx(100, abs=5)
    assert not cy.left and not cy.stand_in and not cy.automatic and not copy.absent(2)
    assert _away_for(copy, 2) == pytest.approx(5, abs=5)
    for before, after in zip(shared_view(table)["seats"], shared_view(copy)["seats"], strict=True):
        assert {**before, "connected": False} == after  # nobody's browser is connected to a new process
    assert personal(copy, 0)["notice"] == personal(table, 0)["notice"]
    assert "the computer plays for them" in personal(copy, 0)["notice"]
    copy.arrive(1)  # Bea comes back to the restored table: she plays her own cards again
    assert copy.seats[1].away_since is None and not copy.seats[1].stand_in and not copy.seats[1].automatic


def test_the_absence_goes_on_counting_while_the_server_is_down() -> None:
    state = json.loads(json.dumps(snapshot(_table_with_people_away())))
    for seat in state["seats"]:
        if seat["away_at"] is not None:
            seat["away_at"] -= 30  # the restart took half a minute
    copy, replay = restore(state)
    for _ in replay:
        pass
    assert _away_for(copy, 2) == pytest.approx(35, abs=5) and copy.absent(2)


@pytest.mark.parametrize("bad", [None, "yesterday", True, [1], float("nan"), float("inf")])
def test_an_absence_that_cannot_be_read_loads_as_just_gone_at_the_restart(bad: Any) -> None:
    state = json.loads(json.dumps(snapshot(_table_with_people_away())))
    for seat in state["seats"]:
        seat["away_at"] = bad
    copy, replay = restore(json.loads(json.dumps(state)))
    for _ in replay:
        pass
    for index, seat in enumerate(copy.seats):
        assert not seat.left and not seat.stand_in and not seat.automatic
        assert seat.restarted and _away_for(copy, index) < 5 and not copy.absent(index)


def test_a_row_saved_before_absences_were_kept_loads_everyone_just_gone_at_the_restart() -> None:
    state = json.loads(json.dumps(snapshot(_table_with_people_away())))
    for seat in state["seats"]:
        for key in ("away_at", "left", "stand_in"):
            del seat[key]
    copy, replay = restore(state)
    for _ in replay:
        pass
    assert all(seat.restarted and not seat.left and not seat.stand_in for seat in copy.seats)
    assert not any(copy.absent(index) for index in range(len(copy.seats)))


def test_a_friend_going_away_is_written_at_once() -> None:
    async def scenario() -> None:
        keeper = Keeper(Archive(":memory:"), Lobby())
        table = _table_with_people_away()
        keeper.watch(table)
        assert len(keeper.collect()[0]) == 1
        table.depart(0)
        assert len(keeper.collect()[0]) == 1  # Ann is away now: worth writing before the trick ends

    run_async(scenario())


def test_a_join_brings_its_table_back_first() -> None:
    saved = [_friend_table() for _ in range(3)]
    for index, table in enumerate(saved):
        table.id = f"table{index}xxxx"

    async def scenario() -> list[str]:
        archive = Archive(":memory:")
        archive.put_live([LiveRow(t.id, "0", time.time(), json.dumps(snapshot(t))) for t in saved])
        lobby = Lobby()
        keeper = Keeper(archive, lobby)
        keeper.start()
        await keeper.ready("table2xxxx")
        assert "table2xxxx" in lobby.tables
        while lobby.restoring:
            await asyncio.sleep(0.01)
        lobby.freeze()
        keeper.save_all()
        return list(lobby.tables)

    assert run_async(scenario())[0] == "table2xxxx"


def test_the_saved_state_holds_no_token() -> None:
    text = json.dumps(snapshot(_friend_table()))
    assert "ann-secret" not in text and "bea-secret" not in text


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda s: s.update(v=99), "state version"),
        (lambda s: s["game"].update(turned=100_000), "ends after"),
        (lambda s: s["game"].update(deal="KZ/Q?"), "DealError"),
        (lambda s: s.update(mode="poker"), "ValueError"),
        (lambda s: s["seats"].pop(), "1 seats for a game of 2"),
        (lambda s: s["seats"][0].update(name=7), "expected text"),
        (lambda s: s.pop("log"), "KeyError"),
        (lambda s: s["game"].update(first=5), "cannot lead"),
    ],
)
def test_a_bad_saved_table_is_refused_with_a_reason(change: Any, why: str) -> None:
    state = json.loads(json.dumps(snapshot(_friend_table())))
    change(state)
    with pytest.raises(RestoreError, match=why):
        _, replay = restore(state)
        for _ in replay:
            pass


def test_the_keeper_writes_at_trick_ends_and_changes_not_on_every_card() -> None:
    async def scenario() -> None:
        keeper = Keeper(Archive(":memory:"), Lobby())
        table = _friend_table()
        keeper.watch(table)
        assert len(keeper.collect()[0]) == 1  # a new table is written
        written = []
        for _ in range(200):
            tricks = table.game.tricks
            table.step()
            table.changed()
            rows, _ = keeper.collect()
            written.append((len(rows), table.game.tricks != tricks))
        assert all(count == int(trick_end) for count, trick_end in written)
        table.rename_seat(1, "Bee")
        table.changed()
        assert len(keeper.collect()[0]) == 1  # a seat changed
        table.set_pace(0, Pace.INSTANT)
        assert len(keeper.collect()[0]) == 1  # a setting changed
        for _ in range(40):  # at instant pace: trick ends wait for INSTANT_INTERVAL
            table.step()
            table.changed()
        assert keeper.collect()[0] == []
        assert table.id in keeper._dirty  # but it is not forgotten
        table.closed = True
        assert keeper.collect() == ([], [table.id])

    run_async(scenario())


def _archive_with(tmp_path: Path, rows: list[LiveRow]) -> Archive:
    archive = Archive(tmp_path / "games.sqlite3")
    archive.put_live(rows)
    return archive


def test_bad_rows_are_skipped_with_a_log_line_and_other_processes_rows_left_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = _friend_table()
    state = _json(snapshot(good))
    other = _json({**snapshot(good), "id": "otherxxxxx"})
    archive = _archive_with(
        tmp_path,
        [
            LiveRow(good.id, "0", time.time(), state),
            LiveRow("garbage123", "0", time.time(), "{not json"),
            LiveRow("foreign123", "0", time.time(), json.dumps({"v": 1, "something": "else"})),
            LiveRow("otherxxxxx", "1", time.time(), other),
        ],
    )

    async def scenario() -> tuple[Lobby, tuple[int, int]]:
        lobby = Lobby()
        keeper = Keeper(archive, lobby, instance="0")
        keeper.start()
        await keeper.ready(good.id)
        while lobby.restoring:
            await asyncio.sleep(0.01)
        swept = await keeper.sweep()
        lobby.freeze()
        keeper.save_all()
        return lobby, swept

    with caplog.at_level(logging.WARNING, logger="beggar.web.durable"):
        lobby, swept = run_async(scenario())
    assert list(lobby.tables) == [good.id]
    assert lobby.tables[good.id].seat_of("bea-secret") == 1
    assert sum("garbage123" in line for line in caplog.messages) == 1
    assert sum("foreign123" in line for line in caplog.messages) == 1
    # The two bad rows are gone, not the other process's table. (The keeper also sweeps by itself
    # as it starts, so this sweep or that one may have been the one to delete them.)
    assert swept[0] == 0
    assert archive.live_ids("0") == {good.id} and archive.live_ids("1") == {"otherxxxxx"}


def _json(state: dict[str, Any]) -> str:
    return json.dumps(state)


def test_a_version_1_database_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, finished REAL NOT NULL, mode TEXT NOT NULL, "
            "table_id TEXT, names TEXT NOT NULL, game TEXT NOT NULL); PRAGMA user_version = 1;"
        )
        finished = Game(DEAL, STANDARD, first=0, complete=False)
        finished.run()
        old.execute(
            "INSERT INTO games VALUES ('oldgame1', 1.0, 'friends', NULL, '[\"A\", \"B\"]', ?)",
            (json.dumps(finished.to_dict()),),
        )
    archive = Archive(path)
    assert archive.load("oldgame1").names == ["A", "B"]
    archive.put_live([LiveRow("t", "0", 1.0, "{}")])
    assert archive.live_ids("0") == {"t"}
    with sqlite3.connect(path) as reopened:
        assert reopened.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    assert archive.load("oldgame1").dealt_again == []  # a game stored before deals were noted


def test_a_newer_database_is_refused_in_plain_words(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    with sqlite3.connect(path) as newer:
        newer.execute("PRAGMA user_version = 7")
    with pytest.raises(DatabaseError, match="written by a newer beggar"):
        Archive(path).open()


def test_old_games_and_stale_rows_of_other_processes_are_pruned(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "games.sqlite3")
    game = Game(DEAL, STANDARD, first=0, complete=False)
    ids = [archive.save(game, ["A", "B"], mode="friends") for _ in range(5)]
    now = time.time()
    with archive._lock:
        db = archive._connect()
        db.execute("UPDATE games SET finished = ? WHERE id = ?", (now - 40 * 86400, ids[0]))
        db.commit()
    archive.put_live(
        [LiveRow("mine", "0", now - 30 * 86400, "{}"), LiveRow("gone", "1", now - 30 * 86400, "{}")]
    )
    games, rows = archive.prune(
        games_before=now - 30 * 86400, games_max=3, live_before=now - 7 * 86400, keep_instance="0"
    )
    assert (games, rows) == (2, 1)  # one too old, one beyond the newest three
    assert archive.live_ids("0") == {"mine"} and archive.live_ids("1") == set()


def test_a_full_server_does_not_make_room_by_closing_a_table_whose_people_are_reconnecting() -> None:
    async def scenario() -> tuple[list[str], str]:
        lobby = Lobby(ServerSettings(max_tables=1))
        lobby.adopt(_restored(_friend_table()))  # back after a restart: nobody has rejoined yet
        try:
            lobby.open(Mode.FRIENDS, STANDARD, [Seat("Cy", human=True), Seat("Di", human=True)])
        except TableError as exc:
            refused = str(exc)
        else:
            refused = ""
        tables = list(lobby.tables)
        lobby.close_all()
        return tables, refused

    tables, refused = run_async(scenario())
    assert tables == ["abcdefghjk"]
    assert "as many tables as it can hold" in refused


def test_when_each_player_went_out_is_told_the_same_after_a_restart() -> None:
    four = rules_named("standard:players=4")
    seats = [Seat("Ann", True), Seat("Bea", False), Seat("Cy", False), Seat("Di", False)]
    table = Table("fourabcdef", Mode.COMPUTER, four, seats, random_deal(four, 5))
    while not table.game.over:
        table.step()
    assert len(table.went_out) >= 2
    copy = _restored(table)
    assert copy.went_out == table.went_out
    for seat in (0, 1, None):
        assert personal(copy, seat)["result"] == personal(table, seat)["result"]


def test_a_never_ending_deal_found_here_is_restored_and_does_not_stop_the_keeper() -> None:
    rules = viewing_rules(rules_named("standard"))
    found = found_again("found-0123456789ab", NEVER_ENDING.deal, rules)
    table = Table(
        "foundabcde",
        Mode.FAMOUS,
        rules,
        [Seat("A", True, automatic=True), Seat("B", False)],
        parse_deal(found.deal, rules.deck, complete=False),
        famous=found,
    )
    for _ in range(5):
        table.step()
    copy = _restored(table)
    assert copy.famous == found
    assert _comparable(copy) == _comparable(table)

    async def scenario() -> None:
        keeper = Keeper(Archive(":memory:"), Lobby())
        broken = _friend_table()
        broken.id = "brokenabcd"
        broken.famous = dataclasses.replace(ALL_GAMES[0], deal="not one of the list")  # cannot be saved
        keeper.watch(broken)
        keeper.watch(table)
        rows, _ = keeper.collect()
        assert [row.id for row in rows] == [table.id]  # the others are still kept

    run_async(scenario())


def test_a_friend_gone_to_another_page_and_the_deals_dealt_again_survive_a_restart() -> None:
    rules = rules_named("family-table")
    seats = [Seat("Ann", True), Seat("Bea", True)]
    table = Table("sittingab2", Mode.FRIENDS, rules, seats, random_deal(rules, 3))
    for seat, token in enumerate(("ann", "bea")):
        table.take_seat(seat, token)
        table.arrive(seat)
    table.depart(1, elsewhere=True)
    table.dealt_again = [DealtAgain(474, True, "replay01")]
    again, replay = restore(json.loads(json.dumps(snapshot(table))))
    for _ in replay:
        pass
    assert again.seats[1].elsewhere and not again.seats[1].left
    assert again.dealt_again == [DealtAgain(474, True, "replay01")]
    assert shared_view(again)["seats"][1]["away"] == "elsewhere"


def test_a_seat_connected_when_the_server_died_is_away_from_the_restart() -> None:
    """Di was here at the SIGKILL and never comes back: her grace starts at the restart, then the
    others may let the computer play for her, and a new game does not wait for her for ever."""
    table = _friend_table()
    table.arrive(0)
    table.arrive(1)  # both connected when the process died
    copy = _restored(table, back=False)
    ann, bea = copy.seats
    assert ann.away_since is not None and bea.away_since is not None and not copy.absent(1)
    with pytest.raises(TableError):
        copy.play_for(0, 1)  # within her grace
    copy.arrive(0)  # Ann comes back, quietly (everyone came back after the restart)
    assert not any("is back" in line["text"] for line in copy.log)
    bea.away_since = time.monotonic() - ABSENT_GRACE  # Bea never does
    assert copy.absent(1)
    copy.play_for(0, 1)
    assert bea.stand_in
