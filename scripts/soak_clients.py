"""The clients of the soak test (``scripts/soak.py``), honest and hostile, and the state they share.

Honest: friend tables of two people turning by hand with a spectator each, tables against the
computer, instant tables, pingers. Hostile: fuzzed and malformed messages, floods, guessed table
ids, slow readers, dropped connections and half-sent requests, rename floods with look-alike and
invisible names, replay floods, absence flapping, and a crowd of spectators from one address.
Each client is a coroutine that runs until :attr:`Soak.stop` is set and counts what it did in
:class:`Soak`.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets

from beggar.records import NEVER_ENDING
from beggar.web.ids import ID_ALPHABET

HOSTILE_ADDRESSES = [f"127.3.0.{i}" for i in range(1, 5)]
CROWD_ADDRESS, CROWD_HOST = "127.4.0.1", "127.4.0.2"
"""Where the crowd of spectators comes from, and the address of the table's creator."""
CROWD_TABLE = {
    "type": "create",
    "mode": "watch",
    "pace": "instant",
    "deal": NEVER_ENDING.deal,
    "rules": "standard:repeat=off:max-cards=1000000",
}
"""A never-ending deal played at instant pace, stopped only by its card limit."""


@dataclass
class Window:
    """What the honest clients saw during one reporting period."""

    delays: list[float] = field(default_factory=list)
    """Update delays at the tables people play (friends, the computer), in seconds."""
    instant: list[float] = field(default_factory=list)
    """Update delays at the instant tables."""
    updates: int = 0
    errors: list[str] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    """Round trips of the honest pingers' pings, in seconds."""


@dataclass
class Soak:
    """Shared state of one soak: the stop signal, the current window, counters."""

    url: str
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    window: Window = field(default_factory=Window)
    total: Window = field(default_factory=Window)
    hostile: Counter[str] = field(default_factory=Counter)
    honest: Counter[str] = field(default_factory=Counter)
    friend_tables: list[str] = field(default_factory=list)
    """Ids of open friend tables (a leaked link a hostile spectator may use)."""
    next_address: int = 0

    def address(self) -> str:
        """A fresh loopback address for one honest person: 127.2.x.y."""
        self.next_address += 1
        n = self.next_address % 60_000
        return f"127.2.{n // 250}.{n % 250 + 1}"

    def error(self, text: str) -> None:
        self.window.errors.append(text)
        self.total.errors.append(text)

    def delay(self, seconds: float, instant: bool) -> None:
        for window in (self.window, self.total):
            (window.instant if instant else window.delays).append(seconds)


# -- honest clients ---------------------------------------------------------------------------------


class Person:
    """One honest browser: reads every state, notes its delay, and checks that no stack is shown."""

    def __init__(self, soak: Soak, ws: websockets.ClientConnection, role: str) -> None:
        self.soak, self.ws, self.role = soak, ws, role
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.changed = asyncio.Event()

    @classmethod
    async def connect(cls, soak: Soak, role: str) -> Person:
        local = (soak.address(), 0)
        ws = await websockets.connect(soak.url, local_addr=local, max_size=2**22, open_timeout=30)
        return cls(soak, ws, role)

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def until_joined(self) -> dict[str, Any]:
        while True:
            message = orjson.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if message["type"] == "joined":
                self.seat = message["seat"]
                return dict(message)
            if message["type"] == "error":
                raise RuntimeError(f"{self.role}: {message['message']}")

    async def read(self) -> None:
        """Read until the connection closes; a close the soak did not ask for is an error."""
        try:
            async for text in self.ws:
                message = orjson.loads(text)
                kind = message["type"]
                if kind == "error":
                    self.soak.error(f"{self.role}: {message['message']}")
                elif kind == "state":
                    self._state(message)
        except websockets.ConnectionClosed as exc:
            if not self.soak.stop.is_set():  # the soak cancels this before it closes a connection
                self.soak.error(f"{self.role}: closed by the server ({exc})")

    def _state(self, message: dict[str, Any]) -> None:
        now = time.time()
        self.soak.window.updates += 1
        self.soak.total.updates += 1
        if message.get("since"):
            self.soak.delay(now - message["since"], self.role.startswith("instant"))
        if any("stack" in seat for seat in message["seats"]):
            self.soak.error(f"{self.role}: a face-down stack was sent")
        self.state = message
        self.changed.set()

    async def close(self) -> None:
        await self.ws.close()


