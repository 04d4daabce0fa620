"""The build: the engine (`interpreter/engine`), the checker's walk core
(`interpreter/designer/walkcore.py`, with the abstract deal, `abstract.py`) and the bots
(`interpreter/bots/basic.py`, `ismcts.py`) compiled with mypyc where a C compiler is present,
from the same source that runs as pure Python elsewhere (docs/performance.md, "The compiled
engine"). An editable install, `TRUCO_PURE=1` or a machine without a C compiler builds the pure
package; the project's metadata is in pyproject.toml."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = Path("interpreter", "engine")
COMPILED = ("records", "shuffle", "tables", "match", "context", "rules", "legal", "contests", "scoring",
            "explain", "views", "serial", "state", "game")
"""The engine's modules mypyc compiles: all but the package's `__init__` (which picks the build
at import) and `randomplay`, the shared random-play check the tests run."""
DESIGNER = Path("interpreter", "designer")
WALK = ("walkcore", "abstract")
"""The designer's modules mypyc compiles: the state key of the checker's walk, and the abstract
deal it asks at every state."""
BOTS = Path("interpreter", "bots")
SEARCH = ("basic", "ismcts")
"""The bots' modules mypyc compiles: the heuristic, which is the search's rollout policy, and
the search, which `truco balance` and `truco simulate` run for hundreds of matches."""
GROUPS = ((ENGINE, COMPILED), (DESIGNER, WALK), (BOTS, SEARCH))
"""What mypyc compiles, one group (one shared library) per package: the walk core and the bots
run the engine through its Python interface, so each may run compiled beside another's source.
Each package's folder gets a record of the source its modules were compiled from,
`compiled.json`."""
BUILDS = ("build", "build_ext", "bdist_wheel", "install")
"""The commands that build the engine. Any other (`egg_info`, `dist_info`: a build front end
asking for the metadata and the build's requirements) compiles nothing, so it needs neither
mypyc nor the engine's own dependencies."""


def why_pure() -> str | None:
    """Why this build is pure Python, or None when it compiles the engine."""
    if os.environ.get("TRUCO_PURE"):
        return "TRUCO_PURE is set"
    if "editable_wheel" in sys.argv:
        return "an editable install runs the source a developer edits"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on this machine"
    try:
        import mypyc.build  # noqa: F401  (the build's own requirement: pyproject.toml pins mypy)
    except ImportError:
        return "mypyc is not installed"
    return None


def digest(folder: Path, module: str) -> str:
    return hashlib.sha256((ROOT / folder / f"{module}.py").read_bytes()).hexdigest()


class BuildEngine(build_ext):
    """setuptools' build_ext, which also records each compiled module's source digest beside the
    modules: `interpreter.engine` (and `interpreter.designer`, `interpreter.bots`) run the source
    instead of a compiled module built from other source than it has now."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        out = ROOT if self.inplace else Path(self.build_lib)
        for folder, modules in GROUPS:
            record = {"modules": {m: digest(folder, m) for m in modules},
                      "python": sysconfig.get_config_var("SOABI")}
            (out / folder / "compiled.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def extensions() -> list:  # type: ignore[type-arg]
    if not any(command in sys.argv for command in BUILDS):
        return []
    reason = why_pure()
    if reason is not None:
        print(f"truco-rules: building the pure-Python engine ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify
    print("truco-rules: compiling the engine, the checker's walk core and the bots with mypyc", file=sys.stderr)
    # the project's mypy configuration (pyproject.toml) applies; its sections for other modules are unused here
    flags = ["--no-warn-unused-configs"]
    out = []
    for folder, modules in GROUPS:           # each group compiled on its own: the other is Python to it
        paths = [str(folder / f"{m}.py") for m in modules]
        group = ".".join(folder.parts)
        out += mypycify([*flags, *paths], opt_level="3", group_name=f"{group}.native",
                        target_dir=str(Path("build", *folder.parts)))
    return out


if __name__ == "__main__":       # as setuptools runs it; tests import it for its decisions
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildEngine})
