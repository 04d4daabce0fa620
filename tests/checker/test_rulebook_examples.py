"""The rulebook's worked examples are conformance cases: `truco rules SPEC --cases DIR` writes
the examples it prints, they replay, and the bundled specs' examples are kept under
tests/conformance/examples/ (replayed with the rest of the suite by tests/test_conformance.py),
so the document and the suite cannot disagree."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml

from rulespec.load import bundled_names

from interpreter.cli import main
from interpreter.designer.replay import run_file
from interpreter.designer.rulebook import render, worked_cases
from interpreter.engine.game import load_game

SPECS = bundled_names()
KEPT = Path(__file__).parents[1] / "conformance" / "examples"


@functools.cache
def cases(name: str) -> dict:
    return worked_cases(load_game(name), name)


@pytest.mark.parametrize("name", SPECS)
def test_examples_replay(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cases(name), sort_keys=False, allow_unicode=True), encoding="utf-8")
    results = run_file(path)
    assert len(results) == len(cases(name)["cases"])
    failed = [f"{r.name}: step {r.step}: {r.message}" for r in results if not r.passed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("name", SPECS)
def test_kept_examples_are_the_rulebooks(name: str) -> None:
    """tests/conformance/examples/<spec>.yaml is what `truco rules <spec> --cases` writes today;
    regenerate it with that command when the rulebook's examples change."""
    kept = yaml.safe_load((KEPT / f"{name}.yaml").read_text(encoding="utf-8"))
    assert kept == yaml.safe_load(yaml.safe_dump(cases(name), sort_keys=False, allow_unicode=True))


@pytest.mark.parametrize("name", SPECS)
def test_every_example_is_printed_where_it_belongs(name: str) -> None:
    text = render(load_game(name))
    titles = [c["name"] for c in cases(name)["cases"] if "actions" in c]
    assert titles
    for title in titles:
        number, words = title.split(". ", 1)
        assert re.search(rf"\*\*\w+ {re.escape(number)}\*\* — {re.escape(words)} ?:", text), title


@pytest.mark.parametrize("name", SPECS)
def test_every_rule_article_has_an_example(name: str) -> None:
    """The tricks, the stake (when there are calls), leaving the hand, the match and every
    contest (those a table option enables too) each show at least one played example."""
    game = load_game(name)
    played = [c for c in cases(name)["cases"] if "actions" in c]
    text = render(game, language="en")
    articles = dict(re.findall(r"^## Article (\d+)\. (.*)$", text, re.M))
    shown = {articles[c["name"].split(".")[0]] for c in played}
    wanted = {"Tricks and ties", "Leaving the hand", "The match"}
    if game.spec.stakes.calls:
        wanted.add("Raising the stake")
    wanted |= {t for t in articles.values() if t.endswith("calls and what they pay")}
    assert wanted <= shown, sorted(wanted - shown)


def test_cli_writes_the_cases(tmp_path: Path) -> None:
    assert main(["rules", "teg", "--cases", str(tmp_path)]) == 0
    results = run_file(tmp_path / "teg.yaml")
    assert results and all(r.passed for r in results)
    assert any(r.name.endswith("envido, querido") for r in results)
