// @ts-check
// The chart of every stack after each trick, with its legend in HTML (it wraps, and stays
// legible on a phone), an optional cursor for the replay viewer, and for a never-ending game the
// server's word on where its cycle starts and one period of it, shaded. The chart is drawn at its
// real width (its viewBox follows it), so that its text keeps its size on a phone as on a desktop;
// its colours are the page's (light or dark).
import { el } from "./dom.js";

/** A seat's colour, one of eight (style.css sets them for a light and a dark page). */
const seatColour = (k) => `var(--seat-${k % 8})`;
const NS = "http://www.w3.org/2000/svg";
const WIDE = 600, H = 180, L = 40, B = 24, T = 10, R = 10;
const CYCLE_COLOUR = "var(--cycle)";

/** The charts drawn, each redrawn when its width changes (a turned phone, a dialog opened). */
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const svg = /** @type {any} */ (target); // it carries what it was drawn with (drawChart)
    if (svg.chartArgs && Math.round(svg.getBoundingClientRect().width) !== svg.chartWidth) {
      drawChart(svg, ...svg.chartArgs);
    }
  }
});

function svgNode(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

const fmt = (value) => value.toLocaleString("en");

/**
 * Draw `points` (one array of stack sizes per trick) into `svg`, the legend into `legend`.
 * `cursor` (a trick number) draws a vertical line for the replay viewer. `cycle` (from the server:
 * `pre_period_tricks`, `pre_period_cards`, `period_tricks`, `period_cards`) marks where a
 * never-ending game's cycle starts and shades one period, as far as the chart reaches. `counts`:
 * the stacks the legend gives (a replay in the middle of a trick), else those at the cursor.
 * `tricks`: how many tricks the points follow; a point past them is the hands a game stopped with
 * in the middle of a trick (the server's), drawn last and marked "end".
 */
export function drawChart(svg, legend, points, names, cursor = null, cycle = null, counts = null, tricks = null) {
  svg.replaceChildren();
  legend.replaceChildren();
  svg.chartArgs = [legend, points, names, cursor, cycle, counts, tricks];
  resized.observe(svg);
  const shown = Math.round(svg.getBoundingClientRect().width);
  svg.chartWidth = shown;
  const W = shown > 2 * (L + R) ? shown : WIDE; // not laid out yet (a closed dialog): its usual width
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  if (!points.length) return;
  const total = points[0].reduce((a, b) => a + b, 0) || 1;
  const n = Math.max(1, points.length - 1);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + (1 - v / total) * (H - T - B);
  if (cycle) drawCycle(svg, cycle, n, x);
  svg.append(svgNode("path", { d: `M${L},${T} V${H - B} H${W - R}`, fill: "none", class: "axis" }));
  const label = (text, tx, ty, anchor = "start") => {
    const t = svgNode("text", { x: tx, y: ty, "text-anchor": anchor });
    t.textContent = text;
    svg.append(t);
  };
  label(String(total), L - 4, T + 8, "end");
  label("0", L - 4, H - B, "end");
  const ended = tricks !== null && points.length - 1 > tricks;
  label(ended ? "end" : `trick ${fmt(points.length - 1)}`, W - R, H - 6, "end");
  label("trick 0", L, H - 6);
  const at = cursor === null ? points.length - 1 : Math.min(cursor, points.length - 1);
  names.forEach((name, k) => {
    const colour = seatColour(k);
    const line = svgNode("polyline", {
      points: points.map((p, i) => `${x(i).toFixed(1)},${y(p[k]).toFixed(1)}`).join(" "),
      fill: "none", "stroke-width": 1.6,
    });
    line.style.stroke = colour;
    svg.append(line);
    const item = el("li");
    const swatch = el("span", "swatch");
    swatch.style.background = colour;
    item.append(swatch, document.createTextNode(`${name}: ${(counts || points[at])[k]}`));
    legend.append(item);
  });
  if (cycle) legend.append(cycleLegend(cycle));
  if (cursor !== null) {
    svg.append(svgNode("line", { x1: x(at), x2: x(at), y1: T, y2: H - B, "stroke-dasharray": "3 3", class: "cursor" }));
  }
}

/** The cycle's start (a solid line) and one period (shaded), drawn under the stacks' lines. */
function drawCycle(svg, cycle, n, x) {
  const shade = (node, paint, value) => {
    node.style[paint] = value;
    return node;
  };
  const start = cycle.pre_period_tricks;
  if (start > n) return; // a live game that has not reached its cycle yet
  const end = Math.min(start + cycle.period_tricks, n);
  const group = svgNode("g", { class: "cycle" });
  group.append(shade(svgNode("rect", {
    x: x(start), y: T, width: Math.max(1, x(end) - x(start)), height: H - T - B, "fill-opacity": 0.14,
  }), "fill", CYCLE_COLOUR));
  group.append(shade(svgNode("line", { x1: x(start), x2: x(start), y1: T, y2: H - B, "stroke-width": 2, class: "cycle-start" }), "stroke", CYCLE_COLOUR));
  if (start + cycle.period_tricks < n) {
    group.append(shade(svgNode("line", { x1: x(end), x2: x(end), y1: T, y2: H - B, "stroke-dasharray": "4 3" }), "stroke", CYCLE_COLOUR));
  }
  const room = x(end) - x(start);
  const text = svgNode("text", {
    x: room > 130 ? x(start) + 6 : x(start) - 6, y: H - B - 6, class: "cycle-label",
    "text-anchor": room > 130 ? "start" : "end", "stroke-width": 3, "paint-order": "stroke",
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
