"""The invalid corpus: each file of tests/specs_invalid/ has one defect, and `truco check`
must report exactly the finding listed for it in expected.yaml — the kinds the issue
names (a card missing from the ranking, a refusal paying more than an accept, an
unreachable call, a tie pattern left undecided, a dead state, an undefined option) and
the other static and exhaustive checks."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.errors import SpecError
from rulespec.load import find_spec, open_spec
from rulespec.yamlload import load_yaml_file

from interpreter.cli import main
from interpreter.designer.check import diagnose

CORPUS = Path(__file__).resolve().parents[1] / "specs_invalid"
EXPECTED: dict = load_yaml_file(CORPUS / "expected.yaml").data
FILES = sorted(p.name for p in CORPUS.glob("*.yaml") if p.name != "expected.yaml")


def defaults(path: Path) -> dict[str, object] | None:
    """The default options, to check one combination; None when the file does not load."""
    try:
        return {o.name: o.default for o in open_spec(path).options}
    except SpecError:
        return None


def test_every_file_has_an_expectation_and_back() -> None:
    assert FILES and sorted(EXPECTED) == FILES


@pytest.mark.parametrize("name", FILES)
def test_file_gives_exactly_its_diagnostic(name: str) -> None:
    """Under the default options (the full option sweep is tested once below, it is slow)."""
    path = CORPUS / name
    report = diagnose(str(path), fixed=defaults(path))
    want = EXPECTED[name]
    assert len(report.findings) == 1, [str(f.diagnostic) for f in report.findings]
    d = report.findings[0].diagnostic
    assert d.loc is not None and Path(d.loc.file) == path, d
    assert (d.severity, d.loc.line, d.loc.col, d.path) == (want["severity"], want["line"], want["col"], want["path"])
    assert want["message"] in d.message


@pytest.mark.parametrize("name", ["dead_state.yaml", "tie_undecided.yaml"])
def test_every_option_combination_still_gives_one_finding(name: str) -> None:
    """Checked under all twenty-four combinations of teg's options, the defect is still reported
    once (seen under several combinations, one line)."""
    report = diagnose(str(CORPUS / name))
    assert report.checked == 24
    assert len(report.findings) == 1, [str(f.diagnostic) for f in report.findings]
    assert EXPECTED[name]["message"] in report.findings[0].diagnostic.message


def test_cli_prints_the_located_line_and_exits_1(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    path = CORPUS / "undefined_option.yaml"
    code = main(["check", str(path), "-o", "players=2", "-o", "target=30", "-o", "flor=false"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    want = EXPECTED["undefined_option.yaml"]
    assert lines[0].startswith(f"error {path}:{want['line']}:{want['col']} at {want['path']}: {want['message']}")
    assert len(lines) == 1, "one finding is one line, never wrapped"


def test_a_payoff_failure_without_a_place_is_told_at_the_stakes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine failing while the payoffs are read, with no formula to blame (an assertion of
    its own), is still a finding, placed at the stakes where the reading starts: the base's, told
    at the line the variant wrote there."""
    def fails(game: object) -> None:
        raise AssertionError("the ladder has no first step")
    monkeypatch.setattr("interpreter.designer.check.payoffs", fails)
    path = CORPUS / "base_fails.yaml"
    report = diagnose(str(path), fixed=defaults(path))
    base = find_spec("teg")
    line = base.read_text(encoding="utf-8").splitlines().index("stakes:") + 2     # where its map begins
    assert [str(f.diagnostic) for f in report.findings] == [
        f"{path}:7:9 at $.stakes.base: the ladder has no first step, so the payoffs cannot be computed"
        f" [in the base: {base}:{line}:3 at $]"]
