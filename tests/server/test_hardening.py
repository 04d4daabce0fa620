"""The server against crafted input and greedy clients, with its default settings: every
probe gets a 4xx (or a WebSocket close 4xxx) with a code and a reason, and leaves every match
unchanged; limits answer 429 with Retry-After; memory and streams stay bounded.

The same probes run against a real `truco serve` process in test_probes.py.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import stat
import threading
import time
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import auth, claim_all

from interpreter.server.app import create_app
from interpreter.server.settings import Limits, Settings

HOST = "http://127.0.0.1"
WS = "ws://127.0.0.1"
JSON = {"content-type": "application/json"}


def default_client(db: str, **changes: Any) -> TestClient:
    """An app on the store `db` with the default settings, but for the limits named."""
    return TestClient(create_app(db, settings=Settings(limits=Limits(**changes))), base_url=HOST)


def made_match(client: TestClient, spec: str = "teg", **body: Any) -> dict[str, Any]:
    r = client.post("/api/matches", json={"spec": spec, **body})
    assert r.status_code == 201, r.text
    return claim_all(client, r.json())


def views(client: TestClient, made: dict[str, Any]) -> list[Any]:
    return [client.get(f"/api/matches/{made['match']}/view", headers=auth(t)).json() for t in made["tokens"].values()]


def refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code and error["message"] and error["status"] == status


@pytest.fixture
def client(db):
    with default_client(db) as c:
        yield c


# -- crafted bodies ---------------------------------------------------------------------

DEEP = b"[" * 60_000
DEEP_OPTIONS = b'{"spec": "teg", "options": ' + b'{"a": ' * 200 + b"1" + b"}" * 200 + b"}"


@pytest.mark.parametrize("body,code", [
    (DEEP, "too_deep"),
    (DEEP_OPTIONS, "too_deep"),
    (b'{"spec": "\\ud800"}', "bad_text"),
    (b'{"spec": "teg", "bots": {"\\udfff": "random"}}', "bad_text"),
    (b'{"spec": "teg", "bots": {"1": "\\ud800"}}', "bad_text"),
    (b'{"spec": "teg", "options": {"target": "\\ud800"}}', "bad_text"),
    (b'{"spec": "teg", "bots": {"1": 5}}', "bad_body"),
    (b'{"spec": "teg", "seed": ' + b"9" * 5000 + b"}", "malformed_json"),
    (b'{"spec": "teg", "options": {"target": NaN}}', "malformed_json"),
    (b'{"spec": "teg", "seed": Infinity}', "malformed_json"),
])
def test_crafted_creation_bodies_are_refused_with_a_code(client, body, code) -> None:
    refused(client.post("/api/matches", content=body, headers=JSON), 400, code)
    assert client.app.state.book.matches == {}


@pytest.mark.parametrize("key", ["²", "①", "١", "9" * 5000, "01", "-1", " 1", "1 ", "+1", "1.0"])
def test_bot_seat_keys_must_be_plain_ascii_numbers(client, key) -> None:
    refused(client.post("/api/matches", json={"spec": "teg", "bots": {key: "random"}}), 400, "bad_body")


@pytest.mark.parametrize("body,code", [
    (DEEP, "too_deep"),
    (b'{"action": ' + b"[" * 5000 + b"]" * 5000 + b"}", "too_deep"),
    (b'{"action": "\\ud800"}', "bad_text"),
    (b'{"action": "play \\udc00"}', "bad_text"),
    (b'{"\\ud800": 1}', "bad_text"),
])
def test_crafted_action_bodies_are_refused_and_change_nothing(client, body, code) -> None:
    made = made_match(client)
    before = views(client, made)
    r = client.post(f"/api/matches/{made['match']}/actions", content=body,
                    headers={**auth(made["tokens"]["0"]), **JSON})
    refused(r, 400, code)
    assert views(client, made) == before


@pytest.mark.parametrize("headers", [{"content-type": "text/plain"}, {},
                                     {"content-type": "application/x-www-form-urlencoded"},
                                     {"content-type": "multipart/form-data; boundary=x"}])
def test_bodies_must_be_sent_as_json(client, headers) -> None:
    """A cross-site page can send text/plain or a form without asking first: refused."""
    refused(client.post("/api/matches", content=b'{"spec": "teg"}', headers=headers), 415, "unsupported_media_type")
    made = made_match(client)
    before = views(client, made)
    r = client.post(f"/api/matches/{made['match']}/actions", content=b'{"action": "fold"}',
                    headers={**auth(made["tokens"]["0"]), **headers})
    refused(r, 415, "unsupported_media_type")
    assert views(client, made) == before
    assert client.post("/api/matches", content=b'{"spec": "teg"}',
                       headers={"content-type": "application/json; charset=utf-8"}).status_code == 201


def test_a_large_body_is_refused(client) -> None:
    """Sent in chunks without a length (the server stops reading past the limit), or with a
    length past the limit: 413."""
    def chunks():
        for _ in range(256):
            yield b" " * 65536

    r = client.post("/api/matches", content=chunks(), headers=JSON)
    refused(r, 413, "too_large")
    for length in (str(10**12), "9" * 5000):
        r = client.post("/api/matches", content=b"{}", headers={**JSON, "content-length": length})
        refused(r, 413, "too_large")


def test_one_invitation_claimed_at_once_by_many_gives_one_token(db) -> None:
    async def scenario() -> list[int]:
        app = create_app(db)
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=HOST) as http:
            made = (await http.post("/api/matches", json={"spec": "teg"})).json()
            code = made["invitations"]["1"]["code"]
            answers = await asyncio.gather(*(http.post(f"/api/matches/{made['match']}/claim", json={"code": code})
                                             for _ in range(10)))
            return sorted(r.status_code for r in answers)

    assert asyncio.run(scenario()) == [201] + [409] * 9


# -- hosts and origins ------------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost@evil",
                                  "", "127.0.0.1/x", "[::2]"])
def test_a_host_not_configured_is_refused(client, host) -> None:
    refused(client.get("/api/specs", headers={"host": host}), 400, "bad_host")
    refused(client.post("/api/matches", json={"spec": "teg"}, headers={"host": host}), 400, "bad_host")
    assert client.app.state.book.matches == {}


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "localhost:1", "[::1]:8000", "LOCALHOST"])
def test_loopback_hosts_are_answered_by_default(client, host) -> None:
    assert client.get("/api/specs", headers={"host": host}).status_code == 200


def test_a_configured_host_is_answered(db) -> None:
    app = create_app(db, settings=Settings(hosts=("cards.example",)))
    with TestClient(app, base_url="http://cards.example") as c:
        assert c.get("/api/specs").status_code == 200
        refused(c.get("/api/specs", headers={"host": "127.0.0.1"}), 400, "bad_host")


def _ws_refusal(client: TestClient, url: str, first: Any = None, headers: dict | None = None) -> tuple[dict, int, str]:
    """Open a stream, send `first` (text or bytes), and return the error sent and the close."""
    with client.websocket_connect(url, headers=headers or {}) as ws:
        if isinstance(first, bytes):
            ws.send_bytes(first)
        elif first is not None:
            ws.send_text(first)
        error = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    return error["error"], closed.value.code, closed.value.reason


@pytest.mark.parametrize("first,code", [
    (b'{"token": "x"}', "binary_frame"),
    ("[" * 60_000, "too_deep"),
    ('{"token": ' + "[" * 100 + "]" * 100 + "}", "too_deep"),
    ('{"token": "\\ud800"}', "bad_text"),
    ("not json", "malformed_json"),
    ('{"token": 5}', "bad_body"),
])
def test_crafted_hellos_close_the_stream_with_4400_and_the_reason(client, first, code) -> None:
    made = made_match(client)
    before = views(client, made)
    error, close, reason = _ws_refusal(client, f"{WS}/api/matches/{made['match']}/events", first)
    assert (error["code"], close, reason) == (code, 4400, code) and error["message"]
    assert views(client, made) == before


def test_a_websocket_from_a_foreign_origin_or_host_is_refused(client) -> None:
    made = made_match(client)
    url = f"{WS}/api/matches/{made['match']}/events"
    error, close, reason = _ws_refusal(client, url, headers={"origin": "https://evil.example"})
    assert (error["code"], close, reason) == ("bad_origin", 4403, "bad_origin")
    error, close, reason = _ws_refusal(client, url, headers={"origin": "null"})
    assert close == 4403
    error, close, reason = _ws_refusal(client, f"ws://evil.example/api/matches/{made['match']}/events")
    assert (error["code"], close, reason) == ("bad_host", 4400, "bad_host")
    error, close, reason = _ws_refusal(client, url, headers={"origin": "http://localhost:8000"})   # another port
    assert close == 4403
    for origin in ("http://127.0.0.1", "http://localhost"):      # the board's own page, under either name
        with client.websocket_connect(url, headers={"origin": origin}) as ws:
            ws.send_json({"token": made["tokens"]["0"], "since": 0})
            assert ws.receive_json()["view"]["seat"] == 0


def test_a_configured_origin_may_open_streams(db) -> None:
    app = create_app(db, settings=Settings(origins=("https://cards.example",)))
    with TestClient(app, base_url=HOST) as c:
        made = made_match(c)
        url = f"{WS}/api/matches/{made['match']}/events"
        with c.websocket_connect(url, headers={"origin": "https://cards.example"}) as ws:
            ws.send_json({"token": made["tokens"]["0"]})
            assert ws.receive_json()["view"]["seat"] == 0
        assert _ws_refusal(c, url, headers={"origin": "https://other.example"})[1] == 4403


# -- seats, seeds and the commitment --------------------------------------------------------

def test_the_creator_gets_invitations_and_each_is_claimed_once(client) -> None:
    r = client.post("/api/matches", json={"spec": "teg", "options": {"players": 4}, "bots": {"3": "random"}})
    made = r.json()
    assert r.status_code == 201 and "tokens" not in made
    assert sorted(made["invitations"]) == ["0", "1", "2"]
    assert all(i["link"].startswith(f"{HOST}/#match={made['match']}&code=") for i in made["invitations"].values())
    assert [s["claimed"] for s in made["seats"]] == [False, False, False, True]
    url = f"/api/matches/{made['match']}/claim"
    first = client.post(url, json={"code": made["invitations"]["2"]["code"]})
    assert first.status_code == 201 and first.json()["seat"] == 2
    assert first.json()["commitment"] == made["commitment"]
    refused(client.post(url, json={"code": made["invitations"]["2"]["code"]}), 409, "seat_taken")
    refused(client.post(url, json={"code": "guess"}), 403, "bad_invitation")
    other = client.post("/api/matches", json={"spec": "teg"}).json()
    refused(client.post(url, json={"code": other["invitations"]["0"]["code"]}), 403, "bad_invitation")
    refused(client.post("/api/matches/nothing/claim", json={"code": "x"}), 404, "unknown_match")
    token = first.json()["token"]
    view = client.get(f"/api/matches/{made['match']}/view", headers=auth(token)).json()
    assert view["seat"] == 2 and [s["claimed"] for s in view["seats"]] == [False, False, True, True]
    r = client.post(f"/api/matches/{made['match']}/actions", headers=auth(token), json={"action": "truco"})
    assert r.status_code == 409 and "seat 0's turn" in r.json()["error"]["reason"]     # it acts as seat 2 only


def test_the_server_chooses_the_seed_and_commits_to_it(client) -> None:
    refused(client.post("/api/matches", json={"spec": "teg", "seed": 7}), 403, "seed_not_allowed")
    made = made_match(client, bots={"1": "heuristic"}, options={"target": 15})
    token = made["tokens"]["0"]
    url = f"/api/matches/{made['match']}"
    assert client.get(url, headers=auth(token)).json()["commitment"] == made["commitment"]
    body = client.get(f"{url}/view", headers=auth(token)).json()
    while not body["observation"]["match_over"]:
        body = client.post(f"{url}/actions", headers=auth(token), json={"action": body["observation"]["legal"][-1]}).json()
    log = client.get(f"{url}/log", headers=auth(token)).json()
    assert hashlib.sha256(f"{log['seed']}:{log['salt']}".encode()).hexdigest() == made["commitment"] == log["commitment"]
    assert len(log["salt"]) == 32


def test_seeds_differ_between_matches(client) -> None:
    commitments = {client.post("/api/matches", json={"spec": "teg"}).json()["commitment"] for _ in range(5)}
    assert len(commitments) == 5


def test_the_database_file_is_readable_by_its_owner_only(tmp_path) -> None:
    """SQLite only: a PostgreSQL store has no file of the server's to guard."""
    db = tmp_path / "m.sqlite3"
    with TestClient(create_app(str(db)), base_url=HOST) as c:
        made_match(c)
        for path in tmp_path.iterdir():
            assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0, path


