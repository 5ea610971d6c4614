// @ts-check
// The home page, the lessons, the famous games and the rules page, filled from /api/options.
import { el, fillSelect, siteUrl, within } from "./dom.js";

// The settings kept in this browser between visits.
const REMEMBERED = ["opt-rules", "opt-spec", "opt-players", "opt-humans", "opt-pace", "opt-open", "opt-contrast"];
const SETTINGS_KEY = "beggar-settings";

const percent = (share) => `${Math.round(share * 100)}%`;

/** What a preset does to a game with some number of players, as the server measured it, in one
 * or two sentences; `pace` names the pace whose minutes are given (none at instant pace). */
export function measuredText(measured, pace) {
  if (!measured) return "";
  const minutes = measured.minutes[pace];
  const time = minutes === undefined ? ""
    : ` (about ${minutes < 1 ? "a minute" : `${Math.round(minutes)} minute${Math.round(minutes) === 1 ? "" : "s"}`} at ${pace} pace)`;
  const ends = [];
  if (measured.stopped) ends.push(`${percent(measured.stopped)} stopped by a limit`);
  if (measured.loops) ends.push(`${percent(measured.loops)} end in a repeat`);
  return `With ${measured.players} players, a typical game turns ${measured.median_cards.toLocaleString("en")} cards${time}; `
    + `1 in 10 goes past ${measured.p90_cards.toLocaleString("en")}. `
    + (ends.length ? `Of every 100 games, ${ends.join(" and ")}. ` : "")
    + `Whoever leads wins ${percent(measured.leader_wins)} of games `
    + `(measured over ${measured.games.toLocaleString("en")} deals).`;
}

/** What stands instead of a preset's figures once house rules are added to it: they were measured
 * for the preset as listed, and would be untrue of the game those rules make. */
export function unmeasuredText(title) {
  return `No figures are shown: they were measured for "${title}" as listed, and your house rules change the game.`;
}

/** The same figures in a few words, for a row of the rules page's table. */
function measuredShort(measured) {
  if (!measured) return "";
  const stops = measured.stopped ? `; ${percent(measured.stopped)} stopped` : "";
  return `${measured.players} players: ${measured.median_cards.toLocaleString("en")} cards (1 in 10: over `
    + `${measured.p90_cards.toLocaleString("en")})${stops}; the leader wins ${percent(measured.leader_wins)}`;
}

/** The home page's settings form and its three ways to start a table. It owns #home's form;
 * `create(mode)` is called with "computer", "friends" or "watch". */
export class HomeForm {
  constructor(root, { create }) {
    this.root = root;
    this.$ = within(root);
    this.options = null;
    /** The number of players this person chose (a string, as the field holds it); null: none. */
    this.wantedPlayers = null;
    const $ = this.$;
    $("play-computer").addEventListener("click", () => create("computer"));
    $("play-friend").addEventListener("click", () => create("friends"));
    $("watch-game").addEventListener("click", () => create("watch"));
    const setup = $("setup");
    const clear = (event) => {
      if (event.target.getAttribute("aria-invalid")) this.clearSettingError();
    };
    setup.addEventListener("input", clear);
    setup.addEventListener("change", clear);
    // A deal typed here is checked by the server once the field is left, not only at Play.
    $("opt-deal").addEventListener("change", () => this.checkDeal());
    // Leaving the deal's field by pressing on a control below it starts that check; its error,
    // shown by the field, moves what lies below, so it waits until the press has become a click.
    this.pressing = false;
    document.addEventListener("pointerdown", () => { this.pressing = true; }, true);
    document.addEventListener("pointerup", () => { this.pressing = false; }, true);
    document.addEventListener("pointercancel", () => { this.pressing = false; }, true);
    // A person's name is remembered, so that a friend opening a link is seated under it.
    $("opt-name").value = localStorage.getItem("beggar-name") || "";
    $("opt-name").addEventListener("input", () => localStorage.setItem("beggar-name", this.name));
  }

  /** The name this person gave (maybe empty). */
  get name() {
    return this.$("opt-name").value.trim();
  }

