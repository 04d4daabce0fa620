"""Bad input answers 4xx with a JSON error naming the reason, and leaves the match unchanged;
two clients acting on one match at once are served one after the other."""
from __future__ import annotations

import asyncio

import httpx2
import pytest

from tests.server.helpers import TEST_SETTINGS, auth, create

from interpreter.server.app import create_app
from interpreter.server.matches import MatchBook


def _snapshot(client, made) -> list[dict]:
    return [client.get(f"/api/matches/{made['match']}/view", headers=auth(t)).json() for t in made["tokens"].values()]


@pytest.mark.parametrize("body,code", [
    (b"{not json", "malformed_json"),
    (b"", "bad_body"),
    (b"[1, 2]", "bad_body"),
    (b'"fold"', "bad_body"),
    (b"{}", "bad_body"),
    (b'{"action": null}', "bad_body"),
    (b'{"action": true}', "bad_body"),
    (b'{"action": ["fold"]}', "bad_body"),
    (b'{"action": "fold", "extra": 1}', "bad_body"),
    (b'{"action": "fold", "version": "1"}', "bad_body"),
])
def test_malformed_action_bodies_are_refused_and_change_nothing(client, body, code) -> None:
    made = create(client)
    before = _snapshot(client, made)
    r = client.post(f"/api/matches/{made['match']}/actions", content=body,
                    headers={**auth(made["tokens"]["0"]), "content-type": "application/json"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == code and error["message"] and error["status"] == 400
    assert _snapshot(client, made) == before


@pytest.mark.parametrize("body,code", [
    ({}, "bad_body"),
    ({"spec": "nope"}, "unknown_spec"),
    ({"spec": "../../etc/passwd"}, "unknown_spec"),
    ({"spec": "teg", "options": {"players": 5}}, "bad_option"),
    ({"spec": "teg", "options": {"colour": "red"}}, "bad_option"),
    ({"spec": "teg", "bots": {"1": "genius"}}, "unknown_bot"),
    ({"spec": "teg", "bots": {"7": "random"}}, "bad_seat"),
    ({"spec": "teg", "bots": {"one": "random"}}, "bad_body"),
    ({"spec": "teg", "bots": {"0": "random", "1": "random"}}, "no_human"),
    ({"spec": "teg", "seed": -1}, "bad_body"),
    ({"spec": "teg", "seed": 1.5}, "bad_body"),
    ({"spec": "teg", "seed": True}, "bad_body"),
    ({"spec": "teg", "seed": "-1"}, "bad_body"),
    ({"spec": "teg", "seed": "07"}, "bad_body"),
    ({"spec": "teg", "seed": "1e3"}, "bad_body"),
    ({"spec": "teg", "seed": " 5"}, "bad_body"),
    ({"spec": "teg", "seed": "\u0661"}, "bad_body"),
    ({"spec": "teg", "seed": str(1 << 62)}, "bad_body"),
    ({"spec": "teg", "seed": "9" * 30}, "bad_body"),
])
def test_bad_creations_are_refused_with_the_reason(client, body, code) -> None:
    r = client.post("/api/matches", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == code


def test_an_unknown_match_or_route_is_a_json_404(client) -> None:
    made = create(client)
    r = client.post("/api/matches/nothing/actions", headers=auth(made["tokens"]["0"]), json={"action": "fold"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match"
    r = client.get("/api/nowhere")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = client.delete(f"/api/matches/{made['match']}/view")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


def test_an_illegal_action_names_the_reason_and_changes_nothing(client) -> None:
    made = create(client, seed=3)
    before = _snapshot(client, made)
    token = made["tokens"]["0"]
    for action, words in (("retruco", "ladder"), ("accept", "no call is waiting"), ("announce", "no count"),
                          ("play 9z", "not a card"), ("dance", "unknown verb"), (999, "no action has the id")):
        r = client.post(f"/api/matches/{made['match']}/actions", headers=auth(token), json={"action": action})
        assert r.status_code == 409, action
        error = r.json()["error"]
        assert error["code"] == "illegal_action" and words in error["reason"], error
        assert "detail" in error and "[" not in error["reason"], error
    assert _snapshot(client, made) == before


def test_a_refusal_by_a_rule_gives_the_formula_in_its_detail_only(client) -> None:
    """The rule's sentence is what a player reads (`reason`); its DSL text is for the designer
    (`detail`): teg's envido once the first trick is over."""
    made = create(client, seed=3)
    url, tokens = f"/api/matches/{made['match']}", made["tokens"]
    for _ in range(2):                       # the first trick: each seat plays a card
        seat = client.get(f"{url}/view", headers=auth(tokens["0"])).json()["observation"]["to_act"]
        view = client.get(f"{url}/view", headers=auth(tokens[str(seat)])).json()["observation"]
        card = next(a for a in view["legal"] if a.startswith("play "))
        assert client.post(f"{url}/actions", headers=auth(tokens[str(seat)]), json={"action": card}).status_code == 200
    seat = client.get(f"{url}/view", headers=auth(tokens["0"])).json()["observation"]["to_act"]
    r = client.post(f"{url}/actions", headers=auth(tokens[str(seat)]), json={"action": "envido"})
    error = r.json()["error"]
    assert r.status_code == 409 and error["code"] == "illegal_action", error
    assert "the first trick is over" in error["reason"] and "[" not in error["reason"], error
    assert error["detail"].endswith("[trick == 1 and not played and stake_level == 0]"), error


def test_an_action_out_of_turn_names_whose_turn_it_is(client) -> None:
    made = create(client, seed=3)
    before = _snapshot(client, made)
    view = before[1]
    r = client.post(f"/api/matches/{made['match']}/actions", headers=auth(made["tokens"]["1"]),
                    json={"action": "truco"})
    assert r.status_code == 409
    assert f"seat {view['observation']['to_act']}'s turn" in r.json()["error"]["reason"]
    assert _snapshot(client, made) == before


def test_a_stale_version_is_refused(client) -> None:
    made = create(client, seed=3)
    token = made["tokens"]["0"]
    r = client.post(f"/api/matches/{made['match']}/actions", headers=auth(token), json={"action": "fold", "version": 5})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    assert r.json()["error"]["version"] == 0


def test_a_finished_match_refuses_actions(client) -> None:
    made = create(client, options={"target": 15}, seed=3, bots={"1": "heuristic"})
    token, match = made["tokens"]["0"], made["match"]
    body = client.get(f"/api/matches/{match}/view", headers=auth(token)).json()
    while not body["observation"]["match_over"]:
        body = client.post(f"/api/matches/{match}/actions", headers=auth(token),
                           json={"action": body["observation"]["legal"][-1]}).json()
    r = client.post(f"/api/matches/{match}/actions", headers=auth(token), json={"action": "fold"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "match_over"


def test_websocket_hello_errors_close_the_socket_with_the_reason(client) -> None:
    made = create(client)
    for hello, code in (("not json", "malformed_json"), ('{"since": 0}', "bad_body"),
                        ('{"token": "x"}', "bad_token"), ('{{"token": "{}", "since": -1}}'.format(made["tokens"]["0"]), "bad_body")):
        with client.websocket_connect(f"/api/matches/{made['match']}/events") as ws:
            ws.send_text(hello)
            assert ws.receive_json()["error"]["code"] == code


def test_two_clients_acting_at_once_are_served_one_after_the_other(db) -> None:
    """Both seats fire many actions concurrently, each naming the version it saw: exactly one
    action is applied per version, the others are refused, and the match stays consistent."""
    async def scenario() -> None:
        app = create_app(db, settings=TEST_SETTINGS)
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://localhost") as http:
            made = (await http.post("/api/matches", json={"spec": "teg", "seed": 8})).json()
            for seat, invitation in made["invitations"].items():
                r = await http.post(f"/api/matches/{made['match']}/claim", json={"code": invitation["code"]})
                made.setdefault("tokens", {})[seat] = r.json()["token"]
            match = made["match"]
            tokens = made["tokens"]
            for _ in range(6):
                views = [(await http.get(f"/api/matches/{match}/view", headers=auth(t))).json() for t in tokens.values()]
                version = views[0]["version"]
                tries = [(t, a) for t, v in zip(tokens.values(), views, strict=False) for a in v["observation"]["legal"]
                         if a != "fold"] * 3
                if not tries:
                    break
                results = await asyncio.gather(*(
                    http.post(f"/api/matches/{match}/actions", headers=auth(t), json={"action": a, "version": version})
                    for t, a in tries))
                ok = [r for r in results if r.status_code == 200]
                assert len(ok) == 1, [r.text for r in results]
                assert all(r.status_code == 409 for r in results if r.status_code != 200)
                assert ok[0].json()["version"] == version + 1
            book = app.state.book
            live = await book.get(match)
            assert len(book.store.actions(match)) == live.version >= 6
            replayed = await MatchBook(book.store, book.catalog).get(match)     # rebuilt from the store alone
            assert replayed.state == live.state

    asyncio.run(scenario())
