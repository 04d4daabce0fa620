"""CI runs Hypothesis from a fixed seed, so a failing example is the same on every run."""
from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st


def test_the_ci_profile_is_derandomized() -> None:
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci":
        return                   # explore on purpose: fresh examples
    assert settings.default.derandomize is True
    assert settings.default.database is None


DRAWN: list[list[int]] = []


@settings(max_examples=5)
@given(st.lists(st.integers(0, 10**6), min_size=3, max_size=3))
def _draw(xs: list[int]) -> None:
    DRAWN[-1].append(xs)


def test_two_runs_draw_the_same_examples() -> None:
    if not settings.default.derandomize:
        return
    for _ in range(2):
        DRAWN.append([])
        _draw()
    assert DRAWN[0] == DRAWN[1]
