"""The confidence intervals simulations report: exact integer moments, Wilson intervals."""
from __future__ import annotations

import math
import statistics

from interpreter.measure.stats import Moments, wilson


def test_moments_match_the_statistics_module() -> None:
    samples = [3, 0, 0, 7, 2, 2, 30, 1]
    m = Moments()
    for x in samples:
        m.add(x)
    assert m.mean == statistics.mean(samples)
    assert math.isclose(m.variance(), statistics.variance(samples))
    ci = m.interval()
    half = 1.959963984540054 * statistics.stdev(samples) / math.sqrt(len(samples))
    assert math.isclose(ci.low, m.mean - half) and math.isclose(ci.high, m.mean + half)


def test_merged_moments_equal_moments_of_all_samples_in_any_order() -> None:
    a, b, whole = Moments(), Moments(), Moments()
    for x in range(10):
        (a if x % 3 else b).add(x * x)
        whole.add(x * x)
    ab, ba = Moments(), Moments()
    ab.merge(a)
    ab.merge(b)
    ba.merge(b)
    ba.merge(a)
    assert ab == ba == whole


def test_add_with_times_counts_repeated_samples() -> None:
    once, repeated = Moments(), Moments()
    for _ in range(4):
        once.add(5)
    repeated.add(5, times=4)
    assert once == repeated


def test_wilson_interval_known_value_and_bounds() -> None:
    # 8 successes in 10 trials: the Wilson score 95% interval is [0.490, 0.943]
    ci = wilson(8, 10)
    assert ci.estimate == 0.8
    assert round(ci.low, 3) == 0.490 and round(ci.high, 3) == 0.943
    none, every = wilson(0, 50), wilson(50, 50)
    assert none.low == 0.0 and 0 < none.high < 0.1
    assert every.high == 1.0 and 0.9 < every.low < 1


def test_empty_samples_give_nan_not_an_error() -> None:
    assert math.isnan(wilson(0, 0).estimate)
    assert math.isnan(Moments().interval().estimate)
    single = Moments()
    single.add(4)
    assert single.interval().estimate == 4 and math.isnan(single.interval().low)
