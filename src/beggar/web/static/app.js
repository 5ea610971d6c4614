// The browser side of the table. It holds no game logic: it sends what the person does and
// draws the state the server sends back.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
const SUIT_NAMES = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };
const PAGES = ["home", "lessons", "famous", "rules", "table"];
const SEAT_COLOURS = ["#c0262d", "#1f5fbf", "#b7791f", "#6b3fa0", "#1c7c54", "#d0427f", "#3b3b3b", "#0f8b8d"];
const AUTO_MODES = ["computer", "watch", "famous", "lesson"];

let options = null;
let socket = null;
let state = null;
let me = { table: null, seat: null, token: null, mode: null };
let lastSeq = 0;
let shownEnd = null;
let leaving = false;
let reconnectTimer = null;
let chartPoints = [];
let tableRules = null;

// -- pages -------------------------------------------------------------------------------------

function showPage(name) {
  for (const page of PAGES) $(page).hidden = page !== name;
  if (name !== "table") document.title = "Beggar-My-Neighbour";
}

function route() {
  const match = location.pathname.match(/^\/t\/([a-z0-9]+)$/);
  if (match) {
    joinTable(match[1]);
    return;
  }
  const page = location.hash.replace("#", "") || "home";
  if (me.table && page !== "table") leaveTable(false);
  showPage(PAGES.includes(page) && page !== "table" ? page : "home");
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// -- the connection ------------------------------------------------------------------------------

function connect(first) {
  if (socket) {
    leaving = true;
    socket.close();
  }
  leaving = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  socket = ws;
  ws.onopen = () => send(first);
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    if (ws !== socket || leaving) return;
    if (me.mode === "friends" && me.table) {
      $("prompt").textContent = "Connection lost: reconnecting…";
      reconnectTimer = setTimeout(() => connect({ type: "join", table: me.table, token: me.token }), 1000);
    } else if (me.table) {
      showError("The connection to the table was lost; the game has ended.");
      me = { table: null, seat: null, token: null, mode: null };
      history.replaceState(null, "", "/#home");
      showPage("home");
    }
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "joined") {
    me.table = message.table;
    me.seat = message.seat;
    if (message.token) {
      me.token = message.token;
      localStorage.setItem(`beggar-token-${message.table}`, message.token);
    }
    lastSeq = 0;
    $("log").replaceChildren();
    showPage("table");
    $("main").focus();
  } else if (message.type === "state") {
    render(message);
  } else if (message.type === "error") {
    showError(message.message);
  } else if (message.type === "left") {
    me = { table: null, seat: null, token: null, mode: null };
  }
}

function settings() {
  const seed = $("opt-seed").value.trim();
  const deal = $("opt-deal").value.trim();
  const extra = $("opt-spec").value.trim().replace(/^:+/, "");
  const message = {
    rules: $("opt-rules").value + (extra ? `:${extra}` : "") + ($("opt-open").checked ? ":open-hands=yes" : ""),
    pace: $("opt-pace").value,
    players: Number($("opt-players").value),
  };
  const name = $("opt-name").value.trim();
  if (name) message.name = name;
  if (seed) message.seed = Number(seed);
  if (deal) message.deal = deal;
  return message;
}

function create(mode, extra = {}) {
  clearTimeout(reconnectTimer);
  me = { table: null, seat: null, token: null, mode };
  shownEnd = null;
  const base = mode === "lesson" || mode === "famous" ? { pace: extra.pace || "normal" } : settings();
  if (mode === "friends") base.humans = Number($("opt-humans").value);
  connect({ type: "create", mode, ...base, ...extra });
}

function joinTable(tableId) {
  clearTimeout(reconnectTimer);
  me = { table: tableId, seat: null, mode: "friends", token: localStorage.getItem(`beggar-token-${tableId}`) };
  shownEnd = null;
  const join = { type: "join", table: tableId };
  if (me.token) join.token = me.token;
  const name = $("opt-name").value.trim();
  if (name) join.name = name;
  showPage("table");
  connect(join);
}

