"""The conformance suite: every case file under tests/conformance/ replays and passes."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.replay import InvalidCase, run_file

ROOT = Path(__file__).parent / "conformance"
FILES = sorted(ROOT.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_case_file(path: Path) -> None:
    try:
        results = run_file(path)
    except InvalidCase as err:
        pytest.fail(f"invalid case file: {err}")
    failures = [f"{r.name}: step {r.step}: {r.message}" for r in results if not r.passed]
    assert not failures, "\n".join(failures)
