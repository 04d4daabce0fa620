"""Semantic checks of a spec that need no game played: names, dead definitions, tie rules.

The schema checks shape and the builder checks what it must to build; these look at the
whole spec for what is inconsistent or incomplete — an option no rule reads, a call that
can never be made, a pattern of trick results that no rule decides — so a designer hears
about it before a hand is dealt. `check_source` looks at the merged YAML tree once;
`check_spec` at the IR built for one choice of options.
"""
from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from typing import Any

from rulespec import dsl, formula
from rulespec.errors import Diagnostic, Severity, SpecError, so, unknown
from rulespec.ir import CARD_VERBS, COMMON_VERBS, Contest, Formula, OptionDecl, OptionValue, Spec
from rulespec.yamlload import Located, NodePath, format_path

PROSE = frozenset({"source", "note", "doc", "title", "name"})
"""Keys whose strings are prose, never formulas."""
VERBS = frozenset(COMMON_VERBS + CARD_VERBS)
_OPTION = re.compile(r"\boptions\.([A-Za-z_][A-Za-z0-9_]*)")


def _diag(severity: Severity, tree: Located, path: NodePath, message: str, key: bool = False) -> Diagnostic:
    loc = tree.key_loc(path) if key else tree.loc(path)
    return Diagnostic(severity, loc, format_path(path), message, _source(tree.data, path))


def _source(data: Any, path: NodePath) -> str | None:
    """The `source:` of the innermost mapping around `path` that has one."""
    found, node = None, data
    for part in path:
        if not isinstance(node, dict) or part not in node:
            break
        node = node[part]
        if isinstance(node, dict) and isinstance(node.get("source"), str):
            found = node["source"]
    return found


