"""Mutation score of the engine's rule modules, measured with mutmut against a fast test selection.

    pip install mutmut==3.8.1          # not in the `test` extra: the suite itself does not need it
    nice -n 15 python tools/mutation.py [--sample N] [--seed S] [--budget SECONDS] [--modules ...]

The project is copied (its tracked files, and the `truco_specs` link to specs/) into a scratch
folder, so the work tree is never touched; mutmut mutates the rule modules there and runs, for
each mutant, the tests of the selection that call the mutated function:

- the conformance cases (tests/test_conformance.py::test_case_file),
- the properties (tests/interpreter/test_properties.py, tests/scoring/),
- the wording of every refusal (tests/interpreter/test_explain.py) and the DSL's evaluation
  (tests/rulespec/test_formula.py),
- house rules no bundled spec has (tests/interpreter/test_house_rules.py), the checker's
  abstract deal, which answers the engine's questions in `rules.py` (tests/checker/test_abstract.py),
  the schedules of hand formats (tests/interpreter/test_schedule.py) and the state's API
  (tests/interpreter/test_state_api.py),
- the tests of the spec language and its IR (tests/rulespec/: a bad spec's located error, the
  types of formulas, merging a variant onto its base) and of what the IR is read back as: the
  rulebook (tests/checker/test_rules.py), the corpus of wrong specs, each with its one finding
  (tests/checker/test_corpus.py), and the resolved spec (tests/checker/test_resolved.py).

The tests of a mutant run fastest first, and each mutant's run starts with the spec and game
caches empty (tools/mutation_order.py, the scratch folder's `conftest.py`). Code that runs while a
spec is loaded (rulespec/, the engine's tables and compiled rules) is cached per spec, so in
mutmut's stats run, which maps each test to the functions it calls, the caches are emptied
before every test: such code is mapped to every test that loads a spec, not only the first.
Code run at import (the closures `rulespec/formula.py` builds for its operators) is never
switched to its mutant by mutmut, which forks its workers after the import: such survivors are
checked by hand too.

`--sample N` draws N mutants at random (seeded) from the whole set, for a machine where the
whole set takes too long; `--functions` runs only the mutants of the functions named; `--budget`
stops the run after that many seconds (the mutants not run are reported as not checked, never
as killed); `--resume` goes on in a `--keep` folder of an earlier run, where the mutants and the
test-to-function map are already made; `--carry DIR ...` takes
the results of earlier runs' `--keep` folders (or `--record` files, the results in short, which
can be committed and read on another machine) for the mutants of every function whose code has
not changed since (mutmut's hash of it), so that a run checks only what is new. A result carried is
as the earlier run's tests found it: a survivor may since be killed (docs/testing.md says which).
The kill rate counts killed and timed-out mutants over those checked. Survivors are printed with
their diff (`mutmut show`).

Each mutant runs in a worker forked from a server that has only collected the tests
(`process_isolation = forkserver`, `forkserver_warmup = collect`): the conformance test caches its
replays per process, so a worker forked from a process that had run the tests (mutmut's default)
would pass whatever the mutant. Collecting runs no engine code.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODULES = ["interpreter/engine/contests.py", "interpreter/engine/legal.py", "interpreter/engine/state.py",
           "interpreter/engine/context.py", "interpreter/engine/tables.py", "interpreter/engine/scoring.py",
           "interpreter/engine/rules.py", "interpreter/engine/explain.py", "rulespec/formula.py", "rulespec/build.py"]
SELECTION = ["tests/test_conformance.py", "tests/interpreter/test_properties.py", "tests/scoring",
             "tests/interpreter/test_explain.py", "tests/rulespec/test_formula.py",
             "tests/interpreter/test_house_rules.py", "tests/checker/test_abstract.py",
             "tests/interpreter/test_schedule.py", "tests/interpreter/test_state_api.py", "tests/rulespec",
             "tests/checker/test_rules.py", "tests/checker/test_corpus.py", "tests/checker/test_resolved.py",
             "-k", "test_case_file or test_properties or test_scorer or test_explain or test_formula"
             " or test_house_rules or test_abstract or test_schedule or test_state_api or rulespec"
             " or test_rules or test_corpus or test_resolved"]
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", None: "not checked",
          -9: "signal 9"}     # the worker was SIGKILLed (mutmut says "segfault"): not a kill, checked by hand


def _setup(work: Path, modules: list[str]) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in files.decode().split("\0"):
        if not name or not (ROOT / name).is_file():
            continue
        dest = work / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest)
    (work / "truco_specs").symlink_to("specs")


def _config(work: Path, modules: list[str]) -> None:
    shutil.copy2(ROOT / "tools" / "mutation_order.py", work / "conftest.py")
    lines = ["[mutmut]", "source_paths=", "    interpreter/", "    rulespec/", "only_mutate="]
    lines += [f"    {m}" for m in modules]
    lines += ["also_copy=", "    specs/", "    truco_specs/", "    docs/", "    conftest.py",
              "process_isolation=forkserver", "forkserver_warmup=collect",
              "pytest_add_cli_args_test_selection="] + [f"    {a}" for a in SELECTION]
    (work / "setup.cfg").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _mutmut(work: Path, args: list[str], timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """Run mutmut in `work`; past `timeout` seconds its whole process group is stopped (the
    mutants it has finished keep their results)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MUTANT_UNDER_TEST")}
    env["HYPOTHESIS_PROFILE"] = "ci"
    proc = subprocess.Popen([sys.executable, "-m", "mutmut", *args], cwd=work, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, "")


