// @ts-check
// The replay viewer: the server sends every frame of a finished game (messages.js: Replay and
// ReplayFrame); this only draws them, on the same board as the live table.
import { el, siteUrl, within } from "./dom.js";
import { drawChart } from "./chart.js";
import { drawPile, drawSeats, seatOwes } from "./board.js";
import { recentGames } from "./recent.js";
import { tableTitle } from "./words.js";

/** The replay page. It owns its root (#replay) and binds its own controls; `playDeal(deal, rules,
 * players)` starts a game on the replayed deal. */
export class ReplayView {
  constructor(root, { playDeal }) {
    this.root = root;
    this.$ = within(root);
    /** @type {import("../../messages.js").Replay | null} */
    this.data = null;
    this.names = [];
    this.at = 0;
    this.timer = null;
    this.tricksAt = [];
    this.trickFrames = [];
    this.points = [];
    this.speed = 16;
    const $ = this.$;
    const on = (id, action) => $(id).addEventListener("click", action);
    $("scrub").addEventListener("input", () => this.show(Number($("scrub").value)));
    on("replay-start", () => this.step(-Infinity));
    on("replay-back-trick", () => this.stepTrick(-1));
    on("replay-back", () => this.step(-1));
    on("replay-play", () => this.play());
    on("replay-next", () => this.step(1));
    on("replay-next-trick", () => this.stepTrick(1));
    on("replay-end", () => this.step(Infinity));
    $("replay-speed").addEventListener("change", () => this.setSpeed(Number($("replay-speed").value)));
    on("replay-deal", () => {
      if (this.data) playDeal(this.data.deal, this.data.rules.name, this.data.names.length);
    });
  }

  /** The focus goes to the replay, from which the next Tab reaches the slider (a slider focused
   * at once would wear its keyboard frame before anyone used the keyboard). */
  focus() {
    this.root.focus({ preventScroll: true });
  }

  /** Cards a second while playing; a change takes effect at once. */
  setSpeed(cardsPerSecond) {
    this.speed = cardsPerSecond;
    if (this.timer) {
      this.stop();
      this.play();
    }
  }

