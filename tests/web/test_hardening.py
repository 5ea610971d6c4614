"""The table server against a hostile client: nobody can starve the rest or close someone else's table.

Each test is one defect found by a probe of ``beggar serve`` on loopback.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets.sync.client
from proxied import beggar_serve
from starlette.testclient import TestClient
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

import beggar.web.app
from beggar.notation import random_deal
from beggar.records import NEVER_ENDING
from beggar.rules import rules_named
from beggar.web.handler import Connection
from beggar.web.ids import TABLE_ID_LENGTH
from beggar.web.lobby import Lobby
from beggar.web.settings import ServerSettings
from beggar.web.table import Mode, Seat, Table, TableError
from helpers import Socket, app_client, create, run_async


@pytest.fixture
def client_settings() -> dict[str, Any]:
    """One connection may create many tables here: the tests below that count them set their own quota."""
    return {"creates_per_minute": 10_000}


# -- 1. one client cannot fill every table slot -------------------------------------------------------


def test_a_connection_that_creates_again_leaves_the_table_it_made(client: TestClient) -> None:
    lobby = client.app.state.lobby
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        for _ in range(30):
            create(me, mode="watch", deal=NEVER_ENDING.deal, pace="slow", rules="standard")
        assert len(lobby.tables) == 1
    # A watched game waits for its watcher (a reload comes back to it), paused: it costs nothing.
    assert len(lobby.tables) == 1 and all(table.paused for table in lobby.tables.values())


def test_live_tables_are_bounded_per_browser_and_a_new_browser_at_the_address_is_not_refused() -> None:
    with app_client(creates_per_minute=10_000, max_tables_per_browser=3, max_tables_per_address=5) as client:
        mark = client.get("/").cookies.get("beggar-browser")  # the page marks each new browser
        first = {"cookie": f"beggar-browser={mark}"}
        assert mark and client.get("/", headers=first).headers.get("set-cookie") is None
        with client.websocket_connect("/ws", headers=first) as ws:
            me = Socket(ws)
            # No deal numbers: a numbered deal loads the compiled dealer, and what is counted here
            # is tables, whatever their deals.
            for _ in range(3):
                create(me, mode="friends")
            me.send({"type": "create", "mode": "friends"})
            assert "you already have 3 tables open in this browser" in me.error()
        # Another browser in the same household, which opened nothing, is not told it has tables.
        with client.websocket_connect("/ws", headers={"cookie": "beggar-browser=another"}) as ws:
            me = Socket(ws)
            create(me, mode="friends")
            create(me, mode="friends")
            me.send({"type": "create", "mode": "friends"})
            error = me.error()  # the address's ceiling, worded for whoever meets it
            assert "5 tables are open from your network already" in error and "you already" not in error
        assert len(client.app.state.lobby.tables) == 5


def test_creates_are_throttled_per_address_across_connections() -> None:
    with (
        app_client() as client,
        client.websocket_connect("/ws") as ws1,
        client.websocket_connect("/ws") as ws2,
    ):
        a, b = Socket(ws1), Socket(ws2)
        for _ in range(5):
            create(a, mode="computer", pace="slow")
            create(b, mode="computer", pace="slow")
        a.send({"type": "create", "mode": "computer"})
        assert "too many new tables" in a.error()


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("standard:repeat=off:max-cards=2000000", "max-cards can be at most 1,000,000"),
        ("standard:repeat=off:max-tricks=500000", "max-tricks can be at most 100,000"),
        ("standard:time-limit=48h", "time-limit can be at most 24 hours"),
        ("standard:repeat=off:max-cards=" + "9" * 150, "max-cards"),
        ("standard:time-limit=99999999999", "time-limit"),
    ],
)
def test_a_live_table_cannot_run_for_ever(client: TestClient, rules: str, words: str) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send({"type": "create", "mode": "watch", "deal": NEVER_ENDING.deal, "rules": rules})
        assert words in me.error()
    assert not client.app.state.lobby.tables


def test_tables_that_play_themselves_close_when_nobody_watches() -> None:
    run_async(_tables_that_play_themselves())


async def _tables_that_play_themselves() -> None:
    lobby = Lobby()
    rules = rules_named("standard")
    robots = lobby.open(Mode.FRIENDS, rules, [Seat("A", human=False), Seat("B", human=True, automatic=True)])
    people = lobby.open(Mode.FRIENDS, rules, [Seat("A", human=True), Seat("B", human=True)])
    watched = lobby.open(Mode.FRIENDS, rules, [Seat("A", human=False), Seat("B", human=False)])
    watched.listeners.append(lambda table: None)
    assert lobby.close_unwatched() == 1
    assert robots.closed and not people.closed and not watched.closed
    lobby.close_all()


def test_the_lobby_refuses_a_live_table_with_an_absurd_limit() -> None:
    async def open_one() -> None:
        Lobby().open(Mode.WATCH, rules_named("standard:max-tricks=200000"), [Seat("A", human=False)] * 2)

    with pytest.raises(TableError, match="max-tricks"):
        run_async(open_one())


# -- 2. a spectator cannot close someone else's table -------------------------------------------------


@pytest.mark.parametrize("mode", ["computer", "watch", "lesson", "famous"])
def test_a_spectator_leaving_does_not_close_the_table(client: TestClient, mode: str) -> None:
    fields = {"computer": {}, "watch": {}, "lesson": {"lesson": 1}, "famous": {"famous": 0}}[mode]
    lobby = client.app.state.lobby
    with client.websocket_connect("/ws") as owner_ws:
        owner = Socket(owner_ws)
        joined = create(owner, mode=mode, pace="slow", **fields)
        with client.websocket_connect("/ws") as spy_ws:
            spy = Socket(spy_ws)
            spy.send({"type": "join", "table": joined["table"]})
            assert spy.until("joined")["seat"] is None
            spy.send({"type": "leave"})
            spy.until("left")
        assert joined["table"] in lobby.tables
        with client.websocket_connect("/ws") as spy_ws:
            Socket(spy_ws).send({"type": "join", "table": joined["table"]})
        owner.send({"type": "ping"})
        owner.until("pong")
        assert joined["table"] in lobby.tables
    # The owner's going closes it; a game against the computer or a watched one waits for its
    # person's return.
    assert (joined["table"] in lobby.tables) == (mode in ("computer", "watch", "famous"))


# -- 3 and 4. binary frames and deep JSON get an answer, not a traceback ------------------------------


def test_a_binary_frame_gets_an_error_and_counts_against_the_flood_limit(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with app_client(rate=1, burst=3, flood_limit=5) as client, client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        ws.send_bytes(b"\x00\x01binary")
        assert "binary frames are not read" in me.error()
        for _ in range(10):
            ws.send_bytes(b"\xff" * 10)
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(50):
                me.read()
        assert closed.value.code == 1008
    assert "Traceback" not in caplog.text and "KeyError" not in caplog.text


def test_json_nested_a_thousand_deep_gets_the_promised_error(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send("[" * 1000 + "]" * 1000)
        assert "nested too deeply" in me.error()
        me.send({"type": "ping"})
        me.until("pong")


# -- 5. table ids cannot be guessed -------------------------------------------------------------------


def test_table_ids_are_long_and_failed_joins_are_throttled_per_address() -> None:
    assert TABLE_ID_LENGTH >= 10
    with app_client(failed_joins_per_minute=20) as client:
        with client.websocket_connect("/ws") as ws:
            me = Socket(ws)
            joined = create(me, mode="friends")
            assert len(joined["table"]) == TABLE_ID_LENGTH
        answers = []
        for _ in range(4):  # a guesser opening new connections gains nothing
            with client.websocket_connect("/ws") as ws:
                guesser = Socket(ws)
                for guess in range(4):
                    guesser.send({"type": "join", "table": f"guess{guess:05d}"})
                    answers.append(guesser.error())
        assert all("closed or never existed" in answer for answer in answers[:10])
        assert all("too many tries" in answer for answer in answers[10:])
        with client.websocket_connect("/ws") as ws:  # even a real id is refused now, from here
            guesser = Socket(ws)
            guesser.send({"type": "join", "table": joined["table"]})
            assert "too many tries" in guesser.error()


# -- 9. smaller -------------------------------------------------------------------------------------


def test_a_table_of_two_made_from_eight_seat_rules_is_named_for_two(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode="computer", rules="standard:players=8", players=2)
    table_rules = client.app.state.lobby.tables.get(joined["table"])
    assert table_rules is None or table_rules.rules.players == 2
    state = me.state
    assert state is not None and "players=8" not in json.dumps(state["rules"])
    assert state["rules"]["name"] == "standard"  # two players is the preset's own setting
    assert state["rules"]["settings"]["players"] == "2"


def test_a_page_from_another_site_cannot_open_a_socket(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 1008
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        create(Socket(ws), mode="computer", pace="slow")


def test_an_allowed_origin_behind_a_proxy_may_open_a_socket() -> None:
    with (
        app_client(allowed_origins=("https://cards.example",)) as client,
        client.websocket_connect("/ws", headers={"origin": "https://cards.example"}) as ws,
    ):
        create(Socket(ws), mode="computer", pace="slow")


def test_an_origin_forwarded_by_a_proxy_may_open_a_socket(client: TestClient) -> None:
    # Behind a proxy that rewrites Host, the page's own host arrives as X-Forwarded-Host.
    headers = {"origin": "https://cards.example", "x-forwarded-host": "cards.example"}
    with client.websocket_connect("/ws", headers=headers) as ws:
        create(Socket(ws), mode="computer", pace="slow")
    headers = {"origin": "https://evil.example", "x-forwarded-host": "cards.example"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws", headers=headers) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 1008


# -- 9. half-open HTTP requests are timed out ----------------------------------------------------------


@pytest.fixture(scope="module")
def real_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One ``beggar serve`` process for every test of this file that needs a real one: its address
    and its log. Heads are cut off after a second, so that the tests of it wait little."""
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with beggar_serve("--header-timeout", "1", "--db", ":memory:", log=log) as url:
        yield url, log