function leaveTable(goHome = true) {
  send({ type: "leave" });
  leaving = true;
  if (socket) socket.close();
  socket = null;
  me = { table: null, seat: null, token: null, mode: null };
  state = null;
  if (goHome) {
    history.pushState(null, "", "/#home");
    showPage("home");
  }
}

// -- drawing -------------------------------------------------------------------------------------

function cardName(card) {
  if (!card.rank) return "a number card";
  const rank = RANK_NAMES[card.rank] || card.rank;
  return card.suit ? `${rank} of ${SUIT_NAMES[card.suit]}` : rank;
}

function cardElement(card) {
  const el = document.createElement("div");
  const suit = SUITS[card.suit] || "";
  el.className = "card";
  if (card.suit === "H" || card.suit === "D") el.classList.add("red");
  if (RANK_NAMES[card.rank]) el.classList.add("pay");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(card));
  const rank = card.rank || "–";
  const top = document.createElement("span");
  top.className = "corner";
  top.textContent = `${rank}${suit}`;
  const pip = document.createElement("span");
  pip.className = "big-pip";
  pip.textContent = suit || rank;
  const bottom = top.cloneNode(true);
  bottom.classList.add("bottom");
  el.append(top, pip, bottom);
  return el;
}

function tableTitle(s) {
  if (s.lesson) return `Lesson ${s.lesson.number}: ${s.lesson.title}`;
  if (s.famous) return `${s.famous.finder} ${s.famous.year}`;
  const names = s.seats.map((seat) => seat.name).join(" · ");
  if (s.mode === "friends") return `Table ${s.table}: ${names}`;
  if (s.mode === "watch") return `Watching ${names}`;
  return names;
}

function render(s) {
  const newGame = !state || state.table !== s.table || s.cards < state.cards;
  if (s.rules) tableRules = s.rules;
  s.rules = tableRules;
  state = s;
  me.mode = s.mode;
  document.title = `${tableTitle(s)} — Beggar-My-Neighbour`;
  $("table-title").textContent = tableTitle(s);
  $("rules-line").textContent = `Rules: ${s.rules.name}. ` + rulesSummary(s.rules.settings);
  const friendLink = s.mode === "friends" && s.you !== null;
  $("share").hidden = !friendLink;
  if (friendLink) $("share-link").value = `${location.origin}/t/${s.table}`;
  if (s.mode === "friends" && location.pathname !== `/t/${s.table}`) history.replaceState(null, "", `/t/${s.table}`);

  drawSeats(s, newGame);
  drawPile(s);
  $("prompt").textContent = s.prompt;
  const lesson = s.mode === "lesson";
  const player = s.you !== null && s.you !== undefined;
  const mine = player && (lesson || s.to_play === s.you);
  const auto = player && s.seats[s.you].automatic;
  const turn = $("turn");
  turn.textContent = lesson ? "Next card" : "Turn my card";
  turn.hidden = !player || (s.mode !== "computer" && s.mode !== "friends" && !lesson);
  turn.disabled = !mine || s.over !== null || s.paused || auto;
  $("pause").textContent = s.paused ? "Resume" : "Pause";
  $("pause").disabled = !player || s.over !== null;
  $("auto").setAttribute("aria-pressed", String(auto));
  $("auto").textContent = auto ? "Stop watching" : (lesson ? "Play it for me" : "Watch both players");
  $("auto").hidden = !player || s.mode === "watch" || s.mode === "famous";
  $("again").hidden = !player;
  $("again").textContent = lesson || s.mode === "famous" ? "Start again" : "New game";
  $("pace").value = s.pace;
  $("pace").disabled = !player;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  let counts = `${plural(s.cards, "card")} turned, ${plural(s.tricks, "trick")}.`;
  if (s.time_left !== null) counts += ` Time left: ${Math.ceil(s.time_left / 60)} min.`;
  if (!player) counts += " You are watching.";
  $("counts").textContent = counts;
  drawLog(s);
  drawChart(s);
  drawEnd(s);
}

