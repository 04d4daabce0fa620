"""Conditions that stay false for the rest of a hand (rulespec/growth.py): only what the names
marked `grows` make certain, never a condition that could hold again."""
from __future__ import annotations

import pytest

from rulespec.dsl import parse_expr
from rulespec.errors import Loc
from rulespec.growth import stays_false
from rulespec.vocabulary import NAMES, markdown


def _false_for_good(text: str, **now: object) -> bool:
    return stays_false(parse_expr(text, lambda offset: Loc("spec.yaml", 1, 1 + offset)), now.__getitem__)


MALDON = "trick == 1 and not played and calls_made == 0"
"""Reglamento: 'Maldón — deux 4 et une figure : le joueur peut annuler la donne', before any card and call."""


@pytest.mark.parametrize(("now", "expected"), [
    ({"trick": 1, "played": False, "calls_made": 0}, False),      # holds now
    ({"trick": 1, "played": True, "calls_made": 0}, True),        # the seat has played
    ({"trick": 1, "played": False, "calls_made": 1}, True),       # a call was made
    ({"trick": 2, "played": False, "calls_made": 0}, True),       # past the first trick
])
def test_the_maldon_window_closes_for_good(now: dict[str, object], expected: bool) -> None:
    assert _false_for_good(MALDON, **now) is expected


@pytest.mark.parametrize(("text", "now", "expected"), [
    ("trick == 2", {"trick": 1}, False),            # not yet: it will hold at the second trick
    ("trick == 2", {"trick": 3}, True),
    ("trick < 3", {"trick": 3}, True),
    ("trick <= 2", {"trick": 2}, False),
    ("3 > trick", {"trick": 3}, True),              # mirrored: trick < 3
    ("2 >= trick", {"trick": 3}, True),
    ("trick > 1", {"trick": 1}, False),             # a growing name may still pass 1
    ("played", {"played": False}, False),
    ("not played", {"played": True}, True),
    ("not played or trick == 1", {"played": True, "trick": 2}, True),
    ("not played or trick == 2", {"played": True, "trick": 1}, False),
    ("false", {}, True),
    ("not my_turn", {"my_turn": True}, False),      # a turn comes back: my_turn does not grow
    ("score_us < 3", {"score_us": 5}, False),       # scores are not among the growing names
    ("trick == calls_made", {"trick": 2, "calls_made": 0}, False),
])
def test_only_a_growing_name_past_its_literal_stays_false(text: str, now: dict[str, object], expected: bool) -> None:
    assert _false_for_good(text, **now) is expected


def test_the_growing_names_are_documented_as_such() -> None:
    growing = {name for name, t in NAMES.items() if t.grows}
    assert growing == {"trick", "played", "stake_level", "stake_calls", "calls_made"}
    reference = markdown()
    for name in growing:
        assert f"| `{name}` |" in reference and "(never goes down within a hand)" in \
            next(line for line in reference.splitlines() if line.startswith(f"| `{name}` |"))