@pytest.fixture(scope="module")
def served(real_server: tuple[str, Path]) -> tuple[str, int]:
    """The real server's host and port."""
    return "127.0.0.1", int(real_server[0].rsplit(":", 1)[1])


def _closed_within(raw: socket.socket, seconds: float, trickle: bytes = b"") -> float:
    """Seconds until the server closes ``raw`` (sending ``trickle`` over and over, a byte at a
    time, meanwhile)."""
    started = time.monotonic()
    sent = 0
    while time.monotonic() - started < seconds:
        readable, _, _ = select.select([raw], [], [], 0.2)
        if readable:
            try:
                if raw.recv(4096) == b"":
                    return time.monotonic() - started
            except ConnectionResetError:
                return time.monotonic() - started
            continue
        if trickle:
            try:
                raw.sendall(trickle[sent % len(trickle) :][:1])
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - started
            sent += 1
    raise AssertionError(f"the server kept a half-open request for {seconds} seconds")


def test_a_half_open_request_line_is_cut_off(served: tuple[str, int]) -> None:
    with socket.create_connection(served) as raw:
        raw.sendall(b"GET / HTT")
        assert _closed_within(raw, 6) < 3


def test_a_request_head_sent_a_byte_at_a_time_is_cut_off(served: tuple[str, int]) -> None:
    with socket.create_connection(served) as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        assert _closed_within(raw, 6, trickle=b"X-Slow: yes\r\n") < 3


