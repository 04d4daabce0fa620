"""SQLite persistence: each match's creation, its seats' invitations and tokens, and its
action log, nothing else.

A match is stored as what it was created with (spec, options, seed and the salt of its
commitment, bot seats) plus the ordered list of actions applied to it. That is enough to
rebuild it exactly: a match replays from its seed. Invitations and tokens are stored as
hashes only. Each batch of actions is committed before the server answers, so an answered
action survives a kill at any moment. The file is created readable by its owner only: it
holds the seeds of matches under way.
"""
from __future__ import annotations

import json
import os
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
    created REAL NOT NULL,
    salt TEXT NOT NULL DEFAULT ''
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
"""


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
    """One SQLite database (a file path, or ':memory:' for a server that forgets)."""

    def __init__(self, path: str) -> None:
        self.path = path
        if path != ":memory:":
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))   # SQLite gives its journals the same mode
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")   # durable against a killed process
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(matches)")}
        if "salt" not in columns:                          # a file written before commitments
            self.db.execute("ALTER TABLE matches ADD COLUMN salt TEXT NOT NULL DEFAULT ''")

    def close(self) -> None:
        self.db.close()

    def create(self, record: MatchRecord, code_hashes: dict[int, str]) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO matches (id, spec, options, seed, seats, created, salt) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (record.id, record.spec, json.dumps(record.options), record.seed,
                             json.dumps(list(record.seats)), time.time(), record.salt))
            self.db.executemany("INSERT INTO invitations (code_hash, match_id, seat) VALUES (?, ?, ?)",
                                [(h, record.id, seat) for seat, h in code_hashes.items()])

    def claim(self, match_id: str, code_hash: str, token_hash: str) -> int | None:
        """Mark an invitation claimed and store its seat's token; None if it is not an open one."""
        with self._transaction():
            row = self.db.execute("SELECT seat FROM invitations WHERE code_hash = ? AND match_id = ? AND claimed = 0",
                                  (code_hash, match_id)).fetchone()
            if row is None:
                return None
            self.db.execute("UPDATE invitations SET claimed = 1 WHERE code_hash = ?", (code_hash,))
            self.db.execute("INSERT INTO tokens VALUES (?, ?, ?)", (token_hash, match_id, row[0]))
        return int(row[0])

    def invitation(self, match_id: str, code_hash: str) -> tuple[int, bool] | None:
        """The seat of an invitation and whether it is claimed already."""
        row = self.db.execute("SELECT seat, claimed FROM invitations WHERE code_hash = ? AND match_id = ?",
                              (code_hash, match_id)).fetchone()
        return None if row is None else (int(row[0]), bool(row[1]))

    def claimed(self, match_id: str) -> set[int]:
        """The human seats whose token has been handed out."""
        return {seat for (seat,) in self.db.execute("SELECT seat FROM tokens WHERE match_id = ?", (match_id,))}

    def append(self, match_id: str, first: int, actions: Iterable[tuple[int, str]]) -> None:
        """Add actions numbered from `first`; the primary key refuses a gap or a double."""
        rows = [(match_id, first + k, seat, action) for k, (seat, action) in enumerate(actions)]
        if rows:
            with self._transaction():
                self.db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)", rows)

    def record(self, match_id: str) -> MatchRecord | None:
        row = self.db.execute("SELECT id, spec, options, seed, seats, salt FROM matches WHERE id = ?",
                              (match_id,)).fetchone()
        if row is None:
            return None
        return MatchRecord(row[0], row[1], json.loads(row[2]), row[3], tuple(json.loads(row[4])), row[5])

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
