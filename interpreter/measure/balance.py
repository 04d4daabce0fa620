"""`truco balance`: how fair a spec is under strong play, and what a variant changes.

Each spec or variant plays the same matches (`truco simulate`'s seeds: match `i` of every
variant starts from the same seed, so the deck of hand `k` is the same in both as long as both
reach it — common random numbers). Every figure is a ratio of sums over matches (points over
hands, calls accepted over calls made, ...), estimated with the delta method over matches as
independent units (hands within a match are not independent: the score steers the play). A
difference between two variants is estimated on the pairs (match `i` of one, match `i` of the
other), whose shared deals cancel most of the noise; its p-value is the normal test's, and the
p-values of one comparison are adjusted together with Holm's step-down method.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from rulespec.errors import TrucoError

from interpreter.engine.game import load_game
from interpreter.measure.simulate import HAND, OTHER, Run, bot_factories, pyplot, ray_session, save, simulate
from interpreter.measure.simulate import report as simulate_report
from interpreter.measure.stats import Z95, Interval

STRONG_BOTS = ("ismcts", "heuristic", "random")
"""The bots `truco balance` prefers, strongest first: the first one `BOTS` has is its default."""

ALPHA = 0.05


def strongest_bot(table: Mapping[str, object] | None = None) -> str:
    """The strongest bot available (`table` defaults to `interpreter.bots.BOTS`): a balance
    measured between weak players measures the players, not the rules."""
    if table is None:
        from interpreter.bots import BOTS
        table = BOTS
    return next((name for name in STRONG_BOTS if name in table), sorted(table)[0])


# -- variants -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Variant:
    """One spec under one choice of table options, as the command line named it."""

    label: str
    spec: str
    options: dict[str, Any]


def parse_variant(text: str, spec: str, options: Mapping[str, Any]) -> Variant:
    """A bundled spec name or a spec file (played under `options`), or `NAME=VALUE[,NAME=VALUE...]`:
    the options of `spec` changed."""
    if "=" in text and not Path(text).exists():
        from interpreter.engine.game import parse_options
        changed = parse_options([p for p in text.split(",") if p])
        return Variant(text, spec, {**options, **changed})
    return Variant(text, text, dict(options))


# -- per-match ratios -----------------------------------------------------------------------

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Metric:
    """A figure of a run as a ratio of two sums over its matches."""

    key: str
    label: str
    unit: str
    num: Callable[[Row], float]
    den: Callable[[Row], float]
    controlled: bool = False            # adjusted by the deals' luck (`regress`)


def _field(name: str) -> Callable[[Row], float]:
    return lambda row: float(row.get(name, 0))


def _one(row: Row) -> float:
    return 1.0


def _plays(row: Row) -> float:
    """The hands a row's margins and points are over: with `--duplicate`, each hand and its replays."""
    return float(row.get("plays", row.get("hands", 0)))


def _source_points(source: str, teams: int) -> Callable[[Row], float]:
    return lambda row: float(sum(row.get(f"{source}_{t}", 0) for t in range(teams)))


def _all_points(sources: Sequence[str], teams: int) -> Callable[[Row], float]:
    return lambda row: float(sum(row.get(f"{s}_{t}", 0) for s in sources for t in range(teams)))


