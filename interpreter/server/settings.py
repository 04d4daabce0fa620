"""The server's settings: which hosts and origins it answers, whether clients may choose
seeds, and every limit that keeps one client from starving the rest.

The defaults are the safe ones (loopback hosts, server-chosen seeds, finite limits); `truco
serve` changes them with `--allow-host`, `--allow-origin`, `--client-seeds` and
`--limit NAME=VALUE`, where NAME is a field of `Limits`.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class Limits:
    """Every number the server enforces; rates are a burst and a refill per second."""

    max_body: int = 64 * 1024             # bytes of a request body
    max_depth: int = 32                   # nesting of a JSON body or hello
    requests_burst: float = 600           # any HTTP request, per client address
    requests_per_second: float = 200
    creations_burst: float = 16           # POST /api/matches, per client address
    creations_per_second: float = 1.0
    claims_burst: float = 32              # seat claims, per client address
    claims_per_second: float = 1
    signals_burst: float = 5              # free signals, per seat
    signals_per_second: float = 0.5
    clients_tracked: int = 10_000         # client addresses whose rates are remembered
    live_matches: int = 2_000             # matches kept in memory; the least recently used leave first
    idle_match_seconds: float = 600       # a match unused this long leaves memory (it stays in the store)
    game_cache: int = 64                  # compiled games (spec and options) kept
    streams_per_seat: int = 4
    streams_total: int = 1_000
    stream_idle_seconds: float = 300      # a stream with no message either way this long is closed
    stream_messages_burst: float = 12     # messages a client sends on a stream after its hello
    stream_messages_per_second: float = 1
    hello_seconds: float = 10.0           # a stream's first message must come this soon
    ws_max_message: int = 64 * 1024       # bytes of one WebSocket message

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    def with_text(self, pairs: list[str]) -> Limits:
        """These limits with `NAME=VALUE` pairs applied; ValueError names a bad one."""
        changes: dict[str, Any] = {}
        kinds = {f.name: f.type for f in dataclasses.fields(self)}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep or name not in kinds:
                raise ValueError(f"--limit takes NAME=VALUE with NAME one of: {', '.join(kinds)}")
            whole = kinds[name] == "int"
            try:
                number = int(value) if whole else float(value)
            except ValueError:
                number = 0
            if not 0 < number < math.inf:
                kind = "a whole number" if whole else "a number"
                raise ValueError(f"--limit {name} takes {kind} above 0, not {value!r}")
            changes[name] = number
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Settings:
    """What a server accepts; `hosts` and `origins` hold host names, with or without a port."""

    hosts: tuple[str, ...] = LOOPBACK_HOSTS
    origins: tuple[str, ...] = ()
    client_seeds: bool = False
    limits: Limits = field(default_factory=Limits)
