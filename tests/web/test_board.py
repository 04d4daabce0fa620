"""The web board in a real browser (Debian's Chromium, driven by Playwright), after seed
004's board: "Your own hand is face up. Everyone else's is face down. The call bar shows only
the calls you can press right now ... each call that is there is at least 44 pixels tall. A
call lights a banner across the table. The trick strip marks each trick Us, Them, or Tie from
where you sit. The score is a row of matchsticks, early then late when the target is 30. Your
own hand prints its envido as Points." — for every bundled spec, through the public API only.
"""
from __future__ import annotations

import json
import time
from typing import Any

import pytest

from rulespec.load import bundled_names, open_spec

CARD_VERBS = ("play", "cover")


def open_match(page, server, spec: str, seed: int, **options: Any):
    """Create a match from the lobby (seat 0, heuristic bots) and return the server's match."""
    page.goto(f"{server.url}/?fast=1&spec={spec}")
    page.wait_for_selector('[data-option]', state="attached")
    for name, value in options.items():
        page.select_option(f'[data-option="{name}"]', value=json.dumps(value))
    page.fill("#seed", str(seed))
    page.click("#deal")
    page.wait_for_selector("#board[data-version]")
    match_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('match')")
    return server.app.state.book.matches[match_id]


def synced(page, match) -> dict:
    """Wait until the page shows the match's current version; the seat's observation then."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if page.get_attribute("#board", "data-version") == str(match.version):
            return match.state.observation(0)
        time.sleep(0.02)
    raise AssertionError("the board did not catch up with the match")


def label(action: str, game=None, obs: dict | None = None) -> str:
    """A button's words: the spec's English display label, a truco call's worth, an
    announcement's value."""
    from interpreter.server.catalog import game_info
    info = game_info(game) if game is not None else {"display": {}, "worths": {}, "contests": []}
    calls = info["display"].get("en", {}).get("calls", {})
    words = action.replace("_", " ")
    name = calls.get(action) or {"accept": "Accept", "decline": "Decline", "fold": "Fold", "announce": "Announce",
                                 "good": "Yours are good"}.get(action, words[:1].upper() + words[1:])
    if action == "announce" and obs and obs["count"]:
        contest = next(c for c in info["contests"] if c["name"] == obs["count"]["contest"])
        if obs["values"].get(contest["value"]) is not None:
            return f"{name} {obs['values'][contest['value']]}"
    if action in info["worths"]:
        return f"{name} → {info['worths'][action]}"
    return name


def press(page, match, action: str) -> None:
    """Press an action's button (Fold twice: it asks again) and wait until the server has it."""
    before = match.version
    page.click(f'[data-action="{action}"]')
    if action == "fold":
        page.click(f'[data-action="{action}"]')
    deadline = time.monotonic() + 10
    while match.version == before and time.monotonic() < deadline:
        time.sleep(0.01)


def check_board(page, match, obs: dict) -> None:
    """Everything the seed's board paragraph asks for, against the seat's observation."""
    calls = [a for a in obs["legal"] if a.split()[0] not in CARD_VERBS]
    bar = page.locator("#call-bar button")
    assert bar.evaluate_all("bs => bs.map(b => b.dataset.action)") == calls
    assert all(h >= 44 for h in bar.evaluate_all("bs => bs.map(b => b.getBoundingClientRect().height)"))
    assert bar.evaluate_all("bs => bs.map(b => b.textContent)") == [label(a, match.game, obs) for a in calls]
    plays = sorted(a for a in obs["legal"] if a.startswith("play "))
    shown = page.locator("#hand button.playable").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert sorted(shown) == plays
    if obs["hand"] is not None:                               # own hand face up
        faces = page.locator("#hand .face").evaluate_all("fs => fs.map(f => f.dataset.card)")
        assert faces == obs["hand"]
    others = sum(n for s, n in enumerate(obs["hand_sizes"]) if s != 0)
    assert page.locator("#seats .back").count() == others     # everyone else's face down
    assert page.locator("#seats .face").count() == 0
    team = obs["team"]
    strip = page.locator("#trick-strip .trick").evaluate_all("ts => ts.map(t => t.dataset.result)")
    expected = ["Tie" if r == "tie" else "Us" if r == team else "Them" for r in obs["tricks"]]
    assert strip[:len(expected)] == expected and all(r == "–" for r in strip[len(expected):])
    for t, points in enumerate(obs["score"]):
        row = page.locator(f'#score .team[data-team="{t}"]')
        assert row.locator(".stick").count() == obs["target"]
        assert row.locator(".stick.lit").count() == min(points, obs["target"])
    contests = match.game.contests
    if contests and obs["values"].get(contests[0].value) is not None:
        assert page.locator("#points").inner_text().startswith(f"Points {obs['values'][contests[0].value]}")
    if obs["turned"]:
        assert page.locator("#turned .face").get_attribute("data-card") == obs["turned"]
    else:
        assert page.locator("#turned").is_hidden()


