"""A restart under load, measured (run by hand; not a test).

Starts ``beggar serve`` on a fresh database, opens ``--friends`` friend tables (two players each,
``--cards`` cards turned at each) and ``--instant`` watched tables at instant pace, then stops the
server with SIGTERM (or ``--kill``: SIGKILL) and starts it again. Reports how long the stop took,
how long until the restarted server answered and until every table was back, and checks that
every friend player rejoins their own seat with the game where it was.

    .venv/bin/python scripts/restart_bench.py --friends 200 --instant 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from proxied import free_port


def health(port: int) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
            return dict(json.loads(answer.read()))
    except OSError:
        return None


def start(port: int, db: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "beggar", "serve", "--port", str(port), "--db", str(db)]
    return subprocess.Popen([*command, "--max-tables", "5000"], stdout=subprocess.DEVNULL)


async def until(ws: Any, test: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if test(message):
            return message


def address(index: int) -> dict[str, Any]:
    """Each table's creator comes from a loopback address of its own: creates are limited per address."""
    return {"local_addr": (f"127.0.{1 + index // 250}.{1 + index % 250}", 0)}


async def friend_table(url: str, index: int, cards: int) -> dict[str, Any]:
    ann, bea = await websockets.connect(url, **address(index)), await websockets.connect(url)
    await ann.send(json.dumps({"type": "create", "mode": "friends", "rules": "standard"}))
    joined_a = await until(ann, lambda m: m["type"] == "joined")
    await bea.send(json.dumps({"type": "join", "table": joined_a["table"]}))
    joined_b = await until(bea, lambda m: m["type"] == "joined")
    state = await until(ann, lambda m: m["type"] == "state" and not m["waiting_for"])
    players = {0: ann, 1: bea}
    while state["cards"] < cards and state["over"] is None:
        turner = players[state["to_play"]]
        await turner.send(json.dumps({"type": "turn"}))
        state = await until(turner, lambda m, n=state["cards"]: m["type"] == "state" and m["cards"] > n)
    return {
        "table": joined_a["table"],
        "tokens": [joined_a["token"], joined_b["token"]],
        "cards": state["cards"],
        "sockets": [ann, bea],
    }


async def watched_table(url: str, index: int) -> Any:
    ws = await websockets.connect(url, **address(index))
    await ws.send(
        json.dumps({"type": "create", "mode": "watch", "pace": "instant", "rules": "standard", "seed": index})
    )
    await until(ws, lambda m: m["type"] == "state")
    return ws


async def rejoin(url: str, table: dict[str, Any], exact: bool) -> bool:
    """Do both players get their seats back, and the game as it was (``exact``) or at most a
    trick earlier (after a SIGKILL: the test deals are standard, whose tricks are under 30 cards)?"""
    good = True
    for seat, token in enumerate(table["tokens"]):
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "join", "table": table["table"], "token": token}))
            joined = await until(ws, lambda m: m["type"] in ("joined", "error"))
            state = await until(ws, lambda m: m["type"] == "state")
            back = state["cards"] == table["cards"] if exact else 0 <= table["cards"] - state["cards"] < 30
            good &= joined.get("seat") == seat and back
    return good


async def main(friends: int, instant: int, cards: int, kill: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db, port = Path(folder) / "games.sqlite3", free_port()
        url = f"ws://127.0.0.1:{port}/ws"
        server = start(port, db)
        while health(port) is None:
            await asyncio.sleep(0.1)
        opened = time.monotonic()
        tables = await asyncio.gather(*(friend_table(url, i, cards) for i in range(friends)))
        watchers = [await watched_table(url, friends + i) for i in range(instant)]
        print(
            f"opened {friends} friend tables ({cards} cards each) and {instant} instant tables "
            f"in {time.monotonic() - opened:.1f} s"
        )
        await asyncio.sleep(2)
        stopped = time.monotonic()
        server.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        server.wait(timeout=60)
        print(f"{'SIGKILL' if kill else 'SIGTERM'}: the server stopped in {time.monotonic() - stopped:.2f} s")
        for ws in [*watchers, *(s for t in tables for s in t["sockets"])]:
            await ws.close()
        started = time.monotonic()
        server = start(port, db)
        try:
            while health(port) is None:
                await asyncio.sleep(0.05)
            print(f"restarted: answering after {time.monotonic() - started:.2f} s")
            while (health(port) or {}).get("tables", 0) < friends + instant:
                await asyncio.sleep(0.05)
            print(f"every table back after {time.monotonic() - started:.2f} s")
            results = await asyncio.gather(*(rejoin(url, table, not kill) for table in tables))
            where = "at most a trick earlier" if kill else "as it was"
            print(f"players back in their seats, the game {where}: {sum(results)} of {friends} tables")
        finally:
            server.terminate()
            server.wait(timeout=60)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--friends", type=int, default=200)
    parser.add_argument("--instant", type=int, default=50)
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--kill", action="store_true", help="SIGKILL instead of SIGTERM")
    args = parser.parse_args()
    asyncio.run(main(args.friends, args.instant, args.cards, args.kill))
