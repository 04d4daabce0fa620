"""The uruguayo-pytruco spec against pytruco 0.1.3 over random complete hands
(tests/uruguayo/differential.py).

Random deals, random actions among those both engines allow, at 2, 4 and 6 players and every
target; after every hand both must agree that it ended and on the score. The spec is uruguayo with
every pytruco reading selected; the situations the two vocabularies do not map are kept out and
counted (differential.UNMAPPED, docs/uruguayo.md). The other values of the choices where pytruco
differs — the Uruguayan rulebooks' (uruguayo's defaults) and the Argentine base's — must each be
noticed: the comparison is not blind to them.
"""
from __future__ import annotations

import pytest

from tests.uruguayo.differential import UNMAPPED, Report, run

TABLES = [(2, 40, 400), (2, 30, 200), (2, 20, 200), (4, 40, 150), (4, 20, 60), (6, 40, 60), (6, 30, 40)]


def show(report: Report) -> str:
    first = "\n".join(report.mismatches[:3])
    return f"{len(report.mismatches)} mismatches in {report.hands} hands, the first:\n{first}"


@pytest.mark.parametrize("players, target, hands", TABLES)
def test_random_hands_score_as_in_pytruco(players: int, target: int, hands: int) -> None:
    report = run(players, target, range(1000 * players + target, 10**6), hands)
    assert report.hands >= hands
    assert not report.mismatches, show(report)
    assert report.chosen["play"] and report.chosen["accept"] and report.chosen["flor"]
    assert set(report.kept_out) <= set(UNMAPPED), "every situation left out is documented"


@pytest.mark.parametrize("players, option, value", [
    # the Uruguayan rulebooks' readings, uruguayo's defaults
    (2, "decline_rule", "all_but_last"),
    (2, "falta_value", "leader"),
    (2, "falta_mode", "replaces"),
    (2, "flor_vs_flor", "winner_own"),
    (2, "flor_decline", "caller_flors"),
    (2, "contraflor_value", "flors"),
    (2, "plain_flor", "twenty_plus_cards"),
    (4, "parda_lead", "mano"),
    # the Argentine base's other values
    (2, "contraflor_resto", "falta_plus_flors"),
    (2, "flor_decline", "caller_flors_plus_one"),
    (4, "parda_lead", "same_leader"),
])
def test_the_other_readings_are_noticed(players: int, option: str, value: str) -> None:
    """Where pytruco's choice differs from the rulebooks' or the Argentine base's, that value is
    seen to score otherwise (or play otherwise) within a few thousand random hands."""
    report = run(players, 40, range(10**6), 4000, {option: value}, stop_at_mismatch=True)
    assert report.mismatches, f"{option}={value} scored as pytruco over {report.hands} hands"
