// The web board: any spec's match, seen from one seat, driven only by the public API.
// Nothing here knows a variant: calls, cards and values come from the server's game
// description and the seat's view.

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const BANNER_MS = params.has("fast") ? 400 : 1600;
const BOX = 5;                               // matchsticks are drawn in boxes of five
const KEEPALIVE_MS = 60000;                  // the server closes streams silent for longer
const INVITED = "";                          // the value of a seat left open for an invited player
const ANSWERS = { accept: "Accept", decline: "Decline", fold: "Fold", announce: "Announce", good: "Yours are good" };

const board = { match: null, seat: null, token: null, game: null, view: null, socket: null, banners: [] };

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
  $("#lobby").hidden = true;
  $("#board").hidden = false;
  document.title = `${info.game.title} — seat ${board.seat}`;
  render(await api(`matches/${match}/view`));
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
    data.events.forEach((event) => narrate(event));
    seen = data.seq + data.events.length;
    render(data.view);
  });
  socket.addEventListener("close", () => {
    clearInterval(keepalive);
    if (!(board.view && board.view.observation.match_over)) setTimeout(() => listen(seen), 1000);
  });
}

async function act(action) {
  showError("");
  try {
    render(await api(`matches/${board.match}/actions`, {
      method: "POST", body: JSON.stringify({ action, version: board.view.version }),
    }));
  } catch (err) {
    showError(err.message);
  }
}

function showError(text) {
  $("#error").textContent = text;
}

// -- words -------------------------------------------------------------------------------

function label(action) {
  if (ANSWERS[action]) return ANSWERS[action];
  const words = action.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function who(seat) {
  if (seat === board.seat) return "You";
  const partner = board.game.team_of[seat] === board.game.team_of[board.seat];
  return `Seat ${seat}${partner ? " (partner)" : ""}`;
}

function side(team) {
  return team === board.game.team_of[board.seat] ? "Us" : "Them";
}

function isCall(action) {
  const verb = action.split(" ")[0];
  return verb !== "play" && verb !== "cover";
}

// Events become log lines; calls, answers and announcements also light the banner.
function narrate(event) {
  let line = null;
  if (event.type === "deal") line = `Hand ${event.hand}: ${who(event.dealer)} dealt${event.turned ? `, turned ${event.turned}` : ""}`;
  else if (event.type === "hand") line = `Your cards: ${event.cards.join(" ")}`;
  else if (event.type === "action" && (event.action === "announce" || event.action === "good")) {
    line = null;                             // the count's own events say it
  } else if (event.type === "action") {
    const what = event.hidden ? "a card face down" : event.card ? `${event.action} ${event.card} (face down)` : event.action;
    line = `${who(event.seat)}: ${what}`;
    if (isCall(event.action)) banner(`${who(event.seat)}: ${label(event.action)}!`);
  } else if (event.type === "announce") {
    line = `${who(event.seat)} announce${event.seat === board.seat ? "" : "s"} ${event.value}`;
    banner(`${who(event.seat)}: ${event.value}`);
  } else if (event.type === "good") {
    line = `${who(event.seat)}: ${ANSWERS.good.toLowerCase()}`;
    banner(`${who(event.seat)}: ${ANSWERS.good}`);
  } else if (event.type === "trick") line = `Trick ${event.number}: ${event.winner === null ? "Tie" : side(event.winner)}`;
  else if (event.type === "score") line = `${side(event.team)} +${event.points} (${event.reason.replaceAll("_", " ")})`;
  else if (event.type === "hand_over") {
    line = `Hand over: ${event.winner === null ? "nobody scores" : `${side(event.winner)} take the hand`}`;
    banner(line);
  }
  else if (event.type === "match_over") banner(event.winner === board.game.team_of[board.seat] ? "You win the match!" : "They win the match");
  if (line) {
    const item = document.createElement("li");
    item.textContent = line;
    $("#log").append(item);
  }
}

function banner(text) {
  board.banners.push(text);
  if (board.banners.length === 1) showBanner();
}

function showBanner() {
  const el = $("#banner");
  if (!board.banners.length) {
    el.hidden = true;
    return;
  }
  el.textContent = board.banners[0];
  el.hidden = false;
  el.classList.remove("flash");
  void el.offsetWidth;                       // restart the animation
  el.classList.add("flash");
  setTimeout(() => { board.banners.shift(); showBanner(); }, BANNER_MS);
}

// -- drawing -----------------------------------------------------------------------------

function cardFace(id) {
  const deck = board.game.deck;
  const suit = deck.suits.find((s) => id.endsWith(s)) ?? "";
  const el = document.createElement("span");
  el.className = `face suit-${deck.suits.indexOf(suit)}`;
  el.innerHTML = `<b></b><i></i>`;
  el.querySelector("b").textContent = id.slice(0, id.length - suit.length);
  el.querySelector("i").textContent = suit;
  el.dataset.card = id;
  return el;
}

function cardBack() {
  const el = document.createElement("span");
  el.className = "back";
  return el;
}

function render(view) {
  if (board.view && view.version < board.view.version) return;     // a late answer: keep the newer view
  board.view = view;
  const obs = view.observation;
  $("#board").dataset.version = String(view.version);               // for tests and tools
  drawScore(obs);
  drawSeats(obs);
  drawTrick(obs);
  drawStrip(obs);
  drawHand(obs);
  drawCalls(obs);
  drawStatus(obs);
  showInvitations(board.match);
  if (obs.match_over) {
    $("#over").hidden = false;
    $("#over-text").textContent = obs.winner === obs.team ? "You win the match." : "They win the match.";
  }
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
    for (const [from, to, name] of halves) {
      const half = document.createElement("span");
      half.className = `half ${name}`;
      if (name) half.title = name;
      for (let p = from; p <= to; p++) {
        const stick = document.createElement("span");
        stick.className = `stick${p <= obs.score[team] ? " lit" : ""}${(p - from) % BOX === BOX - 1 ? " fifth" : ""}`;
        half.append(stick);
      }
      row.append(half);
    }
    box.append(row);
  }
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
    const name = document.createElement("div");
    name.className = "who";
    const { bot, claimed } = seatOf(seat);
    const kind = bot ? ` · ${bot}` : claimed ? "" : " · invited, not yet here";
    name.textContent = `${who(seat)}${kind}${seat === obs.dealer ? " · deals" : ""}${seat === obs.mano ? " · leads" : ""}`;
    const cards = document.createElement("div");
    cards.className = "cards";
    for (let k = 0; k < obs.hand_sizes[seat]; k++) cards.append(cardBack());
    el.append(name, cards);
    box.append(el);
  }
}

