"""Compile the engine, the checker's walk core and the bots in place with mypyc, or remove what a build left.

    python tools/build_engine.py            # the *.so of interpreter/engine, interpreter/designer and interpreter/bots
    python tools/build_engine.py --clean    # back to the pure source

An editable install runs the pure source; this puts the compiled modules beside it, as CI does
to run the conformance, engine and bot suites on the compiled build too. Edit an engine module
(or the walk core, `interpreter/designer/walkcore.py` and `abstract.py`, or a bot,
`interpreter/bots/basic.py` and `ismcts.py`) afterwards and its package notices: it runs the
source again (and warns) until the next build or `--clean`. A wheel (`pip install .`,
`pip wheel .`) is compiled by the same setup.py; docs/performance.md says how.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (ROOT / "interpreter" / "engine", ROOT / "interpreter" / "designer", ROOT / "interpreter" / "bots")
"""The packages setup.py compiles modules of, each with its build's record `compiled.json`."""


def clean() -> list[Path]:
    """Remove the compiled modules, the build's record and its work folder; what was removed."""
    gone = [p for folder in FOLDERS for p in (*folder.glob("*.so"), *folder.glob("*.pyd"), folder / "compiled.json")
            if p.exists()]
    for path in gone:
        path.unlink()
    if (ROOT / "build").is_dir():
        shutil.rmtree(ROOT / "build")
        gone.append(ROOT / "build")
    return gone


def build() -> int:
    env = {k: v for k, v in os.environ.items() if k != "TRUCO_PURE"}
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=ROOT, env=env)
    if done.returncode == 0 and not all((folder / "compiled.json").exists() for folder in FOLDERS):
        print("build_engine: nothing was compiled (see the reason setup.py printed)", file=sys.stderr)
        return 1
    return done.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules instead")
    args = ap.parse_args()
    if args.clean:
        for path in clean():
            print(f"removed {path.relative_to(ROOT)}")
        return 0
    return build()


if __name__ == "__main__":
    sys.exit(main())