  /** A name given at the table becomes the one remembered here. */
  set name(name) {
    this.$("opt-name").value = name;
    localStorage.setItem("beggar-name", name);
  }

  /** How many people a friend table seats. */
  get humans() {
    return Number(this.$("opt-humans").value);
  }

  /** The pace chosen here, for a deal played from a replay or a famous game. */
  get pace() {
    return this.$("opt-pace").value;
  }

  /** Fill the form from the server's options, then bring back the settings kept in this browser. */
  fill(options) {
    this.options = options;
    const $ = this.$;
    // The play buttons wait, disabled, for the options: what they ask for depends on them.
    for (const id of ["play-computer", "play-friend", "watch-game"]) $(id).disabled = false;
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
    fillSelect($("opt-pace"), paceChoices(options), "normal");
    this.fitHumans();
    const about = () => {
      const preset = presets.find((p) => p.name === $("opt-rules").value);
      const described = (name) => (presets.find((p) => p.name === name) || { description: "" }).description;
      $("opt-rules-about").textContent = preset
        ? preset.description
        : `Against the computer: ${described(options.defaults.computer)} `
          + `With a friend: ${described(options.defaults.friends)}`;
      this.fitPlayers();
      // The play buttons say which rules they deal.
      $("play-computer").querySelector("small").textContent = preset ? preset.title : title(options.defaults.computer);
      $("play-friend").querySelector("small").textContent = preset ? preset.title : title(options.defaults.friends);
      this.showMeasured();
    };
    $("opt-rules").addEventListener("change", about);
    $("opt-pace").addEventListener("change", () => this.showMeasured());
    // Only once the field is left: the figures stand above it, and would move it while typing;
    // and, left by a press on a control below, once the press has become its click.
    $("opt-spec").addEventListener("change", async () => {
      await this.afterPress();
      this.showMeasured();
    });
    $("opt-players").addEventListener("change", () => {
      this.wantedPlayers = $("opt-players").value;
      this.fitHumans();
      this.showMeasured();
    });
    about();
    this.remember();
  }

  /** The preset the Rules field names (undefined for the table's own). */
  get preset() {
    return this.options.presets.find((p) => p.name === this.$("opt-rules").value);
  }

  /** The house rules typed in More house rules, without the colons that would join them to the
   * preset's name (empty: none). */
  get extra() {
    return this.$("opt-spec").value.trim().replace(/^:+/, "");
  }

  /** What the chosen rules (the computer's table for the table's own) do to a game with the
   * number of players chosen, as measured; the sentence names that number. House rules added to
   * them make another game, which nobody measured: then the sentence says so instead. */
  showMeasured() {
    const $ = this.$;
    const preset = this.preset || this.options.presets.find((p) => p.name === this.options.defaults.computer);
    const figures = preset && (preset.measured[$("opt-players").value] || preset.measured[preset.settings.players]);
    $("opt-rules-measured").textContent = !figures ? ""
      : this.extra ? unmeasuredText(preset.title)
        : measuredText(figures, $("opt-pace").value);
  }

  /** The numbers of players the chosen rules may seat: a rule for two players says so by the
   * field. The number a person chose stays where the rules allow it; otherwise the preset's own. */
  fitPlayers() {
    const $ = this.$;
    const preset = this.preset;
    const { min } = this.options.limits.players;
    const allowed = preset ? preset.player_counts.map(String) : null;
    for (const option of $("opt-players").options) option.disabled = Boolean(allowed) && !allowed.includes(option.value);
    const wanted = this.wantedPlayers;
    $("opt-players").value = wanted && (!allowed || allowed.includes(wanted))
      ? wanted
      : preset ? preset.settings.players : String(min);
    const only = allowed && allowed.length === 1;
    $("opt-players-about").hidden = !only;
    $("opt-players-about").textContent = only ? `${preset.title} is a game for ${allowed[0]} players only.` : "";
    this.fitHumans();
  }

