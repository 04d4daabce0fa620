"""Load test: N concurrent matches of client-side random bots against one `truco serve`.

Every seat of every match is a human seat, claimed with its invitation and driven over
loopback HTTP by a random bot in this process; each bot reads its legal actions, picks one,
and submits it. Each match has its own
keep-alive connection, spoken with a minimal HTTP/1.1 client so that the figures measure the
server rather than a client library. At the end every
match's replay log is fetched and compared with the actions the server answered: an answered
action missing from the log is a lost action. Prints actions/s, requests/s, the p50 and p99
latency of submitting an action, errors and lost actions (and `--json` a machine-readable
report); exits 1 on any error or lost action.

    python tools/load.py --matches 50                 # starts its own server on a free port
    python tools/load.py --matches 50 --url http://127.0.0.1:8000
    python tools/load.py --matches 200 --servers 4 --db temp-postgres   # 4 processes, one PostgreSQL
    python tools/load.py --matches 60 --servers 2 --db temp-postgres --tcp  # ... reached over TCP

With several servers (`--servers N` started here, or `--url` given N times) every request of
a match goes to the next server in turn, as a load balancer without sticky sessions would
send it; `--db` is the servers' store (a SQLite path, a postgresql:// URL, or `temp-postgres`
for a throwaway cluster started and stopped by this script, tests/server/postgres.py). The
servers reach that cluster through its Unix socket, or with `--tcp` through a loopback port
(127.0.0.1): the same database, but each statement crosses the TCP stack. A cluster of one's
own is reached over TCP by naming its host and port, `postgresql://user@127.0.0.1:5432/db`.

A server of its own is started with `--client-seeds` and its request and creation rates
unbounded (one client plays every match); a server named by `--url` needs the same.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.error import URLError
from urllib.parse import urlsplit
from urllib.request import urlopen


class Pool:
    """One keep-alive connection per server; each request goes to the next server in turn."""

    def __init__(self, servers: list[tuple[str, int]], start: int, sticky: bool = False) -> None:
        if sticky:                                  # every request of the match to one server
            servers = [servers[start % len(servers)]]
        self.connections = [Connection(host, port) for host, port in servers]
        self.turn = start

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        self.turn += 1
        return await self.connections[self.turn % len(self.connections)].request(method, path, body, token)

    def close(self) -> None:
        for c in self.connections:
            c.close()


class Connection:
    """One keep-alive HTTP/1.1 connection: JSON requests in, (status, JSON) out."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    IDLE = 4.0          # the server closes a keep-alive connection idle 5 s: open a new one before

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        if self.writer is not None and time.monotonic() - self.used > self.IDLE:
            self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n" \
               f"Content-Length: {len(data)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        line = await self.reader.readline()
        if not line:
            self.close()
            raise ConnectionError("the server closed the connection")
        status = int(line.split()[1])
        length = 0
        while (line := await self.reader.readline()) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        data = json.loads(await self.reader.readexactly(length))
        self.used = time.monotonic()
        return status, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


@dataclass
class Tally:
    """What the bots did, and what went wrong."""

    actions: int = 0
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    latencies: list[float] = field(default_factory=list)          # seconds per submitted action
    answered: dict[str, list[tuple[int, int, str]]] = field(default_factory=dict)   # match → (at, seat, action)


async def _call(http: Pool, tally: Tally, method: str, url: str, body: Any = None,
                token: str | None = None) -> dict[str, Any] | None:
    tally.requests += 1
    try:
        status, data = await http.request(method, url, body, token)
    except (OSError, ValueError, asyncio.IncompleteReadError) as err:
        tally.errors.append(f"{method} {url}: {err!r}")
        return None
    if status >= 400:
        tally.errors.append(f"{method} {url}: {status} {json.dumps(data)[:200]}")
        return None
    return data


async def play_match(servers: list[tuple[str, int]], tally: Tally, spec: str, options: dict[str, Any], seed: int,
                     max_actions: int, sticky: bool = False) -> None:
    """One match on its own connections."""
    http = Pool(servers, seed, sticky)
    try:
        await _play(http, tally, spec, options, seed, max_actions)
    finally:
        http.close()


async def _play(http: Pool, tally: Tally, spec: str, options: dict[str, Any], seed: int,
                max_actions: int) -> None:
    """Every seat a random bot, until the match ends; then check the match's log."""
    made = await _call(http, tally, "POST", "/api/matches", {"spec": spec, "options": options, "seed": seed})
    if made is None:
        return
    match = made["match"]
    tokens: dict[int, str] = {}
    for s, invitation in made["invitations"].items():
        claimed = await _call(http, tally, "POST", f"/api/matches/{match}/claim", {"code": invitation["code"]})
        if claimed is None:
            return
        tokens[int(s)] = claimed["token"]
    answered = tally.answered.setdefault(match, [])
    rng = random.Random(seed)
    seat = min(tokens)
    legal = await _call(http, tally, "GET", f"/api/matches/{match}/legal", token=tokens[seat])
    while legal is not None and len(answered) < max_actions:
        if legal["to_act"] is None:
            break
        if legal["to_act"] != seat:
            seat = legal["to_act"]
            legal = await _call(http, tally, "GET", f"/api/matches/{match}/legal", token=tokens[seat])
            continue
        action = rng.choice(legal["legal"])
        sent = time.perf_counter()
        done = await _call(http, tally, "POST", f"/api/matches/{match}/actions",
                           {"action": action, "version": legal["version"]}, tokens[seat])
        tally.latencies.append(time.perf_counter() - sent)
        if done is None:
            return
        answered.append((legal["version"], seat, action))
        tally.actions += 1
        obs = done["observation"]
        legal = {"to_act": obs["to_act"], "legal": obs["legal"], "version": done["version"]}
    log = await _call(http, tally, "GET", f"/api/matches/{match}/log", token=tokens[min(tokens)])
    if log is None:
        return
    logged = log["actions"]
    for at, s, action in answered:
        if at >= len(logged) or logged[at] != {"seat": s, "action": action}:
            tally.lost += 1
    if len(logged) != len(answered):
        tally.errors.append(f"match {match}: the log holds {len(logged)} actions, {len(answered)} were answered")


async def run_load(urls: list[str], matches: int, spec: str, options: dict[str, Any],
                   max_actions: int, sticky: bool = False) -> dict[str, Any]:
    tally = Tally()
    servers = [(where.hostname or "127.0.0.1", where.port or 80) for where in map(urlsplit, urls)]
    start = time.perf_counter()
    await asyncio.gather(*(play_match(servers, tally, spec, options, seed, max_actions, sticky)
                           for seed in range(matches)))
    elapsed = time.perf_counter() - start
    times = sorted(tally.latencies) or [0.0]
    return {"matches": matches, "servers": len(urls), "sticky": sticky, "spec": spec, "options": options,
            "seconds": round(elapsed, 2),
            "actions": tally.actions, "requests": tally.requests,
            "actions_per_second": round(tally.actions / elapsed, 1),
            "requests_per_second": round(tally.requests / elapsed, 1),
            "p50_ms": round(1000 * times[len(times) // 2], 1),
            "p99_ms": round(1000 * times[min(len(times) - 1, len(times) * 99 // 100)], 1),
            "errors": len(tally.errors), "lost_actions": tally.lost, "first_errors": tally.errors[:5]}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path | str) -> tuple[subprocess.Popen, str]:
    """`truco serve` on a free loopback port, waited for until it answers."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--db", str(db), "--port", str(port),
                             "--client-seeds", "--limit", "requests_burst=1e9", "--limit", "creations_burst=1e9",
                             "--limit", "claims_burst=1e9"], stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urlopen(f"{url}/api/specs", timeout=1):
                return proc, url
        except (URLError, OSError):
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def _statements(db: str, reset: bool = False) -> int:
    """The statements the servers sent to the database `db` since the last reset, counted by
    PostgreSQL's pg_stat_statements (BEGIN and COMMIT included; this query's own not)."""
    import psycopg
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        if reset:
            conn.execute("SELECT pg_stat_statements_reset()")
            return 0
        row = conn.execute("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                           "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                           "AND query NOT LIKE '%pg_stat_statements%'").fetchone()
        return int(row[0]) if row else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=50, help="concurrent matches")
    ap.add_argument("--spec", default="teg")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--url", action="append", default=[],
                    help="a running server, or several (default: start --servers of them on --db)")
    ap.add_argument("--servers", type=int, default=1, help="server processes to start")
    ap.add_argument("--sticky", action="store_true",
                    help="send every request of a match to one server (default: each to the next server)")
    ap.add_argument("--db", default=None,
                    help="their store: a path, a postgresql:// URL, or temp-postgres "
                         "(default: a temporary SQLite file)")
    ap.add_argument("--tcp", action="store_true",
                    help="with --db temp-postgres: reach the cluster on 127.0.0.1 over TCP, not its Unix socket")
    ap.add_argument("--max-actions", type=int, default=10_000, help="stop a match after this many actions")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    if args.tcp and args.db != "temp-postgres":
        ap.error("--tcp goes with --db temp-postgres (a database of one's own is named by its URL)")
    options = dict(pair.split("=", 1) for pair in args.option)
    procs: list[subprocess.Popen] = []
    cluster = None
    with tempfile.TemporaryDirectory() as tmp:
        urls = list(args.url)
        try:
            if not urls:
                db: Path | str = args.db or Path(tmp) / "load.sqlite3"
                if db == "temp-postgres":
                    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
                    from tests.server.postgres import Cluster
                    cluster = Cluster(tcp=args.tcp)
                    cluster.start("shared_preload_libraries=pg_stat_statements")
                    db = cluster.new_database()
                for _ in range(args.servers):
                    proc, url = start_server(db)
                    procs.append(proc)
                    urls.append(url)
            if cluster is not None:
                _statements(str(db), reset=True)
            report = asyncio.run(run_load(urls, args.matches, args.spec, options, args.max_actions, args.sticky))
            if cluster is not None:
                report["statements"] = _statements(str(db))
                report["statements_per_action"] = round(report["statements"] / max(1, report["actions"]), 2)
            report["store"] = "as given" if args.url else \
                ("postgresql" if str(db).startswith("postgres") else "sqlite")
            if cluster is not None:
                report["store"] += " over TCP on loopback" if args.tcp else " on its Unix socket"
        finally:
            for proc in procs:
                proc.terminate()
                proc.wait(timeout=10)
            if cluster is not None:
                cluster.stop()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{report['servers']} server(s) on {report['store']}: {report['matches']} concurrent matches of "
              f"{report['spec']} {report['options']}: "
              f"{report['actions']} actions in {report['seconds']} s = {report['actions_per_second']} actions/s "
              f"({report['requests_per_second']} requests/s), action latency p50 {report['p50_ms']} ms, "
              f"p99 {report['p99_ms']} ms; errors {report['errors']}, "
              f"lost actions {report['lost_actions']}"
              + (f"; {report['statements_per_action']} database statements per action" if "statements" in report
                 else ""))
        for line in report["first_errors"]:
            print("  ", line)
    return 1 if report["errors"] or report["lost_actions"] else 0


if __name__ == "__main__":
    sys.exit(main())
