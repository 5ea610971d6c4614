"""The table behind a real reverse proxy: a path prefix, forwarded headers, ``wss://``, and several
server processes, each table living in one of them and reached by its id.

The last test runs Debian's nginx with the configuration docs/deploying.md documents
(``scripts/deploy/nginx.conf``) in front of two ``beggar serve`` processes and plays a friend game
through it in Chromium.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets.exceptions
import websockets.sync.client
from proxied import NGINX_CONF, Proxied, beggar_serve, deployed_config, find_nginx, proxied
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from beggar.web.app import create_app
from beggar.web.ids import TABLE_ID_LENGTH, is_table_id, new_table_id
from beggar.web.settings import ServerSettings
from helpers import SHORT_SEED, Socket, create, open_settings, opened, shared_facts

pytestmark = pytest.mark.system


@pytest.fixture
def client_settings() -> dict[str, Any]:
    """The server as uvicorn runs it with ``--root-path /cards``: each path starts with the prefix."""
    return {"instance": "b", "root_path": "/cards"}


# -- under a path prefix ---------------------------------------------------------------------------


def test_the_page_is_based_at_the_prefix_and_names_no_absolute_path(client: TestClient) -> None:
    page = client.get("/cards/").text
    assert '<base href="/cards/">' in page
    assert client.get("/cards/t/abcdefghjk").text == page  # the same page, whatever its depth
    # Every address in the page is relative to the base, so that it works under any prefix.
    rest = page.replace('<base href="/cards/">', "")
    assert not [part for part in ('src="/', 'href="/', "url(/") if part in rest]
    assert client.get("/cards/static/js/main.js").status_code == 200


def test_no_script_builds_an_address_from_the_site_root() -> None:
    static = Path(create_app.__code__.co_filename).parent / "static"
    for script in sorted((static / "js").glob("*.js")):
        text = script.read_text()
        for absolute in ('"/', "`/", "'/", "location.host", "location.origin"):
            assert absolute not in text, f"{script.name} builds an address from the root: {absolute}"
    assert "url(/" not in (static / "style.css").read_text()


def test_a_table_link_carries_the_prefix(client: TestClient) -> None:
    with client.websocket_connect("/cards/ws") as ws:
        joined = create(Socket(ws), mode="friends", seed=SHORT_SEED)
    assert joined["link"] == f"/cards/t/{joined['table']}"


def test_the_health_check_names_the_process(client: TestClient) -> None:
    assert client.get("/cards/healthz").json()["instance"] == "b"


# -- a table's id before its socket opens, for routing by id ------------------------------------------


def test_a_fresh_table_id_is_given_by_any_process_and_never_cached(client: TestClient) -> None:
    first, second = (client.get("/cards/api/table-id") for _ in range(2))
    assert first.headers["cache-control"] == "no-store"
    ids = {first.json()["table"], second.json()["table"]}
    assert len(ids) == 2 and all(is_table_id(each) and len(each) == TABLE_ID_LENGTH for each in ids)


def test_a_table_created_on_its_own_socket_has_that_id_and_a_friend_joins_it_there(
    client: TestClient,
) -> None:
    table_id = client.get("/cards/api/table-id").json()["table"]
    with (
        client.websocket_connect(f"/cards/ws/{table_id}") as host_ws,
        client.websocket_connect(f"/cards/ws/{table_id}") as guest_ws,
    ):
        host, guest = Socket(host_ws), Socket(guest_ws)
        joined = create(host, mode="friends", seed=SHORT_SEED)
        assert joined["table"] == table_id and joined["link"] == f"/cards/t/{table_id}"
        guest.send({"type": "join", "table": table_id})
        assert guest.until("joined")["seat"] == 1
        host.until("state", lambda state: not state["waiting_for"])


def test_a_socket_for_one_table_cannot_open_or_join_another(client: TestClient) -> None:
    mine, other = new_table_id(), new_table_id()
    with client.websocket_connect(f"/cards/ws/{other}") as ws:
        create(Socket(ws), mode="friends", seed=SHORT_SEED)
    with client.websocket_connect(f"/cards/ws/{mine}") as ws:
        me = Socket(ws)
        me.send({"type": "join", "table": other})
        assert f"this connection is for table {mine}" in me.error()
        create(me, mode="computer", pace="slow")
        me.send({"type": "create", "mode": "computer"})  # the id is its own table's now
        assert "a table with this id is open already" in me.error()
    # Nothing else was opened; the game against the computer waits for its player's return.
    assert set(client.app.state.lobby.tables) == {other, mine}


@pytest.mark.parametrize("table_id", ["ABCDEFGHJK", "abcdefghj", "abcdefghjkm", "abcdefghj1", "abcdefghi0"])
def test_a_malformed_table_id_opens_nothing(client: TestClient, table_id: str) -> None:
    with client.websocket_connect(f"/cards/ws/{table_id}") as ws:
        me = Socket(ws)
        me.send({"type": "create", "mode": "friends"})
        assert f"a table id is {TABLE_ID_LENGTH} of the letters and digits" in me.error()
    assert not client.app.state.lobby.tables


def test_a_taken_table_id_is_refused_and_the_limits_still_hold() -> None:
    settings = ServerSettings(rate=1000, burst=1000, db=":memory:", max_tables_per_address=2)
    with TestClient(create_app(settings)) as client:
        taken = new_table_id()
        with client.websocket_connect(f"/ws/{taken}") as ws:
            create(Socket(ws), mode="friends", seed=SHORT_SEED)
        with client.websocket_connect(f"/ws/{taken}") as ws:
            me = Socket(ws)
            me.send({"type": "create", "mode": "friends"})
            assert "a table with this id is open already" in me.error()
        with client.websocket_connect(f"/ws/{new_table_id()}") as ws:
            create(Socket(ws), mode="friends", seed=SHORT_SEED)
        with client.websocket_connect(f"/ws/{new_table_id()}") as ws:
            me = Socket(ws)
            me.send({"type": "create", "mode": "friends"})
            assert "2 tables are open from your network already" in me.error()
        assert len(client.app.state.lobby.tables) == 2


def test_the_socket_of_a_table_checks_the_origin_too(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(
            f"/cards/ws/{new_table_id()}", headers={"origin": "https://evil.example"}
        ) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 1008


def test_serve_refuses_a_root_path_that_is_not_a_path() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "beggar", "serve", "--root-path", "cards"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(create_app.__code__.co_filename).parents[2])},
        check=False,
    )
    assert result.returncode != 0
    assert result.stderr.startswith("beggar: ") and "--root-path" in result.stderr
    assert result.stderr.count("\n") == 1


# -- forwarded headers ---------------------------------------------------------------------------------


def _create(ws: Any) -> str:
    """Create a table on ``ws``; "joined" or "error"."""
    ws.send(json.dumps({"type": "create", "mode": "computer", "pace": "slow"}))
    while (reply := json.loads(ws.recv(timeout=10)))["type"] not in ("joined", "error"):
        pass
    return str(reply["type"])


def _second_address_may_create(url: str) -> bool:
    """Spend the creates of a client claiming to be 203.0.113.7, then try one as 203.0.113.8."""
    connect = websockets.sync.client.connect
    with (
        connect(url, additional_headers={"x-forwarded-for": "203.0.113.7"}) as first,
        connect(url, additional_headers={"x-forwarded-for": "203.0.113.8"}) as second,
    ):
        made = 0
        while _create(first) == "joined":
            made += 1
            assert made <= 30, "creates from one address are not limited"
        assert made >= 10  # ten at once, then a few more as the minute's allowance refills
        return _create(second) == "joined"  # at once: the allowance refills one create in 2 s


def test_the_limits_count_the_client_a_trusted_proxy_names() -> None:
    # From a proxy on loopback (trusted by default), each client it names has its own allowance.
    with beggar_serve("--db", ":memory:") as url:
        assert _second_address_may_create(url.replace("http://", "ws://") + "/ws")
    # A header from anywhere else is not believed: every client is the one loopback address.
    with beggar_serve("--db", ":memory:", "--forwarded-allow-ips", "192.0.2.1") as url:
        assert not _second_address_may_create(url.replace("http://", "ws://") + "/ws")


# -- nginx in front of two processes, a friend game in Chromium -------------------------------------


@pytest.fixture(scope="module")
def proxy() -> Iterator[Proxied]:
    """nginx on https://127.0.0.1:<port>/cards/, configured as documented, in front of two processes."""
    if find_nginx() is None:
        if os.environ.get("CI"):
            raise RuntimeError("Debian's nginx and openssl are needed: apt-get install nginx openssl")
        pytest.skip("Debian's nginx (or openssl, for its certificate) is not installed")
    with proxied(2) as running:
        yield running


