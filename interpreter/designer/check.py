"""`truco check`: everything wrong with a spec before a game is played, best first.

Stages, each on what the previous left usable: the schema and the DSL (loading); the
static checks of the merged tree (rulespec.checks); for each option combination, the
build, the static checks of its IR, the compile, the payoff rules (payoffs.py) and the
exhaustive pass over one hand (explore.py). A finding is reported once, with the
options under which it was first seen and, where the engine found it, the actions that
reach it (written as a conformance case with `--cases`).
"""
from __future__ import annotations

import functools
import itertools
import json
import math
import multiprocessing
import time
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console
from rich.markup import escape

from rulespec.blame import relocate
from rulespec.checks import check_source, check_spec
from rulespec.errors import Diagnostic, Loc, OptionError, Severity, SpecError, SpecNotFound, so
from rulespec.ir import OptionDecl, OptionValue, Span, Wording
from rulespec.load import SpecSource, open_spec
from rulespec.resolved import base_of, merge_findings, render
from rulespec.yamlload import Located

from interpreter.designer.explore import ABSTRACT_STATES, FORMULA_FAILURES, Exploration, Violation, Witness, explore
from interpreter.designer.payoffs import Payoffs, payoffs, show
from interpreter.engine.game import Game

ALL_UP_TO = 64
"""Every combination of options is checked up to this many; beyond, a covering array."""
STRENGTH = 3
"""The exhaustive pass walks a covering array of this strength: every triple of option values
together at least once (`truco check --strength N`)."""
TUPLES = {1: "every option value", 2: "every pair of option values", 3: "every triple of option values"}


def tuples_text(strength: int) -> str:
    """What a covering array of `strength` holds, in words."""
    return TUPLES.get(strength, f"every {strength} option values together")

LOAD, STATIC, BUILD, PAYOFF, EXPLORE = range(5)
"""Stages, in the order they run and findings are ranked."""

Combo = dict[str, OptionValue]

ENGINE_FAILURES = (*FORMULA_FAILURES, AssertionError)
"""How the engine fails on a spec the static checks let through: reported at the spec, never raised."""


@dataclass
class Finding:
    diagnostic: Diagnostic
    stage: int
    options: Combo | None = None
    witness: Witness | None = None
    expect: dict[str, Any] | None = None
    seen: int = 1
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        d = self.diagnostic
        out: dict[str, Any] = {"severity": d.severity, "file": d.loc.file if d.loc else None,
                               "line": d.loc.line if d.loc else None, "col": d.loc.col if d.loc else None,
                               "path": d.path, "message": d.message, "source": d.source}
        if self.options is not None:
            out["options"] = self.options
        if self.witness is not None:
            out["actions"] = list(self.witness.actions)
        return out