def metrics(rows: Sequence[Row], teams: int) -> list[Metric]:
    """Every figure the rows of a balance run support, in the report's order."""
    keys = {k for row in rows for k in row}
    sources = sorted({k.rsplit("_", 1)[0] for k in keys if "_" in k and k.rsplit("_", 1)[1].isdigit()
                      and not k.startswith(("call.", "luck."))}, key=lambda s: (s != HAND, s == OTHER, s))
    calls = sorted({k.split(".")[1] for k in keys if k.startswith("call.")})
    out = [
        Metric("mano_edge", "mano's edge", "points/hand", _field("mano_margin"), _plays, True),
        Metric("dealer_edge", "dealer's edge", "points/hand", _field("dealer_margin"), _plays, True),
        Metric("mano_match_wins", "first mano's team wins the match", "share", _field("first_mano_won"), _one),
        Metric("dealer_match_wins", "first dealer's team wins the match", "share", _field("first_dealer_won"), _one),
        Metric("hands_per_match", "hands per match", "hands", _field("hands"), _one),
        Metric("actions_per_match", "actions per match", "actions", _field("actions"), _one),
    ]
    total = _all_points(sources, teams)
    for s in sources:
        out.append(Metric(f"points.{s}", f"points from {s}", "points/hand", _source_points(s, teams), _plays))
    for s in sources:
        out.append(Metric(f"share.{s}", f"share of points from {s}", "share", _source_points(s, teams), total))
    for c in calls:
        made = _field(f"call.{c}.made")
        out += [
            Metric(f"call.{c}.made", f"{c}: made", "calls/hand", made, _field("hands")),
            Metric(f"call.{c}.accepted", f"{c}: accepted", "share of made", _field(f"call.{c}.accepted"), made),
            Metric(f"call.{c}.declined", f"{c}: declined", "share of made", _field(f"call.{c}.declined"), made),
            Metric(f"call.{c}.won", f"{c}: won by the caller", "share of made", _field(f"call.{c}.won"), made),
            Metric(f"call.{c}.worth", f"{c}: net points to the caller", "points/call", _field(f"call.{c}.net"),
                   made),
        ]
    return out


@dataclass
class Linear:
    """A ratio of sums, each match's share of its error (the delta method's linearisation), and
    each match's controls: its deals' luck, whose mean is known to be 0, on the same scale."""

    estimate: float
    terms: list[float]
    controls: list[list[float]] = field(default_factory=list)    # per match, one per control

    def interval(self) -> Interval:
        shift, se = regress(self.terms, self.controls)
        half = Z95 * se
        return Interval(self.estimate - shift, self.estimate - shift - half, self.estimate - shift + half)


def linearise(rows: Sequence[Row], metric: Metric, controls: Sequence[str] = ()) -> Linear:
    """R = sum(num) / sum(den), and per match (num - R den) / mean(den): their mean is 0 and
    their spread gives R's standard error. A controlled metric carries the rows' `controls`,
    divided by mean(den) too."""
    nums = [metric.num(r) for r in rows]
    dens = [metric.den(r) for r in rows]
    total = sum(dens)
    if not rows or total == 0:
        return Linear(math.nan, [])
    ratio = sum(nums) / total
    mean = total / len(rows)
    keys = controls if metric.controlled else ()
    return Linear(ratio, [(n - ratio * d) / mean for n, d in zip(nums, dens, strict=True)],
                  [[float(r.get(k, 0)) / mean for k in keys] for r in rows] if keys else [])


def _se(terms: Sequence[float]) -> float:
    n = len(terms)
    if n < 2:
        return math.nan
    mean = sum(terms) / n
    return math.sqrt(sum((t - mean) ** 2 for t in terms) / (n - 1) / n)


MATCHES_PER_CONTROL = 5
"""Controls are fitted only with at least this many matches per coefficient: fewer overfit."""


