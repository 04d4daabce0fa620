"""Fixtures: a fresh in-process server (its own in-memory store) per test, which lets clients
choose seeds (so matches are reproducible) and does not rate-limit ordinary requests (the
tests send thousands); tests/server/test_limits.py checks the default limits."""
from __future__ import annotations

from typing import Iterator

import pytest
from starlette.testclient import TestClient

from interpreter.server.app import create_app
from tests.server.helpers import TEST_SETTINGS


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:", settings=TEST_SETTINGS)) as c:
        yield c