@dataclass
class Report:
    """One spec's findings and what the checker covered to find them."""

    name: str
    findings: list[Finding] = field(default_factory=list)
    unusable: str | None = None
    total: int = 0
    checked: int = 0
    explored: int = 0
    states: int = 0
    transitions: int = 0
    longest: int = 0
    scores: int = 0
    seconds: float = 0.0
    exploring: float = 0.0
    choices: int = 0
    """Questions about the cards the exhaustive pass answered every way (abstract deals)."""
    sampled: list[Combo] = field(default_factory=list)
    """Combinations explored over the sample deals only: every deal was too many to walk."""
    samples: list[str] = field(default_factory=list)
    covered: list[Combo] = field(default_factory=list)
    """The option combinations explored exhaustively, defaults first."""
    stopped: bool = False
    """A finding came first, so the combinations after it were not explored."""
    walkable: int = 0
    """The combinations the exhaustive pass walks when nothing stops it."""
    uncapped: set[str] = field(default_factory=set)
    cut: bool = False
    interpretations: list[OptionDecl] = field(default_factory=list)
    source: SpecSource | None = None
    strength: int = STRENGTH
    """The covering array's strength: every `strength` option values are walked together."""

    def figures(self) -> dict[str, Any]:
        return {"combinations": self.total, "checked": self.checked, "explored": self.explored,
                "states": self.states, "transitions": self.transitions, "longest_hand": self.longest,
                "scores_checked": self.scores, "seconds": round(self.seconds, 3),
                "exploring_seconds": round(self.exploring, 3), "card_choices": self.choices,
                "every_deal": self.explored - len(self.sampled), "sample_deals_only": self.sampled,
                "sample_deals": self.samples,
                "explored_options": self.covered, "coverage": self.coverage(), "strength": self.strength,
                "uncapped": sorted(self.uncapped), "cut": self.cut,
                "interpretations": [{"name": o.name, "values": list(o.values), "default": o.default,
                                     "doc": _text(o.doc), "source": o.cited.source,
                                     "note": _text(o.cited.note)}
                                    for o in self.interpretations]}

    def coverage(self) -> str:
        """Which option combinations the exhaustive pass covered, in words."""
        if self.stopped:
            return (f"{self.explored} of the {self.walkable} combinations it walks (stopped at the first finding)"
                    if self.explored else "none (a finding came before any walk)")
        if not self.explored:
            return "none"
        return f"{tuples_text(self.strength)}: {self.explored} of {self.total} combinations"

    def stop_note(self) -> str:
        """What the exhaustive pass did when a finding came first, as it happened."""
        if not self.explored:
            return ("no hand was walked: the findings above came first, from the checks that play no hand "
                    "(fix them and check again, or walk every hand all the same with --keep-going)")
        return (f"the exhaustive pass stopped at its first finding, having walked {self.explored} of the "
                f"{self.walkable} option combinations it walks (fix what is above and check again, or walk "
                "them all with --keep-going)")


# -- choosing option combinations ---------------------------------------------------------


def combinations(options: tuple[OptionDecl, ...], limit: int = ALL_UP_TO,
                 strength: int = STRENGTH) -> tuple[list[Combo], int]:
    """Every combination when there are at most `limit`, else a set that holds every
    `strength` option values (every triple at 3) together at least once (and so every single
    value); the defaults first; and the total."""
    total = math.prod(len(o.values) for o in options)
    if total <= limit:
        names = [o.name for o in options]
        every = [dict(zip(names, vs, strict=False)) for vs in itertools.product(*(o.values for o in options))]
        default = {o.name: o.default for o in options}
        return [default] + [c for c in every if c != default], total     # findings name the defaults first
    chosen = covering(options, strength)
    return chosen + [c for c in each_value(options) if c not in chosen], total


def restrict(source: SpecSource, fixed: Mapping[str, object]) -> tuple[OptionDecl, ...]:
    """The spec's options with some fixed to one value (checked and coerced as a table would)."""
    chosen = source.resolve(fixed)
    return tuple(replace(o, values=(chosen[o.name],), default=chosen[o.name]) if o.name in fixed else o
                 for o in source.options)


def each_value(options: tuple[OptionDecl, ...]) -> list[Combo]:
    """The defaults, then combinations that give every option each of its other values
    (several options change at once), so every single value is used at least once."""
    default = {o.name: o.default for o in options}
    left = {o.name: [v for v in o.values if v != o.default] for o in options}
    out = [default]
    while any(left.values()):
        out.append({n: (left[n].pop(0) if left[n] else default[n]) for n in default})
    return out


def covering(options: tuple[OptionDecl, ...], strength: int = STRENGTH) -> list[Combo]:
    """A covering array: a small set of combinations in which every `strength` options take
    every combination of their values together at least once (every pair at 2, every triple
    at 3; with fewer options than that, every combination). Greedy and deterministic: the
    defaults first, then for the first tuple of values not yet covered, a combination holding
    it whose other options each take the value that covers most tuples still uncovered."""
    names = [o.name for o in options]
    values = {o.name: o.values for o in options}
    default = {o.name: o.default for o in options}
    t = max(1, min(strength, len(names)))
    groups = list(itertools.combinations(range(len(names)), t))
    uncovered = {tuple(zip(g, vs, strict=True)) for g in groups
                 for vs in itertools.product(*(values[names[i]] for i in g))}
    by_option: dict[int, list[tuple[int, ...]]] = {i: [g for g in groups if i in g] for i in range(len(names))}
    out: list[Combo] = []

    def tuples(combo: Combo, among: list[tuple[int, ...]]) -> Iterator[tuple[tuple[int, Any], ...]]:
        return (tuple((i, combo[names[i]]) for i in g) for g in among)

    def cover(combo: Combo) -> None:
        uncovered.difference_update(tuples(combo, groups))

    out.append(default)
    cover(default)

    def covers(combo: Combo, k: int, n: str, v: OptionValue) -> int:
        """How many tuples still uncovered option `n` (the `k`th) at `v` would cover."""
        return sum(1 for u in tuples({**combo, n: v}, by_option[k]) if u in uncovered)

    while uncovered:
        first = min(uncovered, key=lambda u: ([i for i, _ in u], repr(u)))
        combo = {**default, **{names[i]: v for i, v in first}}
        fixed = {i for i, _ in first}
        for k, n in enumerate(names):
            if k in fixed:
                continue
            combo[n] = max(values[n], key=functools.partial(covers, combo, k, n))
        if combo not in out:
            out.append(combo)
        before = len(uncovered)
        cover(combo)
        assert len(uncovered) < before, "each combination added covers a tuple"
    return out


