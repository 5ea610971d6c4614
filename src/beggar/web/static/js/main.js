// @ts-check
// The browser side of the table. It holds no game logic: it sends what the person does and draws
// what the server sends back. Each component owns its root element and binds its own controls; the
// App owns the connection and wires the components together. Modules hold no mutable state.
import { $, siteUrl } from "./dom.js";
import { Connection } from "./connection.js";
import { tableTitle } from "./words.js";
import { RecentList, rememberGame, setCurrentGame } from "./recent.js";
import { Sound } from "./sound.js";
import { HomeForm, fillFamous, fillLessons, fillRules, paceChoices } from "./home.js";

const PAGES = ["home", "lessons", "famous", "rules", "table", "replay", "closed"];

/** Where this page sits: at no table, unless `at` says which (the server tells the rest once
 * joined: the seat, and whether the table has an address of its own). */
function seatedAt(at = {}) {
  return { table: null, seat: null, token: null, mode: null, addressed: false, ...at };
}

/** True when this page was loaded by a reload (F5, the reload button). */
function pageReloaded() {
  const [navigation] = /** @type {PerformanceNavigationTiming[]} */ (performance.getEntriesByType("navigation"));
  return Boolean(navigation) && navigation.type === "reload";
}

/** The page's frame: it owns the connection, shows one page at a time, and wires the components
 * (each of which owns its root element) to the connection and to each other. */
class App {
  constructor() {
    this.options = null;
    this.me = seatedAt();
    this.sound = new Sound();
    this.connection = new Connection((message) => this.receive(message), (code) => this.lost(code));
    this.home = new HomeForm($("home"), { create: (mode) => this.create(mode) });
    /** The live table, loaded as the first table is opened: the landing does without it and the
     * board, cards, log and chart it draws with (the landing's budget).
     * @type {import("./table.js").TableView | null} */
    this.table = null;
    /** @type {Promise<import("./table.js").TableView> | null} */
    this.tableLoading = null;
    /** The paces the server offers, for the table's own pace control. */
    this.paces = [];
    /** The end dialog, loaded as the first table is joined: a first visit to the home page does
     * without it (the landing's budget). @type {import("./end.js").EndDialog | null} */
    this.end = null;
    /** @type {Promise<import("./end.js").EndDialog> | null} */
    this.endLoading = null;
    /** The replay viewer, loaded with its first replay: a first visit to the home page does
     * without it (the landing's budget). @type {import("./replay.js").ReplayView | null} */
    this.replay = null;
    this.recent = new RecentList($("home"));
    /** Whether this page has joined a table yet (only its first join can follow a reload). */
    this.joinedOnce = false;
    this.errorTimer = null;
  }

  /** The live table, loaded once (see the constructor). */
  tableView() {
    if (!this.tableLoading) {
      this.tableLoading = import("./table.js").then(({ TableView }) => {
        this.table = new TableView($("table"), {
          send: (message) => this.send(message),
          sound: this.sound,
          leave: () => this.leave(true),
          named: (name) => { this.home.name = name; },
        });
        this.table.setPaces(this.paces);
        return this.table;
      }, (error) => {
        this.tableLoading = null; // tried again at the next table
        throw error;
      });
    }
    return this.tableLoading;
  }

  /** The end dialog, loaded once (see the constructor). */
  endDialog() {
    if (!this.endLoading) {
      this.endLoading = import("./end.js").then(({ EndDialog }) => {
        this.end = new EndDialog($("end"), {
          again: () => {
            this.send({ type: "new-game" });
            if (this.table) this.table.focus();
          },
          no: () => this.send({ type: "keep-playing" }),
          next: (lesson) => (lesson ? this.create("lesson", { lesson }) : this.create("computer")),
          close: () => { if (this.table) this.table.focusAfterEnd(); },
        });
        return this.end;
      });
    }
    return this.endLoading;
  }

