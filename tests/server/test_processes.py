"""Several server processes on one PostgreSQL store (docs/deploy.md): any process serves any
match, a match's actions are applied one at a time across processes, a seat's stream on one
process receives what an action through another produced, and a match whose process is
killed is finished through another with nothing lost, nothing applied twice, and every seat
seeing only its own cards."""
from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosedOK
from websockets.sync.client import connect

from tests.server.helpers import PLAYFUL, TEST_SETTINGS, Knowledge, Server, auth, claim_all, replay_log

from interpreter.engine.views import visible_events
from interpreter.server.app import create_app


@pytest.fixture
def two(postgres) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on one fresh database: two processes, in this one."""
    url = postgres.new_database()
    with TestClient(create_app(url, settings=TEST_SETTINGS)) as a, TestClient(create_app(url, settings=TEST_SETTINGS)) as b:
        yield a, b


def _legal(c: TestClient, match: str, token: str) -> dict[str, Any]:
    return c.get(f"/api/matches/{match}/legal", headers=auth(token)).json()


def test_any_process_serves_any_match_and_sees_the_others_actions(two) -> None:
    a, b = two
    made = a.post("/api/matches", json={"spec": "teg", "options": {"target": 15}, "seed": 3}).json()
    made = claim_all(b, made)                                     # claimed through the other process
    match, tokens = made["match"], made["tokens"]
    assert all(s["claimed"] for s in a.get(f"/api/matches/{match}", headers=auth(tokens["0"])).json()["seats"])
    rng = random.Random(1)
    for k in range(4000):
        c = (a, b)[rng.randrange(2)]
        seat = str(_legal(c, match, tokens["0"])["to_act"])
        if seat == "None":
            break
        legal = _legal((a, b)[k % 2], match, tokens[seat])        # read on one, act on the other
        r = c.post(f"/api/matches/{match}/actions", headers=auth(tokens[seat]),
                   json={"action": rng.choice(legal["legal"]), "version": legal["version"]})
        assert r.status_code == 200, r.text
        assert r.json()["version"] == legal["version"] + 1
    views = [c.get(f"/api/matches/{match}/view", headers=auth(tokens["1"])).json() for c in (a, b)]
    assert views[0] == views[1] and views[0]["observation"]["to_act"] is None
    log = b.get(f"/api/matches/{match}/log", headers=auth(tokens["0"])).json()
    assert len(log["actions"]) == views[0]["version"]


def test_a_process_that_loses_a_race_judges_the_action_again_on_the_stored_match(two) -> None:
    a, b = two
    made = claim_all(a, a.post("/api/matches", json={"spec": "teg", "seed": 5}).json())
    match, t0 = made["match"], made["tokens"]["0"]
    book_a, book_b = a.app.state.book, b.app.state.book
    assert _legal(b, match, t0)["version"] == 0                   # b holds the match in memory
    first = _legal(a, match, t0)["legal"][0]
    assert a.post(f"/api/matches/{match}/actions", headers=auth(t0), json={"action": first}).status_code == 200
    stale = book_b.matches[match]                                 # b has not looked at the store since
    assert stale.version == 0
    with pytest.raises(Exception) as refused:
        book_b.act(stale, 0, first, 0)                            # the same action again, at version 0
    assert getattr(refused.value, "code", None) == "stale_version"
    assert stale.version == 1 and book_b.store.actions(match) == book_a.store.actions(match)
    seat = stale.state.current_player()
    again = stale.state.legal_actions(seat)[0]
    stale_a = book_a.matches[match]
    book_a.act(stale_a, seat, again, None)                        # a moves on; b, not knowing, acts too
    other = book_b.matches[match]
    assert other.version == 1
    answer = other.state.legal_actions(seat)[0]
    try:
        book_b.act(other, seat, answer, None)                     # judged again on version 2
    except Exception as err:
        assert getattr(err, "code", None) == "illegal_action"
    log = book_a.store.actions(match)
    assert log[:2] == [(0, first), (seat, again)] and len(log) == other.logged == len(set(range(len(log))))


def test_a_stream_on_one_process_receives_the_actions_applied_through_another(two) -> None:
    a, b = two
    made = claim_all(a, a.post("/api/matches", json={"spec": "teg", "seed": 4}).json())
    match, t0, t1 = made["match"], made["tokens"]["0"], made["tokens"]["1"]
    with a.websocket_connect(f"/api/matches/{match}/events") as ws:
        ws.send_json({"token": t1, "since": 0})
        assert ws.receive_json()["seq"] == 0
        legal = _legal(b, match, t0)["legal"]
        assert b.post(f"/api/matches/{match}/actions", headers=auth(t0), json={"action": legal[0]}).status_code == 200
        second = ws.receive_json()                                # woken by the other process's NOTIFY
        assert second["seq"] == 2 and second["events"] == [{"type": "action", "seat": 0, "action": legal[0]}]
        assert second["view"]["version"] == 1
    with b.websocket_connect(f"/api/matches/{match}/events") as ws:  # reconnected to the other process
        ws.send_json({"token": t1, "since": 2})
        resumed = ws.receive_json()
        assert resumed == second


class _Counted:
    """A store's connection that counts the statements sent through it (BEGIN and COMMIT too)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.sent: list[str] = []

    def execute(self, sql: str, args: Any = ()) -> Any:
        self.sent.append(sql)
        return self.conn.execute(sql, args)

    def transaction(self) -> Any:
        self.sent += ["BEGIN", "COMMIT"]
        return self.conn.transaction()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def test_an_action_on_a_current_copy_costs_one_statement_and_on_a_stale_one_two(two) -> None:
    """The conditional write, the log and the notification go in one statement; a process
    whose copy is at the version the client names reads nothing first, one whose copy is
    behind reads the new actions once (one query), and a read request costs one query."""
    a, b = two
    made = claim_all(a, a.post("/api/matches", json={"spec": "teg", "seed": 6}).json())
    match, tokens = made["match"], made["tokens"]
    assert _legal(b, match, tokens["0"])["version"] == 0          # b holds the match too
    counted = {c: _Counted(c.app.state.book.store.db) for c in (a, b)}
    for c in (a, b):
        c.app.state.book.store.db = counted[c]
    for k in range(6):
        here, there = (a, b) if k % 2 == 0 else (b, a)
        legal = _legal(here, match, tokens["0"])
        seat = str(legal["to_act"])
        legal = _legal(here, match, tokens[seat])
        del counted[here].sent[:], counted[there].sent[:]
        r = here.post(f"/api/matches/{match}/actions", headers=auth(tokens[seat]),
                      json={"action": legal["legal"][0], "version": legal["version"]})
        assert r.status_code == 200, r.text
        assert len(counted[here].sent) == 1 and "UPDATE matches" in counted[here].sent[0]
        assert counted[there].sent == []
        legal = _legal(there, match, tokens[seat])                # behind by one action: one query
        assert len(counted[there].sent) == 1 and legal["version"] == k + 1
    seat = str(_legal(a, match, tokens["0"])["to_act"])
    legal = _legal(a, match, tokens[seat])
    assert a.post(f"/api/matches/{match}/actions", headers=auth(tokens[seat]),
                  json={"action": legal["legal"][0], "version": legal["version"]}).status_code == 200
    seat = str(_legal(a, match, tokens["0"])["to_act"])
    legal = _legal(a, match, tokens[seat])                        # read on a: b's copy is one action behind
    del counted[b].sent[:]
    r = b.post(f"/api/matches/{match}/actions", headers=auth(tokens[seat]),
               json={"action": legal["legal"][0], "version": legal["version"]})
    assert r.status_code == 200, r.text
    assert len(counted[b].sent) == 2 and "UPDATE matches" in counted[b].sent[1]


