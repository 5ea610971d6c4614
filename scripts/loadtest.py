"""Load benchmark for the browser table (run by hand; not a test).

Opens N tables on loopback, each playing at instant pace (both seats automatic, a new game as soon
as one ends) with a spectator attached, and reports state updates and cards per second and the
delay of each update: from the oldest change it carries to its arrival at the browser.

    .venv/bin/python scripts/loadtest.py --tables 500 --seconds 20

Without ``--url`` it starts its own ``beggar serve`` (one process) on a free loopback port. With
``--url`` it measures a running server, or several behind a proxy, prefix included:

    .venv/bin/python scripts/loadtest.py --url wss://127.0.0.1/cards/ws --insecure

Each table's sockets open at ``<url>/<table id>``, as the page's do, so that a proxy routing by
table id (scripts/deploy/nginx.conf) sends both to the process that holds the table; the
server-side figures are then those of every process that answers ``/healthz``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import websockets

from beggar.web.tables import new_table_id


@dataclass
class Stats:
    measuring: bool = False
    updates: int = 0
    cards: int = 0
    delays: list[float] = field(default_factory=list)
    """From the oldest change an update carries to its arrival."""
    staleness: list[float] = field(default_factory=list)
    """From the newest change an update carries to its arrival."""
    errors: list[str] = field(default_factory=list)
    tables: int = 0


async def reader(ws: websockets.ClientConnection, stats: Stats, creator: bool, stop: asyncio.Event) -> None:
    last_cards = 0
    last_game = -1
    restarted_at = -1
    try:
        async for text in ws:
            if stop.is_set():
                return
            message = orjson.loads(text)
            if message["type"] == "error":
                stats.errors.append(message["message"])
                continue
            if message["type"] != "state":
                continue
            now = time.time()
            cards = message["cards"]
            game = message["games_played"]
            if stats.measuring:
                stats.updates += 1
                if message.get("since"):
                    stats.delays.append(now - message["since"])
                stats.staleness.append(now - message["at"])
                if not creator:
                    # Cards since the last update; a new game (or several) may have started since.
                    stats.cards += cards - last_cards if game == last_game else cards
            last_cards, last_game = cards, game
            if creator and message["over"] is not None and restarted_at != game:
                restarted_at = game
                await ws.send(json.dumps({"type": "new-game"}))
    except websockets.ConnectionClosed as exc:
        if not stop.is_set():
            stats.errors.append(f"connection closed: {exc}")


TABLES_PER_ADDRESS = 8
"""Tables each simulated person opens: within the server's per-address quotas (10 creates at once)."""


def source_address(url: str, index: int) -> dict[str, object]:
    """Where table ``index``'s sockets come from: on loopback, one address per few tables.

    The server limits what one network address may do (20 live tables, 30 new ones a minute), so
    hundreds of tables from one address would be refused. On loopback every 127.x.y.z is this
    machine, and a proxy passes the address on (X-Forwarded-For), so each few tables come from
    an address of their own, as from different people.
    """
    host = urlsplit(url).hostname or ""
    if not (host == "localhost" or host.startswith("127.")):
        return {}
    person = index // TABLES_PER_ADDRESS
    return {"local_addr": (f"127.0.{person // 250 + 1}.{person % 250 + 1}", 0)}


async def one_table(
    url: str, index: int, stats: Stats, stop: asyncio.Event, context: ssl.SSLContext | None
) -> None:
    try:
        await play_table(url, index, stats, stop, context)
    except (OSError, TimeoutError, websockets.InvalidHandshake) as exc:
        stats.errors.append(f"table {index} could not open: {exc!r}")


async def play_table(
    url: str, index: int, stats: Stats, stop: asyncio.Event, context: ssl.SSLContext | None
) -> None:
    table = f"{url.rstrip('/')}/{new_table_id()}"
    source = source_address(url, index)
    async with (
        websockets.connect(table, ssl=context, open_timeout=60, **source) as creator,
        websockets.connect(table, ssl=context, open_timeout=60, **source) as watcher,
    ):
        await creator.send(
            json.dumps(
                {"type": "create", "mode": "watch", "pace": "instant", "seed": index, "rules": "standard"}
            )
        )
        while True:
            message = json.loads(await creator.recv())
            if message["type"] == "joined":
                break
            if message["type"] == "error":
                stats.errors.append(message["message"])
                return
        await watcher.send(json.dumps({"type": "join", "table": message["table"]}))
        stats.tables += 1
        readers = [
            asyncio.create_task(reader(creator, stats, True, stop)),
            asyncio.create_task(reader(watcher, stats, False, stop)),
        ]
        await stop.wait()
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


