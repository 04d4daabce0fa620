"""Seat security: a token sees only its own seat's cards and acts only for its seat; hidden
cards never reach another seat through any endpoint or event before the rules reveal them.

These tests try to cheat: no token, a wrong token, another match's token, another seat's
token, guessed match ids, and reading other seats' hands through every endpoint.
"""
from __future__ import annotations

import random
import secrets

import pytest

from rulespec.load import bundled_names, open_spec
from tests.server.helpers import Knowledge, auth, create

from interpreter import load_game

ENDPOINTS = ["", "/view", "/legal", "/log"]


@pytest.mark.parametrize("suffix", ENDPOINTS)
def test_no_token_or_a_wrong_token_is_refused_everywhere(client, suffix) -> None:
    made = create(client)
    url = f"/api/matches/{made['match']}{suffix}"
    for headers in ({}, {"authorization": "Basic abc"}, auth(""), auth(secrets.token_urlsafe(24)),
                    auth(made["tokens"]["0"] + "x")):
        r = client.get(url, headers=headers)
        assert r.status_code == 401, (headers, r.text)
        assert r.json()["error"]["code"] in ("missing_token", "bad_token")
    r = client.post(f"/api/matches/{made['match']}/actions", headers=auth("nope"), json={"action": "fold"})
    assert r.status_code == 401


@pytest.mark.parametrize("suffix", ENDPOINTS + ["/actions"])
def test_a_token_of_another_match_is_forbidden(client, suffix) -> None:
    a, b = create(client, seed=1), create(client, seed=2)
    if suffix == "/actions":
        r = client.post(f"/api/matches/{b['match']}/actions", headers=auth(a["tokens"]["0"]), json={"action": "fold"})
    else:
        r = client.get(f"/api/matches/{b['match']}{suffix}", headers=auth(a["tokens"]["0"]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "wrong_match"


def test_guessed_match_ids_are_unknown(client) -> None:
    made = create(client)
    token = made["tokens"]["0"]
    rng = random.Random(3)
    for guess in [made["match"][:-1], made["match"].upper(), "1", "..", "%2e%2e"] + \
            ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(12)) for _ in range(20)]:
        for suffix in ENDPOINTS:
            r = client.get(f"/api/matches/{guess}{suffix}", headers=auth(token))
            assert r.status_code == 404, (guess, suffix, r.status_code)


def test_a_seat_acts_only_for_itself(client) -> None:
    """Seat 1's token sending seat 0's legal action acts as seat 1: refused, nothing changes (but
    for what seat 1 may do itself out of turn: teg's fold, 'en cualquier momento')."""
    made = create(client, seed=9)
    match, t0, t1 = made["match"], made["tokens"]["0"], made["tokens"]["1"]
    before = client.get(f"/api/matches/{match}/view", headers=auth(t0)).json()
    own = client.get(f"/api/matches/{match}/view", headers=auth(t1)).json()["observation"]["legal"]
    assert before["observation"]["to_act"] == 0 and own == ["fold"]
    for action in set(before["observation"]["legal"]) - set(own):
        r = client.post(f"/api/matches/{match}/actions", headers=auth(t1), json={"action": action})
        assert r.status_code == 409, action
        assert r.json()["error"]["code"] == "illegal_action"
        assert r.json()["error"]["reason"]
    for field in ({"seat": 0}, {"as": 0}):
        r = client.post(f"/api/matches/{match}/actions", headers=auth(t1), json={"action": "fold", **field})
        assert r.status_code == 400
    assert client.get(f"/api/matches/{match}/view", headers=auth(t0)).json() == before


def test_the_log_and_the_seed_are_withheld_until_the_match_is_over(client) -> None:
    made = create(client, seed=123456789)
    for token in made["tokens"].values():
        r = client.get(f"/api/matches/{made['match']}/log", headers=auth(token))
        assert r.status_code == 409
        for url in ("", "/view", "/legal"):
            assert "123456789" not in client.get(f"/api/matches/{made['match']}{url}", headers=auth(token)).text
    assert "123456789" not in str(made)


def _leak_cases() -> list[tuple[str, dict]]:
    cases = []
    for name in bundled_names():
        players = open_spec(name).option("players").values if any(
            o.name == "players" for o in open_spec(name).options) else (2,)
        for n in sorted({min(players), max(players)}):
            options = {"players": n}
            if any(o.name == "target" for o in open_spec(name).options):
                options["target"] = min(open_spec(name).option("target").values)
            cases.append((name, options))
    return cases


