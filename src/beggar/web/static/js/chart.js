// The chart of every stack after each trick, with its legend in HTML (it wraps, and stays
// legible on a phone), an optional cursor for the replay viewer, and for a never-ending game the
// server's word on where its cycle starts and one period of it, shaded.
import { el } from "./dom.js";

export const SEAT_COLOURS = ["#c0262d", "#1f5fbf", "#b7791f", "#6b3fa0", "#1c7c54", "#d0427f", "#3b3b3b", "#0f8b8d"];
const NS = "http://www.w3.org/2000/svg";
const W = 600, H = 180, L = 40, B = 24, T = 10, R = 10;
export const CYCLE_COLOUR = "#b7791f";

function svgNode(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/**
 * Draw `points` (one array of stack sizes per trick) into `svg`, the legend into `legend`.
 * `cursor` (a trick number) draws a vertical line for the replay viewer. `cycle` (from the server:
 * `pre_period_tricks`, `pre_period_cards`, `period_tricks`, `period_cards`) marks where a
 * never-ending game's cycle starts and shades one period, as far as the chart reaches. `counts`:
 * the stacks the legend gives (a replay in the middle of a trick), else those at the cursor.
 */
export function drawChart(svg, legend, points, names, cursor = null, cycle = null, counts = null) {
  svg.replaceChildren();
  legend.replaceChildren();
  if (!points.length) return;
  const total = points[0].reduce((a, b) => a + b, 0) || 1;
  const n = Math.max(1, points.length - 1);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + (1 - v / total) * (H - T - B);
  if (cycle) drawCycle(svg, cycle, n, x);
  svg.append(svgNode("path", { d: `M${L},${T} V${H - B} H${W - R}`, stroke: "#555", fill: "none" }));
  const label = (text, tx, ty, anchor = "start") => {
    const t = svgNode("text", { x: tx, y: ty, "font-size": 12, "text-anchor": anchor, fill: "#333" });
    t.textContent = text;
    svg.append(t);
  };
  label(String(total), L - 4, T + 8, "end");
  label("0", L - 4, H - B, "end");
  label(`trick ${points.length - 1}`, W - R, H - 6, "end");
  label("trick 0", L, H - 6);
  const at = cursor === null ? points.length - 1 : Math.min(cursor, points.length - 1);
  names.forEach((name, k) => {
    const colour = SEAT_COLOURS[k % SEAT_COLOURS.length];
    svg.append(svgNode("polyline", {
      points: points.map((p, i) => `${x(i).toFixed(1)},${y(p[k]).toFixed(1)}`).join(" "),
      fill: "none", stroke: colour, "stroke-width": 1.6,
    }));
    const item = el("li");
    const swatch = el("span", "swatch");
    swatch.style.background = colour;
    item.append(swatch, document.createTextNode(`${name}: ${(counts || points[at])[k]}`));
    legend.append(item);
  });
  if (cycle) legend.append(cycleLegend(cycle));
  if (cursor !== null) {
    svg.append(svgNode("line", { x1: x(at), x2: x(at), y1: T, y2: H - B, stroke: "#111", "stroke-dasharray": "3 3", class: "cursor" }));
  }
}

const fmt = (value) => value.toLocaleString("en");

/** The cycle's start (a solid line) and one period (shaded), drawn under the stacks' lines. */
function drawCycle(svg, cycle, n, x) {
  const start = cycle.pre_period_tricks;
  if (start > n) return; // a live game that has not reached its cycle yet
  const end = Math.min(start + cycle.period_tricks, n);
  const group = svgNode("g", { class: "cycle" });
  group.append(svgNode("rect", {
    x: x(start), y: T, width: Math.max(1, x(end) - x(start)), height: H - T - B,
    fill: CYCLE_COLOUR, "fill-opacity": 0.14,
  }));
  group.append(svgNode("line", { x1: x(start), x2: x(start), y1: T, y2: H - B, stroke: CYCLE_COLOUR, "stroke-width": 2, class: "cycle-start" }));
  if (start + cycle.period_tricks < n) {
    group.append(svgNode("line", { x1: x(end), x2: x(end), y1: T, y2: H - B, stroke: CYCLE_COLOUR, "stroke-dasharray": "4 3" }));
  }
  const room = x(end) - x(start);
  const text = svgNode("text", {
    x: room > 130 ? x(start) + 6 : x(start) - 6, y: H - B - 6, "font-size": 12, fill: "#7a5212",
    "text-anchor": room > 130 ? "start" : "end", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke",
  });
  text.textContent = "cycle starts";
  group.append(text);
  svg.append(group);
}

/** The legend's line for the cycle: where it starts and its period, in tricks and cards. */
function cycleLegend(cycle) {
  const item = el("li", "cycle-key");
  const swatch = el("span", "swatch cycle-swatch");
  swatch.style.background = CYCLE_COLOUR;
  const where = cycle.pre_period_tricks === 0
    ? "at the deal itself"
    : `after trick ${fmt(cycle.pre_period_tricks)} (card ${fmt(cycle.pre_period_cards)})`;
  item.append(swatch, document.createTextNode(
    `Cycle: starts ${where}, repeats every ${fmt(cycle.period_tricks)} tricks (${fmt(cycle.period_cards)} cards)`,
  ));
  return item;
}
