"""Broken specs as a new designer writes them (tests/specs_designer: variants of the bundled
specs with one mistake each), with the invalid and bad corpora: `truco check` ends with exit
1 or 2 in under 10 seconds, without a traceback, with a file:line:col inside the file the
designer wrote; `truco rules` refuses the ones that do not load, located the same way."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from interpreter.cli import main

TESTS = Path(__file__).resolve().parents[1]
# A guard against a check that never ends, not a measure of speed (the machine running the suite
# may be shared; figures belong to the benchmarks): a broken spec is refused in about a second.
HANG = 60.0
FILES = sorted(p for folder in ("specs_designer", "specs_invalid", "specs_bad")
               for p in (TESTS / folder).glob("*.yaml") if p.name != "expected.yaml")


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_check_places_the_mistake_in_the_designers_file(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = time.perf_counter()
    code = main(["check", str(path)])
    assert time.perf_counter() - start < HANG
    out = capsys.readouterr().out
    assert code in (1, 2), out
    assert re.search(re.escape(str(path.resolve())) + r":\d+:\d+ ", out), out


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rules_refuses_a_spec_that_does_not_load_at_the_mistake(path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rules", str(path)])
    out = capsys.readouterr().out
    assert code in (0, 1, 2)
    if code:
        assert re.search(re.escape(str(path.resolve())) + r":\d+:\d+ ", out), out


def test_a_finding_on_line_100_prints_its_line_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`file:100:5` is printed as written (the console once read `:100:` as an emoji code)."""
    path = tmp_path / "long.yaml"
    path.write_text("extends: teg\n" + "#\n" * 97 + "fold:\n  pays: \"played\"\n", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert f"{path}:100:10 at $.fold.pays: expected a number" in capsys.readouterr().out


def test_a_raised_base_stake_is_blamed_where_it_is_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A variant that only raises the unraised hand's worth breaks the base's ladder ('Truco |
    2 puntos | 1 punto'): both findings are read at its `stakes.base`, not at `extends:`."""
    path = tmp_path / "huge.yaml"
    path.write_text("extends: teg\nstakes:\n  base: 1000000\n", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:3:9 at $.stakes.base: truco makes the hand worth 2, no more than an unraised hand" in out
    assert f"{path}:3:9 at $.stakes.base: declining truco pays 1000000" in out
    assert "$.extends" not in out


@pytest.mark.parametrize("name", ["teams1", "teams3"])
def test_a_table_of_other_than_two_teams_is_refused_at_its_teams_key(name: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`teams: 3` is no game the rules can score (a fold, a lost match and a decided hand go to
    the one other team), nor is `teams: 1`: both are refused where the designer wrote them."""
    path = (TESTS / "specs_designer" / f"{name}.yaml").resolve()
    assert main(["check", str(path)]) == 1
    assert (f"{path}:4:10 at $.table.teams: a table has exactly 2 teams: a call is answered by the other team, "
            f"and a fold, a lost match and a decided hand score for it; got {name[-1]}") in capsys.readouterr().out
