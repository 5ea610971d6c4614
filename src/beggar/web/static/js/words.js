// @ts-check
// What the page calls things: a seat, a table, its rules, a chart. Words only; no drawing.
import { plural, spokenList } from "./dom.js";

/** The modes in which a person has a seat of their own. */
export const SEATED_MODES = ["computer", "friends"];

/**
 * What naming a table needs of its state: a live table's whole state, or a replay's names.
 * @typedef {Object} Named
 * @property {string} mode
 * @property {number | null} [you]
 * @property {{name: string, named?: boolean}[]} seats
 * @property {{number: number, title: string} | null} [lesson]
 * @property {{title: string} | null} [famous]
 */

/**
 * What this page calls seat `index`: its name, but "You" for this person's own seat when they
 * gave no name (the others see it called by its place, "Player 1").
 * @param {Named} s
 * @param {number} index
 */
export function seatName(s, index) {
  const seat = s.seats[index];
  return index === s.you && SEATED_MODES.includes(s.mode) && !seat.named ? "You" : seat.name;
}

/** What a chart of `points` over `tricks` tricks shows: a last point past the tricks is the hands
 * a game stopped with in the middle of a trick. */
export function chartWords(points, tricks) {
  const end = points.length - 1 > tricks ? ", and at the end" : "";
  return `Cards in each stack after each of ${plural(tricks, "trick")}${end}`;
}

/**
 * The title of a table: its lesson, famous game, or who sits at it ("You against Robin",
 * "Friend table: Ann and Bea").
 * @param {Named} s
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
 * Where a never-ending famous game's cycle starts and its period (from the server), or null.
 * @param {import("../../messages.js").TableState} s
 */
export function famousCycle(s) {
  return (s.famous && s.famous.cycle) || null;
}

/**
 * The empty pile's words: "Pile empty — Ann to turn", "Pile empty — your turn", "Pile empty —
 * waiting for a friend", "Pile empty — paused".
 * @param {import("../../messages.js").TableState} s
 */
export function emptyPileWords(s, player) {
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
 * What each seat of state `s` shows on the board: its name and tag, its cards, whether it is out,
 * its marks (`took`, `won`: the seat that just took a trick or won the game, or null) and what it
 * owes on the card being paid for, by the board's rule `owes` (board.js's seatOwes: passed in, so
 * that the home page, which reads this module, does not load the board's).
 * @param {import("../../messages.js").TableState} s
 * @param {number | null} took
 * @param {number | null} won
 * @param {typeof import("./board.js").seatOwes} owes
 * @returns {import("./board.js").SeatView[]}
 */
export function seatViews(s, took, won, owes) {
  const seated = SEATED_MODES.includes(s.mode);
  return s.seats.map((seat, index) => {
    const shown = seatName(s, index);
    const you = index === s.you && seated;
    let tag = "";
    if (you) tag = shown === "You" ? "" : "(you)";
    else if (!seat.human && seated) tag = "(computer)";
    else if (!seat.taken && s.mode === "friends") tag = "(waiting to join)";
    else if (seat.stand_in) tag = "(computer playing)";
    else if (seat.away === "left") tag = "(left)";
    else if (seat.away === "lost") tag = "(connection lost)";
    else if (!seat.connected && s.mode === "friends") tag = "(away)";
    const marks = [];
    if (s.to_play === index) marks.push("to-play");
    if (index === took) marks.push("took");
    if (index === won) marks.push("won");
    if (you) marks.push("you");
    // Once the game is over, every seat left with no cards has gone out, whoever it is.
    const out = seat.out || (s.over !== null && seat.cards === 0);
    return { name: shown, tag, waiting: !(seat.taken || seat.named), cards: seat.cards, out, marks, owes: owes(s, index, you ? "You" : shown), stack: seat.stack };
  });
}