# -- one spec -----------------------------------------------------------------------------


class _Collector:
    """Findings of one spec across combinations: each once, the options first seen noted."""

    def __init__(self, defaults: Combo, source: SpecSource) -> None:
        self.defaults = defaults
        self.source = source
        self.found: dict[tuple, Finding] = {}

    def add(self, d: Diagnostic, stage: int, combo: Combo | None = None, witness: Witness | None = None,
            expect: dict[str, Any] | None = None, detail: str = "") -> None:
        d = relocate(d, self.source.tree, str(self.source.path))
        key = (d.severity, d.loc, d.path, d.message)
        if key in self.found:
            self.found[key].seen += 1
            return
        self.found[key] = Finding(d, stage, combo, witness, expect, 1, detail)

    def ranked(self, combos: int) -> list[Finding]:
        """Best first: errors, then the earliest stage, then the place in the file. A later
        stage's finding at a path an earlier stage already reported is the same defect."""
        by_stage = sorted(self.found.values(), key=lambda f: f.stage)
        reported: dict[str, int] = {}
        out = []
        for f in by_stage:
            first = reported.setdefault(f.diagnostic.path, f.stage)
            if first < f.stage:
                continue
            out.append(self.word(f, combos))

        def loc(f: Finding) -> tuple[str, int, int]:
            d = f.diagnostic.loc
            return (d.file, d.line, d.col) if d else ("", 0, 0)

        return sorted(out, key=lambda f: (f.diagnostic.severity != "error", f.stage, loc(f)))

    def word(self, f: Finding, combos: int) -> Finding:
        """The message, with the options it was seen under and the actions that reach it."""
        d = f.diagnostic
        extra = f": {f.detail}" if f.detail else ""
        if f.options is not None and f.seen < combos:
            changed = _changed(f.options, self.defaults)
            extra += f" (with {_options_text(changed)})" if changed else " (with the default options)"
        if f.witness is not None and f.witness.actions:
            extra += f"; after: {f.witness}"
        if not extra:
            return f
        return Finding(Diagnostic(d.severity, d.loc, d.path, d.message + extra, d.source), f.stage,
                       f.options, f.witness, f.expect, f.seen, f.detail)


def _text(wording: Wording | None) -> str | None:
    """A note or doc in the spec's language, for the JSON report."""
    return str(wording) if wording else None


def _changed(combo: Combo, defaults: Combo) -> Combo:
    return {k: v for k, v in combo.items() if defaults.get(k) != v}


def _options_text(combo: Combo) -> str:
    return ", ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in combo.items())


def diagnose(name: str, exhaustive: bool = True, fixed: Mapping[str, object] | None = None,
             jobs: int = 1, keep_going: bool = False, strength: int = STRENGTH) -> Report:
    """Every finding for one spec (a bundled name or a path), and the checker's figures;
    `fixed` options are checked under the given value only; `jobs` processes walk the option
    combinations side by side; `keep_going` explores them all whatever was found first;
    `strength` is the covering array's (every triple of option values at 3)."""
    report = Report(name, strength=strength)
    start = time.perf_counter()
    try:
        source = open_spec(name)
    except SpecNotFound as err:
        report.unusable = str(err)
        return report
    except SpecError as err:
        report.findings = [Finding(d, LOAD) for d in err.diagnostics]
        return report
    diagnose_source(source, report, exhaustive, fixed, jobs=jobs, keep_going=keep_going, strength=strength)
    report.seconds = time.perf_counter() - start
    return report