def test_a_half_open_second_request_on_a_kept_connection_is_cut_off(served: tuple[str, int]) -> None:
    with socket.create_connection(served) as raw:
        raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        raw.settimeout(5)
        answer = b""
        while b"}" not in answer:
            answer += raw.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
        raw.settimeout(None)
        raw.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        assert _closed_within(raw, 6) < 3


def test_a_websocket_outlives_the_deadline_for_request_heads(served: tuple[str, int]) -> None:
    host, port = served
    with websockets.sync.client.connect(f"ws://{host}:{port}/ws") as ws:
        time.sleep(2)
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}


# -- 3. on the real server too: frames a client gets wrong close its socket, and log nothing -----------


@pytest.mark.system
def test_a_text_frame_that_is_not_utf8_closes_its_socket_and_logs_no_traceback(
    real_server: tuple[str, Path],
) -> None:
    url, log = real_server
    address = url.replace("http://", "ws://") + "/ws"
    for _ in range(3):
        with websockets.sync.client.connect(address) as ws:
            ws.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    with websockets.sync.client.connect(address) as ws:
        ws.send(b"\x00\x01")  # a binary frame: a plain error reply, and the socket stays open
        assert json.loads(ws.recv(timeout=5))["type"] == "error"
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
    written = log.read_text()  # what the server logged of the three bad frames, before its answer
    assert "Traceback" not in written and "UTF-8" not in written, written


