"""Fixtures: a fresh in-process server per test, which lets clients choose seeds (so matches
are reproducible) and does not rate-limit ordinary requests (the tests send thousands);
tests/server/test_hardening.py checks the default limits.

Every fixture that makes a server or a store is parametrised over both backends, so the
server suite runs on SQLite and on PostgreSQL (test ids carry `sqlite` or `postgresql`).
`TRUCO_TEST_STORE=sqlite` (or `postgresql`) narrows a run to one backend.

`postgres` is a throwaway PostgreSQL cluster for the session (tests/server/postgres.py); each
test gets a database of its own, created empty and dropped after it. CREATE DATABASE costs
30-60 ms once the cluster is warm, copying a template no less; a template holding the tables
would save the ~50 ms of creating them, but then no test's server would create its tables as
a new deployment does. docs/testing.md has the measurements and the suite's cost."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.outside import need
from tests.server.helpers import STORES, TEST_SETTINGS, fresh_store
from tests.server.postgres import Cluster, bindir

from interpreter.server.app import create_app


@pytest.fixture(params=STORES)
def db(request) -> Iterator[str]:
    """The store of one test's server: SQLite in memory, or a fresh PostgreSQL database."""
    with fresh_store(request, request.param, ":memory:") as url:
        yield url


@pytest.fixture(params=STORES)
def store_url(request, tmp_path: Path) -> Iterator[str]:
    """A store several servers (or a restarted one) can share: a SQLite file, or a fresh
    PostgreSQL database."""
    with fresh_store(request, request.param, f"sqlite:///{tmp_path / 'matches.sqlite3'}") as url:
        yield url


@pytest.fixture
def client(db) -> Iterator[TestClient]:
    with TestClient(create_app(db, settings=TEST_SETTINGS)) as c:
        yield c


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    need("PostgreSQL's server binaries (initdb)", bindir() is not None, "apt-get install postgresql")
    cluster = Cluster()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
