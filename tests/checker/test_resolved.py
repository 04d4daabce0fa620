"""Merges made visible: `truco check --resolved` prints the merged spec with each node's
origin, a variant's note over the base's is shown as such, and base entries left beside a
variant's rewritten outcome patterns or ladder are named with the `!replace` fix."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulespec.load import open_spec

from interpreter.cli import main
from interpreter.designer.check import diagnose


def variant(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: teg\n{body}", encoding="utf-8")
    return path


FIVE = "tricks:\n  count: 5\n  note: Best of five.\n  outcome:\n    {replace}\"A A A\": A\n"


def test_resolved_prints_every_node_with_its_origin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = variant(tmp_path, FIVE.format(replace=""))
    assert main(["check", "--resolved", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"  count: 5  # {path}:3" in out
    teg = open_spec("teg").path
    where = os.path.relpath(teg)            # the base as the command names it: relative to here
    lines = teg.read_text(encoding="utf-8").splitlines()

    def line_of(text: str) -> int:
        return next(n for n, line in enumerate(lines, start=1) if line.strip().startswith(text))

    assert f"  after_tie: \"same_leader\"  # {where}:{line_of('after_tie:')}" in out
    note = next(line for line in out if line.startswith("  note: \"Best of five.\""))
    tricks_note = next(n for n, line in enumerate(lines, start=1) if n > line_of("tricks:") and line.startswith("  note:"))
    if lines[tricks_note - 1].strip() == "note:":       # a note in several languages: its map starts below
        tricks_note += 1
    assert note.endswith(f"# {path}:4 (replaces the base's note at {where}:{tricks_note})")
    pattern = line_of('"A A":')
    assert f"    \"A A\": \"A\"  # {where}:{pattern}" in out


def test_base_patterns_left_in_a_five_trick_variant_are_named(tmp_path: Path) -> None:
    path = variant(tmp_path, FIVE.format(replace=""))
    report = diagnose(str(path), exhaustive=False, fixed={"players": 2, "target": 30, "flor": False})
    warned = [f.diagnostic for f in report.findings if "survive beside" in f.diagnostic.message]
    assert len(warned) == 1
    d = warned[0]
    assert (d.loc.file, d.loc.line, d.path) == (str(path), 6, "$.tricks.outcome")
    assert d.message.startswith("the base's entries 'A A', 'A B A', 'A B B', 'T A', 'T T A', 'A T', 'A B T', "
                                "'T T T' survive beside this file's (this file plays 5 tricks): write "
                                "`outcome: !replace {...}`")


def test_replace_leaves_no_survivor(tmp_path: Path) -> None:
    path = variant(tmp_path, "tricks:\n  count: 5\n  outcome: !replace\n    \"A A A\": A\n")
    report = diagnose(str(path), exhaustive=False, fixed={"players": 2, "target": 30, "flor": False})
    assert not [f for f in report.findings if "survive beside" in f.diagnostic.message]


def test_a_citation_of_the_base_patterns_is_no_rewrite_of_them(tmp_path: Path) -> None:
    """A five-trick variant that only cites the outcome table writes no pattern of its own, so
    no base pattern survives beside one."""
    path = variant(tmp_path, "tricks:\n  count: 5\n  outcome:\n    source: Reglamento, art. 9\n")
    report = diagnose(str(path), exhaustive=False, fixed={"players": 2, "target": 30, "flor": False})
    assert not [f for f in report.findings if "survive beside" in f.diagnostic.message]


def test_a_ladder_of_new_calls_beside_the_base_ladder_is_named(tmp_path: Path) -> None:
    path = variant(tmp_path, "stakes:\n  calls:\n    seis: {worth: 6}\n    nueve: {worth: 9}\n")
    report = diagnose(str(path), exhaustive=False, fixed={"players": 2, "target": 30, "flor": False})
    warned = [f.diagnostic for f in report.findings if "survive beside" in f.diagnostic.message]
    assert [(d.loc.line, d.path) for d in warned] == [(4, "$.stakes.calls")]
    assert "'truco', 'retruco', 'vale_cuatro'" in warned[0].message


def test_one_call_added_to_the_ladder_is_no_rewrite(tmp_path: Path) -> None:
    path = variant(tmp_path, "stakes:\n  calls:\n    vale_cinco: {worth: 5}\n")
    report = diagnose(str(path), exhaustive=False, fixed={"players": 2, "target": 30, "flor": False})
    assert not [f for f in report.findings if "survive beside" in f.diagnostic.message]


def test_undecided_sequences_of_five_tricks_are_shown_as_patterns(tmp_path: Path) -> None:
    """Five tricks with only a three-trick pattern: the undecided sequences are listed in
    the A/B notation (a sequence where the first team wins twice again is `A A B A A`)."""
    path = variant(tmp_path, "tricks:\n  count: 5\n  outcome: !replace\n    \"A A A\": A\n")
    report = diagnose(str(path), exhaustive=False, fixed={"players": 2, "target": 30, "flor": False})
    (undecided,) = [f.diagnostic for f in report.findings if f.diagnostic.message.startswith("no outcome")]
    assert "A A B A A" in undecided.message