def regress(terms: Sequence[float], controls: Sequence[Sequence[float]]) -> tuple[float, float]:
    """Control variates: regress the terms on the controls (least squares, with an intercept) and
    return what to subtract from the estimate (the fit at the controls' mean, whose true value is
    0) and the standard error of the residuals, with the degrees of freedom the fit used. Without
    controls, or too few matches for them, (0, the plain standard error)."""
    n = len(terms)
    k = len(controls[0]) if controls else 0
    kept = [j for j in range(k) if any(c[j] != controls[0][j] for c in controls)]    # constants say nothing
    controls = [[c[j] for j in kept] for c in controls]
    k = len(kept)
    if k == 0 or n < MATCHES_PER_CONTROL * (k + 1):
        return 0.0, _se(terms)
    means = [sum(c[j] for c in controls) / n for j in range(k)]
    z = [[c[j] - means[j] for j in range(k)] for c in controls]
    t_mean = sum(terms) / n
    y = [t - t_mean for t in terms]
    gram = [[sum(row[a] * row[b] for row in z) for b in range(k)]
            + [sum(row[a] * v for row, v in zip(z, y, strict=True))]
            for a in range(k)]
    beta = _solve(gram, k)
    used = sum(1 for b in beta if b != 0.0)
    if n - 1 - used < 2:
        return 0.0, _se(terms)
    resid = [v - sum(b * row[j] for j, b in enumerate(beta)) for row, v in zip(z, y, strict=True)]
    se = math.sqrt(sum(r * r for r in resid) / (n - 1 - used) / n)
    return sum(b * m for b, m in zip(beta, means, strict=True)), se


def _solve(aug: list[list[float]], k: int) -> list[float]:
    """Gauss-Jordan on the normal equations [A | b]; a column no more informative than the ones
    before it (a control constant in the run, or a copy of another) gets coefficient 0."""
    scale = max((abs(aug[i][i]) for i in range(k)), default=0.0) or 1.0
    where: dict[int, int] = {}              # column -> its pivot row
    for col in range(k):
        free = [r for r in range(k) if r not in where.values()]
        best = max(free, key=lambda r: abs(aug[r][col]), default=None)
        if best is None or abs(aug[best][col]) <= 1e-9 * scale:
            continue
        where[col] = best
        pivot = aug[best][col]
        aug[best] = [x / pivot for x in aug[best]]
        for r in range(k):
            f = aug[r][col]
            if r != best and f != 0.0:
                aug[r] = [x - f * y for x, y in zip(aug[r], aug[best], strict=True)]
    return [aug[where[c]][k] if c in where else 0.0 for c in range(k)]


@dataclass
class Difference:
    """A variant's figure minus the baseline's, on paired matches, with its test."""

    estimate: float
    low: float
    high: float
    p: float
    se: float = 0.0
    se_unpaired: float = math.nan       # what it would be on independent matches: what pairing saves
    p_holm: float = math.nan
    se_uncontrolled: float = math.nan   # what it would be without the control variates

    @property
    def significant(self) -> bool:
        return self.p_holm < ALPHA

    def as_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "p": self.p,
                "p_holm": self.p_holm, "significant": self.significant, "se": self.se,
                "se_unpaired": self.se_unpaired, "se_uncontrolled": self.se_uncontrolled}


def paired(a: Linear, b: Linear) -> Difference | None:
    """b − a over matches paired by index, adjusted by both matches' controls; None where either
    figure is undefined."""
    if math.isnan(a.estimate) or math.isnan(b.estimate) or len(a.terms) != len(b.terms):
        return None
    terms = [y - x for x, y in zip(a.terms, b.terms, strict=True)]
    controls = [[*x, *y] for x, y in zip(a.controls, b.controls, strict=True)] if a.controls and b.controls else []
    shift, se = regress(terms, controls)
    diff = b.estimate - a.estimate - shift
    if math.isnan(se):
        return None
    unpaired = math.hypot(_se(a.terms), _se(b.terms))
    plain = _se(terms)
    if se == 0:
        return Difference(diff, diff, diff, 1.0 if diff == 0 else 0.0, 0.0, unpaired, se_uncontrolled=plain)
    p = math.erfc(abs(diff / se) / math.sqrt(2))
    return Difference(diff, diff - Z95 * se, diff + Z95 * se, p, se, unpaired, se_uncontrolled=plain)


def holm(diffs: Mapping[str, Difference]) -> None:
    """Holm's step-down adjustment of the p-values of one comparison, in place: the chance that
    any figure is called different when none is stays under 5%, whatever their dependence.
    A figure equal in every pair of matches (a call neither variant ever made, or two variants
    that play alike) is no test and leaves the family: its adjusted p-value is 1."""
    tested = [d for d in diffs.values() if not (d.p == 1.0 and d.low == d.high)]
    for d in diffs.values():
        d.p_holm = 1.0
    ordered = sorted(tested, key=lambda d: d.p)
    m, running = len(ordered), 0.0
    for j, d in enumerate(ordered):
        running = max(running, min(1.0, (m - j) * d.p))
        d.p_holm = running