def diagnose_source(source: SpecSource, report: Report, exhaustive: bool = True,
                    fixed: Mapping[str, object] | None = None, play: bool = True,
                    base: Located | None = None, jobs: int = 1, keep_going: bool = False,
                    strength: int | None = None) -> Report:
    """The findings of a loaded spec into `report`. Without `play`, no hand is played (no
    payoffs, no exhaustive pass) and only combinations that use every option value at least
    once are built and compiled: the quick pass an editor runs as the designer types.
    `base` is the merged tree the file extends (read from disk when not given).

    A finding is fixed first, then explored: once one is found (by the quick checks, the
    payoffs or an earlier combination's walk), no further combination is walked unless
    `keep_going`, so that a broken spec is answered in seconds, not after every walk."""
    report.source = source
    strength = report.strength = report.strength if strength is None else strength
    report.interpretations = [o for o in source.options if o.kind == "interpretation"]
    try:
        options = restrict(source, fixed or {})
    except OptionError as err:
        report.unusable = str(err)
        return report
    found = _Collector({o.name: o.default for o in options}, source)
    static = check_source(source.tree, source.options, str(source.path)) + \
        merge_findings(source.path, source.tree, base)
    for d in static:
        found.add(d, STATIC)
    broken = any(d.severity == "error" for d in static)    # the engine would trip over the same defect
    combos, report.total = combinations(options, strength=strength)
    if not play:
        combos = each_value(options)                  # every option value at least once
    explored = {_key(c) for c in covering(options, strength)} if exhaustive else set()
    report.walkable = sum(_key(c) in explored for c in combos) if play else 0
    todo: list[tuple[Game, Combo]] = []
    for combo in combos:
        report.checked += 1
        game = _build(source, combo, found)
        if game is None or broken or not play:
            continue
        if _check_payoffs(game, combo, found) or _key(combo) not in explored:
            continue
        if found.found and not keep_going:
            report.stopped = True
            continue
        todo.append((game, combo))
    walks = _explorations([game for game, _ in todo], jobs)
    for game, combo in todo:
        if report.stopped:
            break                       # never waiting for a walk that would not be read
        report.explored += 1
        report.covered.append(combo)
        _explore(game, combo, next(walks), found, report)
        report.stopped = bool(found.found) and not keep_going
    walks.close()
    report.findings = found.ranked(report.checked)
    return report


_FORKED: list[Game] = []
"""The games a pool of forked processes explores: inherited by each process, not pickled
(a compiled game holds closures)."""


def _explorations(games: list[Game], jobs: int) -> Generator[Exploration | str, None, None]:
    """Each game's exhaustive pass (or why it failed), in order, computed as it is asked for;
    with `jobs` > 1, that many forked processes walk the next games meanwhile: the option
    combinations are independent, and each walk is hundreds of thousands of states."""
    if jobs <= 1 or len(games) < 2:
        for game in games:
            yield _walked(game)
        return
    _FORKED[:] = games
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(games))) as pool:
            yield from pool.imap(_walked_at, range(len(games)))
    finally:
        _FORKED.clear()


def _walked(game: Game) -> Exploration | str:
    try:
        return explore(game)
    except ENGINE_FAILURES as err:
        return so(str(err), "the exhaustive pass cannot go on")


def _walked_at(index: int) -> Exploration | str:
    return _walked(_FORKED[index])


def _key(combo: Combo) -> tuple:
    return tuple(sorted(combo.items()))


