"""The board's layout and seed 004's displays in Debian's Chromium, at a laptop's 1280×800, a wide
screen's 1440×900 and a phone's 390×844, for 2, 4 and 6 players: no box over another (the turned card, the trick's
cards, the banner, the seats, the hand), nothing wider than the screen, the finished trick
held with its winning card marked before it is cleared, every display seed 004 names, no
console error, and no serious accessibility violation (axe-core, vendored under
tests/web/vendor, so no network at test time)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.web.test_board import choose, open_match, press, synced

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SIZES = {"laptop": (1280, 800), "phone": (390, 844), "wide": (1440, 900)}
TABLES = [("teg", {}), ("board", {"players": 4, "flor": True}), ("board", {"players": 6}), ("paulista", {})]

OVERLAPS = """() => {
  const boxes = [];
  const add = (sel, kind) => document.querySelectorAll(sel).forEach((el) => {
    if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') return;
    const r = el.getBoundingClientRect();
    if (r.width && r.height) boxes.push({kind, name: el.id || el.className, r});
  });
  add('#turned:not([hidden])', 'turned');
  add('#trick .played', 'played');
  add('#banner:not([hidden])', 'banner');
  add('#seats .seat', 'seat');
  add('#hand .in-hand', 'hand');
  add('#score', 'score');
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i].r, b = boxes[j].r;
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x > 0.5 && y > 0.5) out.push(`${boxes[i].kind}:${boxes[i].name} × ${boxes[j].kind}:${boxes[j].name}`);
  }
  return out;
}"""


# Counts each finished trick drawn with its winning card marked, however briefly.
WATCH = """
window.__held = 0;
const seen = new Set();
new MutationObserver(() => {
  const trick = document.querySelector('#trick');
  const done = trick && trick.dataset.finished;
  if (!done || seen.has(done) || !trick.querySelector('.played')) return;
  if (!trick.querySelector('.played.winner') && !trick.classList.contains('tie')) return;
  seen.add(done);
  window.__held += 1;
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


@pytest.fixture
def sized(playwright, request):
    """A fresh page of the given size that records page errors and console errors."""
    from tests.web.conftest import ARGS, CHROMIUM
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    pages = []

    def make(width: int, height: int, bypass_csp: bool = False):
        # axe-core is injected as an inline script, which the board's CSP refuses: its scan
        # alone runs with the CSP bypassed
        page = chromium.new_context(viewport={"width": width, "height": height}, bypass_csp=bypass_csp).new_page()
        page.add_init_script(WATCH)
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        page.on("console", lambda msg: msg.type == "error" and page.errors.append(msg.text))
        pages.append(page)
        return page
    yield make
    chromium.close()
    for page in pages:
        assert not page.errors, page.errors


def layout_ok(page, where: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("innerWidth"), f"overflow {where}"
    assert page.evaluate(OVERLAPS) == [], where


def axe(page) -> list:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))")
    return [v for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("spec,options", TABLES, ids=lambda v: v if isinstance(v, str) else str(v.get("players", "")))
def test_no_box_over_another_and_nothing_wider_than_the_screen(sized, live_server, shots, size, spec, options) -> None:
    page = sized(*SIZES[size])
    page.goto(f"{live_server.url}/?fast=1")
    page.wait_for_selector("#deal")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0], "the lobby overflows"
    match = open_match(page, live_server, spec, seed=11, **options)
    name = f"layout-{spec}-{options.get('players', 'default')}-{size}"
    held = False
    hand = match.state.hand_number
    for step in range(60):
        obs = synced(page, match)
        layout_ok(page, f"step {step}")
        if step == 1:
            page.screenshot(path=str(shots / f"{name}.png"))
        if match.state.hand_number > hand or match.state.match_over:
            break
        action = choose(obs)
        tricks = len(match.state.observation(0)["tricks"])
        seen = page.evaluate("window.__held")
        press(page, match, action)
        if len(match.state.observation(0)["tricks"]) > tricks or match.state.hand_number > hand:
            # the trick just finished is drawn, its winning card marked, before it goes
            deadline = time.monotonic() + 5
            while page.evaluate("window.__held") <= seen:
                assert time.monotonic() < deadline, "the finished trick was never drawn with its winner"
                time.sleep(0.02)
            layout_ok(page, f"held trick {step}")
            if not held:
                page.screenshot(path=str(shots / f"{name}-trick.png"))
            held = True
    assert held, "no trick was seen finished"


def test_a_banner_does_not_cover_the_table_at_six_on_a_phone(sized, live_server, shots) -> None:
    page = sized(*SIZES["phone"])
    match = open_match(page, live_server, "board", seed=5, players=6)
    obs = synced(page, match)
    call = next(a for a in obs["legal"] if a in match.game.stake_names)
    press(page, match, call)
    page.wait_for_selector("#banner:not([hidden])")
    layout_ok(page, "banner")
    page.screenshot(path=str(shots / "banner-phone-6.png"))


def _seed_with(game, predicate, players=2) -> int:
    for seed in range(1, 500):
        if predicate(game.new_match(seed=seed).observation(0)):
            return seed
    raise AssertionError("no seed")


def test_seed_004_displays(sized, live_server, shots) -> None:
    """Ranks under the hand, faces printed 8/9/10, English buttons, Points, matchsticks early
    then late with their halves written, a turned card never piled on a played one."""
    from interpreter import load_game
    game = load_game("board", flor=True)
    seed = _seed_with(game, lambda o: any(c[:-1] in ("10", "11", "12") for c in o["hand"]))
    page = sized(*SIZES["phone"])
    match = open_match(page, live_server, "board", seed=seed, flor=True)
    obs = synced(page, match)
    from interpreter.server.catalog import game_info
    order = game_info(match.game)["order"][""]
    assert page.locator("#hand .rank").evaluate_all("rs => rs.map(r => Number(r.dataset.rank))") == \
        [order[c] for c in obs["hand"]]
    printed = {"10": "8", "11": "9", "12": "10"}
    for card in obs["hand"]:
        face = page.locator(f'#hand .face[data-card="{card}"]')
        assert face.locator("text").first.text_content() == printed.get(card[:-1], card[:-1])
        words = page.locator(f'#hand button:has(.face[data-card="{card}"]) .visually-hidden').text_content()
        assert words.startswith(printed.get(card[:-1], card[:-1]) + " of ")
    texts = page.locator("#call-bar button").evaluate_all("bs => bs.map(b => b.textContent)")
    if "falta_envido" in obs["legal"]:
        assert "Match envido" in texts
    if "truco" in obs["legal"]:
        assert "Truco → 2" in texts
    assert not any("Falta" in t or "Flor" in t for t in texts)
    assert page.locator("#points").inner_text().startswith("Points ")
    caps = page.locator('#score .team[data-team="0"] .cap').all_inner_texts()
    assert caps == ["early 1–15", "late 16–30"] and all(page.locator("#score .cap").first.is_visible() for _ in [0])
    page.screenshot(path=str(shots / "seed-004-phone.png"), full_page=True)


def test_announce_says_its_value_and_the_hand_ends_with_a_summary(sized, live_server, shots) -> None:
    page = sized(*SIZES["laptop"])
    match = open_match(page, live_server, "board", seed=3)
    obs = synced(page, match)
    if "envido" not in obs["legal"]:
        pytest.skip("envido not open to seat 0 in this deal")
    press(page, match, "envido")
    for _ in range(10):
        obs = synced(page, match)
        if "announce" in obs["legal"]:
            value = obs["values"]["envido"]
            assert page.locator('#call-bar [data-action="announce"]').text_content() == f"Announce {value}"
            break
        press(page, match, choose(obs))
    hand = match.state.hand_number
    while match.state.hand_number == hand and not match.state.match_over:
        press(page, match, choose(synced(page, match)))
    page.wait_for_selector(f'#summary h2:text-is("Hand {hand}")')
    text = page.locator("#summary").inner_text()
    assert "Tricks:" in text and "Points:" in text and "Envido" in text
    page.screenshot(path=str(shots / "summary.png"), full_page=True)


def test_the_winning_envido_cards_are_shown_when_the_hand_is_over(sized, live_server, shots) -> None:
    """Seed 004: "The cards of the winning envido are shown at the end of the hand ... An accepted
    envido that does not end the match leaves those cards hidden until the hand is over." Seat 0
    calls envido with a high one and folds at its next turn; where the envido was accepted, the
    summary draws the winner's cards, and nothing of them was on the page before."""
    from interpreter import load_game
    game = load_game("board")
    candidates = [s for s in range(1, 400) if (lambda o: "envido" in o["legal"] and o["values"]["envido"] >= 30)(
        game.new_match(seed=s).observation(0))][:6]
    page = sized(*SIZES["laptop"])
    for seed in candidates:
        match = open_match(page, live_server, "board", seed=seed)
        hand = match.state.hand_number
        press(page, match, "envido")
        while match.state.hand_number == hand and not match.state.match_over:
            obs = synced(page, match)
            assert page.locator("#summary li.revealed").count() == 0
            assert " shows " not in page.locator("#log").inner_text() and "You show" not in page.locator("#log").inner_text()
            legal = obs["legal"]
            press(page, match, next((a for a in ("announce", "accept", "fold") if a in legal), legal[0]))
        shown = [e for e in match.state.events if e["type"] == "revealed"]
        if not shown:
            continue                                    # the envido was declined: nothing to show
        page.wait_for_selector(f'#summary h2:text-is("Hand {hand}")')
        drawn = page.locator("#summary li.revealed .face").evaluate_all("fs => fs.map(f => f.dataset.card)")
        assert drawn == shown[-1]["cards"]
        assert page.locator("#summary li.revealed").get_attribute("data-seat") == str(shown[-1]["seat"])
        page.screenshot(path=str(shots / "summary-revealed.png"), full_page=True)
        return
    raise AssertionError(f"no accepted envido in seeds {candidates}")


def test_keyboard_play_keeps_the_focus_and_locks_while_in_flight(sized, live_server) -> None:
    page = sized(*SIZES["laptop"])
    match = open_match(page, live_server, "teg", seed=5)
    synced(page, match)
    before = match.version
    page.keyboard.press("1")                           # the first card in hand
    deadline = time.monotonic() + 10
    while match.version == before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert match.version > before
    synced(page, match)
    inside = page.evaluate("!!document.activeElement.closest('#hand, #call-bar')")
    assert inside, "the focus fell to the page"
    # a double click sends one request: no version error
    obs = synced(page, match)
    action = choose(obs)
    page.locator(f'[data-action="{action}"]').dblclick()
    synced(page, match)
    assert page.locator("#error").inner_text() == ""


def test_fold_asks_again(sized, live_server) -> None:
    page = sized(*SIZES["laptop"])
    match = open_match(page, live_server, "teg", seed=5)
    obs = synced(page, match)
    assert "fold" in obs["legal"]
    before = match.version
    page.click('#call-bar [data-action="fold"]')
    time.sleep(0.3)
    assert match.version == before
    assert "press again" in page.locator('#call-bar [data-action="fold"]').inner_text()
    page.keyboard.press("Escape")
    assert page.locator('#call-bar [data-action="fold"]').inner_text().startswith("Fold")


def test_a_reload_replays_no_banner(sized, live_server) -> None:
    page = sized(*SIZES["laptop"])
    match = open_match(page, live_server, "teg", seed=5)
    obs = synced(page, match)
    press(page, match, choose(obs))
    synced(page, match)
    page.reload()
    page.wait_for_selector("#board[data-version]")
    seen = []
    for _ in range(20):
        if page.locator("#banner").is_visible():
            seen.append(page.locator("#banner").inner_text())
        time.sleep(0.02)
    assert seen == []
    assert page.locator("#log li").count() > 0                 # the log still tells what happened


@pytest.mark.parametrize("size", list(SIZES))
def test_no_serious_accessibility_violation(sized, live_server, size) -> None:
    page = sized(*SIZES[size], bypass_csp=True)
    page.goto(f"{live_server.url}/?fast=1")
    page.wait_for_selector('[data-option]', state="attached")
    assert axe(page) == []
    match = open_match(page, live_server, "reglamento", seed=4, players=4)
    synced(page, match)
    assert axe(page) == []
