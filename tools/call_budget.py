"""Write the committed budget of Python calls per hand (tests/perf/call_budget.json).

    python tools/call_budget.py            # measure every configuration and write the budget
    python tools/call_budget.py --show     # print the figures without writing

Run it, on the pure-Python engine, when a change is meant to add work to a hand (or has taken
some away), and commit the budget with the change: `tests/perf/test_call_budget.py` fails when
the calls per hand go past it, and says which functions grew.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rulespec.load import bundled_names, open_spec

from interpreter.engine import build
from interpreter.engine.game import load_game
from interpreter.measure.bench import calls_per_hand

BUDGET = Path(__file__).resolve().parents[1] / "tests" / "perf" / "call_budget.json"
HANDS = 200


def configurations() -> list[tuple[str, dict[str, Any]]]:
    """Every bundled spec at every table size it offers, and with its flor on where it has one."""
    out = []
    for name in bundled_names():
        options = {o.name: o for o in open_spec(name).options}
        for players in options["players"].values if "players" in options else (None,):
            chosen: dict[str, Any] = {} if players is None else {"players": players}
            out.append((name, chosen))
            if "flor" in options and True in options["flor"].values:
                out.append((name, {**chosen, "flor": True}))
    return out


def label(spec: str, options: dict[str, Any]) -> str:
    return " ".join([spec, *(f"{k}={v}" for k, v in options.items())])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="print the figures, write nothing")
    args = ap.parse_args()
    if build() != "pure Python":
        print(f"the budget is of the pure-Python engine, and this one runs as: {build()}", file=sys.stderr)
        return 1
    budget = {}
    for spec, options in configurations():
        counts = calls_per_hand(load_game(spec, options), HANDS)
        budget[label(spec, options)] = {"total": round(sum(counts.values()), 2),
                                        "calls": {k: round(v, 3) for k, v in counts.items()}}
        print(f"{label(spec, options):32} {sum(counts.values()):8.1f} calls per hand")
    if not args.show:
        BUDGET.write_text(json.dumps(budget, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {BUDGET.relative_to(BUDGET.parents[2])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