  /** A friend table seats 2 people up to as many as the table has seats. */
  fitHumans() {
    const $ = this.$;
    const { min } = this.options.limits.players;
    const seats = Number($("opt-players").value) || min;
    const counts = Array.from({ length: seats - min + 1 }, (_, i) => String(min + i));
    const kept = Math.min(Math.max(Number($("opt-humans").value) || min, min), seats);
    fillSelect($("opt-humans"), counts.map((n) => [n, n]), String(kept));
    // Two seats leave one choice: no field to choose it in.
    $("opt-humans").closest("label").hidden = counts.length < 2;
  }

  /** The table settings a person chose last time come back (kept in this browser), and each
   * change is kept. A value the page no longer offers is skipped. */
  remember() {
    const $ = this.$;
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
      else if (input.tagName !== "SELECT" || [...input.options].some((o) => o.value === saved[id] && !o.disabled)) {
        input.value = saved[id];
        if (id === "opt-rules") input.dispatchEvent(new Event("change")); // its description, its players
        // A number of players other than the rules' own was chosen: it stays when the rules change.
        const own = this.preset ? this.preset.settings.players : String(this.options.limits.players.min);
        if (id === "opt-players" && saved[id] !== own) this.wantedPlayers = saved[id];
        if (id === "opt-players") this.fitHumans();
        if (id === "opt-players" || id === "opt-pace" || id === "opt-spec") this.showMeasured();
      }
    }
    const keep = () => {
      const values = {};
      for (const id of REMEMBERED) values[id] = $(id).type === "checkbox" ? $(id).checked : $(id).value;
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(values));
    };
    for (const id of REMEMBERED) $(id).addEventListener("change", keep);
    $("opt-spec").addEventListener("input", keep);
    for (const id of REMEMBERED) $(id).addEventListener("change", () => this.showKept());
    $("opt-spec").addEventListener("input", () => this.showKept());
    $("settings-reset").addEventListener("click", () => {
      this.reset();
      keep();
      $("play-computer").focus();
    });
    this.showKept();
    const contrast = () => document.documentElement.classList.toggle("hc-cards", $("opt-contrast").checked);
    $("opt-contrast").addEventListener("change", contrast);
    contrast();
  }

  /** The settings that differ from the table's own, in one line: "Your settings: 3 players,
   * open hands, fast pace, house rules max-cards=500." (hidden when there are none). */
  showKept() {
    const $ = this.$;
    const said = [];
    const picked = (id) => $(id).selectedOptions[0].textContent.toLowerCase();
    if ($("opt-rules").value) said.push(this.preset ? this.preset.title : $("opt-rules").value);
    if (this.extra) said.push(`house rules ${this.extra}`);
    const own = this.preset ? this.preset.settings.players : String(this.options.limits.players.min);
    if ($("opt-players").value !== own) said.push(`${$("opt-players").value} players`);
    const people = $("opt-humans");
    if (!people.closest("label").hidden && people.value !== String(this.options.limits.players.min)) {
      said.push(`${people.value} people at a friend table`);
    }
    if ($("opt-pace").value !== "normal") said.push(`${picked("opt-pace")} pace`);
    if ($("opt-open").checked) said.push("open hands");
    if ($("opt-contrast").checked) said.push("high-contrast cards");
    $("settings-kept").hidden = !said.length;
    $("settings-kept-text").textContent = said.length ? `Your settings: ${said.join(", ")}.` : "";
  }

  /** Back to the table's own settings: every kept setting as a first visit has it. */
  reset() {
    const $ = this.$;
    this.wantedPlayers = null;
    $("opt-spec").value = "";
    $("opt-open").checked = false;
    $("opt-contrast").checked = false;
    $("opt-pace").value = "normal";
    $("opt-rules").value = "";
    $("opt-rules").dispatchEvent(new Event("change")); // its description, its players, its figures
    $("opt-humans").value = String(this.options.limits.players.min);
    $("opt-contrast").dispatchEvent(new Event("change"));
    this.showMeasured();
    this.showKept();
  }

  /** What the settings ask for, for a table of this mode. */
  chosen(mode) {
    const $ = this.$;
    const options = this.options;
    const seed = $("opt-seed").value.trim();
    const deal = $("opt-deal").value.trim();
    const extra = this.extra;
    const open = $("opt-open").checked;
    const chosen = $("opt-rules").value;
    const message = { pace: $("opt-pace").value };
    const base = chosen || options.defaults[mode] || options.defaults.computer;
    const players = Number($("opt-players").value);
    if (chosen || extra || open) message.rules = base + (extra ? `:${extra}` : "") + (open ? ":open-hands=yes" : "");
    const preset = options.presets.find((p) => p.name === base);
    if (!preset || Number(preset.settings.players) !== players) message.players = players;
    if (this.name) message.name = this.name;
    if (seed) message.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
    if (deal) message.deal = deal;
    return message;
  }

  /** Ask the server whether the deal typed could be played under the rules chosen; its error, if
   * any, is shown by the field (without moving the focus). */
  async checkDeal() {
    const $ = this.$;
    const deal = $("opt-deal").value.trim();
    if (!deal || !this.options) return;
    const message = this.chosen("computer");
    const query = new URLSearchParams({ deal, mode: "computer" });
    if (message.rules) query.set("rules", message.rules);
    if (message.players) query.set("players", String(message.players));
    let answer;
    try {
      const response = await fetch(siteUrl(`api/check-deal?${query}`), { cache: "no-store" });
      answer = await response.json();
    } catch {
      return; // Play asks again
    }
    if (!answer.error) return;
    await this.afterPress();
    if ($("opt-deal").value.trim() === deal) this.settingError("deal", answer.error, { quiet: true });
  }

  /** Resolves at once, or, while a press is on, once it has become its click (which comes in the
   * same task as its pointerup): what moves the form waits for it, or the click lands elsewhere. */
  afterPress() {
    if (!this.pressing) return Promise.resolve();
    return new Promise((done) => {
      for (const type of ["pointerup", "pointercancel"]) {
        document.addEventListener(type, () => setTimeout(done), { once: true, capture: true });
      }
    });
  }

  /** A new table refused for one of its settings: the error stays by that field, in view, until
   * the field is changed (`quiet`: the focus stays where it is). */
  settingError(field, text, { quiet = false } = {}) {
    const $ = this.$;
    const ids = {
      deal: "opt-deal", seed: "opt-seed", players: "opt-players", humans: "opt-humans", name: "opt-name",
      pace: "opt-pace", rules: $("opt-spec").value.trim() || !$("opt-rules").value ? "opt-spec" : "opt-rules",
    };
    this.clearSettingError();
    $("setup").open = true;
    const input = $(ids[field] || "opt-spec");
    const box = $("opt-error");
    box.textContent = text;
    box.hidden = false;
    input.closest("label").after(box);
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "opt-error");
    if (quiet) {
      box.scrollIntoView({ block: "nearest" });
      return;
    }
    input.focus({ preventScroll: true });
    box.scrollIntoView({ block: "center" });
  }

  clearSettingError() {
    this.$("opt-error").hidden = true;
    for (const input of this.$("setup").querySelectorAll("[aria-invalid]")) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  }
}

