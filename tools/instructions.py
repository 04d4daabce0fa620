"""Instructions per hand of random play, the interpreter beside the hand-written engine.

`truco bench` times both engines in CPU seconds, which a busy machine blurs by a tenth or
more. Counting the instructions a hand executes (valgrind's callgrind) does not depend on the
load: each engine plays `--few` and then `--many` matches of `truco bench --fold`'s random play,
and the difference of the two counts divided by the difference of hands is what one more hand
costs, start-up and loading excluded. Needs valgrind; slow (valgrind runs some 50× slower).

    python tools/instructions.py                    # the engine this checkout imports
    TRUCO_PURE=1 python tools/instructions.py       # the pure source, even where a build exists
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DRIVER = """
import sys
from interpreter.engine import build
from interpreter.engine.game import load_game
from interpreter.measure.bench import Reference, precompute, random_play, reference_module
which, matches = sys.argv[1], int(sys.argv[2])
game = load_game("teg", {"players": 2})
precompute(game)
if which == "interpreter":
    play = random_play(lambda n: game.new_match(seed=n), None, matches, 0, True)
else:
    play = Reference(reference_module()).play(None, matches, 0, True)
print(play.hands, build())
"""


EVENTS = ("instructions", "data reads", "data writes", "L1 instruction misses", "L1 data read misses",
          "L1 data write misses", "last-level instruction misses", "last-level data read misses",
          "last-level data write misses", "conditional branches", "conditional branches mispredicted",
          "indirect branches", "indirect branches mispredicted")
"""callgrind's events in the order it reports them with the cache and branch simulations on."""
SHOWN = ("instructions", "L1 instruction misses", "L1 data read misses", "L1 data write misses",
         "conditional branches mispredicted", "indirect branches mispredicted")


def count(which: str, matches: int, caches: bool) -> tuple[list[int], int, str]:
    """The event counts and hands of one run, and the engine build that ran."""
    simulate = ["--cache-sim=yes", "--branch-sim=yes"] if caches else []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(["valgrind", "--tool=callgrind", *simulate, f"--callgrind-out-file={out}",
                              sys.executable, "-c", DRIVER, which, str(matches)],
                             capture_output=True, text=True, check=True)
    found = re.search(r"Collected : ([\d ]+)", run.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{run.stderr}")
    hands, engine = run.stdout.split(maxsplit=1)
    return [int(n) for n in found.group(1).split()], int(hands), engine.strip()


def per_hand(which: str, few: int, many: int, caches: bool) -> tuple[dict[str, float], str]:
    low, low_hands, engine = count(which, few, caches)
    high, high_hands, _ = count(which, many, caches)
    return {name: (b - a) / (high_hands - low_hands) for name, a, b in zip(EVENTS, low, high, strict=False)}, engine


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--few", type=int, default=50, help="matches of the shorter run")
    ap.add_argument("--many", type=int, default=550, help="matches of the longer run")
    ap.add_argument("--caches", action="store_true", help="also simulate the caches and the branch predictor")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    ours, engine = per_hand("interpreter", args.few, args.many, args.caches)
    theirs, _ = per_hand("reference", args.few, args.many, args.caches)
    print(f"teg, 2 players, random play with folds; engine: {engine}; per hand:")
    print(f"{'':36} {'interpreter':>12} {'hand-written':>12}")
    for name in SHOWN if args.caches else SHOWN[:1]:
        print(f"{name:36} {ours[name]:12,.0f} {theirs[name]:12,.0f}")
    ratio = theirs["instructions"] / ours["instructions"]
    print(f"interpreter ÷ hand-written (hands per instruction): {ratio:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
