// @ts-check
// Drawing cards. The server says what every card pays ("pays"); nothing here knows the rules.
import { el, plural, siteUrl } from "./dom.js";

const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
const SUIT_NAMES = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };

/** "queen of hearts", "seven", "a number card". */
export function cardName(card) {
  if (!card.rank) return "a number card";
  const rank = RANK_NAMES[card.rank] || card.rank;
  const name = card.suit ? `${rank} of ${SUIT_NAMES[card.suit]}` : rank;
  return card.pays ? `${name}, pays ${card.pays}` : name;
}

/**
 * A card as a person sees it: the real face (vendored SVG deck) when rank and suit are known,
 * else a plain face. `mini` draws a small text card for the open hands of teaching mode.
 */
export function cardElement(card, { mini = false } = {}) {
  const node = el("div", mini ? "card mini" : "card");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(card));
  if (card.suit === "H" || card.suit === "D") node.classList.add("red");
  if (card.rank === "10") node.classList.add("ten");
  if (card.pays) {
    node.classList.add("pay");
    node.dataset.pays = String(card.pays);
  }
  if (card.suit) node.classList.add(`suit-${card.suit}`);
  if (!mini && card.rank && card.suit) {
    // The large index of the high-contrast cards (a setting; hidden otherwise).
    const index = el("span", "hc-index", `${card.rank}${SUITS[card.suit]}`);
    index.setAttribute("aria-hidden", "true");
    // With the setting, a large suit sign in the suit's own colour stands for the printed face.
    const pip = el("span", "hc-pip", SUITS[card.suit]);
    pip.setAttribute("aria-hidden", "true");
    node.append(index, pip);
    const face = el("img", "face");
    face.src = siteUrl(`static/cards/${card.suit}${card.rank === "10" ? "10" : card.rank}.svg`).href;
    face.alt = "";
    face.draggable = false;
    node.append(face);
  } else {
    const suit = SUITS[card.suit] || "";
    node.append(el("span", "corner", `${card.rank || "–"}${suit}`));
    if (!mini) node.append(el("span", "big-pip", suit || card.rank || "·"));
  }
  if (card.pays && !mini) {
    const badge = el("span", "pays-badge", String(card.pays));
    badge.title = `Pays ${card.pays}: the next player owes ${plural(card.pays, "card")}`;
    badge.setAttribute("aria-hidden", "true");
    node.append(badge);
  }
  return node;
}

/** What a seat still owes on a pay card of `pays`: a mark for each card it asks for, filled as it
 * is paid, and beside them, in words, what is left to pay (a new player cannot guess what the
 * marks count). `owner` is who owes: "You" or a seat's name. The live table and the replay both
 * draw it, so both say it alike. */
export function owedMarks(pays, owed, owner) {
  const node = el("div", "owed");
  const paid = pays - owed;
  const more = plural(owed, "more card");
  const said = owner === "You" ? `You owe ${more}` : `${owner} owes ${more}`;
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", `${said}; ${paid} of ${pays} paid`);
  node.title = node.getAttribute("aria-label");
  for (let i = 0; i < pays; i += 1) node.append(el("span", i < paid ? "mark paid" : "mark"));
  node.append(el("span", "owed-words", `${owed} to pay`));
  return node;
}

/** A face-down card (a stack's back). */
export function backElement() {
  const node = el("div", "back");
  node.setAttribute("aria-hidden", "true");
  return node;
}

/** Spread `nodes` (cards already in `pile`, oldest first) across the pile, overlapping as much as
 * they must. The card's width is measured, not read from the style sheet: there it is a clamp()
 * that grows with the window. Each card shows its corner index whole beside the next one (a
 * high-contrast card's large index is measured too, room allowing); where the pile is too narrow
 * for all of them, the older cards lie squared under the oldest one shown. The top `keep` cards
 * are always spread (the card being paid for and those paid on it), and the card being paid for
 * shows its pay badge whole beside the next one, the others giving up room for it. */
export function fan(pile, nodes, keep = 1) {
  fanned.set(pile, { nodes, keep });
  resized.observe(pile);
  layOut(pile, nodes, keep);
}

/** The cards each pile last spread, spread again whenever the pile changes size: a pile drawn
 * before the table around it is laid out (a table's first state, drawn before its seats, after a
 * reload or by a link) or before the window is turned or resized would otherwise keep a spread
 * measured for another width. The observer calls back before the page is painted. */
const fanned = new WeakMap();
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const last = fanned.get(target);
    const nodes = last ? last.nodes.filter((node) => node.isConnected && !node.classList.contains("sweeping")) : [];
    if (nodes.length) layOut(target, nodes, last.keep);
  }
});

function layOut(pile, nodes, keep) {
  if (!nodes.length) return;
  const width = pile.clientWidth || 300;
  const cardWidth = nodes[0].offsetWidth || 84;
  pile.style.removeProperty("--hc-scale");
  const index = Math.max(0, ...nodes.map((node) => {
    const label = node.querySelector(".hc-index");
    return label ? label.offsetWidth + 2 : 0; // 0 while the setting is off (the index hidden)
  }));
  // The least a card may show of itself: its printed corner index (a quarter of its width).
  const least = Math.max(cardWidth * 0.25, 12);
  // What the card being paid for must show when a card lies on it: its badge, ring included.
  const paid = keep > 1 ? nodes[nodes.length - keep] : null;
  const badge = paid ? paid.querySelector(".pays-badge") : null;
  const badgeRoom = badge ? badge.offsetLeft + badge.offsetWidth + 3 : 0;
  const room = width - cardWidth;
  const fit = Math.max(1, Math.floor((room - Math.max(0, badgeRoom - least)) / least) + 1);
  const spread = nodes.slice(-Math.min(nodes.length, Math.max(fit, keep)));
  const wanted = Math.max(cardWidth * 0.4, index);
  const gaps = spread.slice(1).map(() => (spread.length > 1 ? Math.min(wanted, room / (spread.length - 1)) : 0));
  const at = spread.indexOf(paid);
  if (at >= 0 && at < gaps.length && gaps[at] < badgeRoom) {
    gaps[at] = Math.min(badgeRoom, room);
    const rest = gaps.length > 1 ? Math.min(wanted, Math.max(0, room - gaps[at]) / (gaps.length - 1)) : 0;
    gaps.forEach((_, i) => { if (i !== at) gaps[i] = rest; });
  }
  const step = gaps.length ? Math.min(...gaps) : 0;
  if (spread.length > 1 && index > step) {
    // No room for the whole index: a smaller one (its padding and edge, 12px, stay).
    pile.style.setProperty("--hc-scale", String(Math.max(0.3, (step - 14) / (index - 14))));
  }
  const start = (room - gaps.reduce((sum, gap) => sum + gap, 0)) / 2;
  const under = nodes.length - spread.length;
  let left = start;
  nodes.forEach((node, i) => {
    if (i > under) left += gaps[i - under - 1];
    node.style.left = `${left}px`;
  });
}
