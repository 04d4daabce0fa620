"""Editor support: `truco schema`, and the `yaml-language-server` line every spec starts
with, so an editor completes and validates keys while a designer types."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulespec.schema import SCHEMA, partial_schema
from rulespec.yamlload import load_yaml_file

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "rulespec" / "spec.schema.json"
PARTIAL_FILE = ROOT / "rulespec" / "spec-partial.schema.json"
SPEC_FILES = sorted((ROOT / "specs").glob("*.yaml")) + sorted((ROOT / "specs" / "bases").glob("*.yaml"))
OTHER_FILES = sorted((ROOT / "docs" / "examples").glob("*.yaml")) + \
    sorted(p for p in (ROOT / "tests" / "specs_invalid").glob("*.yaml") if p.name != "expected.yaml")
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def test_schema_command_prints_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == SCHEMA == json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(printed)


def test_top_level_keys_are_described_for_completion() -> None:
    """An editor shows `description` while completing a key."""
    for key, node in SCHEMA["properties"].items():
        assert "description" in node or "$ref" in node, key


@pytest.mark.parametrize("path", SPEC_FILES + OTHER_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_spec_starts_with_the_schema_modeline(path: Path) -> None:
    """A spec that stands alone points at the schema; a variant that `extends` another at
    the partial schema, since its base supplies what it leaves out."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = MODELINE.match(first)
    assert m, f"{path} does not start with the yaml-language-server line"
    target = (path.parent / m.group(1)).resolve()
    if path.parent == ROOT / "tests" / "specs_invalid":
        assert target in (SCHEMA_FILE, PARTIAL_FILE), "the relative path must reach a schema"
        return
    extends = "extends" in load_yaml_file(path).data
    assert target == (PARTIAL_FILE if extends else SCHEMA_FILE), "the relative path must reach its schema"


def test_partial_schema_file_is_derived_from_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--partial"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == partial_schema(SCHEMA) == json.loads(PARTIAL_FILE.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(printed)


@pytest.mark.parametrize("path", [p for p in SPEC_FILES if "extends" in load_yaml_file(p).data],
                         ids=lambda p: p.name)
def test_variant_validates_on_its_own_against_the_partial_schema(path: Path) -> None:
    """An editor validating a variant alone sees no error: its options may be partial and
    its `~` removals are allowed; a typo is still caught."""
    validator = Draft202012Validator(partial_schema(SCHEMA))
    assert [e.message for e in validator.iter_errors(load_yaml_file(path).data)] == []
    typo = {**load_yaml_file(path).data, "stakse": {}}
    assert any("stakse" in e.message for e in validator.iter_errors(typo))


def test_bundled_specs_are_all_covered() -> None:
    names = {p.stem for p in SPEC_FILES}
    assert {"teg", "argentina"} <= names and len(SPEC_FILES) >= 6


@pytest.mark.parametrize("path", [p for p in SPEC_FILES if "extends" not in load_yaml_file(p).data]
                         + sorted((ROOT / "docs" / "examples").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_file_validates_on_its_own(path: Path) -> None:
    """What an editor does: validate the file alone. Specs without `extends`, and the
    documented example (which writes its options whole for that reason), pass."""
    errors = list(Draft202012Validator(SCHEMA).iter_errors(load_yaml_file(path).data))
    assert [e.message for e in errors] == []
