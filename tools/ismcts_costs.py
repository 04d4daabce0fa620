"""What the ISMCTS bot costs, per bundled spec and table size: seconds per decision and the
share of sampled worlds that had to fall back (no consistent replay found in 20 deals).

    python tools/ismcts_costs.py --playouts 150 --hands 3 --matches 2

Every seat is an `ismcts` bot; each match stops after `--hands` hands.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulespec.load import bundled_names, open_spec  # noqa: E402

from interpreter.bots import IsmctsBot  # noqa: E402
from interpreter.bots import build as bots_build  # noqa: E402
from interpreter.engine import build  # noqa: E402
from interpreter.engine.game import load_game  # noqa: E402
from interpreter.engine.state import turns  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--playouts", type=int, default=150)
    p.add_argument("--hands", type=int, default=3)
    p.add_argument("--matches", type=int, default=2)
    args = p.parse_args(argv)
    print(f"engine {build()}, bots {bots_build()}; {args.playouts} playouts, {args.matches} matches of "
          f"{args.hands} hands a table\n")
    print("| table | decisions | seconds per decision | worlds | fell back |")
    print("|---|---:|---:|---:|---:|")
    for name in bundled_names():
        options = {o.name: o for o in open_spec(name).options}
        for players in (options["players"].values if "players" in options else (None,)):
            chosen: dict[str, Any] = {} if players is None else {"players": players}
            if "flor" in options and True in options["flor"].values:
                chosen["flor"] = True
            game = load_game(name, chosen)
            bots = [IsmctsBot(seed=s, playouts=args.playouts) for s in range(game.num_players)]
            started = time.perf_counter()
            for seed in range(args.matches):
                state = game.new_match(seed=seed)
                for seat in turns(state, max_hands=args.hands):
                    state.apply(bots[seat].choose(state, seat), seat=seat)
            secs = time.perf_counter() - started
            decisions = sum(b.decisions for b in bots)
            worlds = sum(b.sampled for b in bots)
            fell = sum(b.unreplayed for b in bots)
            label = f"{name} {game.num_players}p" + (" flor" if chosen.get("flor") else "")
            print(f"| {label} | {decisions} | {secs / max(decisions, 1):.3f} | {worlds} | "
                  f"{100 * fell / max(worlds, 1):.1f}% |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
