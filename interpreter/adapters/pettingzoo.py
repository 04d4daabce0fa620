"""A PettingZoo AEC environment for any spec (the `pettingzoo` extra).

Agents are `seat_0 … seat_{n-1}`; an episode is one match. Each observation is
`{"observation": float32 vector (see encoding.py), "action_mask": int8 over every action id}`;
actions are the game's stable integer ids. The environment deals each next hand itself.
Rewards come at the end: +1 to the winning team's seats, -1 to the others. `bot_policy`
turns any of the project's bots (`random`, `heuristic`, `ismcts:N`) into a policy for an agent.

    >>> from interpreter.adapters.pettingzoo import env
    >>> e = env(spec="teg", players=2)
    >>> e.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = e.last()
    >>> int(obs["action_mask"].sum()) == len(info["legal"])
    True
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from interpreter.adapters.encoding import Encoder
from interpreter.bots import make_bot
from interpreter.engine.game import load_game
from interpreter.engine.state import State


class SpecEnv(AECEnv):
    """One match of a spec under its table options, seat by seat."""

    metadata = {"name": "truco_rules_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, spec: str = "teg", options: dict[str, Any] | None = None, render_mode: str | None = None,
                 max_actions: int = 100_000, **more: Any) -> None:
        super().__init__()
        self.game = load_game(spec, options, **more)
        self.encoder = Encoder(self.game)
        self.render_mode = render_mode
        self.max_actions = max_actions
        n = self.game.num_players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        size = len(self.game.actions)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.state = self.game.new_match(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.actions_taken = 0
        self._selector = AgentSelector(self.agents)
        self._select()

    def _select(self) -> None:
        """The agent whose decision is next; once the match is over, each agent in turn."""
        st = self.state
        assert st is not None
        if st.match_over or self.actions_taken >= self.max_actions:
            self.agent_selection = self._selector.next()
            return
        seat = st.current_player()
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        for agent in self.agents:
            self.infos[agent] = {"legal": st.legal_actions(self.seat_of[agent])}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.state
        assert st is not None
        seat = self.seat_of[agent]
        return {"observation": self.encoder.encode(st, seat),
                "action_mask": np.asarray(st.action_mask(seat), dtype=np.int8)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        st.apply(int(action), self.seat_of[agent])
        self.actions_taken += 1
        if st.hand_over and not st.match_over:
            st.next_hand()
        self.rewards = {a: 0.0 for a in self.agents}
        if st.match_over:
            returns = st.returns()
            self.rewards = {a: returns[self.seat_of[a]] for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        elif self.actions_taken >= self.max_actions:
            self.truncations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str:
        st = self.state
        if st is None:
            return ""
        seat = st.current_player()
        obs = st.observation(seat if seat is not None else 0)
        return (f"hand {obs['hand_number']} score {obs['score']} tricks {obs['tricks']} "
                f"to act {obs['to_act']} legal {obs['legal']}")

    def close(self) -> None:
        self.state = None


def env(**kwargs: Any) -> SpecEnv:
    """The environment, as PettingZoo's `env()` convention has it."""
    return SpecEnv(**kwargs)


def bot_policy(name: str, seed: int | None = None) -> Callable[[SpecEnv, str], int]:
    """A bot of `interpreter.bots.BOTS`, by name, as a policy: given the environment and the
    agent to act, the action id it takes, chosen through that seat's own view."""
    bot = make_bot(name, seed)

    def act(environment: SpecEnv, agent: str) -> int:
        st = environment.state
        assert st is not None
        seat = environment.seat_of[agent]
        return environment.game.action_index[bot.choose(st, seat)]
    return act
