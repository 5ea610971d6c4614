"""Replay answers built once, off the event loop, and kept: a replay never changes.

A famous game's replay is about a megabyte of JSON that takes the engine a tenth of a second or
more to tell; built on the event loop for every request, a few clients asking for it in a loop
stopped every table. :class:`ReplayCache` builds each answer once in a worker thread (requests
for one answer while it is being built wait for that one build), keeps it encoded and
gzip-compressed, and forgets the least recently asked once it holds more than its bytes.
How often one address may ask is bounded by :meth:`beggar.web.limits.AddressLimits.may_replay`.
"""

from __future__ import annotations

import asyncio
import gzip
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

CACHE_BYTES = 64 * 1024 * 1024
"""Bytes of encoded replays kept at most (compressed and not); the famous games take about 12 MB."""


@dataclass(frozen=True)
class Answer:
    """One replay, as JSON and as gzip of that JSON."""

    plain: bytes
    packed: bytes

    @property
    def size(self) -> int:
        return len(self.plain) + len(self.packed)

    def response(self, request: Request) -> Response:
        """The answer for ``request``: compressed if the client takes gzip (the app's own gzip
        middleware leaves an answer that says its encoding as it is)."""
        headers = {"Vary": "Accept-Encoding", "Cache-Control": "public, max-age=3600"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(self.packed, media_type="application/json", headers=headers)
        return Response(self.plain, media_type="application/json", headers=headers)


def encode(data: dict[str, Any]) -> Answer:
    """``data`` as an :class:`Answer` (the work of a worker thread)."""
    plain = orjson.dumps(data)
    return Answer(plain, gzip.compress(plain, compresslevel=5))


class ReplayCache:
    """Replays by key (``famous-3``, ``found-…``, a stored game and the seat it is told from)."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.kept: OrderedDict[str, Answer] = OrderedDict()
        self.size = 0
        self.building: dict[str, asyncio.Future[Answer]] = {}
        self.builds = 0
        """Answers built so far (each key once while it is kept)."""

    async def get(self, key: str, build: Callable[[], dict[str, Any]]) -> Answer:
        """The answer under ``key``, built by ``build`` in a worker thread if it is not kept."""
        answer = self.kept.get(key)
        if answer is not None:
            self.kept.move_to_end(key)
            return answer
        pending = self.building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.building[key] = future
        try:
            answer = await run_in_threadpool(lambda: encode(build()))
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a failed build is reported to its own request only
            raise
        finally:
            self.building.pop(key, None)
        future.set_result(answer)
        self.builds += 1
        self._keep(key, answer)
        return answer

    def _keep(self, key: str, answer: Answer) -> None:
        if answer.size > self.limit:
            return
        self.kept[key] = answer
        self.size += answer.size
        while self.size > self.limit:
            _, old = self.kept.popitem(last=False)
            self.size -= old.size


__all__ = ["CACHE_BYTES", "Answer", "ReplayCache", "encode"]