# -- limits -------------------------------------------------------------------------------

def test_match_creation_is_rate_limited_per_client_with_retry_after(db) -> None:
    burst = int(Limits().creations_burst)
    # one creation in 1,000 s: none comes back while the test runs, however slow the machine
    with default_client(db, creations_per_second=0.001) as client:
        answers = [client.post("/api/matches", json={"spec": "teg"}) for _ in range(burst + 10)]
        assert [r.status_code for r in answers[:burst]] == [201] * burst
        for r in answers[burst:]:
            refused(r, 429, "rate_limited")
            assert int(r.headers["retry-after"]) >= 1
        assert len(client.app.state.book.matches) == burst


def test_requests_are_rate_limited_per_client(db) -> None:
    # one token in 1,000 s: none comes back while the test runs, however slow the machine
    with default_client(db, requests_burst=20, requests_per_second=0.001) as c:
        codes = [c.get("/api/specs").status_code for _ in range(25)]
        assert codes[:20] == [200] * 20 and set(codes[20:]) == {429}
        error, close, reason = _ws_refusal(c, f"{WS}/api/matches/x/events")        # handshakes count too
        assert (error["code"], close, reason) == ("rate_limited", 4429, "rate_limited")


def test_an_idle_match_leaves_memory_and_comes_back_unchanged(db) -> None:
    with default_client(db, idle_match_seconds=0.2, live_matches=3) as c:
        made = made_match(c)
        before = views(c, made)
        book = c.app.state.book
        time.sleep(0.3)
        others = [made_match(c) for _ in range(4)]
        assert made["match"] not in book.matches and len(book.matches) <= 3
        assert views(c, made) == before
        assert made["match"] in book.matches
        assert others