function rulesSummary(settings) {
  const parts = [`pay ${settings.pay}`, settings.deck, `${settings.players} players`];
  if (settings["max-cards"] !== "none") parts.push(`stops after ${settings["max-cards"]} cards`);
  if (settings["max-tricks"] !== "none") parts.push(`stops after ${settings["max-tricks"]} tricks`);
  if (settings["time-limit"] !== "none") parts.push(`time limit ${settings["time-limit"]}`);
  return parts.join(", ") + ".";
}

function drawSeats(s, newGame) {
  const box = $("seats");
  box.replaceChildren();
  s.seats.forEach((seat, index) => {
    const el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = String(index);
    if (s.to_play === index) el.classList.add("to-play");
    if (seat.out) el.classList.add("out");
    if (!newGame && s.last_take && s.last_take.seat === index && state.version && s.last_take.trick === s.tricks) {
      el.classList.add("took");
    }
    const name = document.createElement("div");
    name.className = "name";
    let label = seat.name;
    const seated = s.mode === "computer" || s.mode === "friends";
    if (index === s.you && seated) label += " (you)";
    else if (!seat.human && seated) label += " (computer)";
    else if (!seat.taken && s.mode === "friends") label += " (waiting for a friend)";
    else if (!seat.connected && s.mode === "friends") label += " (away)";
    name.textContent = label;
    const stack = document.createElement("div");
    stack.className = "stack" + (seat.cards ? "" : " empty");
    const back = document.createElement("div");
    back.className = "back";
    stack.append(back);
    stack.setAttribute("aria-hidden", "true");
    const count = document.createElement("div");
    count.className = "count";
    count.textContent = `${seat.cards} card${seat.cards === 1 ? "" : "s"}`;
    el.append(name, stack, count);
    if (seat.stack) {
      const open = document.createElement("div");
      open.className = "open-stack";
      open.setAttribute("aria-label", `${seat.name}'s stack, top first`);
      for (const card of seat.stack) open.append(cardElement(card));
      el.append(open);
    }
    if (seat.out) {
      const out = document.createElement("div");
      out.textContent = "out";
      el.append(out);
    }
    box.append(el);
  });
}

function drawPile(s) {
  const pile = $("pile");
  pile.replaceChildren();
  const shown = s.pile.slice(-8);
  const width = pile.clientWidth || 300;
  const cardWidth = width < 360 ? 56 : 76;
  const step = shown.length > 1 ? Math.min(34, (width - cardWidth) / (shown.length - 1)) : 0;
  const start = (width - cardWidth - step * (shown.length - 1)) / 2;
  shown.forEach((card, i) => {
    const el = cardElement(card);
    el.style.left = `${start + i * step}px`;
    if (i === shown.length - 1) el.classList.add("newest");
    pile.append(el);
  });
  $("pile-count").textContent = s.pile.length
    ? `${s.pile.length} card${s.pile.length === 1 ? "" : "s"} in the pile; top: ${cardName(s.pile[s.pile.length - 1])}.`
    : "The pile is empty.";
}

function drawLog(s) {
  const log = $("log");
  const fresh = s.log.filter((line) => line.seq > lastSeq);
  if (!fresh.length) return;
  if (fresh[0].seq > lastSeq + 1) log.replaceChildren();
  for (const line of fresh) {
    const item = document.createElement("li");
    item.textContent = line.text;
    if (line.note) {
      const note = document.createElement("span");
      note.className = "note";
      note.textContent = line.note;
      item.append(note);
    }
    log.append(item);
  }
  while (log.children.length > 200) log.firstChild.remove();
  lastSeq = fresh[fresh.length - 1].seq;
  log.scrollTop = log.scrollHeight;
  const latest = fresh.slice(-2).map((line) => [line.text, line.note].filter(Boolean).join(" ")).join(" ");
  $("narration").textContent = latest;
  const note = [...s.log].reverse().find((line) => line.note);
  $("lesson-note").hidden = s.mode !== "lesson" || !note;
  if (note) $("lesson-note").textContent = note.note;
}