@pytest.mark.parametrize("spec,options", _leak_cases(), ids=lambda v: str(v))
def test_no_response_or_event_shows_a_seat_a_card_it_may_not_know(client, spec, options) -> None:
    """A whole match of human seats, each trying to read and play others' cards at every step;
    every response and every streamed event is checked against what that seat may know then."""
    game = load_game(spec, options)
    made = create(client, spec=spec, options=options, seed=17)
    match = made["match"]
    tokens = {int(s): t for s, t in made["tokens"].items()}
    rng = random.Random(5)
    seen: list[tuple[int, int, object, str]] = []        # (seat, version, payload, what the seat sent)
    sockets = {}
    ctx = []
    for seat, token in tokens.items():
        cm = client.websocket_connect(f"/api/matches/{match}/events")
        ws = cm.__enter__()
        ctx.append(cm)
        ws.send_json({"token": token, "since": 0})
        sockets[seat] = ws
    try:
        for _ in range(3000):
            for seat, token in tokens.items():
                for url in ("", "/view", "/legal"):
                    body = client.get(f"/api/matches/{match}{url}", headers=auth(token)).json()
                    seen.append((seat, body["version"], body, ""))
            view = client.get(f"/api/matches/{match}/view", headers=auth(tokens[0])).json()
            if view["observation"]["match_over"]:
                break
            version, to_act = view["version"], view["observation"]["to_act"]
            for seat, token in tokens.items():                      # cheating attempts
                card = rng.choice(game.cards.ids)
                for attempt in (f"play {card}", f"cover {card}", "accept", "fold"):
                    r = client.post(f"/api/matches/{match}/actions", headers=auth(token),
                                    json={"action": attempt, "version": version})
                    if r.status_code == 200:                        # a legal move by luck: keep going
                        version = r.json()["version"]
                        seen.append((seat, version, r.json(), attempt))
                        break
                    seen.append((seat, version, r.json(), attempt))
            view = client.get(f"/api/matches/{match}/view", headers=auth(tokens[0])).json()
            if view["observation"]["match_over"]:
                break
            to_act = view["observation"]["to_act"]
            legal = client.get(f"/api/matches/{match}/legal", headers=auth(tokens[to_act])).json()["legal"]
            action = rng.choice(legal)
            r = client.post(f"/api/matches/{match}/actions", headers=auth(tokens[to_act]), json={"action": action})
            assert r.status_code == 200, r.text
            seen.append((to_act, r.json()["version"], r.json(), action))
        else:
            raise AssertionError("the match did not end")
        for seat, ws in sockets.items():
            while True:
                message = ws.receive_json()
                seen.append((seat, message["view"]["version"], message, ""))
                if message["view"]["observation"]["match_over"]:
                    break
    finally:
        for cm in ctx:
            cm.__exit__(None, None, None)
    log = client.get(f"/api/matches/{match}/log", headers=auth(tokens[0])).json()
    knowledge = Knowledge(log)
    for seat, version, payload, sent in seen:
        leaked = knowledge.leaks(seat, version, payload, sent)
        assert not leaked, f"seat {seat} was shown {sorted(leaked)} at version {version}: {payload}"
    hands = [e for e in log["events"] if e["type"] == "hand"]
    streamed_hands = [(seat, e) for seat, _, p, _ in seen if "events" in p and isinstance(p["events"], list)
                      for e in p["events"] if e["type"] == "hand"]
    assert hands and all(e["seat"] == seat for seat, e in streamed_hands)


def test_the_leak_scanner_finds_a_planted_card(client) -> None:
    """The check above is not vacuous: another seat's unplayed card in a payload is caught."""
    made = create(client, seed=17, bots={"1": "random"})
    match, token = made["match"], made["tokens"]["0"]
    r = client.post(f"/api/matches/{match}/actions", headers=auth(token), json={"action": "fold"})
    while not r.json()["observation"]["match_over"]:
        r = client.post(f"/api/matches/{match}/actions", headers=auth(token),
                        json={"action": r.json()["observation"]["legal"][-1]})
    log = client.get(f"/api/matches/{match}/log", headers=auth(token)).json()
    knowledge = Knowledge(log)
    other = next(e["cards"] for e in log["events"] if e["type"] == "hand" and e["seat"] == 1)
    own = next(e["cards"] for e in log["events"] if e["type"] == "hand" and e["seat"] == 0)
    assert knowledge.leaks(0, 0, {"x": f"seat 1 holds {other[0]}"}) == {other[0]}
    assert knowledge.leaks(0, 0, {"x": own}) == set()