/** The paces the server offers, as a select's choices. */
export function paceChoices(options) {
  return options.paces.map((p) => [p, p[0].toUpperCase() + p.slice(1)]);
}

/** The lessons page (`root`): each lesson with its start button; `start(number)` starts one. */
export function fillLessons(root, lessonsList, start) {
  const lessons = within(root)("lesson-list");
  lessons.replaceChildren();
  for (const lesson of lessonsList) {
    const item = el("li");
    const button = el("button", "", `Start lesson ${lesson.number}`);
    button.addEventListener("click", () => start(lesson.number));
    item.append(el("h2", "", `${lesson.number}. ${lesson.title}`), el("p", "", lesson.intro), button);
    lessons.append(item);
  }
}

/** The famous games page (`root`): the published games, then the never-ending deals found here;
 * `actions` watch one (famous, found) or play its deal (playDeal). */
export function fillFamous(root, options, actions) {
  const famous = within(root)("famous-list");
  famous.replaceChildren();
  for (const game of options.famous) {
    const item = el("li");
    const text = game.cycle
      ? `Never ends: after ${game.cycle.pre_period_tricks} tricks (${game.cycle.pre_period_cards} cards) it enters `
        + `a cycle of ${game.cycle.period_tricks} tricks (${game.cycle.period_cards} cards).`
      : `${game.cards.toLocaleString("en")} cards, ${game.tricks.toLocaleString("en")} tricks.`;
    const buttons = el("div", "row");
    const watch = el("button", "", "Watch");
    watch.setAttribute("aria-label", `Watch ${game.title}`);
    watch.addEventListener("click", () => actions.famous(game.index));
    const replay = el("a", "button secondary", "Replay");
    replay.href = siteUrl(`r/famous-${game.index}`).href;
    replay.setAttribute("aria-label", `Replay ${game.title}`);
    const play = el("button", "secondary", "Play this deal");
    play.setAttribute("aria-label", `Play this deal: ${game.title}`);
    play.addEventListener("click", () => actions.playDeal(game.deal, "standard", 2));
    buttons.append(watch, replay, play);
    item.append(el("h2", "", game.title), el("p", "", text), el("code", "deal", game.deal), buttons);
    famous.append(item);
  }
  showFound(root, options.found || [], actions);
}

