"""A deadline for HTTP request heads, so that half-open requests cannot hold connections for ever.

uvicorn times out a keep-alive connection only while it is silent, and not at all before its
first request: a client that opens a connection and sends part of a request line, or one byte of
headers every few seconds (a "slowloris"), holds the connection, and its memory, as long as it
likes. The protocol here gives every request's head (its request line and headers) a fixed time
to arrive, counted from the connection's opening or from the end of the previous response,
however the bytes trickle in. Once a head has arrived the request is the application's, and once a
connection is upgraded to a WebSocket its pings keep it honest.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeadDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose next request head is late."""

    head_seconds: float = 10.0
    """The time a client has to send a request's head (``beggar serve --header-timeout``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.get_protocol() is not self:
            return  # upgraded to a WebSocket
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request arrived in time and is being answered; its end arms the next deadline
        self.transport.close()


def deadline_protocol(seconds: float) -> type[HeadDeadlineProtocol]:
    """:class:`HeadDeadlineProtocol` giving ``seconds`` to each request head (``uvicorn.run(http=...)``)."""
    return cast(
        type[HeadDeadlineProtocol],
        type("HeadDeadlineProtocol", (HeadDeadlineProtocol,), {"head_seconds": seconds}),
    )


__all__ = ["HeadDeadlineProtocol", "deadline_protocol"]
