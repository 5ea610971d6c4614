// @ts-check
// The board: the seats around the pile, the pile's fan of cards, and the mark of the card being
// paid for. The live table and the replay both draw their board here, so both show a game alike;
// what each seat says comes from the caller (the server's words). The one thing read here from a
// position is who owes on the card being paid for (seatOwes), so that both boards mark it alike.
import { el, plural, reducedMotion } from "./dom.js";
import { backElement, cardElement, cardName, fan, owedMarks } from "./cards.js";
import { ringSlot } from "./ring.js";

/** How long a won pile takes to slide to its winner, in milliseconds. */
export const SWEEP_MS = 420;

/** The most cards of the pile drawn: older ones lie squared under them. */
const PILE_SHOWN = 8;

/**
 * One seat as the board draws it.
 * @typedef {Object} SeatView
 * @property {string} name - its name as shown ("You", "Ann", "a friend")
 * @property {string} [tag] - a word after the name: "(you)", "(computer)", "(left)"...
 * @property {boolean} [waiting] - its person has not come yet (the name is the table's words)
 * @property {number} cards - the cards in its stack
 * @property {boolean} [out] - it went out: dimmed, and "out" for its count
 * @property {string[]} [marks] - its classes: "to-play", "you", "took", "won"
 * @property {{pays: number, owed: number, owner: string} | null} [owes] - what it owes on the
 *   card being paid for (`owner`: "You" or its name), null when it owes nothing
 * @property {import("../../messages.js").CardJson[] | null} [stack] - its open hand, top first
 */

/**
 * A position as far as the card being paid for goes: the live table's state and a replay frame
 * (with its pile of cards) both have these.
 * @typedef {Object} Paying
 * @property {import("../../messages.js").CardJson[]} pile - the pile, oldest first
 * @property {number | null} challenge - where on `pile` the card being paid for lies (null: none)
 * @property {number} owed - cards still owed for it
 * @property {number | null} [to_play] - who turns next
 */

/**
 * What seat `index` owes on the card being paid for in `position`, its owner shown as `owner`
 * ("You" or its name): the seat to play owes while a pay card is being paid for and something is
 * still owed; every other seat, and every seat between payments, owes nothing (null).
 * @param {Paying} position
 * @param {number} index
 * @param {string} owner
 * @returns {SeatView["owes"]}
 */
export function seatOwes(position, index, owner) {
  const card = position.challenge === null ? null : position.pile[position.challenge];
  // The server never sends a card being paid for with nothing owed; were it to, "0 to pay" would
  // be a false mark, so the rule asks for both.
  if (!card || position.to_play !== index || position.owed <= 0) return null;
  return { pays: card.pays, owed: position.owed, owner };
}

/**
 * Draw `seats` around the pile in `box` (a `.board`, whose `.centre` stays), seat `bottom` at the
 * bottom and the others clockwise in turn order (js/ring.js).
 * @param {HTMLElement} box
 * @param {SeatView[]} seats
 * @param {number} bottom
 */
