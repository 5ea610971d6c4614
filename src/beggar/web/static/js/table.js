// The live table: draws each state the server sends. It holds no game logic: who owes what,
// what each card pays and what the prompt says all come from the server.
import { $, el, plural, reducedMotion, siteUrl } from "./dom.js";
import { backElement, cardElement, cardName } from "./cards.js";
import { drawChart } from "./chart.js";

const SEATED_MODES = ["computer", "friends"];

/** The title of a table: its lesson, famous game, or who sits at it. */
export function tableTitle(s) {
  if (s.lesson) return `Lesson ${s.lesson.number}: ${s.lesson.title}`;
  if (s.famous) return s.famous.title;
  const names = s.seats.map((seat) => seat.name).join(" · ");
  if (s.mode === "friends") return `Friend table: ${names}`;
  if (s.mode === "watch") return `Watching ${names}`;
  return names;
}

/** Where a never-ending famous game's cycle starts and its period (from the server), or null. */
function famousCycle(s) {
  return (s.famous && s.famous.cycle) || null;
}

/** The rules in one line: "Practice table: pay J1 Q2 K3 A4, ...". */
export function rulesSummary(rules) {
  const settings = rules.settings;
  const parts = [`pay ${settings.pay}`, settings.deck, `${settings.players} players`];
  if (settings.lead === "random") parts.push("random lead");
  if (settings["max-cards"] !== "none") parts.push(`stops after ${Number(settings["max-cards"]).toLocaleString("en")} cards`);
  if (settings["max-tricks"] !== "none") parts.push(`stops after ${Number(settings["max-tricks"]).toLocaleString("en")} tricks`);
  if (settings["time-limit"] !== "none") parts.push(`time limit ${settings["time-limit"]}`);
  return `${rules.title}: ${parts.join(", ")}.`;
}

export class TableView {
  constructor(sound) {
    this.sound = sound;
    this.state = null;
    this.rules = null;
    this.lastSeq = 0;
    this.chartPoints = [];
    this.shownEnd = null;
    this.clock = { left: null, at: 0, running: false };
    setInterval(() => this.tickClock(), 500);
  }

  /** Forget the previous table (a new table or a fresh connection). */
  reset() {
    this.state = null;
    this.lastSeq = 0;
    this.chartPoints = [];
    this.shownEnd = null;
    $("log").replaceChildren();
    $("pile").replaceChildren();
  }

  get player() {
    const s = this.state;
    return Boolean(s) && s.you !== null && s.you !== undefined;
  }

  /** True when Space or Enter should turn this person's card now. */
  canTurn() {
    const turn = $("turn");
    return Boolean(this.state) && !turn.hidden && !turn.disabled;
  }

