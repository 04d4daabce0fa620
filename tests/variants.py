"""A house variant written as a designer writes one, and the mistakes loading it tells."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.errors import Diagnostic, SpecError
from rulespec.load import load_spec


def write_variant(folder: Path, body: str, name: str = "casa", base: str = "teg") -> Path:
    """`folder`/NAME.yaml: `name`, `extends: base` (lines 1 and 2), then `body` from line 3."""
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: {base}\n{body}", encoding="utf-8")
    return path


def refused(path: Path) -> list[Diagnostic]:
    """What loading the spec at `path` refuses it for (it must refuse it)."""
    with pytest.raises(SpecError) as info:
        load_spec(path)
    return info.value.diagnostics
