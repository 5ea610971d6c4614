"""Soak test of the browser table (run by hand; not a test): a realistic mix, hostile clients too.

Starts ``beggar serve`` (one process, default limits unless ``--max-tables``, a throw-away database) and for
``--minutes`` keeps up, on loopback:

* friend tables: two people who turn their cards by hand (about a card a second between them),
  a spectator each; a sitting lasts one to three minutes, then everyone leaves and a new table opens;
* tables against the computer at normal pace, the person turning their own cards;
* instant tables, both seats automatic, a spectator each, a new game as soon as one ends;
* hostile clients: fuzzed and malformed messages (bad JSON, invalid UTF-8, deep nesting, huge
  frames, wrong fields), binary frames, message floods, joins of guessed table ids, slow readers
  that never read (their own instant tables, and spectators at the friend tables), connections
  dropped mid-handshake or without a goodbye, and HTTP requests left half-sent;
* names and floods: a rename flood from one seat held by eight sockets, with lone surrogates,
  look-alikes ("Аnn" with a Cyrillic А, "A\u200bnn"), reserved words ("You", "Player 1"), bidi
  and tag characters, also sent by strangers opening honest friend tables' links; replay
  requests for the largest famous games in a loop; absence flapping (a seat's connection dropped
  and restored, again and again, while the other seat asks for new games and to play for it);
* a crowd: ``--crowd`` spectators (1,500) from one address at one instant table, each opening its
  socket again a while after the server refuses or closes it;
* ``--pingers`` honest pages (4) that ping the server every half second, for the round trip a
  person feels whatever else the server is doing.

Every honest table comes from its own loopback address (127.2.x.y), as people at their own
computers; the hostile clients share a few (127.3.0.x), so the server's per-address limits meet them.

Every minute, and at the end, it prints the server's memory (VmRSS), live tables, open sockets,
the p99 delay of the honest clients' updates (from the oldest change an update carries to its
arrival) and of their pings, their errors, what the hostile clients did, whether the server is
still up, and the machine's load; at the end, the tracebacks in the server's log by exception.

    .venv/bin/python scripts/soak.py                 # 30 minutes
    .venv/bin/python scripts/soak.py --minutes 2     # a short check that it all works

Exit status 0 when the server stayed up, answered every honest client without an error and
logged no traceback; 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proxied import free_port
from soak_clients import (
    Soak,
    Window,
    computer_table,
    crowd_member,
    crowd_table,
    dropper,
    flapper,
    flooder,
    friend_table,
    fuzzer,
    guesser,
    half_open,
    honest,
    instant_table,
    pinger,
    quietly,
    renamer,
    replay_flood,
    slow_reader,
)

# -- the server and the report ---------------------------------------------------------------------


def rss_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def sockets(pid: int | None) -> int | None:
    """Open sockets of the server process (its connections, half-open ones included)."""
    if pid is None:
        return None
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return None
    count = 0
    for fd in fds:
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            continue
    return count


def health(url: str) -> dict[str, Any] | None:
    try:
        data = urllib.request.urlopen(url.replace("ws://", "http://").replace("/ws", "/healthz"), timeout=10)
        result: dict[str, Any] = json.loads(data.read())
        return result
    except (OSError, ValueError):
        return None


def p99(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1)


@dataclass
class Minute:
    minute: float
    rss_mb: float | None
    tables: int | None
    sockets: int | None
    updates: int
    p99_ms: float | None
    instant_p99_ms: float | None
    ping_p99_ms: float | None
    errors: int
    instant_rate: int | None
    up: bool
    load: float
    """The machine's load average over the last minute (the soak shares it with whatever runs)."""


def line(m: Minute) -> str:
    def shown(value: object, unit: str = "") -> str:
        return "–" if value is None else f"{value}{unit}"

    rss = "–" if m.rss_mb is None else f"{m.rss_mb:.1f} MB"
    return (
        f"| {m.minute:g} | {rss} | {shown(m.tables)} | {shown(m.sockets)} | {m.updates:,} "
        f"| {shown(m.p99_ms, ' ms')} | {shown(m.instant_p99_ms, ' ms')} | {shown(m.ping_p99_ms, ' ms')} "
        f"| {m.errors} "
        f"| {shown(m.instant_rate)} | {'yes' if m.up else 'NO'} | {m.load:.1f} |"
    )


