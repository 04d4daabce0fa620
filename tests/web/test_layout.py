"""The board's layout and seed 004's displays in Debian's Chromium, at a laptop's 1280×800, a wide
screen's 1440×900 and a phone's 390×844, for 2, 4 and 6 players: no box over another (the turned card, the trick's
cards, the trick's mark, the seats, the hand), nothing wider than the screen, the finished trick
held with its winning card marked before it is cleared, every display seed 004 names, no
console error, and no serious accessibility violation (axe-core, vendored under
tests/web/vendor, so no network at test time)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.web.conftest import docs_screenshot
from tests.web.test_board import choose, open_match, press, seed_where, synced

from interpreter import load_game

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
  add('#trick-mark:not([hidden])', 'mark');
  add('#seats .seat', 'seat');
  add('#me', 'me');
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


# Every element a player needs now, as a list of what is not inside the viewport (the page
# scrolled to its top: "in view without scrolling").
OUT_OF_VIEW = """(selectors) => {
  const out = [];
  for (const sel of selectors) {
    const el = document.querySelector(sel);
    if (!el || !(el.offsetParent || getComputedStyle(el).position === 'fixed')) { out.push(`${sel}: not shown`); continue; }
    const r = el.getBoundingClientRect();
    const top = r.top + scrollY, bottom = r.bottom + scrollY;
    if (top < 0 || bottom > innerHeight || r.left < 0 || r.right > innerWidth) out.push(`${sel}: ${Math.round(top)}..${Math.round(bottom)} of ${innerHeight}`);
  }
  return out;
}"""


def daring(obs: dict) -> str:
    """A player who opens with a call, answers a call with a raise where one is offered, says
    its points, and plays a card otherwise: the board shows every kind of call bar."""
    legal = obs["legal"]
    answers = ("accept", "decline", "fold", "announce", "good")
    raises = [a for a in legal if a.split()[0] not in ("play", "cover") and a not in answers]
    if obs["pending"] and raises:
        return raises[0]
    for verb in ("accept", "announce", "good"):
        if verb in legal:
            return verb
    if raises and obs["trick"] == 1 and not obs["table"]:
        return raises[min(1, len(raises) - 1)]          # the board's second call: envido
    return next(a for a in legal if a.startswith(("play", "cover"))) if any(
        a.startswith(("play", "cover")) for a in legal) else legal[0]


def whose_turn(obs: dict) -> str:
    """The words of the status line that say whose turn it is, as seat 0 reads them."""
    if obs["count"]:
        return "your turn to speak" if obs["count"]["next"] == 0 else f"Seat {obs['count']['next']}"
    if obs["pending"]:
        return "your turn to answer" if obs["pending"]["answerer"] == 0 else f"Seat {obs['pending']['answerer']}"
    return "Your turn." if obs["to_act"] == 0 else f"Seat {obs['to_act']}"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_action_the_score_and_whose_turn_are_in_view(sized, live_server, size, players) -> None:
    """Issue 35: "Every action a player may take now, the score and whose turn it is are in view
    without scrolling at 390×844, 4 and 6 players included." At every moment seat 0 may act,
    through two whole hands of calls, raises, counts and cards (the English board, flor on: the
    first led by seat 0, the second by a bot that calls on it), each legal action's button, the
    score and the status line naming whose turn it is lie inside the viewport, the page never
    scrolled; when a hand ends, its result and the button that moves on are in view too."""
    options = {"players": players, "flor": True}
    contest_calls = {c for contest in load_game("board", **options).contests for c in contest.calls}

    def asked_a_contest(obs: dict) -> bool:
        return bool(obs["pending"]) and obs["pending"]["call"] in contest_calls
    seed = seed_where("board", options, daring, asked_a_contest)
    page = sized(*SIZES[size])
    match = open_match(page, live_server, "board", seed=seed, **options)
    steps, asked = 0, False
    for hand in (1, 2):
        while match.state.hand_number == hand and not match.state.match_over:
            obs = synced(page, match)
            wanted = [f'[data-action="{a}"]' for a in obs["legal"]] + ["#score", "#status"]
            assert page.evaluate(OUT_OF_VIEW, wanted) == [], (steps, obs["legal"])
            assert page.evaluate("scrollY") == 0
            assert whose_turn(obs) in page.locator("#status").inner_text()
            if steps == 1:
                docs_screenshot(page, f"board-{size}-{players}")
            asked = asked or asked_a_contest(obs)
            press(page, match, daring(obs))
            steps += 1
        moving_on = "#replay" if match.state.match_over else "#next-hand"
        page.wait_for_selector(moving_on)
        assert page.evaluate(OUT_OF_VIEW, ["#result", moving_on, "#score"]) == []
        assert page.locator("#summary h2").inner_text() == f"Hand {hand}"
        if players == 4 and not match.state.match_over:
            docs_screenshot(page, f"hand-over-{size}")
        if match.state.match_over:
            break
        page.click("#next-hand")
    assert steps >= 2 and asked, "never asked to answer a contest's call: its raises were not seen"


def test_a_banner_runs_across_the_table_at_six_on_a_phone(sized, live_server, shots) -> None:
    """Seed 004: "A call lights a banner across the table": the banner lies over the table, from
    one side of it to the other, and nothing else moves for it."""
    page = sized(*SIZES["phone"])
    match = open_match(page, live_server, "board", seed=5, players=6)
    obs = synced(page, match)
    call = next(a for a in obs["legal"] if a in match.game.stake_names)
    press(page, match, call)
    # its layout box, whatever its animation: as wide as the table, and inside it
    across = page.wait_for_function("""() => {
      const b = document.querySelector('#banner'), t = document.querySelector('#table');
      if (b.hidden) return null;
      const top = b.offsetTop - b.offsetHeight / 2, bottom = b.offsetTop + b.offsetHeight / 2;
      return b.offsetParent === t && b.offsetWidth >= t.clientWidth * 0.95 && top >= 0 && bottom <= t.clientHeight;
    }""").json_value()
    assert across
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
    """axe-core finds nothing serious in the lobby (its interpretation choices open), on the
    board in play, and with a hand's result held in view."""
    page = sized(*SIZES[size], bypass_csp=True)
    page.goto(f"{live_server.url}/?fast=1&spec=reglamento")
    page.wait_for_selector('[data-option]', state="attached")
    page.click("#choices-box summary")
    assert axe(page) == []
    match = open_match(page, live_server, "reglamento", seed=4, players=4)
    synced(page, match)
    assert axe(page) == []
    while match.state.hand_number == 1:
        press(page, match, choose(synced(page, match)))
    page.wait_for_selector("#next-hand")
    assert axe(page) == []


