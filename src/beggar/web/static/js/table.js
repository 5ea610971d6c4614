// The live table: draws each state the server sends. It holds no game logic: who owes what,
// what each card pays and what the prompt says all come from the server.
import { el, fillSelect, plural, reducedMotion, siteUrl, spokenList, within } from "./dom.js";
import { backElement, cardElement, cardName, fan, owedMarks } from "./cards.js";
import { drawChart } from "./chart.js";
import { ringSlot } from "./ring.js";

const SEATED_MODES = ["computer", "friends"];
/** How long a won pile takes to slide to its winner, in milliseconds. */
const SWEEP_MS = 420;

/**
 * What this page calls seat `index`: its name, but "You" for this person's own seat when they
 * gave no name (the others see it called by its place, "Player 1").
 * @param {import("../../messages.js").TableState} s
 */
export function seatName(s, index) {
  const seat = s.seats[index];
  return index === s.you && SEATED_MODES.includes(s.mode) && !seat.named ? "You" : seat.name;
}

/** What a chart of `points` over `tricks` tricks shows: a last point past the tricks is the hands
 * a game stopped with in the middle of a trick. */
function chartWords(points, tricks) {
  const end = points.length - 1 > tricks ? ", and at the end" : "";
  return `Cards in each stack after each of ${plural(tricks, "trick")}${end}`;
}

/**
 * The title of a table: its lesson, famous game, or who sits at it ("You against Robin",
 * "Friend table: Ann and Bea").
 * @param {import("../../messages.js").TableState} s
 */
export function tableTitle(s) {
  if (s.lesson) return `Lesson ${s.lesson.number}: ${s.lesson.title}`;
  if (s.famous) return s.famous.title;
  const names = s.seats.map((_, index) => seatName(s, index));
  if (s.mode === "friends") return `Friend table: ${spokenList(names)}`;
  if (s.mode === "watch") return `Watching ${spokenList(names)}`;
  if (s.mode === "computer" && s.you !== null && s.you !== undefined) {
    return `${names[s.you]} against ${spokenList(names.filter((_, index) => index !== s.you))}`;
  }
  return spokenList(names);
}

/**
 * Show `text` on `button`, one of its `labels`: all of them are laid in one place and the others
 * hidden, so that the button keeps the width of the widest and nothing beside it moves.
 */
function sayOneOf(button, labels, text) {
  const key = labels.join("|");
  if (button.dataset.labels !== key) {
    button.dataset.labels = key;
    button.classList.add("labels");
    button.replaceChildren(...labels.map((words) => el("span", "", words)));
  }
  for (const span of button.children) span.classList.toggle("off", span.textContent !== text);
}

/**
 * Where a never-ending famous game's cycle starts and its period (from the server), or null.
 * @param {import("../../messages.js").TableState} s
 */
function famousCycle(s) {
  return (s.famous && s.famous.cycle) || null;
}

/**
 * The empty pile's words: "Pile empty — Ann to turn", "Pile empty — your turn", "Pile empty —
 * waiting for a friend", "Pile empty — paused".
 * @param {import("../../messages.js").TableState} s
 */
function emptyPileWords(s, player) {
  if (s.waiting_for.length === 1) return `Pile empty — waiting for ${s.waiting_for[0]}`;
  if (s.waiting_for.length) return "Pile empty — waiting for the others";
  if (s.paused && !s.over) return "Pile empty — paused"; // as the prompt says: nobody turns now
  const next = s.over || s.to_play === null || s.to_play === undefined ? null : s.to_play;
  if (next === null || !s.seats[next]) return "Pile empty";
  if (player && next === s.you && SEATED_MODES.includes(s.mode)) return "Pile empty — your turn";
  return `Pile empty — ${s.seats[next].name} to turn`;
}

/** The rules in one line: "Practice table: a standard deck of 52 cards, 2 players, ...". */
export function rulesSummary(rules) {
  return `${rules.title}: ${rules.summary}.`;
}

/**
 * The live table. It owns its root (the #table section): it binds its own controls, and sends what
 * the person does through `send(message)`. `render(state)` draws each state message without
 * changing it; what it remembers between messages (the previous state, the log lines shown, the
 * chart's points) is its own. `leave()` leaves the table; `named(name)` hears a name given here.
 */
export class TableView {
  constructor(root, { send, sound, leave, named }) {
    this.root = root;
    this.$ = within(root);
    this.send = send;
    this.sound = sound;
    /** @type {import("../../messages.js").TableState | null} */
    this.state = null;
    this.rules = null;
    this.lastSeq = 0;
    this.chartPoints = [];
    this.sweepNow = null;
    this.holdUntil = 0;
    this.holdTimer = null;
    this.turnQueued = false;
    this.renaming = false;
    this.clock = { left: null, at: 0, running: false };
    setInterval(() => this.tickClock(), 500);
    this.bind(leave, named);
  }

