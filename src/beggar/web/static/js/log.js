// @ts-check
// The game log: its lines as the server tells them, the last game's set apart, and the short log
// that shows whole lines only. Said aloud too: the last lines and the prompt, to a screen reader.
import { el } from "./dom.js";

export class GameLog {
  /**
   * @param {HTMLElement} log - the list of lines
   * @param {HTMLElement} narration - the live region that says the news aloud
   */
  constructor(log, narration) {
    this.log = log;
    this.narration = narration;
    this.lastSeq = 0;
    // A log whose height follows the page (the side panel beside a desktop's game) shows its last
    // whole lines again whenever it changes size.
    let height = 0;
    new ResizeObserver(() => {
      if (Math.abs(log.clientHeight - height) < 0.5) return;
      height = log.clientHeight;
      this.scroll();
    }).observe(log);
  }

  /** Forget the lines shown (a new table or a fresh connection). */
  reset() {
    this.lastSeq = 0;
    this.log.replaceChildren();
  }

  /**
   * The new lines of the log; at a new game (`freshGame`), the last game's lines are set apart.
   * `player`: this person has a seat (the prompt is said to them after the lines).
   * @param {import("../../messages.js").TableState} s
   * @param {boolean} freshGame
   * @param {boolean} player
   */
  draw(s, freshGame, player) {
    const log = this.log;
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
    this.scroll();
    // The log names every seat; the prompt, said after it, speaks to this person ("you owe 2").
    const told = fresh.slice(-2).map((line) => [line.text, line.note].filter(Boolean).join(" "));
    if (player && s.prompt && !s.over && !told.includes(s.prompt)) told.push(s.prompt);
    this.narration.textContent = told.join(" ");
  }

  /** The log shows its latest lines. The short log shows whole lines only, and fills its box: a
   * line cut at its top (a long one, wrapped) shows its beginning in the room left, as many whole
   * lines of it as fit, never the middle of a sentence; a sliver of less than a line is left blank.
   * A line of the last game, above the rule that starts this one, is never shown cut (it would read
   * as this game's news): the lines below it rise to the top instead, and the room is left below
   * them, where this game's next lines come. */
  scroll() {
    const log = this.log;
    log.querySelectorAll(":scope > .cut, :scope > .clamped").forEach((/** @type {HTMLElement} */ item) => {
      item.classList.remove("cut", "clamped");
      item.style.removeProperty("--lines");
    });
    log.style.removeProperty("--room-below");
    log.scrollTop = log.scrollHeight;
    if (!log.classList.contains("short") || this.log.closest("[hidden]")) return;
    const top = log.getBoundingClientRect().top + log.clientTop;
    /** @type {HTMLElement | null} */
    let item = /** @type {HTMLElement | null} */ (log.lastElementChild);
    while (item && item.getBoundingClientRect().top >= top - 0.5) item = /** @type {HTMLElement | null} */ (item.previousElementSibling);
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

}
