"""A guard against new work creeping onto every hand, that is not a timed test: the Python calls
per hand of a fixed seeded run of every bundled spec at every table size (and with its flor on)
stay within the committed budget (tests/perf/call_budget.json, written by
tools/call_budget.py). Adding work to every action makes it fail and says where; taking work
away makes it ask for the lower budget, so that the budget stays tight."""
from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interpreter.engine import build
from interpreter.engine.game import load_game
from interpreter.measure.bench import _pick, calls_per_hand

SLACK = 0.02          # counts are exact; the slack lets a budget outlive a rounding
STALE = 0.10          # a budget this much above the count is lowered


def _tool() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "call_budget.py"
    spec = importlib.util.spec_from_file_location("truco_call_budget", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()
CONFIGS = TOOL.configurations()


@pytest.mark.parametrize("spec, options", CONFIGS, ids=[TOOL.label(s, o) for s, o in CONFIGS])
def test_calls_per_hand_stay_within_the_budget(spec: str, options: dict[str, Any]) -> None:
    budget = json.loads(TOOL.BUDGET.read_text(encoding="utf-8"))[TOOL.label(spec, options)]
    counts = calls_per_hand(load_game(spec, options), TOOL.HANDS)
    allowed: dict[str, float] = budget["calls"]
    if build() != "pure Python":          # a compiled engine's own calls are not seen
        counts = {k: v for k, v in counts.items() if not k.startswith("engine/")}
        allowed = {k: v for k, v in allowed.items() if not k.startswith("engine/")}
    total, limit = sum(counts.values()), sum(allowed.values())
    grown = sorted(((v - allowed.get(k, 0.0), k) for k, v in counts.items()), reverse=True)[:5]
    where = ", ".join(f"{k} +{d:.2f}" for d, k in grown if d > 0.005)
    assert total <= limit * (1 + SLACK) + 0.5, (
        f"{total:.1f} calls per hand against a budget of {limit:.1f}; grown: {where}. If the work is "
        "meant, run `python tools/call_budget.py` and commit the budget with the change.")
    assert total >= limit * (1 - STALE), (
        f"{total:.1f} calls per hand, well under the budget of {limit:.1f}: lower it with "
        "`python tools/call_budget.py`, so that it catches the next addition")


def test_the_count_sees_every_action_and_formula() -> None:
    """The count is of the run it says: as many `apply` and `legal_actions` calls per hand as the
    same run applies actions (on the pure engine, whose functions the profiler sees), and each
    formula play evaluates (the board's `fold.when` and the envido's window), on either build."""
    game = load_game("board")
    calls_per_hand(game, 1)                  # what a process computes once (the shuffle's steps)
    counts = calls_per_hand(game, 30, seed=4)
    rng, actions, dealt, matches = random.Random(4), 0, 0, 0
    while dealt < 30:
        st = game.new_match(seed=4 + matches)
        matches += 1
        dealt += 1
        while not st.match_over:
            if st.hand_over:
                if dealt >= 30:
                    break
                st.next_hand()
                dealt += 1
                continue
            st.apply(_pick(rng, st.legal_actions(), True))
            actions += 1
    assert counts["formula $.fold.when:<lambda>"] > 0 and counts["formula $.contests.envido.window:<lambda>"] > 0
    if build() == "pure Python":
        assert counts["engine/state.py:apply"] == pytest.approx(actions / 30)
        assert counts["engine/state.py:legal_actions"] == pytest.approx(actions / 30)
    assert counts == calls_per_hand(game, 30, seed=4)         # the same run, the same count
