"""tests/outside.py: a test that needs Chromium, PostgreSQL or Neovim skips without it on a
developer's machine, saying how to install it, and fails under CI (issue 35: "make a test that
needs one of them fail, not skip silently, under CI")."""
from __future__ import annotations

import pytest

from tests.outside import need


@pytest.mark.parametrize("ci", ["true", "1", "yes"])
def test_a_missing_tool_fails_under_ci(monkeypatch, ci) -> None:
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match="Neovim is missing and CI runs every test: apt-get install neovim"):
        need("Neovim", False, "apt-get install neovim")


@pytest.mark.parametrize("ci", [None, "", "0", "false", "FALSE"])
def test_a_missing_tool_skips_elsewhere_saying_how_to_install_it(monkeypatch, ci) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match="Neovim is not installed: apt-get install neovim"):
        need("Neovim", False, "apt-get install neovim")


def test_a_tool_found_lets_the_test_run(monkeypatch) -> None:
    monkeypatch.setenv("CI", "true")
    need("Neovim", True, "apt-get install neovim")


def test_ci_runs_the_suite_as_ci() -> None:
    """.ci/run installs the three tools and says it is CI, so none of their tests may skip there."""
    from pathlib import Path
    script = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert "export CI=true" in script
    assert all(tool in script for tool in ("chromium", "postgresql", "neovim"))