def test_the_deployed_config_changes_only_ports_addresses_and_certificate(tmp_path: Path) -> None:
    documented = NGINX_CONF.read_text()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    tested = deployed_config(9443, 9080, [9001, 9002, 9003], cert, key)
    dropped = set(documented.splitlines()) - set(tested.splitlines())
    assert dropped == {
        "    listen 80;",
        "    listen 443 ssl;",
        "    ssl_certificate /etc/letsencrypt/live/cards.example/fullchain.pem;",
        "    ssl_certificate_key /etc/letsencrypt/live/cards.example/privkey.pem;",
        "    server 127.0.0.1:8001;",
        "    server 127.0.0.1:8002;",
        "    server 127.0.0.1:8001 max_fails=0;",
        "    server 127.0.0.1:8002 max_fails=0;",
    }
    assert tested.count("server 127.0.0.1:900") == 6  # three processes in each upstream
    assert "hash $beggar_table consistent;" in tested


def _health(backend: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(urllib.request.urlopen(f"{backend}/healthz", timeout=5).read())
    return data


def test_tables_are_spread_over_both_processes_and_each_is_reached_by_its_id(proxy: Proxied) -> None:
    socket_url = f"wss://127.0.0.1:{proxy.port}/cards/ws/"
    origin = {"origin": f"https://127.0.0.1:{proxy.port}"}
    with contextlib.ExitStack() as sockets:
        for _ in range(40):
            table_id = new_table_id()
            ws = sockets.enter_context(
                websockets.sync.client.connect(
                    socket_url + table_id, ssl=proxy.context, additional_headers=origin
                )
            )
            # No deal number: a numbered deal loads the compiled dealer, seconds of a processor in
            # each process, and where a table lives does not depend on its deal.
            ws.send(json.dumps({"type": "create", "mode": "friends"}))
            reply = json.loads(ws.recv(timeout=60))
            if reply["type"] == "joined":  # else a process's create limit: try another id
                assert reply["table"] == table_id and reply["link"] == f"/cards/t/{table_id}"
                # Another connection with the id reaches the same table: it takes the free seat.
                with websockets.sync.client.connect(
                    socket_url + table_id, ssl=proxy.context, additional_headers=origin
                ) as friend:
                    friend.send(json.dumps({"type": "join", "table": table_id}))
                    assert json.loads(friend.recv(timeout=60))["seat"] == 1
            if all(_health(backend)["tables"] for backend in proxy.backends):
                break
        counts = [_health(backend)["tables"] for backend in proxy.backends]
        assert all(counts), f"every table landed on one process: {counts}"
    with pytest.raises(websockets.exceptions.InvalidStatus):
        websockets.sync.client.connect(
            socket_url + new_table_id(),
            ssl=proxy.context,
            additional_headers={"origin": "https://evil.example"},
        )


def test_two_friends_play_a_game_through_the_proxy(proxy: Proxied, browser: Any) -> None:
    before = sum(_health(backend)["tables"] for backend in proxy.backends)
    sockets: list[str] = []
    with (
        opened(browser, ignore_https_errors=True) as host,
        opened(browser, ignore_https_errors=True) as guest,
    ):
        pages = [host, guest]
        for page in pages:
            page.on("websocket", lambda ws: sockets.append(ws.url))
        host.goto(proxy.url)
        open_settings(host, seed=str(SHORT_SEED), name="Ann", pace="instant")  # no trick waits to be seen
        host.click("#play-friend")
        host.wait_for_function("document.querySelector('#share-link').value.includes('/cards/t/')")
        link = host.locator("#share-link").input_value()
        table_id = link.rsplit("/", 1)[1]
        assert link == f"{proxy.url}t/{table_id}"
        assert host.evaluate("location.href") == link
        guest.goto(link)
        guest.wait_for_selector("#table:not([hidden])")
        guest.fill("#sit-name", "Bea")  # asked before sitting down
        guest.click("#sit-name-save")
        guest.wait_for_function("document.querySelector('#seats').innerText.includes('Bea (you)')")  # seated
        # The skip link moves the focus to the game without leaving the table (under a <base>,
        # a plain "#main" would lead to the home page).
        guest.focus("#skip")
        guest.keyboard.press("Enter")
        guest.wait_for_function("document.activeElement.id === 'main'")
        assert guest.evaluate("location.href") == link
        host.wait_for_function("!document.querySelector('#seats').innerText.includes('waiting to join')")
        # Each page turns its own cards until the end: clicks from the page itself, every 40 ms (a
        # button that is disabled at that moment ignores it), with nothing to ask of Python between.
        for each in pages:
            each.evaluate(
                """() => {
                  const clicking = setInterval(() => {
                    if (document.querySelector('#end').open) clearInterval(clicking);
                    else document.querySelector('#turn').click();
                  }, 40);
                }"""
            )
        for each in pages:
            each.wait_for_function("document.querySelector('#end').open", polling=100, timeout=90_000)
        # The same facts, but the result is said from each seat.
        assert shared_facts(host) == shared_facts(guest)
        assert host.inner_text("#end-title") == "You lost: Bea took all 52 cards."
        assert guest.inner_text("#end-title") == "You won: you took all 52 cards."
        assert host.inner_text("#end-facts").startswith("Cards turned\n40")
        # Both pages opened the same table's socket, over TLS, under the prefix.
        assert set(sockets) == {f"wss://127.0.0.1:{proxy.port}/cards/ws/{table_id}"}
        assert len(sockets) == 2
        # The table lives in exactly one of the two processes.
        assert sum(_health(backend)["tables"] for backend in proxy.backends) == before + 1
        # The replay link works under the prefix too, from whichever process answers.
        replay = host.locator("#end-link").input_value()
        assert replay.startswith(f"{proxy.url}r/")
        guest.goto(replay)
        guest.wait_for_selector("#replay:not([hidden])")
        guest.wait_for_function("document.querySelector('#scrub')?.max > 0")