def _strings(node: Any, path: NodePath = ()) -> Iterator[tuple[NodePath, str]]:
    """Every string of the tree that may be a formula, with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in PROSE:
                yield from _strings(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _strings(value, path + (i,))
    elif isinstance(node, str):
        yield path, node


# -- the merged tree ----------------------------------------------------------------------


def check_source(tree: Located, options: tuple[OptionDecl, ...], own: str | None = None) -> list[Diagnostic]:
    """Checks of the whole spec, whatever options are chosen; `own` is the spec's file, where
    a finding made of two places points when one of them is there."""
    out = _option_names(tree, options)
    out += _when_entries(tree, options)
    out += _verbs(tree)
    out += _contests_without_calls(tree)
    out += _values_unused(tree)
    out += _cancels(tree, own)
    return out


def _option_names(tree: Located, options: tuple[OptionDecl, ...]) -> list[Diagnostic]:
    """`options.NAME` must name a declared option, and every declared option must be read."""
    declared = {o.name for o in options}
    out, read = [], set()
    for path, text in _strings(tree.data):
        for m in _OPTION.finditer(text):
            name = m.group(1)
            read.add(name)
            if name not in declared:
                out.append(Diagnostic("error", tree.locate_in(path, m.start(1)), format_path(path),
                                      f"unknown option {name!r}{unknown(name, sorted(declared), 'the options')}",
                                      _source(tree.data, path)))
    for o in options:
        if o.name not in read:
            out.append(_diag("warning", tree, ("options", o.name),
                             f"option {o.name!r} is declared but no rule reads it (write options.{o.name} "
                             "in a formula or a `when` condition)", key=True))
    return out


def _when_entries(tree: Located, options: tuple[OptionDecl, ...]) -> list[Diagnostic]:
    """A `when` entry whose condition holds under no choice of options is dead."""
    values = {o.name: o.values for o in options}
    out = []
    for name, entry in ((tree.data or {}).get("when") or {}).items():
        path: NodePath = ("when", name, "if")
        if not isinstance(entry, dict) or "if" not in entry:
            continue
        try:
            expr = dsl.parse_value(entry["if"], functools.partial(tree.locate_in, path), path=format_path(path))
        except SpecError:
            continue                              # the builder reports the syntax error
        read = sorted(n[len("options."):] for n in dsl.names_used(expr) if n.startswith("options."))
        if any(n not in values for n in read):
            continue                              # reported as an unknown option
        holds = False
        for combo in itertools.product(*(values[n] for n in read)):
            env = formula.Env(constants={f"options.{n}": v for n, v in zip(read, combo, strict=False)})
            try:
                compiled = formula.compile_expr(expr, env, functools.partial(tree.locate_in, path),
                                                format_path(path))
            except SpecError:
                holds = True                      # reads more than options: not ours to judge
                break
            if compiled.fn(None):
                holds = True
                break
        if not holds:
            out.append(_diag("warning", tree, path, so(f"the condition of the `when` entry {name!r} never holds",
                                                       "it applies under no choice of options")))
    return out


def _verbs(tree: Located) -> list[Diagnostic]:
    """An alias must stand for a verb the spec knows (one taking a verb's name is refused
    by the builder)."""
    data = tree.data or {}
    known = set(VERBS) | set(((data.get("stakes") or {}).get("calls")) or {})
    for node in (data.get("contests") or {}).values():
        known |= set((node or {}).get("calls") or {})
    known |= set(data.get("annul") or {})
    if isinstance(data.get("signals"), dict):
        known.add(str(data["signals"].get("verb", "signal")))
    out = []
    for alias, verb in (data.get("verbs") or {}).items():
        if alias not in PROSE and alias not in known and str(verb) not in known:
            out.append(_diag("error", tree, ("verbs", alias),
                             f"alias {alias!r} stands for {verb!r}, which is no verb of this spec"
                             f"{unknown(str(verb), sorted(known), 'the verbs')}"))
    return out


def _contests_without_calls(tree: Located) -> list[Diagnostic]:
    """A contest nobody can call is a section of the rulebook with nothing in it."""
    out = []
    for name, node in ((tree.data or {}).get("contests") or {}).items():
        calls = node.get("calls") if isinstance(node, dict) else None
        if not calls:
            path: NodePath = ("contests", name) + (("calls",) if isinstance(node, dict) and "calls" in node else ())
            out.append(_diag("error", tree, path, f"contest {name!r} has no calls: nobody can ever call it "
                                                  "(give it calls, or remove it)", key=len(path) == 2))
    return out


def _values_unused(tree: Located) -> list[Diagnostic]:
    """A hand value no contest compares is never used."""
    data = tree.data or {}
    used = {str((node or {}).get("value", name)) for name, node in (data.get("contests") or {}).items()}
    return [_diag("warning", tree, ("values", name), f"hand value {name!r} is defined but no contest compares it",
                  key=True)
            for name in (data.get("values") or {}) if name not in used]


def _cancels(tree: Located, own: str | None) -> list[Diagnostic]:
    """`cancels` names other contests, and two contests may not wipe each other; a pair
    that does is reported once, at the entry this file wrote if it wrote one."""
    contests = (tree.data or {}).get("contests") or {}
    entries = {(name, str(other)): ("contests", name, "cancels", i)
               for name, node in contests.items() for i, other in enumerate((node or {}).get("cancels") or [])}
    out = []
    for (name, other), path in entries.items():
        if other == name:
            out.append(_diag("error", tree, path, f"contest {name!r} cannot cancel itself"))
        elif other not in contests:
            out.append(_diag("error", tree, path,
                             f"{other!r} is not a contest{unknown(other, contests, 'the contests')}"))
        elif (other, name) in entries and name < other:
            back = entries[(other, name)]
            loc = tree.loc(path)
            blame = path if loc is not None and loc.file == own else back
            out.append(_diag("error", tree, blame,
                             f"contests {name!r} and {other!r} cancel each other: say which one goes first"))
    return out


# -- one choice of options ----------------------------------------------------------------


def check_spec(spec: Spec) -> list[Diagnostic]:
    """Checks of the IR built for one choice of options."""
    out = _outcomes(spec)
    for contest in spec.contests:
        out += _unreachable_calls(spec, contest)
        out += _never_open(spec, contest)
    if spec.stakes.calls and _constant(spec.stakes.when, spec) is False:
        out.append(_at("error", spec, spec.stakes.when, so("the condition of the stake calls is always false",
                                                           "no call of the ladder can ever be made")))
    return out


def _at(severity: Severity, spec: Spec, f: Formula, message: str) -> Diagnostic:
    return Diagnostic(severity, f.span.loc, f.span.path, message, _spec_source(spec, f.span.path))


def _spec_source(spec: Spec, path: str) -> str | None:
    """The `source:` around a `$.a.b.c` path in the spec's merged tree."""
    parts = tuple(p for p in re.findall(r'\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\]', path))
    return _source(spec.raw.data, tuple(a or b for a, b in parts))


# -- trick outcomes -----------------------------------------------------------------------

TIE = "T"