async def run(url: str, tables: int, seconds: float, warmup: float, context: ssl.SSLContext | None) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    for index in range(tables):
        tasks.append(asyncio.create_task(one_table(url, index, stats, stop, context)))
        if index % 50 == 49:
            await asyncio.sleep(0.05)
    # Measure only once every table plays (through a proxy, with TLS, opening them takes a while).
    opening = time.monotonic()
    while stats.tables + len(stats.errors) < tables and time.monotonic() - opening < 120:
        await asyncio.sleep(0.1)
    print(f"tables opened in:    {time.monotonic() - opening:.1f} s")
    await asyncio.sleep(warmup)
    stats.measuring = True
    started = time.monotonic()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.monotonic() - started
    health = await server_side(url, context)  # while the tables still play
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats.delays.sort()
    stats.staleness.sort()
    report(stats, elapsed)
    for line in health:
        print(line)
    return stats


async def server_side(url: str, context: ssl.SSLContext | None) -> list[str]:
    """The servers' own figures: how late updates left them (no load-generator lag included).

    Behind a proxy, ``/healthz`` is answered by any process: it is asked a few times, and each
    process that answers (by its ``instance`` name) is reported once.
    """
    import urllib.request

    scheme, rest = url.split("://", 1)
    base = rest.rstrip("/").removesuffix("/ws")
    health = f"{'https' if scheme == 'wss' else 'http'}://{base}/healthz"
    loop = asyncio.get_running_loop()
    seen: dict[str, dict[str, object]] = {}
    for _ in range(8):
        data = await loop.run_in_executor(
            None, lambda: urllib.request.urlopen(health, timeout=10, context=context).read()
        )
        answer = json.loads(data)
        seen.setdefault(str(answer.get("instance", "0")), answer)
    lines = []
    for instance, answer in sorted(seen.items()):
        delay = answer["update_delay_ms"]
        if isinstance(delay, dict):
            p50, p99 = delay["p50"], delay["p99"]
            lines.append(
                f"server-side delay (oldest change to sent), process {instance} with "
                f"{answer['tables']} tables: p50 {p50} ms, p99 {p99} ms"
            )
    return lines


def report(stats: Stats, elapsed: float) -> None:
    def percentile(values: list[float], q: float) -> float:
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))] * 1000

    print(f"tables playing:      {stats.tables}")
    print(f"measured for:        {elapsed:.1f} s")
    print(f"state updates/s:     {stats.updates / elapsed:,.0f} (to players and spectators)")
    print(f"cards turned/s:      {stats.cards / elapsed:,.0f} (all tables together)")
    for name, values in (("oldest change", stats.delays), ("newest change", stats.staleness)):
        p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
        mean = statistics.fmean(values or [float("nan")]) * 1000
        print(f"delay from {name}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, mean {mean:.1f} ms")
    print(
        f"errors:              {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else "")
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--url",
        help="a running server's WebSocket, e.g. ws://127.0.0.1:8000/ws, or a proxy's, prefix "
        "included: wss://cards.example/cards/ws",
    )
    parser.add_argument(
        "--insecure", action="store_true", help="accept the proxy's self-signed certificate (wss://)"
    )
    args = parser.parse_args()
    context = None
    if args.insecure:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    server = None
    url = args.url
    if url is None:
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "beggar",
            "serve",
            "--port",
            str(port),
            "--max-tables",
            str(args.tables * 2),
            "--db",  # a fresh database: tables saved by an earlier run would be restored and play
            str(Path(tempfile.mkdtemp(prefix="beggar-loadtest-")) / "games.sqlite3"),
        ]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        url = f"ws://127.0.0.1:{port}/ws"
        time.sleep(2.5)
    try:
        asyncio.run(run(url, args.tables, args.seconds, args.warmup, context))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
