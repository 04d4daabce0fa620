"""The type checker and the linter find nothing: mypy (strict for rulespec and the engine) and
ruff, configured in pyproject.toml. Both are in the `test` extra."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(tool) is None:
        pytest.fail(f"{tool} is not installed: pip install -e '.[test]'")
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_mypy_finds_nothing() -> None:
    done = run("mypy", "--no-color-output")          # files and flags: [tool.mypy]
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", "--no-fix", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_typed_packages_ship_their_marker() -> None:
    """PEP 561: a user's type checker reads our annotations only where `py.typed` is installed."""
    import tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package in ("rulespec", "interpreter"):
        assert "py.typed" in data.get(package, []), package
        assert (ROOT / package / "py.typed").is_file(), package