def _results(work: Path, modules: list[str]) -> dict[str, int | None]:
    found: dict[str, int | None] = {}
    for m in modules:
        meta = work / "mutants" / (m + ".meta")
        if meta.is_file():
            found.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return found


def _function(key: str) -> tuple[str, str]:
    """A mutant's function and number, from its key (`module.function__mutmut_N`)."""
    function, number = key.rsplit(".", 1)[1].rsplit("__mutmut_", 1)
    return function, number


def _record(work: Path, modules: list[str]) -> dict[str, dict[str, Any]]:
    """The run's results in short: per module and function, mutmut's hash of the function's code
    and the exit code of each mutant checked, by number. Committed, it carries a run's results to
    another machine (`--carry FILE`)."""
    out: dict[str, dict[str, Any]] = {}
    for m in modules:
        meta_path = work / "mutants" / (m + ".meta")
        if not meta_path.is_file():
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        functions: dict[str, Any] = {}
        for key, code in sorted(meta["exit_code_by_key"].items()):
            function, number = _function(key)
            if code is not None:
                entry = functions.setdefault(function, {"hash": meta["hash_by_function_name"][function], "codes": {}})
                entry["codes"][number] = code
        out[m] = functions
    return out


def _earlier(source: Path, module: str) -> dict[str, Any] | None:
    """An earlier run's results for `module`, in mutmut's form, from its `--keep` folder or its
    `--record` file (None when it has none)."""
    if source.is_dir():
        meta = source / "mutants" / (module + ".meta")
        return json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else None
    functions = json.loads(source.read_text(encoding="utf-8")).get(module)
    if functions is None:
        return None
    prefix = module.removesuffix(".py").replace("/", ".")
    return {"hash_by_function_name": {f: e["hash"] for f, e in functions.items()},
            "exit_code_by_key": {f"{prefix}.{f}__mutmut_{n}": code
                                 for f, e in functions.items() for n, code in e["codes"].items()}}


