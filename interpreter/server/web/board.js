const { SUITS, faceSvg, suitMark } = window.cardArt;   // the card artwork, loaded before this module
// The web board: any spec's match, seen from one seat, driven only by the public API.
// Nothing here knows a variant: calls, cards and values come from the server's game
// description and the seat's view.

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const PACE = params.has("fast") ? 0.12 : 1;   // ?fast=1 (tests) plays the events quicker
const STEP_MS = 450;                         // each card or call shown in turn
const BANNER_MS = 1100;                      // a banner, while the playback waits on it
const HOLD_MS = 1000;                        // a finished trick stays on the table, its winner marked
const BACKLOG = 12;                          // past this many events waiting, play them fast
const BOX = 5;                               // matchsticks are drawn in boxes of five
const KEEPALIVE_MS = 60000;                  // the server closes streams silent for longer
const INVITED = "";                          // the value of a seat left open for an invited player
const ANSWERS = { accept: "Accept", decline: "Decline", fold: "Fold", announce: "Announce", good: "Yours are good" };
const KEYS = { accept: "a", decline: "d", fold: "f", announce: "n", good: "g" };

const board = {
  match: null, seat: null, token: null, game: null, view: null, socket: null,
  queue: [], playing: false, busy: false, latest: null,
  shown: { cards: [], done: false, win: null },       // the trick drawn on the table
  hand: null,                                          // what the hand in play has told this seat
  formats: {},                                         // hand number → its schedule format's name
  foldArmed: false,
};

// -- talking to the server ---------------------------------------------------------------

async function api(path, options = {}) {
  const headers = { "content-type": "application/json" };
  if (board.token) headers.authorization = `Bearer ${board.token}`;
  const response = await fetch(`/api/${path}`, { ...options, headers });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? body.error.message : response.statusText);
  return body;
}

// A seat's token is kept in this browser (every tab); the seat link carries it to another
// device in the URL's fragment, which browsers never send to a server.
function saveSeat(match, seat, token) {
  localStorage.setItem(`seat:${match}`, JSON.stringify({ seat, token }));
}

function loadSeat(match) {
  const saved = localStorage.getItem(`seat:${match}`);
  return saved ? JSON.parse(saved) : null;
}

function seatLink(match, token) {
  return `${location.origin}${location.pathname}#match=${match}&token=${encodeURIComponent(token)}`;
}

// -- the lobby ---------------------------------------------------------------------------

async function lobby() {
  const { specs, bots, client_seeds } = await api("specs");
  const specSelect = $("#spec");
  for (const spec of specs) specSelect.add(new Option(`${spec.title} (${spec.name})`, spec.name));
  $("#seed-label").hidden = !client_seeds;
  const wanted = params.get("spec");
  if (wanted) specSelect.value = wanted;
  const showOptions = () => {
    const spec = specs.find((s) => s.name === specSelect.value);
    const box = $("#options");
    box.querySelectorAll("label").forEach((l) => l.remove());
    for (const option of spec.options) {
      const label = document.createElement("label");
      label.title = option.doc || "";
      label.append(`${option.name.replaceAll("_", " ")} `);
      const select = document.createElement("select");
      select.name = option.name;
      select.dataset.option = option.name;
      for (const value of option.values) {
        select.add(new Option(String(value), JSON.stringify(value), false, value === option.default));
      }
      select.addEventListener("change", showSeats);
      label.append(select);
      box.append(label);
    }
    showSeats();
  };
  const showSeats = () => {
    const spec = specs.find((s) => s.name === specSelect.value);
    const players = chosenOptions(spec).players ?? 2;
    const seatSelect = $("#my-seat");
    seatSelect.replaceChildren();
    for (let s = 0; s < players; s++) seatSelect.add(new Option(`seat ${s}`, String(s)));
    showOthers();
  };
  const showOthers = () => {
    const mine = Number($("#my-seat").value);
    const box = $("#others");
    box.querySelectorAll("label").forEach((l) => l.remove());
    for (const option of $("#my-seat").options) {
      const s = Number(option.value);
      if (s === mine) continue;
      const label = document.createElement("label");
      label.append(`seat ${s} `);
      const select = document.createElement("select");
      select.dataset.seat = String(s);
      for (const bot of bots) select.add(new Option(`${bot} bot`, bot, bot === "heuristic", bot === "heuristic"));
      select.add(new Option("a player (invitation)", INVITED));
      label.append(select);
      box.append(label);
    }
  };
  $("#my-seat").addEventListener("change", showOthers);
  specSelect.addEventListener("change", showOptions);
  showOptions();
  $("#new-match").addEventListener("submit", async (event) => {
    event.preventDefault();
    const spec = specs.find((s) => s.name === specSelect.value);
    const options = chosenOptions(spec);
    const seat = Number($("#my-seat").value);
    const bots = {};
    document.querySelectorAll("#others [data-seat]").forEach((select) => {
      if (select.value !== INVITED) bots[select.dataset.seat] = select.value;
    });
    const body = { spec: spec.name, options, bots };
    if (client_seeds && $("#seed").value !== "") body.seed = Number($("#seed").value);
    try {
      const created = await api("matches", { method: "POST", body: JSON.stringify(body) });
      const invitations = { ...created.invitations };
      const mine = invitations[String(seat)];
      delete invitations[String(seat)];
      localStorage.setItem(`invitations:${created.match}`, JSON.stringify(invitations));
      await claim(created.match, mine.code);
    } catch (err) {
      $("#lobby-error").textContent = err.message;
    }
  });
}

