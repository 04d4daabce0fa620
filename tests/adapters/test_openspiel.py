"""The OpenSpiel adapter (interpreter/adapters/openspiel.py): registered with pyspiel, it
passes OpenSpiel's random simulation test on every bundled spec, deals by explicit chance,
and OpenSpiel's own bots and evaluators play it."""
from __future__ import annotations

import doctest

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

from rulespec.load import bundled_names, open_spec  # noqa: E402

import interpreter.adapters.openspiel as module  # noqa: E402


def _short(spec: str) -> str:
    """The shortest match the spec offers, so simulations stay quick."""
    for option in open_spec(spec).options:
        if option.name == "target":
            return f"target={min(option.values)}"
    return ""


def test_the_module_examples_run() -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("spec", bundled_names())
def test_openspiel_random_simulation_test_passes(spec) -> None:
    game = pyspiel.load_game("python_truco_rules", {"spec": spec, "options": _short(spec)})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_deal_is_explicit_chance_over_the_cards_left() -> None:
    game = pyspiel.load_game("python_truco_rules", {"spec": "paulista", "options": ""})
    state = game.new_initial_state()
    dealt = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert not {a for a, _ in outcomes} & set(dealt)
        dealt.append(outcomes[len(dealt) % len(outcomes)][0])
        state.apply_action(dealt[-1])
    assert len(dealt) == 4 * 3 + 1                 # four hands and the turned card
    assert state.match.observation(0)["turned"] == state.match.game.cards.ids[dealt[-1]]


def test_openspiel_bots_play_whole_matches() -> None:
    game = pyspiel.load_game("python_truco_rules", {"spec": "teg", "options": "players=4,target=15"})
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(game.num_players())]
    rng = np.random.RandomState(3)
    for _ in range(3):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert sorted(returns) == [-1, -1, 1, 1] and returns[0] == returns[2]


def test_observations_hide_other_seats_cards() -> None:
    game = pyspiel.load_game("python_truco_rules", {"spec": "teg", "options": "players=2"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    text = state.observation_string(0)
    theirs = state.match.observation(1)["hand"]
    assert not any(f'"{card}"' in text for card in theirs)
    assert all(f'"{card}"' in text for card in state.match.observation(0)["hand"])
    assert len(state.observation_tensor(0)) == module.Encoder(state.match.game).size


@pytest.mark.parametrize("names", [("heuristic", "random"), ("ismcts:4", "heuristic")])
def test_the_projects_bots_play_through_openspiels_evaluator(names) -> None:
    """`SpecBot` seats a bot of `BOTS` by name as an OpenSpiel bot: OpenSpiel's evaluator plays
    a whole match with them, sampling the deals at its chance nodes, and the match has a winner."""
    game = pyspiel.load_game("python_truco_rules", {"spec": "teg", "options": "players=2,target=15"})
    bots = [module.SpecBot(name, player, seed=player) for player, name in enumerate(names)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert sorted(returns) == [-1.0, 1.0]
    assert [b.player_id() for b in bots] == [0, 1]
