"""docs/conformance.md, the reference of the case format: every example it shows is a whole
case file, and every one replays and passes, so the page says what `truco replay` does."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.designer.replay import run_file

DOC = Path(__file__).parents[1] / "docs" / "conformance.md"
BLOCKS = re.findall(r"^```yaml\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)


def test_the_page_shows_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_every_example_replays(block: str, tmp_path: Path) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(block, encoding="utf-8")
    results = run_file(path)          # an invalid example raises InvalidCase
    assert results
    failed = [f"{r.name}: step {r.step}: {r.message}" for r in results if not r.passed]
    assert not failed, "\n".join(failed)


def test_every_expectation_key_and_verb_is_documented() -> None:
    from interpreter.designer.replay import CASE_KEYS, EXPECT_KEYS, FACTS, FILE_KEYS
    text = DOC.read_text(encoding="utf-8")
    for key in (*EXPECT_KEYS, *CASE_KEYS, *FACTS, *FILE_KEYS):
        assert f"`{key}" in text, key
    for verb in ("play", "accept", "decline", "fold", "announce", "good", "cover"):
        assert f"`{verb}" in text, verb


def test_pointers_lead_to_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    """README, the house-variant guide and `truco replay --help` name docs/conformance.md, and
    nothing in the project points at a CONFORMANCE.md it does not contain."""
    from interpreter.cli import main
    root = DOC.parents[1]
    for doc in ("README.md", "docs/house-variant.md", "docs/testing.md"):
        text = (root / doc).read_text(encoding="utf-8")
        assert "conformance.md" in text and "CONFORMANCE.md" not in text, doc
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "docs/conformance.md" in capsys.readouterr().out
    for path in [*root.joinpath("interpreter").rglob("*.py"), *root.joinpath("rulespec").rglob("*.py")]:
        assert "CONFORMANCE.md" not in path.read_text(encoding="utf-8"), path
