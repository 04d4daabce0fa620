"""The `truco` command: play, replay, check, specs, schema, and the extensions below."""
from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import os
import platform
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from rulespec.errors import OptionError, SpecError, SpecNotFound, TrucoError

from interpreter.bots import build as bots_build
from interpreter.designer import build as walk_build
from interpreter.engine import build as engine_build
from interpreter.engine.game import parse_options

INTERRUPTED = 130              # the exit status of a command left with Ctrl-C (128 + SIGINT)

# Modules that add their own subcommands: each has `add_parser(subparsers)` which registers
# a parser whose `run(args, console) -> int` default does the work.
EXTENSIONS: tuple[str, ...] = (
    "interpreter.server.command",
    "interpreter.measure.bench",
    "interpreter.measure.simulate",
    "interpreter.measure.analyze",
    "interpreter.measure.balance",
    "interpreter.designer.rulebook",
    "interpreter.designer.diff",
    "interpreter.designer.evaluate",
    "interpreter.designer.lsp",
)


def _bot_name(name: str) -> str:
    """A name `interpreter.bots.BOTS` knows, with its parameter if any (`ismcts:400`)."""
    from interpreter.bots import BOTS
    if name not in BOTS:
        raise argparse.ArgumentTypeError(f"no bot named {name!r}; bots: {', '.join(BOTS)} (ismcts:N for a budget)")
    return name


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from interpreter.bots import BOTS
    from interpreter.engine.game import load_game
    from interpreter.terminal.transcript import play_match
    from interpreter.terminal.tui import TerminalBoard
    options = parse_options(args.option)
    if args.players is not None:
        options["players"] = str(args.players)
    game = load_game(args.spec, options)
    recorder: list = []

    def watch(state) -> None:
        from interpreter.designer.recording import Recorder
        if not recorder:
            recorder.append(Recorder(state))
        recorder[0].update()

    def record() -> None:
        if args.record and recorder:
            spec = args.spec
            if Path(spec).suffix in (".yaml", ".yml"):
                spec = os.path.relpath(Path(spec).resolve(), Path(args.record).resolve().parent)
            recorder[0].write(args.record, spec, f"a match of {game.spec.title} played with seed {args.seed}")
            console.print(f"recorded to {escape(args.record)}; replay it with: truco replay {escape(args.record)}",
                          highlight=False)

    if args.human is None:
        play_match(game, seed=args.seed, console=console, max_hands=args.hands, bot=args.bots, watch=watch)
        record()
        return 0
    if not 0 <= args.human < game.num_players:
        console.print(f"[bold red]error[/] there is no seat {args.human}: seats run 0..{game.num_players - 1}",
                      highlight=False)
        return 2
    bots = [None if s == args.human else BOTS[args.bots](None if args.seed is None else args.seed * 1000 + s)
            for s in range(game.num_players)]
    board = TerminalBoard(game, args.human, bots, console, seed=args.seed, verbose=args.verbose)
    board.play(max_hands=args.hands, watch=watch)
    record()
    return INTERRUPTED if board.interrupted else 0


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    from interpreter.designer.replay import replay
    report = replay(args.paths)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
        return report.exit_code
    for err in report.invalid:
        console.print(f"[bold red]INVALID[/] {escape(err.where)}: {escape(err.message)}", highlight=False)
    for case in report.cases:
        if case.passed:
            if not args.quiet:
                console.print(f"[green]pass[/] {escape(case.file)} :: {escape(case.name)}", highlight=False)
        else:
            console.print(f"[bold red]FAIL[/] {escape(case.file)} :: {escape(case.name)}: "
                          f"step {case.step}: {escape(str(case.message))}", highlight=False)
    tail = f", {len(report.invalid)} invalid files" if report.invalid else ""
    console.print(f"{report.passed} passed, {report.failed} failed{tail}", highlight=False)
    return report.exit_code


def cmd_check(args: argparse.Namespace, console: Console) -> int:
    from interpreter.designer.check import check_specs, print_resolved
    if args.resolved:
        return print_resolved(args.specs)
    return check_specs(args.specs, console, as_json=args.json, report=args.report, cases=args.cases,
                       exhaustive=not args.no_explore, fixed=parse_options(args.option), jobs=args.jobs,
                       keep_going=args.keep_going, strength=args.strength)


