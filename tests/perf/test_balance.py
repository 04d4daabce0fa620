"""`truco balance`: a planted difference is found significant and a variant that changes
nothing is not; paired differences, Holm's adjustment and the default bot; every bundled spec
at every table size."""
from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from rulespec.errors import TrucoError
from rulespec.load import bundled_names, open_spec

from interpreter.cli import main
from interpreter.measure.balance import (
    Difference,
    Linear,
    Variant,
    balance,
    holm,
    linearise,
    metrics,
    paired,
    parse_variant,
    regress,
    strongest_bot,
    widest,
)
from interpreter.measure.simulate import play_chunk

VARIANTS = Path(__file__).parent / "variants"
MANO_POINT = str(VARIANTS / "mano_point.yaml")   # teg, and one point to the mano every hand
NOOP = str(VARIANTS / "noop.yaml")               # teg under another title


def test_a_planted_point_to_the_mano_is_significant_and_a_noop_is_not() -> None:
    """The same 40 matches of teg, of teg giving the mano a point every hand, and of teg
    renamed: the mano's edge grows by about a point per hand, significantly after Holm's
    adjustment; the renamed spec plays the very same matches and differs in nothing."""
    options = {"players": 2, "target": 15}
    b = balance([Variant("teg", "teg", options), Variant("mano point", MANO_POINT, options),
                 Variant("noop", NOOP, options)], matches=40, bots="heuristic", seed=11, workers=1)
    planted, noop = b.differences
    edge = planted["mano_edge"]
    assert edge.significant and edge.low > 0.8 and edge.high < 1.2
    assert planted["points.bonus"].significant
    assert not any(d.significant for d in noop.values())
    assert noop["mano_edge"].estimate == 0 and noop["mano_edge"].p_holm == 1
    report = b.as_dict()
    assert "call.point.accepted" not in report["variants"][0]["figures"]     # teg has no such call
    assert "call.point.made" in report["variants"][1]["figures"]
    assert report["comparisons"][0]["differences"]["mano_edge"]["significant"] is True
    assert report["multiple_comparisons"] == "holm" and report["paired_by"] == "match seed"


def test_duplicate_deals_find_the_planted_point_and_not_the_noop() -> None:
    """Every hand played again with the cards swapped between the two teams: the planted point is
    found, far more finely than card luck would let the plain matches find it, and the renamed
    spec differs in nothing."""
    options = {"players": 2, "target": 15}
    b = balance([Variant("teg", "teg", options), Variant("mano point", MANO_POINT, options),
                 Variant("noop", NOOP, options)], matches=40, bots="heuristic", seed=11, workers=1, duplicate=True)
    planted, noop = b.differences
    edge = planted["mano_edge"]
    assert edge.significant and edge.low > 0.8 and edge.high < 1.2
    assert not any(d.significant for d in noop.values())
    assert noop["mano_edge"].estimate == 0
    report = b.as_dict()
    assert report["design"] == "duplicate" and "luck.envido" in report["controls"]
    assert all(r["plays"] == 2 * r["hands"] for run in b.runs for r in run.rows)      # each hand and its swap


def test_a_swapped_hand_scores_the_planted_point_to_its_own_mano() -> None:
    """The replay's mano is the hand's mano: the free point goes to it in both plays."""
    _, rows = play_chunk(MANO_POINT, {"players": 2, "target": 15}, "heuristic", 3, [0, 1], duplicate=True)
    for row in rows:
        assert row["bonus_0"] + row["bonus_1"] == row["plays"]


def test_precision_stops_once_the_interval_is_narrow_enough() -> None:
    """Rounds of matches until the mano's edge difference is known to ±0.15: the planted point
    needs fewer than the cap, is found, and the interval reported is as narrow as asked; a noop
    stops at once (its difference is exactly 0)."""
    options = {"players": 2, "target": 15}
    b = balance([Variant("teg", "teg", options), Variant("mano point", MANO_POINT, options)], matches=400,
                bots="heuristic", seed=5, workers=1, precision=0.15)
    assert b.matches < 400 and widest(b) <= 0.15 and b.differences[0]["mano_edge"].significant
    assert b.as_dict()["precision"] == 0.15 and len(b.runs[0].rows) == b.matches
    same = balance([Variant("teg", "teg", options), Variant("noop", NOOP, options)], matches=400,
                   bots="heuristic", seed=5, workers=1, precision=0.15)
    assert same.matches == 60 and not same.differences[0]["mano_edge"].significant