  render(s) {
    const previous = this.state && this.state.table === s.table ? this.state : null;
    const newGame = !previous || s.games_played !== previous.games_played || s.reshuffles !== previous.reshuffles;
    if (s.rules) this.rules = s.rules;
    s.rules = this.rules;
    this.state = s;
    document.title = `${tableTitle(s)} — Beggar-My-Neighbour`;
    $("table-title").textContent = tableTitle(s);
    $("rules-line").textContent = rulesSummary(s.rules);
    const player = this.player;
    const waiting = s.waiting_for.length > 0;
    $("share").hidden = !(s.mode === "friends" && player && waiting);
    $("share-text").textContent = s.waiting_for.length > 1
      ? "Send this link to your friends; the game starts when everyone is here."
      : "Send this link to your friend; the game starts when they arrive.";
    if (!$("share").hidden) $("share-link").value = siteUrl(`t/${s.table}`).href;

    // A friend who came by a link without a name is asked for one (their seat says "Player 2").
    $("name-ask").hidden = !(s.mode === "friends" && player && /^Player \d+$/.test(s.seats[s.you].name));
    this.drawSeats(s, previous);
    this.drawPile(s, previous, newGame);
    $("prompt").textContent = s.prompt;
    $("notice").textContent = s.notice || "";
    $("notice").hidden = !s.notice;
    const pausedBanner = $("paused-banner");
    pausedBanner.hidden = !(s.paused && !s.over);
    $("paused-why").textContent = s.paused_why || "Paused.";
    $("resume-big").hidden = !player;

    const lesson = s.mode === "lesson";
    const mine = player && (lesson || s.to_play === s.you);
    const auto = player && s.seats[s.you].automatic;
    const over = s.over !== null;
    const turn = $("turn");
    turn.textContent = lesson ? "Next card" : "Turn my card";
    turn.hidden = over || !player || !(SEATED_MODES.includes(s.mode) || lesson);
    turn.disabled = !mine || s.paused || auto || waiting;
    const again = $("play-again");
    again.hidden = !(over && player);
    const asked = s.new_game_asked.includes(s.you);
    again.textContent = asked ? "Waiting for the others…" : lesson || s.mode === "famous" ? "Start again" : "Play again";
    again.disabled = asked;
    $("pause").textContent = s.paused ? "Resume" : "Pause";
    $("pause").disabled = !player || over || waiting;
    $("auto").setAttribute("aria-pressed", String(auto));
    const watchWords = s.mode === "friends" ? "Play my cards for me"
      : s.seats.length > 2 ? "Watch all players" : "Watch both players";
    $("auto").textContent = auto ? (s.mode === "friends" ? "Turn my own cards" : "Stop watching")
      : (lesson ? "Play it for me" : watchWords);
    $("auto").hidden = !player || s.mode === "watch" || s.mode === "famous";
    this.drawOffers(s);
    const newGame_ = $("again");
    newGame_.hidden = !player || over; // at the end, "Play again" is the one main action
    const othersAsked = s.new_game_asked.length > 0 && !asked;
    newGame_.textContent = lesson || s.mode === "famous" ? "Start again"
      : asked ? "New game asked" : othersAsked ? "Agree to a new game" : "New game";
    newGame_.disabled = asked;
    newGame_.classList.toggle("attention", othersAsked);
    $("pace").value = s.pace;
    $("pace").disabled = !player;
    $("pace").closest("label").hidden = !player; // a spectator watches at the players' pace
    $("pause").hidden = !player || over;
    $("over-line").hidden = !over;
    if (over) {
      $("over-sentence").textContent = s.over.sentence;
      $("over-replay").hidden = !s.over.replay;
      if (s.over.replay) $("over-replay").href = siteUrl(`r/${s.over.replay}`).href;
    }
    let counts = `${plural(s.cards, "card")} turned, ${plural(s.tricks, "trick")}.`;
    if (s.reshuffles) counts += ` Deal ${s.reshuffles + 1} of this sitting.`;
    if (!player) counts += " Watching.";
    $("counts").textContent = counts;
    this.clock = { left: s.time_left, at: performance.now(), running: s.time_left !== null && !s.paused && !over && !waiting };
    this.tickClock();
    this.drawLog(s);
    this.drawChart(s);
    this.drawEnd(s);
  }