async def turning(person: Person, think: tuple[float, float], turns: bool = True) -> None:
    """Turn this person's card whenever it is their turn (``turns``), after thinking a moment;
    agree to new games."""
    asked = -1
    while True:
        await person.changed.wait()
        person.changed.clear()
        state = person.state
        if state is None:
            continue
        if state["over"] is not None:
            if asked != state["games_played"]:
                asked = state["games_played"]
                await asyncio.sleep(random.uniform(*think))
                await person.send({"type": "new-game"})
            continue
        if turns and state["to_play"] == person.seat and not state["waiting_for"] and not state["paused"]:
            version = state["version"]
            await asyncio.sleep(random.uniform(*think))
            if person.state is not None and person.state["version"] == version:
                await person.send({"type": "turn"})


async def sitting(soak: Soak, people: list[Person], tasks: list[Awaitable[None]], lifetime: float) -> None:
    """Run a table's people for ``lifetime`` seconds (or until the soak stops), then leave."""
    running = [asyncio.ensure_future(task) for task in tasks]
    running += [asyncio.ensure_future(person.read()) for person in people]
    stopping = asyncio.ensure_future(soak.stop.wait())
    await asyncio.wait([stopping, *running], timeout=lifetime, return_when=asyncio.FIRST_COMPLETED)
    for task in [*running, stopping]:
        task.cancel()
    await asyncio.gather(*running, stopping, return_exceptions=True)
    await asyncio.gather(*(person.close() for person in people), return_exceptions=True)


async def honest(soak: Soak, kind: str, play: Callable[[Soak], Awaitable[None]]) -> None:
    """Open tables of one kind one after another until the soak stops; count failures as errors."""
    await asyncio.sleep(random.uniform(0, 10))  # people do not all arrive at once
    while not soak.stop.is_set():
        try:
            await play(soak)
            soak.honest[kind] += 1
        except (OSError, RuntimeError, TimeoutError, websockets.WebSocketException) as exc:
            if not soak.stop.is_set():
                soak.error(f"{kind}: {type(exc).__name__}: {exc}")
                await asyncio.sleep(1)


async def friend_table(soak: Soak) -> None:
    ann = await Person.connect(soak, "friend")
    people = [ann]
    try:
        await ann.send({"type": "create", "mode": "friends", "humans": 2, "name": "Ann", "pace": "normal"})
        table = (await ann.until_joined())["table"]
        bea = await Person.connect(soak, "friend")
        people.append(bea)
        await bea.send({"type": "join", "table": table, "name": "Bea"})
        await bea.until_joined()
        spectator = await Person.connect(soak, "friend spectator")
        people.append(spectator)
        await spectator.send({"type": "join", "table": table})
        await spectator.until_joined()
    except BaseException:
        await asyncio.gather(*(person.close() for person in people), return_exceptions=True)
        raise
    soak.friend_tables.append(table)
    try:
        think = (0.5, 1.5)
        await sitting(soak, people, [turning(ann, think), turning(bea, think)], random.uniform(60, 180))
    finally:
        soak.friend_tables.remove(table)


async def computer_table(soak: Soak) -> None:
    me = await Person.connect(soak, "computer")
    try:
        await me.send({"type": "create", "mode": "computer", "pace": "normal"})
        await me.until_joined()
    except BaseException:
        await me.close()
        raise
    await sitting(soak, [me], [turning(me, (0.4, 1.2))], random.uniform(60, 180))