function chosenOptions(spec) {
  const out = {};
  for (const option of spec.options) {
    const select = document.querySelector(`[data-option="${option.name}"]`);
    out[option.name] = select ? JSON.parse(select.value) : option.default;
  }
  return out;
}

// An invitation's code becomes this browser's seat; the fragment is replaced so that the
// address bar no longer holds a secret.
async function claim(match, code) {
  const mine = await api(`matches/${match}/claim`, { method: "POST", body: JSON.stringify({ code }) });
  saveSeat(match, mine.seat, mine.token);
  history.replaceState(null, "", `#match=${match}`);
  route();
}

// A seat link from another device: ask the server which seat the token holds, then keep it.
async function adopt(match, token) {
  board.token = token;
  const info = await api(`matches/${match}`);
  saveSeat(match, info.seat, token);
  history.replaceState(null, "", `#match=${match}`);
  route();
}

function showInvitations(match) {
  const invitations = JSON.parse(localStorage.getItem(`invitations:${match}`) || "{}");
  const claimed = new Set(board.view.seats.filter((s) => s.claimed).map((s) => String(s.seat)));
  const list = $("#invitations");
  list.replaceChildren();
  for (const [seat, invitation] of Object.entries(invitations)) {
    if (claimed.has(seat)) continue;
    const item = document.createElement("li");
    const link = document.createElement("input");
    link.readOnly = true;
    link.value = invitation.link;
    link.setAttribute("aria-label", `invitation for seat ${seat}`);
    item.append(`Seat ${seat}: `, link);
    list.append(item);
  }
  $("#invite-box").hidden = list.children.length === 0;
  $("#seat-link").value = seatLink(match, board.token);
}

// -- the board ---------------------------------------------------------------------------

async function openBoard(match) {
  const saved = loadSeat(match);
  if (!saved) {
    $("#lobby-error").textContent = "This browser holds no seat of that match: open its invitation or seat link.";
    return;
  }
  Object.assign(board, { match, seat: saved.seat, token: saved.token });
  const info = await api(`matches/${match}`);
  board.game = info.game;
  board.labels = (info.game.display && info.game.display.en) || {};
  $("#lobby").hidden = true;
  $("#board").hidden = false;
  document.title = `${info.game.title} — seat ${board.seat}`;
  drawSignals();
  const view = await api(`matches/${match}/view`);
  // What happened before this page opened is told in the log only: no banner, no wait.
  board.history = view.events;
  render(view);
  board.shown = tableTrick(view.observation);
  drawTrick();
  listen(0);
}

