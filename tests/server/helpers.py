"""Shared helpers of the server tests: the stores they run on, an in-process client, seats, real
server processes, and leak scanning."""
from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from interpreter import State, load_game
from interpreter.server.settings import LOOPBACK_HOSTS, Limits, Settings

BACKENDS = ("sqlite", "postgresql")


def _stores() -> list[str]:
    """Both backends, or the one `TRUCO_TEST_STORE` names (a quicker run while working)."""
    chosen = os.environ.get("TRUCO_TEST_STORE")
    if chosen is None:
        return list(BACKENDS)
    if chosen not in BACKENDS:
        raise pytest.UsageError(f"TRUCO_TEST_STORE is {chosen!r}: one of {', '.join(BACKENDS)}, or unset for both")
    return [chosen]


# The params of every server or store fixture, here and in the test modules.
STORES = _stores()


@contextmanager
def fresh_store(request: pytest.FixtureRequest, backend: str, sqlite: str) -> Iterator[str]:
    """A new, empty store for `--db`: `sqlite` as given, or a database on the session's cluster,
    dropped afterwards (whatever is still connected to it)."""
    if backend == "sqlite":
        yield sqlite
        return
    cluster = request.getfixturevalue("postgres")
    url = cluster.new_database()
    try:
        yield url
    finally:
        cluster.drop(url)


# The test client's Host is `testserver`; tests choose seeds; thousands of requests a second.
TEST_SETTINGS = Settings(hosts=LOOPBACK_HOSTS + ("testserver",), client_seeds=True,
                         limits=Limits(requests_burst=1e9, creations_burst=1e9))


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def claim_all(client: Any, made: dict[str, Any]) -> dict[str, Any]:
    """Claim every invitation of a created match; its answer with `tokens` (seat → token) added."""
    tokens = {}
    for seat, invitation in made["invitations"].items():
        r = client.post(f"/api/matches/{made['match']}/claim", json={"code": invitation["code"]})
        assert r.status_code == 201, r.text
        assert r.json()["seat"] == int(seat)
        tokens[seat] = r.json()["token"]
    return {**made, "tokens": tokens}


def create(client: TestClient, spec: str = "teg", options: dict | None = None, seed: int = 7,
           bots: dict | None = None) -> dict[str, Any]:
    """A match with a chosen seed, every human seat claimed."""
    r = client.post("/api/matches", json={"spec": spec, "options": options or {}, "seed": seed, "bots": bots or {}})
    assert r.status_code == 201, r.text
    return claim_all(client, r.json())


def replay_log(log: dict[str, Any]) -> State:
    """A match replayed in the engine from its replay log: the same seed and actions, each next
    hand dealt as the log's match dealt it."""
    st = load_game(log["spec"], log["options"]).new_match(seed=int(log["seed"]))
    for step in log["actions"]:
        if st.hand_over:
            st.next_hand()
        st.apply(step["action"], step["seat"])
    return st


def strings(node: Any) -> Iterator[str]:
    """Every word of every string anywhere in a JSON value, keys included."""
    if isinstance(node, str):
        yield from re.split(r"[\s'\",;:()\[\]{}]+", node)
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