def test_the_compiled_games_are_bounded(db) -> None:
    with default_client(db, game_cache=3, creations_burst=1e9) as c:
        for target in (30, 15, 9):
            for players in (2, 4):
                made_match(c, "reglamento", options={"target": target, "players": players})
        assert len(c.app.state.book.catalog.games) == 3


def test_a_new_game_compiles_while_other_requests_are_served(db, monkeypatch) -> None:
    """A slow compilation runs on a worker thread: the event loop answers others meanwhile, and
    three creations with the same new options compile it once. The compilation here waits until
    another request has been answered, so it can end only if the loop was free while it ran."""
    from interpreter.server import catalog

    real = catalog.Game
    compiled: list[Any] = []
    started, answered = threading.Event(), threading.Event()
    served_meanwhile: list[bool] = []

    def slow(ir: Any) -> Any:
        compiled.append(ir)
        started.set()
        served_meanwhile.append(answered.wait(30))
        return real(ir)

    monkeypatch.setattr(catalog, "Game", slow)

    async def scenario() -> None:
        app = create_app(db)
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=HOST) as http:
            async def create() -> None:
                r = await http.post("/api/matches", json={"spec": "vanikar"})
                assert r.status_code == 201

            async def specs() -> None:
                while not started.is_set():
                    await asyncio.sleep(0.01)
                assert (await http.get("/api/specs")).status_code == 200
                answered.set()

            await asyncio.gather(create(), create(), create(), specs())

    asyncio.run(scenario())
    assert served_meanwhile == [True]
    assert len(compiled) == 1


