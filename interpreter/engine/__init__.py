"""The engine: a spec compiled into tables and closures (`game`), and the match it plays
(`state`): legal actions, contests, views and copies. It imports `rulespec` only.

Its modules may be compiled with mypyc (setup.py). The build records each compiled module's
source digest in `compiled.json`; when any module's source differs from the one compiled (a
developer edited it after an in-place build), every engine module is imported from its source
instead, so that nobody runs code other than the code they read (`guard`, which the designer's
package uses for its compiled walk core too). `TRUCO_PURE=1` in the
environment runs the source too, beside a compiled build. `build()` says which runs.
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent


def stale(folder: Path = _HERE) -> list[str]:
    """The compiled modules of `folder` whose source is no longer the one they were compiled
    from (none without a build's record)."""
    try:
        record = json.loads((folder / "compiled.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    stale = []
    for module, digest in record["modules"].items():
        source = folder / f"{module}.py"
        if source.is_file() and hashlib.sha256(source.read_bytes()).hexdigest() != digest:
            stale.append(module)
    return stale


class _FromSource(importlib.abc.MetaPathFinder):
    """Finds the modules of one package as their `.py` source, ahead of any compiled module."""

    def __init__(self, package: str, folder: Path) -> None:
        self.package = package
        self.folder = folder

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, module = fullname.rpartition(".")
        source = self.folder / f"{module}.py"
        if package != self.package or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def guard(package: str, folder: Path, what: str) -> list[str]:
    """Import `package` (in `folder`) from its source when any of its compiled modules is stale
    (and warn) or `TRUCO_PURE` is set; its stale modules. `what` names it in the warning."""
    found = stale(folder)
    if found or os.environ.get("TRUCO_PURE"):
        sys.meta_path.insert(0, _FromSource(package, folder))
    if found:
        warnings.warn(f"the compiled {what} was built from other source than {', '.join(f'{m}.py' for m in found)} "
                      "now holds: running the pure-Python source (rebuild with `python tools/build_engine.py`, "
                      "or remove the compiled modules with `--clean`)", RuntimeWarning, stacklevel=3)
    return found


def build_of(module: ModuleType, found: list[str]) -> str:
    """Which build of `module`'s package runs: "compiled (mypyc)" or "pure Python", and why not
    compiled when it could have been (`found`: its stale modules)."""
    if Path(module.__file__ or "").suffix != ".py":
        return "compiled (mypyc)"
    if found:
        return "pure Python (its compiled modules are stale)"
    if os.environ.get("TRUCO_PURE"):
        return "pure Python (TRUCO_PURE is set)"
    return "pure Python"


STALE = guard(__name__, _HERE, "engine")


def build() -> str:
    """Which engine runs: "compiled (mypyc)" or "pure Python", and why not compiled when it
    could have been."""
    from interpreter.engine import state
    return build_of(state, STALE)
