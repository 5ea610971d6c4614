"""The table server against a damaged disk and a hostile crowd.

Bad rows in the database, numbers no parser should accept, deals a spectator could compute, a
creator who rigs the deal unseen, crowds of sockets from one address, giant request heads and log
floods: each test is one way to hurt the server that it must shrug off.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import secrets
import socket
import sqlite3
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from proxied import beggar_serve
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import beggar.web.app
import beggar.web.logs
from beggar import rules
from beggar.cli import run
from beggar.engine import Game
from beggar.notation import parse_deal, random_deal
from beggar.records import NEVER_ENDING
from beggar.rules import STANDARD, RulesError, rules_named
from beggar.web.app import create_app
from beggar.web.archive import Archive, LiveRow
from beggar.web.durable import Keeper, RestoreError, restore, snapshot
from beggar.web.lobby import Lobby
from beggar.web.settings import ServerSettings
from beggar.web.table import Mode, Seat, Table
from helpers import Socket, app_client, run_async

SHORT_SEED = 1432
"""A standard deal that ends after 40 cards."""


class Browser:
    """A test browser on a TestClient socket: sends messages, reads until the reply it wants."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message))

    def until(self, kind: str, limit: int = 2000) -> dict[str, Any]:
        for _ in range(limit):
            message = self.ws.receive_json()
            if message["type"] == "state":
                self.state = message
            if message["type"] == kind:
                return dict(message)
        raise AssertionError(f"no {kind} message")

    def error(self) -> str:
        return str(self.until("error")["message"]).lower()


HOSTILE: dict[str, Any] = {"creates_per_minute": 10_000, "raise_server_exceptions": False}
"""Many tables from one connection, and a server error answered as a browser would meet it (a 500),
not raised into the test."""


@pytest.fixture
def client_settings() -> dict[str, Any]:
    return HOSTILE


# -- saved tables that cannot be read -----------------------------------------------------------------


def _friend_table(table_id: str) -> Table:
    table = Table(
        table_id, Mode.FRIENDS, STANDARD, [Seat("Ann", True), Seat("Bea", True)], random_deal(seed=7)
    )
    table.take_seat(0, "ann-secret")
    table.take_seat(1, "bea-secret")
    for _ in range(5):
        table.step()
    return table


def _state(table_id: str) -> str:
    return json.dumps(snapshot(_friend_table(table_id)))


INVALID_UTF8 = b'{"v":1,"id":"\xff\xfe'
DEEP = "[" * 200_000 + "]" * 200_000

BAD_STATES: dict[str, str | bytes] = {
    "turnedinfx": _state("turnedinfx").replace('"turned": 5', '"turned": 1e999'),
    "firstinfxx": _state("firstinfxx").replace('"first": 0', '"first": 1e999'),
    "gamesinfxx": _state("gamesinfxx").replace('"games_played": 0', '"games_played": 1e999'),
    "deepnested": DEEP,
    "notutf8xxx": INVALID_UTF8,
}
GOOD_IDS = ["goodaaaaaa", "goodbbbbbb", "goodcccccc", "gooddddddd"]


def _damaged_database(path: Path) -> None:
    """A database holding good live tables between every kind of bad row."""
    archive = Archive(path)
    rows = [LiveRow(table_id, "0", time.time(), _state(table_id)) for table_id in GOOD_IDS]
    archive.put_live(rows)
    archive.close()
    for text in BAD_STATES.values():
        assert isinstance(text, bytes) or text == DEEP or "1e999" in text
    with sqlite3.connect(path) as db:
        for table_id, state in BAD_STATES.items():
            db.execute(
                "INSERT INTO live_tables (id, instance, saved, state) VALUES (?, '0', ?, CAST(? AS TEXT))",
                (table_id, time.time(), state.encode() if isinstance(state, str) else state),
            )


def _restore_all(archive: Archive) -> Lobby:
    async def scenario() -> Lobby:
        lobby = Lobby()
        keeper = Keeper(archive, lobby, instance="0")
        keeper.start()
        for _ in range(500):
            if not lobby.restoring:
                break
            await asyncio.sleep(0.01)
        lobby.freeze()
        keeper.save_all()
        return lobby

    return run_async(scenario())


