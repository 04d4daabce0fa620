"""One editor buffer checked as `truco check` would, from its unsaved text.

The quick pass (as the designer types) loads the buffer and its `extends` chain (open buffers
before files on disk), validates the schema, the options and every formula, and runs the
checker's static findings (each option value built and compiled once, no hand played);
the deep pass (on save, or on request)
is the whole checker, the exhaustive pass included. Each finding keeps the file it is in, so
a base's findings are published on the base.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from rulespec.errors import Diagnostic, Loc, SpecError, SpecNotFound, TrucoError
from rulespec.ir import OptionDecl, Spec
from rulespec.load import SpecSource, find_spec, load_tree, validate
from rulespec.yamlload import Located, load_yaml

from interpreter.designer.check import Report, diagnose_source

STAGE_CODES = ("load", "static", "build", "payoff", "explore")
"""The checker's stages (check.LOAD ... check.EXPLORE), as diagnostic codes."""

Reader = Callable[[Path], "str | None"]


@dataclass(frozen=True)
class Finding:
    """A diagnostic with the code of the pass that found it."""

    diagnostic: Diagnostic
    code: str


@dataclass
class Analysis:
    """What is known of one buffer: its own tree, the merged tree, the checked source."""

    path: Path
    text: str
    own: Located | None = None
    tree: Located | None = None
    base: Located | None = None
    base_path: Path | None = None
    source: SpecSource | None = None
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    deep: bool = False
    case: bool = False
    """The buffer is a conformance case file (docs/conformance.md); `tree` and `source` are
    then those of the spec it names."""
    cache: dict[str, Any] = field(default_factory=dict)
    """What features computed on this text once (the compiled game, the payoff tables)."""

    @cached_property
    def spec(self) -> Spec | None:
        """The IR under the default options, when the spec builds."""
        if self.source is None:
            return None
        try:
            return self.source.build()
        except TrucoError:
            return None

    @property
    def options(self) -> tuple[OptionDecl, ...]:
        return self.source.options if self.source is not None else ()

    def files(self) -> list[Path]:
        """This file and every file of its `extends` chain."""
        out = [self.path]
        tree = self.tree
        if tree is not None:
            for loc in tree.locs.values():
                p = Path(loc.file)
                if p not in out:
                    out.append(p)
        return out


def _code(d: Diagnostic, step: str) -> str:
    if step == "types":
        return "dsl-syntax" if d.message.startswith(("unexpected", "syntax")) else "dsl-type"
    if step == "yaml":
        return "schema" if d.message.startswith(("duplicate key", "unsupported")) else "yaml"
    return step


def analyze(path: Path, text: str, read: Reader | None = None, deep: bool = False,
            previous: Analysis | None = None) -> Analysis:
    """Check one buffer (`read` gives other open buffers' text); `previous`, the last analysis
    of the same buffer, lends its trees to completion and hover while this text is broken."""
    start = time.perf_counter()
    out = Analysis(path, text, deep=deep)
    if previous is not None:
        out.own, out.tree, out.base, out.base_path, out.source = (
            previous.own, previous.tree, previous.base, previous.base_path, previous.source)

    def reader(p: Path) -> str | None:
        if p == path:
            return text
        return read(p) if read is not None else None

    try:
        _run(out, reader, deep)
    finally:
        out.seconds = time.perf_counter() - start
    return out


def _run(out: Analysis, reader: Reader, deep: bool) -> None:
    path = out.path
    try:
        own = load_yaml(out.text, str(path))
    except SpecError as err:
        out.findings = [Finding(d, _code(d, "yaml")) for d in err.diagnostics]
        spec = _SPEC.search(out.text)
        if spec:                    # a case file: its spec's deck
            _case_spec(out, spec.group(1).strip("\"'"), reader)
        elif out.base is None:      # a buffer broken from its opening still completes from its base
            m = _EXTENDS.search(out.text)
            _load_base(out, m.group(1).strip("\"'") if m else None, reader)
        return
    out.own = own
    if not isinstance(own.data, dict):
        out.findings = [Finding(Diagnostic("error", own.loc(()), "$", "a spec must be a YAML mapping"), "schema")]
        return
    if is_case_file(own.data):
        _run_cases(out, own, reader)
        return
    _load_base(out, own.data.get("extends"), reader)
    try:
        tree = load_tree(path, read=reader)
    except SpecError as err:
        out.findings = [Finding(d, _code(d, "yaml")) for d in err.diagnostics]
        return
    out.tree = tree
    options, found = validate(tree, str(path))
    if found:                           # every mistake loading tells, at once
        out.findings = [Finding(d, _code(d, step)) for step, d in found]
        return
    out.source = SpecSource(path, tree, options)
    report = diagnose_source(out.source, Report(str(path)), exhaustive=deep, play=deep, base=out.base)
    if report.unusable:
        out.findings = [Finding(Diagnostic("error", tree.loc(()), "$", report.unusable), "load")]
        return
    out.findings = [Finding(f.diagnostic, STAGE_CODES[f.stage]) for f in report.findings]


