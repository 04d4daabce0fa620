"""Token buckets per key (a client address, a seat): a burst, then a steady rate.

Refusals answer 429 with `Retry-After`, the seconds until one more request would pass. The
table of keys is bounded: past its size the least recently seen key is forgotten, which
only ever gives that key a fresh burst.

A `RateLimit` counts in this process only; a `SharedRateLimit` keeps its buckets in a shared
store (PostgreSQL), so several server processes together allow one key its rate once.
"""
from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from interpreter.server.errors import ApiError


class RateLimit:
    """At most `burst` requests at once per key, refilled at `per_second`."""

    def __init__(self, what: str, burst: float, per_second: float, keys: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.burst = burst
        self.per_second = per_second
        self.keys = keys
        self.clock = clock
        self.buckets: OrderedDict[object, tuple[float, float]] = OrderedDict()    # key → (tokens, when)

    def take(self, key: object) -> None:
        """Spend one token of `key`'s bucket, or raise 429 with the wait."""
        now = self.clock()
        tokens, then = self.buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            wait = max(1, math.ceil((1 - tokens) / self.per_second))
            raise ApiError(429, "rate_limited", f"too many {self.what}; try again in {wait} s", retry_after=wait)
        self.buckets[key] = (tokens - 1, now)
        while len(self.buckets) > self.keys:
            self.buckets.popitem(last=False)


class SharedRateLimit(RateLimit):
    """The same buckets, kept in the store's `rates` table on the database's clock."""

    def __init__(self, what: str, burst: float, per_second: float, store: Any, name: str) -> None:
        super().__init__(what, burst, per_second, 0)
        self.store = store
        self.name = name

    def take(self, key: object) -> None:
        wait = self.store.take_token(f"{self.name}:{key}", self.burst, self.per_second)
        if wait:
            raise ApiError(429, "rate_limited", f"too many {self.what}; try again in {wait:g} s",
                           retry_after=int(wait))
