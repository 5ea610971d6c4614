"""How fast the automatic players turn their cards: a table's own pace, and the one budget of
cards that every instant table shares.

:func:`drive` turns a table's automatic cards at its pace and enforces its time limit; instant
tables draw their cards from one :class:`CardBudget`, whose rate follows the server's load.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque

from beggar.web.table import Pace, Table

INSTANT_BATCH = 8
"""Cards an instant table turns each time it wakes: one state then carries several cards, so the
server spends its time turning cards rather than waking tables and sending a state per card."""
LAG_HIGH = 0.020
"""Event-loop lag (seconds) above which instant tables are slowed: people's updates come first."""
LAG_LOW = 0.008
"""Lag below which instant tables may speed up again, up to their ceiling."""


class CardBudget:
    """A token bucket shared by every instant-pace table, whose rate follows the server's load.

    Instant tables play with the time the server has to spare. While any instant table plays, a
    watcher measures how late the event loop runs a timer (its lag): the longer the queue of work
    before it, the longer every person's update waits too. Above :data:`LAG_HIGH` the rate falls
    by a fifth each time; below :data:`LAG_LOW` it climbs back, at most to ``ceiling``. A fixed
    rate cannot be right: what one card costs depends on the machine and on what else it runs.
    """

    WATCH_INTERVAL = 0.05
    """Seconds between two measures of the lag."""

    def __init__(self, ceiling: float) -> None:
        self.ceiling = ceiling
        self.floor = min(ceiling, 100.0)
        """Instant tables always turn at least this many cards a second between them."""
        self.rate = ceiling
        self.tokens = self._burst()
        self.stamp = time.monotonic()
        self.lag = 0.0
        """The last lag measured (seconds)."""
        self._asked = 0.0
        self._watcher: asyncio.Task[None] | None = None
        self._queue: deque[tuple[asyncio.Future[int], int]] = deque()
        """Tables waiting for cards, first come first served, and how many each would turn."""
        self._timer: asyncio.TimerHandle | None = None

    def _burst(self) -> float:
        """Cards that may be turned at once: a hundredth of a second's worth, a batch at least."""
        return max(float(INSTANT_BATCH), self.rate / 100)

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self._burst(), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    async def take(self, most: int = 1) -> int:
        """Wait until cards may be turned; return how many (from 1 to ``most``).

        Tables that must wait queue up and are served in turn by one timer: hundreds of waiting
        tables cost nothing until their cards come (they do not each wake up to look).
        """
        self._asked = time.monotonic()
        if self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        if not self._queue:
            self._refill()
            if self.tokens >= 1:
                granted = min(most, int(self.tokens))
                self.tokens -= granted
                return granted
        waiting: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((waiting, most))
        self._serve_later()
        return await waiting

    def _batch(self, most: int) -> int:
        """The cards a waiting table waits for: its whole batch (as much as the bucket holds)."""
        return max(1, min(most, int(self._burst())))

    def _serve_later(self) -> None:
        if self._timer is None and self._queue:
            wait = max(0.0, (self._batch(self._queue[0][1]) - self.tokens) / self.rate)
            self._timer = asyncio.get_running_loop().call_later(wait, self._serve)

    def _serve(self) -> None:
        """Give whole batches, while there are cards, to the tables first in the queue."""
        self._timer = None
        self._refill()
        while self._queue:
            waiting, most = self._queue[0]
            if waiting.done():
                self._queue.popleft()  # its table closed meanwhile
                continue
            batch = self._batch(most)
            if self.tokens < batch:
                break
            self._queue.popleft()
            self.tokens -= batch
            waiting.set_result(batch)
        self._serve_later()

    def give_back(self, cards: int) -> None:
        """Cards taken but not turned (the game ended, or was paused, within the batch)."""
        self.tokens += cards

    def adjust(self, lag: float) -> None:
        """Follow one measure of the event loop's lag (seconds)."""
        self.lag = lag
        if lag > LAG_HIGH:
            self.rate = max(self.floor, self.rate * 0.8)
        elif lag < LAG_LOW:
            self.rate = min(self.ceiling, self.rate * 1.05)

    async def _watch(self) -> None:
        """Measure the lag while instant tables play; stop a while after the last one asked."""
        try:
            while time.monotonic() - self._asked < 5:
                start = time.monotonic()
                await asyncio.sleep(self.WATCH_INTERVAL)
                self.adjust(max(0.0, time.monotonic() - start - self.WATCH_INTERVAL))
        finally:
            self._watcher = None

    def stop(self) -> None:
        """Stop watching the loop and serving the queue (the server is stopping)."""
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


async def drive(table: Table, budget: CardBudget) -> None:
    """Turn the automatic players' cards at the table's pace, and enforce the time limit."""
    while not table.closed:
        table.wake.clear()
        table.check_time_limit()
        if not table.waiting_for_machine():
            await _wait(table, _time_to_limit(table))
            continue
        delay = table.pace.delay
        if delay > 0:
            version = table.version
            await _wait(table, delay)
            if table.version != version:
                continue  # pace, pause or a person's card changed things: think again
            if table.waiting_for_machine():
                table.step()
                table.changed()
            continue
        # Instant: a batch of cards at a time from the shared budget, so that hundreds of instant
        # tables share the server fairly and leave it time to send; one change for the batch.
        granted = await budget.take(INSTANT_BATCH)
        turned = 0
        while turned < granted and table.pace is Pace.INSTANT and table.waiting_for_machine():
            table.step()
            turned += 1
        budget.give_back(granted - turned)
        if turned:
            table.changed()
        await asyncio.sleep(0)


def _time_to_limit(table: Table) -> float | None:
    if table.rules.time_limit is None or table.game.over:
        return None
    return max(0.05, table.rules.time_limit - table.playing_seconds())


async def _wait(table: Table, timeout: float | None) -> None:
    """Until the table changes, or ``timeout`` seconds (a timer that wakes it; no task per wait)."""
    if timeout is None:
        await table.wake.wait()
        return
    timer = asyncio.get_running_loop().call_later(timeout, table.wake.set)
    try:
        await table.wake.wait()
    finally:
        timer.cancel()


__all__ = ["INSTANT_BATCH", "LAG_HIGH", "LAG_LOW", "CardBudget", "drive"]