  bind(leave, named) {
    const $ = this.$;
    // After a control is clicked with the pointer, the table gets the focus back, so that Space
    // and Enter turn a card again instead of pressing that control a second time.
    const control = (id, action) => $(id).addEventListener("click", (event) => {
      action();
      this.refocus(event);
    });
    $("name-ask").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = $("sit-name").value.trim();
      if (!name) return;
      named(name);
      this.renaming = false;
      const sit = this.sitWith;
      if (sit) {
        // Asked before taking the seat: now take it, under this name.
        this.sitWith = null;
        $("name-ask").hidden = true;
        sit(name);
      } else {
        this.send({ type: "rename", name });
      }
      this.focus();
    });
    $("rename").addEventListener("click", () => {
      this.renaming = true;
      $("name-ask").hidden = false;
      $("rename").hidden = true;
      $("sit-name").focus();
    });
    control("turn", () => this.send({ type: "turn" }));
    control("pause", () => this.send({ type: "pause" })); // while paused, Resume stands in Turn's place
    control("resume-big", () => this.send({ type: "resume" }));
    control("auto", () => this.send({ type: "watch", on: $("auto").getAttribute("aria-pressed") !== "true" }));
    // A game against the computer is thrown away by a new one: asked first (a friend table asks the
    // friends instead).
    $("again").addEventListener("click", (event) => {
      const s = this.state;
      if (s && s.mode === "computer" && s.cards > 0 && s.over === null) {
        this.ask("abandon");
        return;
      }
      this.send({ type: "new-game" });
      this.refocus(event);
    });
    control("abandon-yes", () => {
      $("abandon").hidden = true; // the new game lets the computer go on
      this.send({ type: "new-game" });
    });
    control("abandon-no", () => this.answered("abandon"));
    // Escape answers a question as its second button does: "Keep playing".
    for (const id of ["abandon", "leave-ask"]) {
      $(id).addEventListener("keydown", (event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        this.answered(id);
        this.focus();
      });
    }
    // Play again hides as the new game starts: pressed from the keyboard too, the focus goes to
    // the table (else it would drop to the page, and Space would turn nothing).
    $("play-again").addEventListener("click", () => {
      this.send({ type: "new-game" });
      this.focus();
    });
    // Another person asks for a new game: agree, or keep playing (which ends the ask).
    control("new-game-yes", () => this.send({ type: "new-game" }));
    control("new-game-no", () => this.send({ type: "keep-playing" }));
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
      this.scrollLog();
    });
    window.addEventListener("resize", () => this.scrollLog());
    // The offers about a friend who is away: the computer plays for them, or a new game without them.
    $("offers").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-seat]");
      if (!button) return;
      this.send({ type: "play-for", seat: Number(button.dataset.seat) });
      if (button.dataset.action === "new-game") this.send({ type: "new-game" });
      this.refocus(event);
    });
    const soundWords = () => {
      $("sound").setAttribute("aria-pressed", String(this.sound.on));
      $("sound").textContent = this.sound.on ? "Sound on" : "Sound off";
    };
    control("sound", () => {
      this.sound.toggle();
      soundWords();
    });
    soundWords();
    // Leaving a game under way is asked first: against the computer it ends the game, at a friend
    // table the others are left to go on without this person.
    $("leave").addEventListener("click", () => {
      const s = this.state;
      if (this.player && s && SEATED_MODES.includes(s.mode) && s.cards > 0 && s.over === null) {
        $("leave-words").textContent = s.mode === "computer"
          ? "Leave this game? It ends when you leave."
          : "Leave the table? The others may go on without you.";
        this.ask("leave-ask");
        return;
      }
      leave();
    });
    $("leave-yes").addEventListener("click", () => {
      $("leave-ask").hidden = true;
      leave();
    });
    control("leave-no", () => this.answered("leave-ask"));
    $("pace").addEventListener("change", () => {
      this.send({ type: "pace", pace: $("pace").value });
      this.refocus(null);
    });
    $("copy-link").addEventListener("click", () => copy($("share-link"), $("copy-link")));
  }

  /**
   * Put the question `id` (a new game? leave?) to this person. Against the computer, the server
   * holds the computer's cards until it is answered: nothing on the table changes meanwhile.
   */
  ask(id) {
    const $ = this.$;
    $(id).hidden = false;
    $(id).querySelector("button.secondary").focus({ preventScroll: true }); // in view: above the control pressed
    if (this.state && this.state.mode === "computer") this.send({ type: "hold", on: true });
  }

  /** The question `id` is answered (or put away): the computer plays on. */
  answered(id) {
    const $ = this.$;
    if ($(id).hidden) return;
    $(id).hidden = true;
    if (this.state && this.state.mode === "computer") this.send({ type: "hold", on: false });
  }

  /** Before joining a table by its link, ask this person's name; `sit(name)` then joins.
   * `invite` (from the server: `{title, invite}`, or null) says whose table it is and its seats;
   * the board, the controls and the log, which have nothing to show yet, are put away meanwhile. */
  askName(sit, invite = null) {
    this.sitWith = sit;
    const $ = this.$;
    $("table-title").textContent = invite ? invite.title : "Friend table";
    $("rules-line").textContent = invite ? invite.invite : "";
    this.root.classList.add("asking-name");
    $("name-ask").hidden = false;
    for (const id of ["turn", "pause", "auto", "again", "share", "paused-banner", "offers", "notice", "abandon"]) $(id).hidden = true;
    $("prompt").textContent = "Say your name to sit down at the table.";
    $("counts").textContent = "";
    $("sit-name").focus();
  }

  /** The paces the server offers, for the table's own pace control. */
  setPaces(choices) {
    fillSelect(this.$("pace"), choices, "normal");
  }

  focus() {
    this.root.focus({ preventScroll: true });
  }

  /** After the end window closes: on "Play again" where this person may press it, so that Enter
   * starts it (the table's Space and Enter turn cards, and there are none to turn); else the table. */
  focusAfterEnd() {
    const again = this.$("play-again");
    if (!again.hidden && !again.disabled) again.focus({ preventScroll: true });
    else this.focus();
  }

  refocus(event) {
    if (!event || event.detail !== 0) this.focus();
  }

  /** A line in the prompt's place from outside the game (the connection dropped). */
  say(text) {
    this.$("prompt").textContent = text;
  }

  /** Space and Enter turn a card whenever the table has focus and it is this person's turn. */
  key(event) {
    if (this.root.hidden) return;
    if (event.key !== " " && event.key !== "Enter") return;
    const target = event.target;
    const inTable = (target.contains && target.contains(this.root))
      || (this.root.contains(target) && !["INPUT", "SELECT", "TEXTAREA", "A"].includes(target.tagName)
        && !(target.tagName === "BUTTON" && target.id !== "turn"));
    if (!inTable) return;
    event.preventDefault();
    if (this.holdTimer) this.turnQueued = true; // pressed while a won pile goes: turn once it has
    else if (this.canTurn()) this.$("turn").click();
  }

  /** Forget the previous table (a new table or a fresh connection). */
  reset() {
    this.state = null;
    this.lastSeq = 0;
    this.chartPoints = [];
    this.sweepNow = null;
    this.sitWith = null;
    this.renaming = false;
    this.$("leave-ask").hidden = true;
    this.holdUntil = 0;
    clearTimeout(this.holdTimer);
    this.turnQueued = false;
    this.holdTimer = null;
    this.$("log").replaceChildren();
    this.$("pile").replaceChildren();
    // Until the table's first state is drawn, there is nothing to turn: Turn waits disabled (a
    // key pressed meanwhile would be lost).
    this.$("turn").disabled = true;
  }

  get player() {
    const s = this.state;
    return Boolean(s) && s.you !== null && s.you !== undefined;
  }

  /** True when Space or Enter should turn this person's card now. */
  canTurn() {
    const turn = this.$("turn");
    return Boolean(this.state) && !turn.hidden && !turn.disabled;
  }

  /**
   * Draw one state message from the server (never changed here).
   * @param {import("../../messages.js").TableState} s
   */
  render(s) {
    const $ = this.$;
    this.root.classList.remove("asking-name");
    const previous = this.state && this.state.table === s.table ? this.state : null;
    const newGame = !previous || s.games_played !== previous.games_played || s.reshuffles !== previous.reshuffles;
    // The rules come with a table's first message only.
    if (s.rules) this.rules = s.rules;
    this.state = s;
    document.title = `${tableTitle(s)} — Beggar-My-Neighbour`;
    $("table-title").textContent = tableTitle(s);
    // A lesson is a prepared position: its rules line would only describe the full game.
    $("rules-line").textContent = this.rules && !s.lesson ? rulesSummary(this.rules) : "";
    $("watching").hidden = this.player || s.you === undefined;
    const player = this.player;
    const waiting = s.waiting_for.length > 0;
    $("share").hidden = !(s.mode === "friends" && player && waiting);
    // Anyone seated may pass the link on: "your friend" only to the one person seated so far.
    const company = s.seats.some((seat, index) => index !== s.you && seat.human && seat.taken);
    const many = s.waiting_for.length > 1;
    const to = company ? `the ${many ? "friends" : "friend"} still to come` : `your ${many ? "friends" : "friend"}`;
    $("share-text").textContent = `Send this link to ${to}; the game starts when ${many ? "everyone is here" : "they arrive"}.`;
    if (!$("share").hidden) $("share-link").value = siteUrl(`t/${s.table}`).href;

    // A friend who came by a link without a name is asked for one (their seat says "Player 2")
    // until the first card is turned; then a small "Choose a name" opens the question again.
    const unnamed = s.mode === "friends" && player && !s.seats[s.you].named;
    const asking = unnamed && ((s.cards === 0 && s.games_played === 0) || this.renaming);
    $("name-ask").hidden = !asking;
    $("rename").hidden = !unnamed || asking;
    if (newGame) $("abandon").hidden = true;
    if (newGame || s.over) $("leave-ask").hidden = true;
    // A won pile is shown landing and going to its winner. Everything said about the table (the
    // seats and their counts, the owed marks, the prompt, the line under the pile, the log) is
    // this state's at once, so that they never disagree; only the won cards are still seen on
    // their way, and Turn waits until they have gone (a key pressed meanwhile turns then), so
    // that the next card never lands beside them.
    clearTimeout(this.holdTimer);
    this.holdTimer = null;
    if (newGame) this.turnQueued = false;
    this.drawPile(s, previous, newGame);
    this.drawLog(s, previous && newGame);
    this.drawLessonNote(s);
    this.drawRest(s, previous, newGame);
    const wait = this.holdUntil - performance.now();
    if (wait > 0) {
      const turn = $("turn");
      const ready = !turn.disabled;
      turn.disabled = true;
      this.holdTimer = setTimeout(() => {
        this.holdTimer = null;
        // The won pile has gone to its winner by now, even where a busy page has not finished
        // drawing its slide: the next card never lands beside it.
        $("pile").querySelectorAll(".card.sweeping").forEach((node) => node.remove());
        turn.disabled = !ready;
        const queued = this.turnQueued;
        this.turnQueued = false;
        if (queued && this.canTurn()) turn.click();
      }, wait);
    }
  }

  /** The table but its pile, for state `s` (see render). */
  drawRest(s, previous, newGame) {
    const $ = this.$;
    const player = this.player;
    const waiting = s.waiting_for.length > 0;
    this.drawSeats(s, previous);
    this.drawPileWords(s);
    // A pause is told once, by the prompt; Resume takes the Turn button's place (the board does not move).
    const pausedNow = s.paused && !s.over;
    $("prompt").textContent = s.prompt;
    $("notice").textContent = s.notice || "";
    $("notice").hidden = !s.notice;
    $("paused-banner").hidden = !pausedNow || !player;

    const lesson = s.mode === "lesson";
    const mine = player && (lesson || s.to_play === s.you);
    const auto = player && s.seats[s.you].automatic;
    const over = s.over !== null;
    const turn = $("turn");
    turn.textContent = lesson ? "Next card" : "Turn my card";
    turn.hidden = over || pausedNow || !player || !(SEATED_MODES.includes(s.mode) || lesson);
    turn.disabled = !mine || s.paused || auto || waiting;
    const again = $("play-again");
    again.hidden = !(over && player);
    const asked = s.new_game_asked.includes(s.you);
    again.textContent = asked ? "Waiting for the others…" : lesson || s.mode === "famous" ? "Start again" : "Play again";
    again.disabled = asked;
    // While paused, Pause stays in the row, greyed (Resume is the big button then): nothing in the
    // row moves, and the row stays centred.
    $("pause").disabled = !player || over || waiting || pausedNow;
    $("auto").setAttribute("aria-pressed", String(auto));
    const watchWords = s.mode === "friends" ? "Play my cards for me"
      : s.seats.length > 2 ? "Watch all players" : "Watch both players";
    // Both its labels lie in one place, so that the button keeps the wider one's width and
    // nothing beside it moves as it is pressed.
    const autoOff = lesson ? "Play it for me" : watchWords;
    const autoOn = s.mode === "friends" ? "Turn my own cards" : "Stop watching";
    sayOneOf($("auto"), [autoOff, autoOn], auto ? autoOn : autoOff);
    // A finished game has no cards left to turn for anyone: "Play again" gives them back.
    $("auto").hidden = !player || over || s.mode === "watch" || s.mode === "famous";
    this.drawOffers(s);
    const newGame_ = $("again");
    newGame_.hidden = !player || over; // at the end, "Play again" is the one main action
    // Its words stay the same once a new game is asked (it is greyed, and the notice says who
    // must still agree): a longer label kept in reserve would make it wider than its neighbours.
    const label = lesson || s.mode === "famous" ? "Start again" : "New game";
    sayOneOf(newGame_, [label], label);
    // The answers to another's ask, in the server's words (the notice names them the same way).
    const [yes, no] = s.new_game_answers;
    $("new-game-ask").hidden = !yes;
    $("new-game-yes").textContent = yes || "";
    $("new-game-no").textContent = no || "";
    newGame_.disabled = asked;
    $("pace").value = s.pace;
    $("pace").disabled = !player;
    $("pace").closest("label").hidden = !player; // a spectator watches at the players' pace
    $("pause").hidden = !player || over;
    // Someone watching a friend table has no seat to leave: they stop watching (and go home). With
    // no Turn and no Pause, a phone has room for it in the row, not behind "More".
    $("leave").textContent = $("watching").hidden ? "Leave table" : "Stop watching";
    this.root.classList.toggle("spectating", !$("watching").hidden);
    $("over-line").hidden = !over;
    if (over) {
      $("over-sentence").textContent = [s.ending, s.over.notes].filter(Boolean).join(" ");
      $("over-replay").hidden = !s.over.replay;
      if (s.over.replay) $("over-replay").href = siteUrl(`r/${s.over.replay}`).href;
    }
    let counts = `${plural(s.cards, "card")} turned, ${plural(s.tricks, "trick")}.`;
    if (s.reshuffles) counts += ` Deal ${s.reshuffles + 1} of this sitting.`;
    if (!player) counts += " Watching.";
    $("counts").textContent = counts;
    this.clock = { left: s.time_left, at: performance.now(), running: s.time_left !== null && !s.paused && !over && !waiting };
    this.tickClock();
    this.drawChart(s);
  }

  /** For each friend away past the grace the server gives: let the computer play for them, or a
   * new game without them (the buttons carry the seat; the page binds them). Once the game is
   * over, Play again is the one answer: it does not deal them in, as the notice says. */
  drawOffers(s) {
    const $ = this.$;
    const box = $("offers");
    const absent = this.player && !s.over ? s.seats.map((seat, i) => [seat, i]).filter(([seat, i]) => i !== s.you && seat.absent && !seat.stand_in) : [];
    box.hidden = !absent.length;
    const key = absent.map(([seat, i]) => `${i}:${seat.name}:${s.over !== null}`).join("|");
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren();
    // They come while the person may be looking elsewhere: brought into view (not focused, so
    // that Space still turns a card).
    if (absent.length) requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
    for (const [seat, i] of absent) {
      if (!s.over) {
        const play = el("button", "secondary", `Let the computer play for ${seat.name}`);
        play.dataset.seat = String(i);
        box.append(play);
      }
      const fresh = el("button", "secondary", `New game without ${seat.name}`);
      fresh.dataset.seat = String(i);
      fresh.dataset.action = "new-game";
      box.append(fresh);
    }
  }

  tickClock() {
    const box = this.$("clock");
    const { left, at, running } = this.clock;
    box.hidden = left === null;
    if (left === null) return;
    const remaining = Math.max(0, left - (running ? (performance.now() - at) / 1000 : 0));
    const minutes = Math.floor(remaining / 60);
    const seconds = Math.floor(remaining % 60);
    box.textContent = `${minutes}:${String(seconds).padStart(2, "0")}`;
    box.setAttribute("aria-label", `Time left: ${minutes} minutes ${seconds} seconds`);
    box.classList.toggle("low", remaining < 60);
  }

  drawSeats(s, previous = null) {
    const $ = this.$;
    // A won trick and a won game are marked for a moment (the style sheet leaves out the motion
    // under reduced motion); a won game has its chord.
    const took = previous && s.last_take && s.tricks > previous.tricks ? s.last_take.seat : null;
    const won = previous && s.over && !previous.over ? s.over.winner : null;
    if (won !== null && won !== undefined) this.sound.play("win");
    const box = $("seats");
    box.querySelectorAll(":scope > .seat").forEach((node) => node.remove()); // the pile stays
    box.dataset.count = String(s.seats.length);
    const seated = SEATED_MODES.includes(s.mode);
    // The seats sit around the pile: this person at the bottom (whoever is first, for a watcher).
    const bottom = seated && this.player ? s.you : 0;
    const challenge = s.challenge === null ? null : s.pile[s.challenge];
    s.seats.forEach((seat, index) => {
      const node = el("div", "seat");
      node.dataset.seat = String(index);
      node.dataset.slot = ringSlot(index, bottom, s.seats.length);
      if (s.to_play === index) node.classList.add("to-play");
      if (seat.out) node.classList.add("out");
      if (index === took) node.classList.add("took");
      if (index === won) node.classList.add("won");
      if (index === s.you && seated) node.classList.add("you");
      const shown = seatName(s, index);
      let tag = "";
      if (index === s.you && seated) tag = shown === "You" ? "" : "(you)";
      else if (!seat.human && seated) tag = "(computer)";
      else if (!seat.taken && s.mode === "friends") tag = "(waiting to join)";
      else if (seat.stand_in) tag = "(computer playing)";
      else if (seat.away === "left") tag = "(left)";
      else if (seat.away === "lost") tag = "(connection lost)";
      else if (!seat.connected && s.mode === "friends") tag = "(away)";
      const name = el("div", seat.taken || seat.named ? "name" : "name waiting", shown);
      if (tag) name.append(" ", el("span", "tag", tag));
      const stack = el("div", "stack" + (seat.cards ? "" : " empty"));
      stack.append(backElement());
      stack.append(el("span", "stack-count", String(seat.cards)));
      const text = el("div", "seat-text");
      text.append(name);
      text.append(el("div", "count", seat.out ? "out" : plural(seat.cards, "card")));
      if (!(challenge && s.to_play === index && s.owed > 0)) {
        text.append(el("div", "owed-place")); // the marks' place: a seat does not grow when it owes
      } else {
        text.append(owedMarks(challenge.pays, s.owed, index === s.you && seated ? "You" : shown));
      }
      const body = el("div", "seat-body");
      body.append(stack, text);
      node.append(body);
      if (seat.stack) {
        const open = el("div", "open-stack");
        open.setAttribute("role", "list");
        open.setAttribute("aria-label", shown === "You" ? "Your stack, top first" : `${shown}'s stack, top first`);
        for (const card of seat.stack) {
          const mini = cardElement(card, { mini: true });
          mini.setAttribute("role", "listitem");
          open.append(mini);
        }
        node.append(open);
      }
      box.append(node);
    });
  }

  drawPile(s, previous, newGame) {
    const $ = this.$;
    const pile = $("pile");
    // A card held on a won pile goes as soon as play moves on.
    if (!previous || newGame || s.cards !== previous.cards) {
      if (this.sweepNow) this.sweepNow();
      this.holdUntil = 0;
    }
    const animate = !reducedMotion() && s.pace !== "instant" && previous && !newGame;
    const swept = animate && previous.pile.length && s.tricks === previous.tricks + 1 && s.last_take;
    const oneMore = previous && s.cards === previous.cards + 1 && s.last_card;
    if (swept) {
      // The card that won the pile lands on it and stays a moment; then the pile goes to its winner.
      const held = [...pile.querySelectorAll(".card:not(.sweeping)")];
      if (oneMore) {
        const last = cardElement(s.last_card.card);
        pile.append(last);
        held.push(last);
        fan(pile, held);
        this.flyIn(last, s.last_card.seat);
      }
      held.forEach((node) => node.classList.add("sweeping"));
      const seat = s.last_take.seat;
      const go = () => {
        clearTimeout(timer);
        if (this.sweepNow === go) this.sweepNow = null;
        this.sweep(held, seat);
      };
      const delay = oneMore ? { slow: 1100, normal: 700, fast: 260 }[s.pace] || 500 : 0;
      const timer = setTimeout(go, delay);
      this.sweepNow = go;
      this.holdUntil = performance.now() + delay + SWEEP_MS + 60;
    }
    pile.querySelectorAll(".card:not(.sweeping), .pile-empty").forEach((node) => node.remove());
    const shown = s.pile.slice(-8);
    pile.classList.toggle("empty", !s.pile.length);
    const challenge = s.challenge === null ? -1 : s.challenge - (s.pile.length - shown.length);
    const nodes = shown.map((card, i) => {
      const node = cardElement(card);
      if (i === challenge) node.classList.add("challenge");
      pile.append(node);
      return node;
    });
    fan(pile, nodes, challenge >= 0 ? nodes.length - challenge : 1);
    const newest = pile.querySelector(".card:not(.sweeping):last-child");
    if (oneMore) this.sound.play(s.last_take && s.tricks > previous.tricks ? "take" : s.last_card.card.pays ? "pay" : "card");
    if (animate && oneMore && newest && s.pile.length) this.flyIn(newest, s.last_card.seat);
    // "13 cards in the pile; top: queen of spades, pays 2." (where the pile is narrow, a phone
    // shows "13 cards in the pile." and the top card says the rest).
    if (s.pile.length) {
      const top = el("span", "pile-top", `; top: ${cardName(s.pile[s.pile.length - 1])}`);
      $("pile-count").replaceChildren(`${plural(s.pile.length, "card")} in the pile`, top, ".");
    } else {
      $("pile-count").textContent = s.taken;
    }
  }

  /** An empty pile keeps the pile's size (nothing below it moves) and says who turns next. */
  drawPileWords(s) {
    const pile = this.$("pile");
    pile.querySelectorAll(".pile-empty").forEach((node) => node.remove());
    if (!s.pile.length) pile.append(el("span", "pile-empty", emptyPileWords(s, this.player)));
  }

  /** The card travels from its owner's stack to the pile, turning over on the way. */
  flyIn(node, seat) {
    const from = this.root.querySelector(`.seat[data-seat='${seat}'] .stack`);
    if (!from) return;
    const a = from.getBoundingClientRect();
    const b = node.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    node.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) rotateY(90deg) scale(.8)` },
        { transform: `translate(${dx / 3}px, ${dy / 3}px) rotateY(0deg)`, offset: 0.55 },
        { transform: "none" },
      ],
      { duration: this.state.pace === "fast" ? 180 : 320, easing: "ease-out" },
    );
  }

  /** A won pile (its `cards`, already marked as sweeping) gathers onto its top card and slides
   * as one stack to the winner's stack, shrinking on the way. The cards stay opaque until they
   * arrive: faded cards over each other would show through one another. */
  sweep(cards, seat) {
    const to = this.root.querySelector(`.seat[data-seat='${seat}'] .stack`);
    const live = cards.filter((node) => node.isConnected);
    if (!to || !live.length) {
      live.forEach((node) => node.remove());
      return;
    }
    const target = to.getBoundingClientRect();
    const top = live[live.length - 1].getBoundingClientRect();
    for (const node of live) {
      const box = node.getBoundingClientRect();
      const gx = top.left - box.left;
      const gy = top.top - box.top;
      const dx = target.left + target.width / 2 - (box.left + box.width / 2);
      const dy = target.top + target.height / 2 - (box.top + box.height / 2);
      const there = `translate(${dx}px, ${dy}px) scale(.4)`;
      const motion = node.animate(
        [
          { transform: "none", opacity: 1 },
          { transform: `translate(${gx}px, ${gy}px)`, opacity: 1, offset: 0.3 },
          { transform: there, opacity: 1, offset: 0.9 },
          { transform: there, opacity: 0 },
        ],
        { duration: SWEEP_MS, easing: "ease-in-out", fill: "forwards" },
      );
      motion.onfinish = () => node.remove();
      setTimeout(() => node.remove(), 700); // a page in the background may not finish animations
    }
  }

  /** The new lines of the log; at a new game (`fresh`), the last game's lines are set apart. */
  drawLog(s, freshGame = false) {
    const $ = this.$;
    const log = $("log");
    const fresh = s.log.filter((line) => line.seq > this.lastSeq);
    if (!fresh.length) return;
    if (fresh[0].seq > this.lastSeq + 1) log.replaceChildren();
    const start = freshGame ? fresh.findIndex((line) => line.text.startsWith("New game")) : -1;
    fresh.forEach((line, i) => {
      if (i === start && log.children.length) {
        log.querySelectorAll("li").forEach((item) => item.classList.add("old"));
        const rule = el("li", "game-break");
        rule.setAttribute("aria-hidden", "true");
        log.append(rule);
      }
      const item = el("li", "", line.text);
      if (line.note) item.append(el("span", "note", line.note));
      log.append(item);
    });
    while (log.children.length > 200) log.firstChild.remove();
    this.lastSeq = fresh[fresh.length - 1].seq;
    this.scrollLog();
    // The log names every seat; the prompt, said after it, speaks to this person ("you owe 2").
    const told = fresh.slice(-2).map((line) => [line.text, line.note].filter(Boolean).join(" "));
    if (this.player && s.prompt && !s.over && !told.includes(s.prompt)) told.push(s.prompt);
    $("narration").textContent = told.join(" ");
  }

  /** The log shows its latest lines. The short log shows whole lines only, and fills its box: a
   * line cut at its top (a long one, wrapped) shows its beginning in the room left, as many whole
   * lines of it as fit, never the middle of a sentence; a sliver of less than a line is left blank.
   * A line of the last game, above the rule that starts this one, is never shown cut (it would read
   * as this game's news): the lines below it rise to the top instead, and the room is left below
   * them, where this game's next lines come. */
  scrollLog() {
    const log = this.$("log");
    log.querySelectorAll(":scope > .cut, :scope > .clamped").forEach((item) => {
      item.classList.remove("cut", "clamped");
      item.style.removeProperty("--lines");
    });
    log.style.removeProperty("--room-below");
    log.scrollTop = log.scrollHeight;
    if (!log.classList.contains("short") || this.root.hidden) return;
    const top = log.getBoundingClientRect().top + log.clientTop;
    let item = log.lastElementChild;
    while (item && item.getBoundingClientRect().top >= top - 0.5) item = item.previousElementSibling;
    if (!item || item === log.lastElementChild) return; // the last line shows, cut or not
    const next = item.nextElementSibling.getBoundingClientRect().top;
    if (item.classList.contains("old")) {
      item.classList.add("cut");
      if (next - top > 0.5) {
        log.style.setProperty("--room-below", `${next - top}px`);
        log.scrollTop = log.scrollHeight;
      }
      return;
    }
    const lines = Math.floor((next - top + 0.5) / parseFloat(getComputedStyle(item).lineHeight));
    if (lines < 1) {
      item.classList.add("cut");
      return;
    }
    item.style.setProperty("--lines", String(lines));
    item.classList.add("clamped");
    log.scrollTop = log.scrollHeight;
    const above = item.previousElementSibling;
    if (above && above.getBoundingClientRect().bottom > top + 0.5) above.classList.add("cut");
  }

  /** A lesson's sentence for the card turned last, in a place of its own under the board. */
  drawLessonNote(s) {
    const note = this.$("lesson-note");
    const sentence = s.lesson ? s.lesson.sentence : "";
    // A lesson keeps the sentence's place, so that Next card never moves.
    note.hidden = s.mode !== "lesson";
    note.classList.toggle("blank", !sentence);
    note.textContent = sentence;
  }

  drawChart(s) {
    const $ = this.$;
    this.chartPoints = s.history_start === 0 ? s.history.slice() : this.chartPoints.concat(s.history);
    const show = (s.mode === "famous" || s.over !== null) && this.chartPoints.length > 2; // two tricks at least
    $("chart-box").hidden = !show;
    if (!show) return;
    const names = s.seats.map((_, index) => seatName(s, index));
    drawChart($("chart"), $("chart-legend"), this.chartPoints, names, null, famousCycle(s), null, s.tricks);
    $("chart-caption").textContent = chartWords(this.chartPoints, s.tricks);
  }
}

/**
 * The end-of-game dialog. It owns its root (the #end dialog) and binds its own buttons: `again()`
 * (Play again), `no()` (No to another's ask for a new game), `next(lesson)` (Next lesson; null
 * after the last: Play the computer), `close()` (Look at the table, or Escape).
 */
export class EndDialog {
  constructor(root, { again, no, next, close }) {
    this.root = root;
    this.$ = within(root);
    this.shownEnd = null;
    this.cancelled = false;
    const $ = this.$;
    $("end-copy").addEventListener("click", () => copy($("end-link"), $("end-copy")));
    $("end-again").addEventListener("click", () => {
      this.close();
      again();
    });
    $("end-no").addEventListener("click", () => no());
    $("end-next").addEventListener("click", () => {
      this.close();
      next(Number($("end-next").dataset.lesson) || null);
    });
    $("end-close").addEventListener("click", () => {
      this.close();
      close();
    });
    // Escape closes the dialog as "Look at the table" does, and leads to the same place. The
    // browser puts the focus back where it was before the dialog opened, then says "close".
    root.addEventListener("cancel", () => { this.cancelled = true; });
    root.addEventListener("close", () => {
      if (this.cancelled) close();
      this.cancelled = false;
    });
  }

  get open() {
    return this.root.open;
  }

  close() {
    if (this.root.open) this.root.close();
  }

  /** Forget the game shown (a new table or a fresh connection). */
  reset() {
    this.shownEnd = null;
  }

  /**
   * Open the dialog when a game ends (once per game), close it when the next begins. `points` are
   * the stacks after each trick, as the table gathered them; `player` says whether this person
   * sits at the table.
   * @param {import("../../messages.js").TableState} s
   */
  render(s, { points, player }) {
    const $ = this.$;
    const dialog = this.root;
    if (!s.over) {
      this.shownEnd = null;
      if (dialog.open) dialog.close();
      return;
    }
    // What the others ask (a new game) can come after the dialog opened, and the dialog hides the
    // table's notice: it says it itself, in the server's words, and offers the same two answers.
    $("end-notice").textContent = s.notice || "";
    $("end-notice").hidden = !s.notice;
    const no = s.new_game_answers[1]; // "Play again" is the dialog's own main button
    $("end-no").hidden = !no;
    $("end-no").textContent = no || "";
    const key = `${s.table}:${s.games_played}:${s.over.deal}:${s.cards}:${s.over.replay}`;
    if (this.shownEnd === key) return;
    const first = !this.shownEnd || !this.shownEnd.startsWith(`${s.table}:${s.games_played}:${s.over.deal}:${s.cards}:`);
    this.shownEnd = key;
    // Who won is said once, in the headline, from this person's seat; below it only what it does
    // not say: why a game nobody won outright stopped, a lesson's last words, the counts.
    $("end-title").textContent = s.headline;
    const sentence = [s.over.why, s.over.notes, s.lesson && s.lesson.outro].filter(Boolean).join(" ");
    $("end-sentence").textContent = sentence;
    $("end-sentence").hidden = !sentence;
    // A lesson leads on: to the next one, or after the last to a game against the computer.
    const next = s.lesson && s.lesson.next;
    $("end-next").hidden = !s.lesson;
    $("end-next").textContent = next ? "Next lesson" : "Play the computer";
    $("end-next").dataset.lesson = next ? String(next) : "";
    const facts = $("end-facts");
    facts.replaceChildren();
    const fact = (term, value) => facts.append(el("dt", "", term), el("dd", "", value));
    fact("Cards turned", String(s.over.cards));
    fact("Tricks", String(s.over.tricks));
    if (s.over.status !== "finished") {
      fact("Cards held", s.seats.map((_, i) => `${seatName(s, i)} ${s.over.holdings[i]}`).join(", "));
    }
    const deal = $("end-deal");
    deal.replaceChildren();
    s.over.deal_hands.forEach((hand, h) => {
      if (h) deal.append(el("span", "hand-break", " / "));
      const line = el("span", "hand");
      line.append(el("b", "", `${s.seats[h] ? seatName(s, h) : h + 1}: `));
      hand.forEach((label) => line.append(el("span", "deal-card", label), document.createTextNode(" ")));
      deal.append(line);
    });
    const replay = $("end-replay");
    replay.hidden = !s.over.replay;
    if (s.over.replay) {
      replay.href = siteUrl(`r/${s.over.replay}`).href;
      $("end-link").value = replay.href;
    }
    $("end-share").hidden = !s.over.replay;
    $("end-again").hidden = !player;
    $("end-again").textContent = s.mode === "lesson" || s.mode === "famous" ? "Start again" : "Play again";
    if (points.length > 2) {
      const names = s.seats.map((_, index) => seatName(s, index));
      drawChart($("end-chart"), $("end-chart-legend"), points, names, null, famousCycle(s), null, s.over.tricks);
      $("end-chart").setAttribute("aria-label", chartWords(points, s.over.tricks));
    }
    $("end-chart-box").hidden = points.length <= 2; // one trick makes no chart
    if (first && !dialog.open) {
      dialog.showModal();
      $("end-title").focus({ preventScroll: true }); // the headline first, on a phone too
      dialog.scrollTop = 0;
    }
  }
}

/** Copy a link to the clipboard, or select it for the person to copy. */
async function copy(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
  } catch {
    input.select();
  }
}
