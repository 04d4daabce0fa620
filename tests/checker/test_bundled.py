"""Every bundled spec checks clean, under every option combination (or, where there are
thousands, a set holding every triple of option values), with its exhaustive pass over every
deal under every triple."""
from __future__ import annotations

import functools
import json

import pytest

from rulespec.load import bundled_names, open_spec

from interpreter.cli import available_cores, main
from interpreter.designer import check as check_module
from interpreter.designer import explore as explore_module
from interpreter.designer.check import Report, combinations, covering, diagnose

SPECS = bundled_names()


@functools.cache
def report(name: str) -> Report:
    """As `truco check` makes it: the combinations walked side by side on every core."""
    return diagnose(name, jobs=available_cores())


@pytest.mark.parametrize("name", SPECS)
def test_bundled_spec_checks_clean(name: str) -> None:
    r = report(name)
    assert r.unusable is None
    assert [str(f.diagnostic) for f in r.findings] == []


@pytest.mark.parametrize("name", SPECS)
def test_every_triple_of_option_values_is_checked_and_explored(name: str) -> None:
    """Every combination of options is checked when there are few, else every triple of option
    values; every triple is explored exhaustively; the report names exactly
    the combinations explored."""
    source = open_spec(name)
    combos, total = combinations(source.options)
    r = report(name)
    assert r.total == total and r.checked == len(combos)
    key = lambda combos: sorted(tuple(sorted(c.items())) for c in combos)  # noqa: E731
    assert r.explored == len(r.covered) and key(r.covered) == key(covering(source.options, 3))
    options = source.options
    for i, a in enumerate(options):
        for j in range(i + 1, len(options)):
            for b in options[j + 1:]:
                for va in a.values:
                    for vb in options[j].values:
                        for vc in b.values:
                            assert any(c[a.name] == va and c[options[j].name] == vb and c[b.name] == vc
                                       for c in r.covered), (a.name, va, options[j].name, vb, b.name, vc)
    assert len(options) < 3 or r.coverage() == f"every triple of option values: {r.explored} of {total} combinations"
    assert r.states > 0 and r.transitions >= r.states - 1 and r.choices > 0 and r.longest > 0


def test_pairwise_covers_every_pair_of_values() -> None:
    options = open_spec("reglamento").options
    combos = covering(options, 2)
    names = [o.name for o in options]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for va in options[i].values:
                for vb in options[names.index(b)].values:
                    assert any(c[a] == va and c[b] == vb for c in combos), (a, va, b, vb)
    assert len(combos) < 40, "far fewer than the product of the values"


def test_json_report_has_the_figures_and_the_interpretations(capsys: pytest.CaptureFixture[str]) -> None:
    """`--report --json`: the counts (states explored, time) and every named interpretation
    choice, the options declared with `kind: interpretation`."""
    code = main(["check", "--json", "--report", "paulista"])
    out = json.loads(capsys.readouterr().out)["paulista"]
    assert code == 0 and out["diagnostics"] == []
    assert out["checked"] == out["combinations"] == 16
    assert out["states"] > 1000 and out["seconds"] > 0 and out["longest_hand"] > 0
    choices = {c["name"]: c for c in out["interpretations"]}
    assert set(choices) == {o.name for o in open_spec("paulista").options if o.kind == "interpretation"}
    assert choices["three_pardas"]["values"] == ["nobody", "mano"]
    assert choices["three_pardas"]["default"] == "nobody"
    assert "aucune paire ne gagne un point" in choices["three_pardas"]["source"]
    assert "players" not in choices, "table options are not interpretation choices"


def test_report_text_lists_interpretations(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")
    code = main(["check", "--report", "paulista"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and lines[0] == "ok paulista"
    text = "\n".join(lines)
    assert "option combinations checked" in text and "states" in text and " s" in text
    assert "interpretation choices" in text and "three_pardas = nobody (nobody | mano)" in text


@pytest.mark.parametrize("name", SPECS)
def test_every_deal_is_walked_under_every_combination(name: str) -> None:
    """At six players with flor, a comparison of every seat's value is one question of the
    abstract deal, not one per seat; a counted chain is keyed by what it pays, up to the points
    that end the match; the keys share their parts, so a million states fit: every combination
    of every triple of option values of every bundled spec is walked over every deal, and none
    falls back to chosen deals (reglamento's largest, six players with flor, the reales, a falta
    that adds and is worth what the winner lacks, and the maldón, is 1,050,549 states)."""
    r = report(name)
    assert r.sampled == [] and r.samples == []


def test_a_combination_past_the_budget_falls_back_to_chosen_deals_and_says_so(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A designer's variant whose every deal is more than the walk may keep is walked on three
    chosen deals instead, and `--report` names the combination and the deals: here the board at
    six with flor, under a budget of 3,000 states."""
    monkeypatch.setenv("COLUMNS", "1000")
    for module in (explore_module, check_module):
        monkeypatch.setattr(module, "ABSTRACT_STATES", 3000)
    monkeypatch.setattr(explore_module, "ABSTRACT_VISITS", 9000)
    fixed = ["players=6", "flor=true", "target=15", "decline_rule=all_but_last", "falta_mode=adds",
             "falta_value=leader", "flor_vs_flor=each", "fold_envido_point=false", "three_pardas=nobody"]
    code = main(["check", "--report", "-j", "1", *(a for o in fixed for a in ("-o", o)), "board"])
    out = capsys.readouterr().out
    assert code == 0
    assert ("deals explored: every deal under 0 of 2 combinations" in out
            and "under 2 combinations every deal is more than 3,000 states, so chosen deals were explored instead "
                "(runs to the last trick; ties a trick; both teams hold flor)" in out), out
    assert out.count("(chosen deals)") == 2