def test_a_bad_live_row_is_skipped_with_one_log_line_and_every_good_table_comes_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite3"
    _damaged_database(path)
    with caplog.at_level(logging.WARNING, logger="beggar.web.durable"):
        lobby = _restore_all(Archive(path))
    assert sorted(lobby.tables) == GOOD_IDS
    assert not lobby.restoring
    for table_id in BAD_STATES:
        assert sum(table_id in line for line in caplog.messages) == 1, table_id


@pytest.mark.parametrize("bad", ["firstinfxx", "gamesinfxx"])
def test_one_bad_row_does_not_stall_the_restore_of_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, bad: str
) -> None:
    archive = Archive(tmp_path / "games.sqlite3")
    state = BAD_STATES[bad]
    assert isinstance(state, str)
    archive.put_live(
        [LiveRow(table_id, "0", time.time(), _state(table_id)) for table_id in GOOD_IDS]
        + [LiveRow(bad, "0", time.time(), state)]
    )
    with caplog.at_level(logging.WARNING, logger="beggar.web.durable"):
        lobby = _restore_all(archive)
    assert sorted(lobby.tables) == GOOD_IDS and not lobby.restoring
    assert sum(bad in line for line in caplog.messages) == 1


def test_a_row_claiming_more_cards_than_a_live_table_turns_is_refused_at_once() -> None:
    state = json.loads(_state("endlessxxx"))
    state["game"].update(turned=10**15)
    with pytest.raises(RestoreError, match="more than a live table"):
        restore(state)


# -- numbers a person types --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "③", "¹", "٣", "9" * 5000, "-1", "+2", " 2", "1_0", ""])
def test_one_parser_refuses_every_number_that_is_not_plain_ascii_digits_in_bounds(text: str) -> None:
    with pytest.raises(ValueError, match="whole number"):
        rules.parse_whole(text, 0, 10**9, "a seat")


def test_the_number_parser_accepts_plain_digits_within_the_bound() -> None:
    assert rules.parse_whole("0", 0, 7, "a seat") == 0
    assert rules.parse_whole("7", 0, 7, "a seat") == 7
    with pytest.raises(ValueError, match="from 0 to 7"):
        rules.parse_whole("8", 0, 7, "a seat")


@pytest.mark.parametrize(
    "spec",
    [
        "standard:lead=²",
        "standard:lead=③",
        "standard:lead=¹",
        "standard:lead=" + "9" * 5000,
        "standard:players=³",
        "standard:max-cards=٣",
        "standard:max-tricks=" + "9" * 5000,
        "standard:pay=J²",
        "standard:time-limit=٣m",
    ],
)
def test_odd_digits_in_the_rules_are_a_plain_rules_error(spec: str) -> None:
    with pytest.raises(RulesError) as caught:
        rules_named(spec)
    assert len(str(caught.value)) < 300


def test_odd_digits_in_the_cli_rules_are_one_plain_line(capsys: pytest.CaptureFixture[str]) -> None:
    deal = random_deal(seed=SHORT_SEED).format()
    for spec in ("standard:lead=²", "standard:lead=③", "standard:lead=" + "9" * 5000):
        assert run(["play", deal, "--rules", spec]) == 2
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err and len(err.splitlines()) == 1, err
        assert "lead" in err


