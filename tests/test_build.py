"""The compiled engine, the checker's walk core and the bots (setup.py, interpreter/engine/__init__.py,
interpreter/designer/__init__.py, interpreter/bots/__init__.py): built from the same source that
runs as pure Python, never run when stale, and said by `truco --version` and `truco bench`."""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from interpreter import bots, designer, engine

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "interpreter" / "engine"
WALKCORE = ROOT / "interpreter" / "designer" / "walkcore.py"
WALK = [WALKCORE, WALKCORE.with_name("abstract.py")]
"""The designer's compiled modules: the walk core and the abstract deal it asks."""
BOTS = [ROOT / "interpreter" / "bots" / "basic.py", ROOT / "interpreter" / "bots" / "ismcts.py"]
"""The bots' compiled modules: the heuristic (the search's rollout policy) and the search."""


def _setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("truco_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_compiles_every_engine_module_but_the_package_and_the_random_play_check() -> None:
    compiled = set(_setup().COMPILED)
    modules = {p.stem for p in ENGINE.glob("*.py")}
    assert compiled == modules - {"__init__", "randomplay"}


def test_the_walk_core_and_the_bots_are_groups_with_their_own_records() -> None:
    """Each group's folder is one `tools/build_engine.py` cleans and checks for its record."""
    setup = _setup()
    assert [(folder.as_posix(), modules) for folder, modules in setup.GROUPS] == [
        ("interpreter/engine", setup.COMPILED), ("interpreter/designer", ("walkcore", "abstract")),
        ("interpreter/bots", ("basic", "ismcts"))]
    spec = importlib.util.spec_from_file_location("truco_build_engine", ROOT / "tools" / "build_engine.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert list(tool.FOLDERS) == [ROOT / folder for folder, _ in setup.GROUPS]


@pytest.mark.parametrize("argv, env, reason", [
    (["setup.py", "editable_wheel"], {}, "an editable install"),
    (["setup.py", "bdist_wheel"], {"TRUCO_PURE": "1"}, "TRUCO_PURE is set"),
])
def test_the_build_is_pure_where_it_must_be(monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                            env: dict[str, str], reason: str) -> None:
    setup = _setup()
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.delenv("TRUCO_PURE", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert reason in (setup.why_pure() or "")


def test_a_wheel_compiles_where_a_c_compiler_and_mypyc_are(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = _setup()
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.delenv("TRUCO_PURE", raising=False)
    assert setup.why_pure() is None                       # this machine has gcc and the test extra's mypy
    monkeypatch.setattr(setup.sysconfig, "get_config_var", lambda name: "no-such-cc -pthread")
    assert "no C compiler (no-such-cc)" in (setup.why_pure() or "")


def test_a_module_edited_after_its_build_is_stale(tmp_path: Path) -> None:
    (tmp_path / "state.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "rules.py").write_text("y = 2\n", encoding="utf-8")
    digests = {m: hashlib.sha256((tmp_path / f"{m}.py").read_bytes()).hexdigest() for m in ("state", "rules")}
    (tmp_path / "compiled.json").write_text(json.dumps({"modules": digests}), encoding="utf-8")
    assert engine.stale(tmp_path) == []
    (tmp_path / "rules.py").write_text("y = 3\n", encoding="utf-8")
    assert engine.stale(tmp_path) == ["rules"]
    assert engine.stale(tmp_path / "nowhere") == []


def _run(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env}, check=True)
    return done.stdout.strip()


def test_truco_pure_runs_the_source_beside_any_build() -> None:
    """Whether or not compiled modules lie beside the source (CI's second run), TRUCO_PURE=1
    imports every engine module from its `.py` file."""
    code = ("import interpreter.engine as e, interpreter.engine.state as s, interpreter.engine.legal as l; "
            "import interpreter.designer as d, interpreter.designer.walkcore as w; "
            "import interpreter.bots as b, interpreter.bots.basic as h, interpreter.bots.ismcts as i; "
            "print(e.build(), s.__file__.endswith('.py'), l.__file__.endswith('.py'), "
            "d.build(), w.__file__.endswith('.py'), "
            "b.build(), h.__file__.endswith('.py'), i.__file__.endswith('.py'))")
    assert _run(code, TRUCO_PURE="1") == ("pure Python (TRUCO_PURE is set) True True "
                                          "pure Python (TRUCO_PURE is set) True "
                                          "pure Python (TRUCO_PURE is set) True True")


def test_a_package_guards_its_compiled_modules_as_the_engine_does(tmp_path: Path) -> None:
    """`interpreter.engine.guard`, which the designer's package runs for its walk core and the
    bots' package for its bots: a module whose source is not the one recorded is stale, and the
    package warns and runs its source."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pathlib import Path\nfrom interpreter.engine import guard\n"
                                         "STALE = guard(__name__, Path(__file__).resolve().parent, 'thing')\n",
                                         encoding="utf-8")
    (package / "mod.py").write_text("x = 1\n", encoding="utf-8")
    (package / "compiled.json").write_text(json.dumps({"modules": {"mod": "0" * 64}}), encoding="utf-8")
    code = f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import pkg, pkg.mod; print(pkg.STALE, pkg.mod.x)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "['mod'] 1"
    assert "the compiled thing was built from other source than mod.py" in done.stderr
    assert designer.STALE == engine.stale(WALKCORE.parent)
    assert bots.STALE == engine.stale(BOTS[0].parent)


def test_version_says_which_engine_runs() -> None:
    """One line whatever the terminal's width, so a script reads it whole."""
    out = subprocess.run([sys.executable, "-m", "interpreter", "--version"], capture_output=True, text=True,
                         cwd=ROOT, check=True, env={**os.environ, "COLUMNS": "40"}).stdout
    assert out.count("\n") == 1
    assert out.startswith("truco-rules ") and f"engine: {engine.build()}" in out
    assert f"checker's walk: {designer.build()}" in out
    assert f"bots: {bots.build()}" in out


FORBIDDEN_BASES = {"Exception", "BaseException", "AssertionError", "ValueError", "dict", "list", "set", "tuple",
                   "int", "str"}


@pytest.mark.parametrize("path", [*sorted(ENGINE.glob("*.py")), *WALK, *BOTS], ids=lambda p: p.name)
def test_engine_code_is_what_mypyc_compiles_as_it_runs(path: Path) -> None:
    """docs/performance.md, "What engine code may not do": no `__dict__` or `vars()` (a compiled
    class has no dict), no `__new__` called by hand, no class built on a builtin type; the
    checker's walk core, its abstract deal and the bots keep to the same rules, and generate no
    code (the engine's formulas are generated Python: docs/performance.md, "Formulas as generated Python")."""
    if path.stem == "__init__":
        return                                        # never compiled: it picks the build
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("__dict__", "__new__"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars":
            found.append(f"line {node.lineno}: vars()")
        elif path in (*WALK, *BOTS) and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("exec", "eval", "compile"):
            found.append(f"line {node.lineno}: {node.func.id}()")
        elif isinstance(node, ast.ClassDef):
            found += [f"line {node.lineno}: class {node.name}({b.id})" for b in node.bases
                      if isinstance(b, ast.Name) and b.id in FORBIDDEN_BASES]
    assert found == []
