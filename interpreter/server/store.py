"""SQLite persistence: each match's creation and its action log, nothing else.

A match is stored as what it was created with (spec, options, seed, bot seats, token
hashes) plus the ordered list of actions applied to it. That is enough to rebuild it
exactly: a match replays from its seed. Each batch of actions is committed before the
server answers, so an answered action survives a kill at any moment.
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any, Iterable

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    created REAL NOT NULL
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
"""


@dataclass(frozen=True)
class MatchRecord:
    """What a match was created with; `seats` holds a bot name or None (a human) per seat."""

    id: str
    spec: str
    options: dict[str, Any]
    seed: int
    seats: tuple[str | None, ...]


class Store:
    """One SQLite database (a file path, or ':memory:' for a server that forgets)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")   # durable against a killed process
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create(self, record: MatchRecord, token_hashes: dict[int, str]) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?)",
                            (record.id, record.spec, json.dumps(record.options), record.seed,
                             json.dumps(list(record.seats)), time.time()))
            self.db.executemany("INSERT INTO tokens VALUES (?, ?, ?)",
                                [(h, record.id, seat) for seat, h in token_hashes.items()])

    def append(self, match_id: str, first: int, actions: Iterable[tuple[int, str]]) -> None:
        """Add actions numbered from `first`; the primary key refuses a gap or a double."""
        rows = [(match_id, first + k, seat, action) for k, (seat, action) in enumerate(actions)]
        if rows:
            with self._transaction():
                self.db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)", rows)

    def record(self, match_id: str) -> MatchRecord | None:
        row = self.db.execute("SELECT id, spec, options, seed, seats FROM matches WHERE id = ?",
                              (match_id,)).fetchone()
        if row is None:
            return None
        return MatchRecord(row[0], row[1], json.loads(row[2]), row[3], tuple(json.loads(row[4])))

    def actions(self, match_id: str) -> list[tuple[int, str]]:
        rows = self.db.execute("SELECT seat, action FROM actions WHERE match_id = ? ORDER BY n", (match_id,))
        return [(seat, action) for seat, action in rows]

    def token(self, token_hash: str) -> tuple[str, int] | None:
        row = self.db.execute("SELECT match_id, seat FROM tokens WHERE token_hash = ?", (token_hash,)).fetchone()
        return None if row is None else (row[0], row[1])

    def _transaction(self) -> "_Tx":
        return _Tx(self.db)


class _Tx:
    """BEGIN … COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute("ROLLBACK" if kind is not None else "COMMIT")