async def instant_table(soak: Soak) -> None:
    creator = await Person.connect(soak, "instant")
    people = [creator]
    try:
        await creator.send({"type": "create", "mode": "watch", "pace": "instant", "rules": "standard"})
        table = (await creator.until_joined())["table"]
        spectator = await Person.connect(soak, "instant spectator")
        people.append(spectator)
        await spectator.send({"type": "join", "table": table})
        await spectator.until_joined()
    except BaseException:
        await asyncio.gather(*(person.close() for person in people), return_exceptions=True)
        raise
    await sitting(soak, people, [turning(creator, (0.0, 0.2), turns=False)], random.uniform(60, 180))


# -- hostile clients --------------------------------------------------------------------------------


async def hostile_connect(soak: Soak, **options: Any) -> websockets.ClientConnection:
    local = (random.choice(HOSTILE_ADDRESSES), 0)
    return await websockets.connect(soak.url, local_addr=local, open_timeout=30, **options)


async def drain(ws: websockets.ClientConnection) -> None:
    with quietly():
        async for _ in ws:
            pass


@asynccontextmanager
async def draining(soak: Soak) -> AsyncIterator[websockets.ClientConnection]:
    """A hostile connection whose incoming messages are read and dropped while it sends."""
    ws = await hostile_connect(soak, max_size=2**22)
    reading = asyncio.ensure_future(drain(ws))
    try:
        yield ws
    finally:
        reading.cancel()
        await ws.close()


class quietly:
    """Swallow what a hostile client's connection may end with."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> bool:
        return kind is not None and issubclass(kind, (OSError, websockets.WebSocketException, TimeoutError))


def fuzzed() -> tuple[str | bytes, bool]:
    """One malformed message: (payload, sent as a text frame)."""
    kind = random.randrange(10)
    if kind == 0:
        return "".join(random.choices(string.printable, k=random.randint(1, 300))), True
    if kind == 1:
        return bytes(random.randrange(256) for _ in range(random.randint(1, 200))), True  # invalid UTF-8
    if kind == 2:
        depth = random.choice([100, 1000, 2000])
        return "[" * depth + "]" * depth, True
    if kind == 3:
        return json.dumps({"type": "create", "mode": "watch", "name": "x" * random.randint(0, 9000)}), True
    if kind == 4:
        return "x" * random.choice([4097, 60_000, 200_000]), True  # too large; the last over the frame limit
    if kind == 5:
        junk: list[Any] = [None, True, -1, 2**70, 1e308, "", "💥" * 50, [], {}, {"a": [1, {"b": 2}]}]
        keys = ["type", "mode", "rules", "players", "humans", "seed", "deal", "pace", "table", "token", "on"]
        return json.dumps({key: random.choice(junk) for key in random.sample(keys, 4)}), True
    if kind == 6:
        return json.dumps(
            {"type": random.choice(["turn", "pace", "pause", "watch", "new-game", "leave"])}
        ), True
    if kind == 7:
        spec = random.choice(
            [
                "standard:max-cards=" + "9" * 150,
                "standard:time-limit=1e199",
                "standard:players=8:players=2",
                "nonsense:::",
                "standard:repeat=off",
            ]
        )
        return json.dumps({"type": "create", "mode": "watch", "rules": spec, "pace": "instant"}), True
    if kind == 8:
        return json.dumps({"type": "create", "mode": "friends", "deal": "AK/QJ" * 100}), True
    return bytes(random.randrange(256) for _ in range(random.randint(1, 500))), False  # a binary frame


async def fuzzer(soak: Soak) -> None:
    """Malformed messages at about 15 a second, within the rate limit, so they are all read."""
    while not soak.stop.is_set():
        with quietly():
            async with draining(soak) as ws:
                for _ in range(random.randint(50, 500)):
                    payload, text = fuzzed()
                    await ws.send(payload, text=text)
                    soak.hostile["fuzzed messages"] += 1
                    await asyncio.sleep(random.uniform(0.03, 0.1))
        soak.hostile["fuzzer connections"] += 1
        await asyncio.sleep(0.5)


async def flooder(soak: Soak) -> None:
    """Messages as fast as the socket takes them, binary and text, until the server closes it."""
    while not soak.stop.is_set():
        with quietly():
            async with draining(soak) as ws:
                for n in range(5000):
                    await ws.send(b"\x00" * 64 if n % 2 else '{"type":"ping"}')
                    soak.hostile["flood messages"] += 1
                    if n % 100 == 0:
                        await asyncio.sleep(0)
        soak.hostile["flood connections"] += 1
        await asyncio.sleep(2)


async def guesser(soak: Soak) -> None:
    """Joins of made-up table ids, as fast as the server answers them."""
    while not soak.stop.is_set():
        with quietly():
            ws = await hostile_connect(soak)
            for _ in range(200):
                table = "".join(random.choices(ID_ALPHABET, k=random.choice([8, 10, 16])))
                await ws.send(json.dumps({"type": "join", "table": table}))
                reply = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
                soak.hostile["guessed joins"] += 1
                if reply["type"] == "joined":
                    soak.error(f"a guessed table id was joined: {table}")
            await ws.close()
        await asyncio.sleep(0.2)


async def slow_reader(soak: Soak) -> None:
    """A browser that never reads: of its own instant table, or a spectator at someone's table."""
    while not soak.stop.is_set():
        with quietly():
            # max_queue=1: the client stops reading from the socket, so the server's sends back up.
            ws = await hostile_connect(soak, max_queue=1)
            if soak.friend_tables and random.random() < 0.5:
                await ws.send(json.dumps({"type": "join", "table": random.choice(soak.friend_tables)}))
                soak.hostile["slow spectators"] += 1
            else:
                create = {"type": "create", "mode": "watch", "pace": "instant", "rules": "standard"}
                await ws.send(json.dumps(create))
                soak.hostile["slow instant tables"] += 1
            with quietly():
                await asyncio.wait_for(soak.stop.wait(), random.uniform(30, 120))
            ws.transport.abort()  # gone without a goodbye
        await asyncio.sleep(1)


