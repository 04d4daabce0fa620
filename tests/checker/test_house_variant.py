"""docs/house-variant.md and its worked example docs/examples/casa.yaml: the example loads,
checks clean, renders its rules, and the guide shows what the file holds."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rulespec.yamlload import load_yaml

from interpreter.cli import available_cores
from interpreter.designer.check import diagnose
from interpreter.designer.rulebook import render
from interpreter.engine.game import load_game

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "house-variant.md"
EXAMPLE = ROOT / "docs" / "examples" / "casa.yaml"


def test_example_loads_with_its_options() -> None:
    game = load_game(str(EXAMPLE))
    assert game.target == 24 and game.options["flor"] is True and game.options["tres_pardas"] == "nadie"
    assert any(o.pattern == ("T", "T", "T") and o.result == "none" for o in game.spec.tricks.outcomes)


def test_example_checks_clean() -> None:
    report = diagnose(str(EXAMPLE), jobs=available_cores())
    assert [str(f.diagnostic) for f in report.findings] == []
    # 3 table sizes x 3 targets x flor x teg's falta reading x tres_pardas: 72 combinations, more than
    # the checker takes whole, so every triple of option values is checked and walked, every deal
    assert report.total == 72 and report.checked == 27 and report.explored == 25
    assert report.sampled == [], "no fallback to chosen deals"
    assert [o.name for o in report.interpretations] == ["falta", "tres_pardas"]


def test_example_rules_render() -> None:
    text = render(load_game(str(EXAMPLE)))
    assert text.startswith("# Truco de la casa")
    assert "| envido, envido |" not in text, "one envido only"
    assert "| P P P | nadie: no se anota ningún punto |" in text          # Spanish, as teg's rulebook
    assert "### tres pardas" in text and "Valores: mano, nadie; lo habitual: nadie;" in text


def _contains(whole: Any, part: Any) -> bool:
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and _contains(whole[k], v) for k, v in part.items())
    return whole == part


def test_guide_shows_the_example() -> None:
    """Every YAML block of the guide is part of the example file, so the two cannot drift; a
    block that shows a mistake names its file first (`# docs/examples/mistakes/...`) and is part
    of that one, which the guide runs through `truco check` (tests/test_doc_examples.py)."""
    guide = GUIDE.read_text(encoding="utf-8")
    example = load_yaml(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE)).data
    blocks = re.findall(r"```yaml\n(.*?)```", guide, re.S)
    assert len(blocks) >= 6
    mistakes = 0
    for block in blocks:
        whole = example
        named = re.match(r"# (docs/examples/mistakes/\S+\.yaml)\n", block)
        if named:
            mistakes += 1
            file = ROOT / named.group(1)
            whole = load_yaml(file.read_text(encoding="utf-8"), str(file)).data
            assert whole["extends"] == "../casa.yaml", "a mistake made in the guide's own example"
        if block.startswith("  "):                     # a continuation of the options mapping
            block = "options:\n" + block
        assert _contains(whole, load_yaml(block, "guide").data), block
    assert mistakes == 2
    assert "docs/examples/casa.yaml" in guide or "examples/casa.yaml" in guide
