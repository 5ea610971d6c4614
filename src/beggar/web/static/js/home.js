// The home page, the lessons, the famous games and the rules page, filled from /api/options.
import { $, el, siteUrl } from "./dom.js";

const percent = (share) => `${Math.round(share * 100)}%`;

/** What a preset does to a game, as the server measured it, in one or two sentences; `pace`
 * names the pace whose minutes are given (none at instant pace). */
export function measuredText(measured, pace) {
  if (!measured) return "";
  const minutes = measured.minutes[pace];
  const time = minutes === undefined ? ""
    : ` (about ${minutes < 1 ? "a minute" : `${Math.round(minutes)} minute${Math.round(minutes) === 1 ? "" : "s"}`} at ${pace} pace)`;
  const ends = [];
  if (measured.stopped) ends.push(`${percent(measured.stopped)} stopped by a limit`);
  if (measured.loops) ends.push(`${percent(measured.loops)} end in a repeat`);
  return `A typical game turns ${measured.median_cards.toLocaleString("en")} cards${time}; `
    + `1 in 10 goes past ${measured.p90_cards.toLocaleString("en")}. `
    + (ends.length ? `Of every 100 games, ${ends.join(" and ")}. ` : "")
    + `Whoever leads wins ${percent(measured.leader_wins)} of games `
    + `(measured over ${measured.games.toLocaleString("en")} deals).`;
}

/** The same figures in a few words, for a row of the rules page's table. */
function measuredShort(measured) {
  if (!measured) return "";
  const stops = measured.stopped ? `; ${percent(measured.stopped)} stopped` : "";
  return `${measured.median_cards.toLocaleString("en")} cards (1 in 10: over `
    + `${measured.p90_cards.toLocaleString("en")})${stops}; the leader wins ${percent(measured.leader_wins)}`;
}

function fillSelect(select, values, chosen) {
  select.replaceChildren();
  for (const [value, text] of values) {
    const option = el("option", "", text);
    option.value = value;
    select.append(option);
  }
  select.value = chosen;
}

/** Fill every page from the server's options; `actions` start lessons and famous games. */
export function setupHome(options, actions) {
  const presets = options.presets;
  const title = (name) => (presets.find((p) => p.name === name) || { title: name }).title;
  fillSelect(
    $("opt-rules"),
    [["", `The table's own (${title(options.defaults.computer)} with the computer, ${title(options.defaults.friends)} with a friend)`],
      ...presets.map((p) => [p.name, p.title])],
    "",
  );
  const { min, max } = options.limits.players;
  const counts = Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
  fillSelect($("opt-players"), counts.map((n) => [n, n]), String(min));
  fillSelect($("opt-humans"), counts.map((n) => [n, n]), String(min));
  const paces = options.paces.map((p) => [p, p[0].toUpperCase() + p.slice(1)]);
  fillSelect($("opt-pace"), paces, "normal");
  fillSelect($("pace"), paces, "normal");
  const about = () => {
    const preset = presets.find((p) => p.name === $("opt-rules").value);
    const described = (name) => (presets.find((p) => p.name === name) || { description: "" }).description;
    $("opt-rules-about").textContent = preset
      ? preset.description
      : `Against the computer: ${described(options.defaults.computer)} `
        + `With a friend: ${described(options.defaults.friends)}`;
    $("opt-players").value = preset ? preset.settings.players : String(min);
    measured();
  };
  const measured = () => {
    const preset = presets.find((p) => p.name === ($("opt-rules").value || options.defaults.computer));
    $("opt-rules-measured").textContent = preset ? measuredText(preset.measured, $("opt-pace").value) : "";
  };
  $("opt-rules").addEventListener("change", about);
  $("opt-pace").addEventListener("change", measured);
  about();

  const lessons = $("lesson-list");
  lessons.replaceChildren();
  for (const lesson of options.lessons) {
    const item = el("li");
    const start = el("button", "", `Start lesson ${lesson.number}`);
    start.addEventListener("click", () => actions.lesson(lesson.number));
    item.append(el("h2", "", `${lesson.number}. ${lesson.title}`), el("p", "", lesson.intro), start);
    lessons.append(item);
  }
  const famous = $("famous-list");
  famous.replaceChildren();
  for (const game of options.famous) {
    const item = el("li");
    const text = game.cycle
      ? `Never ends: after ${game.cycle.pre_period_tricks} tricks (${game.cycle.pre_period_cards} cards) it enters `
        + `a cycle of ${game.cycle.period_tricks} tricks (${game.cycle.period_cards} cards).`
      : `${game.cards.toLocaleString("en")} cards, ${game.tricks.toLocaleString("en")} tricks.`;
    const buttons = el("div", "row");
    const watch = el("button", "", "Watch");
    watch.setAttribute("aria-label", `Watch ${game.finder} ${game.year}`);
    watch.addEventListener("click", () => actions.famous(game.index));
    const replay = el("a", "button secondary", "Replay");
    replay.href = siteUrl(`r/famous-${game.index}`).href;
    replay.setAttribute("aria-label", `Replay ${game.finder} ${game.year}`);
    const play = el("button", "secondary", "Play this deal");
    play.setAttribute("aria-label", `Play this deal: ${game.finder} ${game.year}`);
    play.addEventListener("click", () => actions.playDeal(game.deal, "standard", 2));
    buttons.append(watch, replay, play);
    item.append(el("h2", "", `${game.finder}, ${game.year}`), el("p", "", text), el("code", "deal", game.deal), buttons);
    famous.append(item);
  }
  showFound(options.found || [], actions);
  const table = el("table", "presets");
  const games = presets.find((p) => p.measured);
  const note = el("p", "hint", games
    ? "A typical game: the median number of cards turned, measured by the kernel over "
      + `${games.measured.games.toLocaleString("en")} random deals of each table.`
    : "");
  const head = table.createTHead().insertRow();
  for (const text of ["Table", "What it is", "A typical game", "Settings"]) head.append(el("th", "", text));
  const body = table.createTBody();
  for (const preset of presets) {
    const row = body.insertRow();
    row.insertCell().textContent = preset.title;
    row.insertCell().textContent = preset.description;
    row.insertCell().textContent = measuredShort(preset.measured);
    const settings = el("details", "settings");
    settings.append(el("summary", "", "Settings"));
    const list = el("ul");
    for (const [key, value] of Object.entries(preset.settings)) list.append(el("li", "", `${key}: ${value}`));
    settings.append(list);
    row.insertCell().append(settings);
  }
  $("preset-table").replaceChildren(note, table);
}