HOSTILE_NAMES = [
    '"\\ud800"',  # a lone surrogate: valid JSON, not valid Unicode
    '"Ann\\udfff"',
    '"\\u0410nn"',  # a Cyrillic А: Ann's look-alike
    '"A\\u200bnn"',  # a zero-width space
    '"\\ufeffBea"',  # a byte-order mark
    '"You"',
    '"you"',
    '"Player 1"',
    '"Robin"',
    '"Bob wins. Ann"',
    '"Ann\\u202eniw"',  # a bidi override
    '"Ann\\u2066x\\u2069"',  # a bidi isolate
    '"Ann\\u2028Bea"',
    '"Ann\\ufdd0"',
    '"Ann\\U000e0041"',
    '"A' + "\\u0301" * 23 + '"',  # a tower of accents
    '"<b>Bo</b>"',
    '"Ann"',
    '"Bea"',
]
"""Names (as JSON text) that a hostile client tries: each refused, made unique, or kept as text."""


async def _seated_pair(soak: Soak) -> tuple[websockets.ClientConnection, str, str, str]:
    """A friend table of two opened from a hostile address: the creator's socket, the table, the
    creator's token and the other seat's token."""
    owner = await hostile_connect(soak, max_size=2**22)
    await owner.send(json.dumps({"type": "create", "mode": "friends", "humans": 2, "name": "Host"}))
    joined = await _until(owner, "joined")
    other = await hostile_connect(soak, max_size=2**22)
    await other.send(json.dumps({"type": "join", "table": joined["table"], "name": "Guest"}))
    seat = await _until(other, "joined")
    await other.close()
    return owner, str(joined["table"]), str(joined["token"]), str(seat["token"])