# -- the run --------------------------------------------------------------------------------

@dataclass
class Balance:
    """Every variant's run, its figures, and each variant's differences from the first."""

    variants: list[Variant]
    runs: list[Run]
    bots: str
    seed: int
    matches: int
    seconds: float
    teams: int = 2
    duplicate: bool = False
    precision: float | None = None
    figure: str | None = None           # the figure the rounds watched, if the run played rounds
    controls: list[str] = field(default_factory=list)
    figures: list[dict[str, Linear]] = field(default_factory=list)
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)     # key -> label, unit
    differences: list[dict[str, Difference]] = field(default_factory=list)

    def __post_init__(self) -> None:
        rows = [r for run in self.runs for r in run.rows]
        found = metrics(rows, self.teams)
        self.labels = {m.key: (m.label, m.unit) for m in found}
        self.controls = sorted({k for r in rows for k in r if k.startswith("luck.")})
        self.figures = [{m.key: linearise(run.rows, m, self.controls) for m in found} for run in self.runs]
        base = self.figures[0]
        for other in self.figures[1:]:
            diffs = {k: d for k in base if (d := paired(base[k], other[k])) is not None}
            holm(diffs)
            self.differences.append(diffs)

    def as_dict(self) -> dict[str, Any]:
        variants = []
        for v, run, figs in zip(self.variants, self.runs, self.figures, strict=True):
            variants.append({"label": v.label, "spec": run.spec, "options": run.options,
                             "figures": {k: {**f.interval().as_dict(), "label": self.labels[k][0],
                                             "unit": self.labels[k][1]} for k, f in figs.items()
                                         if not math.isnan(f.estimate)},      # a call never made: no figure
                             "simulate": simulate_report(run)})
        comparisons = [{"baseline": self.variants[0].label, "variant": v.label,
                        "differences": {k: {**d.as_dict(), "label": self.labels[k][0], "unit": self.labels[k][1]}
                                        for k, d in diffs.items()}}
                       for v, diffs in zip(self.variants[1:], self.differences, strict=True)]
        return {"bots": self.bots, "seed": self.seed, "matches": self.matches, "seconds": round(self.seconds, 1),
                "design": "duplicate" if self.duplicate else "match", "precision": self.precision,
                "rounds_watched": self.figure,
                "controls": self.controls,
                "paired_by": "match seed", "multiple_comparisons": "holm", "alpha": ALPHA,
                "variants": variants, "comparisons": comparisons}


FIRST_BATCH = 60
"""Matches per variant played before `precision` is first looked at: enough to fit the controls."""


def widest(b: Balance, key: str = "mano_edge") -> float:
    """Half the widest 95% interval of figure `key`: of each difference from the baseline, or, for
    one variant, of its own figure; what `precision` waits for (infinite while undefined)."""
    if b.differences:
        halves = [(d[key].high - d[key].low) / 2 if key in d else math.inf for d in b.differences]
    else:
        f = b.figures[0].get(key)
        c = f.interval() if f is not None else None
        halves = [math.inf if c is None else (c.high - c.low) / 2]
    return max(math.inf if math.isnan(h) else h for h in halves)