def is_case_file(data: dict[str, Any]) -> bool:
    """A conformance case file: it names its `spec:` (no spec has that key), so a file begun
    with it completes as a case file before its `cases:` are written."""
    return "spec" in data


_WHERE = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::(?P<col>\d+))?$")


def _run_cases(out: Analysis, own: Located, reader: Reader) -> None:
    """A case file: the spec it names (for its deck, calls and verbs), and what `truco replay`
    says of the buffer: an invalid file where it is invalid, a failed case at its step."""
    from interpreter.designer.replay import InvalidCase, run_file
    _case_spec(out, own.data.get("spec"), reader)
    try:
        results = run_file(out.path, out.text)
    except InvalidCase as err:
        m = _WHERE.match(err.where)
        loc = (Loc(m["file"], int(m["line"]), int(m["col"] or 0) or _first_col(out.text, int(m["line"])))
               if m else own.loc(()))
        out.findings = [Finding(Diagnostic("error", loc, "$", err.message), "replay")]
        return
    except ENGINE_ERRORS as err:            # the spec cannot be played: no case can run
        out.findings = [Finding(Diagnostic("error", own.loc(("spec",)), "$.spec", f"the spec cannot be played: {err}"),
                                "replay")]
        return
    for i, r in enumerate(results):
        if not r.passed:
            where = ("cases", i, "actions", r.step - 1) if r.step else ("cases", i)
            out.findings.append(Finding(Diagnostic(
                "error", own.loc(where), "$", f"case '{r.name}' fails at step {r.step}: {r.message}"), "replay"))


def _case_spec(out: Analysis, name: Any, reader: Reader) -> None:
    out.case = True
    out.base = out.base_path = None
    try:
        spec_path = find_spec(str(name), relative_to=out.path.parent)
        tree = load_tree(spec_path, read=reader)
        options, found = validate(tree, str(spec_path))
        if found:                           # options are read from a valid spec only
            return
        out.tree, out.source = tree, SpecSource(spec_path, tree, options)
    except (SpecNotFound, SpecError):       # replay says what is wrong with `spec:`
        pass


def _first_col(text: str, line: int) -> int:
    lines = text.split("\n")
    body = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(body) - len(body.lstrip(" -")) + 1


ENGINE_ERRORS = (TrucoError, ArithmeticError, LookupError, TypeError, ValueError)
"""What compiling or playing a spec the checker would reject may raise (as in check.py)."""

_SPEC = re.compile(r"^spec:\s*([^\s#]+)", re.MULTILINE)
_EXTENDS = re.compile(r"^extends:\s*([^\s#]+)", re.MULTILINE)


def _load_base(out: Analysis, name: Any, reader: Reader) -> None:
    out.base = out.base_path = None
    if isinstance(name, str):
        try:
            out.base_path = find_spec(name, relative_to=out.path.parent)
            out.base = load_tree(out.base_path, read=reader)
        except (SpecNotFound, SpecError):
            pass


# -- positions ------------------------------------------------------------------------------

WORD = re.compile(r"[A-Za-z0-9_]+")


def word_end(line: str, col: int) -> int:
    """The 0-based end of the word, quoted text or key starting at 0-based `col`."""
    m = WORD.match(line, col)
    if m:
        return m.end()
    if col < len(line) and line[col] in "\"'":
        close = line.find(line[col], col + 1)
        if close > col:
            return close + 1
    return min(len(line), col + 1) if col < len(line) else col


def word_at(line: str, char: int) -> tuple[str, int, int] | None:
    """The identifier under a 0-based column (or just before it), with its span."""
    for m in WORD.finditer(line):
        if m.start() <= char <= m.end():
            return m.group(), m.start(), m.end()
    return None


def value_at(data: Any, path: tuple) -> Any:
    for part in path:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data