  /** For each friend away past the grace the server gives: let the computer play for them, or a
   * new game without them (the buttons carry the seat; the page binds them). */
  drawOffers(s) {
    const box = $("offers");
    const absent = this.player ? s.seats.map((seat, i) => [seat, i]).filter(([seat, i]) => i !== s.you && seat.absent && !seat.stand_in) : [];
    box.hidden = !absent.length;
    const key = absent.map(([seat, i]) => `${i}:${seat.name}:${s.over !== null}`).join("|");
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren();
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
    const box = $("clock");
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
    // A won trick and a won game are marked for a moment (the style sheet leaves out the motion
    // under reduced motion); a won game has its chord.
    const took = previous && s.last_take && s.tricks > previous.tricks ? s.last_take.seat : null;
    const won = previous && s.over && !previous.over ? s.over.winner : null;
    if (won !== null && won !== undefined) this.sound.play("win");
    const box = $("seats");
    box.querySelectorAll(":scope > .seat").forEach((node) => node.remove()); // the pile stays
    box.dataset.count = String(s.seats.length);
    const seated = SEATED_MODES.includes(s.mode);
    // The others sit in rows above the pile, this person below it: columns for the others.
    const others = s.seats.length - (seated && this.player ? 1 : 0);
    box.style.setProperty("--cols", String(others <= 4 ? others : others <= 6 ? 3 : 4));
    const challenge = s.challenge === null ? null : s.pile[s.challenge];
    s.seats.forEach((seat, index) => {
      const node = el("div", "seat");
      node.dataset.seat = String(index);
      if (s.to_play === index) node.classList.add("to-play");
      if (seat.out) node.classList.add("out");
      if (index === took) node.classList.add("took");
      if (index === won) node.classList.add("won");
      if (index === s.you && seated) node.classList.add("you");
      let tag = "";
      if (index === s.you && seated) tag = "(you)";
      else if (!seat.human && seated) tag = "(computer)";
      else if (!seat.taken && s.mode === "friends") tag = "(waiting for a friend)";
      else if (seat.stand_in) tag = "(computer playing)";
      else if (seat.away === "left") tag = "(left)";
      else if (seat.away === "lost") tag = "(connection lost)";
      else if (!seat.connected && s.mode === "friends") tag = "(away)";
      const name = el("div", "name", seat.name);
      if (tag) name.append(" ", el("span", "tag", tag));
      const stack = el("div", "stack" + (seat.cards ? "" : " empty"));
      stack.append(backElement());
      stack.append(el("span", "stack-count", String(seat.cards)));
      const text = el("div", "seat-text");
      text.append(name);
      text.append(el("div", "count", seat.out ? "out" : plural(seat.cards, "card")));
      if (challenge && s.to_play === index && s.owed > 0) {
        const owes = el("div", "owed");
        const paid = challenge.pays - s.owed;
        owes.setAttribute("role", "img");
        owes.setAttribute("aria-label", `has paid ${paid} of ${challenge.pays}`);
        for (let i = 0; i < challenge.pays; i += 1) owes.append(el("span", i < paid ? "mark paid" : "mark"));
        text.append(owes);
      }
      node.append(stack, text);
      if (seat.stack) {
        const open = el("div", "open-stack");
        open.setAttribute("role", "list");
        open.setAttribute("aria-label", `${seat.name}'s stack, top first`);
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
    const pile = $("pile");
    const animate = !reducedMotion() && s.pace !== "instant" && previous && !newGame;
    const swept = animate && previous.pile.length && s.tricks === previous.tricks + 1 && s.last_take;
    if (swept) this.sweep(pile, s.last_take.seat);
    pile.querySelectorAll(".card:not(.sweeping)").forEach((node) => node.remove());
    const shown = s.pile.slice(-8);
    pile.classList.toggle("empty", !s.pile.length);
    const width = pile.clientWidth || 300;
    const cardWidth = parseFloat(getComputedStyle(pile).getPropertyValue("--card-w")) || 84;
    const step = shown.length > 1 ? Math.min(36, (width - cardWidth) / (shown.length - 1)) : 0;
    const start = (width - cardWidth - step * (shown.length - 1)) / 2;
    const challenge = s.challenge === null ? -1 : s.challenge - (s.pile.length - shown.length);
    shown.forEach((card, i) => {
      const node = cardElement(card);
      node.style.left = `${start + i * step}px`;
      if (i === challenge) node.classList.add("challenge");
      pile.append(node);
    });
    const newest = pile.querySelector(".card:not(.sweeping):last-child");
    const oneMore = previous && s.cards === previous.cards + 1 && s.last_card;
    if (oneMore) this.sound.play(s.last_take && s.tricks > previous.tricks ? "take" : s.last_card.card.pays ? "pay" : "card");
    if (animate && oneMore && newest && s.pile.length) this.flyIn(newest, s.last_card.seat);
    $("pile-count").textContent = s.pile.length
      ? `${plural(s.pile.length, "card")} in the pile; top: ${cardName(s.pile[s.pile.length - 1])}.`
      : "The pile is empty.";
  }

  /** The card travels from its owner's stack to the pile, turning over on the way. */
  flyIn(node, seat) {
    const from = document.querySelector(`.seat[data-seat='${seat}'] .stack`);
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

  /** A won pile sweeps under the winner's stack. */
  sweep(pile, seat) {
    const to = document.querySelector(`.seat[data-seat='${seat}'] .stack`);
    const cards = [...pile.querySelectorAll(".card:not(.sweeping)")];
    if (!to || !cards.length) return;
    const target = to.getBoundingClientRect();
    for (const node of cards) {
      node.classList.add("sweeping");
      const box = node.getBoundingClientRect();
      const dx = target.left - box.left;
      const dy = target.top - box.top;
      const motion = node.animate(
        [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.7)`, opacity: 0 }],
        { duration: 380, easing: "ease-in", fill: "forwards" },
      );
      motion.onfinish = () => node.remove();
      setTimeout(() => node.remove(), 600); // a page in the background may not finish animations
    }
  }

  drawLog(s) {
    const log = $("log");
    const fresh = s.log.filter((line) => line.seq > this.lastSeq);
    if (!fresh.length) return;
    if (fresh[0].seq > this.lastSeq + 1) log.replaceChildren();
    for (const line of fresh) {
      const item = el("li", "", line.text);
      if (line.note) item.append(el("span", "note", line.note));
      log.append(item);
    }
    while (log.children.length > 200) log.firstChild.remove();
    this.lastSeq = fresh[fresh.length - 1].seq;
    log.scrollTop = log.scrollHeight;
    // The log names every seat; the prompt, said after it, speaks to this person ("you owe 2").
    const told = fresh.slice(-2).map((line) => [line.text, line.note].filter(Boolean).join(" "));
    if (this.player && s.prompt && !s.over) told.push(s.prompt);
    $("narration").textContent = told.join(" ");
    const note = [...s.log].reverse().find((line) => line.note);
    $("lesson-note").hidden = s.mode !== "lesson" || !note;
    if (note) $("lesson-note").textContent = note.note;
  }

  drawChart(s) {
    this.chartPoints = s.history_start === 0 ? s.history.slice() : this.chartPoints.concat(s.history);
    const show = (s.mode === "famous" || s.over !== null) && this.chartPoints.length > 1;
    $("chart-box").hidden = !show;
    if (!show) return;
    const names = s.seats.map((seat) => seat.name);
    drawChart($("chart"), $("chart-legend"), this.chartPoints, names, null, famousCycle(s));
    $("chart-caption").textContent = `Cards in each stack after each of ${plural(this.chartPoints.length - 1, "trick")}`;
  }

  drawEnd(s) {
    const dialog = $("end");
    if (!s.over) {
      this.shownEnd = null;
      if (dialog.open) dialog.close();
      return;
    }
    const key = `${s.table}:${s.games_played}:${s.over.deal}:${s.cards}:${s.over.replay}`;
    if (this.shownEnd === key) return;
    const first = !this.shownEnd || !this.shownEnd.startsWith(`${s.table}:${s.games_played}:${s.over.deal}:${s.cards}:`);
    this.shownEnd = key;
    $("end-title").textContent = s.prompt;
    $("end-sentence").textContent = s.lesson && s.lesson.outro ? `${s.over.sentence} ${s.lesson.outro}` : s.over.sentence;
    const next = s.lesson && s.lesson.next;
    $("end-next").hidden = !next;
    if (next) $("end-next").dataset.lesson = String(next);
    const facts = $("end-facts");
    facts.replaceChildren();
    const fact = (term, value) => facts.append(el("dt", "", term), el("dd", "", value));
    fact("Cards turned", String(s.over.cards));
    fact("Tricks", String(s.over.tricks));
    fact("Result", { finished: "finished", loop: "a loop: it would never end", stopped: "stopped" }[s.over.status]);
    fact("Cards held", s.seats.map((seat, i) => `${seat.name} ${s.over.holdings[i]}`).join(", "));
    const deal = $("end-deal");
    deal.replaceChildren();
    s.over.deal_hands.forEach((hand, h) => {
      if (h) deal.append(el("span", "hand-break", " / "));
      const line = el("span", "hand");
      line.append(el("b", "", `${s.seats[h] ? s.seats[h].name : h + 1}: `));
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
    $("end-again").hidden = !this.player;
    $("end-again").textContent = s.mode === "lesson" || s.mode === "famous" ? "Start again" : "Play again";
    if (this.chartPoints.length > 1) {
      drawChart($("end-chart"), $("end-chart-legend"), this.chartPoints, s.seats.map((seat) => seat.name), null, famousCycle(s));
    }
    $("end-chart-box").hidden = this.chartPoints.length <= 1;
    if (first && !dialog.open) {
      dialog.showModal();
      $("end-title").focus({ preventScroll: true }); // the headline first, on a phone too
      dialog.scrollTop = 0;
    }
  }
}