def balance(variants: Sequence[Variant], matches: int, bots: str | None = None, seed: int = 0, workers: int = 1,
            backend: str = "local", address: str | None = None,
            progress: Callable[[int], None] | None = None, duplicate: bool = False,
            precision: float | None = None, figure: str = "mano_edge", seconds: float | None = None) -> Balance:
    """Play `matches` matches of every variant from the same seeds, and compare them. With
    `precision` or `seconds`, play in rounds (`FIRST_BATCH` matches, then as many more as the
    interval so far says are needed, as many as the time left allows) and stop once `widest` of
    `figure` is at most `precision`, the `seconds` are spent, or `matches` are played. The matches
    played are numbered from 0 whenever the run stops, so `--matches` replays it exactly."""
    if not variants:
        raise TrucoError("balance needs a spec")
    bots = bots or strongest_bot()
    bot_factories(bots)
    for v in variants:                  # every variant's mistake is told before any match is played
        load_game(v.spec, v.options)
    start = time.perf_counter()
    runs: list[Run] = []
    done = 0
    rounds = precision is not None or seconds is not None
    goal = min(matches, FIRST_BATCH) if rounds else matches
    with ray_session(address) if backend == "ray" else nullcontext():
        while True:
            more = [simulate(v.spec, v.options, goal - done, bots, seed, workers, backend, address, progress,
                             duplicate, done) for v in variants]
            if not runs:
                runs = more
            else:
                for run, extra in zip(runs, more, strict=True):
                    run.tally.merge(extra.tally)
                    run.rows += extra.rows
            done = goal
            teams = {run.tally.teams for run in runs}
            if len(teams) != 1:
                raise TrucoError("the variants compared must have the same number of teams")
            elapsed = time.perf_counter() - start
            result = Balance(list(variants), runs, bots, seed, done, elapsed, teams.pop(), duplicate, precision,
                             figure if rounds else None)
            if rounds and figure not in result.labels:
                raise TrucoError(f"no figure {figure!r}; figures: {', '.join(result.labels)}")
            half = widest(result, figure)
            if not rounds or done >= matches or (precision is not None and half <= precision):
                return result
            if precision is not None:
                need = done * (half / precision) ** 2 * 1.1 if math.isfinite(half) else 2 * done
            else:
                need = matches
            if seconds is not None:
                left = seconds - elapsed
                if left <= 0:
                    return result
                need = min(need, done + done * left / elapsed)
            goal = min(matches, max(done + workers, math.ceil(need)))


# -- the report ---------------------------------------------------------------------------

HEADLINE = ("mano_edge", "dealer_edge", "mano_match_wins", "dealer_match_wins", "hands_per_match")


def render(b: Balance, console: Console) -> None:
    design = ", duplicate deals" if b.duplicate else ""
    controls = f"; the edges adjusted by {len(b.controls)} controls of the deals' luck" if b.controls else ""
    console.print(f"[bold]balance[/]: {b.matches} matches per variant{design}, bots {b.bots}, seed {b.seed}, "
                  f"{b.seconds:.0f} s; differences paired by match seed, Holm-adjusted{controls}", highlight=False)
    labels = [v.label for v in b.variants]
    table = Table("figure", "unit", *labels, title="Each variant (estimate ± half its 95% interval, over matches)")
    for key, (label, unit) in b.labels.items():
        table.add_row(label, unit, *(_ci(figs[key]) if key in figs else "" for figs in b.figures))
    console.print(table)
    for v, diffs in zip(b.variants[1:], b.differences, strict=True):
        table = Table("figure", "difference ± 95%", "p", "p (Holm)", "",
                      title=f"{v.label} minus {b.variants[0].label} (paired matches)")
        hidden = 0
        for key, d in diffs.items():
            if not (d.significant or key in HEADLINE or key.startswith(("points.", "share."))):
                hidden += 1
                continue
            table.add_row(b.labels[key][0], f"{d.estimate:+.3f} ±{(d.high - d.low) / 2:.3f}", _p(d.p),
                          _p(d.p_holm), "[bold]significant[/]" if d.significant else "")
        if hidden:
            table.caption = f"and {hidden} call figures that differ by no more than chance (all in --json)"
        console.print(table)


def _ci(f: Linear) -> str:
    if math.isnan(f.estimate):
        return ""
    c = f.interval()
    return f"{c.estimate:.3f}" if math.isnan(c.high) else f"{c.estimate:.3f} ±{(c.high - c.low) / 2:.3f}"


