"""Persistence: each match's creation, its seats' invitations and tokens, and its action
log, nothing else. One interface, two backends:

- `SqliteStore`, the default: one file (or ':memory:' for a server that forgets), one
  server process.
- `PostgresStore` (psycopg 3, the `postgres` extra): one database shared by any number of
  server processes on any number of machines.

`open_store(db)` picks the backend from `--db`: `postgresql://…` (or `postgres://…`) is
PostgreSQL; `sqlite:///path`, a plain path or ':memory:' is SQLite.

A match is stored as what it was created with (spec, options, seed and the salt of its
commitment, bot seats) plus the ordered list of actions applied to it. That is enough to
rebuild it exactly: a match replays from its seed. Invitations and tokens are stored as
hashes only. Each batch of actions is committed before the server answers, so an answered
action survives a kill at any moment.

Actions on one match are serialised across processes by a conditional write: `matches.logged`
counts the stored actions, and a batch numbered from `first` is stored only by the
transaction whose `UPDATE … SET logged = first + k WHERE logged = first` finds the row
still at `first`; any other raises `Conflict` and stores nothing. No lock is held while a
server computes an action (a killed process leaves nothing locked), and the loser of a race
learns it at once and rebuilds the match from the store. The primary key `(match_id, n)`
refuses a gap or a double besides. On PostgreSQL the update, the inserts and the
notification are one statement (`PostgresStore.append`): an action costs one round trip.
"""
from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    salt TEXT NOT NULL DEFAULT '',
    logged INTEGER NOT NULL DEFAULT 0,
    claims INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS invitations (
    code_hash TEXT PRIMARY KEY,
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    claimed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT PRIMARY KEY,
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (match_id, n)
);
CREATE TABLE IF NOT EXISTS rates (
    key TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
"""

CHANNEL = "match_changes"          # PostgreSQL NOTIFY channel; the payload is the match id


class Conflict(Exception):
    """Another writer stored actions of this match first; nothing of this batch was stored."""


@dataclass(frozen=True)
class MatchRecord:
    """What a match was created with; `seats` holds a bot name or None (a human) per seat;
    `salt` makes the published commitment to the seed unguessable."""

    id: str
    spec: str
    options: dict[str, Any]
    seed: int
    seats: tuple[str | None, ...]
    salt: str


class Store:
    """The store interface; the SQL is shared, each backend gives `_tx`, `_one`, `_all`.

    `shared` says whether other processes may write the same store (then a server checks it
    for their actions on every request, and `listen` tells it of their commits)."""

    shared = False
    url = ""

    # -- backend primitives ------------------------------------------------------------------

    def _tx(self) -> Any:                      # a context manager yielding an executor
        raise NotImplementedError

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        raise NotImplementedError

    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        raise NotImplementedError

    def _notify(self, ex: Any, match_id: str) -> None:
        """Tell other processes, at commit, that a match changed (PostgreSQL only)."""

    def close(self) -> None:
        raise NotImplementedError

    def listen(self, callback: Callable[[str | None], None]) -> None:
        """Call `callback(match_id)` (from another thread) after another process commits a
        change to a match; `callback(None)` when changes may have been missed. SQLite: never."""

    # -- the interface --------------------------------------------------------------------

    def create(self, record: MatchRecord, code_hashes: dict[int, str]) -> None:
        with self._tx() as ex:
            ex("INSERT INTO matches (id, spec, options, seed, seats, created, salt) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (record.id, record.spec, json.dumps(record.options), record.seed,
                json.dumps(list(record.seats)), time.time(), record.salt))
            for seat, h in code_hashes.items():
                ex("INSERT INTO invitations (code_hash, match_id, seat) VALUES (?, ?, ?)", (h, record.id, seat))

    def claim(self, match_id: str, code_hash: str, token_hash: str) -> int | None:
        """Mark an invitation claimed and store its seat's token; None if it is not an open one.
        The conditional update makes two simultaneous claims of one code give one token."""
        with self._tx() as ex:
            if ex("UPDATE invitations SET claimed = 1 WHERE code_hash = ? AND match_id = ? AND claimed = 0",
                  (code_hash, match_id)) != 1:
                return None
            row = self._one("SELECT seat FROM invitations WHERE code_hash = ?", (code_hash,))
            assert row is not None
            ex("INSERT INTO tokens VALUES (?, ?, ?)", (token_hash, match_id, row[0]))
            ex("UPDATE matches SET claims = claims + 1 WHERE id = ?", (match_id,))
            self._notify(ex, match_id)
        return int(row[0])

    def invitation(self, match_id: str, code_hash: str) -> tuple[int, bool] | None:
        """The seat of an invitation and whether it is claimed already."""
        row = self._one("SELECT seat, claimed FROM invitations WHERE code_hash = ? AND match_id = ?",
                        (code_hash, match_id))
        return None if row is None else (int(row[0]), bool(row[1]))

    def claimed(self, match_id: str) -> set[int]:
        """The human seats whose token has been handed out."""
        return {int(seat) for (seat,) in self._all("SELECT seat FROM tokens WHERE match_id = ?", (match_id,))}

    def append(self, match_id: str, first: int, actions: Iterable[tuple[int, str]]) -> int | None:
        """Add actions numbered from `first`, if the match's log is exactly `first` long;
        `Conflict` (and nothing stored) otherwise. A shared store also says how many seats are
        claimed (read in the same round trip), so a copy that skipped its catch-up read learns
        of claims through other processes; None when nothing was stored or for SQLite."""
        rows = [(match_id, first + k, seat, action) for k, (seat, action) in enumerate(actions)]
        if not rows:
            return None
        with self._tx() as ex:
            if ex("UPDATE matches SET logged = ? WHERE id = ? AND logged = ?",
                  (first + len(rows), match_id, first)) != 1:
                raise Conflict(match_id)
            for row in rows:
                ex("INSERT INTO actions VALUES (?, ?, ?, ?)", row)
            self._notify(ex, match_id)
        return None

    def head(self, match_id: str) -> tuple[int, int] | None:
        """How many actions a match has stored and how many seats were claimed: one cheap read
        that tells a process whether its copy is behind."""
        row = self._one("SELECT logged, claims FROM matches WHERE id = ?", (match_id,))
        return None if row is None else (int(row[0]), int(row[1]))

    def changes(self, match_id: str, since: int) -> tuple[int, int, list[tuple[int, str]]] | None:
        """`head` and the actions from number `since` on, in one round trip."""
        rows = self._all("SELECT m.logged, m.claims, a.seat, a.action FROM matches m "
                         "LEFT JOIN actions a ON a.match_id = m.id AND a.n >= ? WHERE m.id = ? ORDER BY a.n",
                         (since, match_id))
        if not rows:
            return None
        return int(rows[0][0]), int(rows[0][1]), [(int(r[2]), r[3]) for r in rows if r[2] is not None]

    def record(self, match_id: str) -> MatchRecord | None:
        row = self._one("SELECT id, spec, options, seed, seats, salt FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        return MatchRecord(row[0], row[1], json.loads(row[2]), int(row[3]), tuple(json.loads(row[4])), row[5])

    def actions(self, match_id: str, since: int = 0) -> list[tuple[int, str]]:
        """The match's actions from number `since` on, in order."""
        rows = self._all("SELECT seat, action FROM actions WHERE match_id = ? AND n >= ? ORDER BY n",
                         (match_id, since))
        return [(int(seat), action) for seat, action in rows]

    def token(self, token_hash: str) -> tuple[str, int] | None:
        row = self._one("SELECT match_id, seat FROM tokens WHERE token_hash = ?", (token_hash,))
        return None if row is None else (row[0], int(row[1]))

    def take_token(self, key: str, burst: float, per_second: float) -> float:
        """Spend one token of the shared bucket `key`: 0 if spent, else the seconds to wait.
        Times are the database's clock, so every process agrees on them."""
        with self._tx() as ex:
            now = float(self._one(self._NOW)[0])            # type: ignore[index]
            ex("INSERT INTO rates (key, tokens, at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
               (key, burst, now))
            tokens, then = self._one("SELECT tokens, at FROM rates WHERE key = ?" + self._LOCK, (key,))  # type: ignore[misc]
            tokens = min(burst, tokens + max(0.0, now - then) * per_second)
            taken = tokens >= 1
            ex("UPDATE rates SET tokens = ?, at = ? WHERE key = ?", (tokens - 1 if taken else tokens, now, key))
            if now - getattr(self, "_pruned", 0.0) > 60:    # a bucket full again is as good as none
                self._pruned = now
                ex("DELETE FROM rates WHERE at < ?", (now - 3600,))
        return 0.0 if taken else max(1.0, math.ceil((1 - tokens) / per_second))

    _NOW = "SELECT 0"
    _LOCK = ""


class SqliteStore(Store):
    """One SQLite database (a file path, or ':memory:' for a server that forgets). The file
    is created readable by its owner only: it holds the seeds of matches under way."""

    _NOW = "SELECT (julianday('now') - 2440587.5) * 86400.0"

    def __init__(self, path: str) -> None:
        import sqlite3
        self.path = self.url = path
        if path != ":memory:":
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))   # SQLite gives its journals the same mode
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")   # durable against a killed process
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(matches)")}
        self.db.executescript(SCHEMA)
        if columns and "salt" not in columns:             # a file written before commitments
            self.db.execute("ALTER TABLE matches ADD COLUMN salt TEXT NOT NULL DEFAULT ''")
        if columns and "logged" not in columns:           # a file written before the conditional write
            self.db.execute("ALTER TABLE matches ADD COLUMN logged INTEGER NOT NULL DEFAULT 0")
            self.db.execute("ALTER TABLE matches ADD COLUMN claims INTEGER NOT NULL DEFAULT 0")
            self.db.execute("UPDATE matches SET logged = (SELECT COUNT(*) FROM actions WHERE match_id = matches.id), "
                            "claims = (SELECT COUNT(*) FROM tokens WHERE match_id = matches.id)")

    def close(self) -> None:
        self.db.close()

    def _run(self, sql: str, args: tuple = ()) -> int:
        return int(self.db.execute(sql, args).rowcount)

    @contextmanager
    def _tx(self) -> Iterator[Callable[[str, tuple], int]]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK when the block raises."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self._run
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        return self.db.execute(sql, args).fetchone()

    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        return self.db.execute(sql, args).fetchall()