def test_control_variates_take_out_what_the_controls_explain() -> None:
    """Terms that are a control plus small noise: the residual spread is the noise's, the shift is
    the fit at the controls' mean; a constant control, or too few matches, leaves the plain error."""
    noise = [0.01 * ((i * 7) % 5 - 2) for i in range(60)]
    luck = [float((i * 13) % 11 - 5) for i in range(60)]
    terms = [c + e for c, e in zip(luck, noise, strict=True)]
    mean = sum(terms) / len(terms)
    terms = [t - mean for t in terms]
    shift, se = regress(terms, [[c, 1.0] for c in luck])
    plain = regress(terms, [])[1]
    assert se < plain / 50 and shift == pytest.approx(sum(luck) / 60, abs=0.01)
    assert regress(terms[:8], [[c] for c in luck[:8]]) == regress(terms[:8], [])


def test_the_same_seed_gives_the_same_report_whatever_the_workers() -> None:
    variants = [Variant("teg", "teg", {}), parse_variant("target=15", "teg", {})]
    for duplicate in (False, True):
        one = balance(variants, 6, "random", seed=3, workers=1, duplicate=duplicate).as_dict()
        two = balance(variants, 6, "random", seed=3, workers=2, duplicate=duplicate).as_dict()
        for r in (one, two):
            r.pop("seconds")
            for v in r["variants"]:
                v["simulate"].pop("workers")
        assert one == two


def test_paired_difference_cancels_what_the_pairs_share() -> None:
    """b − a on pairs: noise both share cancels, so a constant shift of 0.1 is exact."""
    a = Linear(1.0, [0.5, -0.5, 1.5, -1.5])
    b = Linear(1.1, [0.5, -0.5, 1.5, -1.5])
    d = paired(a, b)
    assert d is not None and d.estimate == pytest.approx(0.1) and d.low == d.high and d.p == 0.0
    spread = paired(a, Linear(1.1, [0.4, -0.4, 1.6, -1.6]))
    assert spread is not None and spread.low < 0.1 < spread.high and 0 < spread.p < 1
    assert paired(a, Linear(math.nan, [])) is None


def test_a_ratio_over_matches() -> None:
    rows = [{"hands": 10, "mano_margin": 3}, {"hands": 20, "mano_margin": 3}]
    edge = next(m for m in metrics(rows, 2) if m.key == "mano_edge")
    lin = linearise(rows, edge)
    assert lin.estimate == pytest.approx(6 / 30) and sum(lin.terms) == pytest.approx(0)


def test_holm_steps_down() -> None:
    """Holm: the smallest p times m, the next times m − 1, ..., never below an earlier one."""
    diffs = {k: Difference(0.1, 0.0, 0.2, p) for k, p in (("a", 0.01), ("b", 0.04), ("c", 0.03))}
    diffs["same"] = Difference(0.0, 0.0, 0.0, 1.0)        # equal in every pair: no test
    holm(diffs)
    assert [diffs[k].p_holm for k in ("a", "c", "b", "same")] == pytest.approx([0.03, 0.06, 0.06, 1.0])
    assert diffs["a"].significant and not diffs["b"].significant


def test_the_default_bot_is_the_strongest_available() -> None:
    assert strongest_bot({"random": 0, "heuristic": 0, "ismcts": 0}) == "ismcts"
    assert strongest_bot({"random": 0, "heuristic": 0}) == "heuristic"
    assert strongest_bot() in ("ismcts", "heuristic")


def test_a_variant_is_a_spec_or_options_of_the_spec() -> None:
    assert parse_variant("reales=true,target=15", "reglamento", {"players": "2"}) == \
        Variant("reales=true,target=15", "reglamento", {"players": "2", "reales": "true", "target": "15"})
    assert parse_variant(NOOP, "teg", {"players": "4"}) == Variant(NOOP, NOOP, {"players": "4"})