def _p(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def plot(b: Balance, out: Path) -> list[Path]:
    """The headline figures side by side, where the points come from, the calls, the match
    lengths and the differences from the baseline."""
    plt = pyplot()
    if plt is None:
        return []
    labels = [v.label for v in b.variants]
    written: list[Path] = []
    colors = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]

    def bars(ax: Any, keys: Sequence[str], names: Sequence[str]) -> None:
        width = 0.8 / len(b.figures)
        for i, figs in enumerate(b.figures):
            cis = [figs[k].interval() if k in figs else Interval(math.nan, math.nan, math.nan) for k in keys]
            xs = [j + i * width for j in range(len(keys))]
            ax.bar(xs, [c.estimate for c in cis], width, label=labels[i], color=colors[i % len(colors)],
                   yerr=[[c.estimate - c.low for c in cis], [c.high - c.estimate for c in cis]], capsize=3)
        ax.set_xticks([j + width * (len(b.figures) - 1) / 2 for j in range(len(keys))], names)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.legend(fontsize=8)

    fig, (left, right) = plt.subplots(1, 2, figsize=(8.5, 3.6))
    bars(left, ["mano_edge", "dealer_edge"], ["mano", "dealer"])
    left.set(ylabel="points per hand (95% CI)", title="Edge per hand")
    bars(right, ["mano_match_wins", "dealer_match_wins"], ["first mano", "first dealer"])
    right.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    right.set(ylabel="matches won (95% CI)", ylim=(0, 1), title="Matches won by the team of")
    written += save(plt, fig, out, "balance_edges")

    sources = [k.split(".", 1)[1] for k in b.labels if k.startswith("share.")]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    bottoms = [0.0] * len(b.figures)
    for j, s in enumerate(sources):
        vals = [figs[f"points.{s}"].estimate if f"points.{s}" in figs else 0.0 for figs in b.figures]
        ax.bar(labels, vals, bottom=bottoms, label=s, color=colors[j % len(colors)])
        bottoms = [x + y for x, y in zip(bottoms, vals, strict=True)]
    ax.set(ylabel="points per hand, all teams", title="Where the points come from")
    ax.legend(fontsize=8)
    written += save(plt, fig, out, "balance_sources")

    calls = [k.split(".")[1] for k in b.labels if k.startswith("call.") and k.endswith(".made")]
    if calls:
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(8.5, 6), sharex=True)
        bars(top, [f"call.{c}.made" for c in calls], calls)
        top.set(ylabel="calls per hand", title="How often each call is made, and what it brings the caller")
        bars(bottom, [f"call.{c}.worth" for c in calls], calls)
        bottom.set(ylabel="net points per call")
        bottom.tick_params(axis="x", labelrotation=35)
        written += save(plt, fig, out, "balance_calls")

    fig, ax = plt.subplots(figsize=(6, 3.6))
    for i, run in enumerate(b.runs):
        lengths = run.tally.lengths
        xs = sorted(lengths)
        ax.plot(xs, [lengths[x] / run.tally.matches for x in xs], marker=".", label=labels[i],
                color=colors[i % len(colors)])
    ax.set(xlabel="hands in the match", ylabel="share of matches", title="Match length")
    ax.legend(fontsize=8)
    written += save(plt, fig, out, "balance_length")

    if b.differences:
        keys = [k for k in b.labels if b.labels[k][1] == "points/hand"]
        fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(keys) * len(b.differences)))
        y = 0
        ticks: list[tuple[int, str]] = []
        for i, diffs in enumerate(b.differences):
            for k in keys:
                d = diffs.get(k)
                if d is None:
                    continue
                ax.errorbar([d.estimate], [y], xerr=[[d.estimate - d.low], [d.high - d.estimate]], fmt="D",
                            color=colors[(i + 1) % len(colors)], capsize=3)
                ticks.append((y, f"{b.labels[k][0]}{' *' if d.significant else ''}"
                              + (f" ({labels[i + 1]})" if len(b.differences) > 1 else "")))
                y -= 1
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks([t for t, _ in ticks], [n for _, n in ticks])
        ax.set(xlabel=f"points per hand, variant minus {labels[0]} (95% CI; * significant, Holm)",
               title="Differences (paired matches)")
        written += save(plt, fig, out, "balance_differences")
    return written


