// @ts-check
// The end-of-game dialog: who won, the facts, the chart, the deal and what to do next.
import { copy, count, el, siteUrl, within } from "./dom.js";
import { drawChart } from "./chart.js";
import { chartWords, famousCycle, seatName } from "./words.js";

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
    fact("Cards turned", count(s.over.cards));
    fact("Tricks", count(s.over.tricks));
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
