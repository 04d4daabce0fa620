"""The mutation tool's record (tools/mutation.py): a run's results in short, committed, carry
to a later run on another machine for exactly the functions whose code has not changed."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

TOOL = Path(__file__).resolve().parents[1] / "tools" / "mutation.py"
MODULE = "rulespec/build.py"


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("truco_mutation", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_folder(root: Path, hashes: dict[str, str], codes: dict[str, int | None]) -> Path:
    """A `--keep` folder as mutmut leaves it: the module's meta file, keyed by mutant."""
    meta = root / "mutants" / (MODULE + ".meta")
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"hash_by_function_name": hashes, "exit_code_by_key": {
        f"rulespec.build.{k}": v for k, v in codes.items()}}), encoding="utf-8")
    return root


def test_a_record_carries_the_results_of_unchanged_functions_only(tmp_path: Path) -> None:
    mutation = tool()
    earlier = run_folder(tmp_path / "earlier", {"xǁBǁdeck": "h1", "xǁBǁstakes": "h2"}, {
        "xǁBǁdeck__mutmut_1": 1, "xǁBǁdeck__mutmut_2": 0, "xǁBǁdeck__mutmut_3": None,
        "xǁBǁstakes__mutmut_1": 1})
    record = tmp_path / "build.json"
    record.write_text(json.dumps(mutation._record(earlier, [MODULE])), encoding="utf-8")
    assert json.loads(record.read_text(encoding="utf-8")) == {MODULE: {
        "xǁBǁdeck": {"hash": "h1", "codes": {"1": 1, "2": 0}},
        "xǁBǁstakes": {"hash": "h2", "codes": {"1": 1}}}}

    now = run_folder(tmp_path / "now", {"xǁBǁdeck": "h1", "xǁBǁstakes": "changed"}, {
        "xǁBǁdeck__mutmut_1": None, "xǁBǁdeck__mutmut_2": None, "xǁBǁdeck__mutmut_3": None,
        "xǁBǁstakes__mutmut_1": None})
    assert mutation._carry(now, [MODULE], [record]) == 2
    assert mutation._results(now, [MODULE]) == {
        "rulespec.build.xǁBǁdeck__mutmut_1": 1, "rulespec.build.xǁBǁdeck__mutmut_2": 0,
        "rulespec.build.xǁBǁdeck__mutmut_3": None, "rulespec.build.xǁBǁstakes__mutmut_1": None}


def test_the_selection_builds_no_spec_once_for_several_tests() -> None:
    """mutmut runs a mutant against the tests its stats run saw calling the mutated function. A
    fixture kept for a module or the session is built by its first test only, so a mutant of
    the builder would never meet the module's other tests: the selection's fixtures are per test
    (the spec and game caches make that cheap)."""
    root = TOOL.parents[1]
    selected = [root / p for p in tool().SELECTION if p.startswith("tests/")]
    files = [f for p in selected for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]
    assert len(files) > 10
    texts = {str(f.relative_to(root)): f.read_text(encoding="utf-8") for f in files}
    kept = [name for name, text in texts.items() if 'scope="module"' in text or 'scope="session"' in text]
    assert kept == []
