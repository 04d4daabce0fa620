"""Fixtures: a fresh in-process server (its own in-memory store) per test."""
from __future__ import annotations

from typing import Iterator

import pytest
from starlette.testclient import TestClient

from interpreter.server.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:")) as c:
        yield c