def choose(obs: dict) -> str:
    """Finish the hand: play a card when one may, else answer, else the first call."""
    legal = obs["legal"]
    for action in legal:
        if action.startswith("play "):
            return action
    for verb in ("accept", "announce", "good"):
        if verb in legal:
            return verb
    return legal[0]


def _specs() -> list[tuple[str, dict]]:
    out = []
    for name in bundled_names():
        players = [o for o in open_spec(name).options if o.name == "players"]
        out.append((name, {}))
        if players and max(players[0].values) > min(players[0].values):
            out.append((name, {"players": max(players[0].values)}))
    return out


@pytest.mark.parametrize("spec,options", _specs(), ids=lambda v: v if isinstance(v, str) else str(v or ""))
def test_a_whole_hand_played_by_clicking(page, live_server, shots, spec, options) -> None:
    match = open_match(page, live_server, spec, seed=11, **options)
    name = f"{spec}-{options.get('players', 'default')}"
    page.screenshot(path=str(shots / f"{name}-deal.png"))
    hand = match.state.hand_number
    for step in range(200):
        obs = synced(page, match)
        if match.state.hand_number > hand or match.state.match_over:
            break
        check_board(page, match, obs)
        action = choose(obs)
        if step == 2:
            page.screenshot(path=str(shots / f"{name}-playing.png"))
        before = match.version
        press(page, match, action)
        deadline = time.monotonic() + 10
        while match.version == before and time.monotonic() < deadline:
            time.sleep(0.01)
    else:
        raise AssertionError("the hand did not end")
    obs = synced(page, match)
    check_board(page, match, obs)
    assert page.locator("#log li").filter(has_text="Hand over").count() >= 1
    page.screenshot(path=str(shots / f"{name}-next-hand.png"))


def test_a_call_lights_the_banner(page, live_server, shots) -> None:
    match = open_match(page, live_server, "teg", seed=5)
    obs = synced(page, match)
    call = next(a for a in obs["legal"] if a in match.game.stake_names)
    page.click(f'#call-bar [data-action="{call}"]')
    banner = page.locator("#banner")
    banner.wait_for(state="visible")
    assert banner.inner_text() == f"You: {label(call)}!"                 # the call's name, not its worth
    width = banner.evaluate("b => b.offsetWidth")              # its layout box, whatever the animation
    assert width >= page.locator("#table").evaluate("t => t.clientWidth") * 0.95     # across the table
    page.screenshot(path=str(shots / "banner.png"))


@pytest.mark.parametrize("target,halves", [(30, ["early", "late"]), (15, [""])])
def test_the_score_is_matchsticks_early_then_late_at_thirty(page, live_server, target, halves) -> None:
    open_match(page, live_server, "board", seed=2, target=target)
    row = page.locator('#score .team[data-team="0"]')
    found = row.locator(".half").evaluate_all("hs => hs.map(h => h.className.replace('half', '').trim())")
    assert found == halves
    per_half = target // len(halves)
    assert row.locator(".half").first.locator(".stick").count() == per_half