function drawChart(s) {
  chartPoints = s.history_start === 0 ? s.history.slice() : chartPoints.concat(s.history);
  const show = s.mode === "famous" || (s.over !== null && chartPoints.length > 1);
  $("chart-box").hidden = !show;
  if (!show) return;
  const svg = $("chart");
  const W = 600, H = 180, L = 40, B = 24, T = 10, R = 10;
  const points = chartPoints;
  const total = points[0].reduce((a, b) => a + b, 0) || 1;
  const n = Math.max(1, points.length - 1);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + (1 - v / total) * (H - T - B);
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const axis = document.createElementNS(ns, "path");
  axis.setAttribute("d", `M${L},${T} V${H - B} H${W - R}`);
  axis.setAttribute("stroke", "#555");
  axis.setAttribute("fill", "none");
  svg.append(axis);
  const label = (text, tx, ty, anchor = "start") => {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", tx);
    t.setAttribute("y", ty);
    t.setAttribute("font-size", "11");
    t.setAttribute("text-anchor", anchor);
    t.textContent = text;
    svg.append(t);
  };
  label(String(total), L - 4, T + 8, "end");
  label("0", L - 4, H - B, "end");
  label(`trick ${points.length - 1}`, W - R, H - 6, "end");
  label("trick 0", L, H - 6);
  s.seats.forEach((seat, k) => {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", points.map((p, i) => `${x(i).toFixed(1)},${y(p[k]).toFixed(1)}`).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", SEAT_COLOURS[k % SEAT_COLOURS.length]);
    line.setAttribute("stroke-width", "1.5");
    svg.append(line);
    label(`${seat.name}: ${points[points.length - 1][k]}`, L + 6 + k * 90, T + 12);
    svg.lastChild.setAttribute("fill", SEAT_COLOURS[k % SEAT_COLOURS.length]);
  });
  $("chart-caption").textContent = `Cards in each stack after each of ${points.length - 1} tricks`;
}

function drawEnd(s) {
  const dialog = $("end");
  if (!s.over) {
    shownEnd = null;
    if (dialog.open) dialog.close();
    return;
  }
  const key = `${s.table}:${s.over.deal}:${s.cards}`;
  if (shownEnd === key) return;
  shownEnd = key;
  $("end-title").textContent = s.prompt;
  $("end-sentence").textContent = s.over.sentence;
  const facts = $("end-facts");
  facts.replaceChildren();
  const fact = (term, value) => {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    facts.append(dt, dd);
  };
  fact("Cards turned", String(s.over.cards));
  fact("Tricks", String(s.over.tricks));
  fact("Result", { finished: "finished", loop: "a loop: it would never end", stopped: "stopped" }[s.over.status]);
  fact("Cards held", s.seats.map((seat, i) => `${seat.name} ${s.over.holdings[i]}`).join(", "));
  $("end-deal").textContent = s.over.deal;
  $("end-again").hidden = s.you === null;
  if (!dialog.open) dialog.showModal();
}

// -- the home page ---------------------------------------------------------------------------------

function fillSelect(select, values, chosen) {
  select.replaceChildren();
  for (const [value, text] of values) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    select.append(option);
  }
  select.value = chosen;
}

