"""OpenSpiel's ISMCTS on the adapter, against the project's own, both against the heuristic bot.

    python tools/openspiel_ismcts.py --spec reglamento --options players=2,target=15 --matches 10 \\
        --simulations 100

OpenSpiel's C++ `pyspiel.ISMCTSBot` samples worlds through the game's `ResampleFromInfostate`,
which a game written in Python cannot provide to C++; its Python port
(`open_spiel.python.algorithms.ismcts.ISMCTSBot`) takes a resampler, so it runs here with the
project's determinization (`interpreter.bots.ismcts.determinize`) and OpenSpiel's own
tree, random-rollout evaluator (played to the end of the match, through the adapter's chance
nodes) and final policy. Each bot plays the same seeds from both seats; the table gives wins
and seconds per decision.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts as os_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402

import interpreter.adapters.openspiel as adapter  # noqa: E402
from interpreter.bots import HeuristicBot, IsmctsBot, play_out  # noqa: E402
from interpreter.bots.ismcts import determinize  # noqa: E402
from interpreter.engine.game import load_game, parse_options  # noqa: E402
from interpreter.engine.state import State  # noqa: E402
from interpreter.measure.stats import wilson  # noqa: E402


class OpenSpielIsmcts:
    """OpenSpiel's Python ISMCTSBot deciding for one seat of a match of the project's engine."""

    def __init__(self, game: Any, seed: int, simulations: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
        self.bot = os_ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                                       random_state=np.random.RandomState(seed))
        self.bot.set_resampler(self._resample)
        self.decisions = 0
        self.seconds = 0.0

    def _wrap(self, match: State) -> adapter.SpecState:
        state = self.game.new_initial_state()
        state._box.match = match
        return state

    def _resample(self, state: adapter.SpecState, player: int) -> adapter.SpecState:
        assert state.match is not None
        world, _ = determinize(state.match, player, self.rng)
        return self._wrap(world)

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        action = int(self.bot.step(self._wrap(state.clone())))
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return str(state.game.actions[action])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--spec", default="reglamento")
    p.add_argument("--options", default="players=2,target=15")
    p.add_argument("--matches", type=int, default=10, help="matches per bot (half from each seat)")
    p.add_argument("--simulations", type=int, default=100, help="playouts per decision, both bots")
    args = p.parse_args(argv)
    options = parse_options([x for x in args.options.split(",") if x])
    game = load_game(args.spec, options)
    os_game = pyspiel.load_game("python_truco_rules", {"spec": args.spec, "options": args.options})
    print(f"{args.spec} {args.options}: {args.matches} matches a bot against heuristic, "
          f"{args.simulations} playouts per decision\n")
    print("| bot | wins | win rate [95% CI] | seconds per decision |")
    print("|---|---:|---|---:|")
    for name in ("openspiel-ismcts", "ismcts"):
        wins = decisions = 0
        seconds = 0.0
        for index in range(args.matches):
            seed, seat = index // 2, index % 2
            searcher: Any = OpenSpielIsmcts(os_game, seed, args.simulations) if name == "openspiel-ismcts" \
                else IsmctsBot(seed, playouts=args.simulations)
            bots: list[Any] = [HeuristicBot(seed), HeuristicBot(seed)]
            bots[seat] = searcher
            state = game.new_match(seed=seed)
            started = time.perf_counter()
            play_out(state, bots)
            wins += state.winner == game.team_of[seat]
            if isinstance(searcher, OpenSpielIsmcts):
                decisions += searcher.decisions
                seconds += searcher.seconds
            else:
                decisions += searcher.decisions
                seconds += time.perf_counter() - started
        ci = wilson(wins, args.matches)
        print(f"| {name} | {wins}/{args.matches} | {100 * ci.estimate:.0f}% [{100 * ci.low:.0f}%, "
              f"{100 * ci.high:.0f}%] | {seconds / max(decisions, 1):.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
