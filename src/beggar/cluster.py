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
import ctypes
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
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


_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int, then: Callable[[], None] | None) -> None:
    """A pool worker's first act: end when the process that started the pool ends.

    A search killed with SIGKILL cannot stop its workers; without this they would keep running,
    and holding memory, under init. Linux ends them at once (``PR_SET_PDEATHSIG``); a watchdog
    thread catches the rest within a second (another system, or a parent already gone).
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(1.0)
        os._exit(1)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, name="beggar-parent-watch", daemon=True).start()
    if then is not None:
        then()


def local_pool(workers: int, initializer: Callable[[], None] | None = None) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` processes on this machine that end when this process ends, even by SIGKILL.

    ``initializer`` runs once in each worker (for example, to load the compiled kernel).
    """
    return cf.ProcessPoolExecutor(
        max_workers=workers, initializer=_die_with_parent, initargs=(os.getpid(), initializer)
    )
