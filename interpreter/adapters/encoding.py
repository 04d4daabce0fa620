"""A seat's observation as a flat vector in [0, 1], for learning bots (PettingZoo, OpenSpiel).

Built from `State.observation(seat)` only, and laid out from the game's own tables, so it
fits any spec: seats are counted from the observing seat, trick results from its team.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from interpreter.bots import tables
from interpreter.engine.game import Game
from interpreter.engine.state import State


class Encoder:
    """The layout of one game's observation vector; `size` floats per seat."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.cards = game.cards.index
        self.actions = game.action_index
        self.values = sorted(game.values)
        n, c = game.num_players, len(game.cards)
        self.parts: list[tuple[str, int]] = [
            ("hand", c),                      # own unplayed cards
            ("trick", n * c),                 # the trick on the table, by seat counted from the observer
            ("played", c),                    # every card seen face up this hand
            ("turned", c if game.turns_card else 0),
            ("tricks", 3 * game.trick_count),  # each trick: us, them, tie
            ("score", 2),                     # us and them, as shares of the target
            ("worth", 1),                     # the hand's worth, as a share of the target
            ("pending", len(game.actions)),   # the call waiting for an answer
            ("answering", 1), ("counting", 1),
            ("to_act", n),                    # whose decision, counted from the observer
            ("values", len(self.values)),     # own hand values, as shares of all hands
            ("blind", 1),
        ]
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in self.parts:
            self.offsets[name] = at
            at += size
        self.size = at

    def encode(self, state: State, seat: int) -> np.ndarray:
        return self.encode_observation(state.observation(seat))

    def encode_observation(self, obs: dict[str, Any]) -> np.ndarray:
        g = self.game
        out = np.zeros(self.size, dtype=np.float32)
        o = self.offsets
        seat, n, team = obs["seat"], g.num_players, obs["team"]
        c = len(g.cards)
        for card in obs["hand"] or []:
            out[o["hand"] + self.cards[card]] = 1
        for k, trick in enumerate(obs["table"]):
            for played in trick:
                if played["card"] is None or played["covered"] and played["seat"] != seat:
                    continue
                out[o["played"] + self.cards[played["card"]]] = 1
                if k == obs["trick"] - 1:
                    rel = (played["seat"] - seat) % n
                    out[o["trick"] + rel * c + self.cards[played["card"]]] = 1
        if obs["turned"] is not None:
            out[o["turned"] + self.cards[obs["turned"]]] = 1
        for k, result in enumerate(obs["tricks"][: g.trick_count]):
            column = 2 if result == "tie" else 0 if result == team else 1
            out[o["tricks"] + 3 * k + column] = 1
        target = max(obs["target"], 1)
        them = max((s for t, s in enumerate(obs["score"]) if t != team), default=0)
        out[o["score"]] = min(obs["score"][team] / target, 1)
        out[o["score"] + 1] = min(them / target, 1)
        out[o["worth"]] = min(obs["hand_worth"] / target, 1)
        pending = obs["pending"]
        if pending is not None and pending["call"] in self.actions:
            out[o["pending"] + self.actions[pending["call"]]] = 1
            out[o["answering"]] = float(pending["answerer"] == seat)
        out[o["counting"]] = float(obs["count"] is not None)
        if obs["to_act"] is not None:
            out[o["to_act"] + (obs["to_act"] - seat) % n] = 1
        spread = tables(g)
        for k, name in enumerate(self.values):
            out[o["values"] + k] = spread.value_percentile(name, obs["values"].get(name), obs["turned"])
        out[o["blind"]] = float(obs["blind"])
        return out