async def _until(ws: websockets.ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] == kind:
            return dict(message)
        if message["type"] == "error" and kind == "joined":
            raise RuntimeError(message["message"])


async def renamer(soak: Soak) -> None:
    """A rename flood from one seat held by many sockets, with surrogate and look-alike names, and
    the same names sent to honest friend tables by spectators joining them."""
    while not soak.stop.is_set():
        with quietly():
            owner, table, _, token = await _seated_pair(soak)
            holders = []
            try:
                for _ in range(8):  # eight sockets holding one seat
                    ws = await hostile_connect(soak, max_size=2**22)
                    holders.append(ws)
                    await ws.send(json.dumps({"type": "join", "table": table, "token": token}))
                readers = [asyncio.ensure_future(drain(ws)) for ws in [owner, *holders]]
                for _ in range(random.randint(100, 400)):
                    ws = random.choice(holders)
                    await ws.send('{"type":"rename","name":' + random.choice(HOSTILE_NAMES) + "}")
                    soak.hostile["renames and hostile names"] += 1
                    if soak.friend_tables and random.random() < 0.05:
                        # a stranger with a hostile name opens an honest table's link (every seat is held)
                        name = random.choice(HOSTILE_NAMES)
                        other = random.choice(soak.friend_tables)
                        await ws.send('{"type":"join","table":"' + other + '","name":' + name + "}")
                        soak.hostile["hostile names at honest tables"] += 1
                    await asyncio.sleep(random.uniform(0.005, 0.03))
                for task in readers:
                    task.cancel()
            finally:
                for ws in [owner, *holders]:
                    await ws.close()
        await asyncio.sleep(0.5)


async def replay_flood(soak: Soak) -> None:
    """Replays asked for in a loop (the largest famous games, and made-up ids), from hostile addresses."""
    host, port = soak.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    while not soak.stop.is_set():
        with quietly():
            reader, writer = await asyncio.open_connection(
                host, int(port), local_addr=(random.choice(HOSTILE_ADDRESSES), 0)
            )
            which = random.choice(
                ["famous-8", "famous-8", "famous-3", "famous-0", "abcdefgh", "found-0123456789ab"]
            )
            writer.write(
                f"GET /api/replay/{which} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: "
                f"{random.choice(['gzip', 'identity'])}\r\nConnection: close\r\n\r\n".encode()
            )
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 30)
            status = answer[9:12].decode(errors="replace")
            soak.hostile[f"replay requests ({status})"] += 1
            writer.close()
        await asyncio.sleep(random.uniform(0, 0.02))


async def flapper(soak: Soak) -> None:
    """Absence flapping: a friend table's seat whose connection drops and comes back, again and
    again, while the other seat asks for new games and offers to play for the absent one."""
    while not soak.stop.is_set():
        with quietly():
            owner, table, _, token = await _seated_pair(soak)
            reading = asyncio.ensure_future(drain(owner))
            try:
                for _ in range(random.randint(20, 80)):
                    ws = await hostile_connect(soak, max_size=2**22)
                    await ws.send(json.dumps({"type": "join", "table": table, "token": token}))
                    await asyncio.sleep(random.uniform(0.05, 2.0))
                    ws.transport.abort()  # gone without a goodbye: the seat's grace starts
                    soak.hostile["absences flapped"] += 1
                    await owner.send(
                        json.dumps(
                            random.choice(
                                [{"type": "new-game"}, {"type": "play-for", "seat": 1}, {"type": "turn"}]
                            )
                        )
                    )
                    await asyncio.sleep(random.uniform(0.05, 3.0))
            finally:
                reading.cancel()
                await owner.close()
        await asyncio.sleep(0.5)