export function drawSeats(box, seats, bottom) {
  box.querySelectorAll(":scope > .seat").forEach((node) => node.remove());
  box.dataset.count = String(seats.length);
  box.classList.toggle("open-hands", seats.some((seat) => seat.stack));
  seats.forEach((seat, index) => {
    const node = el("div", "seat");
    node.dataset.seat = String(index);
    node.dataset.slot = ringSlot(index, bottom, seats.length);
    for (const mark of seat.marks || []) node.classList.add(mark);
    if (seat.out) node.classList.add("out");
    const name = el("div", seat.waiting ? "name waiting" : "name", seat.name);
    if (seat.tag) name.append(" ", el("span", "tag", seat.tag));
    const stack = el("div", "stack" + (seat.cards ? "" : " empty"));
    stack.append(backElement(), el("span", "stack-count", String(seat.cards)));
    const text = el("div", "seat-text");
    text.append(name, el("div", "count", seat.out ? "out" : plural(seat.cards, "card")));
    // The marks' place is kept while a seat owes nothing: a seat does not grow when it owes.
    text.append(seat.owes ? owedMarks(seat.owes.pays, seat.owes.owed, seat.owes.owner) : el("div", "owed-place"));
    const body = el("div", "seat-body");
    body.append(stack, text);
    node.append(body);
    if (seat.stack) {
      const open = el("div", "open-stack");
      open.setAttribute("role", "list");
      open.setAttribute("aria-label", seat.name === "You" ? "Your stack, top first" : `${seat.name}'s stack, top first`);
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

/**
 * Lay `cards` (the pile, oldest first) on `pile`: its last few fanned, the card being paid for
 * (`challenge`, an index into `cards`, or null) glowing. Cards still on their way to a winner
 * (`.sweeping`) stay. An empty pile keeps its size and says `emptyWords` ("Pile empty — your turn").
 * Returns the cards drawn.
 * @param {HTMLElement} pile
 * @param {import("../../messages.js").CardJson[]} cards
 * @param {number | null} challenge
 * @param {string} emptyWords
 * @returns {HTMLElement[]}
 */
export function drawPile(pile, cards, challenge, emptyWords) {
  pile.querySelectorAll(".card:not(.sweeping), .pile-empty").forEach((node) => node.remove());
  pile.classList.toggle("empty", !cards.length);
  if (!cards.length) pile.append(el("span", "pile-empty", emptyWords));
  const shown = cards.slice(-PILE_SHOWN);
  const at = challenge === null ? -1 : challenge - (cards.length - shown.length);
  const nodes = shown.map((card, i) => {
    const node = cardElement(card);
    if (i === at) node.classList.add("challenge");
    pile.append(node);
    return node;
  });
  fan(pile, nodes, at >= 0 ? nodes.length - at : 1);
  return nodes;
}

/**
 * The card `node` travels from seat `seat`'s stack (in `root`) to the pile, turning over on the way.
 * @param {HTMLElement} root
 * @param {HTMLElement} node
 * @param {number} seat
 * @param {number} ms
 */
export function flyIn(root, node, seat, ms) {
  const from = root.querySelector(`.seat[data-seat='${seat}'] .stack`);
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
    { duration: ms, easing: "ease-out" },
  );
}

/**
 * A won pile (its `cards`, already marked as sweeping) gathers onto its top card and slides as
 * one stack to seat `seat`'s stack (in `root`), shrinking on the way. The cards stay opaque until
 * they arrive: faded cards over each other would show through one another.
 * @param {HTMLElement} root
 * @param {HTMLElement[]} cards
 * @param {number} seat
 */
export function sweep(root, cards, seat) {
  const to = root.querySelector(`.seat[data-seat='${seat}'] .stack`);
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

/**
 * The live table's pile: a card turned flies in from its owner's stack, and a won pile lands,
 * stays a moment and slides to its winner. `holdUntil` says until when (performance.now()) the
 * won cards are still on their way: the next card waits for them.
 */
export class LivePile {
  /**
   * @param {HTMLElement} board - the board, whose seats the cards fly from and to
   * @param {HTMLElement} pile
   * @param {HTMLElement} caption - the line under the pile
   * @param {{play: (sound: string) => void}} sound
   */
  constructor(board, pile, caption, sound) {
    this.board = board;
    this.pile = pile;
    this.caption = caption;
    this.sound = sound;
    /** @type {(() => void) | null} */
    this.sweepNow = null;
    this.holdUntil = 0;
  }

  /** Forget the pile (a new table or a fresh connection). */
  reset() {
    this.sweepNow = null;
    this.holdUntil = 0;
    this.pile.replaceChildren();
  }

  /**
   * Draw the pile of state `s` (`previous`: the state before, at the same game unless `newGame`),
   * and say in `caption` what it holds; an empty pile says `emptyWords`.
   * @param {import("../../messages.js").TableState} s
   * @param {import("../../messages.js").TableState | null} previous
   * @param {boolean} newGame
   * @param {string} emptyWords
   */
  draw(s, previous, newGame, emptyWords) {
    const pile = this.pile;
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
      /** @type {HTMLElement[]} */
      const held = [...pile.querySelectorAll(".card:not(.sweeping)")].map((node) => /** @type {HTMLElement} */ (node));
      if (oneMore) {
        const last = cardElement(s.last_card.card);
        pile.append(last);
        held.push(last);
        fan(pile, held);
        flyIn(this.board, last, s.last_card.seat, s.pace === "fast" ? 180 : 320);
      }
      held.forEach((node) => node.classList.add("sweeping"));
      const seat = s.last_take.seat;
      const go = () => {
        clearTimeout(timer);
        if (this.sweepNow === go) this.sweepNow = null;
        sweep(this.board, held, seat);
      };
      const delay = oneMore ? { slow: 1100, normal: 700, fast: 260 }[s.pace] || 500 : 0;
      const timer = setTimeout(go, delay);
      this.sweepNow = go;
      this.holdUntil = performance.now() + delay + SWEEP_MS + 60;
    }
    drawPile(pile, s.pile, s.challenge, emptyWords);
    const newest = /** @type {HTMLElement | null} */ (pile.querySelector(".card:not(.sweeping):last-child"));
    if (oneMore) this.sound.play(s.last_take && s.tricks > previous.tricks ? "take" : s.last_card.card.pays ? "pay" : "card");
    if (animate && oneMore && newest && s.pile.length) flyIn(this.board, newest, s.last_card.seat, s.pace === "fast" ? 180 : 320);
    // "13 cards in the pile; top: queen of spades, pays 2." (where the pile is narrow, a phone
    // shows "13 cards in the pile." and the top card says the rest).
    if (s.pile.length) {
      const top = el("span", "pile-top", `; top: ${cardName(s.pile[s.pile.length - 1])}`);
      this.caption.replaceChildren(`${plural(s.pile.length, "card")} in the pile`, top, ".");
    } else {
      this.caption.textContent = s.taken;
    }
  }

}
