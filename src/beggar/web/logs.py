"""The server's log kept readable: clients' own mistakes stay out, repeated warnings are counted.

A client sending malformed requests by the thousand must not fill the log (or hide what else
happened): :class:`RepeatSummary` writes the first warning of each kind and counts the rest, and
:func:`flush_summaries` (called by the server's janitor) writes how many were held back.
"""

from __future__ import annotations

import logging
import time


class _ClientMistakes(logging.Filter):
    """Drops uvicorn's traceback for a text frame that is not UTF-8.

    uvicorn answers such a frame by closing the socket (1007), which is all it deserves, but also
    logs the decoding error's traceback as a server error: a client sending them from many sockets
    would fill the log with the server's fault for its own mistake.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Invalid UTF-8 sequence received from client")


class RepeatSummary(logging.Filter):
    """Writes the first warning of each kind, then counts the same kind for ``window`` seconds.

    A kind is a message's text before its arguments are put in. A client sending malformed
    requests by the thousand would otherwise write the log full, and hide what else happened;
    :meth:`flush` writes one line per kind held back, with how many there were.
    """

    def __init__(self, logger: logging.Logger, window: float = 60.0, *, by_arguments: bool = False) -> None:
        super().__init__()
        self.logger = logger
        self.window = window
        self.by_arguments = by_arguments
        """Tell kinds apart by their arguments too (a damaged row's id), not by the text alone."""
        self.written: dict[str, float] = {}
        """When each kind was last written in full."""
        self.held: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or getattr(record, "summary", False):
            return True
        kind = str(record.msg)
        if self.by_arguments and record.args:
            kind = record.getMessage()
        now = time.monotonic()
        if now - self.written.get(kind, -self.window) >= self.window:
            if len(self.written) > 1000:
                self.written.clear()  # kinds are a few; a flood of distinct texts is not kept
            self.written[kind] = now
            return True
        self.held[kind] = self.held.get(kind, 0) + 1
        return False

    def flush(self) -> None:
        """Write how many of each kind were held back since the last flush."""
        held, self.held = self.held, {}
        for kind, count in held.items():
            self.logger.warning(
                "beggar: %d more like this in the last %g s: %s",
                count,
                self.window,
                kind[:200],
                extra={"summary": True},
            )


def summarise_repeats(
    logger: logging.Logger, window: float = 60.0, *, by_arguments: bool = False
) -> RepeatSummary:
    """Summarise ``logger``'s repeated warnings (:class:`RepeatSummary`); the janitor flushes it."""
    summary = next((each for each in logger.filters if isinstance(each, RepeatSummary)), None)
    if summary is None:
        summary = RepeatSummary(logger, window, by_arguments=by_arguments)
        logger.addFilter(summary)
        _SUMMARIES.append(summary)
    return summary


_SUMMARIES: list[RepeatSummary] = []


SERVER_LOGGERS = ("beggar.web.app", "beggar.web.handler")
"""The server's own loggers whose warnings name what they are about (a damaged row's id)."""


def quiet_client_mistakes() -> None:
    """Keep mistakes a client makes on its own connection out of the server's error log, and
    count repeated warnings rather than write each."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(each, _ClientMistakes) for each in logger.filters):
        logger.addFilter(_ClientMistakes())
    summarise_repeats(logger)
    for name in SERVER_LOGGERS:
        summarise_repeats(logging.getLogger(name), by_arguments=True)


def flush_summaries() -> None:
    """Write, for every summarised logger, how many warnings of each kind were held back."""
    for summary in _SUMMARIES:
        summary.flush()


__all__ = ["SERVER_LOGGERS", "RepeatSummary", "flush_summaries", "quiet_client_mistakes", "summarise_repeats"]
