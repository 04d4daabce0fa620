"""Confidence intervals over integer tallies.

Simulations add up integers only (counts, sums, sums of squares), so merging the tallies of
any number of workers in any order gives exactly the same figures: the same seed gives the
same report whatever the number of workers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054     # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% confidence interval."""

    estimate: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}

    def __str__(self) -> str:
        return f"{self.estimate:.3f} [{self.low:.3f}, {self.high:.3f}]"


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """A proportion with the Wilson score interval, which stays inside [0, 1] for rare events."""
    if trials == 0:
        return Interval(math.nan, math.nan, math.nan)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)     # exact at the ends, not rounded
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high)


@dataclass
class Moments:
    """Count, sum and sum of squares of integer samples: a mean and its interval, mergeable."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int, times: int = 1) -> None:
        self.n += times
        self.total += x * times
        self.squares += x * x * times

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    def variance(self) -> float:
        """The unbiased sample variance, computed exactly from the integer sums."""
        if self.n < 2:
            return math.nan
        return (self.squares * self.n - self.total * self.total) / (self.n * (self.n - 1))

    def interval(self, z: float = Z95) -> Interval:
        """The mean with a normal-approximation interval (the samples here number thousands)."""
        if self.n == 0:
            return Interval(math.nan, math.nan, math.nan)
        if self.n == 1:
            return Interval(self.mean, math.nan, math.nan)
        half = z * math.sqrt(self.variance() / self.n)
        return Interval(self.mean, self.mean - half, self.mean + half)