def _carry(work: Path, modules: list[str], earlier: list[Path]) -> int:
    """Copy into `work`'s results those of `earlier` runs for mutants of unchanged functions."""
    carried = 0
    for m in modules:
        meta_path = work / "mutants" / (m + ".meta")
        if not meta_path.is_file():
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        hashes, results = meta["hash_by_function_name"], meta["exit_code_by_key"]
        for source in earlier:
            old = _earlier(source, m)
            if old is None:
                continue
            for key, code in old["exit_code_by_key"].items():
                function = _function(key)[0]
                now = hashes.get(function)
                same = now is not None and now == old["hash_by_function_name"].get(function)
                if code is not None and same and key in results and results[key] is None:
                    results[key] = code
                    carried += 1
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
    return carried


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modules", nargs="*", default=MODULES)
    ap.add_argument("--sample", type=int, default=0, help="run N mutants drawn at random (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--functions", nargs="*", default=[],
                    help="run only the mutants of these functions (mutmut's names, such as xǁBuilderǁfold)")
    ap.add_argument("--budget", type=float, default=1800.0, help="seconds after which no new mutant starts")
    ap.add_argument("--batch", type=int, default=0, help="mutants per mutmut call (0: all in one)")
    ap.add_argument("--resume", action="store_true", help="reuse the --keep folder of an earlier run")
    ap.add_argument("--max-children", type=int, default=2)
    ap.add_argument("--carry", type=Path, nargs="*", default=[],
                    help="--keep folders or --record files of earlier runs:"
                         " their results stand for unchanged functions")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--record", type=Path, help="write the results in short here, to be carried by a later run")
    args = ap.parse_args(argv)

    work = args.keep or Path(tempfile.mkdtemp(prefix="truco-mutation-"))
    resume = args.resume and args.keep is not None and (work / "mutants").is_dir()
    if args.keep and work.exists() and not resume:
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    try:
        if not resume:
            _setup(work, args.modules)
        _config(work, args.modules)
        if not resume:
            # Generate every mutant and record which tests call which function; the filter
            # matches nothing, so no mutant runs yet (mutmut then says that nothing matched).
            _mutmut(work, ["run", "--max-children", str(args.max_children), "__generate_only__*"])
        if args.carry:
            print(f"{_carry(work, args.modules, args.carry)} results carried from {len(args.carry)} earlier runs",
                  flush=True)
        every = sorted(_results(work, args.modules))
        if not every:
            print("no mutants generated; is mutmut installed? (pip install mutmut==3.8.1)", file=sys.stderr)
            return 2
        if args.functions:
            every = [m for m in every if _function(m)[0] in args.functions]
        chosen = sorted(random.Random(args.seed).sample(every, args.sample)) if 0 < args.sample < len(every) else every
        print(f"{len(every)} mutants in {', '.join(args.modules)}; running {len(chosen)}", flush=True)
        batch = args.batch or len(chosen)
        for i in range(0, len(chosen), batch):
            left = args.budget - (time.monotonic() - t0)
            if left <= 0:
                print(f"budget of {args.budget:.0f}s spent: {len(chosen) - i} mutants not run", flush=True)
                break
            todo = [m for m in chosen[i:i + batch] if _results(work, args.modules).get(m) is None]
            if todo:
                r = _mutmut(work, ["run", "--max-children", str(args.max_children), *todo], timeout=left)
                (work / "mutmut-run.log").write_text(r.stdout or "", encoding="utf-8")
                if any(w in (r.stdout or "") for w in ("Unable to force test failures", "Failed to run clean test")):
                    print((r.stdout or "")[-3000:], file=sys.stderr)
                    print("mutmut could not run the selection cleanly (above): no score", file=sys.stderr)
                    return 2
            done = _results(work, args.modules)
            k = sum(1 for m in chosen[:i + batch] if STATUS.get(done.get(m), "other") in ("killed", "timeout"))
            print(f"  {min(i + batch, len(chosen))}/{len(chosen)} submitted, {k} killed "
                  f"({time.monotonic() - t0:.0f}s)", flush=True)
        done = _results(work, args.modules)
        status = {m: STATUS.get(done.get(m), f"exit {done.get(m)}") for m in chosen}
        checked = [m for m in chosen if status[m] != "not checked"]
        killed = [m for m in checked if status[m] in ("killed", "timeout")]
        survivors = [m for m in checked if status[m] not in ("killed", "timeout")]
        rate = len(killed) / len(checked) if checked else 0.0
        print(f"\nscope: {', '.join(args.modules)}; selection: {' '.join(SELECTION)}")
        print(f"mutants: {len(every)} in all, {len(chosen)} chosen (seed {args.seed}), {len(checked)} checked "
              f"in {time.monotonic() - t0:.0f}s")
        print(f"kill rate: {len(killed)}/{len(checked)} = {100 * rate:.1f}%")
        print(f"survivors ({len(survivors)}):")
        for m in survivors:
            shown = _mutmut(work, ["show", m]).stdout.strip()
            print(f"--- {m} [{status[m]}]\n{shown}\n")
        if args.record:
            args.record.write_text(json.dumps(_record(work, args.modules), separators=(",", ":"), sort_keys=True)
                                   + "\n", encoding="utf-8")
        if args.json:
            args.json.write_text(json.dumps({"modules": args.modules, "selection": SELECTION, "total": len(every),
                                             "chosen": len(chosen), "checked": len(checked), "killed": len(killed),
                                             "status": status}, indent=1), encoding="utf-8")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