def test_an_action_that_skips_the_catch_up_still_shows_a_seat_claimed_through_another_process(two) -> None:
    a, b = two
    made = a.post("/api/matches", json={"spec": "teg", "seed": 8}).json()
    match = made["match"]
    t0 = a.post(f"/api/matches/{match}/claim", json={"code": made["invitations"]["0"]["code"]}).json()["token"]
    legal = _legal(a, match, t0)                                  # a holds the match: seat 1 not claimed
    assert legal["to_act"] == 0
    assert b.post(f"/api/matches/{match}/claim", json={"code": made["invitations"]["1"]["code"]}).status_code == 201
    r = a.post(f"/api/matches/{match}/actions", headers=auth(t0),
               json={"action": legal["legal"][0], "version": legal["version"]})
    assert r.status_code == 200, r.text
    assert [s["claimed"] for s in r.json()["seats"]] == [True, True]


# -- real processes, one killed ----------------------------------------------------------

SLOW = 120          # seconds a live server may take to answer on a loaded machine (a dead one fails at once)


def _stream(url: str, match: str, token: str, since: int, got: list, stop: threading.Event, failed: list) -> None:
    """Collect a seat's stream messages until `stop` or the server closes the stream at the
    match's end; any other end is an error, kept in `failed`."""
    try:
        with connect(url.replace("http", "ws") + f"/api/matches/{match}/events", open_timeout=SLOW) as ws:
            ws.send(json.dumps({"token": token, "since": since}))
            while not stop.is_set():
                try:
                    got.append(json.loads(ws.recv(timeout=0.5)))
                except TimeoutError:
                    continue
    except ConnectionClosedOK:
        return
    except Exception as err:
        failed.append(repr(err))