  showPage(name) {
    for (const page of PAGES) $(page).hidden = page !== name;
    if (name !== "table" && name !== "replay") document.title = "Beggar-My-Neighbour";
    if (name !== "replay" && this.replay) this.replay.stop();
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
      this.leave(false, !this.me.addressed);
      this.openReplay(replay[1]);
      return;
    }
    if (!this.me.table && this.me.mode) {
      // A table asked for that the server has not opened yet: the person went elsewhere first.
      // It is let go, or its answer would take the page over from where they went.
      this.connection.send({ type: "leave" });
      this.connection.close();
      this.me = seatedAt();
    }
    const page = location.hash.replace("#", "") || "home";
    // Back from a table with its own address is not leaving it: Forward, or the home page's link
    // back, returns to it (a friend table keeps the seat while its friends wait a while).
    const fromTable = this.me.table && page !== "table";
    if (fromTable) this.leave(false, !this.me.addressed);
    this.showPage(PAGES.includes(page) && !["table", "replay", "closed"].includes(page) ? page : "home");
    // The browser puts back the home page's old scroll, from before the link back was there: the
    // link can be above the screen. It is what the person came back for.
    if (fromTable && !$("home").hidden && !$("current-game").hidden) {
      requestAnimationFrame(() => $("current-game").scrollIntoView({ block: "nearest" }));
    }
  }

  async openReplay(id) {
    this.showPage("replay");
    try {
      if (!this.replay) {
        const { ReplayView } = await import("./replay.js");
        this.replay = new ReplayView($("replay"), {
          playDeal: (deal, rules, players) => this.playDeal(deal, rules, players, true),
        });
      }
      await this.replay.load(id);
      this.replay.focus();
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

  receive(message) {
    if (!this.table) {
      // A table's messages come once it is open, and it is loaded before: never drop one.
      this.tableView().then(() => this.receive(message));
      return;
    }
    if (message.type === "joined") {
      this.me.table = message.table;
      this.me.seat = message.seat;
      this.me.mode = message.mode;
      this.me.addressed = message.addressed;
      if (message.token) {
        this.me.token = message.token;
        localStorage.setItem(`beggar-token-${message.table}`, message.token);
      }
      // A game with seats has its own address: a reload or Back and Forward come back to it.
      const here = `t/${message.table}`;
      if (message.addressed && message.seat !== null && App.here() !== here) {
        history.pushState(null, "", siteUrl(here).href);
      }
      this.table.reset();
      if (this.end) this.end.reset();
      else this.endDialog(); // loaded now, before any game at this table ends
      this.showPage("table");
      this.table.focus();
    } else if (message.type === "state") {
      this.me.mode = message.mode;
      this.me.addressed = message.addressed;
      if (message.mode === "friends" && App.here() !== `t/${message.table}`) {
        history.replaceState(null, "", siteUrl(`t/${message.table}`).href);
      }
      if (message.closed) {
        this.closeTable();
        return;
      }
      if (message.over && message.over.replay && message.you !== null && message.over.replay !== this.remembered) {
        this.remembered = message.over.replay;
        // The deals of its sitting dealt again before it (a loop) are kept with it: their replays
        // are told from this seat too.
        const earlier = (message.over.dealt_again || []).map((deal) => deal.replay).filter(Boolean);
        rememberGame({
          replay: message.over.replay, title: tableTitle(message), sentence: message.ending, at: Date.now(), seat: message.you,
          earlier,
        });
      }
      // Back at a table, its state drawn: no link back needed. Not at "joined": Back pressed before
      // the state comes leaves the table as it found it, and the link back is still wanted then.
      if (!this.table.state && message.you !== null && message.you !== undefined) setCurrentGame(null);
      this.table.render(message);
      const seen = { points: this.table.chartPoints, player: this.table.player };
      if (this.end) this.end.render(message, seen);
      else if (message.over) {
        // Still loading (it starts as the table is joined): the latest state is drawn once it is in.
        this.endDialog().then((end) => { if (this.table.state === message) end.render(message, seen); });
      }
    } else if (message.type === "error") {
      if (message.code === "no-table") {
        this.closeTable();
        return;
      }
      if (message.field && !this.me.table && !$("home").hidden) {
        this.home.settingError(message.field, message.message);
        return;
      }
      this.showError(message.message);
    } else if (message.type === "left") {
      this.me = seatedAt();
    }
  }

  closeTable() {
    setCurrentGame(null);
    this.connection.close();
    this.me = seatedAt();
    if (this.end) this.end.close();
    const minutes = this.options ? this.options.limits.idle_minutes : null;
    const idle = minutes === null ? "for a while" : `for ${minutes} minute${minutes === 1 ? "" : "s"}`;
    this.showClosed("This table is closed or never existed.",
      `A table closes when nobody has played at it ${idle}, and a game against the computer `
      + "closes when its player presses Leave table.");
  }

  /** The line dropped: go back to the table (it survives a server restart), or say it has ended. */
  lost(code) {
    if (this.me.table && this.table && (this.me.mode === "friends" || this.me.token)) {
      this.table.say(code === 1012
        ? "The server is restarting: back in a moment…"
        : "Connection lost: reconnecting…");
      this.connection.reopen({ type: "join", table: this.me.table, token: this.me.token });
    } else if (this.me.table) {
      this.showError("The connection to the table was lost; the game has ended.");
      this.me = seatedAt();
      history.replaceState(null, "", siteUrl("#home").href);
      this.showPage("home");
    }
  }

  /** A new table: the server first names it, so that its socket can go where the table will live. */
  async create(mode, extra = {}, own = false) {
    const me = seatedAt({ mode });
    this.me = me;
    const base = mode === "lesson" || mode === "famous" || own ? { pace: extra.pace || "normal" } : this.home.chosen(mode);
    const name = this.home.name;
    if (own && name) base.name = name;
    if (mode === "friends") base.humans = this.home.humans;
    let tableId;
    try {
      const [response] = await Promise.all([fetch(siteUrl("api/table-id"), { cache: "no-store" }), this.tableView()]);
      tableId = (await response.json()).table;
    } catch {
      this.showError("Could not reach the server. Try again in a moment.");
      return;
    }
    if (this.me !== me) return; // the person went elsewhere meanwhile
    this.connection.open({ type: "create", mode, ...base, ...extra }, tableId);
  }

  /** A game against the computer on a given deal (from a replay, `replayed`, or a famous game). */
  playDeal(deal, rules, players, replayed = false) {
    this.create("computer", { deal, rules, players, pace: this.home.pace || "normal", replayed }, true);
  }

  async join(tableId) {
    const token = localStorage.getItem(`beggar-token-${tableId}`);
    const me = seatedAt({ table: tableId, mode: "friends", token, addressed: true });
    this.me = me;
    const message = { type: "join", table: tableId };
    if (token) message.token = token;
    // The first join of a page the person reloaded says so: the others read "Ann reloaded the
    // page." rather than that Ann came back from another page (the page said it went, as it went).
    if (!this.joinedOnce && pageReloaded()) message.reloaded = true;
    this.joinedOnce = true;
    const name = this.home.name;
    if (name) message.name = name;
    try {
      await this.tableView();
    } catch {
      this.showError("Could not reach the server. Reload the page to try again.");
      return;
    }
    if (this.me !== me) return; // the person went elsewhere meanwhile
    this.table.reset();
    if (this.end) this.end.reset();
    if (!token && !name) {
      // Someone new to this table: if they are to sit down, their name first, so that the table
      // never calls them "Player 2". The server says whether a seat is free (the page's address
      // answers 404 for a table that is not open); where every seat is held they just watch.
      this.connection.close();
      let open = true;
      let seat = "free";
      let invite = null;
      try {
        const answer = await fetch(siteUrl(`t/${tableId}`), { method: "HEAD", cache: "no-store" });
        open = answer.ok;
        seat = answer.headers.get("Beggar-Seat") || seat;
        // Whose table it is and who sits where, in the server's words, for the name question.
        const words = answer.headers.get("Beggar-Invite");
        if (words) invite = JSON.parse(decodeURIComponent(words));
      } catch {
        // the server unreachable: the socket will say so
      }
      if (this.me !== me) return; // the person went elsewhere meanwhile
      if (!open) {
        this.closeTable();
        return;
      }
      this.showPage("table");
      if (seat === "taken") {
        this.connection.open(message, tableId);
        return;
      }
      this.table.askName((given) => {
        if (this.me === me) this.connection.open({ ...message, name: given }, tableId);
      }, invite);
      return;
    }
    this.showPage("table");
    this.connection.open(message, tableId);
  }

  /** Leave the table; `onPurpose` tells the table so (a game against the computer then ends). */
  leave(goHome = true, onPurpose = true) {
    // Not on purpose is Back or a link: the page says it goes elsewhere, which is no lost line.
    this.connection.send({ type: onPurpose ? "leave" : "away" });
    const s = this.table && this.table.state;
    if (s) {
      // A game left by Back waits for its person (a friend table, a while): the home page links to it.
      const waits = !onPurpose && s.addressed && this.table.player && !s.over;
      setCurrentGame(waits ? { table: s.table, title: tableTitle(s) } : null);
    } else if (onPurpose) {
      setCurrentGame(null);
    }
    // Else Back (or a link) came before the table's first state, as the page was still joining it:
    // the page learnt nothing new of the game, and the home page's way back to it stays as it was.
    this.connection.close();
    this.me = seatedAt();
    if (this.table) this.table.reset();
    if (this.end) this.end.close();
    if (goHome) {
      history.pushState(null, "", siteUrl("#home").href);
      this.showPage("home");
    }
  }

  send(message) {
    this.connection.send(message);
  }

  wire() {
    // A base address makes "#main" point at the home page: the skip link moves the focus itself.
    $("skip").addEventListener("click", (event) => {
      event.preventDefault();
      $("main").focus();
    });
    document.addEventListener("keydown", (event) => {
      if (this.table && !(this.end && this.end.open)) this.table.key(event);
    });
    // A page being unloaded (a reload, a link to another address) is not a switch to another tab:
    // it does not pause the game. A kept game it leaves is linked from the home page.
    let unloading = false;
    const unload = () => {
      unloading = true;
      const s = this.table && this.table.state;
      if (this.me.table && s && s.addressed && this.table.player && !s.over) {
        setCurrentGame({ table: s.table, title: tableTitle(s) });
      }
    };
    window.addEventListener("beforeunload", unload);
    window.addEventListener("pagehide", () => {
      unload();
      // Another site, a closed tab or a reload: the friends are told this page went elsewhere.
      if (this.me.table) this.send({ type: "away" });
    });
    window.addEventListener("pageshow", (event) => {
      unloading = false;
      // Back to a page the browser kept whole: its seat was given up as it went; take it again.
      if (event.persisted && this.me.table) this.join(this.me.table);
    });
    // A switch to another tab pauses a game that turns cards by itself; like any pause it holds
    // until the person presses Resume, after a reload or Back and Forward too.
    document.addEventListener("visibilitychange", () => {
      const s = this.table && this.table.state;
      if (unloading || !document.hidden) return;
      if (s && s.solo && this.table.player && !s.paused && !s.over) {
        this.send({ type: "pause", hidden: true });
      }
    });
    window.addEventListener("hashchange", () => this.route());
    window.addEventListener("popstate", () => this.route());
  }

  async start() {
    this.wire();
    try {
      const response = await fetch(siteUrl("api/options"));
      this.options = await response.json();
      const options = this.options;
      this.home.fill(options);
      this.paces = paceChoices(options);
      if (this.table) this.table.setPaces(this.paces);
      fillLessons($("lessons"), options.lessons, (number) => this.create("lesson", { lesson: number }));
      fillFamous($("famous"), options, {
        famous: (index) => this.create("famous", { famous: index, pace: "fast" }),
        found: (key) => this.create("famous", { found: key, pace: "fast" }),
        playDeal: (deal, rules, players) => this.playDeal(deal, rules, players),
      });
      fillRules($("rules"), options.presets);
    } catch {
      this.showError("Could not reach the server. Reload the page to try again.");
      return;
    }
    this.route();
  }
}

new App().start();