@pytest.mark.parametrize("rules", ["standard:lead=²", "standard:lead=③"])
def test_odd_digits_over_the_socket_are_an_error_message_and_the_socket_stays(
    client: TestClient, rules: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Browser(ws)
        me.send({"type": "create", "mode": "computer", "rules": rules})
        assert "lead" in me.error()
        me.send({"type": "ping"})
        me.until("pong")


@pytest.mark.parametrize("game_id", ["famous-%C2%B2", "famous-" + "9" * 5000, "famous-%E2%91%A2"])
def test_a_famous_replay_with_odd_digits_is_not_found(client: TestClient, game_id: str) -> None:
    answer = client.get(f"/api/replay/{game_id}")
    assert answer.status_code == 404
    assert "famous" in answer.json()["error"]


# -- finished games that cannot be read -----------------------------------------------------------------


def _archive_with_games(path: Path) -> tuple[Archive, list[str]]:
    archive = Archive(path)
    ids = []
    for seed in range(4):
        game = Game(random_deal(seed=seed), STANDARD)
        game.run()
        ids.append(archive.save(game, ["Ann", "Bea"], mode="friends"))
    archive.close()
    return archive, ids


def test_a_damaged_finished_game_is_a_plain_404_with_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite3"
    _, ids = _archive_with_games(path)
    garbage, bad_deal, bad_names, good = ids
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET game = 'garbage' WHERE id = ?", (garbage,))
        db.execute(
            'UPDATE games SET game = replace(game, \'"deal":"\', \'"deal":"ZZ\') WHERE id = ?', (bad_deal,)
        )
        db.execute("UPDATE games SET names = CAST(X'5B22FF225D' AS TEXT) WHERE id = ?", (bad_names,))
    with (
        TestClient(create_app(ServerSettings(db=path)), raise_server_exceptions=False) as client,
        caplog.at_level(logging.WARNING),
    ):
        for game_id in (garbage, bad_deal, bad_names):
            answer = client.get(f"/api/replay/{game_id}")
            assert answer.status_code == 404, game_id
            assert "damaged" in answer.json()["error"]
            assert client.get(f"/r/{game_id}").status_code in (200, 404)  # the page says what the API says
        assert client.get(f"/api/replay/{good}").status_code == 200
    for game_id in (garbage, bad_deal, bad_names):
        assert sum(game_id in line for line in caplog.messages) == 1
    assert not any(record.exc_info for record in caplog.records)


def test_random_bytes_over_a_page_of_the_file_are_a_plain_404(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    _, ids = _archive_with_games(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = db.execute("PRAGMA page_size").fetchone()[0]
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 2
    with path.open("r+b") as file:
        file.seek(page)  # every page after the first, which holds the schema
        file.write(random.Random(5).randbytes(page * (pages - 1)))
    with TestClient(create_app(ServerSettings(db=path)), raise_server_exceptions=False) as client:
        assert client.get("/healthz").status_code == 200
        for game_id in ids:
            answer = client.get(f"/api/replay/{game_id}")
            assert answer.status_code == 404 and "damaged" in answer.json()["error"]
            assert client.get(f"/r/{game_id}").status_code == 404


# -- the deal of a live table --------------------------------------------------------------------------


def test_live_deals_are_not_drawn_from_a_32_bit_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # With the 32-bit draws pinned, a deal that still varies has its entropy from elsewhere.
    monkeypatch.setattr(secrets, "randbits", lambda bits: 0)
    monkeypatch.setattr(random.SystemRandom, "randrange", lambda self, *args: 0)

    async def deals() -> list[str]:
        lobby = Lobby()
        tables = [
            lobby.open(Mode.FRIENDS, STANDARD, [Seat("Ann", True), Seat("Bea", True)]) for _ in range(3)
        ]
        tables[0].new_game()
        lobby.close_all()
        return [table.deal.format() for table in tables]

    assert len(set(run_async(deals()))) == 3


# -- a rigged deal is shown to everyone -------------------------------------------------------------------


RIGGED = "AAAAKKKKQQQQJJJJ----------/--------------------------"


@pytest.mark.parametrize(
    ("field", "value", "hidden", "told"),
    [
        ("deal", RIGGED, RIGGED, "The table's creator chose this deal."),
        ("seed", 12345, "deal number 12345", "The table's creator chose this deal (deal number 12345)."),
    ],
)
def test_a_chosen_deal_is_said_to_be_chosen_and_shown_only_after_the_game(
    client: TestClient, field: str, value: Any, hidden: str, told: str
) -> None:
    with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
        ann, bea = Socket(first), Socket(second)
        ann.send({"type": "create", "mode": "friends", "name": "Ann", field: value})
        table = ann.until("joined")["table"]
        bea.send({"type": "join", "table": table, "name": "Bea"})
        bea.until("joined")
        state = bea.until("state")
        assert state["cards"] == 0
        # Everyone is told, before the first card, that the creator chose the deal; not what it is.
        assert state["rules"]["title"] == "Friend table, on a deal its creator chose"
        assert any("creator chose the deal" in line["text"] for line in state["log"])
        for socket in (ann, bea):
            socket.send({"type": "watch", "on": True})
        ann.send({"type": "pace", "pace": "instant"})
        end = bea.until("state", lambda s: s["over"] is not None, limit=20_000)
        assert all(hidden not in json.dumps(seen) for seen in bea.seen if seen.get("over") is None)
        # Once the game is over, the end says so, and shows the deal.
        assert end["over"]["notes"] == told
        if field == "deal":
            # The deal as played: the typed one with the number cards' fixed faces (web/faces.py),
            # which no state before the end held either.
            assert parse_deal(end["over"]["deal"]).compact() == RIGGED
            played = end["over"]["deal"]
            assert all(played not in json.dumps(seen) for seen in bea.seen if seen.get("over") is None)


# -- crowds from one address -----------------------------------------------------------------------------


def test_sockets_are_bounded_per_address() -> None:
    with app_client(**{**HOSTILE, "max_sockets_per_address": 3}) as client:
        open_ = [client.websocket_connect("/ws") for _ in range(3)]
        sockets = [each.__enter__() for each in open_]
        try:
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws") as extra:
                extra.receive_json()
            assert refused.value.code == 1008
        finally:
            for each in open_:
                each.__exit__(None, None, None)
        assert len(sockets) == 3
        with client.websocket_connect("/ws") as again:  # a closed socket frees its place
            Browser(again).send({"type": "ping"})
            Browser(again).until("pong")


def test_spectators_are_bounded_per_table() -> None:
    with app_client(**{**HOSTILE, "max_spectators": 2}) as client, client.websocket_connect("/ws") as ws:
        owner = Browser(ws)
        owner.send({"type": "create", "mode": "watch", "pace": "slow"})
        table = owner.until("joined")["table"]
        watchers = [client.websocket_connect("/ws") for _ in range(3)]
        try:
            browsers = [Browser(each.__enter__()) for each in watchers]
            for browser in browsers[:2]:
                browser.send({"type": "join", "table": table})
                browser.until("joined")
            browsers[2].send({"type": "join", "table": table})
            assert "spectators" in browsers[2].error()
        finally:
            for each in watchers:
                each.__exit__(None, None, None)


def test_spectators_of_an_instant_table_get_coalesced_frames(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as watching:
        owner = Browser(ws)
        owner.send(
            {
                "type": "create",
                "mode": "watch",
                "pace": "instant",
                "deal": NEVER_ENDING.deal,
                "rules": "standard:repeat=off:max-cards=1000000",
            }
        )
        table = owner.until("joined")["table"]
        spectator = Browser(watching)
        spectator.send({"type": "join", "table": table})
        assert spectator.until("joined")["seat"] is None
        start, frames = time.monotonic(), 0
        while time.monotonic() - start < 1.0:
            if spectator.ws.receive_json()["type"] == "state":
                frames += 1
        assert 1 <= frames <= 6


# -- a real server: request heads and the log ------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("served")
    log = folder / "server.log"
    with beggar_serve("--db", str(folder / "games.sqlite3"), log=log) as url:
        yield url, log


def test_a_request_head_over_the_limit_is_refused_with_431(served: tuple[str, Path]) -> None:
    url, _ = served
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000)
        answer = conn.recv(200)
    assert answer.startswith(b"HTTP/1.1 431")


@pytest.mark.parametrize("size", [17_000, 60_000])
def test_a_whole_request_head_over_the_limit_in_one_write_is_refused_with_431(
    served: tuple[str, Path], size: int
) -> None:
    url, _ = served
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
        answer = conn.recv(200)
    assert answer.startswith(b"HTTP/1.1 431")
    with urllib.request.urlopen(f"{url}/healthz", timeout=5) as honest:  # an honest head still passes
        assert honest.status == 200


def test_repeated_warnings_are_counted_not_written_one_by_one(served: tuple[str, Path]) -> None:
    url, log = served
    port = int(url.rsplit(":", 1)[1])
    for _ in range(60):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            conn.recv(200)
    with urllib.request.urlopen(f"{url}/healthz", timeout=5) as answer:
        assert answer.status == 200
    assert log.read_text().count("Invalid HTTP request") <= 2


def test_the_summary_counts_what_it_held_back(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("beggar.test.summary")
    summary = beggar.web.logs.summarise_repeats(logger, window=60.0)
    with caplog.at_level(logging.WARNING, logger="beggar.test.summary"):
        for _ in range(50):
            logger.warning("Invalid HTTP request received.")
        summary.flush()
    assert caplog.messages.count("Invalid HTTP request received.") == 1
    assert any("49 more" in line for line in caplog.messages)
    logger.removeFilter(summary)


@pytest.mark.system
def test_a_restart_over_a_damaged_database_restores_every_good_table(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    _, games = _archive_with_games(path)
    _damaged_database(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET game = 'garbage' WHERE id = ?", (games[0],))
        db.execute("UPDATE games SET names = CAST(X'5B22FF225D' AS TEXT) WHERE id = ?", (games[1],))
    log = tmp_path / "server.log"
    with beggar_serve("--db", str(path), log=log) as url:
        for _ in range(100):
            with urllib.request.urlopen(f"{url}/healthz", timeout=5) as answer:
                if json.loads(answer.read())["tables"] == len(GOOD_IDS):
                    break
            time.sleep(0.05)
        else:
            raise AssertionError("the good tables did not come back")
        for game_id in games[:2]:
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"{url}/api/replay/{game_id}", timeout=5)
            assert refused.value.code == 404
        with urllib.request.urlopen(f"{url}/api/replay/{games[2]}", timeout=5) as answer:
            assert answer.status == 200
    text = log.read_text()
    assert "Traceback" not in text
    for key in [*BAD_STATES, *games[:2]]:
        assert text.count(key) == 1, key


# -- smaller things ---------------------------------------------------------------------------------------


def test_a_joiner_cannot_take_the_creators_name(client: TestClient) -> None:
    with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
        ann, other = Browser(first), Browser(second)
        ann.send({"type": "create", "mode": "friends", "name": "Ann"})
        table = ann.until("joined")["table"]
        other.send({"type": "join", "table": table, "name": "ann"})
        other.until("joined")
        names = [seat["name"] for seat in other.until("state")["seats"]]
        assert names[0] == "Ann" and names[1].lower() != "ann"


def test_a_lesson_step_by_step_finishes_at_the_end_of_its_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["lesson", "1"]) == 0
    whole = capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert run(["lesson", "1", "--step"]) == 0
    out, err = capsys.readouterr()
    assert "interrupted" not in err
    assert out.strip() == whole.strip()


# -- one owner for each limit, preset and range -------------------------------------------------------------


def test_the_page_is_told_the_limits_of_this_server() -> None:
    with TestClient(create_app(ServerSettings(db=":memory:", idle_seconds=600))) as client:
        limits = client.get("/api/options").json()["limits"]
    assert limits["idle_minutes"] == 10
    assert limits["players"] == {"min": rules.MIN_PLAYERS, "max": rules.MAX_PLAYERS}
    scripts = Path(beggar.web.app.__file__).parent / "static" / "js"
    assert "30 minutes" not in (scripts / "main.js").read_text()
    assert "[2, 3, 4, 5, 6, 7, 8]" not in (scripts / "home.js").read_text()


def test_every_limit_of_the_server_is_an_option_of_serve_with_its_default() -> None:
    from beggar.commands.serve import serve_command
    from beggar.web import settings

    given = {param.name: param for param in serve_command.params}
    for name, option, default in settings.options():
        assert given[name].default == default, name
        assert option.flag in given[name].opts
    defaults = ServerSettings()
    assert {name for name, _, _ in settings.options()} >= {"max_tables", "idle_seconds", "max_spectators"}
    assert given["idle_seconds"].default * 60 == defaults.idle_seconds


def test_every_preset_is_described_once_in_plain_words() -> None:
    from beggar.web.presets import preset_entries

    entries = {entry["name"]: entry for entry in preset_entries()}
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    for preset in rules.PRESET_LIST:
        assert entries[preset.name]["description"] == preset.description == preset.rules.description
        assert entries[preset.name]["title"] == preset.title
        assert "seed 0" not in preset.description.lower() and "RULES.md" not in preset.description
        assert f"| {preset.title} | {preset.description} |" in page
        assert "docs/" not in preset.description and "seat 0" not in preset.description


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--max-tables", "²"],
        ["serve", "--idle-minutes", "٣"],
        ["serve", "--port", "9" * 5000],
        ["play", "QJ/-A", "--partial", "--seed", "٣"],
        ["deal", "--seed", "1_0"],
    ],
)
def test_numbers_typed_into_options_are_plain_ascii_digits(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert run(args) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "digits 0-9" in err, err


def test_beggar_rules_lists_each_preset_by_the_same_title_and_description(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["rules", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [entry["name"] for entry in listed] == [preset.name for preset in rules.PRESET_LIST]
    for entry in listed:
        preset = rules.PRESET_BY_NAME[entry["name"]]
        assert (entry["title"], entry["description"]) == (preset.title, preset.description)


def test_an_empty_database_file_is_said_in_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"")
    archive = Archive(path)
    with caplog.at_level(logging.WARNING):
        archive.open()
    archive.close()
    assert "empty file (0 bytes)" in caplog.text and str(path) in caplog.text