def _build(source: SpecSource, combo: Combo, found: _Collector) -> Game | None:
    try:
        spec = source.build(combo)
    except SpecError as err:
        for d in err.diagnostics:
            found.add(d, BUILD, combo)
        return None
    static = check_spec(spec)
    for d in static:
        found.add(d, STATIC, combo)
    if any(d.severity == "error" for d in static):
        return None                              # the engine would trip over the same defect
    try:
        game = Game(spec)
    except SpecError as err:
        for d in err.diagnostics:
            found.add(d, BUILD, combo)
        return None
    except ENGINE_FAILURES as err:
        found.add(Diagnostic("error", Loc(spec.file, 1, 1), "$", so(str(err), "the engine cannot compile the spec")),
                  BUILD, combo)
        return None
    turned = _ranking_under_turned(game)
    for d in turned:
        found.add(d, STATIC, combo)
    return None if turned else game


def _ranking_under_turned(game: Game) -> list[Diagnostic]:
    """Under every card that may be turned, the ranking and the trumps order every card."""
    spec = game.spec
    if not game.turns_card:
        return []
    ids = game.cards.ids
    for turned, row in game.strength.items():
        left = [ids[c] for c in range(len(ids)) if row[c] <= 0 and c != turned]
        if left:
            return [Diagnostic("error", spec.ranking.span.loc, spec.ranking.span.path,
                               f"{'' if turned is None else f'with {ids[turned]} turned, '}"
                               f"the ranking leaves out {', '.join(left)}",
                               spec.ranking.cited.source)]
    return []


# -- payoffs ------------------------------------------------------------------------------


def _check_payoffs(game: Game, combo: Combo, found: _Collector) -> bool:
    """The ladder rises step by step, no answer pays more declined than accepted, and
    every call that waits for an answer has a payoff both ways. True when an error was
    found: exploring the same hands would only meet it again."""
    before = len(found.found)
    try:
        table = payoffs(game)
    except ENGINE_FAILURES as err:
        found.add(_payoffs_failed(game, err), PAYOFF, combo)
        return True
    for v in table.problems:
        found.add(_violation(v, "error"), PAYOFF, combo, v.witness, v.expect, v.detail)
    _ladder_rules(game, table, combo, found)
    _chain_rules(game, table, combo, found)
    added = list(found.found.values())[before:]
    return any(f.diagnostic.severity == "error" for f in added) or bool(table.problems)


def _payoffs_failed(game: Game, err: Exception) -> Diagnostic:
    """A formula that fails while the payoffs are read is told at its own place; any other
    failure at the stakes, where the reading starts."""
    if isinstance(err, SpecError) and err.diagnostics:
        d = err.diagnostics[0]
        return replace(d, severity="error", message=so(d.message, "the payoffs cannot be computed"))
    return Diagnostic("error", game.spec.stakes.span.loc, "$", so(str(err), "the payoffs cannot be computed"))


def _ladder_rules(game: Game, table: Payoffs, combo: Combo, found: _Collector) -> None:
    """Each call raises the hand's worth, and declining pays less than accepting would. A
    finding measured against the unraised hand names the base stake as related, so that a
    variant that only raised the base is told so at its own line."""
    before, name = table.base, "an unraised hand"
    base: tuple[tuple[str | int, ...], ...] = (("stakes", "base"),)
    for rung, step in enumerate(table.ladder):
        if step.accepted <= before:
            why = f"{step.call} makes the hand worth {step.accepted}, no more than {name} ({before})"
            found.add(_at(step.worth.span, step.source, so(why, "the ladder does not rise"),
                          related=base if rung == 0 else ()),
                      PAYOFF, combo)
        if step.declined > step.accepted:
            found.add(_at(step.declined_rule.span, step.source, f"declining {step.call} pays {step.declined}, "
                                                                f"more than accepting it would ({step.accepted})",
                          related=base if step.declined == table.base else ()),
                      PAYOFF, combo)
        before, name = step.accepted, step.call


