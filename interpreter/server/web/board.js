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

// The lobby's own words in the player's language (the browser's, or ?lang=); the table speaks
// English, as seed 004's board does. The rules' words (options, values, docs) come from the
// server in the same language, as the spec's rulebook writes them.
const LOBBY = {
  en: {
    title: "New match", rules: "Rules", options: "Table options", choices: "Rule interpretations",
    choicesIntro: "Where the rulebooks disagree or say nothing, each of these picks a reading; the defaults follow this spec's rulebook.",
    seat: "Your seat", others: "The other seats", seatN: "seat {n}", bot: "{bot} bot", invited: "a player (invitation)",
    seed: "Seed", random: "random", deal: "Deal", bots: { heuristic: "heuristic", random: "random" },
    noSeat: "This browser holds no seat of that match: open its invitation or seat link.",
  },
  es: {
    title: "Nueva partida", rules: "Reglas", options: "Opciones de la mesa", choices: "Interpretaciones de las reglas",
    choicesIntro: "Donde los reglamentos no coinciden o no dicen nada, cada una elige una lectura; las de fábrica siguen el reglamento de estas reglas.",
    seat: "Tu asiento", others: "Los otros asientos", seatN: "asiento {n}", bot: "bot {bot}", invited: "un jugador (invitación)",
    seed: "Semilla", random: "al azar", deal: "Repartir", bots: { heuristic: "heurístico", random: "al azar" },
    noSeat: "Este navegador no tiene ningún asiento de esa partida: abrí su invitación o el enlace del asiento.",
  },
  fr: {
    title: "Nouvelle partie", rules: "Règles", options: "Options de la table", choices: "Interprétations des règles",
    choicesIntro: "Là où les règlements divergent ou se taisent, chacune choisit une lecture ; par défaut, celle du règlement de ces règles.",
    seat: "Votre place", others: "Les autres places", seatN: "place {n}", bot: "robot {bot}", invited: "un joueur (invitation)",
    seed: "Graine", random: "au hasard", deal: "Distribuer", bots: { heuristic: "heuristique", random: "au hasard" },
    noSeat: "Ce navigateur n'a aucune place de cette partie : ouvrez son invitation ou le lien de la place.",
  },
  pt: {
    title: "Nova partida", rules: "Regras", options: "Opções da mesa", choices: "Interpretações das regras",
    choicesIntro: "Onde os regulamentos divergem ou se calam, cada uma escolhe uma leitura; o padrão segue o regulamento destas regras.",
    seat: "Seu lugar", others: "Os outros lugares", seatN: "lugar {n}", bot: "robô {bot}", invited: "um jogador (convite)",
    seed: "Semente", random: "aleatória", deal: "Distribuir", bots: { heuristic: "heurístico", random: "aleatório" },
    noSeat: "Este navegador não tem nenhum lugar dessa partida: abra o convite ou o link do lugar.",
  },
};

