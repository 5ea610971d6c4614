"""Load benchmark for the browser table (run by hand; not a test).

Opens N tables on loopback, each playing itself (both seats automatic, a new game as soon as one
ends) with a spectator attached, and reports state updates and cards per second and the delay of
each update: from the oldest change it carries to its arrival at the browser.

    .venv/bin/python scripts/loadtest.py --tables 500 --seconds 20
    .venv/bin/python scripts/loadtest.py --tables 2000 --pace normal

``--pace instant`` (the default) turns cards as fast as the server's card budget allows;
``--pace normal`` turns a card a second at every table, as people watching a game see it. Each
table's two connections come from their own loopback address (127.1.x.y), as two people at their
own computers would, so the server's per-address limits on new tables apply as they do in use.

Without ``--url`` it starts its own ``beggar serve`` (one process) on a free loopback port, with a
throw-away database. With ``--url`` it measures a running server, or several behind a proxy,
prefix included:

    .venv/bin/python scripts/loadtest.py --url wss://127.0.0.1/cards/ws --insecure

Each table's sockets open at ``<url>/<table id>``, as the page's do, so that a proxy routing by
table id (scripts/deploy/nginx.conf) sends both to the process that holds the table; the
server-side figures are then the worst of every process that answers ``/healthz``.
``--json`` prints one line of figures for ``scripts/capacity.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import websockets
from proxied import free_port

from beggar.web.ids import new_table_id

PACES = ("instant", "fast", "normal", "slow")
OPENING = 20
"""Tables being opened at once."""


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


@dataclass
class Result:
    """One run's figures (milliseconds for delays)."""

    tables: int
    pace: str
    seconds: float
    updates_per_s: float
    cards_per_s: float
    p50: float
    p99: float
    mean: float
    newest_p50: float
    newest_p99: float
    server_p50: float | None
    server_p99: float | None
    server_cpu: float | None
    """Share of one core the server process used while measuring (1.0: one core, busy)."""
    client_cpu: float
    """Share of one core this load client used while measuring (it shares the machine)."""
    errors: int
    first_error: str | None


def source_address(url: str, index: int) -> dict[str, Any]:
    """Where table ``index``'s sockets come from: on loopback, an address of its own (127.1.x.y).

    The server limits what one network address may do (20 live tables, 30 new ones a minute); on
    loopback every 127.x.y.z is this machine, and a proxy passes the address on (X-Forwarded-For),
    so each table comes from its own address, as from different people.
    """
    host = urlsplit(url).hostname or ""
    if not (host == "localhost" or host.startswith("127.")):
        return {}
    return {"local_addr": (f"127.1.{index // 250}.{index % 250 + 1}", 0)}


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


async def open_table(
    url: str, index: int, pace: str, stats: Stats, context: ssl.SSLContext | None
) -> tuple[websockets.ClientConnection, websockets.ClientConnection] | None:
    """Create table ``index`` and sit a spectator at it; None (an error noted) if that fails."""
    table = f"{url.rstrip('/')}/{new_table_id()}"
    options = {"ssl": context, "open_timeout": 60, "max_size": 2**22, **source_address(url, index)}
    creator = await websockets.connect(table, **options)
    try:
        create = {"type": "create", "mode": "watch", "pace": pace, "seed": index, "rules": "standard"}
        await creator.send(json.dumps(create))
        while True:
            message = json.loads(await creator.recv())
            if message["type"] == "joined":
                break
            if message["type"] == "error":
                stats.errors.append(message["message"])
                await creator.close()
                return None
        watcher = await websockets.connect(table, **options)
    except BaseException:
        await creator.close()
        raise
    await watcher.send(json.dumps({"type": "join", "table": message["table"]}))
    return creator, watcher


async def one_table(
    url: str,
    index: int,
    pace: str,
    stats: Stats,
    stop: asyncio.Event,
    opening: asyncio.Semaphore,
    context: ssl.SSLContext | None,
) -> None:
    try:
        async with opening:  # a few tables open at a time, as people arrive
            pair = await open_table(url, index, pace, stats, context)
    except (OSError, TimeoutError, websockets.WebSocketException) as exc:
        stats.errors.append(f"table {index} could not open: {exc!r}")
        return
    if pair is None:
        return
    stats.tables += 1
    creator, watcher = pair
    readers = [
        asyncio.create_task(reader(creator, stats, True, stop)),
        asyncio.create_task(reader(watcher, stats, False, stop)),
    ]
    await stop.wait()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    await asyncio.gather(creator.close(), watcher.close(), return_exceptions=True)