def _chain_rules(game: Game, table: Payoffs, combo: Combo, found: _Collector) -> None:
    """Findings are grouped by the formula to fix: one per rule, naming every chain."""
    calls = {c.name: c for cont in game.spec.contests for c in cont.calls}
    grouped: dict[tuple[str, Span], list[tuple[str, Witness]]] = {}
    for chain in table.chains:
        said = " ".join(chain.calls)
        if calls[chain.calls[-1]].declare:
            continue
        rules = (("accepted", chain.accepted, chain.accept_formula),
                 ("declined", chain.declined, chain.decline_formula))
        for how, pays, rule in rules:
            span = rule.span if rule else chain.span
            if pays is None and not chain.unsettled:
                grouped.setdefault((f"no payoff when it is {how}", span), []).append((said, chain.witness))
            elif pays is not None and sum(pays) == 0:
                grouped.setdefault((f"pays nothing when it is {how}", span), []).append((said, chain.witness))
        if chain.accepted and chain.declined and not chain.varies:
            # a payoff that reads the score (what the leader lacks) may fall below what was
            # accumulated, as the rulebooks have it; points past the target change nothing
            accepted = sum(min(p, game.target) for p in chain.accepted)
            declined = sum(min(p, game.target) for p in chain.declined)
            if declined > accepted:
                span = chain.decline_formula.span if chain.decline_formula else chain.span
                said += f" ({show(chain.declined)} declined, {show(chain.accepted)} accepted)"
                grouped.setdefault(("pays more declined than accepting it would", span), []).append(
                    (said, chain.witness))
    for (what, span), chains in grouped.items():
        severity: Severity = "warning" if what.startswith("pays nothing") else "error"
        first, witness = chains[0]
        more = f"; also {', '.join(c for c, _ in chains[1:])}" if len(chains) > 1 else ""
        found.add(_at(span, None, f"{first} {what}{more}", severity), PAYOFF, combo, witness)


def _at(span: Span, source: str | None, message: str, severity: Severity = "error",
        related: tuple[tuple[str | int, ...], ...] = ()) -> Diagnostic:
    return Diagnostic(severity, span.loc, span.path, message, source, related=related)


def _violation(v: Violation, severity: Severity = "error") -> Diagnostic:
    span = v.span
    return Diagnostic(severity, span.loc if span else None, span.path if span else "$", v.message)


# -- the exhaustive pass ------------------------------------------------------------------


def _explore(game: Game, combo: Combo, ex: Exploration | str, found: _Collector, report: Report) -> None:
    """One combination's walk into the findings and figures."""
    if isinstance(ex, str):
        found.add(Diagnostic("error", game.spec.tricks.span.loc, "$", ex), EXPLORE, combo)
        return
    for v in ex.violations:
        found.add(_violation(v), EXPLORE, combo, v.witness, v.expect, v.detail)
    if ex.cut:
        found.add(Diagnostic("warning", game.spec.tricks.span.loc, "$",
                             so("a hand has too many states", "the exhaustive pass was cut short")), EXPLORE, combo)
    report.exploring += ex.seconds
    report.states += ex.states
    report.transitions += ex.transitions
    report.longest = max(report.longest, ex.longest)
    report.scores += ex.scores_checked
    report.cut |= ex.cut
    report.uncapped |= ex.uncapped
    report.choices += ex.choices
    if not ex.every_deal:
        report.sampled.append(combo)
        report.samples += [s for s in ex.samples if s not in report.samples]


# -- output -------------------------------------------------------------------------------