def decide(seq: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    """Whether a pattern (A, B, T) matches a sequence of results (team numbers as text, T).

    A is the team of the first trick won, B the other (spec-language.md, Tricks)."""
    if len(seq) != len(pattern):
        return False
    binding: dict[str, str] = {}
    for letter, result in zip(pattern, seq, strict=False):
        if (letter == TIE) != (result == TIE):
            return False
        if letter == TIE:
            continue
        other = "B" if letter == "A" else "A"
        if binding.get(letter, result) != result or binding.get(other) == result:
            return False
        binding[letter] = result
    return True


def show_results(seq: tuple[str, ...]) -> str:
    """Results as the spec writes patterns: the first team met is A."""
    names: dict[str, str] = {}
    out = []
    for r in seq:
        if r == TIE:
            out.append(TIE)
        else:
            if r not in names:
                names[r] = "AB"[len(names)]
            out.append(names[r])
    return " ".join(out)


def _outcomes(spec: Spec) -> list[Diagnostic]:
    """Every sequence of trick results is decided by a pattern by the last trick, and
    every pattern decides some sequence."""
    tricks = spec.tricks
    used: set[int] = set()
    undecided: list[tuple[str, ...]] = []
    decided: set[tuple[str, ...]] = set()
    for length in range(1, tricks.count + 1):
        for seq in itertools.product(("0", "1", TIE), repeat=length):
            if any(seq[:k] in decided for k in range(1, length)):
                continue
            hit = next((i for i, o in enumerate(tricks.outcomes) if decide(seq, o.pattern)), None)
            if hit is not None:
                used.add(hit)
                decided.add(seq)
            elif length == tricks.count:
                undecided.append(seq)
    out = []
    path = tricks.span.path + ".outcome"
    loc = spec.raw.loc(("tricks", "outcome"))
    shown = sorted({show_results(s) for s in undecided})
    if shown:
        out.append(Diagnostic("error", loc, path, f"no outcome decides the trick results {', '.join(shown)}: "
                                                  "add a pattern for them", tricks.cited.source))
    for i, o in enumerate(tricks.outcomes):
        if i not in used:
            out.append(Diagnostic("warning", o.span.loc, o.span.path,
                                  so(f"an earlier pattern or a shorter sequence always decides before the pattern "
                                     f"{' '.join(o.pattern)!r}", "it never decides a hand"), tricks.cited.source))
    return out


# -- contests -----------------------------------------------------------------------------


def _unreachable_calls(spec: Spec, contest: Contest) -> list[Diagnostic]:
    """A call that neither opens a chain nor answers a call that can be made is dead."""
    reachable = {c.name for c in contest.calls if c.opens}
    grew = True
    while grew:
        grew = False
        for c in contest.calls:
            if c.name not in reachable and any(a in reachable for a in c.after):
                reachable.add(c.name)
                grew = True
    out = []
    for c in contest.calls:
        if _constant(c.allowed, spec) is False:
            out.append(_at("error", spec, c.allowed, so(f"the `allowed` condition of {c.name} is always false",
                                                        f"{c.name} can never be called")))
            continue
        if c.name in reachable:
            continue
        key: tuple[str, ...] = ("contests", contest.name, "calls", c.name)
        written = spec.raw.data
        for part in key:
            written = written.get(part, {}) if isinstance(written, dict) else {}
        key += ("opens",) if isinstance(written, dict) and "opens" in written else ("after",)
        loc = spec.raw.loc(key)
        out.append(Diagnostic("error", loc, format_path(key),
                              so(f"{c.name} does not open a chain and answers "
                                 + (f"only calls that cannot be made ({', '.join(c.after)})" if c.after else "no call"),
                                 "it can never be called"), c.cited.source))
    return out


def _never_open(spec: Spec, contest: Contest) -> list[Diagnostic]:
    if contest.calls and _constant(contest.window, spec) is False and _constant(contest.interrupt, spec) is False:
        return [_at("error", spec, contest.window,
                    so(f"the window of {contest.name} is always false",
                       f"it never opens and {', '.join(c.name for c in contest.calls)} can never be called"))]
    return []


def _constant(f: Formula, spec: Spec) -> OptionValue | None:
    """The value of a formula that is constant under the chosen options, else None.

    Names the formula reads at play time are opaque here; `x and false` still folds."""
    opaque = {n: (lambda c: c) for n in dsl.names_used(f.expr) if not n.startswith("options.")}
    functions = {name: formula.FunctionSpec(arity, lambda *a: (lambda c: c), True)
                 for name, arity in dsl.calls_used(f.expr) if name not in formula.BUILTINS}
    env = formula.Env(names=opaque, functions=functions,
                      constants=formula.option_constants(spec.chosen))
    try:
        compiled = formula.compile_expr(f.expr, env, f.locate, f.span.path)
    except SpecError:
        return None
    return compiled.value if compiled.constant else None
