"""A deadline for HTTP request heads, so that half-open requests cannot hold connections for ever.

uvicorn times out a keep-alive connection only while it is silent, and not at all before its
first request: a client that opens a connection and sends part of a request line, or one byte of
headers every few seconds (a "slowloris"), holds the connection, and its memory, as long as it
likes. The protocol here gives every request's head (its request line and headers) a fixed time
to arrive, counted from the connection's opening or from the end of the previous response,
however the bytes trickle in. Once a head has arrived the request is the application's, and once a
connection is upgraded to a WebSocket its pings keep it honest.

A head must also fit in :data:`HEAD_LIMIT` bytes: uvicorn's parser buffers a head of any size, so
a few clients sending endless headers would take the server's memory in a few seconds. A head
that outgrows it is answered 431 at once and the connection closed, whether it trickles in or
comes whole in one write (its size is measured before the parser reads it).
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_LIMIT = 16 * 1024
"""Bytes a request's line and headers may take; browsers send a few hundred."""
_TOO_LARGE = b"Request headers too large.\n"
_REFUSAL = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: " + str(len(_TOO_LARGE)).encode() + b"\r\nconnection: close\r\n\r\n" + _TOO_LARGE
)


class HeadDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose next request head is late."""

    head_seconds: float = 10.0
    """The time a client has to send a request's head (``beggar serve --header-timeout``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._in_head = True
        self._head_bytes = 0
        self._tail = b""
        """The last bytes of the head read so far."""

    def data_received(self, data: bytes) -> None:
        """Parse ``data``; a head of more than :data:`HEAD_LIMIT` bytes is refused unparsed."""
        if self._in_head and not self.transport.is_closing():
            seen = self._tail + data  # the blank line that ends a head may straddle two reads
            end = seen.find(b"\r\n\r\n")
            size = self._head_bytes + (len(data) if end < 0 else end + 4 - len(self._tail))
            if size > HEAD_LIMIT:
                self._disarm()
                self.transport.write(_REFUSAL)
                self.transport.close()
                return
            self._head_bytes += len(data)
            self._tail = seen[-3:]
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

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
        self._in_head, self._head_bytes, self._tail = True, 0, b""
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


__all__ = ["HEAD_LIMIT", "HeadDeadlineProtocol", "deadline_protocol"]
