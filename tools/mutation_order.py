"""pytest hooks for tools/mutation.py, copied as `conftest.py` into its scratch folder.

- Each mutant's run starts with the spec and game caches empty. mutmut forks every mutant's
  worker from a server that has collected the tests, and collection reads the specs
  (`open_spec` in the scorer's parameters): without this, a worker would reuse what the server
  built with the original code, and a mutant of the spec's loading or building (rulespec/) would
  never run.
- In mutmut's stats run, which records the functions each test calls, the caches are emptied
  before every test too: code that runs while a spec is loaded (rulespec/, the engine's tables
  and compiled rules) is then mapped to every test that loads a spec, not only to the first
  one that loaded it, so a mutant of it runs every test that would meet it.
- The tests a mutant runs go fastest first, by the durations of mutmut's stats run
  (`mutmut-stats.json`), so that a mutant a cheap test kills stops there (mutmut runs pytest with
  `-x`) instead of after the properties. The order changes no verdict: a survivor still runs
  every test that calls the mutated function.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def _empty_caches() -> None:
    from rulespec import load

    from interpreter.engine import game
    load._SOURCES.clear()
    game._GAMES.clear()


def pytest_sessionstart(session: Any) -> None:
    _empty_caches()


def pytest_runtest_setup(item: Any) -> None:
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        _empty_caches()


def pytest_collection_modifyitems(items: list[Any]) -> None:
    stats = Path("mutmut-stats.json")            # mutmut runs the tests inside its mutants/ folder
    if not stats.is_file():
        return
    duration: dict[str, float] = json.loads(stats.read_text(encoding="utf-8"))["duration_by_test"]
    items.sort(key=lambda item: duration.get(item.nodeid, 0.0))