def write_outputs(b: Balance, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    path = out / "balance.json"
    path.write_text(json.dumps(b.as_dict(), indent=2) + "\n", encoding="utf-8")
    return [path, *plot(b, out)]


# -- the command ----------------------------------------------------------------------------

def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "balance", help="the mano's and dealer's edge, calls and points by source under strong play; variants compared",
        description="Play the same matches (the same seeds, so the same deals) of a spec and of each variant "
                    "between strong bots, and report the mano's and the dealer's edge, how often each call is made, "
                    "accepted and won and what it is worth, where the points come from and how long matches last, "
                    "each with a 95% confidence interval; for each variant, its differences from the first with "
                    "Holm-adjusted p-values. A VARIANT is a bundled spec name, a spec file, or NAME=VALUE[,...] "
                    "table options of SPEC. The default bots are the "
                    f"strongest installed (the first of {', '.join(STRONG_BOTS)}). docs/balance.md explains "
                    "every figure.")
    p.add_argument("spec", help="a bundled spec name or a spec file: the baseline")
    p.add_argument("variants", nargs="*", metavar="VARIANT",
                   help="a bundled spec name, a spec file, or NAME=VALUE[,NAME=VALUE...] options of SPEC")
    p.add_argument("--matches", type=int, default=200, help="matches per variant (default: 200)")
    p.add_argument("--bots", default=None,
                   help="bot names, one per seat cycling (default: the strongest available, now "
                        f"{strongest_bot()!r})")
    p.add_argument("--jobs", "--workers", dest="workers", type=int, default=os.cpu_count() or 1,
                   help="processes (default: every core)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed, the same report")
    p.add_argument("--out", type=Path, default=None, help="write balance.json and the plots here")
    p.add_argument("--backend", choices=["local", "ray"], default="local", help="local processes or a Ray cluster")
    p.add_argument("--address", default=None, help="the Ray cluster to join (default: start a local Ray)")
    p.add_argument("--players", type=int, default=None, help="shorthand for -o players=N, for every variant")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, for every variant")
    p.add_argument("--duplicate", action="store_true",
                   help="play every hand again with the cards rotated between the teams, so card luck cancels")
    p.add_argument("--precision", type=float, default=None, metavar="HALF",
                   help="stop once --figure (each difference from SPEC, or SPEC's own) is known to ±HALF "
                        "(95%%); --matches is then the most played")
    p.add_argument("--figure", default="mano_edge", metavar="KEY",
                   help="the figure --precision waits for, by its JSON key (default: mano_edge; e.g. points.hand)")
    p.add_argument("--seconds", type=float, default=None,
                   help="stop after the round that spends these seconds; --matches is then the most played")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    from interpreter.measure.bench import table_options
    options = table_options(args)
    variants = [Variant(args.spec, args.spec, options)] + [parse_variant(v, args.spec, options) for v in args.variants]
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True, disable=args.json) as bar:
        task = bar.add_task(f"balance of {len(variants)} variant(s)", total=args.matches * len(variants))
        result = balance(variants, args.matches, args.bots, args.seed, args.workers, args.backend, args.address,
                         lambda n: bar.advance(task, n), args.duplicate, args.precision, args.figure, args.seconds)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
    else:
        render(result, console)
    if args.out is not None:
        written = write_outputs(result, args.out)
        if not args.json:
            if len(written) == 1:
                console.print("plots skipped: they need matplotlib, the `plots` extra", markup=False)
            console.print(f"wrote {', '.join(str(p) for p in written)}", highlight=False)
    return 0
