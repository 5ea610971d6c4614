"""Running research work on a Dask cluster instead of the local process pool.

The research tools submit their units of work to a :class:`concurrent.futures.Executor`: a
process pool on this machine by default, or the executor of a Dask ``distributed`` client, so
both run the very same code path.

>>> connect("http://example")
Traceback (most recent call last):
...
beggar.cluster.ClusterError: write the Dask scheduler as tcp://HOST:PORT, not 'http://example'
"""

from __future__ import annotations

import concurrent.futures as cf
import re
from dataclasses import dataclass
from typing import Any


class ClusterError(RuntimeError):
    """A cluster that cannot be used: not installed, badly named, or unreachable."""


_ADDRESS = re.compile(r"(tcp|tls|ws|wss|inproc)://\S+")


@dataclass
class Cluster:
    """A connection to a Dask scheduler and the executor that submits work to it."""

    client: Any
    executor: cf.Executor

    def close(self) -> None:
        self.client.close()


def connect(address: str, *, timeout: float = 10) -> Cluster:
    """Connect to the Dask scheduler at ``address`` (``tcp://HOST:PORT``)."""
    if not _ADDRESS.fullmatch(address):
        raise ClusterError(f"write the Dask scheduler as tcp://HOST:PORT, not {address!r}")
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(
            "a Dask scheduler needs Dask's distributed: pip install 'beggar[cluster]'"
        ) from None
    try:
        client = Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return Cluster(client, client.get_executor(pure=False))  # type: ignore[no-untyped-call]
