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


def test_writers_racing_at_one_length_store_exactly_one_batch(store_url) -> None:
    """Eight writers (eight processes' connections) append at the same length at once: one
    batch is stored whole, the others raise `Conflict` and store nothing."""
    import threading
    writers = [open_store(store_url) for _ in range(8)]
    try:
        writers[0].create(RECORD, {})
        ready = threading.Barrier(len(writers))
        outcome: dict[int, str] = {}

        def write(k: int) -> None:
            ready.wait()
            try:
                writers[k].append("m1", 0, [(0, f"first {k}"), (1, f"second {k}")])
                outcome[k] = "stored"
            except Conflict:
                outcome[k] = "conflict"

        threads = [threading.Thread(target=write, args=(k,)) for k in range(len(writers))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome.values()) == ["conflict"] * 7 + ["stored"]
        (winner,) = [k for k, o in outcome.items() if o == "stored"]
        assert writers[0].actions("m1") == [(0, f"first {winner}"), (1, f"second {winner}")]
        assert writers[0].head("m1") == (2, 0)
    finally:
        for w in writers:
            w.close()


def test_a_stored_batch_is_announced_and_a_refused_one_is_not(postgres) -> None:
    import psycopg

    from interpreter.server.store import CHANNEL
    url = postgres.new_database()
    a, b = open_store(url), open_store(url)
    try:
        a.create(RECORD, {})
        with psycopg.connect(url, autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            a.append("m1", 0, [(0, "a")])
            with pytest.raises(Conflict):
                b.append("m1", 0, [(0, "refused")])
            b.append("m1", 1, [(1, "b")])
            notes = [n.payload for n in listener.notifies(timeout=30, stop_after=2)]
            listener.execute("SELECT 1")                         # anything queued arrives with its answer
            notes += [n.payload for n in listener.notifies(timeout=0)]
        assert notes == ["m1", "m1"]                              # two commits, two notifications
    finally:
        a.close()
        b.close()
