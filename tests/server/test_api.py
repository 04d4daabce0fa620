"""The match server's API: specs, creation, a seat's view, legal actions, acting, the event
stream, the replay log and the OpenAPI document (docs/api.md, "The HTTP API")."""
from __future__ import annotations

import random

from starlette.routing import Mount, Route, WebSocketRoute

from rulespec.load import bundled_names, open_spec
from tests.server.helpers import auth, create, replay_log

from interpreter import load_game
from interpreter.server.openapi import document


def test_specs_lists_every_bundled_spec_with_its_options_and_the_bots(client) -> None:
    body = client.get("/api/specs").json()
    by_name = {s["name"]: s for s in body["specs"]}
    assert set(by_name) == set(bundled_names())
    for name in bundled_names():
        assert [o["name"] for o in by_name[name]["options"]] == [o.name for o in open_spec(name).options]
    assert set(body["bots"]) == {"random", "heuristic", "ismcts"}


def test_specs_name_their_options_in_the_asked_language(client) -> None:
    """The lobby's words (issue 35): each option and value in words, as the spec's rulebook in
    that language names them, and its doc in that language, else in its own, saying which."""
    def options(lang: str, spec: str) -> dict:
        body = client.get(f"/api/specs?lang={lang}").json()
        return {o["name"]: o for o in next(s for s in body["specs"] if s["name"] == spec)["options"]}
    english, spanish = options("en", "board"), options("es", "board")
    assert english["decline_rule"]["label"] == "a declined envido"
    assert english["decline_rule"]["words"] == ["every call but the last", "the accepted calls plus one"]
    assert english["flor"]["words"] == ["no", "yes"] and spanish["flor"]["words"] == ["no", "sí"]
    assert spanish["players"]["label"] == "jugadores"
    assert spanish["players"]["about"] == {"text": "Jugadores en la mesa; los compañeros se sientan alternados.",
                                           "lang": "es"}
    assert english["players"]["doc"] == spanish["players"]["doc"]          # the spec's own, whatever the language
    assert options("en", "paulista")["three_pardas"]["about"]["lang"] == "fr"    # written in French only
    assert client.get("/api/specs").json() == client.get("/api/specs?lang=en").json()
    r = client.get("/api/specs?lang=xx")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_language"


def test_creation_gives_one_token_per_human_seat_and_describes_the_game(client) -> None:
    made = create(client, options={"players": 4}, bots={"1": "random", "3": "heuristic"})
    assert set(made["tokens"]) == {"0", "2"}
    assert len(set(made["tokens"].values())) == 2
    assert [s["bot"] for s in made["seats"]] == [None, "random", None, "heuristic"]
    game = made["game"]
    assert game["players"] == 4 and game["team_of"] == [0, 1, 0, 1]
    assert game["actions"] == list(load_game("teg", players=4).actions)
    assert game["raise_by"] == "accepting_team"


def test_a_seat_sees_its_own_hand_and_legal_actions(client) -> None:
    made = create(client, seed=3)
    st = load_game("teg").new_match(seed=3)
    for seat, token in made["tokens"].items():
        view = client.get(f"/api/matches/{made['match']}/view", headers=auth(token)).json()
        assert view["seat"] == int(seat)
        assert view["observation"] == st.observation(int(seat))
        legal = client.get(f"/api/matches/{made['match']}/legal", headers=auth(token)).json()
        assert legal["legal"] == st.legal_actions(int(seat))
        assert legal["ids"] == st.legal_action_ids(int(seat))