def cmd_specs(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    from rulespec.load import bundled_names, open_spec, option_text
    table = Table("spec", "title", "options")
    for name in bundled_names():
        source = open_spec(name)
        opts = ", ".join(f"{o.name}={'|'.join(map(option_text, o.values))}" for o in source.options)
        table.add_row(name, str(source.tree.data.get("title", "")), opts)
    console.print(table)
    return 0


def cmd_schema(args: argparse.Namespace, console: Console) -> int:
    from rulespec.schema import SCHEMA, partial_schema
    print(json.dumps(partial_schema(SCHEMA) if args.partial else SCHEMA, indent=2, ensure_ascii=False))
    return 0


def positive_int(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return number


def available_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def version_line() -> str:
    """`truco --version`: the package's version, the engine, the checker's walk core and the bots
    that run, and the Python."""
    try:
        version = importlib.metadata.version("truco-rules")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown (not installed)"
    python = f"{sys.implementation.name} {platform.python_version()}"
    return (f"truco-rules {version}; engine: {engine_build()}; checker's walk: {walk_build()}; "
            f"bots: {bots_build()}; {python}")


class _Version(argparse.Action):
    """Prints `version_line()` on one line: argparse's own version action wraps it at the
    terminal's width, and scripts read the line whole."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(version_line())
        parser.exit()


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="truco", description="A rules-as-data interpreter for Truco.")
    ap.add_argument("--version", action=_Version,
                    help="print the version and which engine runs (compiled with mypyc, or pure Python)")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="print a bots' match, or sit at a seat (--human) and play against bots")
    p.add_argument("spec", help="a bundled spec name or a spec file")
    p.add_argument("--bots", type=_bot_name, default="random", metavar="BOT",
                   help="the bots that fill the seats: random, heuristic, ismcts (ismcts:N for N playouts "
                        "a decision; the transcript plays random bots)")
    p.add_argument("--human", type=int, default=None, metavar="SEAT",
                   help="sit at this seat and play interactively on the terminal board")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal and the bots (replayable)")
    p.add_argument("--players", type=int, default=None, help="shorthand for -o players=N")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.add_argument("--hands", type=positive_int, default=None, metavar="N", help="stop after N hands (1 or more)")
    p.add_argument("--record", metavar="FILE", default=None,
                   help="write the hands played as a replayable conformance case (truco replay FILE)")
    p.add_argument("--verbose", action="store_true",
                   help="with --human: a refused action also shows the rule's whole condition and its DSL text")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("replay", help="run conformance case files (format: docs/conformance.md)",
                       description="Run conformance case files against their specs. The case format "
                                   "is described in docs/conformance.md of the project.")
    p.add_argument("paths", nargs="+", help="case files, or folders searched for *.yaml")
    p.add_argument("--json", action="store_true", help="print a machine-readable report")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("check", help="find what is inconsistent or incomplete in specs, best first")
    p.add_argument("specs", nargs="+", help="spec names or files")
    p.add_argument("--json", action="store_true", help="print diagnostics as JSON")
    p.add_argument("--report", action="store_true",
                   help="also print the figures (combinations, states explored, time) and the interpretation choices")
    p.add_argument("--cases", metavar="DIR", default=None,
                   help="write each finding the engine reached as a replayable conformance case into DIR")
    p.add_argument("--no-explore", action="store_true", help="skip the exhaustive pass over one hand")
    p.add_argument("-k", "--keep-going", action="store_true",
                   help="walk every option combination even after a finding (by default the walks stop "
                        "at the first one, to be fixed first)")
    p.add_argument("--resolved", action="store_true",
                   help="print each spec as `extends` merged it, every node with the file:line it came from")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="check only under this value of a table option (repeatable)")
    p.add_argument("-j", "--jobs", type=positive_int, default=available_cores(), metavar="N",
                   help="processes that walk option combinations side by side (default: the cores "
                        "this process may use)")
    p.add_argument("--strength", type=positive_int, default=3, metavar="T",
                   help="walk every T option values together, every deal (a covering array of "
                        "strength T; default 3, every triple; 2 walks every pair, as before)")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("specs", help="list the bundled specs and their options")
    p.set_defaults(run=cmd_specs)

    p = sub.add_parser("schema", help="print the JSON Schema of the spec language")
    p.add_argument("--partial", action="store_true",
                   help="the schema of a spec that extends another (no key required, ~ allowed)")
    p.set_defaults(run=cmd_schema)

    for module in EXTENSIONS:
        importlib.import_module(module).add_parser(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # a located message stays on one line, whatever the width; `spec.yaml:100:3` is no emoji code
    console = Console(soft_wrap=True, emoji=False)
    try:
        return int(args.run(args, console))
    except SpecError as err:
        for d in err.diagnostics:
            console.print(f"[bold red]{d.severity}[/] {escape(str(d))}", highlight=False)
        return 2
    except (SpecNotFound, OptionError) as err:
        console.print(f"[bold red]error[/] {escape(str(err))}", highlight=False)
        return 2
    except TrucoError as err:
        console.print(f"[bold red]error[/] {escape(str(err))}", highlight=False)
        return 1
    except KeyboardInterrupt:
        console.print("\ninterrupted", highlight=False)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
