"""Where random play spends its time: cProfile of the bench's random play, by phase and by function.

The phases are the three calls a bot makes (deal the next hand, list the legal actions, apply
one) and the bot's own choice; the table below them is the usual cProfile listing. Hand values
are computed for every hand first, as `truco bench` does, so the profile is of the steady state.

    python tools/profile_play.py uruguayo --players 2 --matches 300
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys

from interpreter.engine.game import load_game
from interpreter.measure.bench import Interpreter, precompute


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--top", type=int, default=25, help="functions listed, by own time")
    args = ap.parse_args()
    game = load_game(args.spec, players=args.players)
    precompute(game)
    engine = Interpreter(game)
    profile = cProfile.Profile()
    profile.enable()
    played = engine.play(None, args.matches, seed=0, fold=False)
    profile.disable()
    stats = pstats.Stats(profile)
    total = max(stats.total_tt, 1e-9)  # type: ignore[attr-defined]
    print(f"{game!r}: {played.matches} matches, {played.hands} hands, {played.actions} actions "
          f"({total:.2f} s under the profiler)")
    phases = {"next_hand": "deal the next hand", "legal_actions": "legal actions", "apply": "apply an action",
              "choice": "the bot's choice (random.choice)"}
    for (path, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        if name in phases and ("interpreter" in path or name == "choice"):
            print(f"  {phases[name]:<34} {100 * row[3] / total:5.1f}%")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
