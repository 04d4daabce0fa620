"""Bots that drive any spec through the public State API only."""
from __future__ import annotations

import random
from typing import Protocol

from interpreter.state import State


class Bot(Protocol):
    def choose(self, state: State, seat: int) -> str: ...


class RandomBot:
    """Uniform over the legal actions; its own seeded generator, so matches replay."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> str:
        return self.rng.choice(state.legal_actions(seat))


def play_out(state: State, bots: list[Bot], max_actions: int = 100_000) -> int:
    """Play until the match ends, dealing each next hand; returns the number of actions."""
    actions = 0
    while not state.match_over:
        if state.hand_over:
            state.next_hand()
            continue
        seat = state.current_player()
        assert seat is not None
        state.apply(bots[seat].choose(state, seat), seat=seat)
        actions += 1
        if actions >= max_actions:
            raise RuntimeError(f"the match did not end within {max_actions} actions")
    return actions