def test_a_forged_illegal_request_from_the_page_is_refused_with_the_reason(page, live_server) -> None:
    """The board offers only legal moves; a request forged in the page gets the server's reason."""
    match = open_match(page, live_server, "teg", seed=5)
    synced(page, match)
    before = match.version
    answer = page.evaluate("""async () => {
        const match = new URLSearchParams(location.hash.slice(1)).get('match');
        const seat = JSON.parse(localStorage.getItem(`seat:${match}`));
        const r = await fetch(`/api/matches/${match}/actions`, {method: 'POST',
            headers: {'content-type': 'application/json', authorization: `Bearer ${seat.token}`},
            body: JSON.stringify({action: 'accept'})});
        return [r.status, await r.json()];
    }""")
    assert answer[0] == 409 and answer[1]["error"]["reason"] == "no call is waiting for an answer"
    assert match.version == before


def test_a_card_is_covered_with_the_face_down_toggle(page, live_server, shots) -> None:
    """Where the spec allows covered cards, the board offers them only when they are legal."""
    match = open_match(page, live_server, "paulista", seed=3)
    toggle = page.locator("#face-down")
    for _ in range(60):
        obs = synced(page, match)
        covers = sorted(a for a in obs["legal"] if a.startswith("cover "))
        assert toggle.is_visible() == bool(covers)
        if covers:
            break
        before = match.version
        press(page, match, choose(obs))
        while match.version == before:
            time.sleep(0.01)
    else:
        pytest.skip("no covered card became legal in this deal")
    toggle.click()
    shown = page.locator("#hand button.playable").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert sorted(shown) == covers
    card = covers[0].split()[1]
    page.click(f'[data-action="{covers[0]}"]')
    page.wait_for_selector('#log li:has-text("You: "):has-text("face down")', state="attached")
    assert {"type": "action", "seat": 0, "action": "cover", "card": card, "only": 0} in match.state.events
    page.screenshot(path=str(shots / "paulista-covered.png"))


def test_a_whole_match_ends_with_its_replay_log(page, live_server, shots) -> None:
    match = open_match(page, live_server, "vanikar", seed=4, target=min(open_spec("vanikar").option("target").values))
    for _ in range(400):
        obs = synced(page, match)
        if obs["match_over"]:
            break
        before = match.version
        press(page, match, choose(obs))
        while match.version == before:
            time.sleep(0.01)
    else:
        raise AssertionError("the match did not end")
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("#call-bar button").count() == 0
    page.click("#replay")
    page.wait_for_selector("#replay-log:not([hidden])")
    log = page.locator("#replay-log")
    assert log.get_attribute("data-seed") == "4" and log.get_attribute("data-actions") == str(match.version)
    assert log.locator("ol li").count() == match.version and "Seed" in log.inner_text()
    page.screenshot(path=str(shots / "match-over.png"))


def test_an_invitation_link_seats_a_player_in_another_browser_once(page, live_server, devices) -> None:
    """The creator leaves seat 1 open; its invitation, opened on another device (a browser
    sharing no storage), claims seat 1 there; opened again elsewhere, it is refused; the
    player's seat link then opens seat 1 on a third device."""
    page.goto(f"{live_server.url}/?fast=1&spec=teg")
    page.wait_for_selector('#others [data-seat="1"]', state="attached")
    page.select_option('#others [data-seat="1"]', value="")
    page.click("#deal")
    page.wait_for_selector("#invite-box:not([hidden])")
    link = page.locator("#invitations input").input_value()
    match_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('match')")
    assert link.startswith(live_server.url) and match_id in link
    match = live_server.app.state.book.matches[match_id]
    assert match.claimed == {0}

    guest = devices()
    guest.goto(link)
    guest.wait_for_selector("#board[data-version]")
    assert "code=" not in guest.url
    assert guest.title().endswith("seat 1") and match.claimed == {0, 1}
    page.wait_for_selector("#invite-box", state="hidden")
    seat_link = guest.locator("#seat-link").input_value()

    third = devices()
    third.goto(link)
    third.wait_for_selector("#lobby-error:has-text('claimed already')")
    third.goto(seat_link)
    third.wait_for_selector("#board[data-version]")
    assert third.title().endswith("seat 1")


