"""Persistence: every match's creation and action log is in the store (SQLite or PostgreSQL);
a server started again on the same store resumes every match exactly where it was (replayed
from seed and log), and a server killed at any moment loses no action it had answered."""
from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from tests.server.helpers import PLAYFUL, TEST_SETTINGS, Server, auth, claim_all, replay_log

from interpreter import load_game
from interpreter.server.app import create_app

SLOW = 120          # seconds a live server may take to answer on a loaded machine (a dead one fails at once)
MATCHES = [("teg", {"players": 2, "target": 15}, {}), ("paulista", {}, {"1": "heuristic", "3": "random"}),
           ("board", {"players": 4, "target": 15}, {"2": "heuristic"}), ("uruguayo", {"target": 20}, {})]


def test_a_new_app_on_the_same_store_resumes_every_match(store_url) -> None:
    db = store_url
    views: dict[tuple[str, str], Any] = {}
    made_all = []
    with TestClient(create_app(db, settings=TEST_SETTINGS)) as client:
        rng = random.Random(2)
        for spec, options, bots in MATCHES:
            made = claim_all(client, client.post("/api/matches", json={"spec": spec, "options": options,
                                                                        "bots": bots}).json())
            made_all.append(made)
            for _ in range(15):
                seat, token = rng.choice(list(made["tokens"].items()))
                legal = client.get(f"/api/matches/{made['match']}/legal", headers=auth(token)).json()["legal"]
                if legal:
                    client.post(f"/api/matches/{made['match']}/actions", headers=auth(token),
                                json={"action": rng.choice(legal)})
            for seat, token in made["tokens"].items():
                views[made["match"], seat] = client.get(f"/api/matches/{made['match']}/view", headers=auth(token)).json()
    with TestClient(create_app(db, settings=TEST_SETTINGS)) as client:
        for made in made_all:
            for seat, token in made["tokens"].items():
                assert client.get(f"/api/matches/{made['match']}/view", headers=auth(token)).json() == \
                    views[made["match"], seat]


# -- a real server process, killed ---------------------------------------------------------

@pytest.fixture
def server(store_url):
    srv = Server(store_url, *PLAYFUL)
    srv.start()
    yield srv
    if srv.proc and srv.proc.poll() is None:
        srv.kill()


def _create(http: httpx2.Client) -> list[dict]:
    return [claim_all(http, http.post("/api/matches", json={"spec": s, "options": o, "bots": b, "seed": k}).json())
            for k, (s, o, b) in enumerate(MATCHES)]


def _views(http: httpx2.Client, made: list[dict]) -> dict:
    return {(m["match"], seat): http.get(f"/api/matches/{m['match']}/view", headers=auth(t)).json()
            for m in made for seat, t in m["tokens"].items()}


def _player(url: str, made: dict, acked: list, stop: threading.Event, seed: int, killable: bool = True) -> None:
    """Play random legal actions on one match until stopped, the match ends or (if `killable`)
    the server dies; record each answered action with the version it was applied at. A live
    server is waited for however slow it is: only a dead one ends the play early."""
    rng = random.Random(seed)
    tokens = made["tokens"]
    seat = next(iter(tokens))
    try:
        with httpx2.Client(base_url=url, timeout=SLOW) as http:
            while not stop.is_set():
                token = tokens[seat]
                legal = http.get(f"/api/matches/{made['match']}/legal", headers=auth(token)).json()
                if not legal["legal"]:
                    if legal["to_act"] is None:
                        return
                    seat = str(legal["to_act"])
                    continue
                action = rng.choice(legal["legal"])
                r = http.post(f"/api/matches/{made['match']}/actions", headers=auth(token),
                              json={"action": action, "version": legal["version"]})
                if r.status_code == 200:
                    acked.append((legal["version"], int(seat), action, r.json()["version"]))
                elif not killable:
                    raise AssertionError(r.text)
    except (httpx2.HTTPError, ValueError):
        if not killable:
            raise
        return                                              # the server was killed mid-answer


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    """Poll `condition` until it holds: the test waits on what happened, never on a fixed time
    (the limit only stops a broken run from hanging)."""
    deadline = time.monotonic() + 600
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.01)


def _played(acked: dict[str, list], goal: int, players: list[threading.Thread]) -> bool:
    """Whether `goal` actions have been answered in all, or every player has stopped."""
    return sum(len(a) for a in acked.values()) >= goal or not any(t.is_alive() for t in players)


