"""Fixtures of the web tests: a fresh table server in this process, through Starlette's test client
(the session's Chromium and its served table are tests/conftest.py's)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from helpers import app_client


@pytest.fixture
def client_settings() -> dict[str, Any]:
    """What the ``client`` of a module's tests changes of :func:`helpers.app_client`'s defaults
    (settings of the server, or the client's own ``root_path`` and ``raise_server_exceptions``).

    None here; a module whose tests meet another server overrides this fixture, never ``client``.
    """
    return {}


@pytest.fixture
def client(client_settings: dict[str, Any]) -> Iterator[TestClient]:
    """A fresh table server with an in-memory database, through Starlette's test client."""
    with app_client(**client_settings) as test_client:
        yield test_client
