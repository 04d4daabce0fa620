"""Every mistake of a file in one pass (rulespec.load.validate): a misspelt key (a schema error)
does not hide a formula's type error on another line, in `truco check` and in the editor. The
designer's complaint: fix one, see the next."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.variants import refused
from tests.variants import write_variant as variant

from interpreter.cli import main
from interpreter.designer.lsp.analysis import analyze

TWO_MISTAKES = ("stakes:\n  calls:\n    truco: {worht: 2}\n"           # line 5: a misspelt key
                "contests:\n  envido:\n    window: \"trick + 1\"\n")   # line 8: a number as a condition


def places(path: Path) -> list[tuple[int, int, str]]:
    return [(d.loc.line, d.loc.col, d.path) for d in refused(path)]


def test_a_misspelt_key_and_a_formula_type_error_are_both_told(tmp_path: Path) -> None:
    assert places(variant(tmp_path, TWO_MISTAKES)) == [(5, 13, "$.stakes.calls.truco.worht"),
                                                       (8, 14, "$.contests.envido.window")]


def test_truco_check_prints_both(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")
    path = variant(tmp_path, TWO_MISTAKES)
    assert main(["check", str(path)]) == 1
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("error ")]
    assert [ln.split(": ", 1)[0] for ln in lines] == [f"error {path}:5:13 at $.stakes.calls.truco.worht",
                                                      f"error {path}:8:14 at $.contests.envido.window"]
    assert "unknown key 'worht' (did you mean 'worth'?)" in lines[0]
    assert "expected a condition (true or false), got a number" in lines[1]


def test_the_editor_shows_both_as_typed(tmp_path: Path) -> None:
    path = variant(tmp_path, "")
    a = analyze(path, f"name: casa\nextends: teg\n{TWO_MISTAKES}")
    assert [(f.code, f.diagnostic.loc.line) for f in a.findings] == [("schema", 5), ("dsl-type", 8)]


def test_every_pass_reports_at_once(tmp_path: Path) -> None:
    """An override that names nothing, a schema error, an option's wrong default and a formula's
    unknown name, each on its own line: four findings."""
    path = variant(tmp_path, "contests:\n  envido:\n    calls:\n      real_envdio: ~\n"      # 6: override
                             "tricks: {count: three}\n"                                       # 7: schema
                             "options:\n  cuarenta: {values: [20, 40], default: 30}\n"        # 9: options
                             "fold: {when: \"my_trn\"}\n"                                      # 10: types
                             "match: {target: options.cuarenta}\n")
    assert [line for line, _, _ in places(path)] == [6, 7, 9, 10]


@pytest.mark.parametrize("body, path", [
    # an option the schema refuses (no default): its readers are not told "unknown option" again
    ("options:\n  cuarenta: {values: [20, 40]}\nmatch: {target: options.cuarenta}\n", "$.options.cuarenta"),
    # a new entry refused as an override: the schema's "missing required key" there is the same mistake
    ("options:\n  flr: {default: true}\n", "$.options.flr"),
    # a formula the schema refuses is not type-checked as well
    ("fold: {when: 3}\n", "$.fold.when"),
])
def test_a_mistake_is_told_once_not_again_as_its_consequences(tmp_path: Path, body: str, path: str) -> None:
    assert [p for _, _, p in places(variant(tmp_path, body))] == [path]