def test_no_serious_accessibility_violation_at_the_end_of_a_match(sized, live_server) -> None:
    """The match's result, its replay log shown, checked by axe-core on a phone."""
    page = sized(*SIZES["phone"], bypass_csp=True)
    match = open_match(page, live_server, "vanikar", seed=4, target=5)
    while not synced(page, match)["match_over"]:
        press(page, match, choose(match.state.observation(0)))
    page.click("#replay")
    page.wait_for_selector("#replay-log:not([hidden])")
    assert page.locator("#over-text").is_visible()
    assert axe(page) == []


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_lobby_speaks_words_and_fits_the_phone(sized, live_server, size) -> None:
    """Issue 35: "Option values show raw ids (all_but_last, half_while_malas, false);
    interpretation choices are mixed with table options, explained only in tooltips; on the
    phone the Rules select is cut off." The lobby names every option and value in words (the
    spec's rulebook's), keeps the interpretation choices apart, folded, writes what each option
    does under it, and every control fits the screen, its chosen text whole."""
    page = sized(*SIZES[size])
    page.goto(f"{live_server.url}/?spec=board")
    page.wait_for_selector('[data-option]', state="attached")
    texts = page.locator("#new-match select option").evaluate_all("os => os.map(o => o.textContent)")
    assert texts and not any("_" in t or t in ("true", "false", "True", "False") for t in texts), texts
    table = page.locator("#options [data-option]").evaluate_all("ss => ss.map(s => s.dataset.option)")
    choices = page.locator("#choices [data-option]").evaluate_all("ss => ss.map(s => s.dataset.option)")
    spec = load_game("board").spec
    assert table == [o.name for o in spec.options if o.kind != "interpretation"]
    assert choices == [o.name for o in spec.options if o.kind == "interpretation"]
    assert not page.locator("#choices-box").get_attribute("open")
    assert page.locator('label[for="option-decline_rule"]').text_content() == "A declined envido"
    assert page.locator('[data-option="flor"] option').all_inner_texts() == ["No", "Yes"]
    assert page.locator("#option-players-about").is_visible()             # what it does, under it
    assert page.locator("#option-players").get_attribute("aria-describedby") == "option-players-about"
    docs_screenshot(page, f"lobby-{size}")
    page.click("#choices-box summary")
    assert page.locator("#option-decline_rule-about").inner_text().startswith("What a declined envido chain pays")
    fits = page.evaluate("""() => [...document.querySelectorAll('#new-match select, #new-match input, #deal')].filter((el) => {
      const r = el.getBoundingClientRect();
      if (r.left < 0 || r.right > innerWidth) return true;
      if (el.tagName !== 'SELECT') return false;
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(el).font;
      probe.style.whiteSpace = 'nowrap';
      probe.textContent = el.selectedOptions[0].textContent;
      document.body.append(probe);
      const cut = probe.offsetWidth > el.clientWidth - 24;          // room for the arrow
      probe.remove();
      return cut;
    }).map((el) => el.id)""")
    assert fits == []


def test_the_lobby_speaks_the_players_language(sized, live_server) -> None:
    """Issue 35: "The lobby speaks the player's language." In Spanish (the browser's language,
    or ?lang=es) the lobby's words and the options' words and docs are Spanish, as the spec's
    Spanish rulebook writes them; a doc written only in another language says so (`lang`). The
    table itself speaks English, as seed 004's board does."""
    page = sized(*SIZES["phone"])
    page.goto(f"{live_server.url}/?spec=board&lang=es")
    page.wait_for_selector('[data-option]', state="attached")
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.locator("#lobby-title").inner_text() == "Nueva partida"
    assert page.locator("#deal").inner_text() == "Repartir"
    assert page.locator('label[for="option-players"]').inner_text() == "Jugadores"
    assert page.locator('[data-option="flor"] option').all_inner_texts() == ["No", "Sí"]
    assert page.locator("#option-players-about").get_attribute("lang") is None
    page.select_option("#spec", "paulista")                     # its docs are written in French only
    page.wait_for_selector("#option-three_pardas", state="attached")
    assert page.locator("#option-three_pardas-about").get_attribute("lang") == "fr"
    page.goto(f"{live_server.url}/?spec=paulista&lang=en")
    page.wait_for_selector("#option-three_pardas", state="attached")
    assert page.locator("#lobby-title").inner_text() == "New match"
    assert page.locator("#option-three_pardas-about").get_attribute("lang") == "fr"
