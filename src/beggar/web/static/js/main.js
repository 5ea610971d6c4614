// The browser side of the table. It holds no game logic: it sends what the person does and draws
// what the server sends back. Everything lives in one App object; modules hold no mutable state.
import { $, siteUrl } from "./dom.js";
import { Connection } from "./connection.js";
import { TableView, tableTitle } from "./table.js";
import { RecentList, rememberGame, setCurrentGame } from "./recent.js";
import { ReplayView } from "./replay.js";
import { Sound } from "./sound.js";
import { chosenSettings, rememberSettings, setupHome } from "./home.js";

const PAGES = ["home", "lessons", "famous", "rules", "table", "replay", "closed"];
const AUTO_MODES = ["computer", "watch", "famous", "lesson"];

class App {
  constructor() {
    this.options = null;
    this.me = { table: null, seat: null, token: null, mode: null };
    this.sound = new Sound();
    this.table = new TableView(this.sound);
    this.replay = new ReplayView();
    this.recent = new RecentList();
    this.connection = new Connection((message) => this.receive(message), (code) => this.lost(code));
    this.errorTimer = null;
  }

  showPage(name) {
    for (const page of PAGES) $(page).hidden = page !== name;
    if (name !== "table" && name !== "replay") document.title = "Beggar-My-Neighbour";
    if (name !== "replay") this.replay.stop();
    if (name === "home") this.recent.render();
  }

  /** Where this page is under the site's root: "t/k7m2x9qbtf", "r/famous-0", "" (home). */
  static here() {
    const root = siteUrl("").pathname;
    return location.pathname.startsWith(root) ? location.pathname.slice(root.length) : location.pathname;
  }

  route() {
    const here = App.here();
    const table = here.match(/^t\/([a-z0-9]+)$/);
    if (table) {
      this.join(table[1]);
      return;
    }
    const replay = here.match(/^r\/([a-z0-9-]+)$/);
    if (replay) {
      this.leave(false, this.me.mode !== "computer");
      this.openReplay(replay[1]);
      return;
    }
    const page = location.hash.replace("#", "") || "home";
    // Back from a game against the computer keeps it (Forward returns to it); a friend table is left.
    if (this.me.table && page !== "table") this.leave(false, this.me.mode !== "computer");
    this.showPage(PAGES.includes(page) && !["table", "replay", "closed"].includes(page) ? page : "home");
  }

  async openReplay(id) {
    this.showPage("replay");
    try {
      await this.replay.load(id);
      $("scrub").focus();
    } catch (error) {
      this.showClosed("This replay does not exist.", "The link may be mistyped.");
    }
  }

  showClosed(title, text) {
    $("closed-title").textContent = title;
    $("closed-text").textContent = text;
    document.title = `${title} — Beggar-My-Neighbour`;
    this.showPage("closed");
  }

  showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => { box.hidden = true; }, 8000);
  }

  /** A new table refused for one of its settings: the error stays by that field, in view, until
   * the field is changed. */
  settingError(field, text) {
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
    input.focus({ preventScroll: true });
    box.scrollIntoView({ block: "center" });
  }

  clearSettingError() {
    $("opt-error").hidden = true;
    for (const input of document.querySelectorAll("#setup [aria-invalid]")) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  }

  receive(message) {
    if (message.type === "joined") {
      this.me.table = message.table;
      this.me.seat = message.seat;
      if (message.token) {
        this.me.token = message.token;
        localStorage.setItem(`beggar-token-${message.table}`, message.token);
      }
      // A game with seats has its own address: a reload or Back and Forward come back to it.
      const here = `t/${message.table}`;
      if (["computer", "friends"].includes(this.me.mode) && message.seat !== null && App.here() !== here) {
        history.pushState(null, "", siteUrl(here).href);
      }
      if (message.seat !== null) setCurrentGame(null); // back at a table: no link back needed
      this.table.reset();
      this.showPage("table");
      $("table").focus();
    } else if (message.type === "state") {
      this.me.mode = message.mode;
      if (message.mode === "friends" && App.here() !== `t/${message.table}`) {
        history.replaceState(null, "", siteUrl(`t/${message.table}`).href);
      }
      if (message.closed) {
        this.closeTable();
        return;
      }
      if (message.over && message.over.replay && message.you !== null && message.over.replay !== this.remembered) {
        this.remembered = message.over.replay;
        rememberGame({ replay: message.over.replay, title: tableTitle(message), sentence: message.over.sentence, at: Date.now() });
      }
      this.table.render(message);
    } else if (message.type === "error") {
      if (message.code === "no-table") {
        this.closeTable();
        return;
      }
      if (message.field && !this.me.table && !$("home").hidden) {
        this.settingError(message.field, message.message);
        return;
      }
      this.showError(message.message);
    } else if (message.type === "left") {
      this.me = { table: null, seat: null, token: null, mode: null };
    }
  }

  closeTable() {
    setCurrentGame(null);
    this.connection.close();
    this.me = { table: null, seat: null, token: null, mode: null };
    if ($("end").open) $("end").close();
    const minutes = this.options ? this.options.limits.idle_minutes : null;
    const idle = minutes === null ? "for a while" : `for ${minutes} minute${minutes === 1 ? "" : "s"}`;
    this.showClosed("This table is closed or never existed.",
      `A table closes when nobody has played at it ${idle}, and a game against the computer `
      + "closes when its player presses Leave table.");
  }

  /** The line dropped: go back to the table (it survives a server restart), or say it has ended. */
  lost(code) {
    if (this.me.table && (this.me.mode === "friends" || this.me.token)) {
      $("prompt").textContent = code === 1012
        ? "The server is restarting: back in a moment…"
        : "Connection lost: reconnecting…";
      this.connection.reopen({ type: "join", table: this.me.table, token: this.me.token });
    } else if (this.me.table) {
      this.showError("The connection to the table was lost; the game has ended.");
      this.me = { table: null, seat: null, token: null, mode: null };
      history.replaceState(null, "", siteUrl("#home").href);
      this.showPage("home");
    }
  }

  /** A new table: the server first names it, so that its socket can go where the table will live. */
  async create(mode, extra = {}, own = false) {
    const me = { table: null, seat: null, token: null, mode };
    this.me = me;
    const base = mode === "lesson" || mode === "famous" || own ? { pace: extra.pace || "normal" } : chosenSettings(this.options, mode);
    const name = $("opt-name").value.trim();
    if (own && name) base.name = name;
    if (mode === "friends") base.humans = Number($("opt-humans").value);
    let tableId;
    try {
      const response = await fetch(siteUrl("api/table-id"), { cache: "no-store" });
      tableId = (await response.json()).table;
    } catch {
      this.showError("Could not reach the server. Try again in a moment.");
      return;
    }
    if (this.me !== me) return; // the person went elsewhere meanwhile
    this.connection.open({ type: "create", mode, ...base, ...extra }, tableId);
  }

  /** A game against the computer on a given deal (from a replay or a famous game). */
  playDeal(deal, rules, players) {
    this.create("computer", { deal, rules, players, pace: $("opt-pace").value || "normal" }, true);
  }

  join(tableId) {
    const token = localStorage.getItem(`beggar-token-${tableId}`);
    this.me = { table: tableId, seat: null, mode: "friends", token };
    const message = { type: "join", table: tableId };
    if (token) message.token = token;
    const name = $("opt-name").value.trim();
    if (name) message.name = name;
    this.table.reset();
    this.showPage("table");
    this.connection.open(message, tableId);
  }

  /** Leave the table; `onPurpose` tells the table so (a game against the computer then ends). */
  leave(goHome = true, onPurpose = true) {
    if (onPurpose) this.connection.send({ type: "leave" });
    const s = this.table.state;
    // A game against the computer left by Back waits for its player: the home page links to it.
    setCurrentGame(!onPurpose && s && s.mode === "computer" && !s.over ? { table: s.table, title: tableTitle(s) } : null);
    this.connection.close();
    this.me = { table: null, seat: null, token: null, mode: null };
    this.table.reset();
    if ($("end").open) $("end").close();
    if (goHome) {
      history.pushState(null, "", siteUrl("#home").href);
      this.showPage("home");
    }
  }

  send(message) {
    this.connection.send(message);
  }

  /** After a control is clicked with the pointer, the table gets the focus back, so that Space
   * and Enter turn a card again instead of pressing that control a second time. */
  refocus(event) {
    if (!event || event.detail !== 0) $("table").focus({ preventScroll: true });
  }

  wire() {
    const control = (id, action) => $(id).addEventListener("click", (event) => {
      action();
      this.refocus(event);
    });
    // A base address makes "#main" point at the home page: the skip link moves the focus itself.
    $("skip").addEventListener("click", (event) => {
      event.preventDefault();
      $("main").focus();
    });
    $("setup").addEventListener("input", (event) => {
      if (event.target.getAttribute("aria-invalid")) this.clearSettingError();
    });
    $("setup").addEventListener("change", (event) => {
      if (event.target.getAttribute("aria-invalid")) this.clearSettingError();
    });
    $("name-ask").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = $("sit-name").value.trim();
      if (!name) return;
      this.send({ type: "rename", name });
      $("opt-name").value = name;
      localStorage.setItem("beggar-name", name);
      $("table").focus();
    });
    $("play-computer").addEventListener("click", () => this.create("computer"));
    $("play-friend").addEventListener("click", () => this.create("friends"));
    $("watch-game").addEventListener("click", () => this.create("watch"));
    control("turn", () => this.send({ type: "turn" }));
    control("pause", () => this.send({ type: this.table.state && this.table.state.paused ? "resume" : "pause" }));
    control("resume-big", () => this.send({ type: "resume" }));
    control("auto", () => this.send({ type: "watch", on: $("auto").getAttribute("aria-pressed") !== "true" }));
    control("again", () => this.send({ type: "new-game" }));
    // On a phone the pace, the sound and Leave wait behind "More".
    $("more").addEventListener("click", () => {
      const open = $("more").getAttribute("aria-expanded") !== "true";
      $("more").setAttribute("aria-expanded", String(open));
      $("more-controls").classList.toggle("open", open);
    });
    $("log-more").addEventListener("click", () => {
      const open = $("log-more").getAttribute("aria-expanded") !== "true";
      $("log-more").setAttribute("aria-expanded", String(open));
      $("log-more").textContent = open ? "Show the last lines only" : "Show the whole log";
      $("log").classList.toggle("short", !open);
    });
    // The offers about a friend who is away: the computer plays for them, or a new game without them.
    $("offers").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-seat]");
      if (!button) return;
      this.send({ type: "play-for", seat: Number(button.dataset.seat) });
      if (button.dataset.action === "new-game") this.send({ type: "new-game" });
      this.refocus(event);
    });
    control("play-again", () => this.send({ type: "new-game" }));
    control("sound", () => {
      const on = this.sound.toggle();
      $("sound").setAttribute("aria-pressed", String(on));
      $("sound").textContent = on ? "Sound on" : "Sound off";
    });
    $("sound").setAttribute("aria-pressed", String(this.sound.on));
    $("sound").textContent = this.sound.on ? "Sound on" : "Sound off";
    $("leave").addEventListener("click", () => this.leave(true));
    $("pace").addEventListener("change", () => {
      this.send({ type: "pace", pace: $("pace").value });
      this.refocus(null);
    });
    $("copy-link").addEventListener("click", () => copy($("share-link"), $("copy-link")));
    $("end-copy").addEventListener("click", () => copy($("end-link"), $("end-copy")));
    $("end-again").addEventListener("click", () => {
      $("end").close();
      this.send({ type: "new-game" });
      $("table").focus();
    });
    $("end-next").addEventListener("click", () => {
      $("end").close();
      this.create("lesson", { lesson: Number($("end-next").dataset.lesson) });
    });
    $("end-close").addEventListener("click", () => {
      $("end").close();
      $("table").focus();
    });
    document.addEventListener("keydown", (event) => this.key(event));
    document.addEventListener("visibilitychange", () => {
      const s = this.table.state;
      if (document.hidden && s && AUTO_MODES.includes(s.mode) && this.table.player && !s.paused && !s.over) {
        this.send({ type: "pause", hidden: true });
      }
    });
    $("scrub").addEventListener("input", () => this.replay.show(Number($("scrub").value)));
    $("replay-start").addEventListener("click", () => this.replay.step(-Infinity));
    $("replay-back-trick").addEventListener("click", () => this.replay.stepTrick(-1));
    $("replay-back").addEventListener("click", () => this.replay.step(-1));
    $("replay-play").addEventListener("click", () => this.replay.play());
    $("replay-next").addEventListener("click", () => this.replay.step(1));
    $("replay-next-trick").addEventListener("click", () => this.replay.stepTrick(1));
    $("replay-end").addEventListener("click", () => this.replay.step(Infinity));
    $("replay-speed").addEventListener("change", () => this.replay.setSpeed(Number($("replay-speed").value)));
    $("replay-deal").addEventListener("click", () => {
      const data = this.replay.data;
      if (data) this.playDeal(data.deal, data.rules.name, data.names.length);
    });
    window.addEventListener("hashchange", () => this.route());
    window.addEventListener("popstate", () => this.route());
  }

  /** Space and Enter turn a card whenever the table has focus and it is this person's turn. */
  key(event) {
    if ($("table").hidden || $("end").open) return;
    if (event.key !== " " && event.key !== "Enter") return;
    const target = event.target;
    const inTable = target === document.body || target === $("table") || target === $("main")
      || (target.closest && target.closest("#table") && !["INPUT", "SELECT", "TEXTAREA", "A"].includes(target.tagName)
        && !(target.tagName === "BUTTON" && target.id !== "turn"));
    if (!inTable) return;
    event.preventDefault();
    if (this.table.canTurn()) $("turn").click();
  }

  async start() {
    this.wire();
    // A person's name is remembered, so that a friend opening a link is seated under it.
    $("opt-name").value = localStorage.getItem("beggar-name") || "";
    $("opt-name").addEventListener("input", () => localStorage.setItem("beggar-name", $("opt-name").value.trim()));
    try {
      const response = await fetch(siteUrl("api/options"));
      this.options = await response.json();
      setupHome(this.options, {
        lesson: (number) => this.create("lesson", { lesson: number }),
        famous: (index) => this.create("famous", { famous: index, pace: "fast" }),
        found: (key) => this.create("famous", { found: key, pace: "fast" }),
        playDeal: (deal, rules, players) => this.playDeal(deal, rules, players),
      });
      rememberSettings();
    } catch {
      this.showError("Could not reach the server. Reload the page to try again.");
      return;
    }
    this.route();
  }
}

async function copy(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
  } catch {
    input.select();
  }
}

new App().start();