# -- names that break states, and seats held by many sockets -------------------------------------------


def _friend_pair(client: TestClient, ws_a: object, ws_b: object) -> tuple[Socket, Socket, str, str]:
    """Ann's table and Bea seated at it: both sockets, the table id and Bea's token."""
    ann, bea = Socket(ws_a), Socket(ws_b)
    table = create(ann, mode="friends", name="Ann")["table"]
    bea.send({"type": "join", "table": table, "name": "Bea"})
    token = bea.until("joined")["token"]
    ann.until("state", lambda s: not s["waiting_for"])
    return ann, bea, table, token


@pytest.mark.timeout(30)
def test_a_lone_surrogate_in_a_name_is_refused_and_the_table_goes_on(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        ann, bea, table, _ = _friend_pair(client, ws_a, ws_b)
        bea.send('{"type":"rename","name":"\\ud800"}')
        assert "unicode" in bea.error()
        with client.websocket_connect("/ws") as ws_c:  # the same through a join with a name
            spectator = Socket(ws_c)
            spectator.send('{"type":"join","table":"' + table + '","name":"\\udfff"}')
            assert "unicode" in spectator.error()
        ann.send({"type": "ping"})
        ann.until("pong")
        ann.send({"type": "rename", "name": "Ann Lee"})
        ann.until("state", lambda s: any("now called Ann Lee" in line["text"] for line in s["log"]))
        bea.until("state", lambda s: any("now called Ann Lee" in line["text"] for line in s["log"]))
        ann.send('{"type":"create","mode":"friends","name":"\\ud800"}')
        assert "unicode" in ann.error()


@pytest.mark.timeout(30)
def test_a_state_that_cannot_be_sent_closes_the_socket_with_a_word_instead_of_silence(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        ann, bea, table, _ = _friend_pair(client, ws_a, ws_b)
        live = client.app.state.lobby.tables[table]  # type: ignore[attr-defined]

        def poison() -> None:  # a name no state can carry, however it got there
            live.seats[1].name = "\ud800"
            live.changed()

        client.portal.call(poison)  # type: ignore[union-attr]
        for socket_ in (ann, bea):
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(100):
                    socket_.read()
            assert closed.value.code == 1011
    assert "could not be sent" in caplog.text


def _sending(refusal: str) -> tuple[Connection, list[Message]]:
    """A connection on an open socket with a message waiting, whose ASGI server refuses every
    message sent with ``RuntimeError(refusal)`` and takes a close; the list gets what it took."""
    taken: list[Message] = []

    async def receive() -> Message:
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(message: Message) -> None:
        if message["type"] == "websocket.send":
            raise RuntimeError(refusal)
        taken.append(message)

    scope = {"type": "websocket", "path": "/ws", "headers": [], "client": ("127.0.0.1", 1), "path_params": {}}
    websocket = WebSocket(scope, receive, send)
    websocket.client_state = websocket.application_state = WebSocketState.CONNECTED
    connection = Connection(websocket, ServerSettings(), deque())
    connection.send({"type": "pong"})
    return connection, taken


@pytest.mark.timeout(10)
def test_a_send_the_socket_refuses_ends_the_send_loop_quietly(caplog: pytest.LogCaptureFixture) -> None:
    # Closed by the server (Starlette refuses the send itself), by the browser (the reader got its
    # disconnect; the ASGI server refuses the send), or by the ASGI server on its own before the
    # reader hears of it (the state still says connected): a RuntimeError from the send itself
    # tells, whatever its words; nothing is logged, and no close is sent on a closed socket. A
    # fault in making a message is the server's own (the test above: logged, closed with 1011).
    for side in ("application_state", "client_state", None):
        connection, taken = _sending("cannot send: the close of something else failed")
        if side is not None:
            setattr(connection.websocket, side, WebSocketState.DISCONNECTED)
        run_async(connection.sender())
        assert not connection.broken and not taken, side
    assert "could not be sent" not in caplog.text


def test_renames_are_bounded_per_seat_however_many_sockets_hold_it() -> None:
    with (
        app_client(renames_per_minute=6, rename_burst=3, creates_per_minute=100) as client,
        client.websocket_connect("/ws") as ws_a,
        client.websocket_connect("/ws") as ws_b,
    ):
        _, _, table, token = _friend_pair(client, ws_a, ws_b)
        refused = 0
        for copy in range(4):  # four more sockets of Bea's, all holding her seat
            with client.websocket_connect("/ws") as ws:
                again = Socket(ws)
                again.send({"type": "join", "table": table, "token": token})
                again.until("joined")
                for number in range(3):
                    again.send({"type": "rename", "name": f"Bea {copy}{number}"})
                    again.send({"type": "ping"})
                    again.until("pong")
                    refused += sum("times a minute" in str(m.get("message")) for m in again.seen)
                    again.seen.clear()
        live = client.app.state.lobby.tables[table]  # type: ignore[attr-defined]
        renamed = [line for line in live.log if "is now called" in line["text"]]
        assert len(renamed) <= 4 and refused >= 8


def test_play_for_a_computer_seat_says_it_is_the_computer() -> None:
    three = rules_named("standard:players=3")
    seats = [Seat("Ann", human=True), Seat("Bea", human=True), Seat("Robin", human=False)]
    table = Table("robinabcde", Mode.FRIENDS, three, seats, random_deal(three, 5))
    table.take_seat(0, "a")
    table.take_seat(1, "b")
    with pytest.raises(TableError) as refused:
        table.play_for(0, 2)
    assert "is here" not in str(refused.value) and "Robin is the computer" in str(refused.value)


# -- replays: built once, bounded per address, never on the event loop ---------------------------------


def test_a_famous_replay_is_built_once_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    original = beggar.web.app.replay_famous

    def counted(game: Any) -> dict[str, Any]:
        built.append(1)
        return original(game)

    monkeypatch.setattr(beggar.web.app, "replay_famous", counted)
    with app_client() as client:
        answers = [client.get("/api/replay/famous-0") for _ in range(3)]
    assert all(answer.status_code == 200 for answer in answers)
    assert answers[0].json() == answers[2].json() and len(built) == 1


def test_replays_are_bounded_per_address() -> None:
    with app_client(replays_per_minute=1, replay_burst=3) as client:
        codes = [client.get("/api/replay/famous-0").status_code for _ in range(5)]
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]


@pytest.mark.timeout(60)
def test_a_flood_of_replay_requests_does_not_stall_another_clients_pings() -> None:
    """Four clients ask for the largest famous replay in a loop; a player pings meanwhile. Every
    answer but the first is the kept one: the player's pings stay quick (measured: the worst of
    them is printed)."""
    with app_client(replay_burst=10_000, replays_per_minute=1_000_000) as client:
        stop = threading.Event()
        asked = [0]

        def flood() -> None:
            while not stop.is_set():
                client.get("/api/replay/famous-8", headers={"accept-encoding": "identity"})
                asked[0] += 1

        with client.websocket_connect("/ws") as ws:
            me = Socket(ws)
            threads = [threading.Thread(target=flood) for _ in range(4)]
            for thread in threads:
                thread.start()
            try:
                waits = []
                # Pings go on until the flood has been answered 40 times (the first answer is built,
                # every later one kept), however long a loaded machine takes to get there.
                deadline = time.monotonic() + 120.0
                while asked[0] < 40 and time.monotonic() < deadline:
                    start = time.monotonic()
                    me.send({"type": "ping"})
                    me.until("pong")
                    waits.append(time.monotonic() - start)
            finally:
                stop.set()
                for thread in threads:
                    thread.join()
    waits.sort()
    print(
        f"replays served: {asked[0]}; pings: {len(waits)}, median {waits[len(waits) // 2] * 1000:.1f} ms, "
        f"worst {waits[-1] * 1000:.1f} ms"
    )
    assert asked[0] >= 40
    # Measured on 2 busy cores: a median of 8 ms (worst 47 ms); before, 3.9 s. The bound leaves room
    # for a loaded machine.
    assert waits[len(waits) // 2] < 0.25


def test_a_refused_name_at_a_join_still_seats_the_person_and_says_why(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        ann = Socket(ws_a)
        table = create(ann, mode="friends", name="Ann")["table"]
        bea = Socket(ws_b)
        bea.send({"type": "join", "table": table, "name": "You"})
        assert bea.until("joined")["seat"] == 1
        error = bea.error()
        assert "word the table uses for people" in error and "without a name for now" in error
        bea.send({"type": "rename", "name": "Аnn"})  # Ann's look-alike, with a Cyrillic А
        ann.until("state", lambda s: any("Аnn 2" in line["text"] for line in s["log"]))