class PostgresStore(Store):
    """One PostgreSQL database shared by every server process (psycopg 3). Each process holds
    one connection for its requests and one that LISTENs for the others' commits."""

    shared = True
    _NOW = "SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8"
    _LOCK = " FOR UPDATE"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError as err:
            raise RuntimeError("a PostgreSQL store needs psycopg 3 (the distribution's postgres extra)") from err
        self.psycopg = psycopg
        self.url = url
        self.db = psycopg.connect(url, autocommit=True)
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        with self.db.transaction():                         # processes starting together create it once
            self.db.execute("SELECT pg_advisory_xact_lock(7271)")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
        self.db.close()

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")

    def _run(self, sql: str, args: tuple = ()) -> int:
        return int(self.db.execute(self._sql(sql), args).rowcount)

    @contextmanager
    def _tx(self) -> Iterator[Callable[[str, tuple], int]]:
        with self.db.transaction():
            yield self._run

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        return self.db.execute(self._sql(sql), args).fetchone()

    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        return self.db.execute(self._sql(sql), args).fetchall()

    def _notify(self, ex: Any, match_id: str) -> None:
        ex("SELECT pg_notify(?, ?)", (CHANNEL, match_id))

    # The conditional write, the inserts and the notification in one statement, so one round
    # trip (autocommit: the statement is its own transaction, committed when it returns). The
    # inserts and the NOTIFY read the UPDATE's row: when it finds the log longer than `first`
    # they do nothing, and no row comes back. Under READ COMMITTED a concurrent writer of the
    # row waits for the first and then sees its `logged`, so exactly one of them stores.
    _APPEND = ("WITH bumped AS (UPDATE matches SET logged = %s WHERE id = %s AND logged = %s RETURNING id, claims), "
               "added AS (INSERT INTO actions (match_id, n, seat, action) "
               "SELECT bumped.id, a.n, a.seat, a.action FROM bumped, "
               "unnest(%s::integer[], %s::integer[], %s::text[]) AS a(n, seat, action)) "
               f"SELECT claims, pg_notify('{CHANNEL}', id) FROM bumped")

    def append(self, match_id: str, first: int, actions: Iterable[tuple[int, str]]) -> int | None:
        batch = list(actions)
        if not batch:
            return None
        numbers = [first + k for k in range(len(batch))]
        seats, texts = [seat for seat, _ in batch], [action for _, action in batch]
        stored = self.db.execute(self._APPEND, (first + len(batch), match_id, first, numbers, seats, texts)).fetchone()
        if stored is None:
            raise Conflict(match_id)
        return int(stored[0])

    def listen(self, callback: Callable[[str | None], None]) -> None:
        def run() -> None:
            while not self._stop.is_set():
                try:
                    with self.psycopg.connect(self.url, autocommit=True) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        callback(None)                      # commits made while nobody listened
                        while not self._stop.is_set():     # `close` waits at most one wake-up
                            for note in conn.notifies(timeout=0.1):
                                callback(note.payload)
                except self.psycopg.Error:
                    self._stop.wait(0.5)                    # the database is away: try again

        self._listener = threading.Thread(target=run, name="store-listen", daemon=True)
        self._listener.start()


def open_store(db: str) -> Store:
    """The store `--db` names: `postgresql://…` or `postgres://…`, `sqlite:///path`, a path, ':memory:'."""
    if db.startswith(("postgresql://", "postgres://")):
        return PostgresStore(db)
    if db.startswith("sqlite:///"):            # sqlite:///relative/path, sqlite:////absolute/path
        return SqliteStore(db[len("sqlite:///"):] or ":memory:")
    if db.startswith("sqlite:"):
        raise ValueError(f"a SQLite --db is sqlite:///PATH (three slashes), not {db!r}")
    return SqliteStore(db)
