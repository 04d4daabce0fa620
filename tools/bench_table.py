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


def run(spec: str, players: int, seconds: float) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-m", "interpreter", "bench", spec, "--players", str(players),
                          "--seconds", str(seconds), "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def rows(reports: list[dict[str, Any]]) -> list[str]:
    lines = ["| spec | players | hands/s | actions/s | pytruco hands/s | × pytruco (hands) | × pytruco (actions) "
             "| clone/s | to JSON/s | from JSON/s | memory/state | load + IR | compile | all hand values |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in reports:
        ours, peer, ratio = r["interpreter"], r["peer"], r["ratios"]
        lines.append(
            f"| `{r['spec']}` | {ours['players']} | {ours['hands_per_s']:,.0f} | {ours['actions_per_s']:,.0f} "
            f"| {peer['hands_per_s']:,.0f} | {ratio['hands_per_s']:.1f}× | {ratio['actions_per_s']:.1f}× "
            if peer else
            f"| `{r['spec']}` | {ours['players']} | {ours['hands_per_s']:,.0f} | {ours['actions_per_s']:,.0f} "
            f"| — | — | — ")
        lines[-1] += (f"| {ours['clone_per_s']:,.0f} | {ours['to_json_per_s']:,.0f} | {ours['from_json_per_s']:,.0f} "
                      f"| {ours['bytes_per_state'] / 1024:.1f} KiB | {1000 * ours['load_s']:.0f} ms "
                      f"| {1000 * ours['compile_s']:.1f} ms | {1000 * ours['precompute_s']:,.0f} ms |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure (see truco bench)")
    ap.add_argument("--specs", nargs="*", default=None, help="specs to measure (default: every bundled spec)")
    ap.add_argument("--raw", type=Path, default=None, help="also write every report as JSON here")
    args = ap.parse_args()
    reports = []
    for spec in args.specs or bundled_names():
        for players in player_counts(spec):
            print(f"{spec} at {players} players...", file=sys.stderr)
            reports.append(run(spec, players, args.seconds))
    if args.raw is not None:
        args.raw.write_text(json.dumps(reports, indent=2) + "\n", encoding="utf-8")
    print("\n".join(rows(reports)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
