"""What one network address, or one seat, may do, however many connections it opens.

A :class:`Bucket` bounds one client's rate; :class:`AddressLimits` counts each address's sockets,
new tables and tries at table ids that do not exist, and each seat's renames (a seat's token may
be held by many sockets). The numbers are :class:`~beggar.web.settings.ServerSettings`'.
"""

from __future__ import annotations

import time
from typing import TypeVar

from beggar.web.settings import ServerSettings

Key = TypeVar("Key", str, tuple[str, int])


class Bucket:
    """A token bucket: ``allow()`` is False when a client sends faster than ``rate``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def has(self) -> bool:
        """Would :meth:`allow` say yes now? (Spends nothing.)"""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1

    def allow(self) -> bool:
        if not self.has():
            return False
        self.tokens -= 1
        return True


class AddressLimits:
    """What one network address may do, however many connections it opens."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.creates: dict[str, Bucket] = {}
        self.failed_joins: dict[str, Bucket] = {}
        self.sockets: dict[str, int] = {}
        """Open WebSockets per network address."""
        self.replays: dict[str, Bucket] = {}
        self.renames: dict[tuple[str, int], Bucket] = {}
        """Renames per seat: ``(table id, seat)``."""

    def open_socket(self, address: str) -> bool:
        """Count one more socket from ``address``; False (nothing counted) if it has its fill."""
        count = self.sockets.get(address, 0)
        if count >= self.settings.max_sockets_per_address:
            return False
        self.sockets[address] = count + 1
        return True

    def close_socket(self, address: str) -> None:
        """One socket from ``address`` closed."""
        count = self.sockets.get(address, 0) - 1
        if count > 0:
            self.sockets[address] = count
        else:
            self.sockets.pop(address, None)

    def _bucket(self, buckets: dict[Key, Bucket], address: Key, per_minute: float, burst: float) -> Bucket:
        if len(buckets) > 100_000:  # forget addresses rather than grow without bound
            buckets.clear()
        bucket = buckets.get(address)
        if bucket is None:
            bucket = buckets[address] = Bucket(per_minute / 60, burst)
        return bucket

    def may_create(self, address: str) -> bool:
        return self._bucket(self.creates, address, self.settings.creates_per_minute, 10).allow()

    def may_guess(self, address: str) -> bool:
        """One more try at a table id that may not exist (a failed join spends it)."""
        return self._bucket(self.failed_joins, address, self.settings.failed_joins_per_minute, 10).has()

    def may_replay(self, address: str) -> bool:
        """One more replay asked for from ``address`` (spends it if so)."""
        settings = self.settings
        return self._bucket(self.replays, address, settings.replays_per_minute, settings.replay_burst).allow()

    def may_rename(self, table: str, seat: int) -> bool:
        """One more name for ``seat`` of ``table``, whichever socket asks (spends it if so)."""
        settings = self.settings
        return self._bucket(
            self.renames, (table, seat), settings.renames_per_minute, settings.rename_burst
        ).allow()

    def failed_join(self, address: str) -> None:
        self._bucket(self.failed_joins, address, self.settings.failed_joins_per_minute, 10).allow()


__all__ = ["AddressLimits", "Bucket"]