def test_streams_are_capped_per_seat(client) -> None:
    made = made_match(client)
    url = f"{WS}/api/matches/{made['match']}/events"
    contexts = []
    try:
        for _ in range(Limits().streams_per_seat):
            cm = client.websocket_connect(url)
            ws = cm.__enter__()
            contexts.append(cm)
            ws.send_json({"token": made["tokens"]["0"], "since": 0})
            assert "view" in ws.receive_json()
        error, close, reason = _ws_refusal(client, url, '{{"token": "{}"}}'.format(made["tokens"]["0"]))
        assert (error["code"], close) == ("too_many_streams", 4429)
    finally:
        for cm in contexts:
            cm.__exit__(None, None, None)
    assert client.app.state.book.streams == 0


def test_streams_are_capped_in_all(db) -> None:
    with default_client(db, streams_total=2) as c:
        made = made_match(c)
        url = f"{WS}/api/matches/{made['match']}/events"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            for ws, token in ((a, made["tokens"]["0"]), (b, made["tokens"]["1"])):
                ws.send_json({"token": token})
                ws.receive_json()
            error, close, _ = _ws_refusal(c, url, '{{"token": "{}"}}'.format(made["tokens"]["0"]))
            assert (error["code"], close) == ("too_many_streams", 4429)


def test_an_idle_stream_is_closed_and_one_kept_alive_is_not(db) -> None:
    with default_client(db, stream_idle_seconds=0.3) as c:
        made = made_match(c)
        url = f"{WS}/api/matches/{made['match']}/events"
        with c.websocket_connect(url) as ws:
            ws.send_json({"token": made["tokens"]["0"]})
            ws.receive_json()
            for _ in range(4):                      # 0.6 s, kept alive by the client's messages
                time.sleep(0.15)
                ws.send_text("{}")
            error = ws.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
        assert error["code"] == "idle" and closed.value.code == 4408