def test_an_action_by_string_or_id_is_applied_and_the_bots_answer_at_once(client) -> None:
    made = create(client, seed=11, bots={"1": "heuristic"})
    match, token = made["match"], made["tokens"]["0"]
    game = load_game("teg")
    legal = client.get(f"/api/matches/{match}/legal", headers=auth(token)).json()
    action = next(a for a in legal["legal"] if a.startswith("play "))
    r = client.post(f"/api/matches/{match}/actions", headers=auth(token),
                    json={"action": game.action_index[action], "version": legal["version"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["applied"] == action
    assert body["version"] >= 2                         # the heuristic bot at seat 1 answered
    assert body["observation"]["to_act"] in (0, None) or body["observation"]["hand_number"] > 1


def test_bots_that_lead_act_before_creation_returns(client) -> None:
    made = create(client, seed=5, bots={"0": "random"})     # seat 0 is the mano and a bot
    assert made["version"] >= 1
    view = client.get(f"/api/matches/{made['match']}/view", headers=auth(made["tokens"]["1"])).json()
    assert view["observation"]["to_act"] == 1


def _play_to_the_end(client, made, rng) -> int:
    """Every human seat plays random legal actions through the API until the match ends."""
    tokens = {int(s): t for s, t in made["tokens"].items()}
    match = made["match"]
    for _ in range(5000):
        view = client.get(f"/api/matches/{match}/view", headers=auth(tokens[min(tokens)])).json()
        obs = view["observation"]
        if obs["match_over"]:
            return view["version"]
        seat = obs["to_act"]
        legal = client.get(f"/api/matches/{match}/legal", headers=auth(tokens[seat])).json()["legal"]
        r = client.post(f"/api/matches/{match}/actions", headers=auth(tokens[seat]), json={"action": rng.choice(legal)})
        assert r.status_code == 200, r.text
    raise AssertionError("the match did not end")


def test_the_server_deals_each_next_hand_and_the_log_replays_the_match(client) -> None:
    made = create(client, spec="teg", options={"target": 15}, seed=21, bots={"1": "heuristic"})
    version = _play_to_the_end(client, made, random.Random(1))
    token = made["tokens"]["0"]
    log = client.get(f"/api/matches/{made['match']}/log", headers=auth(token)).json()
    assert len(log["actions"]) == version and log["seed"] == "21"
    st = replay_log(log)
    assert st.match_over and st.score == log["score"] and st.winner == log["winner"]
    assert st.events == log["events"]
    assert st.hand_number > 1


def test_the_event_stream_sends_the_seats_events_and_view_after_every_change(client) -> None:
    made = create(client, seed=4)
    match, t0, t1 = made["match"], made["tokens"]["0"], made["tokens"]["1"]
    with client.websocket_connect(f"/api/matches/{match}/events") as ws:
        ws.send_json({"token": t1, "since": 0})
        first = ws.receive_json()
        assert first["seq"] == 0 and first["view"]["seat"] == 1
        assert [e["type"] for e in first["events"]] == ["deal", "hand"]
        legal = client.get(f"/api/matches/{match}/legal", headers=auth(t0)).json()["legal"]
        client.post(f"/api/matches/{match}/actions", headers=auth(t0), json={"action": legal[0]})
        second = ws.receive_json()
        assert second["seq"] == 2
        assert second["events"] == [{"type": "action", "seat": 0, "action": legal[0]}]
        assert second["view"]["version"] == 1


def test_the_event_stream_resumes_from_since(client) -> None:
    made = create(client, seed=4)
    with client.websocket_connect(f"/api/matches/{made['match']}/events") as ws:
        ws.send_json({"token": made["tokens"]["0"], "since": 1})
        assert [e["type"] for e in ws.receive_json()["events"]] == ["hand"]


def test_the_openapi_document_describes_every_route(client) -> None:
    doc = client.get("/api/openapi.json").json()
    assert doc == document(sorted(bundled_names()), ["random", "heuristic", "ismcts"]) and doc["openapi"].startswith("3.")
    assert doc["components"]["schemas"]["NewMatch"]["properties"]["spec"]["enum"] == sorted(bundled_names())
    api = next(r for r in client.app.routes if isinstance(r, Mount) and r.path == "/api")
    routed = {api.path + r.path for r in api.routes if isinstance(r, Route)}
    assert routed == set(doc["paths"])
    sockets = [api.path + r.path for r in api.routes if isinstance(r, WebSocketRoute)]
    assert sockets
    assert all(path in doc["info"]["description"] for path in sockets)
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op["operationId"] and op["responses"], (path, method)
            for response in op["responses"].values():
                for media in response.get("content", {}).values():
                    _resolve_refs(doc, media["schema"])


def _resolve_refs(doc: dict, node: object) -> None:
    """Every $ref points at a schema that exists."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            assert name in doc["components"]["schemas"], node["$ref"]
        for v in node.values():
            _resolve_refs(doc, v)
    elif isinstance(node, list):
        for v in node:
            _resolve_refs(doc, v)


def test_the_web_board_is_served(client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "board.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/board.js").status_code == 200
    assert client.get("/board.css").status_code == 200


# A 62-bit seed that JavaScript's numbers would round (to 3981846529301733000): issue 35.
BIG_SEED = 3981846529301733009
EXACT = (1 << 53) - 1                                   # the largest integer JSON.parse reads exactly


def _integers(node) -> list[int]:
    """Every integer anywhere in a JSON value."""
    if isinstance(node, bool):
        return []
    if isinstance(node, int):
        return [node]
    if isinstance(node, dict):
        return [n for v in node.values() for n in _integers(v)]
    if isinstance(node, list):
        return [n for v in node for n in _integers(v)]
    return []


def test_no_answer_holds_an_integer_a_browser_would_round_and_the_seed_comes_back_exact(client) -> None:
    """The seed is sent as its decimal digits (a browser cannot send it as a number) and the
    replay log gives it back as digits; no answer of the whole match, nor any message of its
    stream, holds an integer past 2**53 - 1, and the digits hash to the commitment."""
    import hashlib
    made = client.post("/api/matches", json={"spec": "teg", "options": {"target": 15}, "seed": str(BIG_SEED),
                                              "bots": {"1": "heuristic"}}).json()
    answers = [made]
    url = f"/api/matches/{made['match']}"
    mine = client.post(url + "/claim", json={"code": made["invitations"]["0"]["code"]}).json()
    me = auth(mine["token"])
    answers += [mine, client.get(url, headers=me).json()]
    body = client.get(url + "/view", headers=me).json()
    while not body["observation"]["match_over"]:
        answers += [body, client.get(url + "/legal", headers=me).json()]
        body = client.post(url + "/actions", headers=me, json={"action": body["observation"]["legal"][0]}).json()
    with client.websocket_connect(url + "/events") as ws:
        ws.send_json({"token": mine["token"], "since": 0})
        answers.append(ws.receive_json())
    log = client.get(url + "/log", headers=me).json()
    answers.append(log)
    assert all(abs(n) <= EXACT for answer in answers for n in _integers(answer))
    assert log["seed"] == str(BIG_SEED)
    assert hashlib.sha256(f"{log['seed']}:{log['salt']}".encode()).hexdigest() == made["commitment"]
    assert replay_log(log).events == log["events"]
    # a client whose numbers are exact (Python's) may still send the seed as a number
    same = client.post("/api/matches", json={"spec": "teg", "options": {"target": 15}, "seed": BIG_SEED}).json()
    assert same["game"] == made["game"] and "error" not in same
