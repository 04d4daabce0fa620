"""How long the editor's re-check of a bundled spec takes after an edit (`truco lsp`'s quick pass).

    PYTHONPATH=. python tools/bench_lsp.py [SPEC...] [--repeat N]

For each spec: the first check of the buffer (cold: nothing parsed yet), then the median and
worst of N re-checks, each after an edit that changes the text (a comment appended, so the
findings stay the same and every stage runs). The figure the designer waits for as they type.
"""
from __future__ import annotations

import argparse
import statistics
import time

from rulespec.load import bundled_dir, bundled_names

from interpreter.designer.lsp.analysis import analyze


def measure(name: str, repeat: int) -> tuple[float, float, float, int]:
    path = (bundled_dir() / f"{name}.yaml").resolve()
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    a = analyze(path, text)
    cold = time.perf_counter() - start
    times = []
    for n in range(repeat):
        edited = text + f"\n# edit {n}\n"
        start = time.perf_counter()
        a = analyze(path, edited, previous=a)
        times.append(time.perf_counter() - start)
    return cold, statistics.median(times), max(times), len(a.findings)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("specs", nargs="*", help="bundled spec names (default: all)")
    ap.add_argument("--repeat", type=int, default=10, help="re-checks per spec")
    args = ap.parse_args()
    print(f"{'spec':<18} {'first':>8} {'median':>8} {'worst':>8}  findings")
    for name in args.specs or bundled_names():
        cold, median, worst, found = measure(name, args.repeat)
        print(f"{name:<18} {cold * 1000:7.0f}ms {median * 1000:7.0f}ms {worst * 1000:7.0f}ms  {found}")


if __name__ == "__main__":
    main()