class Knowledge:
    """Which cards each seat may have seen after each version of a match, from its full log.

    A seat may know its own dealt cards, the turned cards, the cards played face up and the
    cards a count shows the table; nothing else, at any moment, through any response.
    """

    def __init__(self, log: dict[str, Any]) -> None:
        game = load_game(log["spec"], log["options"])
        self.cards = set(game.cards.ids)
        st = game.new_match(seed=int(log["seed"]))
        self.allowed: list[list[set[str]]] = []          # [version][seat] → cards it may know
        known = [set() for _ in range(game.num_players)]
        public: set[str] = set()
        seen_events = 0

        def absorb() -> None:
            nonlocal seen_events
            for e in st.events[seen_events:]:
                if e["type"] == "hand":
                    known[e["seat"]] |= set(e["cards"])
                elif e["type"] == "deal" and e["turned"]:
                    public.add(e["turned"])
                elif e["type"] == "action" and e["action"].startswith("play ") and "@" not in e["action"]:
                    public.add(e["action"].split()[1])
                elif e["type"] == "revealed":               # shown to the table, as the spec's count.show says
                    public.update(e["cards"])
            seen_events = len(st.events)
            self.allowed.append([known[s] | public for s in range(game.num_players)])

        def played_by_position() -> None:
            for trick in st.history + [st.trick]:
                for _seat, card, covered in trick:
                    if not covered:
                        public.add(game.cards.ids[card])

        absorb()
        for step in log["actions"]:
            st.apply(step["action"], step["seat"])
            played_by_position()
            if st.hand_over and not st.match_over:
                st.next_hand()
            absorb()

    def leaks(self, seat: int, version: int, payload: Any, sent: str = "") -> set[str]:
        """Cards in `payload` that `seat` may not know at `version` (ignoring what it sent itself,
        and the game's public description, which lists the whole deck)."""
        if isinstance(payload, dict):
            payload = {k: v for k, v in payload.items() if k != "game"}
        words = set(strings(payload)) - set(sent.split())
        return (words & self.cards) - self.allowed[version][seat]


def random_client_action(client: TestClient, match: str, token: str, rng: random.Random) -> str | None:
    legal = client.get(f"/api/matches/{match}/legal", headers=auth(token)).json()["legal"]
    return rng.choice(legal) if legal else None


# A real server for playing tests: seeds chosen by the tests, no rate limit on requests.
PLAYFUL = ("--client-seeds", "--limit", "requests_burst=1e9", "--limit", "creations_burst=1e9")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listens(pid: int, port: int) -> bool | None:
    """Whether process `pid` holds the socket listening on `port` (Linux's /proc; None elsewhere),
    so that a server found on the port is known to be this one and not another that took it."""
    try:
        inodes = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as f:
                for line in list(f)[1:]:
                    fields = line.split()
                    if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:   # 0A: LISTEN
                        inodes.add(f"socket:[{fields[9]}]")
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return None
    for fd in fds:
        try:
            if os.readlink(fd) in inodes:
                return True
        except OSError:                                 # closed meanwhile
            continue
    return False


class Server:
    """`truco serve` in a child process, on loopback, with these command-line flags.

    `start` returns once this child answers on its port, however slow the machine, and fails
    at once if it exits; a child that could not bind its port (another process took it) is
    started again on a fresh one, so read `url` after `start`. Its stderr goes to a file: a
    pipe nobody reads could fill and stall it."""

    STARTS = 3

    def __init__(self, db: Path | str, *flags: str) -> None:
        self.db = db
        self.flags = flags
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = ""                                   # what the last process wrote to stderr
        self._stderr = tempfile.TemporaryFile()

    def start(self) -> None:
        for _ in range(self.STARTS):
            self._stderr.seek(0)
            self._stderr.truncate()
            self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--db", str(self.db),
                                          "--port", str(self.port), *self.flags],
                                         stdout=subprocess.DEVNULL, stderr=self._stderr)
            if self._ready():
                return
            self.log = self._read_log()
            if "address already in use" not in self.log.lower():
                raise AssertionError(f"the server did not start:\n{self.log}")
            self.port = _free_port()
            self.url = f"http://127.0.0.1:{self.port}"
        raise AssertionError(f"the server found no free port in {self.STARTS} starts:\n{self.log}")

    def _ready(self) -> bool:
        """Wait until the child answers on its port (True) or exits (False). The limit is
        generous: on a loaded machine starting Python and loading the specs takes long."""
        assert self.proc is not None
        deadline = time.monotonic() + 300
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"the server did not answer in 300 s:\n{self.log}")
            if _listens(self.proc.pid, self.port) is not False:
                try:
                    if httpx2.get(f"{self.url}/api/specs", timeout=30).status_code == 200 and \
                            self.proc.poll() is None and _listens(self.proc.pid, self.port) is not False:
                        return True
                except httpx2.HTTPError:
                    pass
            time.sleep(0.05)
        return False

    def _read_log(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        self.log = self._read_log()
