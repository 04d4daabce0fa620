"""docs/api.md runs as written: its Python API and HTTP session examples are doctests."""
from __future__ import annotations

import doctest
from pathlib import Path

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_api_documentation_examples_run() -> None:
    result = doctest.testfile(str(API), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 30 and result.failed == 0