const board = {
  match: null, seat: null, token: null, game: null, view: null, socket: null, commitment: null,
  queue: [], rest: 0, playing: false, busy: false, latest: null,
  shown: { cards: [], done: false, win: null },       // the trick drawn on the table
  hand: null,                                          // what the hand in play has told this seat
  formats: {},                                         // hand number → its schedule format's name
  foldArmed: false,
  release: null,                                       // moves on from a hand's result held in view
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

// The player's language: ?lang=, else the first of the browser's that the lobby speaks.
function lobbyLanguage() {
  const asked = [params.get("lang"), ...(navigator.languages || [navigator.language])];
  for (const tag of asked) {
    const code = String(tag || "").slice(0, 2).toLowerCase();
    if (LOBBY[code]) return code;
  }
  return "en";
}

const LANG = lobbyLanguage();
const WORDS = LOBBY[LANG];

function say(key, fill = {}) {
  return WORDS[key].replace(/\{(\w+)\}/g, (_, k) => fill[k]);
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

async function lobby() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-words]").forEach((el) => { el.textContent = say(el.dataset.words); });
  $("#seed").placeholder = say("random");
  const { specs, bots, client_seeds } = await api(`specs?lang=${LANG}`);
  const specSelect = $("#spec");
  for (const spec of specs) specSelect.add(new Option(spec.title, spec.name));
  $("#seed-label").hidden = !client_seeds;
  const wanted = params.get("spec");
  if (wanted) specSelect.value = wanted;
  const current = () => specs.find((s) => s.name === specSelect.value);
  const showOptions = () => {
    const spec = current();
    for (const [box, kind] of [["#options", "table"], ["#choices", "interpretation"]]) {
      $(box).querySelectorAll(".option").forEach((el) => el.remove());
      for (const option of spec.options.filter((o) => o.kind === kind)) $(box).append(optionField(option, showSeats));
    }
    $("#options").hidden = !spec.options.some((o) => o.kind === "table");
    $("#choices-box").hidden = !spec.options.some((o) => o.kind === "interpretation");
    showSeats();
  };
  const showSeats = () => {
    const players = chosenOptions(current()).players ?? 2;
    const seatSelect = $("#my-seat");
    seatSelect.replaceChildren();
    for (let s = 0; s < players; s++) seatSelect.add(new Option(say("seatN", { n: s }), String(s)));
    showOthers();
  };
  const showOthers = () => {
    const mine = Number($("#my-seat").value);
    const box = $("#others");
    box.querySelectorAll(".option").forEach((el) => el.remove());
    for (const option of $("#my-seat").options) {
      const s = Number(option.value);
      if (s === mine) continue;
      const select = document.createElement("select");
      select.dataset.seat = String(s);
      for (const bot of bots) {
        const words = say("bot", { bot: WORDS.bots[bot] || bot });
        select.add(new Option(words, bot, bot === "heuristic", bot === "heuristic"));
      }
      select.add(new Option(say("invited"), INVITED));
      box.append(field(`seat-${s}`, capital(say("seatN", { n: s })), select));
    }
  };
  $("#my-seat").addEventListener("change", showOthers);
  specSelect.addEventListener("change", showOptions);
  showOptions();
  $("#new-match").addEventListener("submit", async (event) => {
    event.preventDefault();
    const spec = current();
    const options = chosenOptions(spec);
    const seat = Number($("#my-seat").value);
    const bots = {};
    document.querySelectorAll("#others [data-seat]").forEach((select) => {
      if (select.value !== INVITED) bots[select.dataset.seat] = select.value;
    });
    const body = { spec: spec.name, options, bots };
    const seed = $("#seed").value.trim();
    if (client_seeds && seed !== "") body.seed = seed;        // its digits: a seed may pass 2**53
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

// A labelled control on a line of its own, its explanation (if any) visible under it.
function field(id, text, control, about = null) {
  const wrap = document.createElement("div");
  wrap.className = "option field";
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = text;
  control.id = id;
  wrap.append(label, control);
  if (about) {
    const note = document.createElement("p");
    note.className = "about";
    note.id = `${id}-about`;
    note.textContent = about.text;
    if (about.lang !== LANG) note.lang = about.lang;      // written in another language: said so
    control.setAttribute("aria-describedby", note.id);
    wrap.append(note);
  }
  return wrap;
}

// An option of the spec: its name and values in words, its doc under it.
function optionField(option, changed) {
  const select = document.createElement("select");
  select.name = option.name;
  select.dataset.option = option.name;
  option.values.forEach((value, k) => {
    select.add(new Option(capital(option.words[k]), JSON.stringify(value), false, value === option.default));
  });
  select.addEventListener("change", changed);
  return field(`option-${option.name}`, capital(option.label), select, option.about);
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
    $("#lobby-error").textContent = say("noSeat");
    return;
  }
  Object.assign(board, { match, seat: saved.seat, token: saved.token });
  const info = await api(`matches/${match}`);
  board.game = info.game;
  board.commitment = info.commitment;
  board.labels = (info.game.display && info.game.display.en) || {};
  document.documentElement.lang = "en";
  $("#lobby").hidden = true;
  $("#board").hidden = false;
  $("#board").dataset.players = String(info.game.players);
  document.title = `${info.game.title} — seat ${board.seat}`;
  $("#commitment").textContent = info.commitment;
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
    showWaiting();
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

// How many events have arrived and wait to be shown (behind a hand's result, say): for tests and tools.
function showWaiting() {
  $("#board").dataset.waiting = String(board.rest + waiting());
}

// A long backlog (a reload, a tab come back) is played quicker; a finished trick is held
// its full time whatever.
function pause(ms, held = false) {
  const hurry = waiting() > BACKLOG && !held ? 1 / 8 : 1;
  return sleep(ms * PACE * hurry);
}

// One message at a time, one event at a time; the message's view is drawn once its events
// have been shown, so the board never shows a state before the events that led to it. While
// events are shown the call bar is empty and the status line tells each event: nothing on
// screen says "your turn" before the events that lead to it have been seen.
async function play() {
  if (board.playing) return;
  board.playing = true;
  lock();
  try {
    while (board.queue.length) {
      const { events, view, past } = board.queue.shift();
      if (!past && events.length) playing();
      for (let k = 0; k < events.length; k++) {
        board.rest = events.length - k - 1;
        showWaiting();
        if (past) tell(events[k], true);
        else await show(events[k], events.slice(k + 1));
      }
      if (view) {
        render(view);
        if (!board.shown.done) board.shown = tableTrick(view.observation);
        drawTrick();
      }
    }
  } finally {
    board.playing = false;
    board.rest = 0;
    showWaiting();
    if (board.latest && board.view && board.latest.version > board.view.version) render(board.latest);
    lock();
  }
}

// What says "your turn" or offers a move is cleared while the events before the next turn play.
function playing() {
  board.focus = focused() || board.focus;           // given back to its group once the view is drawn
  $("#call-bar").replaceChildren();
  $("#status").classList.remove("mine");
  document.querySelectorAll(".to-act").forEach((el) => el.classList.remove("to-act"));
}

async function show(event, rest) {
  const line = tell(event, false);
  if (line) $("#status").textContent = line;
  const t = event.type;
  if (t === "deal") {
    board.shown = { cards: [], done: false, win: null };
    drawTrick();
  } else if (t === "action" && (event.action.startsWith("play") || event.action === "cover")) {
    if (board.shown.done) board.shown = { cards: [], done: false, win: null };
    const card = event.action.startsWith("play @") ? event.card : event.card ?? (event.hidden ? null : event.action.split(" ")[1]);
    board.shown.cards.push({ seat: event.seat, card: card ?? null, covered: event.action === "cover" });
    if (event.seat === board.seat) leaveHand(event.action);
    drawTrick();
    await pause(STEP_MS);
  } else if (t === "trick") {
    board.shown.win = event.seat;
    board.shown.result = event.winner === null ? "Tie" : side(event.winner);
    board.shown.finished = `${board.hand ? board.hand.number : 0}.${event.number}`;
    markStrip(event.number, board.shown.result);
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
  } else if (t === "score") {
    drawScore({ ...board.view.observation, score: event.score });
  } else if (t === "hand_over" && !rest.some((e) => e.type === "match_over")) {
    await holdResult();
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

// The card just played leaves the hand as it lands on the table.
function leaveHand(action) {
  const arg = action.split(" ")[1] || "";
  const el = arg.startsWith("@") ? document.querySelector(`#hand [data-action="${CSS.escape(action)}"]`)
    : document.querySelector(`#hand .face[data-card="${CSS.escape(arg)}"]`);
  if (el) (el.closest(".in-hand") || el.closest("button")).remove();
}

// -- a hand's result, held in view until the player moves on -----------------------------

function openSheet(over) {
  const sheet = $("#result");
  $("#next-hand").hidden = over;
  $("#over").hidden = !over;
  $("#board").dataset.held = over ? "match" : "hand";
  if (!sheet.open) sheet.show();
}

function holdResult() {
  openSheet(false);
  $("#next-hand").focus({ preventScroll: true });
  return new Promise((resolve) => { board.release = resolve; });
}

function nextHand() {
  $("#result").close();
  delete $("#board").dataset.held;
  const release = board.release;
  board.release = null;
  if (release) release();
}

// -- the log, the hand's story and its summary -------------------------------------------

function newHand(number) {
  board.hand = { number, tricks: [], counts: {}, won: [], points: [], shown: [], threads: new Map(), answer: null,
    contest: null, winner: undefined };
}

// The hand's calls and answers, one line per ladder or contest: who called, who answered, what
// it is worth now and who may raise it.
function thread(call) {
  const h = board.hand;
  const contest = board.game.contests.find((c) => c.name === call || c.calls.includes(call));
  const key = contest ? contest.name : "stake";
  if (contest) h.contest = key;
  if (!h.threads.has(key)) h.threads.set(key, { label: name(contest ? contest.name : board.game.ladder[0]), steps: [], outcome: "" });
  return h.threads.get(key);
}

function raiser(call, team) {
  const ladder = board.game.ladder;
  const next = ladder[ladder.indexOf(call) + 1];
  if (!next) return "no raise is left";
  if (board.game.raise_by === "any") return `either side may raise to ${name(next)}`;
  return `only ${team === board.game.team_of[board.seat] ? "your side" : "their side"} may raise to ${name(next)}`;
}

function story(event) {
  const h = board.hand;
  const t = event.type;
  if (t === "action") {
    const verb = event.action.split(" ")[0];
    if (verb === "accept" || verb === "decline") h.answer = event.seat;
    else if (board.game.ladder.includes(verb) || board.game.contests.some((c) => c.calls.includes(verb))) {
      const th = thread(verb);
      th.steps.push(`${who(event.seat)} ${th.steps.length ? "raised to" : "called"} ${name(verb)}`);
      th.outcome = "";                            // waiting for its answer
    }
  } else if (t === "accepted") {
    const th = thread(event.call);
    if (h.answer !== null) th.steps.push(`${who(h.answer)} accepted`);
    if (event.worth !== undefined) th.outcome = `worth ${event.worth}; ${raiser(event.call, event.team)}`;
    h.answer = null;
  } else if (t === "declined") {
    thread(event.call).steps.push(`${who(event.seat)} declined`);
    h.answer = null;
  } else if (t === "announce") {
    thread(event.contest).steps.push(`${who(event.seat)} ${event.value}`);
  } else if (t === "good" && h.contest) {
    thread(h.contest).steps.push(`${who(event.seat)}: ${name("good").toLowerCase()}`);
  } else if (t === "contest_won") {
    thread(event.contest).outcome = `${who(event.seat)} won with ${event.value}`;
  } else if (t === "contest_tied") {
    thread(event.contest).outcome = "tied";
  } else if (t === "wiped") {
    thread(event.contest).outcome = `wiped by ${name(event.by)}`;
  } else if (t === "score" && h.threads.has(event.reason)) {
    const th = h.threads.get(event.reason);
    th.outcome = `${th.outcome ? `${th.outcome}; ` : ""}${side(event.team)} +${event.points}`;
  } else return;
  drawStory();
}

function drawStory() {
  const box = $("#story");
  box.replaceChildren();
  for (const [key, th] of board.hand.threads) {
    const li = document.createElement("li");
    li.dataset.thread = key;
    const title = document.createElement("strong");
    title.textContent = `${th.label}: `;
    li.append(title, [th.steps.join(", "), th.outcome].filter(Boolean).join(" — "));
    box.append(li);
  }
}

// Every event is written to the log, the hand's story and its summary, replayed or live;
// the log's line is returned (the status line tells it while the event is shown).
function tell(event, past) {
  let line = null;
  const t = event.type;
  if (!board.hand && t !== "deal") newHand(board.view ? board.view.observation.hand_number : 1);
  if (t === "deal") {
    newHand(event.hand);
    drawStory();
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
  else if (t === "contest_conceded") line = `${name(event.contest)}: conceded to ${side(event.team)}`;
  else if (t === "trick") {
    line = `Trick ${event.number}: ${event.winner === null ? "Tie" : side(event.winner)}`;
    board.hand.tricks.push(event.winner === null ? "Tie" : side(event.winner));
  } else if (t === "score") {
    line = `${side(event.team)} +${event.points} (${name(event.reason)})`;
    board.hand.points.push(event);
    board.lastScore = event;
  } else if (t === "hand_over") {
    line = `Hand over: ${taken(event.winner)}`;
    board.hand.winner = event.winner;
    summarize(event.score);
  } else if (t === "match_over") {
    line = `Match over: ${side(event.winner)} win ${winnerFirst(event.score, event.winner)}`;
    summarize(event.score);
  }
  story(event);
  if (line) {
    const item = document.createElement("li");
    item.textContent = line;
    $("#log").append(item);
  }
  return line;
}

function taken(winner) {
  return winner === null ? "nobody scores" : `${side(winner)} take the hand`;
}

// A score as it is said, the winner's points first: 30–12.
function winnerFirst(score, winner) {
  return [winner, ...score.map((_, t) => t).filter((t) => t !== winner)].map((t) => score[t]).join("–");
}

// The hand just played, in words: who took it, its tricks, what each contest was worth to
// whom, the cards the rules show, the points and the score.
function summarize(score) {
  const h = board.hand;
  if (!h) return;
  const box = $("#summary");
  box.replaceChildren();
  const title = document.createElement("h2");
  title.id = "summary-title";
  title.textContent = `Hand ${h.number}`;
  const list = document.createElement("ul");
  const add = (text) => { const li = document.createElement("li"); li.textContent = text; list.append(li); };
  if (h.winner !== undefined) add(capital(taken(h.winner)));
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
  if (score) {
    const mine = board.game.team_of[board.seat];
    add(`Score: Us ${score[mine]}, Them ${score.filter((_, t) => t !== mine).join(", ")}`);
  }
  box.append(title, list);
}

// -- words -------------------------------------------------------------------------------

// A call's or verb's name as the spec's display labels say (a hand value's, with `kind`
// "values"), else its own name.
function name(word, kind = "calls") {
  const labels = board.labels || {};
  const own = labels[kind] && labels[kind][word];
  if (own) return own;
  if (ANSWERS[word]) return ANSWERS[word];
  return capital(String(word).replaceAll("_", " "));
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
  return `${capital(format)}: ${pair}${playing.includes(board.seat) ? "" : "; you sit this hand out"}`;
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
  const focus = focused() || board.focus;
  board.focus = null;
  board.view = view;
  const obs = view.observation;
  if (!board.hand || board.hand.number !== obs.hand_number) newHand(obs.hand_number);
  $("#board").dataset.version = String(view.version);               // for tests and tools
  drawScore(obs);
  drawTurned(obs);
  drawSeats(obs);
  drawStrip(obs);
  drawMe(obs);
  drawHand(obs);
  drawCalls(obs);
  drawStatus(obs);
  drawStory();
  showInvitations(board.match);
  if (obs.match_over) {
    $("#over-text").textContent = endText(obs);
    openSheet(true);
  }
  restore(focus);
}

function endText(obs) {
  const won = obs.winner === obs.team;
  const last = board.lastScore;
  const why = last && last.team === obs.winner ? ` ${side(last.team)} reached ${obs.target} with ${name(last.reason).toLowerCase()} (+${last.points}).` : "";
  return `${won ? "You win" : "They win"} the match, ${winnerFirst(obs.score, obs.winner)}.${why}`;
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

// What a seat is this hand: partner, bot or invited, dealer, lead, sitting out, facing you.
function seatTags(seat, obs) {
  const out = !obs.playing.includes(seat);
  const mine = seat === board.seat;
  const { bot, claimed } = seatOf(seat);
  const partner = !mine && board.game.team_of[seat] === board.game.team_of[board.seat];
  const faces = !mine && !out && obs.playing.length === 2 && obs.playing.includes(board.seat);
  return [partner ? "partner" : "", !mine && bot ? bot : !mine && !claimed ? "invited" : "",
    seat === obs.dealer ? (mine ? "you deal" : "deals") : "", seat === obs.mano ? (mine ? "you lead" : "leads") : "",
    out ? "sits out" : "", faces ? "faces you" : ""].filter(Boolean);
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
    if (!obs.playing.includes(seat)) el.classList.add("sits-out");
    const nameEl = document.createElement("div");
    nameEl.className = "who";
    nameEl.textContent = `Seat ${seat}`;
    const tag = document.createElement("div");
    tag.className = "tags";
    tag.textContent = seatTags(seat, obs).join(" · ");
    const cards = document.createElement("div");
    cards.className = "cards";
    for (let k = 0; k < obs.hand_sizes[seat]; k++) cards.append(cardBack());
    el.append(nameEl, tag, cards);
    box.append(el);
  }
}

// The seat's own name and tags, beside its hand: it deals or leads like any other seat.
function drawMe(obs) {
  const me = $("#me");
  me.classList.toggle("to-act", obs.to_act === board.seat);
  me.querySelector(".who").textContent = `You · seat ${board.seat}`;
  me.querySelector(".tags").textContent = seatTags(board.seat, obs).join(" · ");
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
  const mark = $("#trick-mark");                     // who took the trick just finished, or Tie
  mark.hidden = !(board.shown.finished && cards.length);
  mark.textContent = board.shown.result || "";
  mark.dataset.result = board.shown.result || "";
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
    box.append(el);
    const result = obs.tricks[k];
    markStrip(k + 1, result === undefined ? "–" : result === "tie" ? "Tie" : side(result));
  }
}

function markStrip(number, text) {
  const el = $("#trick-strip").children[number - 1];
  if (!el) return;
  el.className = `trick ${text === "–" ? "open" : text.toLowerCase()}`;
  el.dataset.result = text;
  el.textContent = `${number}: ${text}`;
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
  let ranked = false;
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
        rank.setAttribute("aria-hidden", "true");
        wrap.append(rank);
        ranked = true;
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
  if (ranked) {                             // the numbers under the cards, explained where they are seen
    const legend = document.createElement("span");
    legend.className = "rank-legend";
    legend.textContent = "Under each card: its rank in the trick order, 1 the highest";
    points.append(legend);
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

// Whose turn it is, in one line: yours (and what you are asked), or which seat's.
function drawStatus(obs) {
  let text = "";
  if (obs.match_over) text = "The match is over.";
  else if (obs.count) {
    const said = obs.count.announced.map((a) => `${who(a.seat)} ${a.value === null ? name("good").toLowerCase() : a.value}`);
    const next = obs.count.next === board.seat ? "your turn to speak" : `${who(obs.count.next)} to speak`;
    text = `Counting ${name(obs.count.contest)}: ${said.join(", ") || "nobody has spoken"}; ${next}.`;
  } else if (obs.pending) {
    const answer = obs.pending.answerer === board.seat ? "your turn to answer" : `${who(obs.pending.answerer)} to answer`;
    text = `${who(obs.pending.by)} called ${name(obs.pending.call)}; ${answer}.`;
  } else if (obs.to_act !== null) {
    text = obs.to_act === board.seat ? "Your turn." : `${who(obs.to_act)} to play.`;
  }
  const duelLine = duel(obs.hand_number, obs.playing);
  const status = $("#status");
  status.textContent = `${duelLine ? `${duelLine}. ` : ""}${text} Hand ${obs.hand_number}, worth ${obs.hand_worth}.`;
  status.classList.toggle("mine", obs.to_act === board.seat);
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

// -- the replay log ----------------------------------------------------------------------

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Whether the revealed seed and salt hash to the commitment this board was given when it
// opened the match: the deal was fixed before anyone joined. (Browsers hash only on secure
// pages, such as a loopback address or https; elsewhere the board says how to check.)
async function verify(log) {
  if (!(window.crypto && crypto.subtle)) return ["unchecked", `check it: SHA-256 of "${log.seed}:${log.salt}" must be the commitment`];
  const digest = await sha256(`${log.seed}:${log.salt}`);
  if (digest === board.commitment && digest === log.commitment) {
    return ["yes", "SHA-256 of seed:salt is the commitment published when the match was made: the deal was fixed before anyone joined"];
  }
  return ["no", `SHA-256 of seed:salt is ${digest}, not the commitment published when the match was made`];
}

async function showReplay() {
  const log = await api(`matches/${board.match}/log`);         // the seed arrives as its digits: exact
  const box = $("#replay-log");
  box.replaceChildren();
  const [verified, check] = await verify(log);
  const facts = document.createElement("dl");
  for (const [term, value] of [["Rules", `${log.spec} ${JSON.stringify(log.options)}`], ["Seed", log.seed],
    ["Salt", log.salt], ["Commitment", log.commitment], ["Check", check],
    ["Final score", `${side(log.winner)} win ${winnerFirst(log.score, log.winner)}`]]) {
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
  box.dataset.verified = verified;
  box.append(facts, file, moves);
  box.hidden = false;
}

// -- start -------------------------------------------------------------------------------

$("#face-down").addEventListener("click", () => {
  setFaceDown($("#face-down").getAttribute("aria-pressed") !== "true");
  drawHand(board.view.observation);
});
$("#next-hand").addEventListener("click", nextHand);
$("#replay").addEventListener("click", showReplay);
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
