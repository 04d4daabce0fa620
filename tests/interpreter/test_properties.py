"""Property tests over every bundled spec, player count and option value.

From any reachable state: legal actions exist until the match ends and every one is
accepted; random illegal actions are refused and change nothing; scores never decrease;
a finished match has one winner at or above the target; every match ends; the JSON round
trip and clone give an equal state; no observation shows another seat's unrevealed cards.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_OPTION_SETS

from interpreter.engine.game import load_game
from interpreter.engine.randomplay import random_match


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(ALL_OPTION_SETS), seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant(case: tuple[str, dict[str, object]], seed: int) -> None:
    name, options = case
    random_match(load_game(name, options), seed)


def test_every_option_set_plays_a_match() -> None:
    for name, options in ALL_OPTION_SETS:
        st = random_match(load_game(name, options), seed=1, deep=False)
        assert st.match_over and st.winner is not None


def test_same_seed_same_match() -> None:
    game = load_game("teg")
    a = random_match(game, seed=42, deep=False)
    b = random_match(game, seed=42, deep=False)
    assert a.events == b.events and a.score == b.score
