"""An adversarial client against a real `truco serve` process with its default settings, over
loopback: crafted bodies and hellos, foreign hosts and origins, floods. Every probe gets a
4xx or a WebSocket close 4xxx with a code and a reason; no match changes; the process never
logs a traceback and keeps serving.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.helpers import STORES, Server, auth, fresh_store

from interpreter.server.settings import Limits

JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module", params=STORES)
def server(request, tmp_path_factory) -> Iterator[Server]:
    """One server for the module's probes, on a SQLite file or a fresh PostgreSQL database."""
    with fresh_store(request, request.param, str(tmp_path_factory.mktemp("probes") / "matches.sqlite3")) as db:
        srv = Server(db)
        srv.start()
        yield srv
        srv.kill()


@pytest.fixture(scope="module")
def http(server) -> Iterator[httpx2.Client]:
    with httpx2.Client(base_url=server.url, timeout=10, trust_env=False) as c:
        yield c


@pytest.fixture(scope="module")
def match(http) -> dict[str, Any]:
    """One match, seat 1 a bot, seat 0 claimed: the probes must leave it as it is."""
    made = http.post("/api/matches", json={"spec": "teg", "bots": {"1": "random"}}).json()
    claimed = http.post(f"/api/matches/{made['match']}/claim", json={"code": made["invitations"]["0"]["code"]}).json()
    return {**made, "token": claimed["token"]}


def _view(http: httpx2.Client, match: dict[str, Any]) -> Any:
    return http.get(f"/api/matches/{match['match']}/view", headers=auth(match["token"])).json()


