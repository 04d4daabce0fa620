"""Shared helpers of the server tests: an in-process client, seats, and leak scanning."""
from __future__ import annotations

import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
from starlette.testclient import TestClient

from interpreter import State, load_game
from interpreter.server.settings import LOOPBACK_HOSTS, Limits, Settings

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
    st = load_game(log["spec"], log["options"]).new_match(seed=log["seed"])
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

    A seat may know its own dealt cards, the turned cards, and the cards played face up;
    nothing else, at any moment, through any response.
    """

    def __init__(self, log: dict[str, Any]) -> None:
        game = load_game(log["spec"], log["options"])
        self.cards = set(game.cards.ids)
        st = game.new_match(seed=log["seed"])
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


class Server:
    """`truco serve` in a child process, on loopback, with these command-line flags."""

    def __init__(self, db: Path, *flags: str) -> None:
        self.db = db
        self.flags = flags
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = ""                                   # what the last process wrote to stderr

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--db", str(self.db),
                                      "--port", str(self.port), *self.flags],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx2.get(f"{self.url}/api/specs", timeout=1).status_code == 200:
                    return
            except httpx2.HTTPError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.proc.stderr.read() if self.proc.poll() else ''}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.log = self.proc.stderr.read().decode("utf-8", "replace")
        self.proc.stderr.close()
