"""`truco analyze`: exact counts over every deal, checked against known values and brute force."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.engine.game import load_game
from interpreter.measure.analyze import analyze, pair_counts

ARGENTINE = ("teg", "board", "reglamento")      # the specs whose rulebooks have the 40-card envido and flor


@pytest.mark.parametrize("spec", ARGENTINE)
def test_argentine_envido_and_flor_extremes(spec: str) -> None:
    """33 is the highest envido (7 and 6 of one suit: 20 + 13) and 38 the highest flor (7, 6, 5
    of one suit: 20 + 18); 4 suits x C(10, 3) = 480 of the C(40, 3) = 9,880 hands hold a flor."""
    a = analyze(load_game(spec, flor=True))
    values = {d.name: d for d in a.values}
    envido, flor = values["envido"], values["flor"]
    assert envido.deals == flor.deals == 9880
    assert (min(envido.counts), max(envido.counts)) == (0, 33)
    assert envido.holders == 9880
    assert envido.counts[33] == 4 * 38          # the 7 and 6 of a suit, with any third card
    assert (min(flor.counts), max(flor.counts)) == (20, 38)
    assert flor.holders == 480 and flor.counts[38] == 4
    # figures count 0: a flor of three figures counts 20, one per suit and C(3, 3) figures
    assert flor.counts[20] == 4


def test_contest_odds_are_symmetric_and_ties_go_to_the_mano() -> None:
    """Over ordered pairs of hands, the mano is higher exactly as often as lower; the tie rule
    gives it the ties, which is its whole edge."""
    a = analyze(load_game("teg", flor=True))
    for odds in a.contests:
        assert odds.greater == odds.both - odds.greater - odds.equal
        assert odds.ties_to_mano
        assert odds.mano_wins == pytest.approx((odds.greater + odds.equal) / odds.both)
    envido = next(o for o in a.contests if o.name == "envido")
    assert envido.pairs == envido.both == 9880 * 7770            # C(37, 3) opponent hands each
    flor = next(o for o in a.contests if o.name == "flor")
    assert flor.both == 480 * (3 * 120 + 35)   # flors of the other suits, and of the rest of its own suit


def test_pair_counts_agree_with_brute_force() -> None:
    rng = random.Random(4)
    for pool, size in ((8, 2), (9, 3), (10, 3), (7, 1)):
        hands = list(itertools.combinations(range(pool), size))
        values = {h: rng.randrange(5) for h in hands if rng.random() < 0.7}
        both = greater = equal = 0
        for h1, v1 in values.items():
            for h2, v2 in values.items():
                if not set(h1) & set(h2):
                    both += 1
                    greater += v1 > v2
                    equal += v1 == v2
        pairs = sum(1 for h1 in hands for h2 in hands if not set(h1) & set(h2))
        assert pair_counts(values, pool, size) == (pairs, both, greater, equal)


def test_turned_card_specs_count_every_turned_card() -> None:
    """A deal: 40 turned cards, C(39, 3) hands for the mano, C(36, 3) for the opponent; a tie of
    best cards is no win for the mano."""
    a = analyze(load_game("paulista"))
    assert a.turns_card and a.values == [] and a.contests == []
    assert a.best_card.pairs == 40 * 9139 * 7140 and not a.best_card.ties_to_mano
    assert a.best_card.greater == a.best_card.both - a.best_card.greater - a.best_card.equal


def test_cli_json_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "vanikar", "--json", "--out", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["spec"] == "vanikar" and printed["values"][0]["max"] == 33
    assert json.loads((tmp_path / "analysis.json").read_text()) == printed