def test_a_stream_flooded_with_messages_is_closed(db) -> None:
    with default_client(db, stream_messages_per_second=0.001) as client:
        made = made_match(client)
        with client.websocket_connect(f"{WS}/api/matches/{made['match']}/events") as ws:
            ws.send_json({"token": made["tokens"]["0"]})
            ws.receive_json()
            for _ in range(int(Limits().stream_messages_burst) + 1):
                ws.send_text("{}")
            error = ws.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
        assert (error["code"], closed.value.code) == ("rate_limited", 4429)
        assert client.app.state.book.streams == 0


@pytest.mark.parametrize("address,client", [
    ("203.0.113.7", "203.0.113.7"), ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"), ("::ffff:203.0.113.7", "203.0.113.7"), ("testclient", "testclient"),
])
def test_clients_are_counted_by_address_and_ipv6_by_network(address, client) -> None:
    from interpreter.server.gate import client_of
    assert client_of({"client": (address, 1234)}) == client


def test_a_stream_must_say_hello_in_time(db) -> None:
    with default_client(db, hello_seconds=0.2) as c:
        made = made_match(c)
        error, close, reason = _ws_refusal(c, f"{WS}/api/matches/{made['match']}/events")
        assert (error["code"], close) == ("no_hello", 4400)


# -- signals ------------------------------------------------------------------------------

def _partner_signals(db: str, tmp_path, **limits: Any) -> TestClient:
    spec = tmp_path / "quiet.yaml"
    spec.write_text("extends: reglamento\nname: quiet\nsignals: {verb: sena, names: [tres], to: partners}\n")
    return TestClient(create_app(db, [str(spec)], settings=Settings(limits=Limits(**limits))), base_url=HOST)


def test_signals_are_rate_limited_per_seat(db, tmp_path) -> None:
    with _partner_signals(db, tmp_path, signals_per_second=0.001) as c:
        made = made_match(c, "quiet", options={"players": 4})
        url = f"/api/matches/{made['match']}/actions"
        burst = int(Limits().signals_burst)
        codes = [c.post(url, headers=auth(made["tokens"]["2"]), json={"action": "sena tres"}).status_code
                 for _ in range(burst + 5)]
        assert codes[:burst] == [200] * burst
        assert set(codes[burst:]) == {429}
        r = c.post(url, headers=auth(made["tokens"]["1"]), json={"action": "sena tres"})
        assert r.status_code == 200                     # another seat's own bucket
        log = c.app.state.book.store.actions(made["match"])
        assert len(log) == burst + 1


def test_a_private_signal_changes_nothing_its_opponents_see(db, tmp_path) -> None:
    """Seats 0 and 2 are partners: seat 2's signal reaches seat 0's stream; seat 1 is sent
    nothing, its view (version included) is unchanged, and seat 0 may still act on the
    version it read before the signal."""
    with _partner_signals(db, tmp_path) as c:
        made = made_match(c, "quiet", options={"players": 4})
        match, tokens = made["match"], made["tokens"]
        url = f"{WS}/api/matches/{match}/events"
        before = views(c, made)
        with c.websocket_connect(url) as partner, c.websocket_connect(url) as opponent:
            partner.send_json({"token": tokens["0"]})
            opponent.send_json({"token": tokens["1"]})
            partner.receive_json()
            opponent.receive_json()
            r = c.post(f"/api/matches/{match}/actions", headers=auth(tokens["2"]), json={"action": "sena tres"})
            assert r.status_code == 200
            message = partner.receive_json()
            assert [e["action"] for e in message["events"]] == ["sena tres"]
            after = views(c, made)
            assert after[1] == before[1] and after[3] == before[3]
            assert after[0]["version"] == before[0]["version"]
            legal = before[0]["observation"]["legal"]
            r = c.post(f"/api/matches/{match}/actions", headers=auth(tokens["0"]),
                       json={"action": legal[0], "version": before[0]["version"]})
            assert r.status_code == 200, r.text
            nxt = opponent.receive_json()                   # the opponent's next message is that move
            assert [e["action"] for e in nxt["events"]] == [legal[0]]


# -- settings -----------------------------------------------------------------------------

def test_limits_are_set_by_name_and_checked() -> None:
    limits = Limits().with_text(["creations_burst=3", "streams_per_seat=2"])
    assert (limits.creations_burst, limits.streams_per_seat) == (3.0, 2)
    assert isinstance(limits.streams_per_seat, int)
    for bad in (["nope=1"], ["creations_burst"], ["creations_burst=0"], ["streams_per_seat=1.5"]):
        with pytest.raises(ValueError):
            Limits().with_text(bad)


def test_truco_serve_refuses_an_unknown_limit(capsys) -> None:
    from interpreter.cli import main
    assert main(["serve", "--limit", "nope=1"]) == 2
    assert "--limit takes NAME=VALUE" in capsys.readouterr().out