HEADER = (
    "| minute | server RSS | tables | sockets | honest updates | p99, people's tables "
    "| p99, instant tables | p99, ping | honest errors | instant cards/s | up | load |\n" + "|---" * 12 + "|"
)


async def reporter(soak: Soak, pid: int | None, every: float, started: float, rows: list[Minute]) -> None:
    print(HEADER, flush=True)
    while not soak.stop.is_set():
        with quietly():
            await asyncio.wait_for(soak.stop.wait(), every)
        window, soak.window = soak.window, Window()
        loop = asyncio.get_running_loop()
        status = await loop.run_in_executor(None, health, soak.url)
        row = Minute(
            minute=round((time.monotonic() - started) / 60, 1),
            rss_mb=rss_mb(pid),
            tables=None if status is None else status["tables"],
            sockets=sockets(pid),
            updates=window.updates,
            p99_ms=p99(window.delays),
            instant_p99_ms=p99(window.instant),
            ping_p99_ms=p99(window.pings),
            errors=len(window.errors),
            instant_rate=None if status is None else status.get("instant_cards_per_s"),
            up=status is not None,
            load=os.getloadavg()[0],
        )
        rows.append(row)
        print(line(row), flush=True)
        for text in Counter(window.errors).most_common(3):
            print(f"    error x{text[1]}: {text[0]}", flush=True)


