"""Fixtures shared by the whole suite: one Chromium for the session, one table server for the
browser tests, and a fresh page per test (which fails the test on any script error)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from beggar.notation import random_deal
from beggar.web.settings import ServerSettings
from helpers import CHROMIUM, launch_chromium, opened, serving


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, driven by Playwright (never Playwright's own browser download)."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            needed = "Debian's headless Chromium is needed for the browser tests"
            raise RuntimeError(f"{needed}: apt-get install chromium-headless-shell")
        pytest.skip("Debian's chromium-headless-shell is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        instance = launch_chromium(playwright)
        yield instance
        instance.close()


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The table, served by uvicorn in a thread, with an in-memory database.

    Every browser test of a worker meets this one server from the one address, so the per-address
    quotas on tables and sockets are raised here (tests/web/test_hostile.py and
    tests/web/test_hardening.py hold them at their defaults).
    """
    settings = ServerSettings(
        db=":memory:",
        creates_per_minute=10_000,
        max_tables_per_address=10_000,
        max_tables_per_browser=10_000,
        max_sockets_per_address=10_000,
        replays_per_minute=10_000,
        replay_burst=10_000,
    )
    # A seeded deal's first shuffle loads the compiled shuffle (numba's import and cache: seconds
    # of a processor, many more under load, with the interpreter held): done here, before any
    # browser test waits on a table, rather than inside the first one's timeout.
    random_deal(seed=1)
    with serving(settings) as url:
        yield url


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A desktop-sized page in a fresh context; a script error on it fails the test."""
    with opened(browser, {"width": 1000, "height": 900}) as created:
        yield created


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """The address of a one-worker Dask cluster on loopback (threads, no worker processes)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=":0",  # a free port: several test processes each start one
    ) as cluster:
        yield str(cluster.scheduler_address)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a processor. Most browser, server and process tests spend much of
    their time waiting (on a paced game, a server's start, a killed process), and the other
    worker's tests use those moments."""
    return 2 * (os.cpu_count() or 1)


SLOW_DOCTESTS = {"beggar.research.cycles.neighbours"}
"""Modules whose docstring examples take seconds (a neighbourhood's kernels compile)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Markers that follow from what a test uses: Chromium makes a ``browser`` test, a Dask cluster
    a ``system`` test, whichever module it is in; an ``exhaustive`` test is ``slow`` too."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if {"browser", "page"} & fixtures:
            item.add_marker(pytest.mark.browser)
        if "dask_scheduler" in fixtures:
            item.add_marker(pytest.mark.system)
        if item.get_closest_marker("exhaustive") or (
            isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS
        ):
            item.add_marker(pytest.mark.slow)
    # The long tests first, so that the workers finish together rather than wait on one of them.
    items.sort(key=lambda item: not (item.get_closest_marker("slow") or item.get_closest_marker("system")))