/** The never-ending deals the server's cycle factory found: each is watched or replayed like a
 * famous game. */
function showFound(found, actions) {
  const list = $("found-list");
  list.replaceChildren();
  $("found-group").hidden = !found.length;
  const count = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
  found.forEach((deal, i) => {
    const cycle = deal.cycle;
    const item = el("li");
    const start = cycle.pre_period_tricks === 0
      ? "The deal itself is on its cycle"
      : `After ${count(cycle.pre_period_tricks, "trick")} (${count(cycle.pre_period_cards, "card")}) it enters its cycle`;
    const text = `${deal.rules_title}, ${deal.cards} cards. ${start}, which repeats every `
      + `${count(cycle.period_tricks, "trick")} (${count(cycle.period_cards, "card")}).`;
    const watch = el("button", "", "Watch");
    watch.setAttribute("aria-label", `Watch never-ending deal ${i + 1}`);
    watch.addEventListener("click", () => actions.found(deal.key));
    const replay = el("a", "button secondary", "Replay");
    replay.href = siteUrl(`r/${deal.key}`).href;
    replay.setAttribute("aria-label", `Replay never-ending deal ${i + 1}`);
    const buttons = el("div", "row");
    buttons.append(watch, replay);
    const rules = el("p", "hint");
    rules.append("Rules: ", el("code", "", deal.rules));
    item.append(el("h2", "", `${i + 1}. A cycle of ${count(cycle.period_tricks, "trick")}`), el("p", "", text),
      el("code", "deal", deal.deal), rules, buttons);
    list.append(item);
  });
}

const REMEMBERED = ["opt-rules", "opt-spec", "opt-players", "opt-humans", "opt-pace", "opt-open", "opt-contrast"];

/** High-contrast cards, a setting of this browser: a class on the page's root. */
function applyContrast() {
  document.documentElement.classList.toggle("hc-cards", $("opt-contrast").checked);
}
const SETTINGS_KEY = "beggar-settings";

/** The table settings a person chose last time come back (kept in this browser), and each change
 * is kept. A value the page no longer offers is skipped. */
export function rememberSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  for (const id of REMEMBERED) {
    const input = $(id);
    if (!(id in saved)) continue;
    if (input.type === "checkbox") input.checked = Boolean(saved[id]);
    else if (input.tagName !== "SELECT" || [...input.options].some((o) => o.value === saved[id])) {
      input.value = saved[id];
      if (id === "opt-rules") input.dispatchEvent(new Event("change")); // its description, its players
    }
  }
  const keep = () => {
    const values = {};
    for (const id of REMEMBERED) values[id] = $(id).type === "checkbox" ? $(id).checked : $(id).value;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(values));
  };
  for (const id of REMEMBERED) $(id).addEventListener("change", keep);
  $("opt-spec").addEventListener("input", keep);
  $("opt-contrast").addEventListener("change", applyContrast);
  applyContrast();
}

/** What the home page's settings ask for, for a table of this mode. */
export function chosenSettings(options, mode) {
  const seed = $("opt-seed").value.trim();
  const deal = $("opt-deal").value.trim();
  const extra = $("opt-spec").value.trim().replace(/^:+/, "");
  const open = $("opt-open").checked;
  const chosen = $("opt-rules").value;
  const message = { pace: $("opt-pace").value };
  const base = chosen || options.defaults[mode] || options.defaults.computer;
  const players = Number($("opt-players").value);
  if (chosen || extra || open) message.rules = base + (extra ? `:${extra}` : "") + (open ? ":open-hands=yes" : "");
  const preset = options.presets.find((p) => p.name === base);
  if (!preset || Number(preset.settings.players) !== players) message.players = players;
  const name = $("opt-name").value.trim();
  if (name) message.name = name;
  if (seed) message.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
  if (deal) message.deal = deal;
  return message;
}