function listen(since) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/matches/${board.match}/events`);
  board.socket = socket;
  let seen = since;
  let keepalive = null;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ token: board.token, since }));
    keepalive = setInterval(() => socket.send("{}"), KEEPALIVE_MS);
  });
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    if (data.error) {
      showError(data.error.message);
      return;
    }
    seen = data.seq + data.events.length;
    const past = Math.max(0, Math.min(data.events.length, (board.history ?? 0) - data.seq));
    board.queue.push({ events: data.events.slice(0, past), view: null, past: true });
    board.queue.push({ events: data.events.slice(past), view: data.view, past: false });
    play();
  });
  socket.addEventListener("close", () => {
    clearInterval(keepalive);
    if (!(board.view && board.view.observation.match_over)) setTimeout(() => listen(seen), 1000);
  });
}

// -- playing the event stream in order ---------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function waiting() {
  return board.queue.reduce((n, m) => n + m.events.length, 0);
}

// A long backlog (a reload, a tab come back) is played quicker; a finished trick is held
// its full time whatever.
function pause(ms, held = false) {
  const hurry = waiting() > BACKLOG && !held ? 1 / 8 : 1;
  return sleep(ms * PACE * hurry);
}

// One message at a time, one event at a time; the message's view is drawn once its events
// have been shown, so the board never shows a state before the events that led to it.
async function play() {
  if (board.playing) return;
  board.playing = true;
  lock();
  try {
    while (board.queue.length) {
      const { events, view, past } = board.queue.shift();
      for (const event of events) {
        if (past) tell(event, true);
        else await show(event);
      }
      if (view) {
        render(view);
        if (!board.shown.done) board.shown = tableTrick(view.observation);
        drawTrick();
      }
    }
  } finally {
    board.playing = false;
    if (board.latest && board.view && board.latest.version > board.view.version) render(board.latest);
    lock();
  }
}

async function show(event) {
  tell(event, false);
  const t = event.type;
  if (t === "deal") {
    board.shown = { cards: [], done: false, win: null };
    drawTrick();
  } else if (t === "action" && (event.action.startsWith("play") || event.action === "cover")) {
    if (board.shown.done) board.shown = { cards: [], done: false, win: null };
    const card = event.action.startsWith("play @") ? event.card : event.card ?? (event.hidden ? null : event.action.split(" ")[1]);
    board.shown.cards.push({ seat: event.seat, card: card ?? null, covered: event.action === "cover" });
    drawTrick();
    await pause(STEP_MS);
  } else if (t === "trick") {
    board.shown.win = event.seat;
    board.shown.finished = `${board.hand ? board.hand.number : 0}.${event.number}`;
    drawTrick();
    await pause(HOLD_MS, true);
    board.shown.done = true;
    drawTrick();
  } else if (t === "action" && isCall(event.action) && !["announce", "good"].includes(event.action)) {
    await banner(`${who(event.seat)}: ${name(event.action)}!`);
  } else if (t === "announce") {
    await banner(`${who(event.seat)}: ${event.value}`);
  } else if (t === "good") {
    await banner(`${who(event.seat)}: ${name("good")}`);
  } else if (t === "contest_won") {
    await banner(`${name(event.contest)}: ${who(event.seat)}, ${event.value}`);
  } else if (t === "hand_over") {
    await banner(event.winner === null ? "Hand over: nobody scores" : `Hand over: ${side(event.winner)} take the hand`);
  } else if (t === "match_over") {
    await banner(event.winner === board.game.team_of[board.seat] ? "You win the match!" : "They win the match");
  }
}

async function banner(text) {
  const el = $("#banner");
  el.textContent = text;
  el.hidden = false;
  el.classList.remove("flash");
  void el.offsetWidth;                       // restart the animation
  el.classList.add("flash");
  await pause(BANNER_MS);
  el.hidden = true;
}

// -- the log and the end-of-hand summary -------------------------------------------------

function newHand(number) {
  board.hand = { number, tricks: [], counts: {}, won: [], points: [], shown: [] };
}

// Every event is written to the log and to the hand's summary, replayed or live.
function tell(event, past) {
  let line = null;
  const t = event.type;
  if (!board.hand && t !== "deal") newHand(board.view ? board.view.observation.hand_number : 1);
  if (t === "deal") {
    newHand(event.hand);
    line = `Hand ${event.hand}: ${who(event.dealer)} dealt${event.turned ? `, turned ${cardName(event.turned)}` : ""}`;
    if (event.format) board.formats[event.hand] = event.format;
    const duelLine = duel(event.hand, event.playing || []);
    if (duelLine) line += ` — ${duelLine}`;
  } else if (t === "hand") line = `Your cards: ${event.cards.map(cardName).join(", ")}`;
  else if (t === "action" && (event.action === "announce" || event.action === "good")) line = null;
  else if (t === "action") {
    const [verb, arg] = event.action.split(" ");
    let what;
    if (event.hidden) what = "a card face down";
    else if (verb === "cover") what = `${cardName(event.card)} face down`;
    else if (verb === "play") what = cardName(event.card ?? arg);
    else if (board.game.signals && verb === board.game.signals.verb) what = `signals ${arg.replaceAll("_", " ")}`;
    else what = name(verb);
    line = `${who(event.seat)}: ${what}`;
  } else if (t === "announce") {
    line = `${who(event.seat)}: ${name(event.contest)} ${event.value}`;
    board.hand.counts[event.seat] = event.value;
  } else if (t === "good") line = `${who(event.seat)}: ${name("good").toLowerCase()}`;
  else if (t === "contest_won") {
    line = `${name(event.contest)} to ${who(event.seat)} (${side(event.team)}) with ${event.value}`;
    board.hand.won.push(event);
  } else if (t === "revealed") {
    line = `${who(event.seat)} ${event.seat === board.seat ? "show" : "shows"} ${name(event.contest).toLowerCase()} ${event.value}: ${event.cards.map(cardName).join(", ")}${event.whole_hand ? " (the whole hand)" : ""}`;
    board.hand.shown.push(event);
  } else if (t === "contest_tied") line = `${name(event.contest)}: tied, nobody scores`;
  else if (t === "trick") {
    line = `Trick ${event.number}: ${event.winner === null ? "Tie" : side(event.winner)}`;
    board.hand.tricks.push(event.winner === null ? "Tie" : side(event.winner));
  } else if (t === "score") {
    line = `${side(event.team)} +${event.points} (${name(event.reason)})`;
    board.hand.points.push(event);
    board.lastScore = event;
  } else if (t === "hand_over") {
    line = `Hand over: ${event.winner === null ? "nobody scores" : `${side(event.winner)} take the hand`}`;
    summarize();
  } else if (t === "match_over") {
    line = `Match over: ${side(event.winner)} win ${event.score.join("–")}`;
    summarize();
    board.ended = event;
  }
  if (line) {
    const item = document.createElement("li");
    item.textContent = line;
    $("#log").append(item);
  }
}

// The hand just played, in words: its tricks, what each contest was worth to whom, the points.
function summarize() {
  const h = board.hand;
  if (!h) return;
  const box = $("#summary");
  box.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = `Hand ${h.number}`;
  const list = document.createElement("ul");
  const add = (text) => { const li = document.createElement("li"); li.textContent = text; list.append(li); };
  add(`Tricks: ${h.tricks.join(", ") || "none played"}`);
  for (const won of h.won) {
    const said = Object.entries(h.counts).map(([s, v]) => `${who(Number(s))} ${v}`).join(", ");
    add(`${name(won.contest)}: ${who(won.seat)} won with ${won.value}${said ? ` (announced: ${said})` : ""}`);
  }
  // The cards the rules make public once the hand is over (the spec's `count.show`).
  for (const shown of h.shown) {
    const li = document.createElement("li");
    li.className = "revealed";
    li.dataset.seat = String(shown.seat);
    const cards = document.createElement("span");
    cards.className = "shown-cards";
    cards.append(...shown.cards.map(cardFace));
    li.append(`${name(shown.contest)} ${shown.value} shown by ${who(shown.seat)}${shown.whole_hand ? " (the whole hand)" : ""}: `, cards);
    list.append(li);
  }
  const by = h.points.map((p) => `${side(p.team)} +${p.points} ${name(p.reason).toLowerCase()}`);
  add(`Points: ${by.join(", ") || "none"}`);
  box.append(title, list);
  box.hidden = false;
}

// -- words -------------------------------------------------------------------------------

// A call's or verb's name as the spec's display labels say (a hand value's, with `kind`
// "values"), else its own name.
function name(word, kind = "calls") {
  const labels = board.labels || {};
  const own = labels[kind] && labels[kind][word];
  if (own) return own;
  if (ANSWERS[word]) return ANSWERS[word];
  const words = String(word).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// What a button does, in words: a truco call with the worth it asks for, an announcement
// with the value it announces.
function label(action) {
  const [verb] = action.split(" ");
  const obs = board.view.observation;
  if (verb === "announce" && obs.count) {
    const contest = board.game.contests.find((c) => c.name === obs.count.contest);
    const value = contest && obs.values[contest.value];
    if (value !== undefined && value !== null) return `${name("announce")} ${value}`;
  }
  const worth = board.game.worths && board.game.worths[verb];
  if (worth !== undefined) return `${name(verb)} → ${worth}`;
  return name(action);
}

function who(seat) {
  if (seat === board.seat) return "You";
  const partner = board.game.team_of[seat] === board.game.team_of[board.seat];
  return `Seat ${seat}${partner ? " (partner)" : ""}`;
}

// A hand only some seats play (a schedule's format, one seat against the seat facing it): who
// faces whom, and whether this seat sits it out; "" for a hand of the whole table.
function duel(hand, playing) {
  if (!playing.length || playing.length >= board.game.players) return "";
  const format = (board.formats[hand] || "one against one").replaceAll("_", " ");
  const pair = playing.map(who).join(" against ");
  return `${format[0].toUpperCase()}${format.slice(1)}: ${pair}${playing.includes(board.seat) ? "" : "; you sit this hand out"}`;
}

function side(team) {
  return team === board.game.team_of[board.seat] ? "Us" : "Them";
}

function isCall(action) {
  const verb = action.split(" ")[0];
  return verb !== "play" && verb !== "cover";
}

// -- cards -------------------------------------------------------------------------------

function deckKind() {
  const suits = board.game.deck.suits;
  return suits.includes("e") || suits.includes("o") ? "spanish" : "french";
}

function splitCard(id) {
  const suit = board.game.deck.suits.find((s) => id.endsWith(s)) ?? "";
  return { rank: id.slice(0, id.length - suit.length), suit };
}

function printedRank(rank) {
  const ranks = (board.labels && board.labels.ranks) || {};
  return ranks[rank] ?? rank;
}

function cardName(id) {
  if (!id) return "a card";
  const { rank, suit } = splitCard(id);
  const suitName = (SUITS[deckKind()][suit] || [suit])[0];
  return `${printedRank(rank)} of ${suitName}`;
}

const NS = "http://www.w3.org/2000/svg";

// A card face in SVG: the printed rank in two corners, the suit's mark in the middle.
function cardFace(id) {
  const { rank, suit } = splitCard(id);
  const kind = deckKind();
  const color = (SUITS[kind][suit] || ["", "#333"])[1];
  const el = document.createElement("span");
  el.className = `face suit-${board.game.deck.suits.indexOf(suit)}`;
  el.dataset.card = id;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(id));
  const shown = printedRank(rank);
  el.innerHTML = faceSvg(NS, color, suitMark(suit, kind));
  el.querySelectorAll("text").forEach((t) => { t.textContent = shown; });
  return el;
}

function cardBack() {
  const el = document.createElement("span");
  el.className = "back";
  return el;
}

// -- drawing -----------------------------------------------------------------------------

function render(view) {
  if (board.view && view.version < board.view.version) return;     // a late answer: keep the newer view
  const focus = focused();
  board.view = view;
  const obs = view.observation;
  if (!board.hand || board.hand.number !== obs.hand_number) newHand(obs.hand_number);
  $("#board").dataset.version = String(view.version);               // for tests and tools
  drawScore(obs);
  drawTurned(obs);
  drawSeats(obs);
  drawStrip(obs);
  drawHand(obs);
  drawCalls(obs);
  drawStatus(obs);
  showInvitations(board.match);
  if (obs.match_over) {
    $("#over").hidden = false;
    $("#over-text").textContent = endText(obs);
  }
  restore(focus);
}

function endText(obs) {
  const won = obs.winner === obs.team;
  const last = board.lastScore;
  const why = last && last.team === obs.winner ? ` ${side(last.team)} reached ${obs.target} with ${name(last.reason).toLowerCase()} (+${last.points}).` : "";
  return `${won ? "You win" : "They win"} the match, ${obs.score[obs.team]}–${obs.score[1 - obs.team]}.${why}`;
}

// Keeping the focus where it was across a redraw: the same action's button, or the first
// of the same group.
function focused() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  return { action: el.dataset && el.dataset.action, group: el.closest("#hand") ? "#hand" : el.closest("#call-bar") ? "#call-bar" : null, id: el.id };
}

function restore(focus) {
  if (!focus) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  const target = (focus.action && document.querySelector(`[data-action="${CSS.escape(focus.action)}"]`))
    || (focus.group && document.querySelector(`${focus.group} button:not([disabled])`))
    || document.querySelector("#hand button.playable, #call-bar button")
    || $("#status");
  if (target) target.focus({ preventScroll: true });
}

// The score as matchsticks in boxes of five; a target of whole boxes in two halves
// is drawn as its early half then its late half.
function drawScore(obs) {
  const box = $("#score");
  box.replaceChildren();
  const target = obs.target;
  const halves = target % (2 * BOX) === 0 ? [[1, target / 2, "early"], [target / 2 + 1, target, "late"]] : [[1, target, ""]];
  const myTeam = obs.team;
  const teams = [myTeam, ...obs.score.map((_, t) => t).filter((t) => t !== myTeam)];
  for (const team of teams) {
    const row = document.createElement("div");
    row.className = `team ${team === myTeam ? "us" : "them"}`;
    row.dataset.team = String(team);
    row.innerHTML = `<span class="name"></span><span class="points"></span>`;
    row.querySelector(".name").textContent = side(team);
    row.querySelector(".points").textContent = `${obs.score[team]}/${target}`;
    const sticks = document.createElement("span");
    sticks.className = "sticks";
    sticks.setAttribute("aria-hidden", "true");
    for (const [from, to, part] of halves) {
      const half = document.createElement("span");
      half.className = `half ${part}`;
      if (part) {
        const cap = document.createElement("small");
        cap.className = "cap";
        cap.textContent = `${part} ${from}–${to}`;
        half.append(cap);
      }
      for (let p = from; p <= to; p++) {
        const stick = document.createElement("span");
        stick.className = `stick${p <= obs.score[team] ? " lit" : ""}${(p - from) % BOX === BOX - 1 ? " fifth" : ""}`;
        half.append(stick);
      }
      sticks.append(half);
    }
    row.append(sticks);
    box.append(row);
  }
}

function drawTurned(obs) {
  const turned = $("#turned");
  turned.hidden = !obs.turned;
  turned.querySelector(".slot").replaceChildren(...(obs.turned ? [cardFace(obs.turned)] : []));
}

function position(seat, players) {
  return (seat - board.seat + players) % players;
}

function drawSeats(obs) {
  const box = $("#seats");
  box.replaceChildren();
  for (let seat = 0; seat < obs.players; seat++) {
    if (seat === board.seat) continue;
    const el = document.createElement("div");
    el.className = `seat pos-${obs.players}-${position(seat, obs.players)}`;
    el.dataset.seat = String(seat);
    if (obs.to_act === seat) el.classList.add("to-act");
    const out = !obs.playing.includes(seat);
    const faces = !out && obs.playing.length === 2 && obs.playing.includes(board.seat);
    if (out) el.classList.add("sits-out");
    const nameEl = document.createElement("div");
    nameEl.className = "who";
    const { bot, claimed } = seatOf(seat);
    const partner = board.game.team_of[seat] === board.game.team_of[board.seat];
    nameEl.textContent = `Seat ${seat}`;
    const tags = [partner ? "partner" : "", bot ? bot : claimed ? "" : "invited", seat === obs.dealer ? "deals" : "", seat === obs.mano ? "leads" : "",
      out ? "sits out" : "", faces ? "faces you" : ""].filter(Boolean);
    const tag = document.createElement("div");
    tag.className = "tags";
    tag.textContent = tags.join(" · ");
    const cards = document.createElement("div");
    cards.className = "cards";
    for (let k = 0; k < obs.hand_sizes[seat]; k++) cards.append(cardBack());
    el.append(nameEl, tag, cards);
    box.append(el);
  }
}

function seatOf(seat) {
  return board.view.seats.find((x) => x.seat === seat) || { bot: null, claimed: true };
}

// The trick on the table as the seat's view has it: the one being played, or, between
// tricks, the last one of the hand, done.
function tableTrick(obs) {
  if (obs.table.length && obs.table.length === obs.trick) return { cards: obs.table[obs.table.length - 1], done: false, win: null };
  return { cards: [], done: false, win: null };
}

function drawTrick() {
  const obs = board.view.observation;
  const box = $("#trick");
  box.replaceChildren();
  const { cards, done, win } = board.shown;
  box.classList.toggle("done", done);
  box.dataset.cards = String(cards.length);
  if (board.shown.finished) box.dataset.finished = board.shown.finished;       // hand.trick, for tests
  else delete box.dataset.finished;
  box.classList.toggle("tie", Boolean(board.shown.finished) && win === null);
  for (const played of cards) {
    const el = document.createElement("div");
    el.className = `played pos-${obs.players}-${position(played.seat, obs.players)}`;
    el.dataset.seat = String(played.seat);
    el.append(played.card && !(played.covered && played.seat !== board.seat) ? cardFace(played.card) : cardBack());
    if (played.covered) el.classList.add("covered");
    if (win !== null && played.seat === win) {
      el.classList.add("winner");
      el.setAttribute("aria-label", `${who(played.seat)} wins the trick`);
    }
    box.append(el);
  }
}

function drawStrip(obs) {
  const box = $("#trick-strip");
  box.replaceChildren();
  const count = Math.max(board.game.hand_size, obs.tricks.length);
  for (let k = 0; k < count; k++) {
    const el = document.createElement("span");
    const result = obs.tricks[k];
    const text = result === undefined ? "–" : result === "tie" ? "Tie" : side(result);
    el.className = `trick ${result === undefined ? "open" : text.toLowerCase()}`;
    el.dataset.result = text;
    el.textContent = `${k + 1}: ${text}`;
    box.append(el);
  }
}

function cardButton(action, content, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card";
  const words = document.createElement("span");
  words.className = "visually-hidden";
  words.textContent = text;
  content.removeAttribute("role");
  content.removeAttribute("aria-label");
  button.append(content, words);
  if (action) {
    button.classList.add("playable");
    button.dataset.action = action;
    button.addEventListener("click", () => act(action));
  } else {
    button.disabled = true;
  }
  return button;
}

function drawHand(obs) {
  const box = $("#hand");
  box.replaceChildren();
  const legal = new Set(obs.legal);
  const faceDown = $("#face-down");
  const canCover = obs.legal.some((a) => a.startsWith("cover "));
  faceDown.hidden = !canCover;
  if (!canCover) setFaceDown(false);
  const down = faceDown.getAttribute("aria-pressed") === "true";
  if (obs.hand === null) {                  // a blind hand: play by position
    obs.legal.filter((a) => a.startsWith("play @")).forEach((action, k) => {
      const button = cardButton(action, cardBack(), `card ${action.slice(6)} (key ${k + 1})`);
      button.dataset.key = String(k + 1);
      box.append(button);
    });
  } else {
    const order = (board.game.order || {})[obs.turned ?? ""] || {};
    obs.hand.forEach((card, k) => {
      const action = `${down ? "cover" : "play"} ${card}`;
      const wrap = document.createElement("div");
      wrap.className = "in-hand";
      const place = order[card];
      const button = cardButton(legal.has(action) ? action : null, cardFace(card),
        `${cardName(card)}${place ? `, rank ${place}` : ""}${legal.has(action) ? ` (key ${k + 1})` : ""}`);
      button.dataset.key = String(k + 1);
      wrap.append(button);
      if (place !== undefined) {
        const rank = document.createElement("span");
        rank.className = "rank";
        rank.dataset.rank = String(place);
        rank.textContent = String(place);
        rank.title = "its place in the trick order, 1 the highest";
        wrap.append(rank);
      }
      box.append(wrap);
    });
  }
  const points = $("#points");
  points.replaceChildren();
  const first = board.game.contests[0];
  const shown = Object.entries(obs.values).filter(([, v]) => v !== null);
  for (const [valueName, value] of shown) {
    const el = document.createElement("span");
    el.className = "value";
    el.dataset.value = valueName;
    el.textContent = first && valueName === first.value ? `Points ${value}` : `${name(valueName, "values")} ${value}`;
    points.append(el);
  }
}

function setFaceDown(on) {
  $("#face-down").setAttribute("aria-pressed", on ? "true" : "false");
}

function drawCalls(obs) {
  const bar = $("#call-bar");
  bar.replaceChildren();
  board.foldArmed = false;
  const used = new Set(["q"]);
  const calls = obs.legal.filter(isCall);
  const keyed = calls.map((action) => {
    const verb = action.split(" ")[0];
    let key = KEYS[verb];
    if (!key) key = [...name(verb).toLowerCase()].find((ch) => /[a-z]/.test(ch) && !used.has(ch) && !Object.values(KEYS).includes(ch));
    if (key) used.add(key);
    return [action, key];
  });
  for (const [action, key] of keyed) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `call verb-${action.split(" ")[0]}`;
    button.dataset.action = action;
    button.textContent = label(action);
    if (key) {
      button.dataset.key = key;
      button.setAttribute("aria-keyshortcuts", key);
    }
    button.addEventListener("click", () => act(action));
    bar.append(button);
  }
}

function drawStatus(obs) {
  let text = "";
  if (obs.match_over) text = "The match is over.";
  else if (obs.count) {
    const said = obs.count.announced.map((a) => `${who(a.seat)} ${a.value === null ? name("good").toLowerCase() : a.value}`);
    text = `Counting ${name(obs.count.contest)}: ${said.join(", ") || "nobody has spoken"}; ${who(obs.count.next)} to speak.`;
  } else if (obs.pending) {
    text = `${who(obs.pending.by)} called ${name(obs.pending.call)}; ${who(obs.pending.answerer)} to answer.`;
  } else if (obs.to_act !== null) {
    text = obs.to_act === board.seat ? "Your turn." : `${who(obs.to_act)} to play.`;
  }
  const duelLine = duel(obs.hand_number, obs.playing);
  $("#status").textContent = `${duelLine ? `${duelLine}. ` : ""}${text} Hand ${obs.hand_number}, worth ${obs.hand_worth}.`;
}

// -- acting ------------------------------------------------------------------------------

// While an action is on its way, or the events before it are still being shown, the board
// takes no other: a double click sends one request.
function lock() {
  const locked = board.busy || board.playing;
  $("#board").classList.toggle("locked", locked);
  document.querySelectorAll("#hand button, #call-bar button, #signal-send").forEach((b) => {
    b.setAttribute("aria-disabled", locked ? "true" : "false");
  });
}

async function act(action) {
  if (board.busy || board.playing || !board.view) return;
  if (action === "fold" && !board.foldArmed) {          // Fold asks once more
    board.foldArmed = true;
    const button = document.querySelector('#call-bar [data-action="fold"]');
    if (button) button.textContent = "Fold: press again to leave the hand";
    return;
  }
  showError("");
  board.busy = true;
  lock();
  try {
    board.latest = await api(`matches/${board.match}/actions`, {
      method: "POST", body: JSON.stringify({ action, version: board.view.version }),
    });
    // The stream brings the events and this view; without it, the answer is drawn.
    const version = board.latest.version;
    setTimeout(() => {
      if (!board.playing && board.view.version < version) render(board.latest);
    }, 3000);
  } catch (err) {
    showError(err.message);
  } finally {
    board.busy = false;
    lock();
  }
}

function showError(text) {
  $("#error").textContent = text;
}

// Señas, where the spec has them: sent at any moment of a live hand, seen as the spec says.
function drawSignals() {
  const signals = board.game.signals;
  const box = $("#signals");
  box.hidden = !signals;
  if (!signals) return;
  const select = $("#signal");
  select.replaceChildren(...signals.names.map((n) => new Option(n.replaceAll("_", " "), n)));
  $("#signal-to").textContent = signals.to === "partners" ? "Seen by your partners only." : "Seen by the whole table.";
}

async function signal() {
  const signals = board.game.signals;
  try {
    await api(`matches/${board.match}/actions`, {
      method: "POST", body: JSON.stringify({ action: `${signals.verb} ${$("#signal").value}` }),
    });
  } catch (err) {
    showError(err.message);
  }
}

// Keys: 1–9 play the cards in hand, a letter presses the call marked with it, Escape
// disarms Fold.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || $("#board").hidden) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (event.key === "Escape" && board.foldArmed) {
    drawCalls(board.view.observation);
    return;
  }
  const key = event.key.toLowerCase();
  const button = /^\d$/.test(key) && key !== "0"
    ? document.querySelector(`#hand button.playable[data-key="${key}"]`)
    : document.querySelector(`#call-bar button[data-key="${CSS.escape(key)}"]`);
  if (!button) return;
  event.preventDefault();
  button.focus();
  button.click();
});

