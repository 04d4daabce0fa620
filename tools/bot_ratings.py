"""How strong the bots are: head-to-head win rates, Elo-style ratings and a budget curve.

    python tools/bot_ratings.py --tables reglamento:2,teg:4 --bots ismcts:150,heuristic,random \\
        --matches 40 --budgets 25,50,100,200 --curve-table reglamento:2 --workers 2

Every pairing of `--bots` plays `--matches` matches at each table (half with each bot in the
first team's seats, so neither side always holds the first deal), through `truco simulate`'s
machinery on every core. It prints, as Markdown for docs/bots.md, each pairing's win rate for
the first bot with its Wilson 95% interval; Elo ratings from a Bradley-Terry fit over all
pairings and tables (random anchored at 0); and, with `--budgets`, `ismcts:N` against
`--curve-opponent` for each N (playouts per decision against win rate). `--json` keeps the counts.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.engine import build  # noqa: E402
from interpreter.measure.simulate import simulate  # noqa: E402
from interpreter.measure.stats import wilson  # noqa: E402


def table(text: str) -> tuple[str, dict[str, Any]]:
    """`spec` or `spec:players`."""
    spec, _, players = text.partition(":")
    return spec, ({"players": int(players)} if players else {})


def label(spec: str, options: dict[str, Any]) -> str:
    return f"{spec} {options['players']}p" if "players" in options else spec


def head_to_head(spec: str, options: dict[str, Any], a: str, b: str, matches: int, seed: int,
                 workers: int) -> tuple[int, int]:
    """Matches `a` won of `matches` against `b`, half with `a` in team 0's seats, half in team 1's."""
    first = matches // 2
    won = 0
    if first:
        run = simulate(spec, options, first, f"{a},{b}", seed, workers)
        won += run.tally.matches_won[0]
    run = simulate(spec, options, matches - first, f"{b},{a}", seed + 1, workers)
    won += run.tally.matches_won[1]
    return won, matches


def bradley_terry(results: list[tuple[str, str, int, int]], anchor: str, iterations: int = 2000) -> dict[str, float]:
    """Elo ratings (400 points: ten to one odds) from (a, b, a's wins, matches) by the MM
    algorithm (Hunter 2004), with half a win and half a loss added to every pairing so that
    a bot that never lost keeps a finite rating; `anchor` is rated 0."""
    names = sorted({n for a, b, _, _ in results for n in (a, b)})
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for a, b, w, n in results:
        wins[a] += w + 0.5
        wins[b] += n - w + 0.5
        games[(a, b)] = games.get((a, b), 0.0) + n + 1
        games[(b, a)] = games.get((b, a), 0.0) + n + 1
    strength = {n: 1.0 for n in names}
    for _ in range(iterations):
        new = {}
        for i in names:
            denom = sum(games.get((i, j), 0.0) / (strength[i] + strength[j]) for j in names if j != i)
            new[i] = wins[i] / denom if denom else strength[i]
        strength = new
    base = strength.get(anchor, 1.0)
    return {n: 400 * math.log10(strength[n] / base) for n in names}


def print_ratings(results: list[tuple[str, str, int, int]]) -> dict[str, float]:
    """The Bradley-Terry ratings of every bot in `results` (random = 0 where it played), as a table."""
    if not results:
        return {}
    anchor = "random" if any("random" in (a, b) for a, b, _, _ in results) else results[0][1]
    ratings = bradley_terry(results, anchor)
    print(f"\n| bot | Elo (Bradley-Terry over every pairing and table, {anchor} = 0) |")
    print("|---|---:|")
    for name, r in sorted(ratings.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {r:+.0f} |")
    return ratings


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default="reglamento:2", help="spec or spec:players, comma separated")
    p.add_argument("--bots", default="ismcts,heuristic,random", help="bot names, comma separated")
    p.add_argument("--matches", type=int, default=40, help="matches per pairing and table")
    p.add_argument("--pairs", default="", help="only these pairings, as a-b;c-d=N (N: its own match count; "
                   "default: every pairing of --bots)")
    p.add_argument("--budgets", default="", help="playouts for the budget curve, comma separated")
    p.add_argument("--curve-table", default="reglamento:2")
    p.add_argument("--curve-opponent", default="heuristic")
    p.add_argument("--curve-matches", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json", type=Path, default=None, help="write the counts here")
    p.add_argument("--ratings-from", type=Path, default=None, help="only fit the ratings of a --json file's counts")
    args = p.parse_args(argv)
    if args.ratings_from is not None:
        data = json.loads(args.ratings_from.read_text())
        print_ratings([(r["bot"], r["against"], r["wins"], r["matches"]) for r in data["pairings"]]
                      + [(f"ismcts:{c['playouts']}", data["args"]["curve_opponent"], c["wins"], c["matches"])
                         for c in data["curve"]])
        return 0

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    pairs: list[tuple[str, str, int]] = []
    for item in (x.strip() for x in args.pairs.split(";") if x.strip()):
        pair, _, count = item.partition("=")
        a, b = pair.split("-", 1)
        pairs.append((a, b, int(count) if count else args.matches))
    if not pairs:
        pairs = [(a, b, args.matches) for a, b in itertools.combinations(bots, 2)]
    tables = [table(t.strip()) for t in args.tables.split(",") if t.strip()]
    started = time.perf_counter()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"engine {build()}; {args.workers} workers, seed {args.seed}\n")
    results: list[tuple[str, str, int, int]] = []
    rows: list[dict[str, Any]] = []
    print("| table | bot | against | matches | wins | win rate [95% CI] |")
    print("|---|---|---|---:|---:|---|")
    for spec, options in tables:
        for a, b, count in pairs:
            t0 = time.perf_counter()
            won, n = head_to_head(spec, options, a, b, count, args.seed, args.workers)
            ci = wilson(won, n)
            results.append((a, b, won, n))
            rows.append({"table": label(spec, options), "bot": a, "against": b, "wins": won, "matches": n,
                         "seconds": round(time.perf_counter() - t0, 1)})
            print(f"| {label(spec, options)} | {a} | {b} | {n} | {won} | {pct(ci.estimate)} "
                  f"[{pct(ci.low)}, {pct(ci.high)}] |", flush=True)
    curve: list[dict[str, Any]] = []
    if args.budgets:
        spec, options = table(args.curve_table)
        print(f"\n| playouts per decision | {label(spec, options)} vs {args.curve_opponent}: wins | "
              "win rate [95% CI] | seconds |")
        print("|---:|---:|---|---:|")
        for budget in [int(x) for x in args.budgets.split(",") if x]:
            t0 = time.perf_counter()
            won, n = head_to_head(spec, options, f"ismcts:{budget}", args.curve_opponent, args.curve_matches,
                                  args.seed, args.workers)
            ci = wilson(won, n)
            secs = time.perf_counter() - t0
            curve.append({"playouts": budget, "wins": won, "matches": n, "seconds": round(secs, 1)})
            results.append((f"ismcts:{budget}", args.curve_opponent, won, n))
            print(f"| {budget} | {won}/{n} | {pct(ci.estimate)} [{pct(ci.low)}, {pct(ci.high)}] | {secs:.0f} |",
                  flush=True)
    ratings = print_ratings(results)
    print(f"\nwall time {time.perf_counter() - started:.0f} s")
    if args.json is not None:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)}, "pairings": rows,
                                         "ratings": ratings, "curve": curve}, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