def cpu_seconds(pid: int | None) -> float | None:
    """User and system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(
    url: str,
    tables: int,
    seconds: float,
    warmup: float,
    pace: str,
    server_pid: int | None,
    context: ssl.SSLContext | None = None,
) -> tuple[Stats, float, float | None, float]:
    stats = Stats()
    stop = asyncio.Event()
    opening = asyncio.Semaphore(OPENING)
    tasks = [
        asyncio.create_task(one_table(url, i, pace, stats, stop, opening, context)) for i in range(tables)
    ]
    # Measure once every table is open (or has failed to open), after a warm-up.
    started_opening = time.monotonic()
    while stats.tables + len(stats.errors) < tables and time.monotonic() - started_opening < 180:
        await asyncio.sleep(0.1)
    print(f"tables opened in:    {time.monotonic() - started_opening:.1f} s", file=sys.stderr)
    await asyncio.sleep(warmup)
    stats.measuring = True
    cpu_before = cpu_seconds(server_pid)
    client_before = time.process_time()
    started = time.monotonic()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.monotonic() - started
    cpu_after = cpu_seconds(server_pid)
    client = (time.process_time() - client_before) / elapsed
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats.delays.sort()
    stats.staleness.sort()
    cpu = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / elapsed
    return stats, elapsed, cpu, client


def server_side(url: str, context: ssl.SSLContext | None = None) -> dict[str, float] | None:
    """The servers' own figures: how late updates left them (no load-generator lag included).

    Behind a proxy, ``/healthz`` is answered by any process: it is asked a few times, and the
    worst p50 and p99 of the processes that answer (by their ``instance`` name) are kept.
    """
    scheme, rest = url.split("://", 1)
    base = rest.rstrip("/").removesuffix("/ws")
    health = f"{'https' if scheme == 'wss' else 'http'}://{base}/healthz"
    seen: dict[str, dict[str, float]] = {}
    for _ in range(8):
        answer = json.loads(urllib.request.urlopen(health, timeout=10, context=context).read())
        if isinstance(answer.get("update_delay_ms"), dict):
            seen.setdefault(str(answer.get("instance", "0")), answer["update_delay_ms"])
    if not seen:
        return None
    if len(seen) > 1:
        for instance, delay in sorted(seen.items()):
            print(f"server-side delay, process {instance}: p50 {delay['p50']} ms, p99 {delay['p99']} ms")
    return {q: max(delay[q] for delay in seen.values()) for q in ("p50", "p99")}


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values`` in milliseconds (nan when there are none)."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def summarize(
    stats: Stats,
    elapsed: float,
    pace: str,
    server: dict[str, float] | None,
    cpu: float | None,
    client: float,
) -> Result:
    return Result(
        tables=stats.tables,
        pace=pace,
        seconds=round(elapsed, 1),
        updates_per_s=round(stats.updates / elapsed, 1),
        cards_per_s=round(stats.cards / elapsed, 1),
        p50=round(percentile(stats.delays, 0.5), 1),
        p99=round(percentile(stats.delays, 0.99), 1),
        mean=round(statistics.fmean(stats.delays or [float("nan")]) * 1000, 1),
        newest_p50=round(percentile(stats.staleness, 0.5), 1),
        newest_p99=round(percentile(stats.staleness, 0.99), 1),
        server_p50=None if server is None else server["p50"],
        server_p99=None if server is None else server["p99"],
        server_cpu=None if cpu is None else round(cpu, 2),
        client_cpu=round(client, 2),
        errors=len(stats.errors),
        first_error=stats.errors[0] if stats.errors else None,
    )


def report(result: Result) -> None:
    print(f"tables playing:      {result.tables} at {result.pace} pace")
    print(f"measured for:        {result.seconds:.1f} s")
    print(f"state updates/s:     {result.updates_per_s:,.0f} (to players and spectators)")
    print(f"cards turned/s:      {result.cards_per_s:,.0f} (all tables together)")
    print(f"delay from oldest change: p50 {result.p50} ms, p99 {result.p99} ms, mean {result.mean} ms")
    print(f"delay from newest change: p50 {result.newest_p50} ms, p99 {result.newest_p99} ms")
    if result.server_p99 is not None:
        print(
            f"server-side delay (oldest change to sent): p50 {result.server_p50} ms, "
            f"p99 {result.server_p99} ms"
        )
    if result.server_cpu is not None:
        print(f"server CPU:          {result.server_cpu:.0%} of one core")
    print(f"load client CPU:     {result.client_cpu:.0%} of one core")
    first = f" (first: {result.first_error})" if result.first_error else ""
    print(f"errors:              {result.errors}{first}")


def wait_until_up(url: str, server: subprocess.Popen[bytes], timeout: float = 30) -> None:
    health = url.replace("ws://", "http://").replace("/ws", "/healthz")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"loadtest: the server exited with status {server.returncode}")
        try:
            urllib.request.urlopen(health, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("loadtest: the server did not start")


def start_server(tables: int, db: Path, extra: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """``beggar serve`` (one process) on a free loopback port, room for ``tables`` tables."""
    port = free_port()
    command = [sys.executable, "-m", "beggar", "serve", "--port", str(port), "--db", str(db)]
    command += ["--max-tables", str(max(tables * 2, 10)), *extra]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    url = f"ws://127.0.0.1:{port}/ws"
    wait_until_up(url, server)
    return server, url


def measure(args: argparse.Namespace) -> Result:
    server = None
    url = args.url
    context = None
    if args.insecure:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    with tempfile.TemporaryDirectory() as scratch:
        if url is None:
            server, url = start_server(args.tables, Path(scratch) / "games.sqlite3", args.serve_arg)
        try:
            stats, elapsed, cpu, client = asyncio.run(
                run(
                    url,
                    args.tables,
                    args.seconds,
                    args.warmup,
                    args.pace,
                    server.pid if server else None,
                    context,
                )
            )
            return summarize(stats, elapsed, args.pace, server_side(url, context), cpu, client)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pace", choices=PACES, default="instant", help="the tables' pace")
    parser.add_argument(
        "--url",
        help="a running server's WebSocket, e.g. ws://127.0.0.1:8000/ws, or a proxy's, prefix "
        "included: wss://cards.example/cards/ws",
    )
    parser.add_argument(
        "--insecure", action="store_true", help="accept the proxy's self-signed certificate (wss://)"
    )
    parser.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        help="an extra argument for the server this script starts (repeat for each)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    result = measure(args)
    if args.json:
        print(json.dumps(asdict(result)))
    else:
        report(result)


def as_result(data: dict[str, Any]) -> Result:
    """A :class:`Result` from the line ``--json`` prints."""
    return Result(**data)


if __name__ == "__main__":
    main()
