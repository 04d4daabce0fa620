"""`truco check`: load every spec under every option combination and report what fails."""
from __future__ import annotations

import json

from rich.console import Console

from rulespec.errors import Diagnostic, SpecError, SpecNotFound, TrucoError
from rulespec.load import open_spec

from interpreter.game import Game

MAX_COMBINATIONS = 512


def diagnose(name: str) -> list[Diagnostic]:
    """Every diagnostic for one spec: schema and DSL errors, then compile errors per option set."""
    try:
        source = open_spec(name)
    except SpecError as err:
        return err.diagnostics
    found: dict[str, Diagnostic] = {}
    for i, options in enumerate(source.combinations()):
        if i >= MAX_COMBINATIONS:
            break
        try:
            Game(source.build(options))
        except SpecError as err:
            for d in err.diagnostics:
                found.setdefault(str(d), d)
    return list(found.values())


def check_specs(names: list[str], console: Console, as_json: bool = False) -> int:
    report: dict[str, list[dict[str, object]]] = {}
    unusable = False
    for name in names:
        try:
            diags = diagnose(name)
        except SpecNotFound as err:
            unusable = True
            report[name] = [{"severity": "error", "message": str(err)}]
            continue
        except TrucoError as err:
            diags = [Diagnostic("error", None, "$", str(err))]
        report[name] = [{"severity": d.severity, "file": d.loc.file if d.loc else None,
                         "line": d.loc.line if d.loc else None, "col": d.loc.col if d.loc else None,
                         "path": d.path, "message": d.message, "source": d.source} for d in diags]
        if not as_json:
            for d in diags:
                style = "bold red" if d.severity == "error" else "yellow"
                console.print(f"[{style}]{d.severity}[/] {d}", highlight=False)
            if not diags:
                console.print(f"[green]ok[/] {name}", highlight=False)
    if as_json:
        print(json.dumps(report, indent=2))
    if unusable:
        return 2
    return 1 if any(report.values()) else 0
