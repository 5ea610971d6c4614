// @ts-check
// The live table: draws each state the server sends. It holds no game logic: who owes what,
// what each card pays and what the prompt says all come from the server.
import { copy, el, fillSelect, plural, sayOneOf, siteUrl, within } from "./dom.js";
import { drawChart } from "./chart.js";
import { LivePile, drawSeats, seatOwes } from "./board.js";
import { GameLog } from "./log.js";
import { Clock } from "./clock.js";
import { SEATED_MODES, chartWords, emptyPileWords, famousCycle, rulesSummary, seatName, seatViews, tableTitle } from "./words.js";




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
    this.log = new GameLog(this.$("log"), this.$("narration"));
    this.chartPoints = [];
    this.pile = new LivePile(this.$("seats"), this.$("pile"), this.$("pile-count"), sound);
    this.holdTimer = null;
    this.turnQueued = false;
    this.renaming = false;
    /** @type {string | null} */
    this.focusNext = null;
    this.clock = new Clock(this.$("clock"));
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
    // While paused, Resume stands in Turn's place: the focus goes to it, and back to Turn on
    // resuming (the button pressed disappears or greys, and the focus would drop to the page).
    $("pause").addEventListener("click", () => {
      this.focusNext = "resume-big";
      this.send({ type: "pause" });
    });
    $("resume-big").addEventListener("click", () => {
      this.focusNext = "turn";
      this.send({ type: "resume" });
    });
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
      this.log.scroll();
    });
    window.addEventListener("resize", () => this.log.scroll());
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
    this.chartPoints = [];
    this.sitWith = null;
    this.renaming = false;
    this.$("leave-ask").hidden = true;
    clearTimeout(this.holdTimer);
    this.turnQueued = false;
    this.holdTimer = null;
    this.log.reset();
    this.pile.reset();
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
    this.pile.draw(s, previous, newGame, emptyPileWords(s, this.player));
    this.log.draw(s, Boolean(previous && newGame), this.player);
    this.drawLessonNote(s);
    this.drawRest(s, previous, newGame);
    const wait = this.pile.holdUntil - performance.now();
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
    this.drawTableSeats(s, previous);
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
    this.moveFocus();
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
    this.clock.set(s.time_left, s.time_left !== null && !s.paused && !over && !waiting);
    this.drawChart(s);
  }

  /** Once the pause or the resume asked for is drawn, the focus goes where the next press is:
   * Resume, or Turn (the table itself while Turn waits for another player). */
  moveFocus() {
    const id = this.focusNext;
    if (!id || !this.state || (id === "turn") === (this.state.paused && !this.state.over)) return;
    this.focusNext = null;
    const target = this.$(id);
    if (!target.hidden && !target.disabled) target.focus({ preventScroll: true });
    else this.focus();
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

  /** The seats of state `s` on the board, drawn by board.js as the replay's are. */
  drawTableSeats(s, previous = null) {
    // A won trick and a won game are marked for a moment (the style sheet leaves out the motion
    // under reduced motion); a won game has its chord.
    const took = previous && s.last_take && s.tricks > previous.tricks ? s.last_take.seat : null;
    const won = previous && s.over && !previous.over ? s.over.winner : null;
    if (won !== null && won !== undefined) this.sound.play("win");
    const seated = SEATED_MODES.includes(s.mode);
    const views = seatViews(s, took, won, seatOwes);
    // The seats sit around the pile: this person at the bottom (whoever is first, for a watcher).
    drawSeats(this.$("seats"), views, seated && this.player ? s.you : 0);
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