def test_a_killed_process_leaves_its_matches_to_another_with_nothing_lost_or_doubled(postgres) -> None:
    url = postgres.new_database()
    a, b = Server(url, *PLAYFUL), Server(url, *PLAYFUL)            # `Server` passes its db to --db as it is
    a.start()
    b.start()
    failed: list[str] = []
    try:
        with httpx2.Client(base_url=a.url, timeout=SLOW) as ha, httpx2.Client(base_url=b.url, timeout=SLOW) as hb:
            made = claim_all(hb, ha.post("/api/matches", json={"spec": "teg", "options": {"target": 30},
                                                               "seed": 11}).json())
            match, tokens = made["match"], made["tokens"]
            streams: dict[str, list] = {seat: [] for seat in tokens}
            stop = threading.Event()
            readers = [threading.Thread(target=_stream, args=(b.url, match, tokens[seat], 0, streams[seat], stop,
                                                              failed))
                       for seat in tokens]
            for t in readers:
                t.start()
            answered: list[tuple[int, int, str]] = []
            rng = random.Random(5)

            def play(clients: list[httpx2.Client], steps: int) -> None:
                for k in range(steps):
                    c = clients[k % len(clients)]
                    seat = _legal(c, match, tokens["0"])["to_act"]
                    if seat is None:
                        return
                    legal = _legal(c, match, tokens[str(seat)])
                    action = rng.choice(legal["legal"])
                    r = c.post(f"/api/matches/{match}/actions", headers=auth(tokens[str(seat)]),
                               json={"action": action, "version": legal["version"]})
                    assert r.status_code == 200, r.text
                    answered.append((legal["version"], seat, action))

            play([ha, hb], 10)                                    # both processes, turn about
            assert _legal(hb, match, tokens["0"])["to_act"] is not None
            a.kill()                                              # mid-match
            assert a.proc is not None and a.proc.returncode == -signal.SIGKILL
            play([hb], 10_000)                                    # finished through the other
            log = hb.get(f"/api/matches/{match}/log", headers=auth(tokens["0"])).json()

            def delivered() -> bool:                              # every event of the log, to every stream
                if failed or not any(t.is_alive() for t in readers):
                    return True
                return all(sum(len(m["events"]) for m in streams[seat]) >= len(visible_events(log["events"], int(seat)))
                           for seat in tokens)

            deadline = time.monotonic() + 600                     # waits on the streams, not on a time
            while not delivered() and time.monotonic() < deadline:
                time.sleep(0.01)
            stop.set()
            for t in readers:
                t.join(timeout=SLOW)
    finally:
        for s in (a, b):
            if s.proc and s.proc.poll() is None:
                s.kill()
    assert not failed, failed
    assert len(answered) > 10 and len(log["actions"]) == len(answered)   # nothing lost, nothing twice
    for at, seat, action in answered:
        assert log["actions"][at] == {"seat": seat, "action": action}
    st = replay_log(log)
    assert st.match_over and st.events == log["events"]
    knowledge = Knowledge(log)
    for seat, got in streams.items():                             # each event once, in order, its own cards only
        seen: list[dict] = []
        for message in got:
            assert message["seq"] == len(seen)
            seen += message["events"]
            assert knowledge.leaks(int(seat), message["view"]["version"], message) == set()
        assert seen == visible_events(log["events"], int(seat))
