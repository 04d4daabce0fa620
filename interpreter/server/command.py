"""`truco serve`: run the match server and the web board on this machine."""
from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape

SERVE_EXTRA = "pip install 'truco-rules[serve]'"


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="serve matches over HTTP/WebSocket, and the web board")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--db", default="matches.sqlite3",
                   help="SQLite file keeping every match (':memory:' keeps nothing)")
    p.add_argument("--spec", action="append", default=[], metavar="PATH", help="offer this spec file too")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    try:
        import uvicorn

        from interpreter.server.app import create_app
    except ImportError as err:
        console.print(f"[bold red]error[/] the server needs its extra: {escape(SERVE_EXTRA)} ({escape(str(err))})",
                      highlight=False)
        return 2
    app = create_app(args.db, args.spec)
    console.print(f"board at http://{args.host}:{args.port}/ · API at /api/ (see /api/openapi.json) · "
                  f"matches kept in {args.db}", highlight=False)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0
