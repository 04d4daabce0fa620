"""Instructions per hand of random play, the interpreter beside the hand-written engine.

`truco bench` times both engines in CPU seconds, which a busy machine blurs by a tenth or
more. Counting the instructions a hand executes (valgrind's callgrind) does not depend on the
load: each engine plays `--few` and then `--many` matches of `truco bench --fold`'s random play,
and the difference of the two counts divided by the difference of hands is what one more hand
costs, start-up and loading excluded. Needs valgrind; slow (valgrind runs some 50× slower).

    python tools/instructions.py                    # the engine this checkout imports
    TRUCO_PURE=1 python tools/instructions.py       # the pure source, even where a build exists
    python tools/instructions.py --spec uruguayo --players 4 --protocol no-fold --fill played --profile out

The hand-written engine plays 2-player `teg` only, so it runs beside the interpreter only there.
`--fill played` fills the hand-value tables by playing the longer run's matches once before the
counted play, rather than filling every table (`--fill all`, as `truco bench` does): the same
steady state, at a fraction of the cost under valgrind for a spec whose tables are large.
`--profile` keeps the interpreter's longer run's callgrind file, for `callgrind_annotate`.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

DRIVER = """
import sys
from interpreter.engine import build
from interpreter.engine.game import load_game
from interpreter.measure.bench import Reference, precompute, random_play, reference_module
which, matches, spec, players, fold, fill = sys.argv[1:7]
matches, fold = int(matches), fold == "fold"
game = load_game(spec, {"players": int(players)})
if fill == "all":
    precompute(game)
else:                   # the matches of the longer run, played once: every hand they deal
    random_play(lambda n: game.new_match(seed=n), None, int(fill), 0, fold)
if which == "interpreter":
    play = random_play(lambda n: game.new_match(seed=n), None, matches, 0, fold)
else:
    play = Reference(reference_module()).play(None, matches, 0, fold)
print(play.hands, build())
"""


REFERENCE_SPEC, REFERENCE_PLAYERS = "teg", 2     # what the hand-written engine plays

EVENTS = ("instructions", "data reads", "data writes", "L1 instruction misses", "L1 data read misses",
          "L1 data write misses", "last-level instruction misses", "last-level data read misses",
          "last-level data write misses", "conditional branches", "conditional branches mispredicted",
          "indirect branches", "indirect branches mispredicted")
"""callgrind's events in the order it reports them with the cache and branch simulations on."""
SHOWN = ("instructions", "L1 instruction misses", "L1 data read misses", "L1 data write misses",
         "conditional branches mispredicted", "indirect branches mispredicted")


class Run(NamedTuple):
    """What is played: a spec at a table size, under a protocol, its tables filled as `--fill` says."""

    spec: str
    players: int
    fold: bool
    fill: str           # "all", or the number of matches played once to fill them


def count(which: str, matches: int, run: Run, caches: bool, keep: Path | None = None) -> tuple[list[int], int, str]:
    """The event counts and hands of one run, and the engine build that ran; `keep` receives
    callgrind's file."""
    simulate = ["--cache-sim=yes", "--branch-sim=yes"] if caches else []
    with tempfile.TemporaryDirectory() as tmp:
        out = keep or Path(tmp) / "callgrind.out"
        done = subprocess.run(["valgrind", "--tool=callgrind", *simulate, f"--callgrind-out-file={out}",
                               sys.executable, "-c", DRIVER, which, str(matches), run.spec, str(run.players),
                               "fold" if run.fold else "no-fold", run.fill],
                              capture_output=True, text=True, check=True)
    found = re.search(r"Collected : ([\d ]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{done.stderr}")
    hands, engine = done.stdout.split(maxsplit=1)
    return [int(n) for n in found.group(1).split()], int(hands), engine.strip()


def per_hand(which: str, few: int, many: int, run: Run, caches: bool,
             keep: Path | None = None) -> tuple[dict[str, float], str]:
    low, low_hands, engine = count(which, few, run, caches)
    high, high_hands, _ = count(which, many, run, caches, keep)
    return {name: (b - a) / (high_hands - low_hands) for name, a, b in zip(EVENTS, low, high, strict=False)}, engine


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--few", type=int, default=50, help="matches of the shorter run")
    ap.add_argument("--many", type=int, default=550, help="matches of the longer run")
    ap.add_argument("--caches", action="store_true", help="also simulate the caches and the branch predictor")
    ap.add_argument("--spec", default=REFERENCE_SPEC, help="the spec played")
    ap.add_argument("--players", type=int, default=REFERENCE_PLAYERS)
    ap.add_argument("--protocol", choices=("fold", "no-fold"), default="fold",
                    help="random folds allowed (`truco bench --fold`), or only when nothing else is legal "
                         "(the bench's default protocol)")
    ap.add_argument("--fill", choices=("all", "played"), default="all",
                    help="fill every hand-value table first, or only the hands the longer run deals")
    ap.add_argument("--profile", type=Path, help="keep the interpreter's longer run's callgrind file here")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    run = Run(args.spec, args.players, args.protocol == "fold", "all" if args.fill == "all" else str(args.many))
    ours, engine = per_hand("interpreter", args.few, args.many, run, args.caches, args.profile)
    reference = (run.spec, run.players) == (REFERENCE_SPEC, REFERENCE_PLAYERS)
    theirs = per_hand("reference", args.few, args.many, run, args.caches)[0] if reference else None
    folds = "with folds" if run.fold else "folding only when nothing else is legal"
    print(f"{run.spec}, {run.players} players, random play {folds}; engine: {engine}; per hand:")
    print(f"{'':36} {'interpreter':>12}" + (f" {'hand-written':>12}" if theirs else ""))
    for name in SHOWN if args.caches else SHOWN[:1]:
        print(f"{name:36} {ours[name]:12,.0f}" + (f" {theirs[name]:12,.0f}" if theirs else ""))
    if theirs:
        ratio = theirs["instructions"] / ours["instructions"]
        print(f"interpreter ÷ hand-written (hands per instruction): {ratio:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
