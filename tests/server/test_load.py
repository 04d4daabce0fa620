"""The load script (tools/load.py): 50 concurrent matches of bots over loopback against one
real server, on either store, finish with zero errors and zero lost actions."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

LOAD = Path(__file__).resolve().parents[2] / "tools" / "load.py"


def _load_module():
    spec = importlib.util.spec_from_file_location("truco_load", LOAD)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module             # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_fifty_concurrent_matches_lose_nothing(store_url, capsys) -> None:
    load = _load_module()
    code = load.main(["--matches", "50", "-o", "target=15", "--json", "--db", store_url])
    out = capsys.readouterr().out
    assert code == 0, out
    assert '"errors": 0' in out and '"lost_actions": 0' in out and '"matches": 50' in out