async def soak_for(soak: Soak, args: argparse.Namespace, pid: int | None) -> list[Minute]:
    started = time.monotonic()
    rows: list[Minute] = []
    tasks = [asyncio.ensure_future(reporter(soak, pid, args.report_every, started, rows))]
    mix: list[tuple[int, Callable[[], Awaitable[None]]]] = [
        (args.friends, lambda: honest(soak, "friend tables", friend_table)),
        (args.computer, lambda: honest(soak, "computer tables", computer_table)),
        (args.instant, lambda: honest(soak, "instant tables", instant_table)),
        (args.hostile, lambda: fuzzer(soak)),
        (max(1, args.hostile // 2), lambda: flooder(soak)),
        (max(1, args.hostile // 2), lambda: guesser(soak)),
        (args.slow_readers, lambda: slow_reader(soak)),
        (max(1, args.hostile // 2), lambda: dropper(soak)),
        (args.hostile, lambda: half_open(soak)),
        (max(1, args.hostile // 2), lambda: renamer(soak)),
        (args.hostile, lambda: replay_flood(soak)),
        (max(1, args.hostile // 2), lambda: flapper(soak)),
        (args.pingers, lambda: pinger(soak)),
    ]
    for count, make in mix:
        tasks += [asyncio.ensure_future(make()) for _ in range(count)]
    if args.crowd:
        watched: list[str] = []
        tasks.append(asyncio.ensure_future(crowd_table(soak, watched)))
        tasks += [asyncio.ensure_future(crowd_member(soak, watched)) for _ in range(args.crowd)]
    await asyncio.sleep(args.minutes * 60)
    soak.stop.set()
    await asyncio.wait(tasks, timeout=60)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return rows


def traceback_kinds(log: str) -> Counter[str]:
    """The exceptions of the tracebacks in a log: each block's last line, up to its colon."""
    kinds: Counter[str] = Counter()
    inside = False
    for text in log.splitlines():
        if text.startswith("Traceback"):
            inside = True
        elif inside and text and not text.startswith(" "):
            kinds[text.split(":", 1)[0]] += 1
            inside = False
    return kinds


def summary(
    rows: list[Minute], soak: Soak, up: bool, tracebacks: int | None, args: argparse.Namespace
) -> bool:
    memory = [r.rss_mb for r in rows if r.rss_mb is not None]
    tables = [r.tables for r in rows if r.tables is not None]
    print()
    print(f"Soak of {args.minutes:g} minutes: {args.friends} friend, {args.computer} computer and")
    print(f"{args.instant} instant table seats kept filled, {args.hostile} hostile clients of each main kind")
    limits = f"--max-tables {args.max_tables}" if args.max_tables else "default limits"
    print(f"{args.slow_readers} slow readers and a crowd of {args.crowd} spectators from one address;")
    print(f"one server process, {limits}.")
    if memory:
        later = statistics.median(memory[len(memory) // 2 :])
        print(
            f"server RSS: first {memory[0]:.1f} MB, last {memory[-1]:.1f} MB, "
            f"highest {max(memory):.1f} MB; median of the second half {later:.1f} MB"
        )
    if tables:
        print(f"live tables: {min(tables)} to {max(tables)}")
    people, instant, pings = p99(soak.total.delays), p99(soak.total.instant), p99(soak.total.pings)
    print(
        f"honest updates: {soak.total.updates:,}; p99 delay {people} ms at people's tables, "
        f"{instant} ms at instant tables; honest errors {len(soak.total.errors)}"
    )
    worst = None if not soak.total.pings else round(max(soak.total.pings) * 1000, 1)
    print(f"honest pings: {len(soak.total.pings):,}; p99 round trip {pings} ms, worst {worst} ms")
    loads = [r.load for r in rows]
    if loads:
        print(
            f"machine load (1-minute average): {min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} cores"
        )
    print("honest tables played: " + ", ".join(f"{n:,} {kind}" for kind, n in sorted(soak.honest.items())))
    print("hostile: " + ", ".join(f"{n:,} {kind}" for kind, n in sorted(soak.hostile.items())))
    if tracebacks is not None:
        print(f"tracebacks in the server's log: {tracebacks}")
    print(f"server stayed up: {'yes' if up else 'NO'}")
    for text, count in Counter(soak.total.errors).most_common(5):
        print(f"  error x{count}: {text}")
    return up and not soak.total.errors and not tracebacks


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--friends", type=int, default=60, help="friend tables kept open")
    parser.add_argument("--computer", type=int, default=60, help="tables against the computer kept open")
    parser.add_argument("--instant", type=int, default=20, help="instant tables kept open")
    parser.add_argument(
        "--hostile",
        type=int,
        default=4,
        help="fuzzers and half-sent requests (half as many of each other kind)",
    )
    parser.add_argument("--slow-readers", type=int, default=10)
    parser.add_argument("--pingers", type=int, default=4, help="honest pages that ping every half second")
    parser.add_argument(
        "--crowd", type=int, default=1500, help="spectators from one address at one instant table (0: none)"
    )
    parser.add_argument("--report-every", type=float, default=60.0, help="seconds between reports")
    parser.add_argument("--url", help="a running server's WebSocket (then --pid gives its memory)")
    parser.add_argument("--pid", type=int, help="the running server's process id")
    parser.add_argument(
        "--max-tables",
        type=int,
        help="the server's --max-tables (default its own, 1,000): a lower one meets a full server sooner",
    )
    args = parser.parse_args()
    server = None
    pid = args.pid
    url = args.url
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "server.log"
        if url is None:
            port = free_port()
            command = [sys.executable, "-m", "beggar", "serve", "--port", str(port)]
            command += ["--db", str(Path(scratch) / "games.sqlite3")]
            if args.max_tables:
                command += ["--max-tables", str(args.max_tables)]
            with log.open("wb") as out:
                server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
            pid = server.pid
            url = f"ws://127.0.0.1:{port}/ws"
            for _ in range(150):
                if health(url) is not None:
                    break
                time.sleep(0.2)
            else:
                raise SystemExit("soak: the server did not start")
        soak = Soak(url)
        print(f"soak: {args.minutes:g} minutes against {url} (server pid {pid})", flush=True)
        try:
            rows = asyncio.run(soak_for(soak, args, pid))
            up = health(url) is not None and (server is None or server.poll() is None)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)
        kinds = traceback_kinds(log.read_text(errors="replace")) if server is not None else None
        tracebacks = None if kinds is None else sum(kinds.values())
        if kinds:
            print("tracebacks in the server's log, by their exception:")
            for kind, count in kinds.most_common():
                print(f"  {count} x {kind}")
        ok = summary(rows, soak, up, tracebacks, args)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