def _error(r: httpx2.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code and r.json()["error"]["message"]


@pytest.mark.parametrize("path,body,code", [
    ("/api/matches", b"[" * 60_000, "too_deep"),
    ("/api/matches", b'{"spec": "teg", "options": ' + b'{"o": ' * 500 + b"1" + b"}" * 500 + b"}", "too_deep"),
    ("/api/matches", json.dumps({"spec": "teg", "bots": {"\u00b2": "random"}}).encode(), "bad_body"),
    ("/api/matches", json.dumps({"spec": "teg", "bots": {"\u2460": "random"}}).encode(), "bad_body"),
    ("/api/matches", json.dumps({"spec": "teg", "bots": {"\u0661": "random"}}).encode(), "bad_body"),
    ("/api/matches", json.dumps({"spec": "teg", "bots": {"7" * 5000: "random"}}).encode(), "bad_body"),
    ("/api/matches", b'{"spec": "teg", "seed": 7}', "seed_not_allowed"),
    ("ACTIONS", b'{"action": "\\ud800"}', "bad_text"),
    ("ACTIONS", b"[" * 60_000, "too_deep"),
    ("CLAIM", b'{"code": "\\ud800"}', "bad_text"),
])
def test_crafted_bodies_get_a_4xx_and_change_no_match(http, match, path, body, code) -> None:
    before = _view(http, match)
    url = {"ACTIONS": f"/api/matches/{match['match']}/actions",
           "CLAIM": f"/api/matches/{match['match']}/claim"}.get(path, path)
    r = http.post(url, content=body, headers={**JSON, **auth(match["token"])})
    _error(r, 403 if code == "seed_not_allowed" else 400, code)
    assert _view(http, match) == before


def test_a_text_plain_body_is_refused(http, match) -> None:
    before = _view(http, match)
    r = http.post(f"/api/matches/{match['match']}/actions", content=b'{"action": "fold"}',
                  headers={"content-type": "text/plain", **auth(match["token"])})
    _error(r, 415, "unsupported_media_type")
    assert _view(http, match) == before


def _raw(server: Server, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(request)
        return _answer(s)


def _answer(s: socket.socket) -> bytes:
    """The server's answer: up to the end of its JSON error, or until it closes the connection."""
    answer = b""
    while not answer.endswith(b"}}") and (chunk := s.recv(65536)):
        answer += chunk
    return answer


def test_a_foreign_host_is_refused(server) -> None:
    answer = _raw(server, b"GET /api/specs HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400") and b"bad_host" in answer


def test_an_endless_chunked_body_is_cut_off_with_413(server) -> None:
    """The server answers once the body passes its limit, without waiting for the end."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"2000\r\n" + b" " * 0x2000 + b"\r\n"
        try:
            for _ in range(16):                    # 128 KiB, twice the limit, and never a last chunk
                s.sendall(chunk)
        except OSError:
            pass                                   # the server may close first
        answer = _answer(s)
    assert answer.startswith(b"HTTP/1.1 413") and b"too_large" in answer


def _stream(server: Server, match: dict[str, Any], first: str | bytes | None, **kwargs: Any) -> tuple[Any, int, str]:
    """Open the stream, send `first`, and read until it closes: (last message, close code, reason)."""
    last = None
    with connect(f"ws://127.0.0.1:{server.port}/api/matches/{match['match']}/events", proxy=None,
                 open_timeout=10, **kwargs) as ws:
        if first is not None:
            ws.send(first)
        try:
            while True:
                last = json.loads(ws.recv(timeout=10))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "the server dropped the stream without a close frame"
            return last, closed.rcvd.code, closed.rcvd.reason
    raise AssertionError("unreachable")


@pytest.mark.parametrize("first,code", [
    (b'{"token": "x"}', "binary_frame"),
    ("[" * 60_000, "too_deep"),
    (json.dumps({"token": "x" * 200_000}), "too_large"),
    ('{"token": "\\ud800"}', "bad_text"),
    ('{"token": "nobody"}', "bad_token"),
])
def test_crafted_hellos_close_the_stream_with_a_code_and_reason(server, http, match, first, code) -> None:
    before = _view(http, match)
    last, close, reason = _stream(server, match, first)
    assert last["error"]["code"] == code and reason == code
    assert close == 4000 + last["error"]["status"]
    assert _view(http, match) == before


def test_a_stream_from_a_foreign_origin_is_refused(server, match) -> None:
    last, close, reason = _stream(server, match, None, origin="https://evil.example")
    assert (close, reason, last["error"]["code"]) == (4403, "bad_origin", "bad_origin")


def test_a_seat_opens_a_bounded_number_of_streams(server, match) -> None:
    url = f"ws://127.0.0.1:{server.port}/api/matches/{match['match']}/events"
    hello = json.dumps({"token": match["token"], "since": 0})
    with contextlib.ExitStack() as opened:
        for _ in range(4):
            ws = opened.enter_context(connect(url, proxy=None, open_timeout=10))
            ws.send(hello)
            assert "view" in json.loads(ws.recv(timeout=10))
        last, close, reason = _stream(server, match, hello)
        assert (close, reason) == (4429, "too_many_streams")


def test_the_database_files_are_the_owners_only(server) -> None:
    if str(server.db).startswith("postgresql://"):
        pytest.skip("SQLite only: a PostgreSQL store keeps no file of the server's to guard")
    db = Path(server.db)
    files = list(db.parent.iterdir())
    assert db in files
    for path in files:
        assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0, path


def test_a_flood_of_creations_is_answered_429_with_retry_after(store_url) -> None:
    srv = Server(store_url)
    srv.start()
    try:
        with httpx2.Client(base_url=srv.url, timeout=10, trust_env=False) as c:
            start = time.monotonic()
            answers = [c.post("/api/matches", json={"spec": "teg"}) for _ in range(100)]
            elapsed = time.monotonic() - start
        created = [r for r in answers if r.status_code == 201]
        limited = [r for r in answers if r.status_code == 429]
        # the burst, and one more for each second the flood lasted
        limits = Limits()
        allowed = limits.creations_burst + math.ceil(elapsed * limits.creations_per_second)
        assert 0 < len(created) <= allowed and len(created) + len(limited) == 100
        assert all(int(r.headers["retry-after"]) >= 1 and r.json()["error"]["code"] == "rate_limited" for r in limited)
    finally:
        srv.kill()


def test_the_server_logged_no_traceback_and_still_serves(server, http) -> None:
    assert http.get("/api/specs").status_code == 200
    server.kill()
    assert "Traceback" not in server.log and "Exception" not in server.log, server.log
    server.start()
