"""The README's performance table: `truco bench --json` for every bundled spec at 2, 4 and 6
players (those the spec offers), each in a fresh process so every run pays its own loading,
printed as Markdown.

    python tools/bench_table.py --seconds 3 > /tmp/table.md
    python tools/bench_table.py --seconds 3 --raw bench.json     # keep every report too
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rulespec.load import bundled_names, open_spec


def player_counts(spec: str) -> list[int]:
    offered = next((o.values for o in open_spec(spec).options if o.name == "players"), ())
    return [n for n in (2, 4, 6) if n in offered]


def run(spec: str, players: int, seconds: float, fold: bool = False) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "interpreter", "bench", spec, "--players", str(players),
                          "--seconds", str(seconds), "--json", *(["--fold"] if fold else [])],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def rows(reports: list[dict[str, Any]]) -> list[str]:
    lines = ["| spec | players | hands/s | actions/s | × hand-written (hands) | pytruco hands/s | × pytruco (hands) "
             "| × pytruco (actions) | clone/s | to JSON/s | from JSON/s | memory/state | load + IR | compile "
             "| all hand values |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in reports:
        ours, peer, ratio = r["interpreter"], r["peer"], r["ratios"]
        reference = r["reference_ratios"].get("hands_per_s") if (r["reference"] or {}).get("same_rules") else None
        cells = [f"`{r['spec']}`", str(ours["players"]), f"{ours['hands_per_s']:,.0f}", f"{ours['actions_per_s']:,.0f}",
                 f"{reference:.2f}×" if reference else "—"]
        cells += [f"{peer['hands_per_s']:,.0f}", f"{ratio['hands_per_s']:.1f}×", f"{ratio['actions_per_s']:.1f}×"] \
            if peer else ["—", "—", "—"]
        cells += [f"{ours['clone_per_s']:,.0f}", f"{ours['to_json_per_s']:,.0f}", f"{ours['from_json_per_s']:,.0f}",
                  f"{ours['bytes_per_state'] / 1024:.1f} KiB", f"{1000 * ours['load_s']:.0f} ms",
                  f"{1000 * ours['compile_s']:.1f} ms", f"{1000 * ours['precompute_s']:,.0f} ms"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure (see truco bench)")
    ap.add_argument("--specs", nargs="*", default=None, help="specs to measure (default: every bundled spec)")
    ap.add_argument("--raw", type=Path, default=None, help="also write every report as JSON here")
    ap.add_argument("--fold", action="store_true", help="random play may fold at any time (truco bench --fold)")
    args = ap.parse_args()
    reports = []
    for spec in args.specs or bundled_names():
        for players in player_counts(spec):
            print(f"{spec} at {players} players...", file=sys.stderr)
            reports.append(run(spec, players, args.seconds, args.fold))
    if args.raw is not None:
        args.raw.write_text(json.dumps(reports, indent=2) + "\n", encoding="utf-8")
    engines = sorted({r["engine"] for r in reports})
    print(f"engine: {', '.join(engines)}; {args.seconds:g} CPU s per figure; folding "
          f"{'allowed' if args.fold else 'only when nothing else is legal'}\n")
    print("\n".join(rows(reports)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
