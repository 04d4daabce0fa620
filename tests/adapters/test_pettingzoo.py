"""The PettingZoo AEC adapter (interpreter/adapters/pettingzoo.py): PettingZoo's own API test
on every bundled spec, action masks that match the legal actions, per-agent observations that
hide other seats' cards, and terminations with the match's returns."""
from __future__ import annotations

import doctest

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from rulespec.load import bundled_names  # noqa: E402

import interpreter.adapters.pettingzoo as module  # noqa: E402
from interpreter import Deal, load_game  # noqa: E402
from interpreter.adapters.encoding import Encoder  # noqa: E402
from interpreter.adapters.pettingzoo import env  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402
from interpreter.engine.state import turns  # noqa: E402


def test_the_module_examples_run() -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("spec", bundled_names())
def test_pettingzoo_api_test_passes(spec) -> None:
    api_test(env(spec=spec), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("spec,players", [("teg", 2), ("teg", 4), ("paulista", 4)])
def test_a_whole_match_by_masks_ends_with_terminations_and_returns(spec, players) -> None:
    e = env(spec=spec, players=players)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        seat = e.seat_of[agent]
        assert [e.game.actions[i] for i in np.flatnonzero(mask)] == sorted(
            info["legal"], key=e.game.action_index.__getitem__)
        assert e.state.current_player() == seat
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert e.state.match_over and steps > 0
    returns = e.state.returns()
    assert sorted(set(returns)) == [-1.0, 1.0]
    assert all(e._cumulative_rewards.get(a, 0.0) == 0.0 for a in e.agents)


def test_an_observation_does_not_depend_on_other_seats_cards() -> None:
    """Two deals that differ only in seat 1's hand look the same to seat 0."""
    game = load_game("teg", players=2)
    encoder = Encoder(game)
    a = game.new_match(seed=1, deals=[Deal((("1e", "7c", "4o"), ("2b", "3b", "5b")))])
    b = game.new_match(seed=1, deals=[Deal((("1e", "7c", "4o"), ("12c", "11o", "6e")))])
    assert np.array_equal(encoder.encode(a, 0), encoder.encode(b, 0))
    assert not np.array_equal(encoder.encode(a, 1), encoder.encode(b, 1))


@pytest.mark.parametrize("name", ["heuristic", "ismcts:4"])
def test_a_bot_policy_plays_the_match_the_bot_plays_on_the_state(name) -> None:
    """`bot_policy` seats a bot of `BOTS` by name: every action it gives is legal, and the match
    is the one the same bot, seeded alike, plays on the engine's own state."""
    e = env(spec="teg", players=2, target=15)
    e.reset(seed=9)
    policies = {agent: module.bot_policy(name, seed=k) for k, agent in enumerate(e.possible_agents)}
    taken = []
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = policies[agent](e, agent)
        assert obs["action_mask"][action] == 1
        taken.append(e.game.actions[action])
        e.step(action)
    assert e.state.match_over
    direct = load_game("teg", {"players": 2, "target": 15}).new_match(seed=9)
    bots = [make_bot(name, seed=k) for k in range(2)]
    alike = []
    for seat in turns(direct):
        action = bots[seat].choose(direct, seat)
        alike.append(action)
        direct.apply(action, seat=seat)
    assert taken == alike
