"""`truco serve`: run the match server and the web board on this machine."""
from __future__ import annotations

import argparse
import socket
from typing import Any

from rich.console import Console
from rich.markup import escape

SERVE_EXTRA = "pip install 'truco-rules[serve]'"
WS_FRAME_CEILING = 16          # × ws_max_message: the largest WebSocket message the protocol reads
DEFAULT_PORT = 8000
BACKLOG = 2048                 # connections the system queues before the server accepts them


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="serve matches over HTTP/WebSocket, and the web board")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: %(default)s, loopback only)")
    p.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                   help="port to listen on, 1-65535, or 0 for any free one (default: %(default)s)")
    p.add_argument("--db", default="matches.sqlite3",
                   help="where every match is kept: a SQLite file (a path or sqlite:///PATH; ':memory:' keeps "
                        "nothing), or postgresql://USER@HOST/DB shared by several server processes "
                        "(needs truco-rules[postgres])")
    p.add_argument("--spec", action="append", default=[], metavar="PATH", help="offer this spec file too")
    p.add_argument("--allow-host", action="append", default=[], metavar="HOST",
                   help="answer requests whose Host is HOST (a name, name:port, or *); default: loopback names")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="take event streams from pages of ORIGIN (e.g. https://cards.example) besides this server's")
    p.add_argument("--client-seeds", action="store_true",
                   help="let clients choose a match's seed (tests, replays); by default the server chooses")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                   help="change one limit (see docs/api.md): " + ", ".join(_limit_names()))
    p.set_defaults(run=run)


def port_number(text: str) -> int:
    """A TCP port as --port takes it: 0 (any free port, printed once bound) to 65535."""
    number = int(text) if text.isascii() and text.isdigit() else -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535 (or 0 for any free one), "
                                         f"not {text!r}")
    return number


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` and listening; OSError says why it cannot be."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def address(sock: socket.socket) -> str:
    """The board's address on a bound socket, its port the one the system gave."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if sock.family == socket.AF_INET6 else f"http://{host}:{port}/"


def _limit_names() -> list[str]:
    from interpreter.server.settings import Limits
    return Limits.names()


def _shown(db: str) -> str:
    """The store's name without a password."""
    from urllib.parse import urlsplit
    if "://" not in db:
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()


def _specs_check(paths: list[str], console: Console) -> bool:
    """Each spec file offered passes the checker short of its exhaustive walk, or the server does
    not start: a spec that does not check would otherwise fail on its first match, as a 500."""
    from interpreter.designer.check import diagnose, error_lines
    ok = True
    for path in paths:
        errors = error_lines(diagnose(path, exhaustive=False))
        for line in errors:
            console.print(f"[bold red]error[/] {escape(line)}", soft_wrap=True, highlight=False)
        if errors:
            console.print(f"not serving {escape(path)}: {len(errors)} error{'s' if len(errors) > 1 else ''} "
                          f"(`truco check {escape(path)}` says more)", soft_wrap=True, highlight=False)
            ok = False
    return ok


def run(args: argparse.Namespace, console: Console) -> int:
    try:
        import uvicorn

        from interpreter.server.app import create_app
        from interpreter.server.settings import LOOPBACK_HOSTS, Limits, Settings
    except ImportError as err:
        console.print(f"[bold red]error[/] the server needs its extra: {escape(SERVE_EXTRA)} ({escape(str(err))})",
                      highlight=False)
        return 2
    try:
        limits = Limits().with_text(args.limit)
    except ValueError as err:
        console.print(f"[bold red]error[/] {escape(str(err))}", highlight=False)
        return 2
    settings = Settings(hosts=LOOPBACK_HOSTS + tuple(args.allow_host), origins=tuple(args.allow_origin),
                        client_seeds=args.client_seeds, limits=limits)
    if not _specs_check(args.spec, console):
        return 2
    try:
        app = create_app(args.db, args.spec, settings)
    except Exception as err:                        # psycopg missing, the database unreachable, a bad URL
        console.print(f"[bold red]error[/] cannot open the store {escape(_shown(args.db))}: {escape(str(err))}",
                      highlight=False)
        return 2
    try:
        sock = listen(args.host, args.port)
    except OSError as err:                          # the port taken or privileged, a host not of this machine
        why = (err.strerror or str(err)).lower()
        console.print(f"[bold red]error[/] cannot listen on {escape(args.host)} port {args.port}: {escape(why)}",
                      highlight=False)
        return 2
    # The address is printed once the socket is bound, with the port it was given.
    console.print(f"board at {address(sock)} · API at /api/ (see /api/openapi.json) · "
                  f"matches kept in {escape(_shown(args.db))} · answering Host {', '.join(settings.hosts)}",
                  highlight=False)
    # The protocol cuts off frames far past the limit (close 1009); up to there the stream
    # answers a long message with its own close, 4413 too_large.
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", access_log=False,
                            ws_max_size=limits.ws_max_message * WS_FRAME_CEILING)
    with sock:
        uvicorn.Server(config).run(sockets=[sock])
    return 0
