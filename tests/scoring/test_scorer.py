"""The engine's payments against an independent scorer written from seed 002's tables.

Random legal play (Hypothesis chooses the seed of the deals and of the choices); at every hand's
end the points the engine gave each team in that hand must equal what tests/scoring/scorer.py
computes from the hand's public events alone.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.engine.game import load_game
from tests.scoring.scorer import Hand, score_hand

TABLES = [{"players": n, "target": t, "flor": False} for n in (2, 4, 6) for t in (15, 30)]


def _check_match(options: dict, seed: int) -> None:
    game = load_game("teg", options)
    state = game.new_match(seed=seed)
    rng = random.Random(seed)
    hands = 0
    while not state.match_over and hands < 40:
        start = len(state.events)
        before = list(state.score)
        deal = state.events[start - 1] if False else None
        while not state.hand_over:
            state.apply(rng.choice(state.legal_actions()))
        events = state.events[start:]
        deal = next(e for e in reversed(state.events[:start + 1]) if e["type"] == "deal")
        engine = [a - b for a, b in zip(state.score, before, strict=False)]
        mine = score_hand(Hand(options["players"], options["target"], deal["mano"], before), events)
        assert engine == mine, (f"teg {options}, seed {seed}, hand {deal['hand']}: engine paid {engine}, "
                                f"the seed's tables {mine}; actions: "
                                f"{[(e['seat'], e['action']) for e in events if e['type'] == 'action']}")
        hands += 1
        if not state.match_over:
            state.next_hand()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_every_hand_pays_what_the_seed_says(options: dict, seed: int) -> None:
    _check_match(options, seed)