function seatOf(seat) {
  return board.view.seats.find((x) => x.seat === seat) || { bot: null, claimed: true };
}

// The trick being played; between tricks, the last one played, shown as done.
function shownTrick(obs) {
  if (obs.table.length === obs.trick) return { cards: obs.table[obs.table.length - 1], done: false };
  return { cards: obs.table.length ? obs.table[obs.table.length - 1] : [], done: true };
}

function drawTrick(obs) {
  const turned = $("#turned");
  turned.hidden = !obs.turned;
  turned.querySelector(".slot").replaceChildren(...(obs.turned ? [cardFace(obs.turned)] : []));
  const box = $("#trick");
  box.replaceChildren();
  const { cards, done } = shownTrick(obs);
  box.classList.toggle("done", done);
  for (const played of cards) {
    const el = document.createElement("div");
    el.className = `played pos-${obs.players}-${position(played.seat, obs.players)}`;
    el.dataset.seat = String(played.seat);
    el.append(played.card ? cardFace(played.card) : cardBack());
    if (played.covered) el.classList.add("covered");
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
    obs.legal.filter((a) => a.startsWith("play @")).forEach((action) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "card playable";
      button.dataset.action = action;
      button.setAttribute("aria-label", `card ${action.slice(6)}`);
      button.append(cardBack());
      button.addEventListener("click", () => act(action));
      box.append(button);
    });
  } else {
    for (const card of obs.hand) {
      const action = `${down ? "cover" : "play"} ${card}`;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "card";
      button.append(cardFace(card));
      button.setAttribute("aria-label", card);
      if (legal.has(action)) {
        button.classList.add("playable");
        button.dataset.action = action;
        button.addEventListener("click", () => act(action));
      } else {
        button.disabled = true;
      }
      box.append(button);
    }
  }
  const points = $("#points");
  points.replaceChildren();
  const first = board.game.contests[0];
  const shown = Object.entries(obs.values).filter(([, v]) => v !== null);
  for (const [name, value] of shown) {
    const el = document.createElement("span");
    el.className = "value";
    el.dataset.value = name;
    el.textContent = first && name === first.value ? `Points ${value}` : `${label(name)} ${value}`;
    points.append(el);
  }
}

function setFaceDown(on) {
  $("#face-down").setAttribute("aria-pressed", on ? "true" : "false");
}

function drawCalls(obs) {
  const bar = $("#call-bar");
  bar.replaceChildren();
  for (const action of obs.legal.filter(isCall)) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `call verb-${action.split(" ")[0]}`;
    button.dataset.action = action;
    button.textContent = label(action);
    button.addEventListener("click", () => act(action));
    bar.append(button);
  }
}

function drawStatus(obs) {
  let text = "";
  if (obs.match_over) text = "The match is over.";
  else if (obs.count) {
    const said = obs.count.announced.map((a) => `${who(a.seat)} ${a.value === null ? ANSWERS.good.toLowerCase() : a.value}`);
    text = `Counting ${label(obs.count.contest).toLowerCase()}: ${said.join(", ") || "nobody has spoken"}; ${who(obs.count.next)} to speak.`;
  } else if (obs.pending) {
    text = `${who(obs.pending.by)} called ${label(obs.pending.call)}; ${who(obs.pending.answerer)} to answer.`;
  } else if (obs.to_act !== null) {
    text = obs.to_act === board.seat ? "Your turn." : `${who(obs.to_act)} to play.`;
  }
  $("#status").textContent = `${text} Hand ${obs.hand_number}, worth ${obs.hand_worth}.`;
}

// -- start -------------------------------------------------------------------------------

$("#face-down").addEventListener("click", () => {
  setFaceDown($("#face-down").getAttribute("aria-pressed") !== "true");
  drawHand(board.view.observation);
});
$("#replay").addEventListener("click", async () => {
  const log = await api(`matches/${board.match}/log`);
  $("#replay-log").textContent = JSON.stringify({ ...log, events: `${log.events.length} events` }, null, 2);
  $("#replay-log").hidden = false;
});

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
