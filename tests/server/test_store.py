"""The store interface, the same tests on both backends (SQLite and PostgreSQL): what a match
was created with, invitations claimed once, the action log and its conditional write, and
the shared rate buckets. Two store objects on one database stand for two server processes."""
from __future__ import annotations

import pytest

from interpreter.server.store import Conflict, MatchRecord, PostgresStore, SqliteStore, open_store

RECORD = MatchRecord("m1", "teg", {"players": 2, "target": 15}, (1 << 62) - 1, (None, "random"), "salt")


@pytest.fixture
def store(store_url):
    s = open_store(store_url)
    yield s
    s.close()


def test_open_store_picks_the_backend_from_the_url(store_url, tmp_path) -> None:
    s = open_store(store_url)
    try:
        assert isinstance(s, PostgresStore if store_url.startswith("postgresql://") else SqliteStore)
        assert s.shared == isinstance(s, PostgresStore)
    finally:
        s.close()
    assert isinstance(open_store(str(tmp_path / "plain.sqlite3")), SqliteStore)
    assert open_store("sqlite:///:memory:").path == ":memory:"
    with pytest.raises(ValueError):
        open_store("sqlite:/x")


def test_a_match_is_stored_with_what_it_was_created_with(store) -> None:
    store.create(RECORD, {0: "code0"})
    assert store.record("m1") == RECORD
    assert store.record("nope") is None
    assert store.head("m1") == (0, 0)
    assert store.actions("m1") == []


def test_an_invitation_is_claimed_once(store) -> None:
    store.create(RECORD, {0: "code0"})
    assert store.invitation("m1", "code0") == (0, False)
    assert store.claim("m1", "code0", "tok0") == 0
    assert store.claim("m1", "code0", "tok1") is None
    assert store.claim("other", "code0", "tok2") is None
    assert store.invitation("m1", "code0") == (0, True)
    assert store.token("tok0") == ("m1", 0) and store.token("tok1") is None
    assert store.claimed("m1") == {0}
    assert store.head("m1") == (0, 1)


def test_the_log_grows_only_from_its_exact_length(store) -> None:
    store.create(RECORD, {})
    store.append("m1", 0, [(0, "a"), (1, "b")])
    with pytest.raises(Conflict):
        store.append("m1", 1, [(0, "stale")])                  # written at a length that has passed
    with pytest.raises(Conflict):
        store.append("m1", 3, [(0, "gap")])
    store.append("m1", 2, [(0, "c")])
    store.append("m1", 3, [])
    assert store.actions("m1") == [(0, "a"), (1, "b"), (0, "c")]
    assert store.actions("m1", 2) == [(0, "c")]
    assert store.head("m1") == (3, 0)
    assert store.changes("m1", 1) == (3, 0, [(1, "b"), (0, "c")])
    assert store.changes("m1", 3) == (3, 0, [])
    assert store.changes("nope", 0) is None


def test_two_writers_on_one_database_store_one_batch_at_each_length(store_url) -> None:
    a, b = open_store(store_url), open_store(store_url)
    try:
        a.create(RECORD, {0: "code0"})
        a.append("m1", 0, [(0, "from a")])
        with pytest.raises(Conflict):
            b.append("m1", 0, [(0, "from b")])                # b had not seen a's action
        b.append("m1", 1, [(1, "from b")])
        assert a.actions("m1") == b.actions("m1") == [(0, "from a"), (1, "from b")]
        assert b.claim("m1", "code0", "t") == 0 and a.claim("m1", "code0", "u") is None
    finally:
        a.close()
        b.close()


def test_a_rate_bucket_is_shared_by_every_writer(store_url) -> None:
    a, b = open_store(store_url), open_store(store_url)
    try:
        assert a.take_token("creations:10.0.0.1", 2, 0.001) == 0
        assert b.take_token("creations:10.0.0.1", 2, 0.001) == 0
        assert a.take_token("creations:10.0.0.1", 2, 0.001) > 1       # the burst is spent, whoever asks
        assert b.take_token("creations:10.0.0.2", 2, 0.001) == 0       # another client has its own
    finally:
        a.close()
        b.close()
