"""The facts each way of listing actions takes as known (`context.ON_TURN`, `ANSWERING`,
`COUNTING`) are true wherever play lists actions that way: the conditions compiled with them
(`Rules.fold_on_turn` ...) then decide as the full formula would. Checked on every position of
random play of every bundled spec, each name read through its own getter."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rulespec.load import bundled_names

from interpreter.engine.context import ANSWERING, COUNTING, ON_TURN, PLAY_NAMES, context
from interpreter.engine.game import load_game
from interpreter.engine.rules import may_answer
from interpreter.engine.state import State

CONFIGS = [(name, options) for name in bundled_names() for options in ({}, {"players": 4}, {"flor": True})]


def situation(st: State, seat: int) -> tuple[str, dict[str, Any]] | None:
    """How `legal._find_acts` lists the seat's actions, and the facts it takes as known then."""
    if st.count is not None:
        return ("counting", COUNTING) if seat == st.count.seat else None
    if st.pending is not None:
        return ("answering", ANSWERING) if may_answer(st, st.game, seat) else None
    return ("on turn", ON_TURN) if seat == st.turn else None


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=[f"{s}-{o}" for s, o in CONFIGS])
def test_the_facts_of_each_situation_hold_wherever_it_arises(name: str, options: dict[str, Any]) -> None:
    try:
        game = load_game(name, options)
    except Exception:  # noqa: BLE001 - an option the spec does not offer
        pytest.skip(f"{name} does not offer {options}")
    rng = random.Random(7)
    seen: Counter[str] = Counter()
    for seed in range(12):
        st = game.new_match(seed=seed)
        while not st.match_over:
            if st.hand_over:
                st.next_hand()
                continue
            for seat in st.seats:
                found = situation(st, seat)
                if found is None:
                    continue
                where, facts = found
                seen[where] += 1
                ctx = context(st, st.game, seat, st.game.team_of[seat])
                for fact, value in facts.items():
                    assert PLAY_NAMES[fact](ctx) == value, (where, fact, st.events[-3:])
            st.apply(rng.choice(st.legal_actions()))
    assert seen["on turn"] and seen["answering"], seen
    if any(cont.procedure == "announce" for cont in game.contests):
        assert seen["counting"], seen