def _table_of_humans(devices, server, spec: str, seed: int):
    """A four-seat match with no bot, each seat claimed on a device of its own: the match, and
    one page per seat, the board drawn."""
    import urllib.request
    body = json.dumps({"spec": spec, "options": {"players": 4}, "seed": seed, "bots": {}}).encode()
    request = urllib.request.Request(f"{server.url}/api/matches", data=body, method="POST",
                                      headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        made = json.load(answer)
    pages = {}
    for seat, invitation in made["invitations"].items():
        page = devices()
        page.goto(f"{server.url}/?fast=1#match={made['match']}&code={invitation['code']}")
        page.wait_for_selector("#board[data-version]")
        pages[int(seat)] = page
    return server.app.state.book.matches[made["match"]], pages


LOG_LINES = "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"


@pytest.mark.parametrize("spec,opponents_see", [("reglamento", True), ("teg", False)])
def test_a_sena_is_seen_by_whom_the_spec_says(devices, live_server, spec, opponents_see) -> None:
    """Reglamento: "une seña envoyée est visible de toute la table"; teg: "la seña se hace con un
    botón: llega sola al compañero y el rival no la ve". The seat to act sends a seña from its
    board, then plays a card: its partner sees the seña; each opponent sees it, or (the stream
    being in order) sees the card with no seña before it."""
    match, pages = _table_of_humans(devices, live_server, spec, seed=7)
    sender = match.state.current_player()
    partner, opponents = (sender + 2) % 4, [(sender + 1) % 4, (sender + 3) % 4]
    board = pages[sender]
    assert board.locator("#signal-to").inner_text() == \
        ("Seen by the whole table." if opponents_see else "Seen by your partners only.")
    name = match.game.signals.names[0]
    board.select_option("#signal", name)
    board.click("#signal-send")
    said = f"signals {name.replace('_', ' ')}"
    pages[partner].wait_for_function(f"() => document.querySelector('#log').textContent.includes({said!r})")
    board.locator("#hand button.playable").first.click()
    for seat in opponents:
        page = pages[seat]
        page.wait_for_function(f"() => [...document.querySelectorAll('#log li')].some((li) => "
                               f"li.textContent.startsWith('Seat {sender}: ') && !li.textContent.includes('signals'))")
        lines = page.evaluate(LOG_LINES)
        assert any(said in line for line in lines) == opponents_see, (seat, lines)
    assert any(said in line for line in pages[sender].evaluate(LOG_LINES))


def test_the_pico_a_pico_shows_the_facing_pair_and_who_sits_out(page, live_server, shots) -> None:
    """uruguayo at six players: a redondilla, then each seat against the seat facing it ("Reglamento
    Oficial del Truco": 'jugando individualmente cada jugador con su contrario, sentado en lugar
    opuesto'). In the human's duel the four others sit out, greyed and tagged, the opponent across
    the table is tagged as facing, the status names the pair, and the seat to act is one of the
    two; the log names the pair of every duel, and the duels the human sits out say so."""
    match = open_match(page, live_server, "uruguayo", seed=11, players=6)
    own_duels = 0
    for _ in range(300):
        obs = synced(page, match)
        if obs["match_over"] or obs["hand_number"] > 4:
            break
        if len(obs["playing"]) == 2:
            own_duels += 1
            assert 0 in obs["playing"]                     # the page rests only where seat 0 acts
            facing = next(s for s in obs["playing"] if s != 0)
            assert facing == 3
            check_board(page, match, obs)
            out = page.locator("#seats .seat.sits-out").evaluate_all("els => els.map(e => e.dataset.seat)")
            assert sorted(out) == ["1", "2", "4", "5"]
            across = page.locator(f'#seats .seat[data-seat="{facing}"]')
            assert "faces you" in across.locator(".tags").inner_text()
            assert "pos-6-3" in across.get_attribute("class")          # across the table
            acting = page.locator("#seats .seat.to-act").evaluate_all("els => els.map(e => e.dataset.seat)")
            assert acting == ([] if obs["to_act"] == 0 else [str(obs["to_act"])])
            assert page.locator("#status").inner_text().startswith("Pico a pico: You against Seat 3.")
            if own_duels == 1:
                page.screenshot(path=str(shots / "uruguayo-6-pico.png"))
        press(page, match, choose(obs))
    lines = page.evaluate(LOG_LINES)
    duels = [line for line in lines if "Pico a pico:" in line]
    assert own_duels and len(duels) == 3, lines
    assert sum("you sit this hand out" in line for line in duels) == 2
    assert any(line.endswith("Pico a pico: You against Seat 3") for line in duels)