// -- start -------------------------------------------------------------------------------

$("#face-down").addEventListener("click", () => {
  setFaceDown($("#face-down").getAttribute("aria-pressed") !== "true");
  drawHand(board.view.observation);
});
$("#replay").addEventListener("click", async () => {
  const log = await api(`matches/${board.match}/log`);
  const box = $("#replay-log");
  box.replaceChildren();
  const facts = document.createElement("dl");
  for (const [term, value] of [["Rules", `${log.spec} ${JSON.stringify(log.options)}`], ["Seed", log.seed],
    ["Salt", log.salt], ["Commitment", log.commitment], ["Final score", log.score.join("–")]]) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    facts.append(dt, dd);
  }
  const moves = document.createElement("ol");
  for (const a of log.actions) {
    const li = document.createElement("li");
    li.textContent = `${who(a.seat)}: ${a.action}`;
    moves.append(li);
  }
  const file = document.createElement("a");
  file.href = URL.createObjectURL(new Blob([JSON.stringify(log, null, 2)], { type: "application/json" }));
  file.download = `match-${board.match}.json`;
  file.textContent = "Download the log (JSON)";
  file.className = "button-link";
  box.dataset.seed = String(log.seed);
  box.dataset.actions = String(log.actions.length);
  box.append(facts, file, moves);
  box.hidden = false;
});
$("#signal-send").addEventListener("click", signal);

function route() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const match = fragment.get("match");
  if (!match) return;
  const failed = (err) => { $("#lobby-error").textContent = err.message; };
  if (fragment.get("code")) claim(match, fragment.get("code")).catch(failed);
  else if (fragment.get("token")) adopt(match, fragment.get("token")).catch(failed);
  else openBoard(match).catch(failed);
}

window.addEventListener("hashchange", route);
lobby().then(route);