def test_a_variant_that_does_not_load_is_told_before_any_match_is_played() -> None:
    played: list[int] = []
    with pytest.raises(TrucoError, match="no option 'foo'"):
        balance([Variant("teg", "teg", {}), Variant("foo=1", "teg", {"foo": "1"})], 2, "random",
                progress=played.append)
    assert played == []


def test_every_bundled_spec_at_every_table_size() -> None:
    """Under the heuristic bot, the strongest a branch may have by default."""
    for name in bundled_names():
        decl = next((o for o in open_spec(name).options if o.name == "players"), None)
        for players in decl.values if decl is not None else [None]:
            options = {} if players is None else {"players": players}
            b = balance([Variant(name, name, options)], 2, "heuristic", seed=1)
            figures = b.as_dict()["variants"][0]["figures"]
            assert figures["hands_per_match"]["estimate"] >= 1, (name, players)
            assert -1 <= figures["mano_match_wins"]["estimate"] <= 1


def test_cli_prints_and_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "teg", NOOP, "--matches", "4", "--bots", "random", "--jobs", "1", "--json",
                 "--out", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [v["label"] for v in printed["variants"]] == ["teg", NOOP] and printed["matches"] == 4
    assert (tmp_path / "balance.json").is_file()
    if importlib.util.find_spec("matplotlib") is not None:
        assert (tmp_path / "balance_edges.png").is_file() and (tmp_path / "balance_differences.png").is_file()
    assert main(["balance", "teg", "target=15", "--matches", "3", "--bots", "random", "--jobs", "1"]) == 0
    assert "mano's edge" in capsys.readouterr().out
    assert main(["balance", "teg", "--matches", "2", "--bots", "clever"]) == 1
    capsys.readouterr()
    assert main(["balance", "teg", NOOP, "--matches", "80", "--bots", "random", "--jobs", "1", "--duplicate",
                 "--precision", "5", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["design"] == "duplicate" and printed["precision"] == 5 and printed["matches"] == 60
    assert main(["balance", "teg", "--matches", "80", "--bots", "random", "--jobs", "1", "--seconds", "0.001",
                 "--figure", "points.hand", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["matches"] == 60 and printed["rounds_watched"] == "points.hand"
    assert main(["balance", "teg", "--matches", "80", "--bots", "random", "--precision", "0.1", "--figure", "nope"]) == 1


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is the optional `ray` extra")
@pytest.mark.parametrize("duplicate", [False, True])
def test_ray_backend_gives_the_local_report(duplicate: bool) -> None:
    """One local Ray, bound to loopback, for every variant; the same seed, the same figures,
    with each hand played once or twice from the same copy (`--duplicate`)."""
    variants = [Variant("teg", "teg", {}), parse_variant("target=15", "teg", {})]
    remote = balance(variants, 6, "random", seed=5, backend="ray", duplicate=duplicate).as_dict()
    local = balance(variants, 6, "random", seed=5, workers=1, duplicate=duplicate).as_dict()
    assert remote["design"] == local["design"] == ("duplicate" if duplicate else "match")
    assert remote["comparisons"] == local["comparisons"]
    assert [v["figures"] for v in remote["variants"]] == [v["figures"] for v in local["variants"]]


def test_the_deals_luck_has_mean_zero() -> None:
    """The controls' premise: over many matches, whatever the play, each luck sum averages 0
    (within 4 standard errors); a biased control would bias every adjusted edge."""
    _, rows = play_chunk("reglamento", {"players": 2}, "heuristic", 2, range(300))
    keys = sorted({k for r in rows for k in r if k.startswith("luck.")})
    assert {"luck.hand", "luck.envido", "luck.envido.left"} <= set(keys)
    for key in keys:
        xs = [float(r.get(key, 0)) for r in rows]
        mean = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
        assert abs(mean) <= 4 * sd / math.sqrt(len(xs)) + 1e-12, key
