"""The editor sees what `truco check` reports: on every bundled spec and every broken one."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulespec.load import bundled_dir, bundled_names

from interpreter.designer.check import BUILD, LOAD, STATIC, diagnose
from interpreter.designer.lsp.analysis import analyze

ROOT = Path(__file__).resolve().parents[2]
INVALID = ROOT / "tests" / "specs_invalid"
BAD = ROOT / "tests" / "specs_bad"
EXPECTED = yaml.safe_load((INVALID / "expected.yaml").read_text(encoding="utf-8"))


def _analyze(path: Path, deep: bool = False):
    path = path.resolve()
    return analyze(path, path.read_text(encoding="utf-8"), deep=deep)


def _key(d):
    return (d.severity, Path(d.loc.file).name if d.loc else None, d.loc.line if d.loc else None,
            d.loc.col if d.loc else None, d.path)


@pytest.mark.parametrize("name", bundled_names())
def test_a_bundled_spec_is_clean_as_typed(name):
    a = _analyze(bundled_dir() / f"{name}.yaml")
    assert a.findings == []
    assert a.source is not None


@pytest.mark.parametrize("file", ["decline_pays_more.yaml", "dead_state.yaml", "match_cannot_end.yaml"])
def test_on_save_the_editor_reports_the_checkers_finding(file):
    want = EXPECTED[file]
    a = _analyze(INVALID / file, deep=True)
    got = [f.diagnostic for f in a.findings]
    assert any(d.severity == want["severity"] and d.loc.line == want["line"] and d.loc.col == want["col"]
               and d.path == want["path"] and want["message"] in d.message for d in got), got


@pytest.mark.parametrize("file", sorted(p.name for p in INVALID.glob("*.yaml") if p.name != "expected.yaml"))
def test_as_typed_every_finding_that_plays_no_hand_is_reported(file):
    """The quick pass gives every finding of the checker's load, static and build stages."""
    report = diagnose(str(INVALID / file), exhaustive=False)
    wanted = {_key(f.diagnostic) for f in report.findings if f.stage in (LOAD, STATIC, BUILD)}
    quick = _analyze(INVALID / file)
    assert wanted <= {_key(f.diagnostic) for f in quick.findings}
    assert all(f.code in ("yaml", "override", "schema", "options", "dsl-syntax", "dsl-type", "load", "static", "build")
               for f in quick.findings)


@pytest.mark.parametrize("file", sorted(p.name for p in BAD.glob("*.yaml")))
def test_a_spec_that_does_not_load_shows_the_checkers_errors(file):
    report = diagnose(str(BAD / file), exhaustive=False)
    a = _analyze(BAD / file)
    assert {_key(f.diagnostic) for f in report.findings} == {_key(f.diagnostic) for f in a.findings}
    assert a.findings


def test_unsaved_text_is_checked_not_the_file(tmp_path):
    path = tmp_path / "casa.yaml"
    path.write_text("extends: teg\nname: casa\n", encoding="utf-8")
    a = analyze(path, "extends: teg\nname: casa\nstakes:\n  calls:\n    truco: {worht: 2}\n")
    [f] = a.findings
    assert (f.code, f.diagnostic.loc.line, f.diagnostic.loc.col) == ("schema", 5, 13)
    assert "did you mean 'worth'" in f.diagnostic.message


def test_codes_name_the_pass(tmp_path):
    path = tmp_path / "v.yaml"
    cases = {
        "extends: teg\nname: [\n": "yaml",
        "extends: teg\nname: v\nfold: {when: 'trick =='}\n": "dsl-syntax",
        "extends: teg\nname: v\nfold: {when: 'trick + 1'}\n": "dsl-type",
        "extends: teg\nname: v\nfold: {whne: 'true'}\n": "schema",
    }
    for text, code in cases.items():
        a = analyze(path, text)
        assert [f.code for f in a.findings][:1] == [code], (text, a.findings)


def test_a_case_file_naming_a_spec_the_schema_refuses_says_so(tmp_path):
    """A case file's `spec:` is read for its names only once the schema passes it; one that does
    not (an option of a kind there is not) is reported by the replay, not by a traceback."""
    (tmp_path / "broken.yaml").write_text("extends: teg\nname: broken\noptions:\n  seats: {values: [2, 4], default: 2, "
                                          "kind: weird}\n", encoding="utf-8")
    case = tmp_path / "cases.yaml"
    case.write_text("spec: broken.yaml\ncases:\n  - name: one\n    actions: []\n", encoding="utf-8")
    a = analyze(case, case.read_text(encoding="utf-8"))
    [f] = a.findings
    assert f.code == "replay" and a.source is None
    assert f.diagnostic.message.endswith("broken.yaml:4:45 at $.options.seats.kind: the string 'weird' is not "
                                         "allowed here; expected one of 'table', 'interpretation'")