function setupHome() {
  fillSelect($("opt-rules"), options.presets.map((p) => [p.name, p.name]), "standard");
  fillSelect($("opt-players"), [2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n)]), "2");
  fillSelect($("opt-humans"), [2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n)]), "2");
  const paces = options.paces.map((p) => [p, p]);
  fillSelect($("opt-pace"), paces, "normal");
  fillSelect($("pace"), paces, "normal");
  const about = () => {
    const preset = options.presets.find((p) => p.name === $("opt-rules").value);
    $("opt-rules-about").textContent = preset ? preset.description : "";
    if (preset) $("opt-players").value = preset.settings.players;
  };
  $("opt-rules").addEventListener("change", about);
  about();

  const lessons = $("lesson-list");
  for (const lesson of options.lessons) {
    const item = document.createElement("li");
    const title = document.createElement("h2");
    title.textContent = `${lesson.number}. ${lesson.title}`;
    const intro = document.createElement("p");
    intro.textContent = lesson.intro;
    const start = document.createElement("button");
    start.textContent = `Start lesson ${lesson.number}`;
    start.addEventListener("click", () => create("lesson", { lesson: lesson.number }));
    item.append(title, intro, start);
    lessons.append(item);
  }
  const famous = $("famous-list");
  for (const game of options.famous) {
    const item = document.createElement("li");
    const title = document.createElement("h2");
    title.textContent = `${game.finder}, ${game.year}`;
    const about = document.createElement("p");
    about.textContent = game.cycle_tricks
      ? `Never ends: a cycle of ${game.cycle_tricks} tricks.`
      : `${game.cards} cards, ${game.tricks} tricks.`;
    const deal = document.createElement("code");
    deal.textContent = game.deal;
    const watch = document.createElement("button");
    watch.textContent = "Watch";
    watch.setAttribute("aria-label", `Watch ${game.finder} ${game.year}`);
    watch.addEventListener("click", () => create("famous", { famous: game.index, pace: "fast" }));
    item.append(title, about, deal, watch);
    famous.append(item);
  }
  const table = document.createElement("table");
  table.className = "presets";
  const head = table.createTHead().insertRow();
  for (const text of ["Preset", "What it is", "Settings"]) {
    const th = document.createElement("th");
    th.textContent = text;
    head.append(th);
  }
  const body = table.createTBody();
  for (const preset of options.presets) {
    const row = body.insertRow();
    row.insertCell().textContent = preset.name;
    row.insertCell().textContent = preset.description;
    row.insertCell().textContent = Object.entries(preset.settings).map(([k, v]) => `${k}: ${v}`).join("; ");
  }
  $("preset-table").append(table);
}

function wire() {
  $("play-computer").addEventListener("click", () => create("computer"));
  $("play-friend").addEventListener("click", () => create("friends"));
  $("watch-game").addEventListener("click", () => create("watch"));
  $("turn").addEventListener("click", () => send({ type: "turn" }));
  $("pause").addEventListener("click", () => send({ type: state && state.paused ? "resume" : "pause" }));
  $("auto").addEventListener("click", () => {
    const on = $("auto").getAttribute("aria-pressed") !== "true";
    send({ type: "watch", on });
  });
  $("again").addEventListener("click", () => send({ type: "new-game" }));
  $("leave").addEventListener("click", () => leaveTable(true));
  $("pace").addEventListener("change", () => send({ type: "pace", pace: $("pace").value }));
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("share-link").value);
      $("copy-link").textContent = "Copied";
    } catch {
      $("share-link").select();
    }
  });
  $("end-again").addEventListener("click", () => {
    $("end").close();
    send({ type: "new-game" });
  });
  $("end-close").addEventListener("click", () => $("end").close());
  document.addEventListener("keydown", (event) => {
    if ($("table").hidden || $("end").open) return;
    if (event.key !== " " && event.key !== "Enter") return;
    const tag = event.target.tagName;
    if (["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A", "SUMMARY"].includes(tag)) return;
    event.preventDefault();
    if (!$("turn").disabled && !$("turn").hidden) $("turn").click();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && state && AUTO_MODES.includes(state.mode) && state.you !== null
        && !state.paused && !state.over) {
      send({ type: "pause" });
    }
  });
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", route);
}

async function start() {
  wire();
  try {
    const response = await fetch("/api/options");
    options = await response.json();
    setupHome();
  } catch {
    showError("Could not reach the server. Reload the page to try again.");
    return;
  }
  route();
}

start();