async def pinger(soak: Soak) -> None:
    """An honest person at a table against the computer whose page pings the server every half
    second: the round trip is the delay a person feels, whatever else the server is doing."""
    await asyncio.sleep(random.uniform(0, 5))
    while not soak.stop.is_set():
        try:
            ws = await websockets.connect(soak.url, local_addr=(soak.address(), 0), max_size=2**22)
            try:
                await ws.send(json.dumps({"type": "create", "mode": "computer", "pace": "normal"}))
                await _until(ws, "joined")
                for _ in range(240):
                    if soak.stop.is_set():
                        break
                    sent = time.monotonic()
                    await ws.send('{"type":"ping"}')
                    await _until(ws, "pong")
                    for window in (soak.window, soak.total):
                        window.pings.append(time.monotonic() - sent)
                    await asyncio.sleep(0.5)
            finally:
                await ws.close()
        except (OSError, RuntimeError, TimeoutError, websockets.WebSocketException) as exc:
            if not soak.stop.is_set():
                soak.error(f"pinger: {type(exc).__name__}: {exc}")
                await asyncio.sleep(1)


async def dropper(soak: Soak) -> None:
    """Connections opened and dropped: mid-handshake, right after a create, or mid-request."""
    host, port = soak.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    while not soak.stop.is_set():
        kind = random.randrange(3)
        with quietly():
            if kind == 0:
                ws = await hostile_connect(soak)
                await ws.send(json.dumps({"type": "create", "mode": "computer", "pace": "fast"}))
                await asyncio.sleep(random.uniform(0, 0.5))
                ws.transport.abort()
            else:
                _, writer = await asyncio.open_connection(
                    host, int(port), local_addr=(random.choice(HOSTILE_ADDRESSES), 0)
                )
                request = (
                    f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                    "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                )
                writer.write(request.encode()[: random.randint(5, len(request))])
                await writer.drain()
                await asyncio.sleep(random.uniform(0, 0.3))
                writer.transport.abort()
            soak.hostile["dropped connections"] += 1
        await asyncio.sleep(random.uniform(0.05, 0.3))


async def half_open(soak: Soak) -> None:
    """An HTTP request left half-sent and held open, as a slowloris would."""
    host, port = soak.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    while not soak.stop.is_set():
        with quietly():
            reader, writer = await asyncio.open_connection(
                host, int(port), local_addr=(random.choice(HOSTILE_ADDRESSES), 0)
            )
            writer.write(f"GET / HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode())
            await writer.drain()
            soak.hostile["half-sent requests"] += 1
            with quietly():
                await asyncio.wait_for(reader.read(1), 60)  # the server may time it out
            writer.transport.abort()
        await asyncio.sleep(1)


async def crowd_table(soak: Soak, table: list[str]) -> None:
    """The instant table the crowd watches, opened again whenever it closes."""
    while not soak.stop.is_set():
        with quietly():
            ws = await websockets.connect(soak.url, local_addr=(CROWD_HOST, 0), max_size=2**22)
            await ws.send(json.dumps(CROWD_TABLE))
            while True:
                message = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "joined":
                    table[:] = [message["table"]]
                    break
            await drain(ws)
        table.clear()
        await asyncio.sleep(1)


async def crowd_member(soak: Soak, table: list[str]) -> None:
    """One of a crowd of spectators from one address: watches the crowd's table while the server
    lets it, and opens its socket again a while after being refused or closed."""
    await asyncio.sleep(random.uniform(0, 10))
    while not soak.stop.is_set():
        if table:
            try:
                ws = await websockets.connect(soak.url, local_addr=(CROWD_ADDRESS, 0), max_size=2**22)
            except (OSError, websockets.WebSocketException, TimeoutError):
                soak.hostile["crowd sockets refused"] += 1
            else:
                with quietly():
                    await ws.send(json.dumps({"type": "join", "table": table[0]}))
                    reply = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
                    if reply["type"] == "joined":
                        soak.hostile["crowd spectators let in"] += 1
                        await drain(ws)
                    else:
                        soak.hostile["crowd joins refused"] += 1
                with quietly():
                    await ws.close()
        await asyncio.sleep(random.uniform(10, 30))
