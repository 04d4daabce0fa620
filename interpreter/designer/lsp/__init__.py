"""The designer's editor: a language server for specs (`truco lsp`).

analysis.py checks a buffer from its unsaved text, context.py reads where the cursor is,
features.py answers completion, hover, definition, references and code actions (refs.py
finds where the spec's structure uses a name, cases.py completes a conformance case file),
server.py speaks LSP (pygls, the `lsp` extra) over stdio.
"""
from __future__ import annotations

import argparse

from rich.console import Console


def run(args: argparse.Namespace, console: Console) -> int:
    try:
        from interpreter.designer.lsp.server import server
    except ImportError as err:      # pygls is an optional dependency
        console.print(f"[bold red]error[/] truco lsp needs pygls: pip install 'truco-rules[lsp]' ({err})",
                      highlight=False)
        return 2
    server.start_io()
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("lsp", help="a language server for specs (LSP over stdio), for editors")
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only transport)")
    p.set_defaults(run=run)