def write_cases(report: Report, folder: Path) -> list[Path]:
    """Each finding the engine reached, as a conformance case file that replays it."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    spec = str(report.source.path) if report.source else report.name
    for n, f in enumerate((f for f in report.findings if f.witness is not None), start=1):
        assert f.witness is not None
        case = f.witness.as_case(f"checker finding: {f.diagnostic.message}", f.expect)
        data = {"spec": spec, "source": "checker finding", "options": f.options or {}, "cases": [case]}
        path = folder / f"{Path(report.name).stem}-{n}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        out.append(path)
    return out


def print_report(report: Report, console: Console) -> None:
    """The checker's figures and the interpretation choices, for `--report`."""
    console.print(f"[bold]{escape(report.name)}[/]: {report.checked} of {report.total} option combinations "
                  f"checked" + (f" ({tuples_text(report.strength)})" if report.checked < report.total else "")
                  + f", explored exhaustively under {report.coverage()}; {report.seconds:.2f} s in all",
                  soft_wrap=True, highlight=False)
    if report.explored:
        bound = f"every hand ends within {report.longest} actions"
        if report.uncapped:
            bound += (f" (counting calls without a cap — {', '.join(sorted(report.uncapped))} — "
                      f"at most twice in a chain)")
        console.print(f"  exhaustive pass: {report.states} states, {report.transitions} transitions; {bound}; "
                      f"the match can end from each of {report.scores} scores; {report.exploring:.2f} s",
                      soft_wrap=True, highlight=False)
        every = report.explored - len(report.sampled)
        console.print(f"  deals explored: every deal under {every} of {report.explored} combinations, abstractly — "
                      f"{report.choices} questions about the cards (whose card takes a trick, who holds a value, "
                      "how values compare, who may annul) each answered every way", soft_wrap=True, highlight=False)
        if report.sampled:
            n = len(report.sampled)
            console.print(f"  under {n} combination{'s' if n > 1 else ''} every deal is more than "
                          f"{ABSTRACT_STATES:,} states, so chosen deals were explored instead "
                          f"({'; '.join(report.samples)}): "
                          + " · ".join(_options_text(_changed(c, report.covered[0])) or "the default options"
                                       for c in report.sampled), soft_wrap=True, highlight=False)
        for combo in report.covered:
            changed = _changed(combo, report.covered[0])
            console.print(f"  explored: {_options_text(changed) if changed else 'the default options'}"
                          + (" (chosen deals)" if combo in report.sampled else " (every deal)"),
                          soft_wrap=True, highlight=False)
    if report.interpretations:
        console.print("  interpretation choices (where the written rules are silent or disagree):",
                      highlight=False)
        for o in report.interpretations:
            values = " | ".join(str(v) for v in o.values)
            line = f"    {o.name} = {o.default} ({values})"
            if o.doc:
                line += f": {o.doc}"
            if o.cited.source:
                line += f" [source: {o.cited.source}]"
            console.print(escape(line), soft_wrap=True, highlight=False)
    else:
        console.print("  interpretation choices: none declared", highlight=False)


def _lines(report: Report) -> Iterator[tuple[Severity | None, str]]:
    if report.unusable:
        yield "error", report.unusable
        return
    for f in report.findings:
        yield f.diagnostic.severity, str(f.diagnostic)
    if not report.findings:
        yield None, f"ok {report.name}"


def error_lines(report: Report) -> list[str]:
    """A report's errors as `truco check` prints them, warnings left out, or why the spec could
    not be read at all: what a command that refuses a spec the checker finds wrong shows."""
    lines = [str(f.diagnostic) for f in report.findings if f.diagnostic.severity == "error"]
    return lines + ([report.unusable] if report.unusable else [])


def print_resolved(names: list[str]) -> int:
    """Each spec as `extends` merged it, every line with the file:line it came from."""
    for name in names:
        source = open_spec(name)
        print(f"# {name}: {source.path}")
        print(render(source.tree, base_of(source.path)), end="")
    return 0


def check_specs(names: list[str], console: Console, as_json: bool = False, report: bool = False,
                cases: str | None = None, exhaustive: bool = True,
                fixed: Mapping[str, object] | None = None, jobs: int = 1, keep_going: bool = False,
                strength: int = STRENGTH) -> int:
    """Check each spec; exit 0 when all are clean, 1 with findings, 2 for unusable input."""
    reports = [diagnose(name, exhaustive, fixed, jobs, keep_going, strength) for name in names]
    if cases:
        for r in reports:
            for path in write_cases(r, Path(cases)):
                if not as_json:
                    console.print(f"wrote {escape(str(path))}", soft_wrap=True, highlight=False)
    if as_json:
        out: dict[str, Any] = {}
        for r in reports:
            diags = [{"severity": "error", "message": r.unusable}] if r.unusable else \
                [f.as_dict() for f in r.findings]
            out[r.name] = {"diagnostics": diags, **r.figures()} if report else diags
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for r in reports:
            for severity, line in _lines(r):
                style = {"error": "bold red", "warning": "yellow", None: "green"}[severity]
                word = severity or "ok"
                text = line if severity else line[len("ok "):]
                console.print(f"[{style}]{word}[/] {escape(text)}", soft_wrap=True, highlight=False)
            if r.stopped:
                console.print(f"[dim]note[/] {r.stop_note()}", soft_wrap=True, highlight=False)
            if report and not r.unusable:
                print_report(r, console)
    if any(r.unusable for r in reports):
        return 2
    return 1 if any(r.findings for r in reports) else 0