  /** Fetch the replay `id` (a finished game's short id, or famous-N) and show its first frame. */
  async load(id) {
    this.stop();
    this.data = null;
    // A game this browser played (it kept the seat) is told from that seat, as the table told it:
    // the server says "you" in its sentences, and "You" where its person gave no name.
    // The deals of a sitting dealt again before a game of this browser's are this browser's too,
    // played from the same seat.
    const mine = recentGames().find((game) => game.replay === id || (game.earlier || []).includes(id));
    const seat = mine && mine.seat;
    const url = siteUrl(`api/replay/${encodeURIComponent(id)}`);
    if (Number.isInteger(seat)) url.searchParams.set("you", String(seat));
    const response = await fetch(url);
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || "This replay does not exist.");
    this.data = data;
    this.tricksAt = [];
    this.trickFrames = [0];
    this.points = [data.frames[0].stacks];
    let tricks = 0;
    data.frames.forEach((frame, i) => {
      if (frame.trick) {
        tricks = frame.trick;
        this.trickFrames.push(i);
        this.points.push(frame.stacks);
      }
      this.tricksAt.push(tricks);
    });
    const last = data.frames.length - 1;
    if (this.trickFrames[this.trickFrames.length - 1] !== last) this.trickFrames.push(last);
    this.names = data.names;
    // A famous game or a deal found here comes with its title; a game played here is called as its
    // table called it, by the table's own words. Its names are those the table showed (the seat it
    // is told from is "You" where its person gave no name).
    const title = data.title || tableTitle({
      mode: data.mode, you: data.you, seats: data.names.map((name) => ({ name, named: true })),
    });
    document.title = `Replay: ${title} — Beggar-My-Neighbour`;
    const $ = this.$;
    $("replay-title").textContent = `Replay: ${title}`;
    $("replay-rules").textContent = `${data.rules.title}. ${data.over ? data.over.sentence : ""}`;
    // A deal dealt again before this one in its sitting (a loop under the family table): how it
    // ended, in the server's words, and its own replay.
    if (data.notes) $("replay-rules").append(" ", data.notes);
    (data.dealt_again || []).forEach((deal, i, all) => {
      if (!deal.replay) return;
      const link = el("a", "light-link", all.length === 1 ? "Replay the first deal" : `Replay deal ${i + 1}`);
      link.href = siteUrl(`r/${deal.replay}`).href;
      $("replay-rules").append(" ", link);
    });
    // A deal that looped and was dealt again leads on to the deal dealt after it.
    if (data.dealt_next) {
      const link = el("a", "light-link", "Replay the deal dealt next");
      link.href = siteUrl(`r/${data.dealt_next}`).href;
      $("replay-rules").append(" ", link);
    }
    const scrub = $("scrub");
    scrub.max = String(last);
    scrub.value = "0";
    this.show(0);
  }

  /** Show the table just after card `i`. */
  show(i) {
    const data = this.data;
    if (!data) return;
    const last = data.frames.length - 1;
    this.at = Math.max(0, Math.min(last, i));
    const frame = data.frames[this.at];
    const pileCards = [];
    for (let k = this.at - frame.pile + 1; k <= this.at; k += 1) pileCards.push(data.frames[k].card);
    const $ = this.$;
    // After the last card nobody turns, and so nobody owes, as the live table showed the game's
    // end: a game stopped during a payment leaves its frame's next player and debt behind.
    const toPlay = this.at < last ? frame.to_play : null;
    const seats = this.names.map((name, index) => ({
      name,
      cards: frame.stacks[index],
      marks: toPlay === index ? ["to-play"] : [],
      owes: seatOwes({ ...frame, pile: pileCards, to_play: toPlay }, index, name),
    }));
    drawSeats($("replay-seats"), seats, 0);
    drawPile($("replay-pile"), pileCards, frame.challenge, "Pile empty");

    // Numbers as the position line writes them: "trick 1,007".
    const text = (frame.text || "Before the first card.").replace(/\d{4,}/g, (digits) => Number(digits).toLocaleString("en"));
    $("replay-text").textContent = text;
    $("replay-where").textContent = `Card ${this.at.toLocaleString("en")} of ${last.toLocaleString("en")}, `
      + `trick ${this.tricksAt[this.at].toLocaleString("en")}`;
    $("scrub").value = String(this.at);
    $("scrub").setAttribute("aria-valuetext", `card ${this.at} of ${last}`);
    const trick = this.tricksAt[this.at];
    drawChart($("replay-chart"), $("replay-legend"), this.points, this.names, trick, data.cycle || null, frame.stacks);
  }

  /** Step `delta` cards. */
  step(delta) {
    this.stop();
    this.show(this.at + delta);
  }

  /** To the previous or next card that won a pile. */
  stepTrick(direction) {
    this.stop();
    const frames = this.trickFrames;
    const next = direction > 0
      ? frames.find((i) => i > this.at)
      : [...frames].reverse().find((i) => i < this.at);
    this.show(next === undefined ? (direction > 0 ? this.data.frames.length - 1 : 0) : next);
  }

  /** Play forwards at the chosen speed (several cards a frame when fast), until the end or a stop. */
  play() {
    if (this.timer) {
      this.stop();
      return;
    }
    this.$("replay-play").textContent = "Pause";
    const ms = Math.max(40, 1000 / this.speed);
    const cards = Math.max(1, Math.round((this.speed * ms) / 1000));
    this.timer = setInterval(() => {
      if (!this.data || this.at >= this.data.frames.length - 1) {
        this.stop();
        return;
      }
      this.show(this.at + cards);
    }, ms);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.$("replay-play").textContent = "Play";
  }
}