/** The rules page (`root`): a table of every preset, with what it does to a game, measured. */
export function fillRules(root, presets) {
  const table = el("table", "presets");
  const own = (preset) => preset.measured[preset.settings.players];
  const games = presets.find(own);
  const figuresWord = "A typical game";
  const note = el("p", "hint", games
    ? `${figuresWord}: the median number of cards turned, found by playing `
      + `${own(games).games.toLocaleString("en")} random deals of each table with its own number of `
      + "players (the home page gives the figures for any number)."
    : "");
  const head = table.createTHead().insertRow();
  for (const text of ["Table", "What it is", figuresWord, "Settings"]) head.append(el("th", "", text));
  const body = table.createTBody();
  for (const preset of presets) {
    const row = body.insertRow();
    const name = el("th", "", preset.title);
    name.scope = "row";
    row.append(name);
    row.insertCell().textContent = preset.description;
    // On a phone each table is a block of its own, without the column names above it: its figures
    // say what they are (the column's name says it to a screen reader already).
    const figures = row.insertCell();
    if (own(preset)) {
      const label = el("span", "cell-label", `${figuresWord}: `);
      label.setAttribute("aria-hidden", "true");
      figures.append(label, measuredShort(own(preset)));
    }
    const settings = el("details", "settings");
    settings.append(el("summary", "", "Settings"));
    const list = el("ul");
    for (const [key, value] of Object.entries(preset.settings)) list.append(el("li", "", `${key}: ${value}`));
    settings.append(list);
    row.insertCell().append(settings);
  }
  // A phone lays the table out in blocks (style.css): its parts say their roles outright, as some
  // browsers forget a table's roles once it is not displayed as one.
  table.setAttribute("role", "table");
  for (const part of table.querySelectorAll("thead, tbody, tr, th, td")) {
    const role = { THEAD: "rowgroup", TBODY: "rowgroup", TR: "row", TD: "cell" }[part.tagName];
    part.setAttribute("role", role || (part.closest("thead") ? "columnheader" : "rowheader"));
  }
  within(root)("preset-table").replaceChildren(note, table);
}

/** The never-ending deals the server's cycle factory found: each is watched or replayed like a
 * famous game. */
function showFound(root, found, actions) {
  const $ = within(root);
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
    // Its rules are named in plain words in its sentence (the title of its table's rules).
    item.append(el("h2", "", `${i + 1}. A cycle of ${count(cycle.period_tricks, "trick")}`), el("p", "", text),
      el("code", "deal", deal.deal), buttons);
    list.append(item);
  });
}
