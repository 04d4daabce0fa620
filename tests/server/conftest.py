"""Fixtures: a fresh in-process server (its own in-memory store) per test, which lets clients
choose seeds (so matches are reproducible) and does not rate-limit ordinary requests (the
tests send thousands); tests/server/test_limits.py checks the default limits.

`postgres` is a throwaway PostgreSQL cluster for the session (tests/server/postgres.py);
`store_url` is a fresh store of each backend, for the tests parametrised over both."""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tests.server.helpers import TEST_SETTINGS
from tests.server.postgres import Cluster, bindir

from interpreter.server.app import create_app


@pytest.fixture
def client(request) -> Iterator[TestClient]:
    """`TRUCO_TEST_STORE=postgresql` runs every test of this fixture on a fresh PostgreSQL
    database instead (the whole server suite against the other backend)."""
    db = ":memory:"
    if os.environ.get("TRUCO_TEST_STORE") == "postgresql":
        db = request.getfixturevalue("postgres").new_database()
    with TestClient(create_app(db, settings=TEST_SETTINGS)) as c:
        yield c


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    if bindir() is None:
        if os.environ.get("TRUCO_REQUIRE_POSTGRES"):                 # .ci/run: they must run
            pytest.fail("no PostgreSQL server binary (initdb) on this machine, and TRUCO_REQUIRE_POSTGRES is set")
        pytest.skip("no PostgreSQL server binary (initdb) on this machine: apt-get install postgresql")
    cluster = Cluster()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path) -> str:
    """A fresh, empty store: a SQLite file, or a new database on the throwaway cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'matches.sqlite3'}"
    return request.getfixturevalue("postgres").new_database()