def test_a_killed_server_resumes_every_match_and_loses_no_answered_action(server) -> None:
    with httpx2.Client(base_url=server.url, timeout=SLOW) as http:
        made = _create(http)
        before = _views(http, made)
    server.kill()                                          # at rest: everything is exactly as it was
    server.start()
    with httpx2.Client(base_url=server.url, timeout=SLOW) as http:
        assert _views(http, made) == before

    acked: dict[str, list] = {m["match"]: [] for m in made}
    for round_ in range(3):                                # killed while actions are in flight
        stop = threading.Event()
        threads = [threading.Thread(target=_player, args=(server.url, m, acked[m["match"]], stop, round_ * 10 + k))
                   for k, m in enumerate(made)]
        answered_before = sum(len(a) for a in acked.values())
        more = 8 + random.Random(round_).randrange(16)     # a different moment of play each round
        for t in threads:
            t.start()
        _wait_for(partial(_played, acked, answered_before + more, threads), f"{more} answered actions")
        server.kill()                                      # the players are mid-request: they never wait
        stop.set()
        for t in threads:
            t.join(timeout=SLOW)
            assert not t.is_alive(), "a player still plays against a killed server"
        server.start()
        with httpx2.Client(base_url=server.url, timeout=SLOW) as http:
            for m in made:
                token = next(iter(m["tokens"].values()))
                version = http.get(f"/api/matches/{m['match']}/view", headers=auth(token)).json()["version"]
                answered = max((after for *_, after in acked[m["match"]]), default=0)
                assert version >= answered, "an answered action was lost"

    assert sum(len(a) for a in acked.values()) >= 24, "the rounds answered fewer actions than they waited for"
    stop = threading.Event()
    for k, m in enumerate(made):                           # finish every match on the resumed server
        _player(server.url, m, acked[m["match"]], stop, 100 + k, killable=False)
    with httpx2.Client(base_url=server.url, timeout=SLOW) as http:
        for m in made:
            token = next(iter(m["tokens"].values()))
            log = http.get(f"/api/matches/{m['match']}/log", headers=auth(token)).json()
            assert "actions" in log, log
            for at, seat, action, _ in acked[m["match"]]:
                assert log["actions"][at] == {"seat": seat, "action": action}
            st = replay_log(log)
            assert st.match_over and st.events == log["events"]


def test_a_database_written_before_invitations_still_serves_its_matches(tmp_path) -> None:
    """A file with the earlier schema (no salt, no invitations; tokens given at creation)
    gains the new column and table; its matches replay and its tokens still act. SQLite only:
    no PostgreSQL store was ever written with that schema."""
    import sqlite3

    from interpreter.server.security import commitment, token_hash
    db = tmp_path / "old.sqlite3"
    old = sqlite3.connect(db)
    old.executescript("""
        CREATE TABLE matches (id TEXT PRIMARY KEY, spec TEXT NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,
                              seats TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE tokens (token_hash TEXT PRIMARY KEY, match_id TEXT NOT NULL REFERENCES matches(id),
                             seat INTEGER NOT NULL);
        CREATE TABLE actions (match_id TEXT NOT NULL REFERENCES matches(id), n INTEGER NOT NULL, seat INTEGER NOT NULL,
                              action TEXT NOT NULL, PRIMARY KEY (match_id, n));
    """)
    options = dict(load_game("teg").options)
    old.execute("INSERT INTO matches VALUES ('m', 'teg', ?, 3, '[null, null]', 0)", (json.dumps(options),))
    old.executemany("INSERT INTO tokens VALUES (?, 'm', ?)", [(token_hash("t0"), 0), (token_hash("t1"), 1)])
    first = load_game("teg").new_match(seed=3).legal_actions(0)[0]
    old.execute("INSERT INTO actions VALUES ('m', 0, 0, ?)", (first,))
    old.commit()
    old.close()
    with TestClient(create_app(str(db), settings=TEST_SETTINGS)) as client:
        info = client.get("/api/matches/m", headers=auth("t1")).json()
        assert info["version"] == 1 and [s["claimed"] for s in info["seats"]] == [True, True]
        assert info["commitment"] == commitment(3, "")
        legal = client.get("/api/matches/m/legal", headers=auth("t1")).json()["legal"]
        assert client.post("/api/matches/m/actions", headers=auth("t1"), json={"action": legal[0]}).status_code == 200
